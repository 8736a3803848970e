"""Break-even (SPEC §5.6): in time, and in demand, for all scenarios at once.

Cumulative cost is piecewise linear in time (month 0 a step, every later month accrues evenly),
so the break-even month is found exactly between two month ends. Present value is piecewise
linear in the demand level between known breakpoints (where some month's demand reaches a
capacity), with jumps only at breakpoints; each piece is fixed by two interior evaluations and
its zero found in closed form.
"""

from __future__ import annotations

import numpy as np

from planner.model import (
    Array,
    FreeTierCard,
    Model,
    OwnCard,
    repeat_scenarios,
    take_scenarios,
    with_level,
)
from planner.tco import chain, option_flows, present_value, work_by_month

_REL_TOL = 1e-9
#: With an overflow, the demand search runs up to this multiple of the machine's capacity.
OVERFLOW_SEARCH_FACTOR = 10.0
#: Extra evenly spaced breakpoints when a reserved option's commitment makes kinks we do not list.
RESERVED_SUBDIVISIONS = 24


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


def months_from_cumulative(own_cum: Array, other_cum: Array) -> Array:
    """:func:`break_even_months` from cumulative costs at the month ends, (S, T + 1)."""
    diff = own_cum - other_cum
    scale = np.maximum(np.abs(own_cum).max(axis=1), np.abs(other_cum).max(axis=1))
    above = diff > (_REL_TOL * np.maximum(scale, 1.0))[:, None]
    T = diff.shape[1] - 1
    rows = np.arange(diff.shape[0])
    last = T - np.argmax(above[:, ::-1], axis=1)
    nxt = np.minimum(last + 1, T)
    d0, d1 = diff[rows, last], diff[rows, nxt]
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing = last + d0 / (d0 - d1)
    months = np.where(above.any(axis=1), crossing, 0.0)
    return np.where(above[:, T], np.nan, months)


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
    """Usable capacity of a capacity-bound option in reference units per month, (S, 1)."""
    from planner.tco import free_tier_capacity

    card = model.cards[name]
    if isinstance(card, OwnCard):
        cap = card.gpu_count * model.calendar.hours_per_month * card.availability
    elif isinstance(card, FreeTierCard):
        cap = free_tier_capacity(model, card)
    else:
        return None
    return cap / card.gpu_hours_per_unit


def _chain_limits(model: Model, name: str, growth_max: Array):
    """Breakpoint levels of an option's chain and the level up to which it is feasible."""
    cumulative = 0.0
    crossings = []
    for member in chain(model, name):
        cap = _capacity_per_unit(model, member)
        if cap is None:
            return crossings, np.full_like(growth_max, np.inf)
        cumulative = cumulative + cap
        crossings.append(cumulative)
    return crossings, cumulative / growth_max


def demand_breakpoints(model: Model, own: str, other: str) -> tuple[Array, Array]:
    """Sorted candidate breakpoints (S, K) of the demand level, and the search bound (S, 1)."""
    growth = _growth(model)[:, 1:]
    growth_max = growth.max(axis=1, keepdims=True)
    own_cap = _capacity_per_unit(model, own)
    bound = own_cap / growth_max
    if own in model.target_of:
        bound = OVERFLOW_SEARCH_FACTOR * bound
    levels = []
    for name in (own, other):
        crossings, limit = _chain_limits(model, name, growth_max)
        bound = np.minimum(bound, limit)
        for cumulative in crossings:
            # A month without work (growth −1) crosses nothing: inf, beyond the bound below.
            with np.errstate(divide="ignore", invalid="ignore"):
                levels.append(cumulative / growth)
    if any(getattr(model.cards[n], "pricing", "").startswith("reserved")
           for n in chain(model, own) + chain(model, other)):
        levels.append(bound * np.linspace(0, 1, RESERVED_SUBDIVISIONS + 1)[None, 1:-1])
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
    within the levels at which both are feasible; NaN if none. (S,) [reference units]"""
    breaks, _ = demand_breakpoints(model, own, other)
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
    level, bracket = _first_crossing(xs, vs, tols)
    return _polish(model, own, other, level, bracket)


def _first_crossing(xs: Array, vs: Array, tols: Array):
    """First point of a walk (S, n) where the value is zero or changes sign, linear in
    between; the walk ends at its first NaN (a level where an option is infeasible).
    Returns the level (S,) and the bracket (S, 2) of a crossing inside a segment."""
    rows, n = xs.shape
    r = np.arange(rows)
    missing = np.isnan(vs)
    end = np.where(missing.any(axis=1), np.argmax(missing, axis=1), n)
    zero = np.abs(vs) <= tols
    a, b = vs[:, :-1], vs[:, 1:]
    change = ((a > 0) & (b < 0)) | ((a < 0) & (b > 0))
    change &= ~zero[:, :-1] & ~zero[:, 1:]
    first_zero = np.where(zero.any(axis=1), np.argmax(zero, axis=1), n)
    first_change = np.where(change.any(axis=1), np.argmax(change, axis=1), n)
    # A zero at point j comes before a sign change on segment j (from j to j + 1).
    use_zero = (first_zero <= first_change) & (first_zero < end)
    use_change = ~use_zero & (first_change + 1 < end)
    level = np.full(rows, np.nan)
    bracket = np.full((rows, 2), np.nan)
    level[use_zero] = xs[r[use_zero], first_zero[use_zero]]
    s = first_change[use_change]
    x0, x1 = xs[r[use_change], s], xs[r[use_change], s + 1]
    v0, v1 = vs[r[use_change], s], vs[r[use_change], s + 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        root = np.where(x1 > x0, x0 + v0 * (x1 - x0) / (v0 - v1), x0)
    level[use_change] = root
    bracket[use_change] = np.stack([x0, x1], axis=1)
    return level, bracket


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
