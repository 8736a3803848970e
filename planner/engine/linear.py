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

import itertools
from dataclasses import dataclass, field

import numpy as np

from planner.cards.model import Array, CloudCard, FreeTierCard, Model, OwnCard
from planner.engine.cloud import is_reserved, rented_instance_hours
from planner.engine.crossing import first_crossing
from planner.engine.free_tier import free_tier_capacity
from planner.engine.months import discount, growth_factors
from planner.engine.own import own_capacity_by_month
from planner.engine.tco import chain


def level_limit(work: Array, growth: Array) -> Array:
    """The largest month-1 level at which no month's work exceeds ``work``: work ÷ the
    largest growth factor, or month by month where ``work`` varies by month, (S, 1).
    work : (S, 1) or (S, T); growth : g_m, months 1..T, (S, T). [reference units]"""
    if np.shape(work)[1] == 1:
        return work / growth.max(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_month = np.where(growth > 0, work / growth, np.inf)
    return per_month.min(axis=1, keepdims=True)


def first_service_capacity(capacity: Array) -> Array:
    """The capacity of the first month of service of a capacity given by month (machines
    bought after month 0: 0 before they serve), (S, 1). [units]"""
    return capacity if np.shape(capacity)[1] == 1 else capacity.max(axis=1, keepdims=True)


@dataclass
class Segment:
    """One member of a chain, in reference units per month."""

    capacity: Array  # (S, 1), or (S, T) when it changes by month; inf for a cloud [units]
    rate: Array  # marginal cost of a unit of work [currency per unit]
    jump: Array  # charged in a month from the first unit of work it serves [currency]


@dataclass
class ChainLine:
    segments: list[Segment]
    feasible_work: Array  # month work above which the chain cannot serve [units]; inf if none


def separable(model: Model, name: str) -> bool:
    """True when no member of the option's chain has reserved pricing."""
    return not any(is_reserved(model.cards[n]) for n in chain(model, name))


def _unit_rate(model: Model, name: str) -> tuple[Array, Array, bool]:
    """Capacity, marginal cost per reference unit, and whether the member can take work."""
    card = model.cards[name]
    per_unit = card.gpu_hours_per_unit
    d = model.demand
    too_small = d.min_gpu_memory_gb > card.gpu_memory_gb
    if isinstance(card, CloudCard):
        hours = rented_instance_hours(model, card, per_unit)
        # A reserved cloud's cost couples the months: its part that depends on the work is
        # the walk of planner.engine.reserved_levels.reserved_events, not a rate.
        price = 0.0 if is_reserved(card) else card.price_per_hour
        rate = hours * price
        return np.full_like(rate, np.inf), rate, ~too_small
    if isinstance(card, OwnCard):
        idle = card.idle_power_kw if card.always_on else 0.0
        per_system_hour = ((card.power_kw - idle) * card.pue * card.electricity_per_kwh
                           + card.operating_cost_per_hour)
        rate = per_unit / card.gpu_count * per_system_hour
        capacity = own_capacity_by_month(model, card)  # (S, T) for a purchase after month 0
        return capacity, rate, ~(too_small | (d.gpus > card.gpu_count))
    assert isinstance(card, FreeTierCard)
    excluded = too_small | (d.gpus > card.gpus) | (card.framework_reason is not None)
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
    # The bound varies by scenario where the members' memory or width does (a swept or drawn
    # min_gpu_memory_gb), the capacities where theirs do: the line has the shape of both.
    shape = np.broadcast_shapes(np.shape(bound), np.shape(cumulative))
    return ChainLine(segments=segments, feasible_work=np.broadcast_to(bound, shape))


def month_growth(model: Model) -> Array:
    """g_m = (1 + growth)^((m − 1)/12) for months 1..T, (S, T)."""
    months = np.arange(1, model.calendar.horizon_months + 1)
    return growth_factors(model.demand.growth_per_year, months)


def variable_pv(model: Model, line: ChainLine, level: Array, disc: Array) -> Array:
    """Σ_m disc_m f(level·g_m): the present value that depends on the level, (S,)."""
    growth = month_growth(model)
    shared = _variable_pv_shared(line, level, growth, disc)
    if shared is not None:
        return shared
    work = level * growth
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


def _variable_pv_shared(line: ChainLine, level: Array, growth: Array,
                        disc: Array) -> Array | None:
    """:func:`variable_pv` where the months' growth and discount and the chain's capacities
    are the same in every scenario (None otherwise): each member's Σ_m disc_m·clip(x·g_m − a,
    0, c) is x·Σ disc_m·g_m − a·Σ disc_m over the months with a/g_m < x, less the same above
    a + c, and those sums are read off sorted thresholds, not built per month. (S,)
    [currency]"""
    capacities = [_same_in_all(seg.capacity) for seg in line.segments]
    if growth.shape[0] != 1 or disc.shape[0] != 1 or None in capacities:
        return None
    g, d = growth[0], disc[0, 1:]
    x = np.asarray(level, dtype=float).reshape(-1)
    total = 0.0
    start = 0.0
    for j, (seg, cap) in enumerate(zip(line.segments, capacities)):
        above, months_above = _above(x, float(start), g, d)
        served = above
        if np.isfinite(cap):
            served = served - _above(x, float(start) + cap, g, d)[0]
        cost = np.asarray(seg.rate).reshape(-1) * served
        if j > 0:
            cost = cost + np.asarray(seg.jump).reshape(-1) * months_above
        total = total + cost
        start = start + cap
    return total


def _same_in_all(values: Array) -> float | None:
    """The one value of an array that every scenario shares (a cloud's infinite capacity
    repeated per scenario, say); None where scenarios differ."""
    flat = np.asarray(values, dtype=float).reshape(-1)
    return float(flat[0]) if (flat == flat[0]).all() else None


def _above(x: Array, a: float, g: Array, d: Array) -> tuple[Array, Array]:
    """Σ_m d_m·max(x·g_m − a, 0) and Σ_m d_m over the months where x·g_m > a, for each x.
    (S,) each"""
    with np.errstate(divide="ignore", invalid="ignore"):
        threshold = np.where(g > 0, a / np.where(g > 0, g, 1.0), np.inf)
    order = np.argsort(threshold, kind="stable")
    dg = np.concatenate([[0.0], np.cumsum((d * g)[order])])
    dd = np.concatenate([[0.0], np.cumsum(d[order])])
    k = np.searchsorted(threshold[order], x, side="left")
    return x * dg[k] - a * dd[k], dd[k]


@dataclass
class _Events:
    """Where an option's chain kinks, as month-1 levels, with the slope change and the jump of
    its present value there; one block (S, T) per boundary between chain members."""

    positions: list[Array]
    slopes: list[Array]
    jumps: list[Array]
    #: Each block's slope changes and jumps as terms coefficient × shape: (coefficient
    #: (S or 1, 1), slope shape, jump shape (S or 1, T), None for zero); see :func:`shared_walk`.
    terms: list[list[tuple] | None] = field(default_factory=list)


class LevelSearch:
    """Break-even levels of the pairs of one model, sharing each option's chain, events and
    level-dependent present value across the pairs it is in."""

    def __init__(self, model: Model, factor: float):
        self.model = model
        self.factor = factor
        self.disc = discount(model)
        self.growth = month_growth(model)
        self.weight = self.disc[:, 1:] * self.growth  # d PV / d (work rate) per month
        self.weight_sum = self.weight.sum(axis=1)  # (1,) or (S,)
        self.rows = model.scenarios
        self._lines: dict[str, ChainLine] = {}
        self._variable: dict[str, Array] = {}
        self._events: dict[str, _Events] = {}

    def line(self, name: str) -> ChainLine:
        if name not in self._lines:
            self._lines[name] = chain_line(self.model, name)
        return self._lines[name]

    def variable(self, name: str) -> Array:
        """The part of the present value at the plan's level that depends on the level."""
        if name not in self._variable:
            self._variable[name] = variable_pv(self.model, self.line(name),
                                               self.model.demand.level, self.disc)
        return self._variable[name]

    def events(self, name: str) -> _Events:
        if name not in self._events:
            line = self.line(name)
            out = _Events([], [], [])
            start = 0.0
            for prev, seg in zip(line.segments, line.segments[1:]):
                start = start + prev.capacity
                with np.errstate(divide="ignore", invalid="ignore"):
                    at = np.where(self.growth > 0, start / self.growth, np.inf)
                shape = np.broadcast_shapes(at.shape, self.weight.shape)
                block = (np.broadcast_to(at, shape), self.weight * (seg.rate - prev.rate),
                         self.disc[:, 1:] * seg.jump)
                terms = [(seg.rate - prev.rate, self.weight, None),
                         (seg.jump, None, self.disc[:, 1:])]
                if np.shape(start)[1] > 1:  # a capacity that changes by month
                    block = self._in_level_order(block)
                    terms = None  # the month order is gone: no shared walk (shared_walk)
                out.positions.append(block[0])
                out.slopes.append(block[1])
                out.jumps.append(block[2])
                out.terms.append(terms)
            self._events[name] = out
        return self._events[name]

    def _in_level_order(self, block):
        """A block whose levels are not monotone in the month (machines that serve from month
        p + 1 on) in the order :meth:`_sorted_events` expects of every block: levels falling
        with the month where demand grows, rising where it shrinks."""
        shape = np.broadcast_shapes(*(np.shape(a) for a in block))
        at, slope, jump = (np.broadcast_to(a, shape) for a in block)
        order = np.argsort(at, axis=1, kind="stable")
        rising = self.model.demand.growth_per_year < 0
        order = np.where(rising, order, order[:, ::-1])
        shape = order.shape
        return tuple(np.take_along_axis(np.broadcast_to(a, shape), order, axis=1)
                     for a in (at, slope, jump))

    def bound(self, own: str, other: str) -> Array:
        """The largest level searched (SPEC §5.6): the own machine's capacity in every month
        (capacity ÷ the largest growth factor), or with an overflow ``factor`` times its
        capacity; and where either chain stops being feasible. (S, 1)"""
        g_max = self.growth.max(axis=1, keepdims=True)
        capacity = first_service_capacity(self.line(own).segments[0].capacity)
        bound = (self.factor * capacity if own in self.model.target_of
                 else capacity / g_max)
        for name in (own, other):
            bound = np.minimum(bound, level_limit(self.line(name).feasible_work, self.growth))
        return bound

    def _blocks(self, own: str, other: str):
        """The events of both chains: (levels, slope changes, jumps, sign, whether the levels
        are sorted already); the month blocks are sorted by :meth:`_sorted_events`."""
        blocks = []
        for name, sign in ((own, 1.0), (other, -1.0)):
            e = self.events(name)
            blocks += [(p, s, j, sign, False, terms)
                       for p, s, j, terms in zip(e.positions, e.slopes, e.jumps, e.terms)]
        return blocks

    def _sorted_events(self, blocks, rows: int, index: Array, first: int | None):
        """The ``first`` lowest events of every block (all with None) of the scenarios at
        ``index``, merged by level, (R, E) each (or (1, E) where all scenarios share them); and
        the level below which that list is complete (the lowest event left out; inf when none
        is), (R,)."""

        def pick(a):
            return a if a.shape[0] == 1 else a[index]

        # Each block's levels C/g_m fall as demand grows and rise as it shrinks.
        rising = pick(self.model.demand.growth_per_year < 0)
        if rising.all() or not rising.any():
            flip = (lambda a: a) if rising.all() else (lambda a: a[:, ::-1])
        else:
            def flip(a):
                return np.where(rising, a, a[:, ::-1])
        parts = []
        limit = np.full(rows, np.inf)
        for p, s, j, sign, ordered, _ in blocks:
            p, s, j = (pick(a) if ordered else flip(pick(a)) for a in (p, s, j))
            if first is not None and first < p.shape[1]:
                limit = np.minimum(limit, p[:, first])
                p, s, j = p[:, :first], s[:, :first], j[:, :first]
            parts.append((p, sign * s, sign * j))
        if len(parts) == 1:
            return (*parts[0], limit)

        def join(k):
            shape0 = max(part[k].shape[0] for part in parts)
            return np.concatenate([np.broadcast_to(part[k], (shape0, part[k].shape[1]))
                                   for part in parts], axis=1)

        pos, ds, dj = join(0), join(1), join(2)
        if pos.shape[0] == 1:  # the same levels in every scenario: one order for all
            order = np.argsort(pos[0], kind="stable")
            return pos[:, order], ds[:, order], dj[:, order], limit
        pos, ds, dj = (np.broadcast_to(a, (rows, a.shape[1])) for a in (pos, ds, dj))
        order = np.argsort(pos, axis=1, kind="stable")
        flat = (order + np.arange(rows)[:, None] * pos.shape[1]).ravel()
        shape = pos.shape
        return (pos.ravel()[flat].reshape(shape), ds.ravel()[flat].reshape(shape),
                dj.ravel()[flat].reshape(shape), limit)

    def level(self, own: str, other: str, pv_own: Array, pv_other: Array) -> Array:
        """Smallest level in [0, bound] where PV(own) − PV(other) is zero or changes sign.

        pv_own, pv_other : present values at the plan's own level, (S,) [currency]
        Returns the level, NaN where there is none. (S,) [reference units]

        Most pairs cross before the first kink or soon after: the first piece is solved for
        all scenarios at once, then the first few pieces for the rest, and only the scenarios
        still open walk all their pieces.
        """
        rows = max(self.rows, np.shape(pv_own)[0], np.shape(pv_other)[0])
        delta0 = np.broadcast_to((pv_own - self.variable(own)) - (pv_other - self.variable(other)),
                                 (rows,))
        slope0 = np.broadcast_to(self._slope(self.line(own).segments[0].rate
                                             - self.line(other).segments[0].rate), (rows,))
        bound = np.broadcast_to(self.bound(own, other)[:, 0], (rows,))
        scale = np.maximum(np.abs(np.broadcast_to(pv_own, (rows,))),
                           np.abs(np.broadcast_to(pv_other, (rows,))))
        tol = 1e-9 * np.maximum(scale, 1.0)
        blocks = self._blocks(own, other)
        first = bound
        for p, *_ in blocks:
            if p.shape[1]:
                first = np.minimum(first, np.broadcast_to(p.min(axis=1), (rows,)))
        shared = shared_walk(blocks, self._flip_shared(), delta0, slope0, bound, tol)
        if shared is not None:
            return shared
        xs = np.stack([np.zeros(rows), first], axis=1)
        vs = np.stack([delta0, delta0 + slope0 * first], axis=1)
        found, _ = first_crossing(xs, vs, tol[:, None])
        open_ = np.flatnonzero(np.isnan(found) & (first < bound))
        for events in (8, None):
            if open_.size == 0:
                break
            level, complete_below = self._walk(blocks, open_, delta0[open_], slope0[open_],
                                               bound[open_], tol[open_], events)
            found[open_] = level
            open_ = open_[np.isnan(level) & (complete_below < bound[open_])]
        return found

    def _slope(self, rate: Array) -> Array:
        """Σ_m rate·disc_m·g_m: the slope of the present value in the level for a marginal
        ``rate`` per reference unit, (S,) or (1,). With one discount and growth curve for all
        scenarios, the rate times the curve's sum (no scenarios × months product to add up;
        the two differ by rounding alone). [currency per reference unit]"""
        rate = np.asarray(rate, dtype=float)
        if self.weight.shape[0] == 1 and rate.ndim == 2 and rate.shape[1] == 1:
            return rate[:, 0] * self.weight_sum
        return (rate * self.weight).sum(axis=1)

    def _flip_shared(self) -> bool | None:
        """Whether month blocks are read backwards to rise (demand that does not shrink), the
        same for all scenarios; None where it differs between them."""
        rising = np.asarray(self.model.demand.growth_per_year < 0)
        if rising.all():
            return False
        return True if not rising.any() else None

    def _walk(self, blocks, index, delta0, slope0, bound, tol, events):
        """The first crossing along the pieces of the scenarios at ``index`` that the lowest
        ``events`` events of each block describe (all with None); and the level up to which
        the walk was complete."""
        rows = index.size
        pos, ds, dj, limit = self._sorted_events(blocks, rows, index, events)
        pos, ds, dj = (np.broadcast_to(a, (rows, a.shape[1])) for a in (pos, ds, dj))
        end = np.minimum(bound, limit)[:, None]
        beyond = pos > end
        pos = np.where(beyond, end, pos)
        ds, dj = np.where(beyond, 0.0, ds), np.where(beyond, 0.0, dj)
        # The end closes the walk.
        pos = np.concatenate([pos, end], axis=1)
        ds = np.concatenate([ds, np.zeros((rows, 1))], axis=1)
        dj = np.concatenate([dj, np.zeros((rows, 1))], axis=1)
        slope_before = slope0[:, None] + np.cumsum(ds, axis=1) - ds
        step = np.diff(pos, axis=1, prepend=0.0)
        # Value at each event (its left limit) and just after it (the jump added).
        left = delta0[:, None] + np.cumsum(slope_before * step + dj, axis=1) - dj
        n = pos.shape[1]
        xs = np.empty((rows, 2 * n))
        vs = np.empty_like(xs)
        xs[:, 0], vs[:, 0] = 0.0, delta0
        xs[:, 1::2], vs[:, 1::2] = pos, left
        # Right limits, except after the end: the walk ends on the end's value.
        xs[:, 2::2], vs[:, 2::2] = pos[:, :-1], (left + dj)[:, :-1]
        found, _ = first_crossing(xs, vs, tol[:, None])
        # A crossing found exactly at an incomplete end is not yet known to be the first one
        # after the jumps there; walk those again with every event.
        incomplete = (limit < bound) & (found >= limit)
        found = np.where(incomplete, np.nan, found)
        return found, np.where(incomplete, limit, np.where(np.isnan(found), limit, np.inf))


def break_even_level_linear(model: Model, own: str, other: str, pv_own: Array,
                            pv_other: Array, factor: float) -> Array:
    """:meth:`LevelSearch.level` for one pair. (S,) [reference units]"""
    return LevelSearch(model, factor).level(own, other, pv_own, pv_other)


#: Points of the walk's first block, then of each block after it: a scenario evaluates a
#: block only where a lower bound of the walk over the block (:func:`_block_floors`) does not
#: rule a point at or below its tolerance out. Most pairs cross in the first block; a pair
#: that never crosses in most scenarios is ruled out block by block without its points.
FIRST_BLOCK_POINTS = 16
BLOCK_POINTS = 32
#: A lower bound passes a block only when it is above the tolerance by more than this share of
#: the magnitudes it adds up (Σ_k |c_k|·max_p |B_kp|), far above any rounding of the products.
BLOCK_FLOOR_SLACK = 1e-12


def shared_walk(blocks, flip: bool | None, delta0: Array, slope0: Array, bound: Array,
                tol: Array) -> Array | None:
    """:meth:`LevelSearch.level`'s walk where every scenario has the same events (levels) and
    the same bound, and each event's slope change and jump are a few terms coefficient ×
    shape with shapes shared too: then the walk's value at every point is a small product,
    (scenarios × terms) @ (terms × points), and no array (scenarios × events) is built per
    term. None where that does not hold (the walk of :meth:`LevelSearch._walk` is used).

    blocks : as :meth:`LevelSearch._blocks` gives them; flip : whether month blocks are read
    backwards (:meth:`LevelSearch._flip_shared`); delta0, slope0 : PV(own) − PV(other) and
    its slope at level 0, (S,); bound : the search bound, (S,); tol : the tolerance of a
    zero, (S,). Returns the first level where the difference is zero or changes sign, NaN
    where there is none. (S,) [reference units]
    """
    if flip is None or bound.size == 0 or not (bound == bound[0]).all():
        return None
    end = float(bound[0])
    if not np.isfinite(end):
        return None
    positions, coefficients, slopes, jumps = [], [], [], []
    width = sum(b[0].shape[1] for b in blocks)
    offset = 0
    for p, _, _, sign, ordered, terms in blocks:
        if p.shape[0] != 1 or terms is None:
            return None
        reverse = flip and not ordered
        positions.append(p[0, ::-1] if reverse else p[0])
        for coefficient, slope, jump in terms:
            shaped = []
            for shape in (slope, jump):
                row = np.zeros(width)
                if shape is not None:
                    if shape.shape[0] != 1:
                        return None
                    row[offset:offset + p.shape[1]] = np.broadcast_to(
                        shape, (1, p.shape[1]))[0, ::-1] if reverse else np.broadcast_to(
                        shape, (1, p.shape[1]))[0]
                shaped.append(row)
            coefficients.append(sign * np.asarray(coefficient, dtype=float).reshape(-1))
            slopes.append(shaped[0])
            jumps.append(shaped[1])
        offset += p.shape[1]
    pos = np.concatenate(positions) if positions else np.zeros(0)
    order = np.argsort(pos, kind="stable")
    pos = pos[order]
    kept = pos <= end
    pos = pos[kept]
    basis = [np.ones(2 * pos.size + 2), _points(pos, end)]
    for slope, jump in zip(slopes, jumps):
        basis.append(_walk_values(pos, end, slope[order][kept], jump[order][kept]))
    rows = delta0.shape[0]
    sign0 = np.where(delta0 < 0, -1.0, 1.0)
    coef = np.empty((rows, len(basis)))
    coef[:, 0], coef[:, 1] = delta0, slope0
    for k, c in enumerate(coefficients):
        coef[:, 2 + k] = np.broadcast_to(c, (rows,))
    coef *= sign0[:, None]
    # An event without a jump has equal left and right limits: its right limit is dropped.
    jumped = np.zeros(pos.size, dtype=bool)
    for jump in jumps:
        jumped |= jump[order][kept] != 0
    columns = np.ones(2 * pos.size + 2, dtype=bool)
    columns[2:-1:2] = jumped
    return _first_at_or_below(coef, np.stack(basis)[:, columns], _points(pos, end)[columns],
                              tol)


def _points(pos: Array, end: float) -> Array:
    """The walk's levels: 0, each event twice (its left and right limit), the end. (2E + 2,)"""
    return np.concatenate([[0.0], np.repeat(pos, 2), [end]])


def _walk_values(pos: Array, end: float, slope: Array, jump: Array) -> Array:
    """One term's value at the walk's points (:func:`_points`): Σ over the events before a
    point of slope × (level − event's level) + jump, the jump of an event counted in its
    right limit. (2E + 2,)"""
    slope_before = np.cumsum(slope) - slope
    moment_before = np.cumsum(slope * pos) - slope * pos
    jump_before = np.cumsum(jump) - jump
    left = slope_before * pos - moment_before + jump_before
    out = np.empty(2 * pos.size + 2)
    out[0] = 0.0
    out[1:-1:2] = left
    out[2:-1:2] = left + jump
    out[-1] = slope.sum() * end - (slope * pos).sum() + jump.sum()
    return out


def _first_at_or_below(coef: Array, basis: Array, xs: Array, tol: Array) -> Array:
    """The first point where the walk, turned to start positive (``coef`` @ ``basis``), is at
    or below its tolerance: a zero there, or a sign change from the point before, solved
    linearly; NaN where there is none. The points are evaluated block by block, each for the
    scenarios still open whose lower bound over the block (:func:`_block_floors`) may reach
    the tolerance. (S,) [reference units]"""
    rows = coef.shape[0]
    level = np.full(rows, np.nan)
    edges = [0, *range(min(FIRST_BLOCK_POINTS, xs.size), xs.size, BLOCK_POINTS), xs.size]
    blocks = [(a, b) for a, b in itertools.pairwise(edges) if b > a]
    maybe = _block_floors(coef, basis, blocks) <= tol[:, None]
    open_ = np.ones(rows, dtype=bool)
    for b, (start, stop) in enumerate(blocks):
        todo = np.flatnonzero(maybe[:, b] & open_)
        if todo.size == 0:
            continue
        lo = max(start - 1, 0)
        # From the point before, for the solve.
        values = thin_product(coef[todo], basis[:, lo:stop])
        below = values[:, start - lo:] <= tol[todo, None]
        first_below = np.argmax(below, axis=1)
        hit = below[np.arange(todo.size), first_below]  # argmax is 0 where none is below
        j = first_below + (start - lo)
        r = np.flatnonzero(hit)
        jj = j[r]
        v1 = values[r, jj]
        zero = np.abs(v1) <= tol[todo[r]]
        prev = np.maximum(jj - 1, 0)
        v0 = values[r, prev]
        x0, x1 = xs[lo + prev], xs[lo + jj]
        with np.errstate(divide="ignore", invalid="ignore"):
            root = np.where(x1 > x0, x0 + v0 * (x1 - x0) / (v0 - v1), x0)
        level[todo[r]] = np.where(zero, xs[lo + jj], root)
        open_[todo[r]] = False
    return level


def _block_floors(coef: Array, basis: Array, blocks: list[tuple[int, int]]) -> Array:
    """A lower bound of the walk ``coef`` @ ``basis`` over each block of points, for every
    scenario: Σ_k min_p c_k·B_kp ≤ min_p Σ_k c_k·B_kp, that is Σ_k max(c_k, 0)·min_p B_kp +
    min(c_k, 0)·max_p B_kp; less :data:`BLOCK_FLOOR_SLACK` of the magnitudes, so that rounding
    never rules out a point the products put at or below the tolerance. (S, blocks)

    The walk 2 − x + x (2 everywhere) at x = 0, 1, 2, 3, its terms bounded one by one: over
    x in {0, 1}, 2 − 1 + 0 = 1; over {2, 3}, 2 − 3 + 2 = 1 (a bound, not the minimum):

    >>> coef = np.array([[2.0, -1.0, 1.0]])
    >>> basis = np.array([[1.0, 1, 1, 1], [0, 1, 2, 3], [0, 1, 2, 3]])
    >>> [round(float(v), 6) for v in _block_floors(coef, basis, [(0, 2), (2, 4)])[0]]
    [1.0, 1.0]
    """
    low = np.stack([basis[:, a:b].min(axis=1) for a, b in blocks], axis=1)
    high = np.stack([basis[:, a:b].max(axis=1) for a, b in blocks], axis=1)
    size = np.maximum(np.abs(low), np.abs(high))
    floors = (thin_product(np.maximum(coef, 0.0), low)
              + thin_product(np.minimum(coef, 0.0), high))
    return floors - BLOCK_FLOOR_SLACK * thin_product(np.abs(coef), size)


#: Multiply-adds of one BLAS call of :func:`thin_product`: OpenBLAS runs a product below
#: 65,536 × 4 of them on the calling thread (GEMM_MULTITHREAD_THRESHOLD); above it wakes a
#: second thread, which on a shared machine waits for its core and then spins.
THIN_PRODUCT_CALL = 200_000


def thin_product(coef: Array, basis: Array) -> Array:
    """``coef @ basis`` for a tall ``coef`` (S × K, K a few terms) and a short ``basis`` (K ×
    P), by BLAS in blocks of rows small enough to stay on this thread. einsum's own loop over
    K this small costs four times as much (measured on two cores: 8,192 × 6 @ 6 × 146 in 0.8
    ms against 3.0–3.8 ms), and one BLAS call over all rows wakes a second thread. (S, P)"""
    rows, terms = coef.shape
    points = basis.shape[1]
    out = np.empty((rows, points))
    block = max(THIN_PRODUCT_CALL // max(terms * points, 1), 1)
    for start in range(0, rows, block):
        np.matmul(coef[start:start + block], basis, out=out[start:start + block])
    return out
