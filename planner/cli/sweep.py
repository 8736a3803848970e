"""``planner sweep``: every scenario of a grid of what-ifs, written as a table (SPEC §4)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from planner.cli.common import catalog_option, console, epilog, fail, load_what_if
from planner.cli.what_if import (
    Assignment,
    axis_values,
    flag_paths,
    parse_assignment,
    relabel,
    set_option,
)

__all__ = ["sweep"]


def _axes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    out = []
    for text in values:
        path, spec = parse_assignment(text, "--axis")
        out.append(Assignment(path, axis_values(spec), f"--axis {text}"))
    return tuple(out)


@click.command(epilog=epilog(
    "planner sweep usage.yaml --axis site.electricity_per_kwh=0.1:0.4:0.05 "
    "--axis demand.gpu_hours_per_month=200,400,800 -o sweep.csv",
    "planner sweep usage.yaml --axis options.box.pricing=on_demand,spot -o sweep.xlsx",
    "planner sweep usage.yaml --axis demand.gpus=1:8:1 -o -   # CSV on standard output"))
@click.argument("usage", type=click.Path(allow_dash=True))
@click.option("--axis", "axes", multiple=True, required=True, metavar="KEY=VALUES",
              callback=_axes,
              help="A dotted path of usage.yaml (as Plan.replace takes it) and its values: "
                   "a,b,c or START:STOP:STEP (STOP included when the steps reach it within "
                   "rounding, e.g. 0.1:0.4:0.05). Repeat for more axes: the grid is every "
                   "combination (--mode zip: the axes side by side).")
@click.option("-o", "--output", required=True,
              help="The table: .csv, .parquet (needs pyarrow) or .xlsx; '-' writes CSV to "
                   "standard output.")
@click.option("--mode", type=click.Choice(["product", "zip"]), default="product",
              show_default=True, help="product: every combination of the axes' values; "
                                      "zip: the i-th value of every axis together.")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar on standard error (default: when a sweep runs more "
                   "than a few seconds in a terminal).")
@set_option
@catalog_option
def sweep(usage: str, axes, output: str, mode: str, progress: bool | None, sets,
          catalogs) -> None:
    """Evaluate USAGE in every scenario of the axes and write one row per scenario and option.

    The columns are those of Plan.sweep: scenario, one per axis, option, the option's figures,
    cheapest (the scenario's cheapest option) and its break-even against every other option.
    USAGE '-' reads standard input.
    """
    from planner.errors import UserError
    from planner.render.sweep_file import SWEEP_SUFFIXES, has_parquet, render_sweep

    if output == "-":
        fmt = "csv"
    else:
        suffix = Path(output).suffix.lower()
        if suffix not in SWEEP_SUFFIXES:
            raise click.UsageError(f"cannot tell the format from {output!r}: use a suffix of "
                                   f"{', '.join(SWEEP_SUFFIXES)} (or '-' for CSV on standard "
                                   "output)")
        fmt = SWEEP_SUFFIXES[suffix]
    if fmt == "parquet" and not has_parquet():
        fail(UserError.single("writing Parquet needs pyarrow, which is not installed: "
                              "pip install pyarrow, or write .csv or .xlsx", file=output))
    if mode == "zip" and len({len(a.value) for a in axes}) > 1:
        lengths = ", ".join(f"{a.path}: {len(a.value)}" for a in axes)
        raise click.UsageError(f"--mode zip needs axes of one length; got {lengths}")
    what_if = load_what_if(usage, catalogs, sets)
    plan = what_if.plan
    grid = {}
    for a in axes:  # an axis given twice: the last one counts
        grid.pop(a.path, None)
        grid[a.path] = a.value
    try:
        frame = plan.sweep(grid, mode=mode, progress=progress)
    except UserError as err:
        flags = {**what_if.flags, **flag_paths(plan.data, axes)}
        fail(UserError(relabel(err.problems, flags, what_if.base.document)))
    try:
        content = render_sweep(frame, fmt)
    except ValueError as err:
        fail(UserError.single(str(err), file=output))
    if output == "-":
        sys.stdout.buffer.write(content)
        sys.stdout.flush()
        return
    from pricing.files import write_atomic

    try:
        write_atomic(output, content)
    except OSError as err:
        fail(UserError.single(f"cannot write {output}: {err.strerror or err}"))
    _print_summary(frame, console())
    click.echo(f"wrote {output}")  # a path as it is: never wrapped, never markup


def _print_summary(frame, out) -> None:
    """Scenarios and options swept, and in how many scenarios each option is the cheapest."""
    scenarios = int(frame["scenario"].nunique())
    options = int(frame["option"].nunique())
    firsts = frame.drop_duplicates("scenario")["cheapest"]
    counts = firsts.fillna("none").astype(str).value_counts()
    shares = ", ".join(f"{name} in {count}" for name, count in counts.items())
    out.print(f"{scenarios:,} scenario{'s' if scenarios != 1 else ''} × {options} option"
              f"{'s' if options != 1 else ''}; cheapest: {shares}", markup=False,
              highlight=False)
