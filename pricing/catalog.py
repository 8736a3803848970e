"""The price catalog: its tables read from CSV files, merged, and looked up.

Seven tables ship in ``pricing/data``: ``gpus``, ``clouds``, ``free-tiers``, ``regions``,
``site-kinds``, ``systems`` and ``interconnects``, one file each (:data:`pricing.schema.FILES`). Their columns,
types and units are data in :mod:`pricing.schema` and are described, with their sources, in
``pricing/CATALOG.md``. :func:`load_catalog` reads them on first use (never at import time),
caches the result, and merges user CSV files over them: a user row replaces the built-in rows
with the same id. A file is parsed and checked by :mod:`pricing.table_file`; its rows become
the records of :mod:`pricing.rows`.

Conventions: an empty cell is "unknown / not sold" and becomes ``None``; money is in the row's
``currency``; dates (``as_of``, ``price_as_of``) are ``YYYY-MM-DD`` or ``YYYY-MM``.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import fields
from importlib.resources import files
from pathlib import Path
from typing import Any

from pricing.cloud_merge import cloud_key, keep_pricings
from pricing.errors import CatalogFileError, CatalogLookupError
from pricing.pricings import PRICE_COLUMN, price_column
from pricing.rows import (
    CloudRow,
    FreeTierRow,
    GpuRow,
    InterconnectRow,
    RegionRow,
    SiteKindRow,
    SystemRow,
    parse_gpu_options,
)
from pricing.schema import (
    ANY_REGION,
    FILES,
    QUOTA_RESETS,
    TABLE_ALIASES,
    TABLES,
    THROUGHPUT_PREFIX,
    Column,
)
from pricing.suggest import close_matches, closest_ids, did_you_mean
from pricing.table_file import Table, parse_as_of, read_table

__all__ = [
    "ANY_REGION",
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
    "InterconnectRow",
    "RegionRow",
    "SiteKindRow",
    "SystemRow",
    "load_catalog",
    "parse_as_of",
]

PRICINGS = PRICE_COLUMN
"""Pricing name -> the clouds column that holds its price; the one definition is
:data:`pricing.pricings.PRICE_COLUMN`."""


# --------------------------------------------------------------------------------------------
# Building rows


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """The field names of a row dataclass, looked up once per class (a catalog builds
    thousands of rows)."""
    return tuple(f.name for f in fields(cls))


def _gpu_row(row: dict[str, Any]) -> GpuRow:
    throughput = {
        key[len(THROUGHPUT_PREFIX) :]: value
        for key, value in row.items()
        if key.startswith(THROUGHPUT_PREFIX) and value is not None
    }
    plain = {name: row.get(name) for name in _field_names(GpuRow) if name != "throughput"}
    return GpuRow(throughput=throughput, **plain)


def _plain_row(cls: type, row: dict[str, Any]) -> Any:
    return cls(**{name: row.get(name) for name in _field_names(cls)})



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
        self._interconnects = {r["id"].lower(): _plain_row(InterconnectRow, r)
                               for r in tables["interconnects"]}

    # -- lookups ---------------------------------------------------------------------------

    def gpu(self, gpu_id: str) -> GpuRow:
        """The GPU ``gpu_id`` (case-insensitive)."""
        try:
            return self._gpus[gpu_id.strip().lower()]
        except KeyError:
            suggestions = closest_ids(gpu_id, self.ids("gpus"))
            raise CatalogLookupError("gpu", gpu_id, suggestions) from None

    def cloud_regions(self, cloud_id: str) -> list[CloudRow]:
        """Every region of the instance ``cloud_id`` (``provider/instance``), by region name."""
        try:
            return list(self._clouds[cloud_id.strip().lower()])
        except KeyError:
            raise CatalogLookupError("cloud", cloud_id, self.near_cloud_ids(cloud_id)) from None

    def near_cloud_ids(self, cloud_id: str, n: int = 3) -> list[str]:
        """Up to ``n`` cloud ids close to ``cloud_id``, for a did-you-mean: the typed provider's
        ids first (``runpod/RTX4090`` suggests RunPod's 4090s before ``autodl/RTX-4090``), then
        the others; in each, the closest first and, among ids exactly as close, the instance
        with fewer GPUs first (``runpod/1x_RTX4090_SECURE`` before the 2x, 4x and 8x); where
        none is close, the closest whatever their closeness (:func:`closest_ids`)."""
        gpus = {rows[0].id: rows[0].gpus for rows in self._clouds.values()}
        provider = cloud_id.split("/", 1)[0].strip().lower() + "/" if "/" in cloud_id else None
        own = [c for c in gpus if provider and c.lower().startswith(provider)]
        first = close_matches(cloud_id, own, n, rank=lambda c: gpus[c])
        others = [c for c in gpus if c not in own]
        near = first + close_matches(cloud_id, others, n - len(first), rank=lambda c: gpus[c])
        # None that close: the closest whatever their ratio (SPEC §1.3 lists the closest ids),
        # the typed provider's first.
        return near or closest_ids(cloud_id, own or list(gpus), n, rank=lambda c: gpus[c])

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
        column = price_column(pricing)
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
            raise CatalogLookupError("region", region, close_matches(region, regions), detail)
        priced = [r for r in rows if getattr(r, column) is not None]
        if not priced:
            priced, column = rows, "price_per_hour"
        return min(priced, key=lambda r: (getattr(r, column), r.region.lower()))

    def free_tier(self, tier_id: str) -> FreeTierRow:
        """The free tier ``tier_id`` (case-insensitive)."""
        try:
            return self._tiers[tier_id.strip().lower()]
        except KeyError:
            suggestions = closest_ids(tier_id, self.ids("free-tiers"))
            raise CatalogLookupError("free_tier", tier_id, suggestions) from None

    def region(self, region_id: str) -> RegionRow:
        """The electricity region ``region_id`` (``us-ca``, ``de``, ...; case-insensitive)."""
        try:
            return self._regions[region_id.strip().lower()]
        except KeyError:
            # Near ids only: a region is also named by its name (planner.cards.words), which
            # the caller tries before listing the closest ids of all.
            suggestions = close_matches(region_id, self.ids("regions"))
            detail = f"unknown region {region_id!r} in the regions table"
            raise CatalogLookupError("region", region_id, suggestions, detail) from None

    def site_kind(self, kind_id: str) -> SiteKindRow:
        """The site kind ``kind_id`` (``home-office``, ``colocation``, ...; case-insensitive)."""
        try:
            return self._site_kinds[kind_id.strip().lower()]
        except KeyError:
            suggestions = closest_ids(kind_id, self.ids("site-kinds"))
            detail = f"unknown site kind {kind_id!r}"
            raise CatalogLookupError("site_kind", kind_id, suggestions, detail) from None

    def system(self, system_id: str) -> SystemRow:
        """The system ``system_id`` (``workstation-4gpu``, ``server-8gpu-sxm``, ...)."""
        try:
            return self._systems[system_id.strip().lower()]
        except KeyError:
            suggestions = closest_ids(system_id, self.ids("systems"))
            raise CatalogLookupError("system", system_id, suggestions) from None

    def interconnect(self, *ids: str | None) -> InterconnectRow | None:
        """How the GPUs are connected (SPEC §8): the row of the first of ``ids`` (a cloud id,
        a system or free tier id, then a GPU id, whose row is the default for instances and
        machines of that GPU) that the interconnects table has; None when it has none."""
        for key in ids:
            if key:
                row = self._interconnects.get(str(key).strip().lower())
                if row is not None:
                    return row
        return None

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
        """The ids of ``table`` (any of :data:`TABLES`), in file order."""
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
    name = TABLE_ALIASES.get(table, table)
    if name not in TABLES:
        raise ValueError(f"table must be one of {', '.join(TABLES)}, got {table!r}")
    return name


# --------------------------------------------------------------------------------------------
# Loading and merging


@functools.lru_cache(maxsize=1)
def _builtin_tables() -> dict[str, Table]:
    """The shipped tables, parsed once; a broken shipped file is a bug."""
    data = files("pricing.data")
    tables = {}
    for name, filename in FILES.items():
        text = data.joinpath(filename).read_text(encoding="utf-8")
        try:
            tables[name] = read_table(f"pricing/data/{filename}", text, name)
        except CatalogFileError as err:
            raise RuntimeError(f"the built-in catalog is broken:\n{err}") from err
    return tables


def _read_user_file(path: str | Path) -> Table:
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        raise CatalogFileError(file, [(None, f"cannot read the file: {err}")]) from None
    return read_table(file, text)


def _merge(tables: list[Table]) -> dict[str, list[tuple[dict, Table, int]]]:
    """Rows of each table after the later tables replaced earlier rows with the same key.

    The key is the id; for clouds it is (id, region), so a later file replaces only the regions
    it brings, and a pricing it leaves empty (spot, reserved) keeps the earlier row's value.
    """
    merged: dict[str, list[tuple[dict, Table, int]]] = {name: [] for name in TABLES}
    for table in tables:
        if table.name == "clouds":
            merged["clouds"] = _merge_clouds(merged["clouds"], table)
            continue
        replaced = {row["id"].lower() for row in table.rows}
        kept = [item for item in merged[table.name] if item[0]["id"].lower() not in replaced]
        merged[table.name] = kept + [(r, table, line) for r, line in zip(table.rows, table.lines)]
    return merged


def _merge_clouds(earlier: list[tuple[dict, Table, int]],
                  table: Table) -> list[tuple[dict, Table, int]]:
    before = {cloud_key(item[0]): item[0] for item in earlier}
    later = {cloud_key(row) for row in table.rows}
    kept = [item for item in earlier if cloud_key(item[0]) not in later]
    rows = []
    for row, line in zip(table.rows, table.lines):
        old = before.get(cloud_key(row))
        rows.append((keep_pricings(row, old) if old is not None else row, table, line))
    return kept + rows


def _check_references(merged: dict[str, list[tuple[dict, Table, int]]]) -> None:
    """Every GPU a cloud or free-tier row names exists; problems are grouped by file."""
    gpu_ids = {row["id"].lower() for row, _, _ in merged["gpus"]}
    known = sorted(row["id"] for row, _, _ in merged["gpus"])
    problems: dict[str, list[tuple[int | None, str]]] = {}
    for name in ("clouds", "free-tiers"):
        for row, table, line in merged[name]:
            gpus = [row.get("gpu")] + list(parse_gpu_options(row.get("gpu_options") or ""))
            for gpu in dict.fromkeys(g for g in gpus if g):
                if gpu.lower() in gpu_ids:
                    continue
                hint = did_you_mean(close_matches(gpu, known, n=1))
                problems.setdefault(table.file, []).append(
                    (line, f"gpu {gpu!r} is not in the gpus table{hint}")
                )
    for file, found in problems.items():
        raise CatalogFileError(file, found)


def _build(tables: list[Table]) -> Catalog:
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

    Each user file's table (any of :data:`TABLES`) is recognised by its header. A user
    row replaces the built-in rows with the same id; for clouds, a user's row replaces the row
    of the same id and region only, and keeps that row's spot and reserved prices where it
    leaves them empty (its notes say so). ``builtin=False`` uses the user files alone.

    Raises :class:`CatalogFileError` for a user file that cannot be used.
    """
    if not extra_files and builtin:
        return _builtin_catalog()
    user = [_read_user_file(path) for path in extra_files]
    base = list(_builtin_tables().values()) if builtin else []
    return _build(base + user)
