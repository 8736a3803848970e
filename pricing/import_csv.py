"""The csv layout of a price list: a user's own table with the ``clouds`` column names
(``pricing/CATALOG.md``) or a few other spellings of them (:data:`ALIASES`).

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import re
from typing import Any

from pricing.accelerators import GpuMapper
from pricing.errors import CatalogFileError
from pricing.import_rows import COLUMNS, PROVIDER, Imported, clouds_row, number
from pricing.schema import TABLES
from pricing.suggest import close_matches
from pricing.table_file import parse_as_of

__all__ = ["ALIASES", "read_user_csv"]

_KIND = {c.name: c.kind for c in TABLES["clouds"]}

# Other spellings of clouds columns accepted in the csv layout (normalised header -> column).
ALIASES = {
    "instance_type": "instance",
    "instancetype": "instance",
    "gpu_model": "gpu",
    "accelerator": "gpu",
    "gpu_count": "gpus",
    "price": "price_per_hour",
    "on_demand_price_per_hour": "price_per_hour",
    "spot_price": "spot_price_per_hour",
    "date": "as_of",
}


def _normalise(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def read_user_csv(file: str, header: list[str], records: list[tuple[int, list[str]]],
                   defaults: dict[str, str | None], mapper: GpuMapper) -> Imported:
    columns, suggested, problems = _user_columns(header)
    for name in ("instance", "gpus", "price_per_hour"):
        if name not in columns.values() and name not in suggested:
            problems.append((1, f"missing required column {name!r}"))
    for name in ("provider", "currency", "as_of", "source"):
        if name not in columns.values() and name not in suggested and defaults[name] is None:
            option = name.replace("_", "-")
            message = (f"no {name} column: add one, or give one {name} for every row "
                       f"(planner catalog import --{option})")
            problems.append((1, message))
    if problems:
        raise CatalogFileError(file, problems)
    result = Imported([])
    seen: dict[tuple[str, str], int] = {}
    for line, cells in records:
        if len(cells) != len(header):
            problems.append((line, f"{len(cells)} cells, the header has {len(header)}"))
            continue
        raw = {column: cells[i].strip() for i, column in columns.items()}
        gpus = raw.get("gpus")
        if (gpus and _is_zero(gpus)) or not (gpus or raw.get("gpu")):
            result.skip("rows without a GPU")
            continue
        row, row_problems = _user_row(raw, defaults)
        if row is None:
            problems.extend((line, text) for text in row_problems)
            continue
        gpu = mapper.gpu(row["gpu"], row["provider"], row["instance"], line)
        if gpu is None:
            continue
        note = mapper.note(row["gpu"], gpu)
        row["gpu"] = gpu
        if note:
            row["notes"] = "; ".join(n for n in (row["notes"], note) if n)
        key = (row["id"].lower(), row["region"].lower())
        if key in seen:
            message = (f"duplicate id and region {row['id']} {row['region']} "
                       f"(first on line {seen[key]})")
            problems.append((line, message))
            continue
        seen[key] = line
        result.rows.append(row)
    if problems:
        raise CatalogFileError(file, problems)
    return result


def _is_zero(text: str) -> bool:
    try:
        return float(text) == 0
    except ValueError:
        return False


def _user_columns(
    header: list[str],
) -> tuple[dict[int, str], set[str], list[tuple[int | None, str]]]:
    """Header position -> clouds column, the columns suggested for unknown headers, and the
    problems (unknown or repeated headers)."""
    known = {name: name for name in COLUMNS} | ALIASES
    columns: dict[int, str] = {}
    suggested: set[str] = set()
    problems: list[tuple[int | None, str]] = []
    for i, name in enumerate(header):
        key = _normalise(name)
        if not key:
            problems.append((1, f"column {i + 1} has no name"))
        elif key not in known:
            near = close_matches(key, known, n=1)
            hint = f" (did you mean {known[near[0]]}?)" if near else ""
            suggested.update(known[n] for n in near)
            problems.append((1, f"column {name.strip()!r} is not a clouds column{hint}"))
        elif known[key] in columns.values():
            problems.append((1, f"column {name.strip()!r} repeats {known[key]!r}"))
        else:
            columns[i] = known[key]
    return columns, suggested, problems


_USER_REQUIRED = ("instance", "gpu", "gpus", "price_per_hour", "provider", "currency", "as_of",
                  "source")


def _user_row(raw: dict[str, str],
              defaults: dict[str, str | None]) -> tuple[dict[str, Any] | None, list[str]]:
    """One input row in the clouds schema, or None and the row's problems."""
    values: dict[str, Any] = {}
    problems = []
    for name in COLUMNS:
        text = raw.get(name) or defaults.get(name) or ""
        try:
            values[name] = _cell(name, text)
        except ValueError as err:
            problems.append(str(err))
            values[name] = ""
    problems += [f"{name} is required" for name in _USER_REQUIRED if values[name] is None]
    provider, instance = values["provider"], values["instance"]
    if provider:
        values["provider"] = provider = provider.lower()
        if not PROVIDER.match(provider):
            problems.append(f"provider must be lowercase letters, digits, - or _: {provider!r}")
    expected = f"{provider}/{instance}"
    if values["id"] and provider and instance and values["id"].lower() != expected.lower():
        problems.append(f"id must be provider/instance ({expected}), got {values['id']!r}")
    if problems:
        return None, problems
    values["id"] = values["id"] or expected
    values["region"] = values["region"] or "*"
    return clouds_row(**values), []


def _cell(name: str, text: str) -> Any:
    if not text:
        return None
    kind = _KIND[name]
    if kind == "str":
        return text
    if kind == "date":
        parse_as_of(text)
        return text
    value = number(text, name)
    if kind == "int":
        if value is not None and value != int(value):
            raise ValueError(f"{name} must be a whole number, got {text!r}")
        return int(value) if value is not None else None
    return value

