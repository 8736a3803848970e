"""``planner report``, ``planner validate`` and ``planner schema``: a usage file evaluated and
written as a report, checked, or described (SPEC §3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from planner.cli.common import (
    STDIN_PATH,
    catalog_option,
    console,
    date_option,
    epilog,
    fail,
    lang_option,
    load_what_if,
    paper_option,
    report_date,
    side_name,
    stdout_is_terminal,
)
from planner.cli.what_if import set_option
from planner.render.formats import FORMATS, SUFFIXES

__all__ = ["output_format", "report", "schema", "validate"]

#: Formats that are not text: refused on standard output when it is a terminal.
BINARY_FORMATS = ("pdf", "xlsx", "zip")


def output_format(usage: str, output: str | None, fmt: str | None) -> tuple[str, str]:
    """Where the report goes and in which format: ``<usage stem>.pdf`` without ``-o``
    (``plan.pdf`` for standard input); standard output for ``-`` (JSON unless ``--format``);
    else ``-o``'s suffix unless ``--format`` says otherwise (an unknown suffix is a usage
    error)."""
    if output is None:
        fmt = fmt or "pdf"
        stem = "plan" if usage == STDIN_PATH else Path(usage).stem
        return str(Path(stem + "." + fmt)), fmt
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


@click.command(epilog=epilog(
    "planner report usage.yaml                         # usage.pdf here",
    "planner report usage.yaml -o plan.html --open     # write, then open it",
    "planner report usage.yaml --set site.electricity_per_kwh=0.3 -o -",
    "planner report usage.yaml --compare-to old.json   # the change against a saved result",
    "cat usage.yaml | planner report - -o plan.md      # USAGE from standard input"))
@click.argument("usage", type=click.Path(allow_dash=True))
@click.option("-o", "--output", help="Output file; '-' writes to standard output.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Output format.")
@date_option("the report")
@paper_option
@lang_option("the PDF, HTML, Markdown and XLSX report")
@set_option
@click.option("--compare-to", "compare_to", type=click.Path(dir_okay=False),
              help="A result saved as JSON (report -o old.json): also print how the costs, "
                   "the cheapest option and the break-even moved since.")
@click.option("--open", "open_file", is_flag=True,
              help="Open the written report with the system's viewer.")
@catalog_option
def report(usage: str, output: str | None, fmt: str | None, date, paper: str, lang: str,
           sets, compare_to: str | None, open_file: bool, catalogs) -> None:
    """Evaluate USAGE and write the report.

    USAGE is a usage file, or '-' for standard input (its relative catalogs: paths then
    resolve against the current folder). Without -o the report is <usage stem>.pdf in the
    current folder (plan.pdf for standard input).
    """
    import warnings

    target, fmt = output_format(usage, output, fmt)
    if target == "-" and fmt in BINARY_FORMATS and stdout_is_terminal():
        fail_text(f"refusing to write a {fmt.upper()} to the terminal: give a file with -o, "
                  "or redirect standard output (> plan.pdf)")
    if open_file and target == "-":
        raise click.UsageError("--open opens a written file: give one with -o, not '-'")
    saved = _load_saved(compare_to) if compare_to else None
    what_if = load_what_if(usage, catalogs, sets)
    from planner.errors import UserError
    from planner.render import (
        LanguageFallbackWarning,
        MissingGlyphWarning,
        render,
        summary_table,
        write_report,
    )

    day = date or report_date()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LanguageFallbackWarning)
        warnings.simplefilter("always", MissingGlyphWarning)
        try:
            result = what_if.evaluate()
            if target == "-":
                content = render(result, fmt, date=day, paper=paper, lang=lang)
            else:
                written = write_report(result, target, fmt, date=day, paper=paper, lang=lang)
        except UserError as err:
            fail(err)
        except OSError as err:
            fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    fallback = [w for w in caught if issubclass(w.category, LanguageFallbackWarning)]
    said = "en" if fallback else lang  # the terminal's language: the report's
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
        if saved is not None:  # standard output holds the report: the change goes beside it
            _print_change(saved, compare_to, result, usage, console(stderr=True), said)
        return
    out = console()
    out.print(summary_table(result, said))
    _print_plan_warnings(result, day, said)
    if saved is not None:
        _print_change(saved, compare_to, result, usage, out, said)
    click.echo(f"wrote {written}")  # a path as it is: never wrapped, never markup
    if open_file:
        click.launch(str(written))


def fail_text(message: str) -> None:
    """A user error that is one sentence, not about a file: exit 1."""
    from planner.errors import UserError

    fail(UserError.single(message, file="planner"))


def _load_saved(path: str):
    from planner.errors import UserError
    from planner.evaluate.saved import load_saved

    try:
        return load_saved(path)
    except UserError as err:
        fail(err)


def _print_change(saved, saved_path: str, result, usage: str, out, lang: str) -> None:
    """How the decision moved from the saved result to this one (planner diff's summary, in
    ``lang``)."""
    from planner.evaluate.compare import compare
    from planner.render.diff import print_summary

    change = compare(saved, result, old_name=side_name(saved_path), new_name=side_name(usage))
    out.print()
    print_summary(change, out, lang)


def _print_plan_warnings(result, day, lang: str) -> None:
    """The plan's own warnings (values probably not meant, stale prices) under the summary,
    on standard error, in ``lang``."""
    from planner.messages import render as sentence

    for message in result.warnings_at(day):
        click.secho(f"warning: {sentence(message, lang)}", fg="yellow", err=True)


@click.command(epilog=epilog(
    "planner validate usage.yaml",
    "planner validate usage.yaml --set demand.gpus=8",
    "planner validate usage.yaml --format json   # for CI: {ok, problems, warnings}",
    "cat usage.yaml | planner validate -"))
@click.argument("usage", type=click.Path(allow_dash=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="text: problems on standard error; json: one object on standard output, "
                   "{ok, file, problems: [{file, line, column, key, message, suggestion}], "
                   "warnings} (the exit status is the same).")
@set_option
@catalog_option
def validate(usage: str, fmt: str, sets, catalogs) -> None:
    """Check USAGE and print every problem (exit 1 if any).

    The plan is evaluated too, so that a file validate passes is one report accepts (a cost
    beyond the range of numbers, for instance, shows only when costs are computed). USAGE
    '-' reads standard input.
    """
    from planner.errors import UserError

    if fmt == "text":
        what_if = load_what_if(usage, catalogs, sets)
        try:
            result = what_if.evaluate()
        except UserError as err:
            fail(err)
        for message in result.plan_warnings:  # values probably not meant; the file is valid
            click.secho(f"warning: {message}", fg="yellow", err=True)
        click.echo(f"{_shown(usage)}: ok")
        return
    from planner.cli.common import what_if_or_error
    from planner.messages import render as sentence

    problems, warnings_ = [], []
    try:
        result = what_if_or_error(usage, catalogs, sets).evaluate()
        warnings_ = [sentence(m, "en") for m in result.plan_warnings]
    except UserError as err:
        problems = err.problems
    click.echo(json.dumps(validation_json(_shown(usage), problems, warnings_), indent=2,
                          ensure_ascii=False))
    if problems:
        sys.exit(1)


def _shown(usage: str) -> str:
    """USAGE as problems name it: ``<stdin>`` for standard input."""
    from planner.usage.load import STDIN

    return STDIN if usage == STDIN_PATH else usage


def validation_json(usage: str, problems, warnings_: list[str]) -> dict:
    """``validate --format json``'s object: ``ok``, ``file``, ``problems`` (each ``file``,
    ``line``, ``column``, ``key`` (the dotted key path, "" for the whole file),
    ``message``, ``suggestion``; null where unknown) and ``warnings`` (sentences)."""
    return {
        "ok": not problems,
        "file": usage,
        "problems": [{"file": p.file, "line": p.line, "column": p.column, "key": p.path,
                      "message": p.message, "suggestion": p.suggestion} for p in problems],
        "warnings": warnings_,
    }


@click.command(epilog=epilog("planner schema > usage.schema.json"))
def schema() -> None:
    """Print the JSON Schema of usage.yaml."""
    from planner.usage.schema import usage_json_schema

    click.echo(json.dumps(usage_json_schema(), indent=2))
