"""Where a reserved cloud's present value kinks as the demand level moves (SPEC §5.2, §5.6):
the breakpoints the break-even search over demand walks between, for a count chosen for the
whole horizon, one chosen per term, or a ladder written in the file."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, Model, OwnCard
from planner.engine.cloud import (
    is_reserved,
    rented_instance_hours,
    term_of_month,
    term_windows,
)
from planner.engine.linear import LevelSearch, chain_line, first_service_capacity, variable_pv
from planner.engine.months import discount
from planner.engine.tco import chain

#: Bytes of working arrays while listing a reserved option's breakpoints; rows are taken in
#: blocks that fit.
RESERVED_BLOCK_BYTES = 64 * 2**20
#: Breakpoints × months of one scenario at most (each breakpoint is an evaluation of the
#: horizon); beyond, the breakpoints are thinned evenly and the root refined (see breakeven._polish).
MAX_BREAKPOINT_MONTHS = 250_000


def reserved_breakpoints(model: Model, name: str, growth: Array, bound: Array) -> list[Array]:
    """The levels where the present value of a reserved cloud in ``name``'s chain kinks,
    [] without one. (S, K) arrays [reference units]

    growth : g_m, months 1..T, (S, T); bound : the search bound, (S, 1).

    The cloud ends the chain and gets the work above the capacity C of the members before
    it: I_m(x) = κ·max(0, x·g_m − C) instance-hours in month m at level x (κ: instance-hours
    per reference unit). With R committed instances its present value
    f_R(x) = R·c + p·Σ_m disc_m·max(0, I_m(x) − R·H) (c: one instance's commitment in present
    value) kinks where I_m(x) = R·H, at x = (R·H/κ + C)/g_m. The default count R*(x) is
    f's minimizer; it steps from R to R + 1 where the saving of one more instance,
    s_R(x) = p·Σ_m disc_m·clip(I_m(x) − R·H, 0, H), reaches c, and the present value
    min_R f_R(x) kinks there too. Listed: those switch levels and the kinks of the count in
    force, so that the present value is linear between the breakpoints.
    """

    members = chain(model, name)
    card = model.cards[members[-1]]
    if not is_reserved(card):
        return []
    line = chain_line(model, name)
    before = sum((seg.capacity for seg in line.segments[:-1]), np.zeros((1, 1)))
    kappa = rented_instance_hours(model, card, card.gpu_hours_per_unit)
    H = np.asarray(model.calendar.hours_per_month, dtype=float).reshape(-1, 1)
    rows = max(growth.shape[0], np.shape(before)[0], np.shape(kappa)[0], bound.shape[0],
               H.shape[0])
    T = growth.shape[1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        peak = kappa * np.maximum(bound * growth.max(axis=1, keepdims=True) - before, 0.0) / H
    peak = peak.max(axis=1, keepdims=True)  # before varies by month after a late purchase
    top = np.nan_to_num(np.broadcast_to(peak, (rows, 1)), posinf=0.0)
    given = card.reserved_ladder if card.reserved_ladder is not None else card.reserved_instances
    if given is not None:  # the count in force in each month: kinks where I_m(x) = R_m·H
        given = np.asarray(given, float)
        if card.reserved_ladder is not None:
            given = given[:, term_of_month(T, card.term_months)[1:]]
        rows = max(rows, given.shape[0])  # a sweep over the count: one per scenario
        counts = np.broadcast_to(given, (rows, given.shape[1]))
        return [_kinks(counts[:, None, :], H, kappa, before, growth).reshape(rows, T)]
    cap = max(64, MAX_BREAKPOINT_MONTHS // T)
    r_max = int(min(np.ceil(top.max(initial=0.0)) + 1, 2**62))
    if r_max > cap:  # too many counts to list them all: every r_max/cap-th, refined later
        counts = np.unique(np.round(np.linspace(0, r_max, cap)))
    else:
        counts = np.arange(r_max + 1, dtype=float)
    disc = discount(model)
    per_level = (card.on_demand_price_per_hour * disc[:, 1:] * kappa
                 * growth)  # β_m = p·disc_m·κ·g_m: the slope of s_R where it rises, (S, T)
    out = []
    for months, weight in term_windows(model, card, disc):
        commitment = card.reserved_price_per_hour * H * weight  # c, (S, 1)
        window_before = before if np.shape(before)[1] == 1 else before[:, months]
        out.append(_count_switches(counts, r_max, rows, H, kappa, window_before,
                                   growth[:, months], per_level[:, months], commitment))
    points = np.concatenate(out, axis=1)
    points = np.sort(np.where(points <= bound, points, np.inf), axis=1)
    used = int((points < np.inf).sum(axis=1).max(initial=0))
    points = points[:, :max(used, 1)]
    if points.shape[1] > cap:  # thinned evenly: the root is then refined by _polish
        points = points[:, np.round(np.linspace(0, points.shape[1] - 1, cap)).astype(int)]
    return [points]


def _row_blocks(rows: int, counts: int, months: int):
    """The scenario rows in blocks whose kinks ((rows, counts, months) float64 arrays, some
    sixteen of them alive at once) stay within RESERVED_BLOCK_BYTES: for each block its
    slice and ``cut``, which takes an array's rows of the block (a one-row array stands for
    every row and is kept whole)."""
    block = max(1, RESERVED_BLOCK_BYTES // (8 * 16 * counts * max(months, 1)))
    for start in range(0, rows, block):
        part = slice(start, min(start + block, rows))

        def cut(a, part=part):
            a = np.asarray(a, dtype=float)
            return a if a.shape[0] == 1 else a[part]

        yield part, cut


def _count_switches(counts: Array, r_max: int, rows: int, H: Array, kappa: Array,
                    before: Array, growth: Array, per_level: Array, commitment: Array) -> Array:
    """The levels where the best count over one window of months steps from R to R + 1, and
    (when every count is listed) the kinks of the count in force, (rows, K) [reference units].

    growth, per_level : the window's months, (S, M); commitment : one instance's commitment
    over the window in present value, (S, 1).
    """
    out = []
    for part, cut in _row_blocks(rows, counts.size, growth.shape[1]):
        kinks = _kinks(counts[None, :, None], cut(H), cut(kappa), cut(before), cut(growth))
        if counts.size == r_max + 1:  # every count: (B, R + 1, M), R = 0..r_max
            upper = kinks[:, 1:]
            kinks = kinks[:, :-1]
        else:
            upper = _kinks(counts[None, :, None] + 1, cut(H), cut(kappa), cut(before),
                           cut(growth))
        switch = _switch_levels(kinks, upper, cut(per_level)[:, None, :],
                                cut(commitment)[:, :, None])  # (B, R): from R to R + 1
        b = kinks.shape[0]
        if counts.size == r_max + 1:
            # The kinks of the count in force: R from the switch R − 1 → R to R → R + 1.
            low = np.concatenate([np.zeros_like(switch[:, :1]), switch[:, :-1]], axis=1)
            in_force = (kinks >= low[:, :, None]) & (kinks <= switch[:, :, None])
            listed = np.concatenate([switch, np.where(in_force, kinks, np.inf).reshape(b, -1)],
                                    axis=1)
        else:
            listed = switch
        out.append(np.broadcast_to(listed, (part.stop - part.start, listed.shape[1])))
    return np.concatenate(out)


def _kinks(counts: Array, H: Array, kappa: Array, before: Array, growth: Array) -> Array:
    """Levels x where I_m(x) = R·H, (S, R, T): (R·H/κ + C)/g_m; inf in months without work.
    counts (S or 1, R, 1); H, kappa (S or 1, 1); before (S or 1, 1), or (S, T) when the
    capacity before the cloud changes by month; growth (S, T)."""
    per_instance = np.where(kappa > 0, H / np.where(kappa > 0, kappa, 1.0), np.inf)
    with np.errstate(invalid="ignore"):
        work = counts * per_instance[:, :, None] + np.asarray(before)[:, None, :]
    work = np.where(np.isnan(work), np.inf, work)  # 0 × inf: no instance-hours at all
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(growth[:, None, :] > 0, work / growth[:, None, :], np.inf)


def _switch_levels(start: Array, end: Array, slope: Array, commitment: Array) -> Array:
    """Where s_R(x) = Σ_m slope_m·(clip(x, start_m, end_m) − start_m) first reaches the
    commitment c, for each R; inf where it never does. (S, R)

    start, end : (S, R, T) levels where month m's instance-hours reach R·H and (R + 1)·H;
    slope : (S, 1, T); commitment : (S, 1, 1) or (1, 1, 1).
    """
    shape = np.broadcast_shapes(start.shape, slope.shape)
    rise = np.broadcast_to(np.where(np.isfinite(start), slope, 0.0), shape)
    pos = np.concatenate([np.broadcast_to(start, shape), np.broadcast_to(end, shape)], axis=2)
    change = np.concatenate([rise, -rise], axis=2)
    order = np.argsort(pos, axis=2, kind="stable")
    pos = np.take_along_axis(pos, order, axis=2)
    change = np.take_along_axis(change, order, axis=2)
    after = np.cumsum(change, axis=2)  # slope just after each event
    finite = np.where(np.isfinite(pos), pos, 0.0)
    step = np.diff(finite, axis=2, prepend=finite[:, :, :1])
    value = np.cumsum((after - change) * step, axis=2)  # s_R at each event
    c = np.broadcast_to(commitment, value.shape[:2] + (1,))
    reached = (value >= c) & np.isfinite(pos)
    k = np.where(reached.any(axis=2), np.argmax(reached, axis=2), -1)
    k = np.maximum(k, 1)[:, :, None]
    x0 = np.take_along_axis(finite, k - 1, axis=2)[:, :, 0]
    v0 = np.take_along_axis(value, k - 1, axis=2)[:, :, 0]
    s0 = np.take_along_axis(after, k - 1, axis=2)[:, :, 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        level = np.where(s0 > 0, x0 + (c[:, :, 0] - v0) / s0, x0)
    return np.where(reached.any(axis=2), level, np.inf)


# -- the same kinks as events of a walk in closed form ----------------------------------------

#: Events (kinks and count switches) of one reserved option per scenario at most for the walk
#: in closed form; beyond, the break-even level is found by evaluating the engine on pieces.
MAX_RESERVED_EVENTS = 8_192


def reserved_events(model: Model, name: str, growth: Array,
                    reach: Array) -> tuple[Array, Array] | None:
    """The present value of the reserved cloud ending ``name``'s chain as a walk in the
    month-1 level x: the levels where its slope changes and the change there, sorted by level,
    (S, K) each [reference units], [currency per reference unit]; None when there are too
    many (see :data:`MAX_RESERVED_EVENTS`). Its value at x = 0 is its commitment alone, and
    it is continuous in x.

    growth : g_m, months 1..T, (S, T); reach : the highest level the walk goes to, (S, 1).

    With R instances in force, month m adds β_m = p·disc_m·κ·g_m to the slope from its kink
    (R·H/κ + C)/g_m on (see :func:`reserved_breakpoints`). The default count steps from R to
    R + 1 at the level where one more instance saves its commitment; there the months above
    R·H but not (R + 1)·H stop adding to the slope: the change is
    Σ_m β_m·([kink of R + 1 < x] − [kink of R ≤ x]). A count given in the file (or a ladder)
    never steps: the events are its kinks.
    """
    members = chain(model, name)
    card = model.cards[members[-1]]
    if not is_reserved(card):
        return np.zeros((1, 0)), np.zeros((1, 0))
    line = chain_line(model, name)
    before = sum((seg.capacity for seg in line.segments[:-1]), np.zeros((1, 1)))
    kappa = rented_instance_hours(model, card, card.gpu_hours_per_unit)
    H = np.asarray(model.calendar.hours_per_month, dtype=float).reshape(-1, 1)
    T = growth.shape[1]
    disc = discount(model)
    beta = card.on_demand_price_per_hour * disc[:, 1:] * kappa * growth  # β_m, (S, T)
    # Rows of the events: one where nothing they depend on differs between scenarios (the
    # reach only bounds the counts listed).
    rows = max(growth.shape[0], np.shape(before)[0], np.shape(kappa)[0], H.shape[0],
               beta.shape[0], np.shape(card.reserved_price_per_hour)[0])
    given = card.reserved_ladder if card.reserved_ladder is not None else card.reserved_instances
    if given is not None:
        given = np.asarray(given, float)
        if card.reserved_ladder is not None:
            given = given[:, term_of_month(T, card.term_months)[1:]]
        rows = max(rows, given.shape[0])
        counts = np.broadcast_to(given, (rows, given.shape[1]))
        kinks = _kinks(counts[:, None, :], H, kappa, before, growth).reshape(rows, T)
        return _sorted(kinks, np.broadcast_to(beta, (rows, T)))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        peak = kappa * np.maximum(reach * growth.max(axis=1, keepdims=True) - before, 0.0) / H
    r_max = float(np.ceil(np.nan_to_num(peak, posinf=np.inf).max(initial=0.0)) + 1)
    if not r_max * (T + 1) <= MAX_RESERVED_EVENTS:
        return None
    counts = np.arange(int(r_max) + 1, dtype=float)
    positions, slopes = [], []
    for months, weight in term_windows(model, card, disc):
        commitment = card.reserved_price_per_hour * H * weight
        window_before = before if np.shape(before)[1] == 1 else before[:, months]
        p, s = _count_events(counts, rows, H, kappa, window_before, growth[:, months],
                             beta[:, months], commitment)
        positions.append(p)
        slopes.append(s)
    return _sorted(np.concatenate(positions, axis=1), np.concatenate(slopes, axis=1))


def _sorted(positions: Array, slopes: Array) -> tuple[Array, Array]:
    """Events sorted by level, the columns beyond the last finite one of any row dropped."""
    positions = np.where(np.isnan(positions), np.inf, positions)
    order = np.argsort(positions, axis=1, kind="stable")
    positions = np.take_along_axis(positions, order, axis=1)
    slopes = np.take_along_axis(np.broadcast_to(slopes, positions.shape), order, axis=1)
    used = int(np.isfinite(positions).sum(axis=1).max(initial=0))
    return positions[:, :used], np.where(np.isfinite(positions), slopes, 0.0)[:, :used]


def _count_events(counts: Array, rows: int, H: Array, kappa: Array, before: Array,
                  growth: Array, beta: Array, commitment: Array) -> tuple[Array, Array]:
    """The events of the best count over one window of months (every count listed): the kinks
    of the count in force (slope + β_m) and the steps from R to R + 1, (rows, K) each.

    growth, beta : the window's months, (S, M); commitment : one instance's commitment over
    the window in present value, (S, 1).
    """
    positions, slopes = [], []
    for part, cut in _row_blocks(rows, counts.size, growth.shape[1]):
        every = _kinks(counts[None, :, None], cut(H), cut(kappa), cut(before), cut(growth))
        c = cut(commitment)[:, :, None]
        b = max(every.shape[0], np.shape(cut(beta))[0], c.shape[0])  # rows of this block
        every = np.broadcast_to(every, (b,) + every.shape[1:])
        kinks, upper = every[:, :-1], every[:, 1:]  # of R and of R + 1, R = 0..r_max − 1
        b_m = np.broadcast_to(cut(beta)[:, None, :], (b, 1, every.shape[2]))
        switch = _switch_levels(kinks, upper, b_m, c)  # (B, R)
        low = np.concatenate([np.zeros_like(switch[:, :1]), switch[:, :-1]], axis=1)
        in_force = (kinks >= low[:, :, None]) & (kinks <= switch[:, :, None])
        at = switch[:, :, None]
        step = (b_m * ((upper < at) * 1.0 - (kinks <= at))).sum(axis=2)
        pos = np.concatenate([np.broadcast_to(switch, (b, switch.shape[1])),
                              np.where(in_force, kinks, np.inf).reshape(b, -1)], axis=1)
        ds = np.concatenate([np.broadcast_to(step, (b, switch.shape[1])),
                             np.broadcast_to(np.where(in_force, b_m, 0.0),
                                             in_force.shape).reshape(b, -1)], axis=1)
        n = part.stop - part.start
        positions.append(np.broadcast_to(pos, (n, pos.shape[1])))
        slopes.append(np.broadcast_to(ds, (n, ds.shape[1])))
    return np.concatenate(positions), np.concatenate(slopes)


class ReservedLevelSearch(LevelSearch):
    """:class:`LevelSearch` for chains that end in a reserved cloud as well: the reserved
    cloud's present value joins the walk as the events of :func:`reserved_events`, so that
    break-even levels against reserved pricing are found in closed form too."""

    def __init__(self, model: Model, factor: float):
        super().__init__(model, factor)
        self._reserved: dict[str, tuple[Array, Array] | None] = {}
        # The walk reaches the largest search bound of any pair and the plan's own level.
        g_max = self.growth.max(axis=1, keepdims=True)
        reach = np.asarray(model.demand.level, dtype=float).reshape(-1, 1)
        for name, card in model.cards.items():
            if isinstance(card, OwnCard):
                capacity = first_service_capacity(self.line(name).segments[0].capacity)
                reach = np.maximum(reach, factor * capacity if name in model.target_of
                                   else capacity / g_max)
        self.reach = reach

    def reserved(self, name: str) -> tuple[Array, Array] | None:
        """The reserved cloud's events of ``name``'s chain (none without one); None when
        there are too many for the closed form."""
        if name not in self._reserved:
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                self._reserved[name] = reserved_events(self.model, name, self.growth,
                                                       self.reach)
        return self._reserved[name]

    def closed_form(self, name: str) -> bool:
        """Whether the break-even levels of ``name``'s pairs are found by the walk."""
        return self.reserved(name) is not None

    def variable(self, name: str) -> Array:
        """The part of the present value at the plan's level that depends on the level, the
        reserved cloud's included. (S,) [currency]"""
        if name not in self._variable:
            level = np.asarray(self.model.demand.level, dtype=float).reshape(-1, 1)
            value = variable_pv(self.model, self.line(name), level, self.disc)
            positions, slopes = self.reserved(name)
            if positions.shape[1]:
                value = value + _walked(positions, slopes, level)
            self._variable[name] = value
        return self._variable[name]

    def _blocks(self, own: str, other: str):
        blocks = super()._blocks(own, other)
        for name, sign in ((own, 1.0), (other, -1.0)):
            positions, slopes = self.reserved(name)
            if positions.shape[1]:
                jumps = np.zeros((1, positions.shape[1]))
                blocks.append((positions, slopes, jumps, sign, True, [(1.0, slopes, None)]))
        return blocks


def _walked(positions: Array, slopes: Array, level: Array) -> Array:
    """Σ over the events below ``level`` of slope change × (level − event's level): the
    value a walk from 0 has gained at ``level``, (S,). Events shared by all scenarios (one
    row, sorted) are read off running sums; else each scenario's are summed.
    [currency]"""
    if positions.shape[0] == 1 and slopes.shape[0] == 1:
        x = level.reshape(-1)
        k = np.searchsorted(positions[0], x, side="left")
        slope = np.concatenate([[0.0], np.cumsum(slopes[0])])
        moment = np.concatenate([[0.0], np.cumsum(slopes[0] * positions[0])])
        return x * slope[k] - moment[k]
    with np.errstate(invalid="ignore"):
        past = np.maximum(level - positions, 0.0)
    return (slopes * past).sum(axis=1)
