"""The resolved model: everything the cost engine needs, as arrays.

Every per-scenario number is a float array of shape (S, 1) (or (1, 1) when it is the same for all
scenarios), so it broadcasts against the month axis: cash flows are (S, T + 1) arrays, month 0
first. Structure that changes the shape of the computation (horizon, pricing, always-on, whether
a loan exists, which option overflows to which) is plain Python and the same for all scenarios
of one model; a sweep groups scenarios by it.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from planner.messages import Message

Array = np.ndarray


def has_infinity(obj: Any) -> bool:
    """Whether a numpy array inside ``obj`` (a model, a card: dataclasses, dicts) holds ±inf."""
    if isinstance(obj, np.ndarray):
        return obj.dtype.kind == "f" and bool(np.isinf(obj).any())
    if dataclasses.is_dataclass(obj):
        return any(has_infinity(getattr(obj, f.name)) for f in dataclasses.fields(obj))
    if isinstance(obj, dict):
        return any(has_infinity(value) for value in obj.values())
    return False


def col(value: Any) -> Array:
    """A number or a 1-D array of per-scenario numbers as an (S, 1) float array."""
    return np.asarray(value, dtype=float).reshape(-1, 1)


@dataclass
class Demand:
    """The work, in reference units: reference GPU-hours, or FLOPs with ``form == "flops"``."""

    form: str  # "gpu_hours" | "flops"
    level: Array  # month-1 work [reference GPU-hours or FLOPs]
    growth_per_year: Array  # [fraction per year]
    gpus: Array  # GPUs one job uses [count]
    job_hours: Array | None  # wall-clock length of one job on the reference [h]
    checkpoint_minutes: Array  # [min]
    data_gb: Array  # [GB]
    min_gpu_memory_gb: Array  # [GB]


@dataclass
class Calendar:
    horizon_months: int  # T
    hours_per_month: Array  # H [h]
    discount_rate: Array  # [fraction per year]

    @property
    def months(self) -> Array:
        return np.arange(self.horizon_months + 1)


@dataclass
class Card:
    """What every option has: its name, how its GPU-hours relate to the work, its GPU."""

    name: str
    gpu: str | None
    gpu_memory_gb: Array  # per GPU, NaN when unknown [GB]
    #: own GPU-hours per reference unit, 1 / (relative_speed × scaling_efficiency) [h/unit]
    gpu_hours_per_unit: Array
    job_hours: Array | None  # wall-clock length of one job on this option [h]
    #: the share of linear speed-up a job of demand.gpus GPUs reaches here (SPEC §8); folded
    #: into gpu_hours_per_unit and job_hours already [fraction]
    scaling_efficiency: Array = None


@dataclass
class CloudCard(Card):
    pricing: str = "on_demand"
    gpus: Array = None  # GPUs per instance [GPUs]
    #: price paid per rented instance-hour: on-demand, spot or the reservation's [currency/h]
    price_per_hour: Array = None
    #: the on-demand price, paid for the hours above a reservation [currency/h]
    on_demand_price_per_hour: Array = None
    #: the reservation's effective price per committed instance-hour; None unless reserved
    #: [currency/h]
    reserved_price_per_hour: Array | None = None
    term_months: int = 0  # months one reservation commits to; 0 for on-demand and spot [months]
    reserved_instances: Array | None = None  # None: chosen to minimize present value
    #: Committed instances per term, (S or 1, terms), when the file gives a list. [instances]
    reserved_ladder: Array | None = None
    #: reserved_instances: per_term — each term's count chosen to minimize its present value.
    reserved_per_term: bool = False
    billing_increment_hours: Array = None  # each job's rented time rounded up to this [h]
    interruptions_per_hour: Array = None  # per rented instance-hour [1/h]
    restart_minutes: Array = None  # time lost per interruption besides redone work [minutes]
    storage_per_gb_month: Array = None  # price of keeping demand.data_gb [currency/(GB·month)]


@dataclass
class Financing:
    annual_rate: Array  # nominal; the monthly rate is annual_rate / 12 [fraction per year]
    months: Array  # equal monthly payments after the purchase [months]
    down_payment: Array  # paid at purchase, per machine, at most its price [currency/machine]


@dataclass
class OwnCard(Card):
    gpu_count: Array = None  # GPUs per machine [GPUs]
    purchase_price: Array = None  # per machine [currency/machine]
    lifetime_months: Array = None  # replaced after this many months of age [months]
    #: of the purchase price, got back at replacement; the residual value at the horizon runs
    #: down to it over the lifetime [fraction]
    resale_fraction: Array = None
    power_kw: Array = None  # per machine, while busy [kW/machine]
    idle_power_kw: Array = None  # per machine, while idle (counted when always_on) [kW/machine]
    always_on: bool = False
    maintenance_per_year: Array = None  # per machine in service [currency/(machine·year)]
    fixed_cost_per_month: Array = None  # per machine in service [currency/(machine·month)]
    operating_cost_per_hour: Array = None  # per busy system-hour [currency/h]
    availability: Array = None  # share of the hours a machine can work [fraction]
    electricity_per_kwh: Array = None  # the site's price [currency/kWh]
    pue: Array = None  # facility energy / IT energy [ratio]
    carbon_kg_per_kwh: Array | None = None  # grid intensity; None when unknown [kg CO2e/kWh]
    financing: Financing | None = None
    overflow: str | None = None
    #: Identical machines bought (SPEC §6), (S or 1, 1); None while ``machines: auto`` is not
    #: yet chosen (:func:`planner.engine.fleet.choose_machines` fills it in). [machines]
    machines: Array | None = field(default_factory=lambda: col(1.0))
    #: ``machines: auto``: the count is chosen by present value for every scenario.
    machines_auto: bool = False
    #: Where ``machines: auto`` would need more machines than it looks at, (S, 1) bool; None
    #: when it does not (or the count was given).
    machines_beyond_search: Array | None = None
    #: Month p in which the machines are bought; they serve from month p + 1. [month]
    purchase_month: Array = field(default_factory=lambda: col(0.0))


@dataclass
class FreeTierCard(Card):
    gpus: Array = None
    session_hours: Array = None  # NaN: no session limit
    weekly_quota_hours: Array = None  # NaN: no limit
    daily_quota_hours: Array = None
    monthly_quota_hours: Array = None
    fee_per_month: Array = None
    setup_minutes: Array = None
    availability: Array = None
    fallback: str | None = None
    framework_reason: Message | None = None  # why the tier cannot run the work's framework


@dataclass
class Model:
    calendar: Calendar
    demand: Demand
    cards: dict[str, Card]
    target_of: dict[str, str] = field(default_factory=dict)  # option -> overflow/fallback

    @functools.cached_property
    def scenarios(self) -> int:
        """S: the largest first dimension among the arrays."""
        return _max_rows(self)


def _max_rows(obj) -> int:
    rows = 1
    for value in _arrays(obj):
        rows = max(rows, value.shape[0])
    return rows


def _arrays(obj):
    if isinstance(obj, np.ndarray):
        yield obj
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            yield from _arrays(getattr(obj, f.name))
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from _arrays(value)


def map_arrays(obj, fn):
    """A copy of ``obj`` with ``fn`` applied to every numpy array inside it."""
    if isinstance(obj, np.ndarray):
        return fn(obj)
    if dataclasses.is_dataclass(obj):
        return dataclasses.replace(
            obj, **{f.name: map_arrays(getattr(obj, f.name), fn) for f in dataclasses.fields(obj)
                    if f.init})
    if isinstance(obj, dict):
        return {key: map_arrays(value, fn) for key, value in obj.items()}
    return obj


def repeat_scenarios(model: Model, times: int) -> Model:
    """Each scenario repeated ``times`` times in a row (S → S·times); shared numbers stay shared."""
    rows = model.scenarios

    def rep(a: Array) -> Array:
        return np.repeat(a, times, axis=0) if a.shape[0] == rows and rows > 1 else a

    return map_arrays(model, rep)


def take_scenarios(model: Model, index) -> Model:
    """The scenarios at ``index`` (a slice or an index array)."""
    rows = model.scenarios

    def take(a: Array) -> Array:
        return a[index] if a.shape[0] == rows and rows > 1 else a

    return map_arrays(model, take)


def with_level(model: Model, level: Array) -> Model:
    """The same model with month-1 work ``level`` (S, 1) [reference units]."""
    return dataclasses.replace(model, demand=dataclasses.replace(model.demand, level=col(level)))
