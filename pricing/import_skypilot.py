"""The SkyPilot layout of a price list (https://github.com/skypilot-org/skypilot-catalog,
``catalogs/v*/<cloud>/vms.csv``): its zones folded into regions at the median zone's price
(:mod:`pricing.import_zones`), GCP's separate GPU rows added to their machine types
(:mod:`pricing.import_gcp`).

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pricing.accelerators import GpuMapper
from pricing.errors import CatalogFileError
from pricing.import_gcp import combine_gcp
from pricing.import_rows import Imported, clouds_row, number
from pricing.import_zones import is_edge_zone, median_zone_price
from pricing.suggest import close_matches, did_you_mean

__all__ = ["SKYPILOT_CATALOG", "SKYPILOT_CLOUDS", "read_skypilot", "skypilot_provider"]

SKYPILOT_CATALOG = "https://github.com/skypilot-org/skypilot-catalog"
"""Default ``source`` of rows imported from the SkyPilot layout."""
SKYPILOT_CLOUDS = frozenset({
    "aws", "azure", "cudo", "daytona", "do", "fluidstack", "gcp", "hyperbolic", "hyperstack",
    "ibm", "jarvislabs", "lambda", "lium", "mithril", "nebius", "oci", "ovhcloud", "paperspace",
    "primeintellect", "runpod", "scaleway", "scp", "seeweb", "shadeform", "simplepod", "spheron",
    "vast", "verda", "yotta",
})
"""Folder names of ``catalogs/v*/<cloud>/`` in the SkyPilot catalog repository."""


_SKYPILOT_REQUIRED = ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region")


def skypilot_provider(path: str | Path) -> str | None:
    """The provider a SkyPilot catalog file is for, from its folder (``.../aws/vms.csv``)."""
    folder = Path(path).resolve().parent.name.lower()
    return folder if folder in SKYPILOT_CLOUDS else None



@dataclass
class _Region:
    """The zones of one instance type in one region, folded into one catalog row."""

    line: int
    gpu: str
    gpus: float
    prices: list[float] = field(default_factory=list)
    spot_prices: list[float] = field(default_factory=list)
    zones: int = 0
    edge_zones: int = 0
    combined: bool = False
    note: str | None = None


def read_skypilot(file: str, header: list[str], records: list[tuple[int, list[str]]],
                   defaults: dict[str, str | None], mapper: GpuMapper) -> Imported:
    at = {name.strip(): i for i, name in enumerate(header)}
    missing = [name for name in _SKYPILOT_REQUIRED if name not in at]
    problems: list[tuple[int | None, str]] = []
    for name in missing:
        hint = did_you_mean(close_matches(name, at, n=1, ignore_case=False))
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
    rows: list[tuple[int, dict[str, str]]] = []
    for line, cells in records:
        if len(cells) != len(header):
            problems.append((line, f"{len(cells)} cells, the header has {len(header)}"))
            continue
        rows.append((line, {name: cells[i].strip() for name, i in at.items()}))
    separate_gpus = any(not c["InstanceType"] and c["AcceleratorName"] for _, c in rows)
    if separate_gpus:
        rows = combine_gcp(rows, result.skip)
    regions: dict[tuple[str, str], _Region] = {}
    for line, cell in rows:
        instance, region = cell["InstanceType"], cell["Region"]
        if not instance or not region:
            problems.append((line, "InstanceType and Region are required"))
            continue
        try:
            count = number(cell["AcceleratorCount"], "AcceleratorCount")
            price = number(cell["Price"], "Price")
            spot = number(cell.get("SpotPrice", ""), "SpotPrice")
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
        folded = regions.setdefault(key, _Region(line, gpu, count, combined=separate_gpus,
                                                 note=mapper.note(accelerator, gpu)))
        if (folded.gpu, folded.gpus) != (gpu, count):
            message = (f"{instance} in {region} has {count:g}x {accelerator} here but "
                       f"{folded.gpus:g}x {folded.gpu} on line {folded.line}")
            problems.append((line, message))
            continue
        if is_edge_zone(provider, region, cell.get("AvailabilityZone", "")):
            folded.edge_zones += 1
            continue
        folded.zones += 1
        if price:
            folded.prices.append(price)
            if spot and spot < price:
                folded.spot_prices.append(spot)
    if problems:
        raise CatalogFileError(file, problems)
    edge = sum(f.edge_zones for f in regions.values())
    if edge:
        result.skip("rows of AWS Local Zones and Wavelength zones", edge)
    for (instance, region), folded in sorted(regions.items(),
                                             key=lambda kv: (kv[0][0].lower(), kv[0][1])):
        if not folded.prices:
            result.skip("regions without an on-demand price", 1)
            continue
        result.rows.append(_skypilot_row(provider, instance, region, folded, defaults, file))
    return result


def _skypilot_row(provider: str, instance: str, region: str, folded: _Region,
                  defaults: dict[str, str | None], file: str) -> dict[str, Any]:
    price = median_zone_price(folded.prices)
    spot = median_zone_price(folded.spot_prices)
    notes = [f"imported from {Path(file).name} (SkyPilot catalog layout)", folded.note]
    if folded.combined:
        notes.append("machine type and GPU rows added, as SkyPilot prices a GCP machine type")
    if folded.zones > 1:
        notes.append(f"median of {folded.zones} zones")
    if folded.edge_zones:
        notes.append(f"{folded.edge_zones} Local/Wavelength zone row(s) left out")
    if spot is not None and spot >= price:
        spot = None
    if spot is None and folded.zones:
        notes.append("no spot price below on-demand")
    return clouds_row(provider=provider, instance=instance, region=region, gpu=folded.gpu,
                gpus=int(folded.gpus), price_per_hour=price, spot_price_per_hour=spot,
                currency=defaults["currency"], as_of=defaults["as_of"],
                source=defaults["source"], notes="; ".join(n for n in notes if n))
