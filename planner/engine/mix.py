"""The best mix (SPEC §6): the present value of a chain of own options ending in a cloud, for
every candidate of a grid of machine counts and purchase months at once.

A candidate sets, for every own member of the chain, its ``machines`` and ``purchase_month``.
The candidates are evaluated as the scenarios of one array computation (the plan's single
scenario repeated once per candidate, in blocks that bound memory), the chain's overflow
included: the cloud at its end serves what the machines do not, and where its pricing is
reserved its commitments are chosen term by term for each candidate (the engine's closed
form of ``reserved_instances: per_term``, exact: a ladder's present value is a sum of one part
per term). A ladder may instead be given per candidate, to price "one commitment more".

One own member before a cloud paid by the hour (:func:`grid_values`): for a purchase month,
the present value and the nominal cost are linear in the count between the counts at which a
month's work is just covered (:func:`planner.engine.fleet.breakpoint_counts`, the pieces of
``machines: auto``), so only those counts and their neighbours are evaluated, in every
purchase month, and the counts between are interpolated.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from planner.cards.model import Array, Model, col, repeat_scenarios
from planner.engine.fleet import breakpoint_counts, piecewise_linear
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


def member_grid(counts: int, horizon: int) -> tuple[Array, Array]:
    """One own member's settings: no machine (once), then every count 1..``counts`` in every
    purchase month 0..T − 1, the month varying fastest. (K,) machines, (K,) months."""
    m, p = np.meshgrid(np.arange(1, counts + 1), np.arange(horizon), indexing="ij")
    return (np.concatenate([[0], m.ravel()]).astype(float),
            np.concatenate([[0], p.ravel()]).astype(float))


def grid_values(model: Model, head: str, counts: int) -> CandidateValues:
    """:class:`CandidateValues` of every candidate of ``member_grid(counts, T)`` for the chain
    of the one own member ``head``.

    Where ``head`` passes its work to a cloud paid by the hour, the figures are evaluated only
    at the counts where they can turn and either side of each (:func:`_counts_to_evaluate`), in
    every purchase month, and interpolated linearly between: within a purchase month, the
    present value and the nominal cost are linear in the count between two consecutive
    breakpoints a < b, and every count of a + 1..b − 1 passes work to the cloud in the same
    months, so it is feasible where a + 1 is. An evaluated count's figures are its own
    evaluation's; an interpolated one agrees with its own to rounding (tested to 10⁻⁹). Where
    that would evaluate more than half the counts, or the chain is not linear so, every
    candidate is evaluated."""
    T = model.calendar.horizon_months
    machines, months = member_grid(counts, T)
    evaluated = _counts_to_evaluate(model, head, counts)
    if evaluated is None:
        return candidate_values(model, head, {head: machines}, {head: months})
    few_machines, few_months = member_grid(evaluated.size, T)
    few_machines[1:] = evaluated[few_machines[1:].astype(int) - 1]
    values = candidate_values(model, head, {head: few_machines}, {head: few_months})
    n = np.arange(1.0, counts + 1.0)
    left = np.searchsorted(evaluated, n, side="right") - 1
    right = np.minimum(left + 1, evaluated.size - 1)
    exact = evaluated[left] == n
    weight = np.where(exact, 0.0, (n - evaluated[left])
                      / np.maximum(evaluated[right] - evaluated[left], 1.0))[:, None]

    def spread(figure: Array) -> tuple[Array, Array, Array]:
        rows = figure[1:].reshape(evaluated.size, T)
        return figure[:1], rows[left], rows[right]

    def between(figure: Array) -> Array:
        first, low, high = spread(figure)
        with np.errstate(over="ignore", invalid="ignore"):
            inside = np.where(exact[:, None], low, low + weight * (high - low))
        return np.concatenate([first, inside.ravel()])

    pv, total = between(values.present_value), between(values.total_cost)
    first, low, high = spread(values.feasible)
    ok = np.concatenate([first, (low & (exact[:, None] | high)).ravel()]) & np.isfinite(pv)
    return CandidateValues(pv, total, ok, None)


def _counts_to_evaluate(model: Model, head: str, counts: int) -> Array | None:
    """The counts that :func:`grid_values` evaluates, sorted: each breakpoint of ``head``'s
    value (0, the top and the counts that just cover a month's work) and the counts either side
    of it, within 1..``counts``. None where the chain is not piecewise linear in the count, or
    where they are more than half the counts."""
    if model.scenarios != 1 or not piecewise_linear(model, head):
        return None
    points = breakpoint_counts(model, head, np.array([float(counts)]))[0]
    evaluated = np.unique(np.clip(np.concatenate([points - 1, points, points + 1]), 1, counts))
    return evaluated if 2 * evaluated.size <= counts else None


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


