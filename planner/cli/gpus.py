"""``planner gpus [NAME[:COUNT]]``: what a GPU costs per GPU-hour on each cloud instance that
has it, at the instance's cheapest region, cheapest first (like ``sky show-gpus``). The lines
are :mod:`pricing.gpu_prices`'s; this module parses the options and prints them."""

from __future__ import annotations

import csv
import json
import sys

import click

from planner.cli.common import (
    catalog_option,
    date_option,
    epilog,
    fail,
    open_catalog,
    print_table,
    report_date,
)

__all__ = ["gpus"]


def _fx_rate(text: str) -> tuple[str, float]:
    """``"CNY=0.14"`` -> ``("CNY", 0.14)``; anything else is a usage error (exit 2)."""
    code, sep, rate = text.partition("=")
    try:
        value = float(rate)
    except ValueError:
        value = float("nan")
    if not sep or not code.strip() or not value > 0 or value == float("inf"):
        raise click.BadParameter(
            f"expected CURRENCY=RATE with a positive RATE (units of --currency per unit of "
            f"CURRENCY, as usage.yaml's fx), got {text!r}", param_hint="--fx")
    return code.strip().upper(), value


@click.command(epilog=epilog(
    'planner gpus H100:8',
    'planner gpus A100 --region us-east-1',
    'planner gpus H100:8 --currency EUR --fx USD=0.92',
))
@click.argument("gpu", required=False, metavar="[NAME[:COUNT]]")
@click.option("--region", help="Only this provider region (rows priced alike in every region "
                               "count too).")
@click.option("--currency", default="USD", show_default=True,
              help="Currency of the prices (ISO 4217); rows in another currency need --fx.")
@click.option("--fx", "fx", multiple=True, metavar="CURRENCY=RATE",
              help="Units of --currency one unit of CURRENCY buys, as usage.yaml's fx "
                   "(--currency USD --fx CNY=0.14); may be given more than once.")
@date_option()
@click.option("--format", "fmt", type=click.Choice(["table", "json", "csv"]), default="table",
              show_default=True)
@catalog_option
def gpus(gpu: str | None, region: str | None, currency: str, fx: tuple[str, ...], date,
         fmt: str, catalogs: tuple[str, ...]) -> None:
    """Price per GPU-hour of every cloud instance with the GPU NAME (COUNT of them).

    One line per provider and instance: the on-demand, spot and 1-year reserved price per
    GPU-hour at its cheapest region (the lowest on-demand price; the other prices are that
    region's), the region, its as-of date and age in days; cheapest first. NAME is a
    SkyPilot accelerator name (H100: the SXM and PCIe cards; A100-80GB) or a catalog GPU id
    (h100-80gb-pcie); without NAME, every GPU.
    """
    from planner.errors import Problem, UserError, closest
    from planner.usage.values import COMMON_CURRENCIES, iso_currencies
    from pricing import gpu_prices
    from pricing.query import QueryError

    rates = dict(_fx_rate(text) for text in fx)
    code = currency.strip().upper()
    if code not in iso_currencies():
        near = closest(code, COMMON_CURRENCIES) or closest(code, iso_currencies())
        fail(UserError([Problem(f"{currency!r} is not an ISO 4217 currency code",
                                path="--currency", suggestion=near)]))
    try:
        name, count = gpu_prices.parse_gpu_query(gpu) if gpu else (None, None)
    except QueryError as err:
        raise click.BadParameter(str(err), param_hint="NAME[:COUNT]") from None
    cat = open_catalog(catalogs)
    rows = cat.rows("clouds")
    try:
        wanted = None if name is None else gpu_prices.resolve_gpus(name, cat.ids("gpus"))
    except QueryError as err:
        fail(UserError.single(str(err), path="NAME"))
    try:
        if region is not None:
            gpu_prices.check_region(region, rows)
    except QueryError as err:
        fail(UserError.single(str(err), path="--region"))
    day = date or report_date()
    lines, left_out = gpu_prices.price_lines(rows, gpus=wanted, count=count, region=region,
                                             currency=code, fx=rates, day=day)
    if not lines and not left_out:
        fail(UserError.single(_nothing(gpu, wanted, count, region, rows)))
    if fmt == "json":
        click.echo(json.dumps(lines, indent=2))
    elif fmt == "csv":
        writer = csv.DictWriter(sys.stdout, fieldnames=gpu_prices.LINE_COLUMNS,
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(lines)
    elif lines:
        from planner.render.catalog_tables import gpu_prices_table

        print_table(lambda _width: gpu_prices_table(lines, code))
    for other, instances in left_out.items():
        click.secho(f"note: {instances} instance{'s' if instances != 1 else ''} priced in "
                    f"{other} left out: add --fx {other}=<{code} per {other}>",
                    fg="yellow", err=True)


def _nothing(query: str | None, wanted: list[str] | None, count: int | None,
             region: str | None, rows: list[dict]) -> str:
    """Why no instance matched, and (for a count asked) the counts the GPU does come in."""
    where = f" in region {region}" if region else ""
    what = query if query else "a GPU"
    counts = sorted({int(r["gpus"]) for r in rows if r.get("gpu") and r.get("gpus")
                     and (wanted is None or r["gpu"] in wanted)})
    listed = f"; instances of {', '.join(wanted or [])} have {', '.join(map(str, counts))} " \
             f"GPUs" if counts and wanted and count else ""
    return f"no cloud instance with {what}{where}{listed}"
