"""What changes the answer: each key input moved down and up over a range, one at a time.

All the moved scenarios are evaluated at once by the array engine (one model of 1 + 2·K
scenarios: the plan itself, then every input low and high). For each input the result says
where the break-even month of the headline pair lands and which option is then the cheapest.

The headline pair is the one the report's answer speaks of
(:func:`planner.engine.answer.headline_pair`): "buy or not", the best owned option against
the best cloud or free tier.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from planner.cards.model import Array, CloudCard, Model, OwnCard
from planner.engine.answer import headline_pair
from planner.engine.figures import Figures, compute
from planner.messages import Message

#: Default relative move of every input, down and up.
DEFAULT_RANGE = 0.25


@dataclass(frozen=True)
class Input:
    """One input the analysis moves: its label (a message) and how a factor (S, 1) changes the
    model."""

    label: Message
    apply: Callable[[Model, Array], Model]


def _scaled_cards(model: Model, names: list[str], fields: tuple[str, ...], factor: Array) -> Model:
    cards = dict(model.cards)
    for name in names:
        card = cards[name]
        changes = {f: getattr(card, f) * factor for f in fields
                   if getattr(card, f, None) is not None}
        cards[name] = dataclasses.replace(card, **changes)
    return dataclasses.replace(model, cards=cards)


def key_inputs(model: Model) -> list[Input]:
    """The inputs that usually decide: demand, its growth, electricity, every option's price,
    the discount rate; only those that are not zero."""
    d, cal = model.demand, model.calendar
    owns = [n for n, c in model.cards.items() if isinstance(c, OwnCard)]
    clouds = [n for n, c in model.cards.items() if isinstance(c, CloudCard)]
    inputs = [Input(Message("input.demand"), lambda m, f: dataclasses.replace(
        m, demand=dataclasses.replace(m.demand, level=m.demand.level * f)))]
    if np.any(d.growth_per_year != 0):
        inputs.append(Input(Message("input.demand_growth"), lambda m, f: dataclasses.replace(
            m, demand=dataclasses.replace(m.demand, growth_per_year=m.demand.growth_per_year * f))))
    if owns and any(np.any(model.cards[n].electricity_per_kwh != 0) for n in owns):
        inputs.append(Input(Message("input.electricity_price"), lambda m, f: _scaled_cards(
            m, owns, ("electricity_per_kwh",), f)))
    for name in owns:
        label = Message("input.price_of", name=name)
        inputs.append(Input(label, lambda m, f, n=name: _scaled_cards(
            m, [n], ("purchase_price",), f)))
    for name in clouds:
        label = Message("input.prices_of", name=name)
        inputs.append(Input(label, lambda m, f, n=name: _scaled_cards(
            m, [n], ("price_per_hour", "on_demand_price_per_hour", "reserved_price_per_hour",
                     "storage_per_gb_month"), f)))
    if np.any(cal.discount_rate != 0):
        inputs.append(Input(Message("input.discount_rate"), lambda m, f: dataclasses.replace(
            m, calendar=dataclasses.replace(m.calendar, discount_rate=m.calendar.discount_rate
                                            * f))))
    return inputs


def sensitivity(model: Model, base: Figures, spread: float = DEFAULT_RANGE) -> pd.DataFrame:
    """Each key input moved by −spread and +spread (relative), one at a time.

    Columns: ``input``, ``low``/``high`` (the factors), ``months_low``/``months_high`` (the
    headline pair's break-even month; NaN: never), ``cheapest_low``/``cheapest_high``, and the
    plan's own ``months`` and ``cheapest``. One row per input, the widest swing first.
    """
    if model.scenarios != 1:
        raise ValueError("sensitivity takes a single-scenario model")
    inputs = key_inputs(model)
    pair = headline_pair(base)
    n = len(inputs)
    columns = ["input", "low", "high", "months", "months_low", "months_high", "cheapest",
               "cheapest_low", "cheapest_high"]
    if n == 0:
        return pd.DataFrame(columns=columns)
    factors = np.ones((2 * n, 1))
    moved = model
    for i, item in enumerate(inputs):
        factor = np.ones((2 * n, 1))
        factor[2 * i, 0] = 1 - spread
        factor[2 * i + 1, 0] = 1 + spread
        moved = item.apply(moved, factor)
        factors = factors * factor
    figures = compute(moved, break_even=False)
    names = [o.name for o in figures.options] + [None]
    cheapest = [names[i] for i in figures.cheapest]
    months = np.full(2 * n, np.nan)
    base_months = np.nan
    if pair is not None:
        for p in figures.pairs:
            if (p.own, p.versus) == pair:
                months = p.months
        for p in base.pairs:
            if (p.own, p.versus) == pair:
                base_months = float(p.months[0])
    base_name = names[int(base.cheapest[0])]
    horizon = model.calendar.horizon_months
    months_low, months_high = months[0::2], months[1::2]
    cheapest_low, cheapest_high = cheapest[0::2], cheapest[1::2]
    # The widest swing first: the months moved either way (never: the horizon), plus the
    # horizon where another option becomes the cheapest (none feasible differs from all).
    changed = np.array([_differs(low, base_name) or _differs(high, base_name)
                        for low, high in zip(cheapest_low, cheapest_high)], dtype=bool)
    with np.errstate(all="ignore"):  # as pandas' arithmetic: NaN stands for never
        swing = (np.abs(np.nan_to_num(months_high - base_months, nan=horizon))
                 + np.abs(np.nan_to_num(months_low - base_months, nan=horizon))
                 + horizon * changed)
    order = np.argsort(-swing, kind="stable")
    frame = pd.DataFrame({
        "input": [inputs[i].label for i in order],
        "low": np.full(n, 1 - spread), "high": np.full(n, 1 + spread),
        "months": np.full(n, base_months),
        "months_low": months_low[order], "months_high": months_high[order],
        "cheapest": [base_name] * n,
        "cheapest_low": [cheapest_low[i] for i in order],
        "cheapest_high": [cheapest_high[i] for i in order],
    }, columns=columns)
    frame.attrs["pair"] = pair
    frame.attrs["spread"] = spread
    return frame


def _differs(name: str | None, other: str | None) -> bool:
    """Whether two cheapest options differ, None (none feasible) differing from everything,
    itself too (as pandas compares missing values)."""
    return name is None or other is None or name != other
