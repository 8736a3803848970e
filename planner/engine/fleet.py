"""``machines: auto`` (SPEC §6): the machine count of an own option with the lowest present
value, chosen for every scenario at once.

N is the smallest count whose capacity covers the largest month's demand among the months the
machines serve (p + 1..T); every count 0..N is a candidate. Candidates are evaluated as
scenarios of one array computation (each scenario repeated once per count, in blocks of
counts), the option's chain included: its overflow's costs move with the count. The lowest
present value wins; on a tie (within 10⁻⁹ relative) the fewer machines. Counts beyond
:data:`MAX_AUTO_MACHINES` are not searched (a warning says so where more would be needed).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from planner.cards.model import Array, Model, OwnCard, col, repeat_scenarios
from planner.engine.flows import present_value
from planner.engine.months import work_by_month
from planner.engine.own import MAX_AUTO_MACHINES, machine_capacity
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
    counts = np.arange(int(cover.max(initial=0.0)) + 1, dtype=float)
    pv, ok = candidate_values(model, name, counts)
    usable = ok & (counts[None, :] <= cover[:, None])
    pv = np.where(usable, pv, np.inf)
    best = pv.min(axis=1, keepdims=True)
    tie = usable & (pv <= best + TIE * np.maximum(np.abs(best), 1.0))
    return np.where(tie.any(axis=1), counts[np.argmax(tie, axis=1)], cover)
