"""The best mix (SPEC §6): the present value of a chain of own options ending in a cloud, for
every candidate of a grid of machine counts and purchase months at once.

A candidate sets, for every own member of the chain, its ``machines`` and ``purchase_month``.
The candidates are evaluated as the scenarios of one array computation (the plan's single
scenario repeated once per candidate, in blocks that bound memory), the chain's overflow
included: the cloud at its end serves what the machines do not, and where its pricing is
reserved its commitments are chosen term by term for each candidate (the engine's closed
form of ``reserved_instances: per_term``, exact: a ladder's present value is a sum of one part
per term). A ladder may instead be given per candidate, to price "one commitment more".
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from planner.cards.model import Array, Model, col, repeat_scenarios
from planner.engine.flows import Flows, present_value, total_cost
from planner.engine.months import work_by_month
from planner.engine.tco import chain, option_flows

#: Candidate × month cells evaluated at once (8 MB an array); bounds memory.
CANDIDATE_CELLS = 2**20
#: Relative tolerance of a tie in present value.
TIE = 1e-9


@dataclass
class CandidateValues:
    """Figures of the head option's chain for each of K candidates; (K,) each unless said."""

    present_value: Array  # [currency]
    total_cost: Array  # nominal, less residual value [currency]
    feasible: Array  # bool
    #: Instances committed in each term, (K, terms), when the chain ends in a reserved cloud;
    #: else None. [instances]
    ladder: Array | None


def candidate_flows(model: Model, head: str, machines: dict[str, Array],
                    months: dict[str, Array], ladder: Array | None = None
                    ) -> tuple[Flows, Model]:
    """Flows of ``head``'s chain with each own member ``name`` given ``machines[name]`` and
    ``months[name]`` (K,) per candidate, and the ending reserved cloud's commitments
    ``ladder`` (K, terms) when given, and the candidates' model. One block: the caller bounds
    K."""
    k = next(iter(machines.values())).size if machines else ladder.shape[0]
    big = repeat_scenarios(model, k)
    cards = dict(big.cards)
    for name, count in machines.items():
        cards[name] = dataclasses.replace(cards[name], machines=col(count),
                                          purchase_month=col(months[name]),
                                          machines_beyond_search=None)
    if ladder is not None:
        last = chain(model, head)[-1]
        cards[last] = dataclasses.replace(cards[last], reserved_ladder=np.asarray(ladder, float),
                                          reserved_per_term=False, reserved_instances=None)
    big = dataclasses.replace(big, cards=cards)
    with np.errstate(over="ignore", invalid="ignore"):
        return option_flows(big, head, work_by_month(big), as_target=False), big


def candidate_values(model: Model, head: str, machines: dict[str, Array],
                     months: dict[str, Array], ladder: Array | None = None) -> CandidateValues:
    """:class:`CandidateValues` of every candidate, in blocks of :data:`CANDIDATE_CELLS`."""
    k = next(iter(machines.values())).size if machines else ladder.shape[0]
    step = max(1, CANDIDATE_CELLS // (model.calendar.horizon_months + 1))
    pv, total, ok, ladders = np.empty(k), np.empty(k), np.empty(k, bool), []
    for start in range(0, k, step):
        part = slice(start, min(start + step, k))
        flows, big = candidate_flows(
            model, head, {n: a[part] for n, a in machines.items()},
            {n: a[part] for n, a in months.items()},
            None if ladder is None else ladder[part])
        n = part.stop - part.start
        with np.errstate(over="ignore", invalid="ignore"):
            value = np.broadcast_to(present_value(big, flows), (n,))
            nominal = np.broadcast_to(total_cost(flows), (n,))
        pv[part], total[part] = value, nominal
        ok[part] = flows.feasible(n) & np.isfinite(value)
        counts = _ending(flows).reserved_per_term
        if counts is not None:
            ladders.append(np.broadcast_to(counts, (n, counts.shape[1])))
    return CandidateValues(pv, total, ok, np.concatenate(ladders) if ladders else None)


def _ending(flows: Flows) -> Flows:
    """The flows of the chain's last member (the cloud that takes the rest)."""
    while getattr(flows, "target", None) is not None:
        flows = flows.target
    return flows


def best_candidate(values: CandidateValues, total_machines: Array, months: Array) -> int:
    """The candidate with the lowest present value among the feasible; ties (within
    :data:`TIE` relative): fewer machines, then the later purchase (SPEC §6). ``months`` (K, J):
    the members' purchase months, the last member's deciding first (of two alike batches, the
    second is the one bought later). -1 if none is feasible."""
    pv = np.where(values.feasible, values.present_value, np.inf)
    best = pv.min(initial=np.inf)
    if not np.isfinite(best):
        return -1
    tied = np.flatnonzero(pv <= best + TIE * max(abs(best), 1.0))
    keys = [-months[tied, j] for j in range(months.shape[1])]  # lexsort: last key first
    order = np.lexsort([*keys, total_machines[tied]])
    return int(tied[order[0]])


def rent_then_buy_month(rent_per_month: Array, buy_cost: float) -> int | None:
    """The classic rent-or-buy rule (the ski-rental problem): keep renting until the rent
    paid so far reaches the cost of buying, then buy. The month whose end first finds the
    cumulative rent ``rent_per_month`` (months 1..T, (T,)) at or above ``buy_cost``; 0 when
    buying costs nothing; None when the rent never reaches it within the horizon.

    Whatever the future demand, this pays at most twice what knowing the future in advance
    would (the rent paid is at most the price, and then the price is paid once more).

    >>> rent_then_buy_month(np.array([100.0, 100.0, 100.0]), 250.0)
    3
    >>> rent_then_buy_month(np.array([100.0, 100.0]), 250.0) is None
    True
    """
    if buy_cost <= 0:
        return 0
    reached = np.flatnonzero(np.cumsum(rent_per_month) >= buy_cost * (1 - 1e-12))
    return int(reached[0]) + 1 if reached.size else None


