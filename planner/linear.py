"""Present value as a piecewise-linear function of the demand level, in closed form.

Without reserved pricing, every month's cost depends only on that month's work w, and along an
option's chain (the option, then its overflow/fallback targets) it is piecewise linear in w:
each member serves the work above the capacities of the members before it, at its own marginal
cost per reference unit, and a cloud target's storage is charged from the first unit it gets.
With month-1 level x, month m's work is w = x·g_m, so present value is

    PV(x) = PV(0) + Σ_m disc_m · f(x·g_m),

piecewise linear in x with kinks at x = C_j / g_m (C_j: cumulative capacity of the chain) and
jumps only there. The break-even level of a pair is then found by sorting those points and
walking the pieces with running sums: no evaluation of the cost engine per level.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from planner.model import Array, CloudCard, FreeTierCard, Model, OwnCard
from planner.tco import chain, free_tier_capacity, rented_instance_hours


@dataclass
class Segment:
    """One member of a chain, in reference units per month."""

    capacity: Array  # (S, 1); inf for a cloud option [units]
    rate: Array  # marginal cost of a unit of work [currency per unit]
    jump: Array  # charged in a month from the first unit of work it serves [currency]


@dataclass
class ChainLine:
    segments: list[Segment]
    feasible_work: Array  # month work above which the chain cannot serve [units]; inf if none


def separable(model: Model, name: str) -> bool:
    """True when no member of the option's chain has reserved pricing."""
    return not any(getattr(model.cards[n], "term_months", 0) for n in chain(model, name))


def _unit_rate(model: Model, name: str) -> tuple[Array, Array, bool]:
    """Capacity, marginal cost per reference unit, and whether the member can take work."""
    card = model.cards[name]
    per_unit = card.gpu_hours_per_unit
    d = model.demand
    too_small = d.min_gpu_memory_gb > card.gpu_memory_gb
    if isinstance(card, CloudCard):
        hours = rented_instance_hours(model, card, per_unit)
        rate = hours * card.price_per_hour
        return np.full_like(rate, np.inf), rate, ~too_small
    if isinstance(card, OwnCard):
        idle = card.idle_power_kw if card.always_on else 0.0
        per_system_hour = ((card.power_kw - idle) * card.pue * card.electricity_per_kwh
                           + card.operating_cost_per_hour)
        rate = per_unit / card.gpu_count * per_system_hour
        capacity = card.gpu_count * model.calendar.hours_per_month * card.availability
        return capacity / per_unit, rate, ~(too_small | (d.gpus > card.gpu_count))
    assert isinstance(card, FreeTierCard)
    excluded = too_small | (d.gpus > card.gpus)
    capacity = np.where(excluded, 0.0, free_tier_capacity(model, card) / per_unit)
    return capacity, np.zeros_like(capacity), np.ones_like(capacity, dtype=bool)


def chain_line(model: Model, name: str) -> ChainLine:
    """The monthly cost function of an option's chain (see the module docstring)."""
    segments: list[Segment] = []
    bound = np.inf
    cumulative = 0.0
    for position, member in enumerate(chain(model, name)):
        capacity, rate, can_take = _unit_rate(model, member)
        jump = np.zeros_like(rate)
        card = model.cards[member]
        if position > 0:
            bound = np.where(can_take, bound, np.minimum(bound, cumulative))
            if isinstance(card, CloudCard):
                jump = model.demand.data_gb * card.storage_per_gb_month + jump
        segments.append(Segment(capacity=capacity, rate=rate, jump=jump))
        cumulative = cumulative + capacity
    last = model.cards[chain(model, name)[-1]]
    if not isinstance(last, CloudCard):
        bound = np.minimum(bound, cumulative)
    return ChainLine(segments=segments, feasible_work=np.broadcast_to(bound, np.shape(cumulative)))


def month_growth(model: Model) -> Array:
    """g_m = (1 + growth)^((m − 1)/12) for months 1..T, (S, T)."""
    months = np.arange(1, model.calendar.horizon_months + 1)
    return np.power(1.0 + model.demand.growth_per_year, (months - 1) / 12.0)


def variable_pv(model: Model, line: ChainLine, level: Array, disc: Array) -> Array:
    """Σ_m disc_m f(level·g_m): the present value that depends on the level, (S,)."""
    work = level * month_growth(model)
    total = 0.0
    start = 0.0
    for j, seg in enumerate(line.segments):
        served = np.clip(work - start, 0.0, seg.capacity)
        cost = seg.rate * served
        if j > 0:
            cost = cost + seg.jump * (work > start)
        total = total + cost
        start = start + seg.capacity
    return (total * disc[:, 1:]).sum(axis=1)


def _events(model: Model, line: ChainLine, sign: float, disc: Array):
    """Kink positions in the level (S, E), slope changes and jumps there (signed)."""
    g = month_growth(model)
    w = disc[:, 1:]
    positions, slopes, jumps = [], [], []
    start = 0.0
    for prev, seg in zip(line.segments, line.segments[1:]):
        start = start + prev.capacity
        with np.errstate(divide="ignore", invalid="ignore"):
            at = np.where(g > 0, start / g, np.inf)
        positions.append(np.broadcast_to(at, np.broadcast_shapes(at.shape, w.shape)))
        slopes.append(sign * w * g * (seg.rate - prev.rate))
        jumps.append(sign * w * seg.jump)
    return positions, slopes, jumps


def search_bound(model: Model, own: str, lines: dict[str, ChainLine], factor: float) -> Array:
    """The largest level searched (SPEC §5.6): the own machine's capacity (times ``factor``
    with an overflow) and where either chain stops being feasible, at the peak month. (S, 1)"""
    g_max = month_growth(model).max(axis=1, keepdims=True)
    bound = lines[own].segments[0].capacity / g_max
    if own in model.target_of:
        bound = factor * bound
    for line in lines.values():
        bound = np.minimum(bound, line.feasible_work / g_max)
    return bound


def break_even_level_linear(model: Model, own: str, other: str, pv_own: Array,
                            pv_other: Array, factor: float) -> Array:
    """Smallest level in [0, bound] where PV(own) − PV(other) is zero or changes sign. (S,)

    pv_own, pv_other : present values at the plan's own demand level, (S,) [currency]
    factor : search bound with an overflow, in multiples of the machine's capacity
    """
    from planner.breakeven import _first_crossing
    from planner.tco import discount

    disc = discount(model)
    lines = {own: chain_line(model, own), other: chain_line(model, other)}
    level = model.demand.level
    bound = search_bound(model, own, lines, factor)
    rows = max(model.scenarios, np.shape(pv_own)[0])
    delta0 = ((pv_own - variable_pv(model, lines[own], level, disc))
              - (pv_other - variable_pv(model, lines[other], level, disc)))
    delta0 = np.broadcast_to(delta0, (rows,))
    g = month_growth(model)
    slope0 = ((lines[own].segments[0].rate - lines[other].segments[0].rate)
              * (disc[:, 1:] * g)).sum(axis=1)
    positions, slopes, jumps = [], [], []
    for name, sign in ((own, 1.0), (other, -1.0)):
        p, s, j = _events(model, lines[name], sign, disc)
        positions += p
        slopes += s
        jumps += j
    bound = np.broadcast_to(bound, (rows, 1))
    if positions:
        pos = np.concatenate([np.broadcast_to(p, (rows, p.shape[1])) for p in positions], axis=1)
        ds = np.concatenate([np.broadcast_to(s, (rows, s.shape[1])) for s in slopes], axis=1)
        dj = np.concatenate([np.broadcast_to(j, (rows, j.shape[1])) for j in jumps], axis=1)
        order = np.argsort(pos, axis=1, kind="stable")
        pos = np.take_along_axis(pos, order, axis=1)
        ds = np.take_along_axis(ds, order, axis=1)
        dj = np.take_along_axis(dj, order, axis=1)
        beyond = pos > bound
        pos = np.where(beyond, bound, pos)
        ds, dj = np.where(beyond, 0.0, ds), np.where(beyond, 0.0, dj)
    else:
        pos = ds = dj = np.zeros((rows, 0))
    # The bound closes the walk.
    pos = np.concatenate([pos, bound], axis=1)
    ds = np.concatenate([ds, np.zeros((rows, 1))], axis=1)
    dj = np.concatenate([dj, np.zeros((rows, 1))], axis=1)
    slope0 = np.broadcast_to(slope0, (rows,))[:, None]
    slope_after = slope0 + np.cumsum(ds, axis=1)
    slope_before = np.concatenate([slope0, slope_after[:, :-1]], axis=1)
    step = np.diff(np.concatenate([np.zeros((rows, 1)), pos], axis=1), axis=1)
    rise = slope_before * step
    left = delta0[:, None] + np.cumsum(rise, axis=1) + np.cumsum(dj, axis=1) - dj
    right = left + dj
    n = pos.shape[1]
    xs = np.empty((rows, 1 + 2 * n))
    vs = np.empty_like(xs)
    xs[:, 0], vs[:, 0] = 0.0, delta0
    xs[:, 1::2], vs[:, 1::2] = pos, left
    xs[:, 2::2], vs[:, 2::2] = pos, right
    # The value at the bound is its left limit: drop the last right limit.
    xs, vs = xs[:, :-1], vs[:, :-1]
    scale = np.maximum(np.abs(np.broadcast_to(pv_own, (rows,))),
                       np.abs(np.broadcast_to(pv_other, (rows,))))
    tols = np.broadcast_to((1e-9 * np.maximum(scale, 1.0))[:, None], xs.shape)
    found, _ = _first_crossing(xs, vs, tols)
    return found
