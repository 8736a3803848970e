"""``planner report``, ``planner validate`` and ``planner schema``: a usage file evaluated and
written as a report, checked, or described (SPEC §3)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from planner.cli.common import catalog_option, fail, load_plan, report_date
from planner.render.formats import FORMATS, SUFFIXES

__all__ = ["output_format", "report", "schema", "validate"]


def output_format(usage: str, output: str | None, fmt: str | None) -> tuple[str, str]:
    """Where the report goes and in which format: ``<usage stem>.pdf`` without ``-o``;
    standard output for ``-`` (JSON unless ``--format``); else ``-o``'s suffix unless
    ``--format`` says otherwise (an unknown suffix is a usage error)."""
    if output is None:
        fmt = fmt or "pdf"
        return str(Path(Path(usage).stem + "." + fmt)), fmt
    if output == "-":
        return "-", fmt or "json"
    if fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIXES:
            raise click.UsageError(
                f"cannot tell the format from {output!r}: use a suffix of "
                f"{', '.join(sorted(SUFFIXES))} or --format")
        fmt = SUFFIXES[suffix]
    return output, fmt


@click.command()
@click.argument("usage", type=click.Path())
@click.option("-o", "--output", help="Output file; '-' writes to standard output.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Output format.")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]),
              help="Date printed in the report (default: SOURCE_DATE_EPOCH, else today).")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="Paper size of the PDF (and of the HTML when printed).")
@click.option("--lang", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the PDF and HTML report; zh needs a font with Chinese glyphs "
                   "(fc-list :lang=zh), else the report is English and a warning says so.")
@catalog_option
def report(usage: str, output: str | None, fmt: str | None, date, paper: str, lang: str,
           catalogs) -> None:
    """Evaluate USAGE and write the report."""
    import warnings

    target, fmt = output_format(usage, output, fmt)
    plan = load_plan(usage, catalogs)
    from planner.errors import UserError
    from planner.render import (
        LanguageFallbackWarning,
        MissingGlyphWarning,
        render,
        summary_table,
        write_report,
    )

    day = date.date() if date else report_date()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LanguageFallbackWarning)
        warnings.simplefilter("always", MissingGlyphWarning)
        try:
            result = plan.evaluate()
            if target == "-":
                content = render(result, fmt, date=day, paper=paper, lang=lang)
            else:
                written = write_report(result, target, fmt, date=day, paper=paper, lang=lang)
        except UserError as err:
            fail(err)
        except OSError as err:
            fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    fallback = [w for w in caught if issubclass(w.category, LanguageFallbackWarning)]
    told = [w for w in caught
            if issubclass(w.category, (LanguageFallbackWarning, MissingGlyphWarning))]
    for warning in told:
        click.secho(f"warning: {warning.message}", fg="yellow", err=True)
    for warning in caught:
        if warning not in told:
            warnings.showwarning(warning.message, warning.category, warning.filename,
                                 warning.lineno)
    if target == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    from rich.console import Console

    console = Console()
    console.print(summary_table(result, "en" if fallback else lang))
    _print_plan_warnings(result, day, "en" if fallback else lang)
    click.echo(f"wrote {written}")  # a path as it is: never wrapped, never markup


def _print_plan_warnings(result, day, lang: str) -> None:
    """The plan's own warnings (values probably not meant, stale prices) under the summary,
    on standard error, in ``lang``."""
    from planner.messages import render as sentence

    for message in result.warnings_at(day):
        click.secho(f"warning: {sentence(message, lang)}", fg="yellow", err=True)


@click.command()
@click.argument("usage", type=click.Path())
@catalog_option
def validate(usage: str, catalogs) -> None:
    """Check USAGE and print every problem (exit 1 if any).

    The plan is evaluated too, so that a file validate passes is one report accepts (a cost
    beyond the range of numbers, for instance, shows only when costs are computed).
    """
    from planner.errors import UserError

    plan = load_plan(usage, catalogs)
    try:
        result = plan.evaluate()
    except UserError as err:
        fail(err)
    for message in result.plan_warnings:  # values probably not meant; the file is still valid
        click.secho(f"warning: {message}", fg="yellow", err=True)
    click.echo(f"{usage}: ok")


@click.command()
def schema() -> None:
    """Print the JSON Schema of usage.yaml."""
    import json

    from planner.usage.schema import usage_json_schema

    click.echo(json.dumps(usage_json_schema(), indent=2))
