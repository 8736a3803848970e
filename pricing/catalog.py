"""The price catalog: GPUs, cloud instances and free notebook tiers, read from CSV files.

Three tables ship in ``pricing/data`` (``gpus.csv``, ``clouds.csv``, ``free_tiers.csv``); their
columns, units and sources are described in ``pricing/CATALOG.md`` and in :data:`TABLES`
below. :func:`load_catalog` reads them on first use (never at import time), caches the result,
and merges user CSV files over them: a user row replaces the built-in rows with the same id.

Conventions: an empty cell is "unknown / not sold" and becomes ``None``; money is in the row's
``currency``; dates (``as_of``, ``price_as_of``) are ``YYYY-MM-DD`` or ``YYYY-MM``.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import csv
import difflib
import functools
import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from importlib.resources import files
from pathlib import Path
from typing import Any

__all__ = [
    "PRICINGS",
    "QUOTA_RESETS",
    "TABLES",
    "Catalog",
    "CatalogFileError",
    "CatalogLookupError",
    "CloudRow",
    "Column",
    "FreeTierRow",
    "GpuRow",
    "RegionRow",
    "SiteKindRow",
    "SystemRow",
    "load_catalog",
    "parse_as_of",
]

ANY_REGION = "*"
"""Region of a row whose price holds in every region the source lists."""

PRICINGS = {
    "on_demand": "price_per_hour",
    "spot": "spot_price_per_hour",
    "reserved_1y": "reserved_1y_price_per_hour",
    "reserved_3y": "reserved_3y_price_per_hour",
}
"""Pricing name -> the clouds column that holds its price."""

THROUGHPUT_PREFIX = "throughput_"


# --------------------------------------------------------------------------------------------
# Errors


class CatalogLookupError(LookupError):
    """An id (or region) that is not in the catalog; ``suggestions`` are the closest ids."""

    def __init__(self, kind: str, key: str, suggestions: Sequence[str] = (), detail: str = ""):
        self.kind = kind
        self.key = key
        self.suggestions = list(suggestions)
        what = {"free_tier": "free tier"}.get(kind, kind)
        message = detail or f"unknown {what} {key!r}"
        if self.suggestions:
            message += f" (did you mean {', '.join(self.suggestions)}?)"
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


class CatalogFileError(ValueError):
    """A catalog CSV file that cannot be used; every problem found in it is in ``problems``.

    ``line`` and ``message`` are those of the first problem; ``problems`` holds
    ``(line, message)`` pairs (line 1 is the header, ``None`` when the file cannot be read).
    """

    def __init__(self, file: str, problems: Sequence[tuple[int | None, str]]):
        self.file = file
        self.problems = list(problems)
        self.line, self.message = self.problems[0]
        super().__init__("\n".join(_where(file, line) + text for line, text in self.problems))


def _where(file: str, line: int | None) -> str:
    return f"{file}:{line}: " if line is not None else f"{file}: "


# --------------------------------------------------------------------------------------------
# Table schemas, as data


@dataclass(frozen=True)
class Column:
    """One column of a catalog table: its type, unit and meaning."""

    name: str
    kind: str  # "str", "float", "int", "bool" or "date"
    unit: str
    description: str
    required: bool = False


def _money(name: str, description: str, required: bool = False) -> Column:
    return Column(name, "float", "currency", description, required)


_PROVENANCE = (
    Column("currency", "str", "ISO 4217", "currency of every money value in the row", True),
    Column("as_of", "date", "YYYY-MM-DD or YYYY-MM", "date of the data in the row", True),
    Column("source", "str", "URLs", "original public sources, separated by '; '", True),
    Column("notes", "str", "", "caveats; 'estimate' marks estimated or unverified values"),
)

QUOTA_RESETS = ("daily", "weekly", "monthly", "rolling-24h", "none")
"""Values of a free tier's ``quota_reset``: when its quotas refill."""

TABLES: dict[str, tuple[Column, ...]] = {
    "gpus": (
        Column("id", "str", "", "lowercase GPU id, e.g. a100-80gb", True),
        Column("name", "str", "", "marketing name", True),
        Column("vendor", "str", "", "NVIDIA, AMD, ..."),
        Column("memory_gb", "float", "GB", "memory per GPU"),
        Column("memory_bandwidth_gb_per_s", "float", "GB/s", "memory bandwidth per GPU"),
        Column("tdp_watts", "float", "W", "board or module TDP"),
        Column("peak_fp16_tflops", "float", "TFLOP/s", "dense FP16/BF16 tensor peak"),
        Column("peak_fp32_tflops", "float", "TFLOP/s", "non-tensor FP32 peak"),
        _money("street_price", "purchase price of one GPU at price_as_of"),
        Column("price_as_of", "date", "YYYY-MM-DD or YYYY-MM", "date of street_price"),
        _money("launch_price", "launch / list price of one GPU at launch_date"),
        Column("launch_date", "date", "YYYY-MM-DD or YYYY-MM", "launch date of the GPU"),
        Column("throughput_generic", "float", "x a100-80gb", "relative training throughput"),
        Column("throughput_cv", "float", "x a100-80gb", "relative throughput, vision models"),
        Column("throughput_nlp", "float", "x a100-80gb", "relative throughput, NLP models"),
        Column("throughput_llm", "float", "x a100-80gb", "relative throughput, large LMs"),
        Column("throughput_generic_fp32", "float", "x a100-80gb", "FP32/TF32 training throughput"),
        Column("throughput_cv_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, vision"),
        Column("throughput_nlp_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, NLP"),
        Column("throughput_llm_fp32", "float", "x a100-80gb", "FP32/TF32 throughput, large LMs"),
        *_PROVENANCE,
    ),
    "clouds": (
        Column("id", "str", "", "provider/instance, e.g. aws/p4d.24xlarge", True),
        Column("provider", "str", "", "lowercase provider: aws, gcp, azure, lambda, ...", True),
        Column("instance", "str", "", "instance type as the provider spells it", True),
        Column("region", "str", "", "provider region; '*' = same price in every region"),
        Column("gpu", "str", "", "GPU id in gpus.csv"),
        Column("gpus", "int", "GPUs", "GPUs per instance", True),
        Column("gpu_memory_gb", "float", "GB", "memory per GPU"),
        _money("price_per_hour", "on-demand price per instance-hour", required=True),
        _money("spot_price_per_hour", "spot / preemptible price per instance-hour"),
        _money("reserved_1y_price_per_hour", "1-year commitment, effective per instance-hour"),
        _money("reserved_3y_price_per_hour", "3-year commitment, effective per instance-hour"),
        Column("billing_increment_minutes", "float", "min", "rented time is rounded up to it"),
        Column("interruptions_per_hour", "float", "1/h", "expected spot interruptions"),
        _money("storage_per_gb_month", "block / persistent storage per GB-month"),
        *_PROVENANCE,
    ),
    "free-tiers": (
        Column("id", "str", "", "tier id, e.g. kaggle", True),
        Column("name", "str", "", "product name", True),
        Column("provider", "str", "", "company running the tier"),
        Column("gpu", "str", "", "GPU id in gpus.csv"),
        Column("gpus", "int", "GPUs", "GPUs per session (empty = 1)"),
        Column("gpu_memory_gb", "float", "GB", "memory per GPU"),
        Column("session_hours", "float", "h", "longest session (wall clock)"),
        Column("idle_timeout_minutes", "float", "min", "idle time before a session ends"),
        Column("weekly_quota_hours", "float", "h", "GPU session hours per week"),
        Column("daily_quota_hours", "float", "h", "GPU session hours per day"),
        Column("monthly_quota_hours", "float", "h", "GPU session hours per month"),
        _money("fee_per_month", "subscription fee"),
        Column("setup_minutes", "float", "min", "time lost setting up each session"),
        Column("availability", "float", "fraction", "share of requests that get a GPU"),
        Column("files_persist", "bool", "", "files survive between sessions"),
        Column("gpu_options", "str", "id:share;...", "GPUs handed out at random, with shares"),
        Column("quota_reset", "str", "", "when quotas refill: " + ", ".join(QUOTA_RESETS)),
        Column("frameworks", "str", "name;...", "lowercase frameworks allowed (empty = any)"),
        Column("download_mb_per_s", "float", "MB/s", "typical rate a session fetches data at"),
        Column("compute_units_per_month", "float", "units", "compute units the fee buys a month"),
        Column("compute_units_per_hour", "float", "units/h", "compute units an hour of gpu uses"),
        *_PROVENANCE,
    ),
    "regions": (
        Column("id", "str", "", "lowercase region id: us, us-ca, eu, de, gb, jp, ...", True),
        Column("name", "str", "", "country, state or union", True),
        _money("electricity_household_per_kwh", "household retail price of 1 kWh, taxes included"),
        _money("electricity_business_per_kwh", "non-household price of 1 kWh, excluding VAT"),
        Column("carbon_kg_per_kwh", "float", "kg CO2e/kWh", "grid carbon intensity"),
        *_PROVENANCE,
    ),
    "site-kinds": (
        Column("id", "str", "", "home-office, server-closet, colocation, hyperscale", True),
        Column("name", "str", "", "description", True),
        Column("pue", "float", "ratio", "facility energy / IT energy (>= 1)", True),
        *_PROVENANCE[1:],
    ),
}

_TABLE_ALIASES = {
    "free_tiers": "free-tiers",
    "free-tier": "free-tiers",
    "gpu": "gpus",
    "cloud": "clouds",
}
_FILES = {"gpus": "gpus.csv", "clouds": "clouds.csv", "free-tiers": "free_tiers.csv"}
_FILES.update({"regions": "regions.csv", "site-kinds": "site_kinds.csv"})
_TABLE_ALIASES.update({"region": "regions", "site_kinds": "site-kinds", "site-kind": "site-kinds"})

TABLES["systems"] = (
    Column("id", "str", "", "lowercase system id, e.g. workstation-4gpu, server-8gpu-sxm", True),
    Column("name", "str", "", "description", True),
    Column("gpu_slots", "int", "GPUs", "GPUs the system takes"),
    _money("system_price", "non-GPU parts: chassis, CPUs, RAM, disks, PSUs, NICs"),
    Column("non_gpu_power_watts", "float", "W", "power of everything but the GPUs, at load"),
    Column("idle_power_watts", "float", "W", "power of everything but the GPUs, idle"),
    *_PROVENANCE,
)
_FILES.update({"systems": "systems.csv"})
_TABLE_ALIASES.update({"system": "systems"})


# --------------------------------------------------------------------------------------------
# Rows


@dataclass(frozen=True)
class GpuRow:
    """A GPU model: specs, a dated street price and relative training throughput."""

    id: str
    name: str
    vendor: str | None
    memory_gb: float | None
    memory_bandwidth_gb_per_s: float | None
    tdp_watts: float | None
    peak_fp16_tflops: float | None
    peak_fp32_tflops: float | None
    street_price: float | None
    price_as_of: str | None
    launch_price: float | None
    launch_date: str | None
    throughput: dict[str, float] = field(hash=False)
    """workload -> throughput relative to a100-80gb; only the known ones."""
    currency: str
    as_of: str
    source: str
    notes: str | None


@dataclass(frozen=True)
class CloudRow:
    """One cloud instance type in one region."""

    id: str
    provider: str
    instance: str
    region: str
    gpu: str | None
    gpus: int
    gpu_memory_gb: float | None
    price_per_hour: float
    spot_price_per_hour: float | None
    reserved_1y_price_per_hour: float | None
    reserved_3y_price_per_hour: float | None
    billing_increment_minutes: float | None
    interruptions_per_hour: float | None
    storage_per_gb_month: float | None
    currency: str
    as_of: str
    source: str
    notes: str | None

    def price(self, pricing: str) -> float | None:
        """Price per instance-hour for ``pricing`` (on_demand, spot, reserved_1y, reserved_3y)."""
        return getattr(self, _pricing_column(pricing))


@dataclass(frozen=True)
class SystemRow:
    """An owned machine's non-GPU parts: price and power (add the GPUs' own)."""

    id: str
    name: str
    gpu_slots: int | None
    system_price: float | None
    non_gpu_power_watts: float | None
    idle_power_watts: float | None
    currency: str
    as_of: str
    source: str
    notes: str | None


@dataclass(frozen=True)
class FreeTierRow:
    """A free (or flat-fee) notebook tier; quotas are wall-clock hours."""

    id: str
    name: str
    provider: str | None
    gpu: str | None
    gpus: int
    gpu_memory_gb: float | None
    session_hours: float | None
    idle_timeout_minutes: float | None
    weekly_quota_hours: float | None
    daily_quota_hours: float | None
    monthly_quota_hours: float | None
    fee_per_month: float | None
    setup_minutes: float | None
    availability: float | None
    files_persist: bool | None
    gpu_options: dict[str, float] = field(hash=False)
    """GPU id -> share of sessions that get it, for a tier that hands out GPUs at random;
    empty when the tier always gives ``gpu`` (or the user picks it)."""
    quota_reset: str | None
    frameworks: tuple[str, ...]
    """Lowercase frameworks the tier allows; empty = any."""
    download_mb_per_s: float | None
    compute_units_per_month: float | None
    compute_units_per_hour: float | None
    currency: str
    as_of: str
    source: str
    notes: str | None

    def __post_init__(self) -> None:
        # Rows are built from the CSV text; the two list columns become a dict and a tuple.
        options = self.gpu_options
        if options is None or isinstance(options, str):
            options = _gpu_options(options or "")
        object.__setattr__(self, "gpu_options", dict(options))
        frameworks = self.frameworks
        if frameworks is None or isinstance(frameworks, str):
            frameworks = _frameworks(frameworks or "")
        object.__setattr__(self, "frameworks", tuple(frameworks))


@dataclass(frozen=True)
class RegionRow:
    """Electricity prices and grid carbon intensity of a country, state or union."""

    id: str
    name: str
    electricity_household_per_kwh: float | None
    electricity_business_per_kwh: float | None
    carbon_kg_per_kwh: float | None
    currency: str
    as_of: str
    source: str
    notes: str | None


@dataclass(frozen=True)
class SiteKindRow:
    """A kind of site for owned hardware and its power usage effectiveness (cooling)."""

    id: str
    name: str
    pue: float
    as_of: str
    source: str
    notes: str | None


def _gpu_options(text: str) -> dict[str, float]:
    """``"t4:0.8;p100:0.2"`` -> ``{"t4": 0.8, "p100": 0.2}``; raises ValueError if malformed."""
    options: dict[str, float] = {}
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        gpu, sep, share = part.rpartition(":")
        gpu = gpu.strip().lower()
        try:
            value = float(share)
        except ValueError:
            value = math.nan
        if not sep or not gpu or not math.isfinite(value) or not 0 < value <= 1:
            raise ValueError(f"gpu_options must be id:share;... (shares in (0, 1]), got {text!r}")
        if gpu in options:
            raise ValueError(f"gpu_options names {gpu!r} twice")
        options[gpu] = value
    if options and abs(sum(options.values()) - 1) > 1e-6:
        raise ValueError(f"gpu_options shares must add up to 1, got {text!r}")
    return options


def _frameworks(text: str) -> tuple[str, ...]:
    """``"PaddlePaddle; jax"`` -> ``("paddlepaddle", "jax")``."""
    return tuple(dict.fromkeys(f.strip().lower() for f in text.split(";") if f.strip()))


# --------------------------------------------------------------------------------------------
# Parsing


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
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"{column.name} must be a number, got {text!r}") from None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{column.name} must be a finite number >= 0, got {text!r}")
    if column.kind == "int":
        if number != int(number) or number < 1:
            raise ValueError(f"{column.name} must be a whole number >= 1, got {text!r}")
        return int(number)
    return number


@dataclass
class _Table:
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
            near = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {near[0]}?)" if near else ""
            problems.append((1, f"column {name!r} is not a {closest} column{hint}"))
    raise CatalogFileError(file, problems)


def _read_table(file: str, text: str, table: str | None = None) -> _Table:
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
    return _Table(name, file, rows, lines)


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
    if table == "systems" and row.get("id"):
        row["id"] = row["id"].lower()
    if table == "site-kinds" and row.get("pue") is not None and row["pue"] < 1:
        problems.append(f"pue must be >= 1, got {row['pue']}")
    return problems


def _check_tier_lists(row: dict[str, Any]) -> list[str]:
    """A free tier's gpu_options, quota_reset and frameworks (kept as normalised text)."""
    problems = []
    try:
        options = _gpu_options(row.get("gpu_options") or "")
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
        row["frameworks"] = ";".join(_frameworks(row["frameworks"])) or None
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


# --------------------------------------------------------------------------------------------
# Building rows


def _gpu_row(row: dict[str, Any]) -> GpuRow:
    throughput = {
        key[len(THROUGHPUT_PREFIX) :]: value
        for key, value in row.items()
        if key.startswith(THROUGHPUT_PREFIX) and value is not None
    }
    plain = {f.name: row.get(f.name) for f in fields(GpuRow) if f.name != "throughput"}
    return GpuRow(throughput=throughput, **plain)


def _plain_row(cls: type, row: dict[str, Any]) -> Any:
    return cls(**{f.name: row.get(f.name) for f in fields(cls)})


def _pricing_column(pricing: str) -> str:
    try:
        return PRICINGS[pricing]
    except KeyError:
        raise ValueError(f"pricing must be one of {', '.join(PRICINGS)}, got {pricing!r}") from None


def _close(key: str, candidates: Sequence[str], n: int = 3) -> list[str]:
    """Up to ``n`` candidates closest to ``key`` (case-insensitive), in their own spelling."""
    by_lower = {c.lower(): c for c in candidates}
    return [by_lower[m] for m in difflib.get_close_matches(key.lower(), list(by_lower), n=n)]


# --------------------------------------------------------------------------------------------
# The catalog


class Catalog:
    """Lookups over the merged catalog tables. Build one with :func:`load_catalog`."""

    def __init__(self, tables: dict[str, list[dict[str, Any]]]):
        self._raw = tables
        self._gpus = {r["id"].lower(): _gpu_row(r) for r in tables["gpus"]}
        self._clouds: dict[str, list[CloudRow]] = {}
        for raw in tables["clouds"]:
            self._clouds.setdefault(raw["id"].lower(), []).append(_plain_row(CloudRow, raw))
        for rows in self._clouds.values():
            rows.sort(key=lambda r: r.region.lower())
        self._tiers = {r["id"].lower(): _plain_row(FreeTierRow, r) for r in tables["free-tiers"]}
        self._regions = {r["id"].lower(): _plain_row(RegionRow, r) for r in tables["regions"]}
        self._site_kinds = {
            r["id"].lower(): _plain_row(SiteKindRow, r) for r in tables["site-kinds"]
        }
        self._systems = {r["id"].lower(): _plain_row(SystemRow, r) for r in tables["systems"]}

    # -- lookups ---------------------------------------------------------------------------

    def gpu(self, gpu_id: str) -> GpuRow:
        """The GPU ``gpu_id`` (case-insensitive)."""
        try:
            return self._gpus[gpu_id.strip().lower()]
        except KeyError:
            raise CatalogLookupError("gpu", gpu_id, _close(gpu_id, self.ids("gpus"))) from None

    def cloud_regions(self, cloud_id: str) -> list[CloudRow]:
        """Every region of the instance ``cloud_id`` (``provider/instance``), by region name."""
        try:
            return list(self._clouds[cloud_id.strip().lower()])
        except KeyError:
            suggestions = _close(cloud_id, self.ids("clouds"))
            raise CatalogLookupError("cloud", cloud_id, suggestions) from None

    def cloud(
        self, cloud_id: str, region: str | None = None, pricing: str = "on_demand"
    ) -> CloudRow:
        """One region's row of ``cloud_id``.

        With ``region`` None: the cheapest region for ``pricing`` among the regions that have
        that price (a tie goes to the alphabetically first region); when no region has it, the
        cheapest on-demand row, so that the caller can report the missing price. A region the
        instance does not list raises :class:`CatalogLookupError` (kind ``"region"``), except
        that a ``"*"`` row (same price everywhere) stands for any region.
        """
        column = _pricing_column(pricing)
        rows = self.cloud_regions(cloud_id)
        if region is not None:
            wanted = region.strip().lower()
            for row in rows:
                if row.region.lower() == wanted:
                    return row
            for row in rows:
                if row.region == ANY_REGION:
                    return row
            regions = [r.region for r in rows]
            detail = (
                f"{rows[0].id} has no region {region!r}; it is listed in {len(regions)} region(s)"
            )
            raise CatalogLookupError("region", region, _close(region, regions), detail)
        priced = [r for r in rows if getattr(r, column) is not None]
        if not priced:
            priced, column = rows, "price_per_hour"
        return min(priced, key=lambda r: (getattr(r, column), r.region.lower()))

    def free_tier(self, tier_id: str) -> FreeTierRow:
        """The free tier ``tier_id`` (case-insensitive)."""
        try:
            return self._tiers[tier_id.strip().lower()]
        except KeyError:
            suggestions = _close(tier_id, self.ids("free-tiers"))
            raise CatalogLookupError("free_tier", tier_id, suggestions) from None

    def region(self, region_id: str) -> RegionRow:
        """The electricity region ``region_id`` (``us-ca``, ``de``, ...; case-insensitive)."""
        try:
            return self._regions[region_id.strip().lower()]
        except KeyError:
            suggestions = _close(region_id, self.ids("regions"))
            detail = f"unknown region {region_id!r} in the regions table"
            raise CatalogLookupError("region", region_id, suggestions, detail) from None

    def site_kind(self, kind_id: str) -> SiteKindRow:
        """The site kind ``kind_id`` (``home-office``, ``colocation``, ...; case-insensitive)."""
        try:
            return self._site_kinds[kind_id.strip().lower()]
        except KeyError:
            suggestions = _close(kind_id, self.ids("site-kinds"))
            detail = f"unknown site kind {kind_id!r}"
            raise CatalogLookupError("site_kind", kind_id, suggestions, detail) from None

    def system(self, system_id: str) -> SystemRow:
        """The system ``system_id`` (``workstation-4gpu``, ``server-8gpu-sxm``, ...)."""
        try:
            return self._systems[system_id.strip().lower()]
        except KeyError:
            suggestions = _close(system_id, self.ids("systems"))
            raise CatalogLookupError("system", system_id, suggestions) from None

    def relative_speed(self, gpu_id: str, reference_id: str, workload: str,
                       precision: str = "mixed") -> float | None:
        """Throughput of ``gpu_id`` over that of ``reference_id`` for ``workload`` in
        ``precision`` (``mixed``: the ``throughput_<workload>`` columns; ``fp32``: the
        ``throughput_<workload>_fp32`` ones).

        Falls back to the ``generic`` column when either GPU lacks ``workload``; None when
        either GPU lacks a number there too (never mixes precisions).
        """
        gpu, reference = self.gpu(gpu_id).throughput, self.gpu(reference_id).throughput
        suffix = "" if precision == "mixed" else f"_{precision}"
        for key in (workload + suffix, "generic" + suffix):
            if key in gpu and key in reference and reference[key] > 0:
                return gpu[key] / reference[key]
        return None

    # -- listings --------------------------------------------------------------------------

    def ids(self, table: str) -> list[str]:
        """The ids of ``table`` (gpus, clouds, free-tiers, regions, site-kinds), in file order."""
        name = _table_name(table)
        if name == "clouds":
            return [rows[0].id for rows in self._clouds.values()]
        return [r["id"] for r in self._raw[name]]

    def rows(self, table: str) -> list[dict[str, Any]]:
        """Plain dicts of ``table`` (any of :data:`TABLES`), for listing; numbers are floats."""
        name = _table_name(table)
        extra = sorted({k for r in self._raw[name] for k in r} - {c.name for c in TABLES[name]})
        order = [c.name for c in TABLES[name]]
        if extra:
            at = order.index("currency" if "currency" in order else "as_of")
            order[at:at] = extra
        return [{key: raw.get(key) for key in order} for raw in self._raw[name]]


def _table_name(table: str) -> str:
    name = _TABLE_ALIASES.get(table, table)
    if name not in TABLES:
        raise ValueError(f"table must be one of {', '.join(TABLES)}, got {table!r}")
    return name


# --------------------------------------------------------------------------------------------
# Loading and merging


@functools.lru_cache(maxsize=1)
def _builtin_tables() -> dict[str, _Table]:
    """The shipped tables, parsed once; a broken shipped file is a bug."""
    data = files("pricing.data")
    tables = {}
    for name, filename in _FILES.items():
        text = data.joinpath(filename).read_text(encoding="utf-8")
        try:
            tables[name] = _read_table(f"pricing/data/{filename}", text, name)
        except CatalogFileError as err:
            raise RuntimeError(f"the built-in catalog is broken:\n{err}") from err
    return tables


def _read_user_file(path: str | Path) -> _Table:
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise CatalogFileError(file, [(None, f"cannot read the file: {err}")]) from None
    return _read_table(file, text)


def _merge(tables: list[_Table]) -> dict[str, list[tuple[dict, _Table, int]]]:
    """Rows of each table after the later tables replaced earlier rows with the same id."""
    merged: dict[str, list[tuple[dict, _Table, int]]] = {name: [] for name in TABLES}
    for table in tables:
        replaced = {row["id"].lower() for row in table.rows}
        kept = [item for item in merged[table.name] if item[0]["id"].lower() not in replaced]
        merged[table.name] = kept + [(r, table, line) for r, line in zip(table.rows, table.lines)]
    return merged


def _check_references(merged: dict[str, list[tuple[dict, _Table, int]]]) -> None:
    """Every GPU a cloud or free-tier row names exists; problems are grouped by file."""
    gpu_ids = {row["id"].lower() for row, _, _ in merged["gpus"]}
    known = sorted(row["id"] for row, _, _ in merged["gpus"])
    problems: dict[str, list[tuple[int | None, str]]] = {}
    for name in ("clouds", "free-tiers"):
        for row, table, line in merged[name]:
            gpus = [row.get("gpu")] + list(_gpu_options(row.get("gpu_options") or ""))
            for gpu in dict.fromkeys(g for g in gpus if g):
                if gpu.lower() in gpu_ids:
                    continue
                near = _close(gpu, known, n=1)
                hint = f" (did you mean {near[0]}?)" if near else ""
                problems.setdefault(table.file, []).append(
                    (line, f"gpu {gpu!r} is not in the gpus table{hint}")
                )
    for file, found in problems.items():
        raise CatalogFileError(file, found)


def _build(tables: list[_Table]) -> Catalog:
    merged = _merge(tables)
    _check_references(merged)
    return Catalog({name: [row for row, _, _ in items] for name, items in merged.items()})


@functools.lru_cache(maxsize=1)
def _builtin_catalog() -> Catalog:
    try:
        return _build(list(_builtin_tables().values()))
    except CatalogFileError as err:
        raise RuntimeError(f"the built-in catalog is broken:\n{err}") from err


def load_catalog(extra_files: Sequence[str | Path] = (), *, builtin: bool = True) -> Catalog:
    """The built-in catalog merged with ``extra_files`` (user CSV files), in order.

    Each user file's table (gpus, clouds or free-tiers) is recognised by its header. A user
    row replaces the built-in rows with the same id; for clouds, the user's rows of an id
    replace every region of that id. ``builtin=False`` uses the user files alone.

    Raises :class:`CatalogFileError` for a user file that cannot be used.
    """
    if not extra_files and builtin:
        return _builtin_catalog()
    user = [_read_user_file(path) for path in extra_files]
    base = list(_builtin_tables().values()) if builtin else []
    return _build(base + user)
