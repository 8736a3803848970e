"""``planner diff``: what changed between two usage files and how the decision moved."""

from __future__ import annotations

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
    paper_option,
    plan_or_error,
    report_date,
    side_name,
)
from planner.cli.what_if import set_option
from planner.messages import Message
from planner.render.formats import DIFF_FORMATS

__all__ = ["diff"]


@click.command(epilog=epilog(
    "planner diff old.yaml new.yaml",
    "planner diff old.yaml new.yaml -o change.pdf",
    "planner diff old.yaml new.yaml --lang zh -o change.md",
    "planner diff usage.yaml --set demand.gpu_hours_per_month=800   # a what-if",
    "git show HEAD~1:usage.yaml | planner diff - usage.yaml"))
@click.argument("old", type=click.Path(allow_dash=True))
@click.argument("new", type=click.Path(allow_dash=True), required=False)
@click.option("-o", "--output", help="Also write the difference to this file (.md, .json, "
                                     ".html or .pdf); '-' writes it to standard output.")
@click.option("--format", "fmt", type=click.Choice(DIFF_FORMATS),
              help="Format of the file (default: from -o's suffix; JSON on standard output).")
@date_option("the file")
@paper_option
@lang_option("the summary and of the Markdown, HTML and PDF file (the JSON is English)")
@set_option
@catalog_option
def diff(old: str, new: str | None, output: str | None, fmt: str | None, date, paper: str,
         lang: str, sets, catalogs) -> None:
    """What changed from OLD to NEW (two usage files) and how the decision moved.

    Prints the input values that differ (by dotted key path, defaults filled in), the options
    added or removed, the cheapest option, each option's total cost and present value, and the
    break-even months before and after. With -o, also writes them as Markdown, JSON, or a page
    in the report's style (HTML, PDF).

    --set changes NEW (the what-if); without NEW, NEW is OLD with the --set changes. One of
    OLD and NEW may be '-', standard input.
    """
    import warnings

    from planner.errors import UserError
    from planner.evaluate.compare import compare
    from planner.render import LanguageFallbackWarning
    from planner.render.diff import SUFFIXES, print_summary, render, write_diff

    if output is not None and output != "-" and fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIXES:
            raise click.UsageError(f"cannot tell the format from {output!r}: use a suffix of "
                                   f"{', '.join(SUFFIXES)} or --format")
        fmt = SUFFIXES[suffix]
    from planner.cli.what_if import apply_sets

    if new is None and not sets:
        raise click.UsageError("give NEW, or --set changes to compare OLD with")
    if old == STDIN_PATH and new == STDIN_PATH:
        raise click.UsageError("standard input can be read once: only one of OLD and NEW "
                               "may be '-'")
    plans, problems, what_if = [], [], None
    for path in (old, new):
        try:
            plans.append(plan_or_error(path, catalogs) if path is not None else plans[0])
        except UserError as err:
            problems += err.problems
    if problems:
        fail(UserError(problems))
    try:
        what_if = apply_sets(plans[1], sets)
    except UserError as err:
        fail(err)
    plans[1] = what_if.plan
    results = []
    for plan, side in zip(plans, (None, what_if)):
        try:
            results.append(side.evaluate() if side is not None else plan.evaluate())
        except UserError as err:
            problems += err.problems
    if problems:
        fail(UserError(problems))
    new_name = side_name(new if new is not None else old)
    if sets:
        new_name = Message("diff.side_with_sets", name=new_name)
    change = compare(results[0], results[1], old_name=side_name(old), new_name=new_name,
                     old_usage=plans[0].usage, new_usage=plans[1].usage)
    day = date or report_date()
    content = written = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LanguageFallbackWarning)
        if output == "-":
            content = render(change, fmt or "json", date=day, paper=paper, lang=lang)
        elif output is not None:
            try:
                written = write_diff(change, output, fmt, date=day, paper=paper, lang=lang)
            except OSError as err:
                fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    fallback = [w for w in caught if issubclass(w.category, LanguageFallbackWarning)]
    for warning in caught:
        if warning in fallback:
            click.secho(f"warning: {warning.message}", fg="yellow", err=True)
        else:
            warnings.showwarning(warning.message, warning.category, warning.filename,
                                 warning.lineno)
    if content is not None:
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    print_summary(change, console(), "en" if fallback else lang)  # the file's language
    if written is not None:
        click.echo(f"wrote {written}")  # a path as it is: never wrapped, never markup

