"""Break-even (SPEC §5.6): in time, and in demand, for all scenarios at once.

Cumulative cost is piecewise linear in time (month 0 a step, every later month accrues evenly),
so the break-even month is found exactly between two month ends. Present value is piecewise
linear in the demand level between known breakpoints (where some month's demand reaches a
capacity), with jumps only at breakpoints; each piece is fixed by two interior evaluations and
its zero found in closed form.
"""

from __future__ import annotations

import numpy as np

from planner.cards.model import (
    Array,
    FreeTierCard,
    Model,
    OwnCard,
    repeat_scenarios,
    take_scenarios,
    with_level,
)
from planner.engine.crossing import first_crossing
from planner.engine.flows import present_value
from planner.engine.free_tier import free_tier_capacity
from planner.engine.linear import first_service_capacity, level_limit
from planner.engine.months import work_by_month
from planner.engine.own import own_capacity_by_month
from planner.engine.reserved_levels import reserved_breakpoints
from planner.engine.tco import chain, option_flows

_REL_TOL = 1e-9
#: With an overflow, the demand search runs up to this multiple of the machine's capacity.
OVERFLOW_SEARCH_FACTOR = 10.0


def break_even_months(own_cost: Array, other_cost: Array) -> Array:
    """Earliest t in [0, T] from which the own option's cumulative cost stays at or below the
    other's; 0 if never above; NaN if above at T. (S,) [months]

    own_cost, other_cost : monthly costs, month 0 first, (S, T + 1). [currency]

    A machine of 1,000 against 300 a month of rent: even after 3⅓ months.

    >>> own = np.array([[1000.0, 0, 0, 0, 0, 0]])
    >>> rent = np.array([[0.0, 300, 300, 300, 300, 300]])
    >>> round(float(break_even_months(own, rent)[0]), 4)
    3.3333
    """
    return months_from_cumulative(np.cumsum(own_cost, axis=1), np.cumsum(other_cost, axis=1))


def months_from_cumulative(own_cum: Array, other_cum: Array, own_steps: Array | None = None,
                           other_steps: Array | None = None, own_peak: Array | None = None,
                           other_peak: Array | None = None) -> Array:
    """:func:`break_even_months` from cumulative costs at the month ends, (S, T + 1).

    ``own_steps``, ``other_steps`` : the part of each month's cost that is a step at the
    month's end instead of accruing over the month (a purchase in month p > 0, SPEC §6),
    (S, T + 1) or None. [currency]

    ``own_peak``, ``other_peak`` : the largest |cumulative cost| of each scenario, (S,), when
    known already (:func:`cumulative_peak`). [currency]

    A machine bought in month 2 for 1,000 against 300 a month of rent: after the step at
    t = 2 the machine is 400 above, even at 2 + 400/300 = 3⅓ months.

    >>> own = np.cumsum([[0.0, 0, 1000, 0, 0, 0]], axis=1)
    >>> rent = np.cumsum([[0.0, 300, 300, 300, 300, 300]], axis=1)
    >>> step = np.array([[0.0, 0, 1000, 0, 0, 0]])
    >>> round(float(months_from_cumulative(own, rent, step)[0]), 4)
    3.3333
    """
    if own_steps is not None or other_steps is not None:
        return _months_with_steps(own_cum, other_cum, _difference(own_steps, other_steps),
                                  own_peak, other_peak)
    ever, at_end, last, d0, d1 = _last_above(own_cum, other_cum, own_peak, other_peak)
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing = last + d0 / (d0 - d1)
    months = np.where(ever, crossing, 0.0)
    return np.where(at_end, np.nan, months)


def _difference(a: Array | None, b: Array | None) -> Array:
    return (0.0 if a is None else a) - (0.0 if b is None else b)


def _months_with_steps(own_cum: Array, other_cum: Array, step: Array,
                       own_peak: Array | None = None, other_peak: Array | None = None) -> Array:
    """The break-even month when some month's cost is partly a step at its end: the curve of
    own − other runs from D_{k−1} to D_k − step_k over month k, then jumps to D_k. The last
    point above is either a month end after its step (the crossing is on the next month's
    line) or the moment before a step that brings the curve down (the crossing is the step)."""
    ever, at_end, last, d0, d1 = _last_point_above(own_cum, other_cum, step, own_peak,
                                                   other_peak)
    k = last // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        on_line = k + d0 / (d0 - d1)
    crossing = np.where(last % 2 == 1, (last + 1) // 2, on_line)
    months = np.where(ever, crossing, 0.0)
    return np.where(at_end, np.nan, months)


def _last_point_above(own_cum: Array, other_cum: Array, step: Array,
                      own_peak: Array | None = None,
                      other_peak: Array | None = None) -> tuple[Array, ...]:
    """Along the points D_0, D_1⁻, D_1, D_2⁻, …, D_T (D_k⁻ = D_k − step_k: the moment before
    month k's step): (above at some point, above at T, the index of the last point above, its
    value and the next point's), each (S,)."""
    diff = own_cum - other_cum
    rows, width = diff.shape
    before = diff - np.broadcast_to(step, diff.shape)
    own_peak = cumulative_peak(own_cum) if own_peak is None else own_peak
    other_peak = cumulative_peak(other_cum) if other_peak is None else other_peak
    scale = np.maximum(own_peak, other_peak)
    tol = (_REL_TOL * np.maximum(scale, 1.0))[:, None]
    points = np.empty((rows, 2 * width - 1))
    points[:, 0::2] = diff
    points[:, 1::2] = before[:, 1:]
    above = points > tol
    last = points.shape[1] - 1 - np.argmax(above[:, ::-1], axis=1)
    r = np.arange(rows)
    nxt = np.minimum(last + 1, points.shape[1] - 1)
    return above.any(axis=1), above[:, -1], last, points[r, last], points[r, nxt]


def last_month_above(own_cum: Array, other_cum: Array) -> tuple[Array, Array, Array]:
    """The bracket of the break-even month: the last month end k at which the own option's
    cumulative cost is above the other's (−1: never above; T: above at the end, no
    break-even), and own − other at k and at k + 1 (NaN where there is none). (S,) each
    [month, currency, currency]. The break-even month is k + gap_k / (gap_k − gap_k+1).

    >>> own = np.cumsum([[1000.0, 0, 0, 0, 0, 0]], axis=1)
    >>> rent = np.cumsum([[0.0, 300, 300, 300, 300, 300]], axis=1)
    >>> [float(x[0]) for x in last_month_above(own, rent)]
    [3.0, 100.0, -200.0]
    """
    ever, at_end, last, d0, d1 = _last_above(own_cum, other_cum)
    inside = ever & ~at_end
    return (np.where(ever, last, -1), np.where(ever, d0, np.nan),
            np.where(inside, d1, np.nan))


def last_month_above_with_steps(own_cum: Array, other_cum: Array, own_steps: Array | None,
                                other_steps: Array | None) -> tuple[Array, Array, Array, Array]:
    """:func:`last_month_above` where month costs may be steps at their month's end (SPEC §6):
    the gap after month k + 1 is taken just before that month's step; and whether the
    break-even is a step itself (the moment before a step is the last one above, and the step
    brings the own option below: ``months`` is that month, no line crosses). (S,) each."""
    if own_steps is None and other_steps is None:
        last, gap, after = last_month_above(own_cum, other_cum)
        return last, gap, after, np.zeros(last.shape, dtype=bool)
    ever, at_end, point, d0, d1 = _last_point_above(own_cum, other_cum,
                                                    _difference(own_steps, other_steps))
    at_step = ever & (point % 2 == 1)
    inside = ever & ~at_end & ~at_step
    return (np.where(ever, point // 2, -1), np.where(ever & ~at_step, d0, np.nan),
            np.where(inside, d1, np.nan), at_step)


def cumulative_peak(cumulative: Array) -> Array:
    """The largest |cumulative cost| of each scenario, (S,): the scale of the tolerance of
    :func:`months_from_cumulative`. [currency]"""
    return np.maximum(cumulative.max(axis=1), -cumulative.min(axis=1))


def _last_above(own_cum: Array, other_cum: Array, own_peak: Array | None = None,
                other_peak: Array | None = None) -> tuple[Array, ...]:
    """(above at some month end, above at T, the last month end above, own − other there and
    at the next month end), each (S,)."""
    diff = own_cum - other_cum
    own_peak = cumulative_peak(own_cum) if own_peak is None else own_peak
    other_peak = cumulative_peak(other_cum) if other_peak is None else other_peak
    scale = np.maximum(own_peak, other_peak)
    above = diff > (_REL_TOL * np.maximum(scale, 1.0))[:, None]
    T = diff.shape[1] - 1
    rows = np.arange(diff.shape[0])
    # The last month end above, plus one (0: never above), as the largest of above × (m + 1):
    # a reduction over the month columns, where argmax along the reversed months would copy
    # the months-first array into rows first (eight times as slow).
    after_last = np.max(above * np.arange(1, T + 2, dtype=np.int32), axis=1)
    ever = after_last > 0
    last = np.where(ever, after_last - 1, T).astype(np.intp)
    nxt = np.minimum(last + 1, T)
    return ever, above[:, T], last, diff[rows, last], diff[rows, nxt]


def hours_until(system_hours: Array, t: Array, cumulative: Array | None = None) -> Array:
    """Busy system-hours from 0 to t, accruing evenly within each month. (S,) [h]

    ``cumulative`` may pass ``np.cumsum(system_hours, axis=1)`` when it is already known.

    >>> hours_until(np.array([[0.0, 100, 200]]), np.array([1.5]))
    array([200.])
    """
    cum = np.cumsum(system_hours, axis=1) if cumulative is None else cumulative
    T = system_hours.shape[1] - 1
    rows = np.arange(system_hours.shape[0])
    tt = np.nan_to_num(np.clip(t, 0, T))
    whole = np.floor(tt).astype(int)
    nxt = np.minimum(whole + 1, T)
    part = cum[rows, whole] + (tt - whole) * system_hours[rows, nxt] * (whole < T)
    return np.where(np.isnan(t), np.nan, part)


# -- break-even demand ----------------------------------------------------------------------


def _growth(model: Model) -> Array:
    """Month-m work per unit of month-1 work, (S, T + 1), month 0 zero."""
    return work_by_month(with_level(model, np.ones((1, 1))))


def _capacity_per_unit(model: Model, name: str) -> Array | None:
    """Usable capacity of a capacity-bound option in reference units per month, (S, 1); for
    machines bought after month 0 in some scenario, (S, T) over months 1..T (0 before they
    serve)."""
    card = model.cards[name]
    if isinstance(card, OwnCard):
        cap = own_capacity_by_month(model, card)
    elif isinstance(card, FreeTierCard):
        cap = free_tier_capacity(model, card)
    else:
        return None
    return cap / card.gpu_hours_per_unit


def _chain_limits(model: Model, name: str, growth: Array):
    """Breakpoint levels of an option's chain and the level up to which it is feasible."""
    growth_max = growth.max(axis=1, keepdims=True)
    cumulative = 0.0
    crossings = []
    for member in chain(model, name):
        cap = _capacity_per_unit(model, member)
        if cap is None:
            return crossings, np.full_like(growth_max, np.inf)
        cumulative = cumulative + cap
        crossings.append(cumulative)
    return crossings, level_limit(cumulative, growth)


def search_bound(model: Model, own: str, own_capacity: Array, growth_max: Array) -> Array:
    """The largest month-1 level the break-even search looks at (SPEC §5.6), before the
    chains' own limits: the own machine's capacity in every month (capacity ÷ the largest
    growth factor), or with an overflow ten times its capacity. (S, 1) [reference units]"""
    own_capacity = first_service_capacity(own_capacity)
    if own in model.target_of:
        return OVERFLOW_SEARCH_FACTOR * own_capacity
    return own_capacity / growth_max


def demand_breakpoints(model: Model, own: str, other: str) -> tuple[Array, Array]:
    """Sorted breakpoints (S, K) of the demand level, between which both present values are
    linear, and the search bound (S, 1)."""
    growth = _growth(model)[:, 1:]
    growth_max = growth.max(axis=1, keepdims=True)
    bound = search_bound(model, own, _capacity_per_unit(model, own), growth_max)
    levels = []
    for name in (own, other):
        crossings, limit = _chain_limits(model, name, growth)
        bound = np.minimum(bound, limit)
        for cumulative in crossings:
            # A month without work (growth −1) crosses nothing: inf, beyond the bound below.
            with np.errstate(divide="ignore", invalid="ignore"):
                levels.append(cumulative / growth)
    for name in dict.fromkeys((own, other)):
        levels += reserved_breakpoints(model, name, growth, bound)
    rows = max(model.scenarios, bound.shape[0])
    bound = np.broadcast_to(bound, (rows, 1))
    points = [np.zeros((rows, 1)), bound]
    points += [np.broadcast_to(level, (rows, level.shape[1])) for level in levels]
    points = np.concatenate(points, axis=1)
    points = np.where((points >= 0) & (points <= bound), points, bound)
    return np.sort(points, axis=1), bound


#: Rows (scenarios × levels) evaluated at once by :func:`pv_at_levels`; bounds memory.
LEVEL_ROWS = 32_768


def pv_at_levels(model: Model, names: list[str], levels: Array) -> tuple[dict, dict]:
    """Present value and feasibility of options at month-1 work ``levels`` (S, K)."""
    rows, k = levels.shape
    pv = {name: np.empty((rows, k)) for name in names}
    ok = {name: np.empty((rows, k), dtype=bool) for name in names}
    step = max(1, LEVEL_ROWS // k)
    for start in range(0, rows, step):
        part = slice(start, min(start + step, rows))
        sub = model if model.scenarios == 1 else take_scenarios(model, part)
        n = part.stop - part.start
        big = with_level(repeat_scenarios(sub, k), levels[part].reshape(-1, 1))
        work = work_by_month(big)
        for name in names:
            flows = option_flows(big, name, work, as_target=False)
            pv[name][part] = present_value(big, flows).reshape(n, k)
            ok[name][part] = flows.feasible(n * k).reshape(n, k)
    return pv, ok


def _delta(model: Model, own: str, other: str, levels: Array) -> tuple[Array, Array]:
    pv, ok = pv_at_levels(model, [own, other], levels)
    delta = np.where(ok[own] & ok[other], pv[own] - pv[other], np.nan)
    scale = np.maximum(np.abs(pv[own]), np.abs(pv[other]))
    return delta, _REL_TOL * np.maximum(scale, 1.0)


def break_even_level(model: Model, own: str, other: str) -> Array:
    """Smallest month-1 work level at which PV(own) − PV(other) is zero or changes sign,
    within the levels at which both are feasible; NaN if none. (S,) [reference units]

    The pieces between breakpoints are walked in windows, 8 pieces first and four times as
    many each time after: most pairs cross early, and only the scenarios still open are
    evaluated further.
    """
    breaks, _ = demand_breakpoints(model, own, other)
    rows, k = breaks.shape
    level = np.full(rows, np.nan)
    bracket = np.full((rows, 2), np.nan)
    todo = np.arange(rows)
    start, pieces = 0, 8
    while todo.size and start < k - 1:
        stop = min(k, start + pieces + 1)
        sub = model if model.scenarios == 1 else _take(model, todo)
        found, found_bracket, ended = _walk_pieces(sub, own, other, breaks[todo, start:stop])
        level[todo], bracket[todo] = found, found_bracket
        todo = todo[np.isnan(found) & ~ended]
        start, pieces = stop - 1, 4 * pieces
    return _polish(model, own, other, level, bracket)


def _walk_pieces(model: Model, own: str, other: str, breaks: Array):
    """The first crossing along the pieces between ``breaks`` (S, K): its level and bracket
    (NaN: none), and whether the walk ended at a level where an option is infeasible."""
    rows, k = breaks.shape
    lo, hi = breaks[:, :-1], breaks[:, 1:]
    width = hi - lo
    inner = np.concatenate([lo + width / 3, lo + 2 * width / 3], axis=1)
    delta, tol = _delta(model, own, other, np.concatenate([breaks, inner], axis=1))
    at_break, tol_b = delta[:, :k], tol[:, :k]
    du, dv = delta[:, k:2 * k - 1], delta[:, 2 * k - 1:]
    # A piece too narrow to hold two distinct interior points (equal breakpoints, or a width
    # below float resolution) adds nothing to the walk; its slope (0/0) is never used.
    u, v = inner[:, :k - 1], inner[:, k - 1:]
    wide = (u > lo) & (v > u) & (hi > v)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        slope = (dv - du) / (width / 3)
        left = np.where(wide, du - slope * width / 3, at_break[:, :-1])
        right = np.where(wide, dv + slope * width / 3, at_break[:, :-1])
    # The walk along the level axis: value at each breakpoint, then the open piece after it.
    xs = np.empty((rows, 3 * k - 2))
    vs = np.empty_like(xs)
    xs[:, 0::3], vs[:, 0::3] = breaks, at_break
    xs[:, 1::3], vs[:, 1::3] = lo, left
    xs[:, 2::3], vs[:, 2::3] = hi, right
    tols = np.repeat(tol_b, 3, axis=1)[:, :3 * k - 2]
    found, found_bracket = first_crossing(xs, vs, tols)
    return found, found_bracket, np.isnan(vs).any(axis=1)


def _polish(model: Model, own: str, other: str, level: Array, bracket: Array,
            iterations: int = 40) -> Array:
    """Where a piece was not linear after all (a kink we did not list), refine the root by
    false position (Illinois) inside its bracket."""
    level = level.copy()
    todo = np.flatnonzero(~np.isnan(level) & ~np.isnan(bracket[:, 0])
                          & (bracket[:, 1] > bracket[:, 0]))
    if todo.size == 0:
        return level
    sub = _take(model, todo)
    x = level[todo][:, None]
    d, tol = _delta(sub, own, other, x)
    bad = np.abs(d[:, 0]) > tol[:, 0]
    if not bad.any():
        return level
    todo, sub = todo[bad], _take(sub, np.flatnonzero(bad))
    a, b = bracket[todo, 0][:, None], bracket[todo, 1][:, None]
    fa, _ = _delta(sub, own, other, a)
    fb, _ = _delta(sub, own, other, b)
    x = level[todo][:, None]
    for _ in range(iterations):
        fx, tol = _delta(sub, own, other, x)
        done = np.abs(fx) <= tol
        if done.all():
            break
        same = np.sign(fx) == np.sign(fa)
        # Replace the end whose sign the new point shares; halve the kept end's value so the
        # bracket shrinks from both sides (Illinois).
        a, fa, b, fb = (np.where(same, x, a), np.where(same, fx, fa / 2),
                        np.where(same, b, x), np.where(same, fb / 2, fx))
        with np.errstate(divide="ignore", invalid="ignore"):
            nx = np.where(fb != fa, a - fa * (b - a) / (fb - fa), (a + b) / 2)
        x = np.where(done, x, nx)
    level[todo] = x[:, 0]
    return level


def _take(model: Model, index) -> Model:
    return take_scenarios(model, index)
