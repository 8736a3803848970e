"""Rate cards: a catalog entry or an inline price, turned into what the cost model needs.

Each function takes the option's resource description (a catalog id or an inline map, as plain
Python values) and returns a rate card whose money is in the plan's currency. Numbers may be
numpy arrays (a sweep); the arithmetic here broadcasts.

Problems are raised as :class:`PricingError` naming the key that is wrong; the caller locates
them in the user's file. This module never imports ``planner``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pricing.catalog import Catalog, CatalogLookupError
from pricing.pricings import PRICE_COLUMN

#: Power of everything but the GPUs in an owned machine when the user gives none. [W]
DEFAULT_SYSTEM_POWER_WATTS = 150.0


#: What an own option without a gpu lacks a price or a power for (planner's rule between keys
#: says the same, so that the two checks report one problem).
NO_GPU = "required when own has no gpu"


class PricingError(ValueError):
    """A resource that cannot be priced: ``key`` is the key at fault (relative to the option)."""

    def __init__(self, key: str, message: str, suggestions: list[str] | None = None):
        super().__init__(message)
        self.key = key
        self.message = message
        self.suggestions = suggestions or []


#: What a provenance row dates: a price (it goes stale) or a specification or reference figure
#: (memory, TDP, throughput, PUE, carbon intensity: they do not).
PROVENANCE_KINDS = ("price", "reference")


@dataclass(frozen=True)
class Provenance:
    """Where a figure came from: a catalog row's date and source, and what it says as data.

    ``item_key`` and ``value_key`` name texts of the planner's message catalogue (as
    ``assumption.<key>``); ``item_params`` and ``value_params`` are their parameters as
    (name, value) pairs (names, numbers, or another (key, params) pair for a nested text).
    ``kind`` is ``"price"`` or ``"reference"`` (:data:`PROVENANCE_KINDS`). ``as_of`` is the
    row's own date; ``price_as_of`` the date of the price it gives (a GPU's street price has
    its own date), ``None`` for a reference. ``currency`` is the row's currency where a price
    was converted with it (the plan's fx rate), else ``None``.
    """

    item_key: str
    item_params: tuple[tuple[str, Any], ...]
    value_key: str
    value_params: tuple[tuple[str, Any], ...]
    as_of: str | None
    source: str | None
    kind: str = "reference"
    price_as_of: str | None = None
    currency: str | None = None


def _price(item_key: str, item: dict[str, Any], value_key: str, value: dict[str, Any], row,
           *, price_as_of: str | None = None, converted: bool = True) -> Provenance:
    """A provenance row of a price, dated by ``price_as_of`` (default: the row's as_of);
    ``converted``: the price went through :func:`fx_factor` (its currency is recorded)."""
    return Provenance(item_key, tuple(item.items()), value_key, tuple(value.items()),
                      row.as_of, row.source, "price", price_as_of or row.as_of,
                      row.currency if converted else None)


def _reference(item_key: str, item: dict[str, Any], value_key: str, value: dict[str, Any],
               row) -> Provenance:
    """A provenance row of a specification or reference figure (it does not go stale)."""
    return Provenance(item_key, tuple(item.items()), value_key, tuple(value.items()),
                      row.as_of, row.source)


@dataclass
class GpuFacts:
    """What is known of one GPU: id, memory [GB], peak dense FP16/BF16 throughput [TFLOPS]."""

    gpu: str | None
    gpu_memory_gb: Any
    peak_tflops: Any


@dataclass
class CloudRates:
    """Prices of one cloud instance type, per instance-hour, in the plan's currency."""

    provider: str | None
    instance: str | None
    region: str | None
    gpus: Any
    facts: GpuFacts
    price_per_hour: Any
    spot_price_per_hour: Any
    reserved_1y_price_per_hour: Any
    reserved_3y_price_per_hour: Any
    billing_increment_minutes: Any
    interruptions_per_hour: Any
    storage_per_gb_month: Any
    provenance: list[Provenance] = field(default_factory=list)


@dataclass
class OwnRates:
    """An owned machine: price [currency], power [W], GPUs and their facts."""

    gpu_count: Any
    facts: GpuFacts
    purchase_price: Any
    power_watts: Any
    idle_power_watts: Any = 0.0
    provenance: list[Provenance] = field(default_factory=list)


@dataclass
class FreeTierRates:
    """A free or low-cost notebook tier: GPUs, sessions and quotas [wall-clock hours]."""

    name: str
    facts: GpuFacts
    gpus: Any
    session_hours: Any
    weekly_quota_hours: Any
    daily_quota_hours: Any
    monthly_quota_hours: Any
    fee_per_month: Any
    setup_minutes: Any
    availability: Any
    provenance: list[Provenance] = field(default_factory=list)
    files_persist: bool = True
    download_mb_per_s: Any = None  # how fast a session fetches data that did not persist
    frameworks: tuple[str, ...] = ()  # allowed frameworks; empty: any
    gpu_options: dict[str, float] = field(default_factory=dict)  # GPU id -> share of sessions


@dataclass
class SiteRates:
    """What the catalog says of a site: electricity [currency/kWh], PUE, carbon [kg/kWh]."""

    electricity_per_kwh: Any = None
    pue: Any = None
    carbon_kg_per_kwh: Any = None
    provenance: list[Provenance] = field(default_factory=list)


def fx_factor(row_currency: str, currency: str, fx: Mapping[str, Any], key: str) -> Any:
    """Units of ``currency`` that one unit of ``row_currency`` buys (1 when they are the same)."""
    if row_currency.upper() == currency.upper():
        return 1.0
    if row_currency.upper() not in fx:
        raise PricingError(
            key,
            f"prices are in {row_currency} but the plan is in {currency}; add "
            f"fx: {{{row_currency.upper()}: <{currency} per {row_currency}>}}",
        )
    return fx[row_currency.upper()]


def _lookup(fn, key: str, *args):
    try:
        return fn(*args)
    except CatalogLookupError as err:
        what = {"gpu": "GPU", "cloud": "cloud instance", "free_tier": "free tier",
                "region": "region", "site_kind": "kind of site",
                "system": "system"}.get(err.kind, err.kind)
        # An instance's unknown region is the option's `region` key, not its `cloud`.
        at = "region" if key == "cloud" and err.kind == "region" else key
        raise PricingError(at, f"unknown {what} {err.key!r} in the catalog",
                           list(err.suggestions)) from None


def gpu_facts(catalog: Catalog, gpu_id: str | None, memory_gb, peak_tflops, key: str = "gpu",
              precision: str = "mixed"):
    """GPU memory and peak throughput (FP16/BF16 tensor for mixed precision, else FP32): the
    user's values first, then the catalog's."""
    provenance: list[Provenance] = []
    if gpu_id is None:
        return GpuFacts(None, _or_nan(memory_gb), _or_nan(peak_tflops)), provenance
    row = _lookup(catalog.gpu, key, gpu_id)
    provenance.append(_reference("gpu", {"gpu": row.name}, "gpu_specs", {}, row))
    memory = memory_gb if memory_gb is not None else _or_nan(row.memory_gb)
    catalog_peak = row.peak_fp16_tflops if precision == "mixed" else row.peak_fp32_tflops
    peak = peak_tflops if peak_tflops is not None else _or_nan(catalog_peak)
    return GpuFacts(row.id, memory, peak), provenance


def cloud_rates(catalog: Catalog, resource: str | Mapping[str, Any], *, pricing: str,
                region: str | None, currency: str, fx: Mapping[str, Any],
                precision: str = "mixed",
                billing_increment_minutes=None, interruptions_per_hour=None,
                storage_per_gb_month=None) -> CloudRates:
    """Rate card of a cloud option, from a catalog id ``provider/instance`` or an inline map.

    The keys beside the option (billing increment, interruption rate, storage price) win over the
    catalog; without them the catalog's value is used, else 0 (the interruption rate defaults to
    the catalog's only for spot pricing).
    """
    if isinstance(resource, str):
        row = _lookup(catalog.cloud, "cloud", resource, region, pricing)
        k = fx_factor(row.currency, currency, fx, "cloud")
        facts, prov = gpu_facts(catalog, row.gpu, None, None, precision=precision)
        if row.gpu_memory_gb is not None:
            facts.gpu_memory_gb = row.gpu_memory_gb
        prices = {col: _money(getattr(row, col), k) for col in PRICE_COLUMN.values()}
        if prices[PRICE_COLUMN[pricing]] is None:
            raise PricingError(
                "pricing", f"{row.id} has no {pricing.replace('_', ' ')} price in the catalog")
        default_interruptions = row.interruptions_per_hour if pricing == "spot" else None
        rates = CloudRates(
            provider=row.provider, instance=row.instance, region=row.region, gpus=row.gpus,
            facts=facts, **prices,
            billing_increment_minutes=_first(billing_increment_minutes,
                                             row.billing_increment_minutes),
            interruptions_per_hour=_first(interruptions_per_hour, default_interruptions),
            storage_per_gb_month=_first(storage_per_gb_month,
                                        _money(row.storage_per_gb_month, k)),
            provenance=[*_cloud_price_rows(row, pricing), *prov],
        )
        return rates
    if region is not None:
        raise PricingError("region", "region applies only to catalog instances")
    facts, prov = gpu_facts(catalog, resource.get("gpu"), resource.get("gpu_memory_gb"),
                            resource.get("peak_tflops"), key="cloud.gpu", precision=precision)
    return CloudRates(
        provider=resource.get("provider"), instance=resource.get("instance"), region=None,
        gpus=given(resource.get("gpus"), 1), facts=facts,
        price_per_hour=resource["price_per_hour"],
        spot_price_per_hour=resource.get("spot_price_per_hour"),
        reserved_1y_price_per_hour=resource.get("reserved_1y_price_per_hour"),
        reserved_3y_price_per_hour=resource.get("reserved_3y_price_per_hour"),
        billing_increment_minutes=_first(billing_increment_minutes),
        interruptions_per_hour=_first(interruptions_per_hour),
        storage_per_gb_month=_first(storage_per_gb_month),
        provenance=prov,
    )


def _cloud_price_rows(row, pricing: str) -> list[Provenance]:
    """The assumption rows of the prices a cloud option pays: its own pricing's price per
    instance-hour and, for a reservation, the on-demand price the hours above it pay."""
    item = {"id": row.id, "region": row.region}
    paid = [pricing] if pricing in ("on_demand", "spot") else [pricing, "on_demand"]
    return [_price("cloud", item, f"{name}_price",
                   {"currency": row.currency, "price": getattr(row, PRICE_COLUMN[name])}, row)
            for name in paid]


def own_rates(catalog: Catalog, own: Mapping[str, Any], *, currency: str,
              fx: Mapping[str, Any], precision: str = "mixed") -> OwnRates:
    """Rate card of an owned machine; defaults from the catalog GPU (street price, TDP)."""
    gpu_count = given(own.get("gpu_count"), 1)
    facts, prov = gpu_facts(catalog, own.get("gpu"), own.get("gpu_memory_gb"),
                            own.get("peak_tflops"), key="own.gpu", precision=precision)
    row = catalog.gpu(facts.gpu) if facts.gpu is not None else None
    system = None
    if own.get("system") is not None:
        system = _lookup(catalog.system, "own.system", own["system"])
    system_price = own.get("system_price")
    price = own.get("purchase_price")
    # The system row's price counts only in a price built from parts (no purchase_price).
    priced_by_system = (price is None and system is not None and system_price is None
                        and system.system_price is not None)
    if priced_by_system:
        system_price = system.system_price * fx_factor(system.currency, currency, fx,
                                                       "own.system")
    if price is None:
        if row is None:  # the words of usage.yaml's rule, so the two are one problem
            raise PricingError("own.purchase_price", NO_GPU)
        if row.street_price is None:
            raise PricingError("own.purchase_price",
                               "purchase_price is required: the catalog has no street price "
                               "for this GPU")
        k = fx_factor(row.currency, currency, fx, "own.gpu")
        price = gpu_count * row.street_price * k + given(system_price, 0.0)
        # as_of is the row's, like every catalog figure's (SPEC §2: catalog_as_of is the
        # oldest as_of of the rows used); the price's own date is shown with it and dates it.
        value = {"currency": row.currency, "price": row.street_price}
        if row.price_as_of:
            value["date"] = row.price_as_of
        value_key = "street_price_per_gpu" + ("_dated" if row.price_as_of else "")
        prov.append(_price("street_price", {"gpu": row.name}, value_key, value, row,
                           price_as_of=row.price_as_of))
    power = own.get("power_watts")
    system_power = system is not None and power is None and \
        system.non_gpu_power_watts is not None
    if power is None:
        if row is None:
            raise PricingError("own.power_watts", NO_GPU)
        if row.tdp_watts is None:
            raise PricingError("own.power_watts",
                               "power_watts is required: the catalog has no TDP for this GPU")
        rest = system.non_gpu_power_watts if system_power else DEFAULT_SYSTEM_POWER_WATTS
        power = gpu_count * row.tdp_watts + rest
    idle = own.get("idle_power_watts")
    system_idle = system is not None and idle is None and system.idle_power_watts is not None
    if idle is None:
        idle = system.idle_power_watts if system_idle else 0.0
    # The system row is an assumption only where the model read something from it: a price
    # (which dates the plan's prices) or only its power figures (a reference, never stale).
    if priced_by_system:
        prov.append(_price("system", {"system": system.name}, "system_price", {}, system))
    elif system_power or system_idle:
        prov.append(_reference("system", {"system": system.name}, "system_power", {}, system))
    return OwnRates(gpu_count=gpu_count, facts=facts, purchase_price=price, power_watts=power,
                    idle_power_watts=idle, provenance=prov)


def free_tier_rates(catalog: Catalog, resource: str | Mapping[str, Any], *, currency: str,
                    fx: Mapping[str, Any], precision: str = "mixed") -> FreeTierRates:
    """Rate card of a free tier, from a catalog id or an inline map (absent quotas are NaN)."""
    if isinstance(resource, str):
        row = _lookup(catalog.free_tier, "free_tier", resource)
        k = fx_factor(row.currency, currency, fx, "free_tier") if row.fee_per_month else 1.0
        facts, prov = gpu_facts(catalog, row.gpu, row.gpu_memory_gb, None, precision=precision)
        values = {name: getattr(row, name) for name in (
            "gpus", "session_hours", "weekly_quota_hours", "daily_quota_hours",
            "monthly_quota_hours", "setup_minutes", "availability")}
        values["fee_per_month"] = _money(row.fee_per_month, k)
        prov.insert(0, _price("free_tier", {"tier": row.name}, *_tier_terms(row), row,
                              converted=bool(row.fee_per_month)))
        name = row.id
        extra = {
            "files_persist": row.files_persist is not False,
            "download_mb_per_s": getattr(row, "download_mb_per_s", None),
            "frameworks": tuple(getattr(row, "frameworks", None) or ()),
            "gpu_options": dict(getattr(row, "gpu_options", None) or {}),
        }
    else:
        facts, prov = gpu_facts(catalog, resource.get("gpu"), resource.get("gpu_memory_gb"),
                                resource.get("peak_tflops"), key="free_tier.gpu",
                                precision=precision)
        values = {name: resource.get(name) for name in (
            "gpus", "session_hours", "weekly_quota_hours", "daily_quota_hours",
            "monthly_quota_hours", "setup_minutes", "availability", "fee_per_month")}
        name = "inline"
        extra = {
            "files_persist": resource.get("files_persist") is not False,
            "download_mb_per_s": resource.get("download_mb_per_s"),
            "frameworks": tuple(f.lower() for f in resource.get("frameworks") or ()),
        }
    defaults = {"gpus": 1, "setup_minutes": 0.0, "availability": 1.0, "fee_per_month": 0.0}
    for key, default in defaults.items():
        if values[key] is None:
            values[key] = default
    for key in ("session_hours", "weekly_quota_hours", "daily_quota_hours",
                "monthly_quota_hours"):
        values[key] = _or_nan(values[key])
    return FreeTierRates(name=name, facts=facts, provenance=prov, **values, **extra)


def site_rates(catalog: Catalog, *, region: str | None, tariff: str, kind: str | None,
               currency: str, fx: Mapping[str, Any],
               needs_electricity: bool = False) -> SiteRates:
    """Electricity price and grid carbon intensity of a catalog region, in the plan's currency,
    and the typical PUE of a kind of site. ``needs_electricity``: the plan takes its
    electricity price from the region, so a region without the tariff's price is an error."""
    out = SiteRates()
    if region is not None:
        row = _lookup(catalog.region, "region", region)
        price = (row.electricity_business_per_kwh if tariff == "business"
                 else row.electricity_household_per_kwh)
        if price is None and needs_electricity:
            other = "household" if tariff == "business" else "business"
            raise PricingError("region", f"the catalog has no {tariff} electricity price for "
                                         f"region {region!r}: give site.electricity_per_kwh, "
                                         f"or tariff: {other}")
        if price is not None and needs_electricity:  # else unused: no fx rate asked for it
            out.electricity_per_kwh = price * fx_factor(row.currency, currency, fx, "region")
            out.provenance.append(_price(
                "electricity", {"region": row.name, "tariff": tariff}, "electricity_price",
                {"currency": row.currency, "price": price}, row,
                price_as_of=row.price_as_of(tariff)))
        if row.carbon_kg_per_kwh is not None:
            out.carbon_kg_per_kwh = row.carbon_kg_per_kwh
            out.provenance.append(_reference(
                "carbon", {"region": row.name}, "carbon_value",
                {"kg": row.carbon_kg_per_kwh}, row))
    if kind is not None:
        row = _lookup(catalog.site_kind, "site_kind", kind)
        out.pue = row.pue
        out.provenance.append(_reference("pue", {"site": row.name}, "pue_value",
                                         {"pue": row.pue}, row))
    return out


#: A free tier's published terms, in the order they are listed: catalog column, text key.
_TIER_TERMS = (("weekly_quota_hours", "quota_week"), ("daily_quota_hours", "quota_day"),
               ("monthly_quota_hours", "quota_month"), ("session_hours", "session"))


def _tier_terms(row) -> tuple[str, dict[str, Any]]:
    """A free tier's quotas and session length as a text key and its parameters: the terms
    joined into a list (``tier_terms``: ``terms`` is a tuple of (key, params) pairs), or
    ``no_quota`` when none is published."""
    terms = tuple((key, (("hours", getattr(row, column)),))
                  for column, key in _TIER_TERMS if getattr(row, column) is not None)
    if not terms:
        return "no_quota", {}
    return "tier_terms", {"terms": terms}


def _money(value, factor):
    return None if value is None else value * factor


def given(value, default):
    """``value`` unless it is None (not given), else ``default``; arrays pass through."""
    return default if value is None else value


def _first(*values):
    """The first value that is not None, else 0."""
    for value in values:
        if value is not None:
            return value
    return 0.0


def _or_nan(value):
    return np.nan if value is None else value
