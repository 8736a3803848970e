"""Values that are legal but probably not what was meant: ``discount_rate: 3`` (meant as 3 %)
is 300 % a year. Each gives a warning that names the key, where it was written and the likely
meaning; the plan is still evaluated.

The checks and their thresholds (``README.md``, "Decisions"):

- ``discount_rate``, ``demand.growth_per_year``, a financing ``annual_rate`` above 1 (a
  percentage written for a fraction), ``demand.growth_per_month`` above 1;
- ``site.electricity_per_kwh`` above 2 USD per kWh (a price in cents), compared in USD: the
  plan's currency when it is USD, else converted with the plan's ``fx.USD``; skipped
  without one;
- an own machine's ``purchase_price`` above 0 and below 100 (a price in thousands; 0 is a
  machine already owned), ``power_watts`` above 0 and below 10 (kilowatts), and
  ``lifetime_years`` above 20 (months);
- an own option's ``machines`` above 1,000 (a count of GPUs, or of GPU-hours);
- ``hours_per_month`` above 744, the hours of a 31-day month (hours a year);
- no work at all: ``demand.utilization``, ``demand.gpu_hours_per_month`` or
  ``demand.flops_per_month`` exactly 0.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from planner.messages import Message, Share
from planner.usage.vocabulary import ALTERNATIVE_KEYS

#: A yearly (or monthly) rate above this is probably a percentage. [fraction]
MAX_RATE = 1.0
#: Electricity dearer than this is probably in cents. [USD per kWh]
MAX_ELECTRICITY_USD_PER_KWH = 2.0
#: A whole machine cheaper than this is probably priced in thousands. [currency]
MIN_PURCHASE_PRICE = 100.0
#: A whole machine drawing less than this is probably given in kW. [W]
MIN_POWER_WATTS = 10.0
#: A lifetime longer than this is probably given in months. [years]
PLAUSIBLE_LIFETIME_YEARS = 20.0
#: More identical machines than this are probably GPUs or hours, not machines. [machines]
MAX_MACHINES = 1000
#: The hours of a 31-day month; more are probably the hours of a year. [h]
MAX_HOURS_PER_MONTH = 744.0


def plausibility(usage: Mapping[str, Any], document=None) -> list[Message]:
    """Warnings on the values of ``usage`` (plain data, defaults filled) that are legal but
    probably not meant, each located in ``document`` (a
    :class:`~planner.usage.load.UsageDocument`) when it has the key's position."""
    return [_located(path, warning, document) for path, warning in _findings(usage)]


def _number(value: Any) -> float | None:
    """A plain finite number, else None (not given, a sweep's array, text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _findings(usage: Mapping[str, Any]) -> Iterator[tuple[str, Message]]:
    yield from _rate("discount_rate", usage.get("discount_rate"))
    demand = usage.get("demand") or {}
    # A key filled in from the one the user wrote in other units (growth_per_month gives
    # growth_per_year) is not judged: the written one is, with its own unit.
    derived = {key for alternative, key in ALTERNATIVE_KEYS.items()
               if demand.get(alternative) is not None}
    if "growth_per_year" not in derived:
        yield from _rate("demand.growth_per_year", demand.get("growth_per_year"))
    yield from _rate("demand.growth_per_month", demand.get("growth_per_month"), "month")
    for key in ("utilization", "gpu_hours_per_month", "gpu_hours_per_week", "flops_per_month"):
        if key not in derived and _number(demand.get(key)) == 0.0:
            yield f"demand.{key}", Message("plausible.no_demand", key=key)
    hours = _number(usage.get("hours_per_month"))
    if hours is not None and hours > MAX_HOURS_PER_MONTH:
        yield "hours_per_month", Message("plausible.hours_per_month", value=hours,
                                         limit=MAX_HOURS_PER_MONTH)
    yield from _electricity(usage)
    for i, option in enumerate(usage.get("options") or []):
        own = option.get("own")
        if isinstance(own, Mapping):
            yield from _own(f"options[{i}].own", own, str(usage.get("currency") or "USD"))


def _rate(path: str, value: Any, per: str = "year") -> Iterator[tuple[str, Message]]:
    value = _number(value)
    if value is not None and value > MAX_RATE:
        yield path, Message(f"plausible.rate_{per}", value=value, share=Share(value),
                            guess=value / 100.0)


def _electricity(usage: Mapping[str, Any]) -> Iterator[tuple[str, Message]]:
    price = _number((usage.get("site") or {}).get("electricity_per_kwh"))
    if price is None:
        return
    currency = str(usage.get("currency") or "USD").upper()
    if currency == "USD":
        per_usd = 1.0
    else:
        per_usd = _number({str(k).upper(): v for k, v in (usage.get("fx") or {}).items()}
                          .get("USD"))
        if per_usd is None:
            return  # no rate to USD: the price cannot be judged
    limit = MAX_ELECTRICITY_USD_PER_KWH * per_usd
    if price > limit:
        key = "plausible.electricity" if currency == "USD" else "plausible.electricity_fx"
        params = {"guess": price / 100.0} if currency == "USD" else {}
        yield "site.electricity_per_kwh", Message(key, value=price, currency=currency,
                                                  limit=limit, **params)


def _own(path: str, own: Mapping[str, Any], currency: str) -> Iterator[tuple[str, Message]]:
    price = _number(own.get("purchase_price"))
    if price is not None and 0.0 < price < MIN_PURCHASE_PRICE:
        yield f"{path}.purchase_price", Message("plausible.purchase_price", value=price,
                                                currency=currency, guess=price * 1000.0)
    yield from _rate(f"{path}.financing.annual_rate",
                     (own.get("financing") or {}).get("annual_rate"))
    power = _number(own.get("power_watts"))
    if power is not None and 0.0 < power < MIN_POWER_WATTS:
        yield f"{path}.power_watts", Message("plausible.power_watts", value=power,
                                             guess=power * 1000.0)
    years = _number(own.get("lifetime_years"))
    if years is not None and years > PLAUSIBLE_LIFETIME_YEARS:
        yield f"{path}.lifetime_years", Message("plausible.lifetime_years", value=years,
                                                guess=years / 12.0)
    machines = _number(own.get("machines"))
    if machines is not None and machines > MAX_MACHINES:
        yield f"{path}.machines", Message("plausible.machines", value=machines,
                                          limit=MAX_MACHINES)


def _located(path: str, warning: Message, document) -> Message:
    """``warning`` with its key path, and the file and line where the value was written."""
    where = None
    if document is not None and document.file:
        where = document.positions.get(path) or document.key_positions.get(path)
    if where is None:
        return Message("plausible.at_path", path=path, warning=warning)
    return Message("plausible.at", path=path, file=Path(document.file).name, line=where[0],
                   warning=warning)
