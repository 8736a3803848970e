"""The command line (SPEC §3): report, validate, catalog, schema.

Exit status: 0 success; 1 a problem with the user's input or files (printed without a
traceback); 2 wrong command-line usage (click's own). A bug keeps its traceback. Heavy
libraries are imported inside the commands so that ``planner --help`` stays fast.
"""

from __future__ import annotations

import datetime as _dt
import sys
from pathlib import Path

import click

SUFFIX_FORMATS = {".pdf": "pdf", ".html": "html", ".htm": "html", ".json": "json",
                  ".csv": "csv", ".md": "md"}
FORMATS = ("pdf", "html", "json", "csv", "md")
CATALOG_TABLES = ("gpus", "clouds", "free-tiers")


def _fail(err) -> None:
    """Print a user error's problems to standard error and exit with status 1."""
    problems = getattr(err, "problems", None) or [err]
    count = len(problems)
    click.secho(f"error: {count} problem{'s' if count != 1 else ''} found", fg="red", err=True)
    for problem in problems:
        click.echo(f"  {problem}", err=True)
    sys.exit(1)


def _load(path: str, catalogs: tuple[str, ...] = ()):
    from planner.errors import UserError
    from planner.plan import load

    try:
        return load(path, catalogs)
    except UserError as err:
        _fail(err)


_catalog_option = click.option(
    "--catalog", "catalogs", multiple=True, type=click.Path(dir_okay=False),
    help="A catalog CSV file merged over the built-in catalog (rows replace those with the "
         "same id); may be given more than once.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gpu-planner", prog_name="planner")
def main() -> None:
    """Rent GPUs, live on free notebook tiers, or buy your own: costs and break-even."""


def _output_format(usage: str, output: str | None, fmt: str | None) -> tuple[str, str]:
    if output is None:
        fmt = fmt or "pdf"
        return str(Path(Path(usage).stem + "." + fmt)), fmt
    if output == "-":
        return "-", fmt or "json"
    if fmt is None:
        suffix = Path(output).suffix.lower()
        if suffix not in SUFFIX_FORMATS:
            raise click.UsageError(
                f"cannot tell the format from {output!r}: use a suffix of "
                f"{', '.join(sorted(SUFFIX_FORMATS))} or --format")
        fmt = SUFFIX_FORMATS[suffix]
    return output, fmt


@main.command()
@click.argument("usage", type=click.Path(dir_okay=False))
@click.option("-o", "--output", help="Output file; '-' writes to standard output.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Output format.")
@click.option("--date", "date", type=click.DateTime(["%Y-%m-%d"]),
              help="Date printed in the report (default: SOURCE_DATE_EPOCH, else today).")
@_catalog_option
def report(usage: str, output: str | None, fmt: str | None, date, catalogs) -> None:
    """Evaluate USAGE and write the report."""
    target, fmt = _output_format(usage, output, fmt)
    plan = _load(usage, catalogs)
    from planner.errors import UserError
    from planner.report import render, summary_table, write_report

    day = date.date() if date else _report_date()
    try:
        result = plan.evaluate()
        if target == "-":
            sys.stdout.buffer.write(render(result, fmt, date=day))
            sys.stdout.flush()
            return
        written = write_report(result, target, fmt, date=day)
    except UserError as err:
        _fail(err)
    except OSError as err:
        _fail(UserError.single(f"cannot write {target}: {err.strerror or err}"))
    from rich.console import Console

    console = Console()
    console.print(summary_table(result))
    console.print(f"wrote {written}")


def _report_date() -> _dt.date:
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc).date()
    return _dt.date.today()


@main.command()
@click.argument("usage", type=click.Path(dir_okay=False))
@_catalog_option
def validate(usage: str, catalogs) -> None:
    """Check USAGE and print every problem (exit 1 if any)."""
    _load(usage, catalogs)
    click.echo(f"{usage}: ok")


@main.command()
@click.argument("table", required=False, type=click.Choice(CATALOG_TABLES))
@click.argument("query", required=False)
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
def catalog(table: str | None, query: str | None, fmt: str) -> None:
    """List catalog rows of TABLE, those matching QUERY (a case-insensitive substring)."""
    from pricing.catalog import load_catalog

    cat = load_catalog()
    if table is None:
        for name in CATALOG_TABLES:
            click.echo(f"{name:<12} {len(cat.rows(name)):>5} rows   planner catalog {name}")
        return
    rows = cat.rows(table)
    if query:
        needle = query.lower()
        rows = [r for r in rows if any(needle in str(v).lower() for v in r.values()
                                       if v is not None)]
    if fmt == "json":
        import json

        click.echo(json.dumps(rows, indent=2, default=str))
    elif fmt == "csv":
        import csv

        if rows:
            writer = csv.DictWriter(sys.stdout, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    else:
        _print_catalog_table(table, rows)


_TABLE_COLUMNS = {
    "gpus": ("id", "memory_gb", "tdp_watts", "peak_fp16_tflops", "street_price",
             "throughput_generic", "as_of", "source"),
    "clouds": ("id", "region", "gpu", "gpus", "price_per_hour", "spot_price_per_hour",
               "reserved_1y_price_per_hour", "currency", "as_of", "source"),
    "free-tiers": ("id", "gpu", "gpus", "session_hours", "weekly_quota_hours",
                   "daily_quota_hours", "fee_per_month", "as_of", "source"),
}


def _print_catalog_table(table: str, rows: list[dict]) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Table(title=f"{table} ({len(rows)} rows)")
    columns = [c for c in _TABLE_COLUMNS[table] if not rows or c in rows[0]]
    for column in columns:
        out.add_column(column, overflow="fold")
    for row in rows:
        out.add_row(*("" if row.get(c) is None else str(row.get(c)) for c in columns))
    Console().print(out)


@main.command()
def schema() -> None:
    """Print the JSON Schema of usage.yaml."""
    import json

    from planner.usage_schema import usage_json_schema

    click.echo(json.dumps(usage_json_schema(), indent=2))


if __name__ == "__main__":
    main()
