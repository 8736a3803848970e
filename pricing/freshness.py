"""Which shipped catalog rows are older than the planner's staleness threshold and not marked as
kept on purpose.

A price row goes stale: the planner warns when the oldest price a plan uses is more than
``planner.result.STALE_AFTER_DAYS`` (180) days old. Every shipped row of the price tables is
either younger than that or says in its notes why it was not refreshed, with
:data:`STALE_MARKER` ("estimate: not refreshed ..."). ``tests/test_freshness.py`` runs
:func:`stale_rows` over the built-in catalog and fails on any other row; ``pricing/tools/
refresh.py`` rebuilds the provider rows.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["PRICE_DATES", "STALE_MARKER", "provider_summary", "row_age_days", "stale_rows"]

STALE_MARKER = "estimate: not refreshed"
"""The note that marks a row kept past the threshold on purpose (no newer public source)."""

PRICE_DATES = {
    "clouds": "as_of",
    "gpus": "price_as_of",  # the street price's date; specs do not go stale
    "free_tiers": "as_of",
    "regions": "as_of",
}
"""Table -> the column that dates its price."""


def row_age_days(text: Any, date: datetime.date) -> int | None:
    """Days from a catalog date (``YYYY-MM-DD``; ``YYYY-MM`` is its first day) to ``date``."""
    value = str(text or "")[:10]
    if len(value) == 7:
        value += "-01"
    try:
        return (date - datetime.date.fromisoformat(value)).days
    except ValueError:
        return None


def stale_rows(table: str, rows: Iterable[Mapping[str, Any]], date: datetime.date,
               days: int) -> list[tuple[str, str, int]]:
    """(id, region or '', age in days) of the ``rows`` of ``table`` whose price is more than
    ``days`` old at ``date`` and whose notes lack :data:`STALE_MARKER`. A row without a price
    (a GPU without a street price) or without a date is not stale."""
    column = PRICE_DATES[table]
    found = []
    for row in rows:
        if table == "gpus" and row.get("street_price") in (None, ""):
            continue
        age = row_age_days(row.get(column), date)
        if age is None or age <= days:
            continue
        if STALE_MARKER in str(row.get("notes") or "").lower():
            continue
        found.append((str(row["id"]), str(row.get("region") or ""), age))
    return found


def provider_summary(rows: Iterable[Mapping[str, Any]]) -> list[tuple[str, int, int, str, str]]:
    """(provider, rows, instance types, oldest as_of, currency) of clouds ``rows``, by provider:
    the figures of pricing/CATALOG.md's table of providers."""
    by: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        by.setdefault(str(row["provider"]), []).append(row)
    return [(name, len(items), len({str(r["id"]).lower() for r in items}),
             min(str(r["as_of"]) for r in items), str(items[0].get("currency")))
            for name, items in sorted(by.items())]
