"""``machines: auto`` (SPEC §6): the machine count of an own option with the lowest present
value, chosen for every scenario at once.

N is the smallest count whose capacity covers the largest month's demand among the months the
machines serve (p + 1..T); every count 0..N is a candidate. Candidates are evaluated as
scenarios of one array computation (each scenario repeated once per count, in blocks of
counts), the option's chain included: its overflow's costs move with the count. The lowest
present value wins; on a tie (within 10⁻⁹ relative) the fewer machines. Counts beyond
:data:`MAX_AUTO_MACHINES` are not searched (a warning says so where more would be needed).

Where the option passes its work to a cloud paid by the hour (on demand or spot) or to nothing,
the present value is linear in the count between the counts at which a month's demand is just
covered (n = G_m / K, K one machine's capacity): the machines' own costs are linear in the count
and in their served hours min(G_m, n·K), and the cloud's in the hours passed on, G_m − n·K; its
storage changes only where a month's passed hours reach 0. Own options of a set count between
the option and that end add the counts at which the option covers G_m less their capacity
(the first target's, the first two's, …): each serves min(passed, its capacity), linear in
between. So only those counts (rounded down and up), 0 and N are evaluated
(:func:`breakpoint_counts`); the fewest count within the tie tolerance, which may lie inside
the piece left of the best candidate, is then found on that piece, where the value falls
monotonically (:func:`_fewest_within_tie`). A reserved cloud's commitments and a free tier's
quotas add kinks of their own: those chains search every count. Machines that cannot run the
work at all are infeasible at every count: nothing is searched (the count is N).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from planner.cards.model import (
    Array,
    CloudCard,
    Model,
    OwnCard,
    col,
    repeat_scenarios,
    take_scenarios,
)
from planner.engine.cloud import is_reserved
from planner.engine.flows import present_value
from planner.engine.months import work_by_month
from planner.engine.own import (
    MAX_AUTO_MACHINES,
    cannot_run_the_work,
    machine_capacity,
    own_capacity_by_month,
)
from planner.engine.tco import chain, option_flows

#: Scenario × count × month cells evaluated at once (8 MB an array); bounds memory.
CANDIDATE_CELLS = 2**20
#: Relative tolerance of a tie in present value (the fewer machines win it).
TIE = 1e-9
#: Float noise ignored when the demand is a whole number of machines' capacity.
_COVER_TOLERANCE = 1e-9


def choose_machines(model: Model) -> Model:
    """``model`` with the count of every ``machines: auto`` option chosen, (S, 1) each; the
    model itself when it has none. An auto option that is another auto option's overflow is
    chosen first (for its own demand), so the passer is priced with that count."""
    pending = [name for name, card in model.cards.items()
               if isinstance(card, OwnCard) and card.machines is None]
    if not pending:
        return model
    cards = dict(model.cards)
    while pending:
        current = dataclasses.replace(model, cards=cards)
        ready = [name for name in pending
                 if not any(m in pending for m in chain(current, name)[1:])]
        for name in ready or pending[:1]:  # a cycle is refused before; never stuck
            current = dataclasses.replace(model, cards=cards)
            beyond = covering_machines(current, name, limit=None) > MAX_AUTO_MACHINES
            cards[name] = dataclasses.replace(
                cards[name], machines=col(best_machines(current, name)),
                machines_beyond_search=beyond.reshape(-1, 1) if beyond.any() else None)
            pending.remove(name)
    return dataclasses.replace(model, cards=cards)


def covering_machines(model: Model, name: str, limit: float | None = MAX_AUTO_MACHINES
                      ) -> Array:
    """N: the fewest machines whose capacity covers the largest month's demand among the
    months p + 1..T, at most ``limit`` (None: no limit, inf where no count is finite); 0 where
    one machine has no capacity. (S,) [machines]"""
    card = model.cards[name]
    needed = work_by_month(model) * card.gpu_hours_per_unit
    serving = model.calendar.months[None, :] > card.purchase_month
    peak = np.where(serving, needed, 0.0).max(axis=1, keepdims=True)
    per_machine = machine_capacity(model, card)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        ratio = np.where(per_machine > 0, peak / per_machine, 0.0)
        cover = np.ceil(np.maximum(ratio - _COVER_TOLERANCE, 0.0))
    cover = np.nan_to_num(cover, nan=0.0, posinf=np.inf)
    if limit is not None:
        cover = np.minimum(cover, limit)
    rows = max(model.scenarios, cover.shape[0])
    return np.broadcast_to(cover[:, 0], (rows,))


def candidate_values(model: Model, name: str, counts: Array) -> tuple[Array, Array]:
    """Present value and feasibility of option ``name`` (its chain included) with each of
    ``counts`` machines in every scenario, (S, K) each. [currency]"""
    rows = model.scenarios
    counts = np.asarray(counts, dtype=float)
    k = counts.size
    pv = np.empty((rows, k))
    ok = np.empty((rows, k), dtype=bool)
    per_count = max(rows, 1) * (model.calendar.horizon_months + 1)
    step = max(1, CANDIDATE_CELLS // per_count)
    for start in range(0, k, step):
        block = counts[start:start + step]
        big = repeat_scenarios(model, block.size)
        card = dataclasses.replace(big.cards[name], machines=col(np.tile(block, rows)))
        big = dataclasses.replace(big, cards={**big.cards, name: card})
        n = rows * block.size
        with np.errstate(over="ignore", invalid="ignore"):
            flows = option_flows(big, name, work_by_month(big), as_target=False)
            value = np.broadcast_to(present_value(big, flows), (n,))
        pv[:, start:start + block.size] = value.reshape(rows, block.size)
        ok[:, start:start + block.size] = (flows.feasible(n) & np.isfinite(value)).reshape(
            rows, block.size)
    return pv, ok


def best_machines(model: Model, name: str) -> Array:
    """The count in 0..N with the lowest present value in every scenario (ties: fewer); N where
    no count is feasible (the option's reasons then say why). (S,) [machines]"""
    cover = covering_machines(model, name)
    if cannot_run_the_work(model, model.cards[name]).all():
        return cover  # no count is feasible: nothing to search
    counts = np.arange(int(cover.max(initial=0.0)) + 1, dtype=float)
    if piecewise_linear(model, name):
        pieces = breakpoint_counts(model, name, cover)
        if pieces.shape[1] < counts.size:  # fewer counts to evaluate than every count
            return _best_on_pieces(model, name, cover, pieces)
    return _best_of(counts, cover, *candidate_values(model, name, counts))


def _best_of(counts: Array, cover: Array, pv: Array, ok: Array) -> Array:
    """The fewest of ``counts`` (K,) within the tie tolerance of the lowest usable present
    value, per scenario; N (``cover``) where none is usable. (S,) [machines]"""
    usable = ok & (counts[None, :] <= cover[:, None])
    pv = np.where(usable, pv, np.inf)
    best = pv.min(axis=1, keepdims=True)
    tie = usable & (pv <= _tie_bound(best))
    return np.where(tie.any(axis=1), counts[np.argmax(tie, axis=1)], cover)


def _tie_bound(best: Array) -> Array:
    """The highest present value that ties ``best``. [currency]"""
    return best + TIE * np.maximum(np.abs(best), 1.0)


def piecewise_linear(model: Model, name: str) -> bool:
    """Whether the option's present value is linear in its count between the counts at which
    a month's work is just covered by it, or by it and the own options after it: it passes
    work through own options of a set count (none, one or more) to nothing or to a cloud paid
    by the hour."""
    *owns, last = [model.cards[n] for n in chain(model, name)[1:]] or [None]
    if not all(isinstance(c, OwnCard) and c.machines is not None for c in owns):
        return False
    if last is None or isinstance(last, OwnCard):
        return last is None or last.machines is not None
    return isinstance(last, CloudCard) and not is_reserved(last)


def breakpoint_counts(model: Model, name: str, cover: Array) -> Array:
    """Each scenario's candidates, sorted (repeats kept): 0, its N and, for every month, the
    counts at which the option covers the month's work G_m, or G_m less the capacity of the
    own options it passes work to (the first, the first two, …), each ratio rounded down and
    up, within 0..N. (S, 2(T + 1)(1 + own targets) + 2) [machines]"""
    card = model.cards[name]
    work = work_by_month(model)
    per_machine = machine_capacity(model, card)
    rows = cover.size
    left = [work]  # the reference units the option serves at each kink
    for target in chain(model, name)[1:]:
        inner = model.cards[target]
        if not isinstance(inner, OwnCard):
            break
        capacity = own_capacity_by_month(model, inner)  # (S, 1) or (S, T): months 1..T
        months = np.broadcast_to(capacity, (capacity.shape[0], work.shape[1] - 1))
        left.append(left[-1] - np.concatenate([np.zeros((capacity.shape[0], 1)), months],
                                              axis=1))
    points = [np.zeros((rows, 1)), cover[:, None]]
    for remaining in left:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            ratio = np.where(per_machine > 0,
                             remaining * card.gpu_hours_per_unit / per_machine, 0.0)
        ratio = np.broadcast_to(np.nan_to_num(ratio, nan=0.0, posinf=0.0, neginf=0.0),
                                (rows, work.shape[1]))
        points += [np.floor(ratio), np.ceil(ratio)]
    top = cover[:, None]
    return np.sort(np.clip(np.concatenate(points, axis=1), 0.0, top), axis=1)


def _best_on_pieces(model: Model, name: str, cover: Array, pieces: Array) -> Array:
    """:func:`_best_of` over all counts 0..N, evaluated at each scenario's ``pieces`` only
    (see the module's docstring). (S,) [machines]"""
    pv, ok = _values_of_rows(model, name, pieces)
    usable = ok & (pieces <= cover[:, None])
    pv = np.where(usable, pv, np.inf)
    bound = _tie_bound(pv.min(axis=1))
    tie = usable & (pv <= bound[:, None])
    found = tie.any(axis=1)
    best = np.where(found, pieces[np.arange(cover.size), np.argmax(tie, axis=1)], cover)
    # The piece left of the best ends at the largest candidate below it, whose value is above
    # the bound (else it would be the fewest); none where no count is usable.
    below = np.where(pieces < best[:, None], pieces, -np.inf).max(axis=1)
    low = np.where(found & np.isfinite(below), below, best)
    return _fewest_within_tie(model, name, low, best, bound)


def _fewest_within_tie(model: Model, name: str, low: Array, high: Array, bound: Array) -> Array:
    """The fewest count within the tie ``bound`` in (low, high], per scenario: the value is
    above it at ``low`` and within it at ``high``, and linear in between, so the counts within
    it are a run ending at ``high``, found by bisection (each step one evaluation of the
    scenarios at a count of their own). (S,) [machines]"""
    while True:
        open_ = high - low > 1
        if not open_.any():
            return high
        middle = np.where(open_, np.floor((low + high) / 2), high)
        within = _values_at(model, name, middle) <= bound
        high = np.where(open_ & within, middle, high)
        low = np.where(open_ & ~within, middle, low)


def _values_of_rows(model: Model, name: str, counts: Array) -> tuple[Array, Array]:
    """Present value and feasibility of option ``name`` (its chain included) in scenario s with
    each of ``counts[s]`` machines, (S, L) each, in blocks of scenarios. [currency]"""
    rows, width = counts.shape
    pv = np.empty((rows, width))
    ok = np.empty((rows, width), dtype=bool)
    step = max(1, CANDIDATE_CELLS // (width * (model.calendar.horizon_months + 1)))
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        part = take_scenarios(model, slice(start, stop)) if model.scenarios > 1 else model
        big = repeat_scenarios(part, width)
        card = dataclasses.replace(big.cards[name], machines=col(counts[start:stop].ravel()))
        big = dataclasses.replace(big, cards={**big.cards, name: card})
        n = (stop - start) * width
        with np.errstate(over="ignore", invalid="ignore"):
            flows = option_flows(big, name, work_by_month(big), as_target=False)
            value = np.broadcast_to(present_value(big, flows), (n,))
        pv[start:stop] = value.reshape(stop - start, width)
        ok[start:stop] = (flows.feasible(n) & np.isfinite(value)).reshape(stop - start, width)
    return pv, ok


def _values_at(model: Model, name: str, counts: Array) -> Array:
    """Present value of option ``name`` (its chain included) with ``counts[s]`` machines in
    scenario s; inf where that is infeasible. (S,) [currency]"""
    card = dataclasses.replace(model.cards[name], machines=col(counts))
    one = dataclasses.replace(model, cards={**model.cards, name: card})
    rows = max(model.scenarios, counts.size)
    with np.errstate(over="ignore", invalid="ignore"):
        flows = option_flows(one, name, work_by_month(one), as_target=False)
        value = np.broadcast_to(present_value(one, flows), (rows,))
    return np.where(flows.feasible(rows) & np.isfinite(value), value, np.inf)
