"""One catalog CSV file read into a checked table: cells parsed by their column's type, rules
within a row, duplicate ids; every problem found at once, with its line.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from pricing.errors import CatalogFileError
from pricing.rows import parse_frameworks, parse_gpu_options
from pricing.schema import (
    ACROSS_MACHINES,
    ANY_REGION,
    INTERCONNECTS,
    QUOTA_RESETS,
    TABLES,
    THROUGHPUT_PREFIX,
    Column,
)
from pricing.suggest import close_matches, did_you_mean

__all__ = ["Table", "non_negative_number", "parse_as_of", "read_table"]


_DATE = re.compile(r"^(\d{4})-(\d{2})(?:-(\d{2}))?$")
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


def parse_as_of(text: str) -> date:
    """The date of an ``as_of`` value; ``YYYY-MM`` means the first day of that month.

    >>> parse_as_of("2024-07")
    datetime.date(2024, 7, 1)
    """
    match = _DATE.match(text.strip())
    if not match:
        raise ValueError(f"date must be YYYY-MM-DD or YYYY-MM, got {text!r}")
    year, month, day = match.groups()
    return date(int(year), int(month), int(day or 1))


def non_negative_number(text: str, name: str) -> float:
    """The number of a cell of column ``name``: finite and >= 0, else a ValueError that names
    the column and quotes the cell.

    >>> non_negative_number("2.5", "price_per_hour")
    2.5
    >>> non_negative_number("-1", "price_per_hour")
    Traceback (most recent call last):
    ValueError: price_per_hour must be a finite number >= 0, got '-1'
    """
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {text!r}")
    return value


def _parse_cell(column: Column, text: str) -> Any:
    if column.kind == "str":
        return text
    if column.kind == "date":
        parse_as_of(text)
        return text
    if column.kind == "bool":
        lowered = text.lower()
        if lowered in _TRUE or lowered in _FALSE:
            return lowered in _TRUE
        raise ValueError(f"{column.name} must be true or false, got {text!r}")
    number = non_negative_number(text, column.name)
    if column.kind == "int":
        if number != int(number) or number < 1:
            raise ValueError(f"{column.name} must be a whole number >= 1, got {text!r}")
        return int(number)
    return number


@dataclass
class Table:
    """The parsed rows of one file: plain dicts keyed by column name, with their lines."""

    name: str
    file: str
    rows: list[dict[str, Any]]
    lines: list[int]


def _columns(table: str, header: Sequence[str]) -> dict[str, Column]:
    """The schema columns of ``table``, plus any extra throughput columns of a gpus header."""
    columns = {c.name: c for c in TABLES[table]}
    if table == "gpus":
        for name in header:
            if name.startswith(THROUGHPUT_PREFIX) and name not in columns:
                columns[name] = Column(name, "float", "x a100-80gb", "relative throughput")
    return columns


def _detect_table(file: str, header: list[str]) -> str:
    """Which table a header belongs to: the one whose columns include all of it."""
    if len(set(header)) != len(header):
        dupes = sorted({h for h in header if header.count(h) > 1})
        raise CatalogFileError(file, [(1, f"duplicate columns: {', '.join(dupes)}")])
    matches = [t for t in TABLES if set(header) <= set(_columns(t, header))]
    if len(matches) == 1:
        return matches[0]
    if matches:
        tables = " or ".join(matches)
        message = f"cannot tell whether this is a {tables} file; add the columns that make it one"
        raise CatalogFileError(file, [(1, message)])
    closest = max(TABLES, key=lambda t: len(set(header) & set(_columns(t, header))))
    known = list(_columns(closest, header))
    problems = []
    for name in header:
        if name not in known:
            hint = did_you_mean(close_matches(name, known, n=1))
            problems.append((1, f"column {name!r} is not a {closest} column{hint}"))
    raise CatalogFileError(file, problems)


def read_table(file: str, text: str, table: str | None = None) -> Table:
    """Parse one CSV text; ``table`` is detected from the header when not given."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise CatalogFileError(file, [(None, "the file is empty")]) from None
    except csv.Error as err:
        raise CatalogFileError(file, [(1, f"not a CSV file: {err}")]) from None
    name = table or _detect_table(file, header)
    columns = _columns(name, header)
    problems: list[tuple[int | None, str]] = []
    for column in columns.values():
        if column.required and column.name not in header:
            problems.append((1, f"missing required column {column.name!r}"))
    if problems:
        raise CatalogFileError(file, problems)

    rows, lines = [], []
    for line, cells in _records(file, reader):
        if not any(c.strip() for c in cells):
            continue
        if len(cells) != len(header):
            problems.append((line, f"{len(cells)} cells, the header has {len(header)}"))
            continue
        row: dict[str, Any] = {}
        for key, cell in zip(header, cells):
            text_value = cell.strip()
            if not text_value:
                row[key] = None
                if columns[key].required:
                    problems.append((line, f"{key} is required"))
                continue
            try:
                row[key] = _parse_cell(columns[key], text_value)
            except ValueError as err:
                row[key] = None
                problems.append((line, str(err)))
        problems.extend((line, text) for text in _check_row(name, row))
        rows.append(row)
        lines.append(line)
    problems.extend(_duplicates(name, rows, lines))
    if problems:
        raise CatalogFileError(file, problems)
    return Table(name, file, rows, lines)


def _records(file: str, reader: Any) -> list[tuple[int, list[str]]]:
    """The records after the header, each with the line it starts on."""
    records, line = [], reader.line_num + 1
    try:
        for cells in reader:
            records.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as err:
        raise CatalogFileError(file, [(reader.line_num, f"not a CSV file: {err}")]) from None
    return records


def _check_row(table: str, row: dict[str, Any]) -> list[str]:
    """Rules within one row; ids are normalised to the catalog's lowercase spelling."""
    problems = []
    if row.get("id"):
        row["id"] = row["id"].strip()
    if table in ("gpus", "free-tiers") and row.get("id"):
        row["id"] = row["id"].lower()
    if row.get("gpu"):
        row["gpu"] = row["gpu"].lower()
    if table == "clouds":
        row["region"] = row.get("region") or ANY_REGION
        provider, instance, row_id = row.get("provider"), row.get("instance"), row.get("id")
        if provider and provider != provider.lower():
            problems.append(f"provider must be lowercase, got {provider!r}")
        if provider and instance and row_id and row_id.lower() != f"{provider}/{instance}".lower():
            problems.append(f"id must be provider/instance ({provider}/{instance}), got {row_id!r}")
    if table == "free-tiers":
        row["gpus"] = row.get("gpus") or 1
        availability = row.get("availability")
        if availability is not None and not 0 < availability <= 1:
            problems.append(f"availability must be in (0, 1], got {availability}")
        problems.extend(_check_tier_lists(row))
    if table in ("regions", "site-kinds") and row.get("id"):
        row["id"] = row["id"].lower()
    if table == "regions":
        problems.extend(_check_tariff_dates(row))
    if table == "systems" and row.get("id"):
        row["id"] = row["id"].lower()
    if table == "site-kinds" and row.get("pue") is not None and row["pue"] < 1:
        problems.append(f"pue must be >= 1, got {row['pue']}")
    if table == "interconnects":
        problems.extend(_check_words(row, {"interconnect": INTERCONNECTS,
                                           "across_machines": ACROSS_MACHINES}))
    return problems


def _check_tariff_dates(row: dict[str, Any]) -> list[str]:
    """A region's ``household_as_of`` / ``business_as_of`` dates a price of the row, and is
    not older than ``as_of`` (the older of the two prices' dates)."""
    problems = []
    for tariff in ("household", "business"):
        dated = row.get(f"{tariff}_as_of")
        if not dated:
            continue
        if row.get(f"electricity_{tariff}_per_kwh") is None:
            problems.append(f"{tariff}_as_of {dated} dates no price: "
                            f"electricity_{tariff}_per_kwh is empty")
        elif row.get("as_of") and parse_as_of(dated) < parse_as_of(row["as_of"]):
            problems.append(f"{tariff}_as_of {dated} is older than as_of {row['as_of']}: "
                            "as_of is the older of the two prices' dates")
    return problems


def _check_words(row: dict[str, Any], allowed: dict[str, tuple[str, ...]]) -> list[str]:
    """Cells that hold one word of a fixed list, lowercased in place (a near word suggested)."""
    problems = []
    for column, words in allowed.items():
        value = row.get(column)
        if value is None:
            continue
        row[column] = value = value.strip().lower()
        if value not in words:
            hint = did_you_mean(close_matches(value, words, n=1))
            problems.append(f"{column} must be one of {', '.join(words)}, got {value!r}{hint}")
    return problems


def _check_tier_lists(row: dict[str, Any]) -> list[str]:
    """A free tier's gpu_options, quota_reset and frameworks (kept as normalised text)."""
    problems = []
    try:
        options = parse_gpu_options(row.get("gpu_options") or "")
        if options:
            row["gpu_options"] = ";".join(f"{g}:{v:g}" for g, v in options.items())
            if row.get("gpu") and row["gpu"] not in options:
                problems.append(f"gpu {row['gpu']!r} is not among gpu_options")
    except ValueError as err:
        problems.append(str(err))
    reset = row.get("quota_reset")
    if reset is not None:
        row["quota_reset"] = reset = reset.lower()
        if reset not in QUOTA_RESETS:
            problems.append(f"quota_reset must be one of {', '.join(QUOTA_RESETS)}, got {reset!r}")
    if row.get("frameworks"):
        row["frameworks"] = ";".join(parse_frameworks(row["frameworks"])) or None
    return problems


def _key(table: str, row: dict[str, Any]) -> tuple[str, ...]:
    if table == "clouds":
        return (row["id"].lower(), str(row["region"]).lower())
    return (row["id"].lower(),)


def _duplicates(table: str, rows: list[dict], lines: list[int]) -> list[tuple[int, str]]:
    seen: dict[tuple[str, ...], int] = {}
    problems = []
    for row, line in zip(rows, lines):
        if not row.get("id"):
            continue
        key = _key(table, row)
        if key in seen:
            what = "id and region" if table == "clouds" else "id"
            problems.append((line, f"duplicate {what} {' '.join(key)} (first on line {seen[key]})"))
        else:
            seen[key] = line
    return problems

