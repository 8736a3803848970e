"""The catalog's rows as typed records, one dataclass per table; and the two list cells of a
free tier (``gpu_options``, ``frameworks``) parsed.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pricing.pricings import price_column

__all__ = ["CloudRow", "FreeTierRow", "GpuRow", "InterconnectRow", "RegionRow", "SiteKindRow",
           "SystemRow",
           "parse_frameworks", "parse_gpu_options"]


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
        return getattr(self, price_column(pricing))


@dataclass(frozen=True)
class InterconnectRow:
    """How the GPUs of an instance type or system are connected (SPEC §8): inside one
    instance or machine, and between them."""

    id: str
    interconnect: str  # pcie, nvlink or nvswitch
    across_machines: str  # infiniband, rdma or ethernet
    as_of: str
    source: str
    notes: str | None


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
            options = parse_gpu_options(options or "")
        object.__setattr__(self, "gpu_options", dict(options))
        frameworks = self.frameworks
        if frameworks is None or isinstance(frameworks, str):
            frameworks = parse_frameworks(frameworks or "")
        object.__setattr__(self, "frameworks", tuple(frameworks))


@dataclass(frozen=True)
class RegionRow:
    """Electricity prices and grid carbon intensity of a country, state or union.

    ``as_of`` is the older of the two prices' dates; ``household_as_of`` and ``business_as_of``
    date a price that is newer than that (``None``: the price is dated by ``as_of``)."""

    id: str
    name: str
    electricity_household_per_kwh: float | None
    electricity_business_per_kwh: float | None
    carbon_kg_per_kwh: float | None
    currency: str
    as_of: str
    source: str
    notes: str | None
    household_as_of: str | None = None
    business_as_of: str | None = None

    def price_as_of(self, tariff: str) -> str:
        """The date of the ``tariff`` (``"household"`` or ``"business"``) price."""
        own = self.business_as_of if tariff == "business" else self.household_as_of
        return own or self.as_of


@dataclass(frozen=True)
class SiteKindRow:
    """A kind of site for owned hardware and its power usage effectiveness (cooling)."""

    id: str
    name: str
    pue: float
    as_of: str
    source: str
    notes: str | None


def parse_gpu_options(text: str) -> dict[str, float]:
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


def parse_frameworks(text: str) -> tuple[str, ...]:
    """``"PaddlePaddle; jax"`` -> ``("paddlepaddle", "jax")``."""
    return tuple(dict.fromkeys(f.strip().lower() for f in text.split(";") if f.strip()))

