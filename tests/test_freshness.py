"""Every shipped price row is younger than the planner's staleness threshold, or says why not
(pricing/freshness.py; pricing/CATALOG.md, "Refreshing the files")."""

import datetime
from pathlib import Path

import pytest

from planner.result import STALE_AFTER_DAYS, default_date
from pricing.catalog import load_catalog
from pricing.freshness import PRICE_DATES, STALE_MARKER, provider_summary, row_age_days, stale_rows


@pytest.mark.parametrize("table", sorted(PRICE_DATES))
def test_no_shipped_row_is_stale_without_a_note(table):
    date = default_date()
    name = {"free_tiers": "free-tiers"}.get(table, table)
    stale = stale_rows(table, load_catalog().rows(name), date, STALE_AFTER_DAYS)
    shown = ", ".join(f"{i} {r}".strip() + f" ({d} days)" for i, r, d in stale[:10])
    assert not stale, (
        f"{len(stale)} {table} rows are more than {STALE_AFTER_DAYS} days old at {date} "
        f"without {STALE_MARKER!r} in their notes: {shown}; refresh them "
        "(python pricing/tools/refresh.py) or say why not")


def test_stale_rows_finds_old_rows_unless_marked():
    day = datetime.date(2026, 12, 1)
    rows = [
        {"id": "a/x", "region": "r", "as_of": "2026-06-04", "notes": ""},  # 180 days: fresh
        {"id": "a/y", "region": "r", "as_of": "2026-06-03", "notes": "estimate of storage"},
        {"id": "a/z", "region": "r", "as_of": "2020-05", "notes": "Estimate: not refreshed, "
                                                                  "no newer list"},
        {"id": "a/w", "region": "r", "as_of": "", "notes": ""},
    ]
    # 2026-06-03 -> 2026-12-01 is 181 days; a note merely containing "estimate" is not enough
    assert stale_rows("clouds", rows, day, 180) == [("a/y", "r", 181)]
    assert row_age_days("2026-06", day) == 183  # a month counts from its first day
    gpus = [{"id": "g", "street_price": None, "price_as_of": "2014-01"},
            {"id": "h", "street_price": 100.0, "price_as_of": "2024-07-24"}]
    assert stale_rows("gpus", gpus, day, 180) == [("h", "", 860)]


def test_the_catalogs_provider_table_matches_the_data():
    text = (Path(__file__).resolve().parents[1] / "pricing" / "CATALOG.md").read_text()
    section = text.split("## Providers: rows, age, estimates", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 6 and cells[0].startswith("`"):
            table[cells[0].strip("`")] = (int(cells[1]), int(cells[2]), cells[3], cells[4])
    data = {p: (n, t, oldest, cur) for p, n, t, oldest, cur in
            provider_summary(load_catalog().rows("clouds"))}
    assert table == data
