"""Turn a price list from elsewhere into a catalog file of the ``clouds`` table.

Two layouts are read (:data:`LAYOUTS`):

``skypilot``
    SkyPilot's public catalog (https://github.com/skypilot-org/skypilot-catalog, files
    ``catalogs/v*/<cloud>/vms.csv``): one row per instance type and region, or per availability
    zone where the file has an ``AvailabilityZone`` column. The columns used are
    ``InstanceType``, ``AcceleratorName``, ``AcceleratorCount``, ``Price``, ``SpotPrice`` and
    ``Region``, in any order; others (``vCPUs``, ``MemoryGiB``, ``GpuInfo``, ...) are ignored.
    The zones of a region fold into one row at the median zone's price, AWS Local and
    Wavelength zones left out (:mod:`pricing.import_zones`); GCP's GPU rows, which have no
    ``InstanceType``, are added to their machine types (:mod:`pricing.import_gcp`). A price of
    0 or an empty cell is "no price". Left out, and counted: CPU-only rows, fractional-GPU
    shapes, GCP GPU rows without a machine type of their own, TPUs and regions without an
    on-demand price.
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

The work is split by job: :mod:`pricing.import_skypilot` and :mod:`pricing.import_csv` read
the two layouts, :mod:`pricing.accelerators` names the GPUs, :mod:`pricing.import_rows` holds
what they share, and :mod:`pricing.clouds_file` completes, formats and writes the rows.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from pricing.accelerators import ACCELERATORS, GpuMapper
from pricing.clouds_file import complete, to_csv, write_catalog
from pricing.errors import CatalogFileError
from pricing.import_csv import ALIASES, read_user_csv
from pricing.import_rows import PROVIDER, Imported
from pricing.import_skypilot import (
    SKYPILOT_CATALOG,
    SKYPILOT_CLOUDS,
    read_skypilot,
    skypilot_provider,
)
from pricing.table_file import parse_as_of

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


# --------------------------------------------------------------------------------------------
# Reading


def detect_layout(text: str) -> str:
    """``skypilot`` when the CSV ``text``'s header has SkyPilot's column names, else ``csv``."""
    header = next(csv.reader(io.StringIO(text.lstrip("\ufeff"))), [])
    return _layout(header)


def _layout(header: Iterable[str]) -> str:
    names = {h.strip() for h in header}
    return "skypilot" if {"InstanceType", "AcceleratorName"} <= names else "csv"



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
    mapper = GpuMapper(gpus, mapping or {}, skip_unknown)
    reader = read_skypilot if layout == "skypilot" else read_user_csv
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
    if defaults["provider"] is not None and not PROVIDER.match(defaults["provider"]):
        provider = defaults["provider"]
        problems.append((None, f"provider must be lowercase letters, digits, - or _: {provider!r}"))
    if defaults["as_of"] is not None:
        try:
            parse_as_of(defaults["as_of"])
        except ValueError as err:
            problems.append((None, str(err)))
    return problems

