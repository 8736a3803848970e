"""``planner catalog``: list a catalog table's rows, filtered and sorted, or every table; and
the group that also holds ``planner catalog import``. The query is :mod:`pricing.query`'s;
this module parses the options, calls it and prints."""

from __future__ import annotations

import csv
import datetime as _dt
import json
import sys

import click

from planner.cli.catalog_import import catalog_import
from planner.cli.common import (
    catalog_option,
    date_option,
    epilog,
    open_catalog,
    print_table,
    report_date,
)
from pricing import query as catalog_query

__all__ = ["catalog"]

_LIST = "list"


class _CatalogGroup(click.Group):
    """``planner catalog [TABLE] [QUERY]`` lists a table, ``planner catalog import`` imports.

    A first argument that is not a subcommand is handed to the hidden ``list`` command, so
    that the listing keeps its short form.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ctx.help_option_names):
            args = [_LIST, *args]
        return super().parse_args(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "[TABLE] [QUERY] [OPTIONS]")
        formatter.write_usage(ctx.command_path, "import SOURCE [OPTIONS]", prefix="   or: ")

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.commands[_LIST].format_options(ctx, formatter)
        self.format_commands(ctx, formatter)


class _ListCommand(click.Command):
    """The listing, whose usage line reads ``planner catalog [TABLE] ...``."""

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        path = ctx.parent.command_path if ctx.parent else ctx.command_path
        formatter.write_usage(path, " ".join(self.collect_usage_pieces(ctx)))


def _complete_tables(ctx, param, incomplete: str) -> list[str]:
    from pricing.catalog import TABLES

    return [name for name in TABLES if name.startswith(incomplete)]


@click.group(cls=_CatalogGroup, epilog=epilog(
    "planner catalog                               # the tables and their sizes",
    "planner catalog gpus h100                     # rows matching a substring",
    "planner catalog clouds --where gpus=8 --sort price_per_hour --format csv",
    "planner catalog import vms.csv --as-of 2026-11-01 -o clouds-aws.csv"))
def catalog() -> None:
    """Browse and search the catalog, or import a price list into a catalog file.

    TABLE is a catalog table (gpus, clouds, free-tiers, ...); without it, every table and its
    row count, or with --format json or csv the rows of every table, each naming its table.
    QUERY keeps the rows that contain it (case-insensitive). Every row shows its as-of date,
    its age in days (age_days) and its source.
    """


catalog.add_command(catalog_import)


@catalog.command(_LIST, cls=_ListCommand, hidden=True)
@click.argument("table", required=False, shell_complete=_complete_tables)
@click.argument("query", required=False)
@click.option("--where", "wheres", multiple=True, metavar="COLUMN=VALUE",
              help="Keep rows whose COLUMN equals VALUE (case-insensitive; numbers compare as "
                   "numbers; an empty VALUE matches empty cells); may be given more than once.")
@click.option("--sort", "sort", metavar="COLUMN",
              help="Sort the rows by COLUMN (empty cells last); -COLUMN sorts descending.")
@date_option()
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
@catalog_option
def catalog_list(table: str | None, query: str | None, wheres: tuple[str, ...],
                 sort: str | None, date, fmt: str, catalogs: tuple[str, ...]) -> None:
    """List the rows of TABLE that contain QUERY."""
    from pricing.catalog import TABLES

    name = None if table is None else _query(catalog_query.table_named, "TABLE", table, TABLES)
    filters = [_query(catalog_query.parse_where, "--where", text) for text in wheres]
    if name is None and (filters or sort):
        raise click.UsageError("--where and --sort need a TABLE")
    cat = open_catalog(catalogs)
    day = date or report_date()
    if name is None:
        _print_everything(cat, fmt, day)
        return
    rows = cat.rows(name)
    if query:
        rows = catalog_query.containing(rows, query)
    rows = catalog_query.with_age_days(rows, day)
    schema = [c.name for c in TABLES[name]]
    columns = list(rows[0]) if rows else catalog_query.listing_columns(schema)
    for column, value in filters:
        _query(catalog_query.check_column, "--where", column, columns)
        rows = catalog_query.where(rows, column, value)
    if sort:
        column = sort.removeprefix("-")
        _query(catalog_query.check_column, "--sort", column, columns)
        rows = catalog_query.sort_rows(rows, column, descending=sort.startswith("-"))
    if fmt == "table":
        from planner.render.catalog_tables import catalog_table

        print_table(lambda width: catalog_table(name, rows, width))
    else:
        _print_rows(rows, columns, fmt)


def _query(function, param_hint: str, *args):
    """``function(*args)``, a :class:`pricing.query.QueryError` shown as a usage error of the
    parameter ``param_hint`` (exit 2)."""
    try:
        return function(*args)
    except catalog_query.QueryError as err:
        raise click.BadParameter(str(err), param_hint=param_hint) from None


def _print_rows(rows: list[dict], columns: list[str], fmt: str) -> None:
    """``rows`` as a JSON list of objects or as CSV with the header ``columns``."""
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, default=str))
    else:
        writer = csv.DictWriter(sys.stdout, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def _print_everything(cat, fmt: str, day: _dt.date) -> None:
    """The catalog without a TABLE: every table and its row count (the table format), or the
    rows of every table, each with its ``table`` first (json, csv: SPEC §3's list of rows)."""
    from pricing.catalog import TABLES

    if fmt == "table":
        for name in TABLES:
            click.echo(f"{name:<12} {len(cat.rows(name)):>5} rows   planner catalog {name}")
        return
    rows, columns = catalog_query.every_table(
        {name: catalog_query.with_age_days(cat.rows(name), day) for name in TABLES},
        {name: catalog_query.listing_columns([c.name for c in TABLES[name]]) for name in TABLES})
    _print_rows(rows, columns, fmt)
