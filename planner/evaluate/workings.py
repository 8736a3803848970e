"""The intermediate figures of a single evaluation that the report prints (issue 9, "answers
as data"): the runner-up and the saving against it, discount factors, the pairs the answer
speaks of, where overflow and fallback go,
each feasible option's workings (discounted cost, demand, energy and its cooling share), the
bracket of each break-even month and on which side of its break-even usage buying is cheaper. The renderer formats them and recomputes none.

:func:`intermediate_fields` gives them as keyword arguments of :class:`planner.result.Result`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from planner.engine.answer import headline_pair, marked_pairs, runner_up, same_as_cheapest
from planner.engine.breakeven import last_month_above_with_steps
from planner.engine.figures import Figures, OptionFigures
from planner.engine.months import discount
from planner.result import BreakEvenCrossing, OptionWorkings, is_missing


def cooling_share(energy_cost, pue: float):
    """The share of an energy cost that cools the facility: energy × (1 − 1/PUE).

    energy_cost : the facility's energy cost (IT load × PUE). [currency]
    pue : power usage effectiveness, at least 1 (a smaller one counts as 1). [ratio]

    What part of $1,100 of energy is cooling at a PUE of 1.1?

    >>> round(cooling_share(1100.0, 1.1), 6)
    100.0
    """
    return energy_cost * (1 - 1 / max(1.0, pue))


def intermediate_fields(plan, figures: Figures) -> dict[str, Any]:
    """The Result's intermediate figures of scenario 0, by field name."""
    pue = float(np.asarray(plan.resolved.site["pue"]).ravel()[0])
    horizon = plan.model.calendar.horizon_months
    factors = np.broadcast_to(np.asarray(discount(plan.model), dtype=float),
                              (1, horizon + 1))[0].copy()
    second = runner_up(figures)
    return {
        "runner_up": None if second is None else second[0],
        "saving_vs_runner_up": None if second is None else second[1],
        "discount_factor_per_month": factors,
        "headline_pair": headline_pair(figures),
        "marked_break_even_pairs": marked_pairs(figures),
        "passed_to": dict(plan.model.target_of),
        "workings": {o.name: option_workings(o, factors, pue)
                     for o in figures.options if bool(o.feasible[0])},
        "break_even_crossings": crossings(figures),
    }


def decision_fields(figures: Figures) -> dict[str, Any]:
    """Who does the work, by field name of :class:`planner.result.Result` (scenario 0): the
    options that are the cheapest under another name (they serve none of their demand and
    pass it to the cheapest at the same cost)."""
    return {"same_as_cheapest": same_as_cheapest(figures)}


def buying_cheaper_sides(cost_vs_usage: pd.DataFrame,
                         break_even: list[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """On which side of each pair's break-even usage buying is cheaper, "above" or "below"
    (left out when the cost-against-usage curves cannot tell): the two options compared at
    the curve's levels next to it, those where both have a present value."""
    out = {}
    if cost_vs_usage is None or cost_vs_usage.empty:
        return out
    curves = _curves(cost_vs_usage)
    if curves is None:  # levels repeated or not in order: pandas lines them up
        return _buying_cheaper_sides_pivoted(cost_vs_usage, break_even)
    levels, pv = curves
    for row in break_even:
        own, versus, level = row["own"], row["versus"], row["gpu_hours_per_month"]
        if is_missing(level) or own not in pv or versus not in pv:
            continue
        both = ~np.isnan(pv[own]) & ~np.isnan(pv[versus])
        at, mine, theirs = levels[both], pv[own][both], pv[versus][both]
        below, above = np.flatnonzero(at < level), np.flatnonzero(at > level)
        if below.size == 0 or above.size == 0:
            continue
        low, high = below[-1], above[0]
        if mine[low] > theirs[low] and mine[high] <= theirs[high]:
            out[(own, versus)] = "above"
        elif mine[low] < theirs[low] and mine[high] >= theirs[high]:
            out[(own, versus)] = "below"
    return out


def _curves(cost_vs_usage: pd.DataFrame) -> tuple[np.ndarray, dict[str, np.ndarray]] | None:
    """The cost-against-usage frame as one array of levels and each option's present values
    at them (options whose values are all NaN left out, as a pivot leaves them out), or None
    unless every option has the same levels, finite and strictly increasing."""
    gpu_hours = cost_vs_usage["gpu_hours_per_month"].to_numpy(dtype=float)
    values = cost_vs_usage["present_value"].to_numpy(dtype=float)
    option = cost_vs_usage["option"]
    if not isinstance(option.dtype, pd.CategoricalDtype):
        return None
    codes = option.cat.codes.to_numpy()
    levels, pv = None, {}
    for code, name in enumerate(option.cat.categories):
        rows = np.flatnonzero(codes == code)
        if rows.size == 0:
            continue
        if levels is None:
            levels = gpu_hours[rows]
            if not (np.all(np.isfinite(levels)) and np.all(np.diff(levels) > 0)):
                return None
        elif not np.array_equal(gpu_hours[rows], levels):
            return None
        if not np.all(np.isnan(values[rows])):
            pv[name] = values[rows]
    if levels is None or np.any(codes < 0):
        return None
    return levels, pv


def _buying_cheaper_sides_pivoted(cost_vs_usage: pd.DataFrame,
                                  break_even: list[dict[str, Any]]
                                  ) -> dict[tuple[str, str], str]:
    """:func:`buying_cheaper_sides` of any long frame: levels repeated (the first value at a
    level counts) or out of order, lined up by a pivot."""
    out = {}
    wide = cost_vs_usage.pivot_table(index="gpu_hours_per_month", columns="option",
                                     values="present_value", aggfunc="first",
                                     observed=True)
    for row in break_even:
        own, versus, level = row["own"], row["versus"], row["gpu_hours_per_month"]
        if is_missing(level) or own not in wide.columns or versus not in wide.columns:
            continue
        pair = wide[[own, versus]].dropna()
        below, above = pair[pair.index < level], pair[pair.index > level]
        if below.empty or above.empty:
            continue
        low, high = below.iloc[-1], above.iloc[0]
        if low[own] > low[versus] and high[own] <= high[versus]:
            out[(own, versus)] = "above"
        elif low[own] < low[versus] and high[own] >= high[versus]:
            out[(own, versus)] = "below"
    return out


def crossings(figures: Figures) -> dict[tuple[str, str], BreakEvenCrossing]:
    """The bracket of each break-even month of scenario 0, for the pairs of two feasible
    options (SPEC §5.6's rows)."""
    costs = {o.name: np.asarray(o.flows.monthly_cost, dtype=float)[:1]
             for o in figures.options if bool(o.feasible[0])}
    steps = {o.name: None if o.flows.steps is None else np.asarray(o.flows.steps)[:1]
             for o in figures.options}
    out = {}
    for p in figures.pairs:
        if p.own not in costs or p.versus not in costs:
            continue
        own, other = np.broadcast_arrays(costs[p.own], costs[p.versus])
        last, gap, after, at_step = last_month_above_with_steps(
            np.cumsum(own, axis=1), np.cumsum(other, axis=1), steps[p.own], steps[p.versus])
        if bool(at_step[0]):  # the break-even is a purchase's step: no line to interpolate
            continue
        out[(p.own, p.versus)] = BreakEvenCrossing(int(last[0]), float(gap[0]), float(after[0]))
    return out


def option_workings(o: OptionFigures, discount_per_month: np.ndarray,
                    pue: float) -> OptionWorkings:
    """One feasible option's workings in scenario 0 (see :class:`OptionWorkings`)."""
    monthly_cost = np.asarray(o.flows.monthly_cost, dtype=float)[0]
    energy = o.flows.components.get("energy")
    energy_per_month = (np.zeros(monthly_cost.size) if energy is None
                        else np.asarray(energy, dtype=float)[0])
    energy_cost = float(energy_per_month.sum())
    demand = None if o.demand_gpu_hours is None else float(np.asarray(o.demand_gpu_hours)[0])
    return OptionWorkings(
        discounted_cost=float((discount_per_month * monthly_cost).sum()),
        demand_gpu_hours=demand if demand is not None and np.isfinite(demand) else None,
        energy_cost=energy_cost,
        cooling_cost=float(cooling_share(energy_cost, pue)),
        cooling_cost_per_month=cooling_share(energy_per_month, pue),
    )
