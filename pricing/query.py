"""Queries over catalog rows, for listing them (``planner catalog``): which table a name means,
rows that contain a text, ``COLUMN=VALUE`` filters, sorting, each row's age in days, and the
columns a listing or a brief view shows.

Every function takes the rows (plain dicts, as :meth:`pricing.catalog.Catalog.rows` gives
them) or the column names explicitly and returns new ones; nothing here reads the catalog.
A query the rows cannot answer (an unknown table or column, a malformed filter) raises
:class:`QueryError`, whose message names it and suggests the closest name.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pricing.freshness import row_age_days
from pricing.suggest import close_matches, did_you_mean

__all__ = [
    "AGE_COLUMN",
    "KEPT_COLUMNS",
    "VIEW_COLUMNS",
    "QueryError",
    "cell_equals",
    "check_column",
    "containing",
    "every_table",
    "listing_columns",
    "parse_where",
    "sort_rows",
    "table_named",
    "view_columns",
    "where",
    "with_age_days",
]

Row = dict[str, Any]

AGE_COLUMN = "age_days"
"""The column a listing adds right after ``as_of``: days from ``as_of`` to the listing's day."""

VIEW_COLUMNS = {
    "gpus": ("id", "memory_gb", "tdp_watts", "peak_fp16_tflops", "street_price",
             "throughput_generic", "as_of", "source"),
    "clouds": ("id", "region", "gpu", "gpus", "price_per_hour", "spot_price_per_hour",
               "reserved_1y_price_per_hour", "currency", "as_of", "source"),
    "free-tiers": ("id", "gpu", "gpus", "session_hours", "weekly_quota_hours",
                   "daily_quota_hours", "fee_per_month", "as_of", "source"),
    "regions": ("id", "electricity_household_per_kwh", "electricity_business_per_kwh",
                "carbon_kg_per_kwh", "currency", "as_of", "source"),
    "site-kinds": ("id", "pue", "as_of", "source"),
}
"""Table -> the columns a brief view of it shows (a table without an entry: see
:func:`view_columns`)."""

KEPT_COLUMNS = ("id", "price_per_hour", "street_price", "as_of", AGE_COLUMN, "source")
"""Columns a narrow view always keeps: the id, the price, and the as-of date, age and source
(SPEC §3: every row shows its as-of date and source)."""

_PROVENANCE = ("currency", "as_of", "source", "notes")


class QueryError(ValueError):
    """A query the rows cannot answer; the message says why (and suggests a near name)."""


def table_named(text: str, tables: Iterable[str]) -> str:
    """The table of ``tables`` that ``text`` names: case, ``_`` for ``-`` and a missing plural
    ``s`` do not matter (``GPU``, ``free_tiers``, ``free-tier`` ...).

    >>> table_named("free_tier", ["gpus", "clouds", "free-tiers"])
    'free-tiers'
    """
    names = list(tables)
    key = text.strip().lower().replace("_", "-")
    for name in (key, key + "s"):
        if name in names:
            return name
    hint = did_you_mean(close_matches(key, names, n=1))
    raise QueryError(f"{text!r} is not a catalog table{hint}; the tables are {', '.join(names)}")


def parse_where(text: str) -> tuple[str, str]:
    """``"COLUMN=VALUE"`` -> ``(column, value)``: the column lowercase, both stripped.

    >>> parse_where(" Gpu = T4")
    ('gpu', 'T4')
    """
    column, sep, value = text.partition("=")
    if not sep or not column.strip():
        raise QueryError(f"expected COLUMN=VALUE, got {text!r}")
    return column.strip().lower(), value.strip()


def containing(rows: Iterable[Row], text: str) -> list[Row]:
    """The rows with a cell that contains ``text`` (case-insensitive; empty cells never do)."""
    needle = text.lower()
    return [r for r in rows if any(needle in str(v).lower() for v in r.values() if v is not None)]


def cell_equals(value: Any, wanted: str) -> bool:
    """Whether a cell equals the text ``wanted``: numbers as numbers, true/false as text, other
    text case-insensitively; an empty cell equals only ``""``.

    >>> cell_equals(8, "8.0"), cell_equals("T4", "t4"), cell_equals(None, "")
    (True, True, True)
    """
    if value is None or value == "":
        return wanted == ""
    if isinstance(value, bool):
        return wanted.lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(wanted) == float(value)
        except ValueError:
            return False
    return str(value).strip().lower() == wanted.lower()


def where(rows: Iterable[Row], column: str, wanted: str) -> list[Row]:
    """The rows whose ``column`` equals ``wanted`` (:func:`cell_equals`)."""
    return [r for r in rows if cell_equals(r.get(column), wanted)]


def sort_rows(rows: Iterable[Row], column: str, descending: bool = False) -> list[Row]:
    """The rows by ``column``: numbers before text (text case-insensitively), empty cells last
    in either direction; rows that tie keep their order."""
    def key(row: Row) -> tuple[int, float, str]:
        value = row[column]
        if isinstance(value, (int, float)):
            return (0, float(value), "")
        return (1, 0.0, str(value).lower())

    rows = list(rows)
    present = [r for r in rows if r.get(column) not in (None, "")]
    empty = [r for r in rows if r.get(column) in (None, "")]
    return sorted(present, key=key, reverse=descending) + empty


def with_age_days(rows: Iterable[Row], day: datetime.date) -> list[Row]:
    """The rows with :data:`AGE_COLUMN` (whole days from ``as_of`` to ``day``; None without an
    ``as_of``) right after ``as_of``; rows without an ``as_of`` column are copied as they are.
    """
    aged = []
    for row in rows:
        out = {}
        for key, value in row.items():
            out[key] = value
            if key == "as_of":
                out[AGE_COLUMN] = row_age_days(value, day)
        aged.append(out)
    return aged


def listing_columns(columns: Sequence[str]) -> list[str]:
    """A table's ``columns`` as a listing has them: :data:`AGE_COLUMN` after ``as_of``."""
    out = list(columns)
    if "as_of" in out and AGE_COLUMN not in out:
        out.insert(out.index("as_of") + 1, AGE_COLUMN)
    return out


def check_column(column: str, columns: Sequence[str]) -> None:
    """Raise :class:`QueryError` unless ``column`` is one of ``columns`` (as spelled)."""
    if column not in columns:
        hint = did_you_mean(close_matches(column, columns, n=1, ignore_case=False))
        raise QueryError(f"no column {column!r}{hint}")


def every_table(rows_by_table: Mapping[str, Sequence[Row]],
                columns_by_table: Mapping[str, Sequence[str]]) -> tuple[list[Row], list[str]]:
    """The rows of every table in one list, each with its ``table`` first, and the columns of
    them all (``table``, then each table's columns not named before, in order).

    ``columns_by_table`` gives a table's columns where it has no rows to take them from.
    """
    rows: list[Row] = []
    columns = ["table"]
    for name, table_rows in rows_by_table.items():
        rows += [{"table": name, **row} for row in table_rows]
        own = list(table_rows[0]) if table_rows else list(columns_by_table[name])
        columns += [c for c in own if c not in columns]
    return rows, columns


def view_columns(table: str, schema: Sequence[str], rows: Sequence[Row]) -> list[str]:
    """The columns a brief view of ``table`` shows, of those its ``rows`` have.

    :data:`VIEW_COLUMNS` names them for the shipped tables; any other table shows its first
    six columns of ``schema`` that are not provenance, then ``as_of`` and ``source``. The age
    follows ``as_of``.
    """
    wanted = VIEW_COLUMNS.get(table)
    if not wanted:
        names = [c for c in schema if c not in _PROVENANCE]
        wanted = names[:6] + [c for c in ("as_of", "source") if c in schema]
    return [c for c in listing_columns(wanted) if not rows or c in rows[0]]
