"""Who does the work: the share of its demand an option serves itself, what its overflow or
fallback costs, and which option is the cheapest when a pass-through ties its target (SPEC §6).

An option with an overflow or fallback is priced with its target's costs folded in, so a free
tier that passes all of its work on costs exactly what its target costs. Such an option is
not the cheapest: the option that does the work is. Arrays over scenarios, shape (S,).
"""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array
from planner.engine.flows import Flows, month_sums

#: An option serving less than this share of its demand serves none of it (rounding noise).
NONE_SERVED = 1e-9
#: Above this share of the horizon's GPU-hours going to the overflow, an owned option is
#: "mostly rented": its machines are too few for the demand (a warning says so).
MOSTLY_OVERFLOW_SHARE = 0.5
#: Relative tolerance of a tie in present value.
TIE = 1e-9


def served_share(flows: Flows, rows: int) -> Array:
    """The share of the option's own GPU-hours of demand over months 1..T that it serves
    itself, not counting what its overflow or fallback target serves; NaN without demand.
    [fraction]

    How much of 100 h of demand does a tier with 30 h of capacity in each of two months of
    50 h serve?

    >>> import numpy as np
    >>> f = Flows(components={}, residual_value=np.zeros(1), needed=np.array([[0, 50., 50.]]),
    ...           served=np.array([[0, 30., 30.]]))
    >>> float(served_share(f, 1)[0])
    0.6
    """
    needed = np.broadcast_to(month_sums(flows.needed), (rows,))
    # A cloud option serves all of its work: the same sum, added up once.
    served = needed if flows.served is flows.needed else np.broadcast_to(
        month_sums(flows.served), (rows,))
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(needed > 0, served / needed, np.nan)
    return np.clip(share, 0.0, 1.0)


def work_share(share: Array, flows: Flows, rows: int) -> Array:
    """``share`` (:func:`served_share`), with 0 where there is no demand (NaN) but the option
    can serve none of it itself: no capacity of its own in its first month of service (0
    machines) or all of its work sent on (a tier whose GPUs cannot take the job): such an
    option serves none of the demand itself whatever the demand (SPEC §6). (S,) [fraction]"""
    none = np.zeros(rows, dtype=bool)
    if flows.capacity is not None:
        none |= np.broadcast_to(np.asarray(flows.capacity) <= 0, (rows,))
    for mask, _ in flows.redirected:
        none |= np.broadcast_to(np.asarray(mask, dtype=bool).reshape(-1), (rows,))
    return np.where(np.isnan(share) & none, 0.0, share)


def serves_none(share: Array) -> Array:
    """Whether an option with this served share passes all of its work on (False where the
    share is NaN: no demand, and the option could serve some itself; :func:`work_share`
    makes it 0 where it could not). (S,) bool"""
    return np.nan_to_num(share, nan=1.0) <= NONE_SERVED


def passed_cost(flows: Flows, rows: int) -> Array | None:
    """The nominal cost of the overflow or fallback over months 0..T: what the target charges
    for the work passed to it, its fixed costs included (SPEC §5.5); None without a target.
    [currency]"""
    for label in ("overflow", "fallback"):
        cost = flows.components.get(label)
        if cost is not None:
            return np.broadcast_to(month_sums(cost), (rows,))
    return None


def passed_cost_share(flows: Flows, rows: int) -> Array | None:
    """``passed_cost`` as a share of all the option's monthly costs over months 0..T (residual
    value not counted; NaN when they sum to zero); None without a target. [fraction]

    What share of $5.21M is $4.55M of overflow?

    >>> import numpy as np
    >>> f = Flows(components={"purchase": np.array([[0.66e6, 0.0]]),
    ...                       "overflow": np.array([[0.0, 4.55e6]])},
    ...           residual_value=np.zeros(1), needed=np.ones((1, 2)), served=np.ones((1, 2)))
    >>> round(float(passed_cost_share(f, 1)[0]), 4)
    0.8733
    """
    cost = passed_cost(flows, rows)
    if cost is None:
        return None
    total = np.broadcast_to(flows.monthly_total, (rows,))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total != 0, cost / total, np.nan)


def mostly_overflow(share: Array) -> Array:
    """Whether an owned option with this served share passes more than
    :data:`MOSTLY_OVERFLOW_SHARE` of the horizon's GPU-hours to its overflow. (S,) bool"""
    return (1.0 - np.nan_to_num(share, nan=1.0)) > MOSTLY_OVERFLOW_SHARE


def cheapest_index(pv: Array, share: Array, target: list[int | None],
                   eligible: Array | None = None) -> Array:
    """The cheapest option of each scenario by SPEC §2 and §6, as an index; −1 when none.

    pv : present value of each option, (S, N); infeasible options +inf. [currency]
    share : each option's served share (:func:`served_share`), (S, N). [fraction]
    target : each option's overflow or fallback target, an index or None.
    eligible : which options may be named, (N,) bool (default: all).

    The lowest present value wins, the first in file order on a tie; an option that serves
    none of its demand and costs the same as its target gives way to that target (followed
    along a chain of such options).
    """
    pv = np.asarray(pv, dtype=float)
    rows, n = pv.shape
    if n == 0:
        return np.full(rows, -1)
    if eligible is not None:
        pv = np.where(np.asarray(eligible, dtype=bool)[None, :], pv, np.inf)
    best = pv.min(axis=1, keepdims=True)
    tie = pv <= best + TIE * np.maximum(np.abs(best), 1.0)
    index = np.argmax(tie, axis=1)
    none = serves_none(share)
    all_rows = np.arange(rows)
    for _ in range(n):  # a chain is at most n options long
        goes_to = np.array([-1 if t is None else t for t in target])[index]
        to = np.maximum(goes_to, 0)
        here, there = pv[all_rows, index], pv[all_rows, to]
        with np.errstate(invalid="ignore"):  # inf − inf where no option is feasible
            tied = np.abs(there - here) <= TIE * np.maximum(np.abs(here), 1.0)
        swap = (goes_to >= 0) & none[all_rows, index] & np.isfinite(there) & tied
        if not swap.any():
            break
        index = np.where(swap, to, index)
    return np.where(np.isfinite(best[:, 0]), index, -1)
