"""The one place a usage option's catalog rows become its rates (:mod:`pricing.rates`).

Used twice, on purpose, with the same arguments: by the catalog pre-checks on the raw document
(:mod:`planner.cards.checks`: what the rows lack is reported with the schema's problems, all at
once) and by :mod:`planner.cards.resolve` on the validated one (the model). Both read the same
keys of an option and of the site, so the two can never disagree about what a plan costs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pricing.catalog import Catalog
from pricing.rates import cloud_rates, free_tier_rates, own_rates, site_rates


def option_rates(catalog: Catalog, option: Mapping[str, Any], *, currency: str,
                 fx: Mapping[str, float], precision: str = "mixed") -> Any:
    """The rate card of ``option`` (one entry of usage.yaml's ``options``): a cloud, own or
    free-tier card in ``currency`` (catalog prices converted with ``fx``). Raises
    :class:`pricing.rates.PricingError` for what the catalog rows lack."""
    if option.get("cloud") is not None:
        return cloud_rates(
            catalog, option["cloud"], pricing=option.get("pricing") or "on_demand",
            region=option.get("region"), currency=currency, fx=fx,
            billing_increment_minutes=option.get("billing_increment_minutes"),
            interruptions_per_hour=option.get("interruptions_per_hour"),
            storage_per_gb_month=option.get("storage_per_gb_month"), precision=precision)
    if option.get("own") is not None:
        return own_rates(catalog, option["own"], currency=currency, fx=fx, precision=precision)
    return free_tier_rates(catalog, option["free_tier"], currency=currency, fx=fx,
                           precision=precision)


def site_rates_of(catalog: Catalog, usage: Mapping[str, Any], *, kind_known: bool = True) -> Any:
    """The site's rates (electricity price, PUE, carbon intensity) from usage.yaml's ``site``
    and the catalog region and kind of site it names; the electricity price is required when an
    option owns hardware and the file gives none. ``kind_known`` False leaves the kind of site
    out (the pre-checks report an unknown one by itself)."""
    site = usage.get("site") or {}
    options = usage.get("options") or []
    owns = any(isinstance(o, Mapping) and o.get("own") is not None for o in options)
    return site_rates(catalog, region=site.get("region"),
                      tariff=site.get("tariff") or "business",
                      kind=site.get("kind") if kind_known else None,
                      currency=usage.get("currency", "USD"), fx=usage.get("fx") or {},
                      needs_electricity=owns and site.get("electricity_per_kwh") is None)
