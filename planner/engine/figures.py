"""The figures of SPEC §2 for every option and pair, as arrays over scenarios.

One computation serves both a single evaluation (S = 1, turned into the JSON of §2) and a sweep
(turned into a DataFrame), so a sweep equals the evaluations it replaces by construction.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from planner.cards.model import Array, Model, OwnCard
from planner.engine.breakeven import (
    OVERFLOW_SEARCH_FACTOR,
    break_even_level,
    cumulative_peak,
    hours_until,
    months_from_cumulative,
)
from planner.engine.fleet import choose_machines
from planner.engine.flows import Flows, month_sums, present_value, total_cost
from planner.engine.months import cumulative_by_month, discount, work_by_month
from planner.engine.reserved_levels import ReservedLevelSearch
from planner.engine.shares import (
    cheapest_index,
    passed_cost,
    passed_cost_share,
    served_share,
    work_share,
)
from planner.engine.tco import evaluate


@dataclass
class OptionFigures:
    """Per-scenario figures of one option; arrays of shape (S,)."""

    name: str
    kind: str
    feasible: Array
    total_cost: Array
    present_value: Array
    residual_value: Array
    cost_per_gpu_hour: Array
    energy_kwh: Array | None
    carbon_kg: Array | None
    gpu_hours_per_month: Array
    capacity_gpu_hours_per_month: Array | None
    unmet_gpu_hours_per_month: Array
    first_unmet_month: Array  # NaN: none
    flows: Flows = field(repr=False)
    pv_unmasked: Array = field(repr=False, default=None)  # present value even if infeasible
    #: Reference GPU-hours of demand over the horizon, the divisor of ``cost_per_gpu_hour``
    #: (with FLOPs demand, the option's own GPU-hours). [GPU-hours]
    demand_gpu_hours: Array = field(repr=False, default=None)
    #: Share of the option's own GPU-hours of demand over the horizon that it serves itself
    #: (:func:`planner.engine.shares.served_share`; NaN without demand). [fraction]
    served_share: Array = field(repr=False, default=None)
    #: The served share that decides who does the work (SPEC §6's "serves none of the demand
    #: itself (0 machines; a free tier that passes all of its work on)"): ``served_share``,
    #: and 0 without demand where the option can serve nothing itself (no capacity of its own:
    #: 0 machines, a tier whose GPUs cannot take the job). [fraction]
    work_share: Array = field(repr=False, default=None)
    #: Nominal cost of its overflow or fallback over the horizon, None without a target
    #: (:func:`planner.engine.shares.passed_cost`), and that as a share of all its monthly
    #: costs. [currency], [fraction]
    passed_cost: Array | None = field(repr=False, default=None)
    passed_cost_share: Array | None = field(repr=False, default=None)
    #: Own options: the machine count used (``auto``: the one chosen), else None (SPEC §6).
    #: [machines]
    machines: Array | None = None
    #: Own options: the option's own nominal costs over the horizon (overflow excluded) less
    #: its own residual value, per GPU-hour of its machines in service, machines × gpu_count ×
    #: hours_per_month × (T − p); NaN with 0 machines or when infeasible; else None (SPEC §6).
    #: [currency per GPU-hour]
    cost_per_owned_gpu_hour: Array | None = None
    #: The share of linear speed-up a job of demand.gpus GPUs reaches on the option, the
    #: value used (SPEC §8). [fraction]
    scaling_efficiency: Array | None = None
    #: Wall-clock days one job of demand.job_hours runs on the option, job_hours /
    #: (relative_speed × scaling_efficiency) / 24 (interruptions and quota waits not
    #: counted); None without job_hours, NaN where the option is infeasible. [days]
    job_days: Array | None = None


@dataclass
class PairFigures:
    own: str
    versus: str
    months: Array
    system_hours: Array
    gpu_hours_per_month: Array


@dataclass
class Figures:
    options: list[OptionFigures]
    pairs: list[PairFigures]
    cheapest: Array  # index into options, -1 when none is feasible
    #: Each option's overflow or fallback target, as an index into options (None: none).
    target: list[int | None] = field(default_factory=list)
    #: The model the figures were computed on: ``machines: auto`` chosen (SPEC §6).
    model: Model | None = field(default=None, repr=False)


KIND = {"CloudCard": "cloud", "OwnCard": "own", "FreeTierCard": "free_tier"}


def compute(model: Model, *, break_even: bool = True) -> Figures:
    """All figures of every option and every break-even pair, for all scenarios at once.

    ``machines: auto`` is chosen first, for every scenario; the break-even rows use that count.
    """
    model = choose_machines(model)
    work = work_by_month(model)
    flows_by_name = evaluate(model, work)
    rows = max(model.scenarios, 1)
    disc = discount(model)
    options = []
    demand_hours = month_sums(work)
    for name, flows in flows_by_name.items():
        card = model.cards[name]
        feasible = flows.feasible(rows)
        total = np.broadcast_to(total_cost(flows), (rows,))
        pv = np.broadcast_to(present_value(model, flows, disc), (rows,))
        if model.demand.form == "flops":
            reference_hours = month_sums(flows.needed)
        else:
            reference_hours = demand_hours
        reference_hours = np.broadcast_to(reference_hours, (rows,))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            per_hour = np.where(reference_hours > 0, total / reference_hours, np.nan)
        per_hour = np.where(np.isfinite(per_hour), per_hour, np.nan)
        if flows.served is flows.needed:  # serves all its work: nothing unmet
            unmet_first = np.zeros(rows)
            first_unmet = np.full(rows, np.nan)
        else:
            unmet = np.broadcast_to(flows.unmet, (rows, flows.unmet.shape[1]))
            is_unmet = np.broadcast_to(flows.unmet_mask, unmet.shape)
            first_unmet = np.where(is_unmet.any(axis=1), np.argmax(is_unmet, axis=1), np.nan)
            unmet_first = unmet[:, 1]
        # SPEC §2: energy is null "if no owned machine": also for 0 machines, where no owned
        # machine runs for the option (none of its own, none in its overflow chain).
        runs_machines = feasible & ~_no_machine_runs(card, flows, rows)
        share = served_share(flows, rows)
        options.append(OptionFigures(
            name=name, kind=KIND[type(card).__name__], feasible=feasible,
            total_cost=np.where(feasible, total, np.nan),
            present_value=np.where(feasible, pv, np.nan),
            residual_value=np.where(feasible, np.broadcast_to(flows.residual_value, (rows,)),
                                    np.nan),
            cost_per_gpu_hour=np.where(feasible, per_hour, np.nan),
            energy_kwh=_sum_or_none(flows.energy_kwh, runs_machines, rows),
            carbon_kg=_sum_or_none(flows.carbon_kg, runs_machines, rows),
            gpu_hours_per_month=np.broadcast_to(flows.served[:, 1], (rows,)),
            capacity_gpu_hours_per_month=(None if flows.capacity is None
                                          else np.broadcast_to(flows.capacity, (rows,))),
            unmet_gpu_hours_per_month=unmet_first,
            first_unmet_month=first_unmet,
            flows=flows,
            pv_unmasked=pv,
            demand_gpu_hours=reference_hours,
            served_share=share,
            work_share=work_share(share, flows, rows),
            passed_cost=_masked(passed_cost(flows, rows), feasible),
            passed_cost_share=_masked(passed_cost_share(flows, rows), feasible),
            **_fleet_figures(model, card, flows, feasible, rows),
            **_job_figures(card, feasible, rows),
        ))
    pairs = _pairs(model, options, break_even) if options else []
    return Figures(options=options, pairs=pairs, cheapest=cheapest_of(model, options, rows),
                   target=_targets(model, options), model=model)


def _job_figures(card, feasible: Array, rows: int) -> dict:
    """``scaling_efficiency`` and ``job_days`` of SPEC §8: the efficiency folded into the
    card, and its job's wall-clock length in days (NaN where infeasible)."""
    efficiency = 1.0 if card.scaling_efficiency is None else card.scaling_efficiency[:, 0]
    out = {"scaling_efficiency": np.broadcast_to(np.asarray(efficiency, dtype=float), (rows,))}
    if card.job_hours is not None:
        days = np.broadcast_to(np.asarray(card.job_hours, dtype=float)[:, 0] / 24.0, (rows,))
        out["job_days"] = np.where(feasible, days, np.nan)
    return out


def _no_machine_runs(card, flows: Flows, rows: int) -> Array:
    """Scenarios in which an own option has 0 machines and uses no energy (no owned machine
    of its chain runs for it); False for other options. (S,) bool"""
    if not isinstance(card, OwnCard) or flows.energy_kwh is None:
        return np.zeros(rows, dtype=bool)
    none = np.broadcast_to(card.machines[:, 0] == 0, (rows,))
    return none & (np.broadcast_to(month_sums(flows.energy_kwh), (rows,)) == 0)


def _fleet_figures(model: Model, card, flows: Flows, feasible: Array, rows: int) -> dict:
    """``machines`` and ``cost_per_owned_gpu_hour`` of SPEC §6 (None but for own options)."""
    if not isinstance(card, OwnCard):
        return {}
    machines = np.broadcast_to(card.machines[:, 0], (rows,))
    own = [v for k, v in flows.components.items() if k != "overflow"]
    nominal = sum(month_sums(v) for v in own)
    nominal = nominal - flows.own_residual_value
    months = model.calendar.horizon_months - card.purchase_month[:, 0]
    hours = (card.machines[:, 0] * card.gpu_count[:, 0] * model.calendar.hours_per_month[:, 0]
             * months)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        per_hour = np.where(hours > 0, nominal / hours, np.nan)
    per_hour = np.broadcast_to(per_hour, (rows,))
    return {"machines": machines,
            "cost_per_owned_gpu_hour": np.where(feasible & np.isfinite(per_hour), per_hour,
                                                np.nan)}


def _targets(model: Model, options: list[OptionFigures]) -> list[int | None]:
    names = [o.name for o in options]
    return [names.index(model.target_of[n]) if n in model.target_of else None for n in names]


def _masked(values: Array | None, feasible: Array) -> Array | None:
    return None if values is None else np.where(feasible, values, np.nan)


def _sum_or_none(monthly: Array | None, feasible: Array, rows: int) -> Array | None:
    if monthly is None:
        return None
    return np.where(feasible, np.broadcast_to(month_sums(monthly), (rows,)), np.nan)


def cheapest_of(model: Model, options: list[OptionFigures], rows: int,
                eligible: Array | None = None) -> Array:
    """Index of the cheapest feasible option of each scenario (SPEC §2 and §6: the lowest
    present value, first in file order on a tie, and an option that serves none of its
    demand gives way to the target it passes it to when they cost the same); −1: none.
    ``eligible`` (N,) bool limits which options may be named."""
    if not options:
        return np.full(rows, -1)
    pv = np.stack([np.where(o.feasible, o.present_value, np.inf) for o in options], axis=1)
    share = np.stack([np.broadcast_to(o.work_share, (rows,)) for o in options], axis=1)
    return cheapest_index(pv, share, _targets(model, options), eligible)


def _level(model: Model, search: ReservedLevelSearch, own: OptionFigures,
           other: OptionFigures) -> Array:
    """Break-even demand level: in closed form on the pieces, reserved clouds included; by
    evaluating the engine on the pieces only where a reserved cloud has too many of them."""
    if search.closed_form(own.name) and search.closed_form(other.name):
        return search.level(own.name, other.name, own.pv_unmasked, other.pv_unmasked)
    return break_even_level(model, own.name, other.name)


def _pairs(model: Model, options: list[OptionFigures], break_even: bool) -> list[PairFigures]:
    """Every own option against every other option (own against own both ways)."""
    pairs = []
    rows = options[0].feasible.shape[0]
    cumulative = {o.name: cumulative_by_month(o.flows.monthly_cost) for o in options}
    peak = {name: cumulative_peak(cum) for name, cum in cumulative.items()}
    search = ReservedLevelSearch(model, OVERFLOW_SEARCH_FACTOR)
    for own in options:
        card = model.cards[own.name]
        if not isinstance(card, OwnCard):
            continue
        system_hours = np.broadcast_to(own.flows.system_hours, own.flows.monthly_cost.shape)
        busy_cumulative = cumulative_by_month(system_hours)
        for other in options:
            if other is own:
                continue
            both = own.feasible & other.feasible
            months = months_from_cumulative(cumulative[own.name], cumulative[other.name],
                                            own.flows.steps, other.flows.steps,
                                            peak[own.name], peak[other.name])
            months = np.where(both, np.broadcast_to(months, (rows,)), np.nan)
            hours = hours_until(system_hours, months, busy_cumulative)
            if break_even:
                level = np.broadcast_to(_level(model, search, own, other), (rows,))
                if model.demand.form == "flops":
                    level = level * card.gpu_hours_per_unit[:, 0]
                level = np.where(both, level, np.nan)
            else:
                level = np.full(rows, np.nan)
            pairs.append(PairFigures(own.name, other.name, months, hours, level))
    return pairs
