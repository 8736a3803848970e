"""Which options the answer speaks of: the runner-up, the headline pair and the marked pairs,
and the options that are the cheapest under another name.

The headline pair answers "buy or not": the best owned option against the best option the
reader would use instead (cloud or free tier). The marked pairs follow from the cheapest
option: when it is owned, its pairs against the others; otherwise the owned options' pairs
against it. An option that serves none of its demand itself (a free tier whose work all
goes to its fallback) is never ranked in place of the option that does the work.
"""

from __future__ import annotations

import numpy as np

from planner.engine.figures import Figures, OptionFigures
from planner.engine.shares import TIE, cheapest_index, serves_none


def _serves_none(option: OptionFigures, row: int) -> bool:
    return bool(serves_none(np.asarray(option.work_share).ravel()[row:row + 1])[0])


def runner_up(figures: Figures, row: int = 0) -> tuple[str, float] | None:
    """The feasible option next to the cheapest in present value in scenario ``row`` (file
    order on a tie), and what choosing the cheapest saves against it [currency, present
    value]; None without two feasible options.

    Options that serve none of their demand themselves are passed over while another option
    does some work: each is its target plus its own fees, never a choice of its own.
    """
    cheapest = int(figures.cheapest[row])
    if cheapest < 0:
        return None
    best = figures.options[cheapest]
    others = sorted((o for o in figures.options if o.feasible[row] and o is not best),
                    key=lambda o: o.present_value[row])
    working = [o for o in others if not _serves_none(o, row)]
    others = working or others
    if not others:
        return None
    return others[0].name, float(others[0].present_value[row] - best.present_value[row])


def _stacked(figures: Figures, row: int) -> tuple[np.ndarray, np.ndarray]:
    """Present values (+inf where infeasible) and served shares of scenario ``row``, (1, N)."""
    pv = np.array([[float(o.present_value[row]) if o.feasible[row] else np.inf
                    for o in figures.options]])
    share = np.array([[float(np.asarray(o.work_share).ravel()[row])
                       for o in figures.options]])
    return pv, share


def headline_pair(figures: Figures, row: int = 0) -> tuple[str, str] | None:
    """(own, versus) of the pair the answer speaks of, in scenario ``row``; None if none.

    "Buy or not": the best owned option (the lowest present value; file order on a tie)
    against the best option the reader would use instead, the cheapest cloud or free tier by
    the rule of ``cheapest`` (SPEC §6: a free tier that passes all of its work on at the same
    cost gives way to its target). Without a feasible cloud or free tier, the best owned
    option against the next owned one; None without a feasible owned option.
    """
    options = figures.options
    if not options:
        return None
    feasible = [o for o in options if o.feasible[row]]
    owns = sorted((o for o in feasible if o.kind == "own"), key=lambda o: o.present_value[row])
    if not owns:
        return None
    pv, share = _stacked(figures, row)
    target = figures.target or [None] * len(options)
    instead = int(cheapest_index(pv, share, target,
                                 np.array([o.kind != "own" for o in options]))[0])
    if instead >= 0:
        return owns[0].name, options[instead].name
    return (owns[0].name, owns[1].name) if len(owns) > 1 else None


def same_as_cheapest(figures: Figures, row: int = 0) -> list[str]:
    """The feasible options, in file order, that serve none of their demand themselves and
    pass it along their chain of targets to the cheapest option at the same present value:
    the cheapest under another name (the report says so)."""
    cheapest = int(figures.cheapest[row])
    if cheapest < 0:
        return []
    options = figures.options
    best = float(options[cheapest].present_value[row])
    target = figures.target or [None] * len(options)
    out = []
    for i, o in enumerate(options):
        if i == cheapest or not o.feasible[row] or not _serves_none(o, row):
            continue
        if abs(float(o.present_value[row]) - best) > TIE * max(abs(best), 1.0):
            continue
        seen, j = {i}, target[i]
        while j is not None and j != cheapest and j not in seen:
            seen.add(j)
            j = target[j]
        if j == cheapest:
            out.append(o.name)
    return out


def marked_pairs(figures: Figures, row: int = 0) -> list[tuple[str, str]]:
    """(own, versus) of the break-even pairs the answer is about, in scenario ``row``, in the
    order of ``figures.pairs``: with an own option cheapest, its pairs against the others;
    with another option cheapest, the own options' pairs against it; none without a
    feasible option. Only pairs of two feasible options count (SPEC §5.6's rows)."""
    cheapest = int(figures.cheapest[row])
    if cheapest < 0:
        return []
    feasible = {o.name for o in figures.options if o.feasible[row]}
    best = figures.options[cheapest]
    pairs = [(p.own, p.versus) for p in figures.pairs
             if p.own in feasible and p.versus in feasible]
    if best.kind == "own":
        return [pair for pair in pairs if pair[0] == best.name]
    return [pair for pair in pairs if pair[1] == best.name]
