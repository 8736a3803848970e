"""What a GPU costs per GPU-hour on each cloud instance that has it (``planner gpus``): GPU
names as a user types them, and one line per instance at its cheapest region.

A name means the catalog GPUs that SkyPilot's catalog calls by it (``H100``: the SXM and PCIe
cards, :data:`pricing.accelerators.SKYPILOT_NAMES`), else the GPU of that catalog id
(``h100-80gb-pcie``), else the GPU a SkyPilot catalog name stands for
(:data:`pricing.accelerators.ACCELERATORS`: ``a6000``); ``NAME:COUNT`` keeps the instances
with COUNT GPUs. Prices are per GPU-hour (an instance's hourly price over its GPUs), in one
currency: a row in another currency is converted with a rate given as usage.yaml's ``fx``
writes it (units of the shown currency per unit of the row's), or left out without one.

Every function takes the rows (plain dicts, as :meth:`pricing.catalog.Catalog.rows` gives
them) and returns new ones; a query the rows cannot answer raises
:class:`pricing.query.QueryError`, whose message says why and suggests a near name.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

from pricing.accelerators import ACCELERATORS, SKYPILOT_NAMES
from pricing.freshness import row_age_days
from pricing.query import QueryError
from pricing.schema import ANY_REGION
from pricing.suggest import close_matches, did_you_mean

__all__ = ["LINE_COLUMNS", "PRICES", "check_region", "gpu_names", "gpus_named",
           "parse_gpu_query", "price_lines", "resolve_gpus"]

Row = dict[str, Any]

PRICES = {
    "on_demand_per_gpu_hour": "price_per_hour",
    "spot_per_gpu_hour": "spot_price_per_hour",
    "reserved_1y_per_gpu_hour": "reserved_1y_price_per_hour",
}
"""A line's price per GPU-hour -> the clouds column (per instance-hour) it comes from."""

LINE_COLUMNS = ("gpu", "gpus", "id", "provider", "instance", *PRICES, "currency", "region",
                "as_of", "age_days", "source")
"""The columns of a line, in order."""


def parse_gpu_query(text: str) -> tuple[str, int | None]:
    """``"A100:8"`` -> ``("A100", 8)``; ``"A100"`` -> ``("A100", None)``.

    >>> parse_gpu_query(" h100:8 ")
    ('h100', 8)
    """
    name, sep, count = text.strip().partition(":")
    if not name.strip():
        raise QueryError(f"expected NAME or NAME:COUNT, got {text!r}")
    if not sep:
        return name.strip(), None
    try:
        number = int(count)
    except ValueError:
        number = 0
    if number < 1:
        raise QueryError(f"the GPU count after ':' must be a whole number of at least 1, got "
                         f"{count!r}")
    return name.strip(), number


def gpus_named(name: str, gpu_ids: Iterable[str]) -> list[str]:
    """The catalog GPUs of ``gpu_ids`` that ``name`` means (see the module's docstring; case
    does not matter); empty when it names none.

    >>> gpus_named("a100-80gb", ["a100-40gb", "a100-80gb", "a100-80gb-pcie"])
    ['a100-80gb', 'a100-80gb-pcie']
    >>> gpus_named("A6000", ["rtx-a6000"]), gpus_named("h100", ["h100-80gb", "h100-nvl"])
    (['rtx-a6000'], ['h100-80gb'])
    """
    ids = list(gpu_ids)
    key = name.strip().lower()
    sharing = [g for g in ids if SKYPILOT_NAMES.get(g.lower(), "").lower() == key]
    if sharing:
        return sharing
    by_id = {g.lower(): g for g in ids}
    for candidate in (key, ACCELERATORS.get(key)):
        if candidate in by_id:
            return [by_id[candidate]]
    return []


def gpu_names(gpu_ids: Iterable[str]) -> list[str]:
    """Every name of ``gpu_ids`` that :func:`gpus_named` takes: the ids and SkyPilot's names
    of them (the candidates of a did-you-mean)."""
    ids = list(gpu_ids)
    names = dict.fromkeys(ids)
    names.update(dict.fromkeys(SKYPILOT_NAMES[g.lower()] for g in ids
                               if g.lower() in SKYPILOT_NAMES))
    return list(names)


def resolve_gpus(name: str, gpu_ids: Iterable[str]) -> list[str]:
    """:func:`gpus_named`, or :class:`QueryError` with the closest names when it names none."""
    ids = list(gpu_ids)
    found = gpus_named(name, ids)
    if not found:
        hint = did_you_mean(close_matches(name, gpu_names(ids)))
        raise QueryError(f"unknown GPU {name!r}{hint}; `planner catalog gpus` lists them")
    return found


def price_lines(rows: Iterable[Row], *, gpus: Iterable[str] | None = None,
                count: int | None = None, region: str | None = None, currency: str = "USD",
                fx: Mapping[str, float] | None = None,
                day: datetime.date) -> tuple[list[Row], dict[str, int]]:
    """One line per instance of the clouds ``rows`` with a GPU of ``gpus`` (None: any) and
    ``count`` GPUs (None: any), at its cheapest region of ``region`` (None: any; a ``"*"``
    row stands for every region), sorted by on-demand price per GPU-hour (then by id).

    The cheapest region is the one with the lowest on-demand price (a tie: the region first
    in the alphabet, as :meth:`pricing.catalog.Catalog.cloud` chooses); the spot and 1-year
    prices, the as-of date and the age (whole days to ``day``) are that region's row's. Prices
    are per GPU-hour in ``currency``: a row's price × ``fx[row currency]`` (1 in its own).
    Instances priced only in a currency without a rate are left out: the second value counts
    them by currency.
    """
    rates = {k.upper(): float(v) for k, v in (fx or {}).items()}
    want = None if gpus is None else {g.lower() for g in gpus}
    place = None if region is None else region.strip().lower()
    best: dict[str, tuple[tuple[float, str], Row]] = {}
    unconverted: dict[str, set[str]] = {}
    for row in rows:
        if not row.get("gpu") or not row.get("gpus") or row.get("price_per_hour") is None:
            continue
        if want is not None and row["gpu"].lower() not in want:
            continue
        if count is not None and float(row["gpus"]) != count:
            continue
        if place is not None and row["region"].lower() not in (place, ANY_REGION):
            continue
        row_currency = row["currency"].upper()
        if row_currency == currency.upper():
            factor = 1.0
        elif row_currency in rates:
            factor = rates[row_currency]
        else:
            unconverted.setdefault(row_currency, set()).add(row["id"])
            continue
        line = _line(row, factor, currency.upper(), day)
        key = (line["on_demand_per_gpu_hour"], row["region"].lower())
        if row["id"] not in best or key < best[row["id"]][0]:
            best[row["id"]] = (key, line)
    lines = sorted((line for _, line in best.values()),
                   key=lambda line: (line["on_demand_per_gpu_hour"], line["id"].lower()))
    left_out = {c: len(ids - best.keys()) for c, ids in sorted(unconverted.items())}
    return lines, {c: n for c, n in left_out.items() if n}


def check_region(region: str, rows: Iterable[Row]) -> None:
    """Raise :class:`QueryError` unless some clouds row is in ``region`` (case-insensitive)."""
    regions = sorted({r["region"] for r in rows if r.get("region") not in (None, ANY_REGION)})
    if region.strip().lower() not in {r.lower() for r in regions}:
        hint = did_you_mean(close_matches(region, regions))
        raise QueryError(f"no cloud instance is listed in region {region!r}{hint}")


def _line(row: Row, factor: float, currency: str, day: datetime.date) -> Row:
    """One instance's line from its region's row: prices per GPU-hour × ``factor``."""
    gpus = float(row["gpus"])
    line: Row = {"gpu": row["gpu"], "gpus": row["gpus"], "id": row["id"],
                 "provider": row["provider"], "instance": row["instance"]}
    for name, column in PRICES.items():
        value = row.get(column)
        line[name] = None if value is None else value / gpus * factor
    as_of = row.get("as_of")
    line.update(currency=currency, region=row["region"], as_of=as_of,
                age_days=row_age_days(as_of, day),
                source=row.get("source"))
    return line
