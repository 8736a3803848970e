"""Which pairs of options the answer speaks of: the headline pair and the marked pairs.

Both follow from the cheapest option of a scenario. When it is owned, the answer is about
it against the others; otherwise it is about the owned options against it.
"""

from __future__ import annotations

from planner.engine.figures import Figures


def runner_up(figures: Figures, row: int = 0) -> tuple[str, float] | None:
    """The feasible option next to the cheapest in present value in scenario ``row`` (file
    order on a tie), and what choosing the cheapest saves against it [currency, present
    value]; None without two feasible options.
    """
    cheapest = int(figures.cheapest[row])
    if cheapest < 0:
        return None
    best = figures.options[cheapest]
    others = sorted((o for o in figures.options if o.feasible[row] and o is not best),
                    key=lambda o: o.present_value[row])
    if not others:
        return None
    return others[0].name, float(others[0].present_value[row] - best.present_value[row])


def headline_pair(figures: Figures, row: int = 0) -> tuple[str, str] | None:
    """(own, versus) of the pair the answer speaks of, in scenario ``row``; None if none.

    The cheapest option against the runner-up when the cheapest is owned, else the best owned
    option against the cheapest (the lowest present value; file order on a tie).
    """
    cheapest = int(figures.cheapest[row])
    if cheapest < 0:
        return None
    options = figures.options
    best = options[cheapest]
    feasible = [o for o in options if o.feasible[row]]
    if best.kind == "own":
        others = sorted((o for o in feasible if o is not best),
                        key=lambda o: o.present_value[row])
        return (best.name, others[0].name) if others else None
    owns = sorted((o for o in feasible if o.kind == "own"), key=lambda o: o.present_value[row])
    return (owns[0].name, best.name) if owns else None


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
