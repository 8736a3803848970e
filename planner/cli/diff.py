"""``planner diff``: what changed between two usage files and how the decision moved."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from planner.cli.common import catalog_option, fail, report_date
from planner.render.formats import DIFF_FORMATS

__all__ = ["diff"]


@click.command()
@click.argument("old", type=click.Path())
@click.argument("new", type=click.Path())
@click.option("-o", "--output", help="Also write the difference to this file (.md, .json, "
                                     ".html or .pdf); '-' writes it to standard output.")
@click.option("--format", "fmt", type=click.Choice(DIFF_FORMATS),
              help="Format of the file (default: from -o's suffix; JSON on standard output).")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]),
              help="Date printed in the file (default: SOURCE_DATE_EPOCH, else today).")
@catalog_option
def diff(old: str, new: str, output: str | None, fmt: str | None, date, catalogs) -> None:
    """What changed from OLD to NEW (two usage files) and how the decision moved.

    Prints the input values that differ (by dotted key path, defaults filled in), the options
    added or removed, the cheapest option, each option's total cost and present value, and the
    break-even months before and after. With -o, also writes them as Markdown, JSON, or a page
    in the report's style (HTML, PDF).
    """
    from planner.errors import UserError
    from planner.evaluate.compare import compare
    from planner.render.diff import SUFFIXES, print_summary, render, write_diff

    if output is not None and output != "-" and fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIXES:
            raise click.UsageError(f"cannot tell the format from {output!r}: use a suffix of "
                                   f"{', '.join(SUFFIXES)} or --format")
        fmt = SUFFIXES[suffix]
    from planner.evaluate.plan import load

    plans, problems = [], []
    for path in (old, new):
        try:
            plans.append(load(path, catalogs))
        except UserError as err:
            problems += err.problems
    if problems:
        fail(UserError(problems))
    results = []
    for plan in plans:
        try:
            results.append(plan.evaluate())
        except UserError as err:
            problems += err.problems
    if problems:
        fail(UserError(problems))
    change = compare(results[0], results[1], old_name=Path(old).name, new_name=Path(new).name,
                     old_usage=plans[0].usage, new_usage=plans[1].usage)
    day = date.date() if date else report_date()
    if output == "-":
        sys.stdout.buffer.write(render(change, fmt or "json", date=day))
        sys.stdout.flush()
        return
    written = None
    if output is not None:
        try:
            written = write_diff(change, output, fmt, date=day)
        except OSError as err:
            fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    from rich.console import Console

    console = Console()
    print_summary(change, console)
    if written is not None:
        click.echo(f"wrote {written}")  # a path as it is: never wrapped, never markup
