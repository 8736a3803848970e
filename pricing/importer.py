"""Turn a price list from elsewhere into a catalog file of the ``clouds`` table.

Two layouts are read (:data:`LAYOUTS`):

``skypilot``
    SkyPilot's public catalog (https://github.com/skypilot-org/skypilot-catalog, files
    ``catalogs/v*/<cloud>/vms.csv``): one row per instance type and region, or per availability
    zone where the file has an ``AvailabilityZone`` column. The columns used are
    ``InstanceType``, ``AcceleratorName``, ``AcceleratorCount``, ``Price``, ``SpotPrice`` and
    ``Region``, in any order; others (``vCPUs``, ``MemoryGiB``, ``GpuInfo``, ...) are ignored.
    The zones of a region fold into one row at the cheapest zone's price, as SkyPilot itself
    prices a region. A price of 0 or an empty cell is "no price". Left out, and counted:
    CPU-only rows, fractional-GPU shapes and regions without an on-demand price.
``csv``
    A user's own table with this catalog's ``clouds`` column names (``pricing/CATALOG.md``). A
    few other spellings are accepted (:data:`ALIASES`); any other header is an error that
    suggests the closest column. Rows without a GPU are left out.

Accelerator names become catalog GPU ids through :data:`ACCELERATORS` (SkyPilot's names) and a
few provider- and instance-specific corrections; a catalog GPU id is accepted as it is. An
accelerator that maps to no GPU id of the catalog is an error naming every such accelerator,
unless the caller maps it or asks to skip those rows.

:func:`complete` fills what a price list does not say from the catalog: the GPU memory of the
row's GPU, the provider's billing increment and storage price where every catalog row of that
provider agrees on one value, and a spot interruption rate for rows with a spot price.

Problems with the input are raised all at once as :class:`pricing.catalog.CatalogFileError`
(file and line). Everything here is pure except :func:`write_catalog`, which writes atomically.
This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import csv
import difflib
import io
import math
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pricing.catalog import TABLES, CatalogFileError, parse_as_of

__all__ = [
    "ACCELERATORS",
    "ALIASES",
    "LAYOUTS",
    "SKYPILOT_CATALOG",
    "SKYPILOT_CLOUDS",
    "Imported",
    "complete",
    "detect_layout",
    "read_price_list",
    "skypilot_provider",
    "to_csv",
    "write_catalog",
]

LAYOUTS = ("skypilot", "csv")
SKYPILOT_CATALOG = "https://github.com/skypilot-org/skypilot-catalog"
"""Default ``source`` of rows imported from the SkyPilot layout."""
SKYPILOT_CLOUDS = frozenset({
    "aws", "azure", "cudo", "daytona", "do", "fluidstack", "gcp", "hyperbolic", "hyperstack",
    "ibm", "jarvislabs", "lambda", "lium", "mithril", "nebius", "oci", "ovhcloud", "paperspace",
    "primeintellect", "runpod", "scaleway", "scp", "seeweb", "shadeform", "simplepod", "spheron",
    "vast", "verda", "yotta",
})
"""Folder names of ``catalogs/v*/<cloud>/`` in the SkyPilot catalog repository."""

COLUMNS = tuple(c.name for c in TABLES["clouds"])
_KIND = {c.name: c.kind for c in TABLES["clouds"]}

# SkyPilot accelerator name (lowercase) -> catalog GPU id. The names are those of
# skypilot-catalog's catalogs/v8/common/accelerators.csv; names without a catalog GPU (A30,
# A800, P4, T4g, Radeon, Gaudi, TPUs, ...) are absent on purpose.
ACCELERATORS = {
    "t4": "t4",
    "l4": "l4",
    "a10": "a10",
    "a10g": "a10g",
    "l40": "l40",
    "l40s": "l40s",
    "a40": "a40",
    "v100": "v100-16gb",
    "v100-32gb": "v100-32gb",
    "p100": "p100",
    "k80": "k80",
    "m60": "m60",
    "a100": "a100-40gb",
    "a100-80gb": "a100-80gb",
    "a100-80gb-sxm": "a100-80gb",
    "h100": "h100-80gb",
    "h100-sxm": "h100-80gb",
    "h100-mega": "h100-80gb",
    "h100-nvlink": "h100-80gb",
    "h100-nvl": "h100-nvl",
    "h200": "h200",
    "h200-sxm": "h200",
    "gh200": "gh200",
    "b200": "b200",
    "gb200": "gb200",
    "mi300x": "mi300x",
    "a6000": "rtx-a6000",
    "rtxa6000": "rtx-a6000",
    "rtxa5000": "rtx-a5000",
    "rtxa4500": "rtx-a4500",
    "rtxa4000": "rtx-a4000",
    "a4000": "rtx-a4000",
    "rtx6000": "quadro-rtx-6000",
    "rtx6000-ada": "rtx-6000-ada",
    "rtx6000ada": "rtx-6000-ada",
    "rtx4000-ada": "rtx-4000-ada",
    "rtx3080": "rtx-3080",
    "rtx3090": "rtx-3090",
    "rtx4090": "rtx-4090",
    "rtx5090": "rtx-5090",
    "rtxpro6000s": "rtx-pro-6000-blackwell",
    "rtxpro6000ws": "rtx-pro-6000-blackwell",
    "m4000": "quadro-m4000",
}

# Where one SkyPilot name covers two GPUs: (provider, accelerator, instance pattern) -> GPU id.
# RunPod's plain "A100-80GB" and "H100" are the PCIe cards (its SXM ones carry "-SXM"); Azure's
# NC A100 v4 has A100 PCIe 80 GB cards and NC H100 v5 has H100 NVL (Azure's size pages).
_SPECIFIC = (
    ("runpod", "a100-80gb", r".*", "a100-80gb-pcie"),
    ("runpod", "h100", r".*", "h100-80gb-pcie"),
    ("azure", "a100-80gb", r"(?i)standard_nc\d+ads_a100_v4", "a100-80gb-pcie"),
    ("azure", "h100", r"(?i)standard_nc\d+a?dis?_h100_v5", "h100-nvl"),
)

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

_SKYPILOT_REQUIRED = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")
_PROVIDER = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass
class Imported:
    """Rows in the ``clouds`` schema and the input rows left out, counted by reason."""

    rows: list[dict[str, Any]]
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str, count: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + count


# --------------------------------------------------------------------------------------------
# Reading


def detect_layout(text: str) -> str:
    """``skypilot`` when the CSV ``text``'s header has SkyPilot's column names, else ``csv``."""
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff"))), [])
    return _layout(header)


def _layout(header: Iterable[str]) -> str:
    names = {h.strip() for h in header}
    return "skypilot" if {"InstanceType", "AcceleratorName"} <= names else "csv"


def skypilot_provider(path: str | Path) -> str | None:
    """The provider a SkyPilot catalog file is for, from its folder (``.../aws/vms.csv``)."""
    folder = Path(path).resolve().parent.name.lower()
    return folder if folder in SKYPILOT_CLOUDS else None


def read_price_list(
    text: str,
    file: str,
    *,
    gpus: Mapping[str, Any],
    layout: str | None = None,
    provider: str | None = None,
    currency: str | None = None,
    as_of: str | None = None,
    source: str | None = None,
    mapping: Mapping[str, str] | None = None,
    skip_unknown: bool = False,
) -> Imported:
    """Rows of the ``clouds`` table read from the CSV ``text`` of ``file`` (named in errors).

    ``gpus`` holds the catalog's GPU ids (a mapping id -> anything, e.g. its rows). ``layout``
    is detected from the header when None. ``provider``, ``currency``, ``as_of`` and ``source``
    fill the cells the input lacks (the SkyPilot layout has none of them; its currency defaults
    to USD and its source to :data:`SKYPILOT_CATALOG`). ``mapping`` maps further accelerator
    names to GPU ids; with ``skip_unknown`` rows of unknown accelerators are left out instead
    of being an error.

    Raises :class:`CatalogFileError` listing every problem found.
    """
    records = _records(file, text)
    header = records[0][1] if records else []
    if not header:
        raise CatalogFileError(file, [(None, "the file is empty")])
    layout = layout or _layout(header)
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    defaults = {"provider": provider, "currency": currency, "as_of": as_of, "source": source}
    if layout == "skypilot":
        defaults["currency"] = currency or "USD"
        defaults["source"] = source or SKYPILOT_CATALOG
    problems = _check_defaults(defaults)
    if problems:
        raise CatalogFileError(file, problems)
    mapper = _GpuMapper(gpus, mapping or {}, skip_unknown)
    reader = _read_skypilot if layout == "skypilot" else _read_user_csv
    result = reader(file, header, records[1:], defaults, mapper)
    problems = mapper.problems()
    if problems:
        raise CatalogFileError(file, problems)
    for name, lines in mapper.skipped.items():
        result.skip(f"rows of unknown accelerator {name}", len(lines))
    return result


def _records(file: str, text: str) -> list[tuple[int, list[str]]]:
    """CSV records with the line each starts on; blank records are dropped."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    records, line = [], 1
    try:
        for cells in reader:
            if any(c.strip() for c in cells):
                records.append((line, cells))
            line = reader.line_num + 1
    except csv.Error as err:
        raise CatalogFileError(file, [(reader.line_num, f"not a CSV file: {err}")]) from None
    return records


def _check_defaults(defaults: dict[str, str | None]) -> list[tuple[int | None, str]]:
    problems: list[tuple[int | None, str]] = []
    if defaults["provider"] is not None and not _PROVIDER.match(defaults["provider"]):
        provider = defaults["provider"]
        problems.append((None, f"provider must be lowercase letters, digits, - or _: {provider!r}"))
    if defaults["as_of"] is not None:
        try:
            parse_as_of(defaults["as_of"])
        except ValueError as err:
            problems.append((None, str(err)))
    return problems


# -- SkyPilot layout -------------------------------------------------------------------------


@dataclass
class _Region:
    """The zones of one instance type in one region, folded into one catalog row."""

    line: int
    gpu: str
    gpus: float
    prices: list[float] = field(default_factory=list)
    spot_prices: list[float] = field(default_factory=list)
    zones: int = 0
    note: str | None = None


def _read_skypilot(file: str, header: list[str], records: list[tuple[int, list[str]]],
                   defaults: dict[str, str | None], mapper: _GpuMapper) -> Imported:
    at = {name.strip(): i for i, name in enumerate(header)}
    missing = [name for name in _SKYPILOT_REQUIRED if name not in at]
    problems: list[tuple[int | None, str]] = []
    for name in missing:
        near = difflib.get_close_matches(name, list(at), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        problems.append((1, f"missing SkyPilot column {name!r}{hint}"))
    if defaults["provider"] is None:
        problems.append((None, "the SkyPilot layout names no provider: give one"))
    if defaults["as_of"] is None:
        message = ("SkyPilot catalog files carry no date: give the date of the snapshot "
                   "(for instance its commit date) as as_of")
        problems.append((None, message))
    if problems:
        raise CatalogFileError(file, problems)
    provider = str(defaults["provider"])
    result = Imported([])
    regions: dict[tuple[str, str], _Region] = {}
    for line, cells in records:
        if len(cells) != len(header):
            problems.append((line, f"{len(cells)} cells, the header has {len(header)}"))
            continue
        cell = {name: cells[i].strip() for name, i in at.items()}
        instance, region = cell["InstanceType"], cell["Region"]
        if not instance or not region:
            problems.append((line, "InstanceType and Region are required"))
            continue
        try:
            count = _number(cell["AcceleratorCount"], "AcceleratorCount")
            price = _number(cell["Price"], "Price")
            spot = _number(cell.get("SpotPrice", ""), "SpotPrice")
        except ValueError as err:
            problems.append((line, str(err)))
            continue
        accelerator = cell["AcceleratorName"]
        if not accelerator or not count:
            result.skip("CPU-only rows")
            continue
        if count != int(count):
            result.skip("fractional-GPU rows")
            continue
        gpu = mapper.gpu(accelerator, provider, instance, line)
        if gpu is None:
            continue
        key = (instance, region)
        folded = regions.setdefault(key, _Region(line, gpu, count,
                                                 note=mapper.note(accelerator, gpu)))
        if (folded.gpu, folded.gpus) != (gpu, count):
            message = (f"{instance} in {region} has {count:g}x {accelerator} here but "
                       f"{folded.gpus:g}x {folded.gpu} on line {folded.line}")
            problems.append((line, message))
            continue
        folded.zones += 1
        if price:
            folded.prices.append(price)
        if spot:
            folded.spot_prices.append(spot)
    if problems:
        raise CatalogFileError(file, problems)
    for (instance, region), folded in sorted(regions.items(),
                                             key=lambda kv: (kv[0][0].lower(), kv[0][1])):
        if not folded.prices:
            result.skip("regions without an on-demand price", 1)
            continue
        result.rows.append(_skypilot_row(provider, instance, region, folded, defaults, file))
    return result


def _skypilot_row(provider: str, instance: str, region: str, folded: _Region,
                  defaults: dict[str, str | None], file: str) -> dict[str, Any]:
    price = min(folded.prices)
    spot = min(folded.spot_prices) if folded.spot_prices else None
    notes = [f"imported from {Path(file).name} (SkyPilot catalog layout)", folded.note]
    if folded.zones > 1:
        notes.append(f"cheapest of {folded.zones} zones")
    if spot is not None and spot >= price:
        spot = None
        notes.append("spot price not below on-demand, left empty")
    return _row(provider=provider, instance=instance, region=region, gpu=folded.gpu,
                gpus=int(folded.gpus), price_per_hour=price, spot_price_per_hour=spot,
                currency=defaults["currency"], as_of=defaults["as_of"],
                source=defaults["source"], notes="; ".join(n for n in notes if n))


def _number(text: str, name: str) -> float | None:
    """A non-negative number, or None for an empty cell."""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {text!r}")
    return value


# -- the user's own layout -------------------------------------------------------------------


def _normalise(name: str) -> str:
    return re.sub(r"[\s\-]+", "_", name.strip().lower())


def _read_user_csv(file: str, header: list[str], records: list[tuple[int, list[str]]],
                   defaults: dict[str, str | None], mapper: _GpuMapper) -> Imported:
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
            near = difflib.get_close_matches(key, list(known), n=1)
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
        if not _PROVIDER.match(provider):
            problems.append(f"provider must be lowercase letters, digits, - or _: {provider!r}")
    expected = f"{provider}/{instance}"
    if values["id"] and provider and instance and values["id"].lower() != expected.lower():
        problems.append(f"id must be provider/instance ({expected}), got {values['id']!r}")
    if problems:
        return None, problems
    values["id"] = values["id"] or expected
    values["region"] = values["region"] or "*"
    return _row(**values), []


def _cell(name: str, text: str) -> Any:
    if not text:
        return None
    kind = _KIND[name]
    if kind == "str":
        return text
    if kind == "date":
        parse_as_of(text)
        return text
    value = _number(text, name)
    if kind == "int":
        if value is not None and value != int(value):
            raise ValueError(f"{name} must be a whole number, got {text!r}")
        return int(value) if value is not None else None
    return value


def _row(**values: Any) -> dict[str, Any]:
    """A clouds row: every column, in the table's order."""
    if not values.get("id"):
        values["id"] = f"{values['provider']}/{values['instance']}"
    return {name: values.get(name) for name in COLUMNS}


# -- accelerator names -----------------------------------------------------------------------


class _GpuMapper:
    """Accelerator names -> catalog GPU ids; remembers the unknown ones and where they were."""

    def __init__(self, gpus: Mapping[str, Any], mapping: Mapping[str, str], skip_unknown: bool):
        self.known = {g.lower(): g for g in gpus}
        self.mapping = {k.strip().lower(): v.strip().lower() for k, v in mapping.items()}
        self.skip_unknown = skip_unknown
        self.unknown: dict[str, list[int]] = {}
        self.skipped: dict[str, list[int]] = {}

    def gpu(self, accelerator: str, provider: str, instance: str, line: int) -> str | None:
        name = accelerator.strip().lower()
        gpu = self.mapping.get(name)
        if gpu is None:
            gpu = next((g for p, a, pattern, g in _SPECIFIC
                        if p == provider and a == name and re.fullmatch(pattern, instance)), None)
        if gpu is None:
            gpu = ACCELERATORS.get(name, name)
        if gpu in self.known:
            return self.known[gpu]
        (self.skipped if self.skip_unknown else self.unknown).setdefault(
            accelerator.strip(), []).append(line)
        return None

    def note(self, accelerator: str, gpu: str) -> str | None:
        """A row note when the caller's mapping chose ``gpu`` for ``accelerator``."""
        if accelerator.strip().lower() in self.mapping:
            return f"accelerator {accelerator.strip()} counted as {gpu} (mapping given on import)"
        return None

    def problems(self) -> list[tuple[int | None, str]]:
        problems: list[tuple[int | None, str]] = []
        for name, lines in self.unknown.items():
            target = self.mapping.get(name.lower())
            if target is not None:
                message = f"{name} is mapped to {target!r}, which is not a GPU id of the catalog"
                problems.append((lines[0], message))
                continue
            near = difflib.get_close_matches(name.lower(), list(self.known), n=1)
            hint = f" (closest GPU id: {self.known[near[0]]})" if near else ""
            rows = f"{len(lines)} rows" if len(lines) > 1 else "1 row"
            message = f"unknown accelerator {name!r} on {rows}: no GPU id of the catalog{hint}"
            problems.append((lines[0], message))
        return problems


# --------------------------------------------------------------------------------------------
# Completing rows from the catalog


def complete(rows: list[dict[str, Any]], catalog: Any) -> list[dict[str, Any]]:
    """``rows`` with empty cells filled from ``catalog`` (a :class:`pricing.catalog.Catalog`).

    ``gpu_memory_gb`` comes from the row's GPU. ``billing_increment_minutes`` and
    ``storage_per_gb_month`` come from the catalog's rows of the same provider and currency
    where they all agree on one value. ``interruptions_per_hour`` (rows with a spot price only)
    comes from that provider's spot rows likewise, else from the value every spot row of the
    catalog agrees on (its default estimate). A note names the cells filled so.
    """
    memory = {r["id"].lower(): r.get("memory_gb") for r in catalog.rows("gpus")}
    clouds = catalog.rows("clouds")
    by_provider: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for r in clouds:
        by_provider.setdefault((r.get("provider"), r.get("currency")), []).append(r)
    defaults = {key: _agreed(same) for key, same in by_provider.items()}
    spot_default = _agreed(clouds)["interruptions_per_hour"]
    done = []
    for row in rows:
        row = dict(row)
        if row.get("gpu_memory_gb") is None and row.get("gpu"):
            row["gpu_memory_gb"] = memory.get(row["gpu"].lower())
        agreed = defaults.get((row.get("provider"), row.get("currency")), {})
        notes = [row.get("notes")]
        filled = []
        for column in ("billing_increment_minutes", "storage_per_gb_month"):
            if row.get(column) is None and agreed.get(column) is not None:
                row[column] = agreed[column]
                filled.append(column)
        if filled:
            notes.append(f"{', '.join(filled)}: the catalog's value for {row['provider']} rows")
        if row.get("spot_price_per_hour") is not None and row.get("interruptions_per_hour") is None:
            if agreed.get("interruptions_per_hour") is not None:
                row["interruptions_per_hour"] = agreed["interruptions_per_hour"]
                notes.append(f"interruptions_per_hour: the catalog's value for {row['provider']} "
                             "spot rows (estimate)")
            elif spot_default is not None:
                row["interruptions_per_hour"] = spot_default
                notes.append("interruptions_per_hour: the catalog's default for spot rows "
                             "(estimate)")
        row["notes"] = "; ".join(n for n in notes if n) or None
        done.append(row)
    return done


def _agreed(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The values all ``rows`` agree on (None where they differ); interruptions: spot rows."""
    spot = [r for r in rows if r.get("spot_price_per_hour") is not None]
    return {
        "billing_increment_minutes": _only({r.get("billing_increment_minutes") for r in rows}),
        "storage_per_gb_month": _only({r.get("storage_per_gb_month") for r in rows}),
        "interruptions_per_hour": _only({r.get("interruptions_per_hour") for r in spot}),
    }


def _only(values: set[Any]) -> Any:
    return next(iter(values)) if len(values) == 1 else None


# --------------------------------------------------------------------------------------------
# Writing


def to_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The CSV text of ``rows`` in the clouds schema (header included; empty cell = None)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_text(row.get(name)) for name in COLUMNS])
    return out.getvalue()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        text = f"{value:.10f}".rstrip("0")
        return text if float(text) == value else repr(value)
    return str(value)


def write_catalog(path: str | Path, text: str,
                  check: Callable[[Path], Any] | None = None) -> Path:
    """Write ``text`` to ``path`` completely or not at all.

    The text goes to a temporary file beside ``path``; ``check(temporary_path)`` may inspect it
    (and raise to stop); only then does it replace ``path``. On any failure the temporary file
    is removed and an existing ``path`` is left as it was.
    """
    path = Path(path)
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    temporary = Path(name)
    try:
        with open(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _file_mode(path))
        if check is not None:
            check(temporary)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return path


def _file_mode(path: Path) -> int:
    """The mode of an existing ``path``, else that of a new file (mkstemp's is owner-only)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
