"""A single evaluation turned into the Result of SPEC §2 and the frames behind the report."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from planner.cards.model import FreeTierCard, OwnCard
from planner.engine.answer import headline_pair
from planner.engine.breakeven import pv_at_levels
from planner.engine.figures import Figures, OptionFigures
from planner.engine.flows import COMPONENTS
from planner.engine.sensitivity import DEFAULT_RANGE, sensitivity
from planner.engine.shares import mostly_overflow
from planner.evaluate.provenance import assumption_dicts, assumptions, prices_as_of
from planner.evaluate.workings import (
    buying_cheaper_sides,
    decision_fields,
    intermediate_fields,
)
from planner.messages import Message, Money, Number, Share
from planner.result import Input, Result, category_dtype, with_dtypes
from planner.usage.plausible import plausibility

#: The breakdown's component for owned hardware's value kept at the horizon's end (negative).
RESIDUAL_VALUE = "residual value"
#: Points of the cost-against-usage curve in the report.
USAGE_CURVE_POINTS = 81


def _num(value) -> float | None:
    """A JSON number or None (NaN and infinities are None)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _int_or_none(value) -> int | None:
    value = _num(value)
    return None if value is None else int(value)


def build_result(plan, figures: Figures, sensitivity_range: float = DEFAULT_RANGE) -> Result:
    usage = plan.usage
    model = plan.model
    resolved = plan.resolved
    options = [_option_row(plan, o) for o in figures.options]
    _check_finite(plan, options)
    pairs = [
        {"own": p.own, "versus": p.versus, "months": _num(p.months[0]),
         "system_hours": _num(p.system_hours[0]), "gpu_hours_per_month": _num(
             p.gpu_hours_per_month[0])}
        for p in figures.pairs
        if _feasible(figures, p.own) and _feasible(figures, p.versus)
    ]
    cheapest = int(figures.cheapest[0])
    as_of = sorted(p.as_of for p in resolved.provenance if p.as_of)
    data = {
        "format_version": 1,
        "title": usage["title"],
        "currency": usage["currency"],
        "horizon_months": int(usage["horizon_months"]),
        "hours_per_month": float(usage["hours_per_month"]),
        "discount_rate": float(usage["discount_rate"]),
        "catalog_as_of": as_of[0] if as_of else None,
        **_dates_and_warnings(plan),
        "demand_gpu_hours_per_month": (
            _num(np.asarray(model.demand.level).ravel()[0])
            if model.demand.form == "gpu_hours" else None),
        "options": options,
        "break_even": pairs,
        "cheapest": figures.options[cheapest].name if cheapest >= 0 else None,
    }
    data["uncertainty"] = None
    if plan.usage.get("uncertainty"):  # scipy.stats is imported only for a plan that draws
        from planner.evaluate.uncertainty import uncertainty

        data["uncertainty"] = uncertainty(plan, data, headline_pair(figures))
    mix = None
    if plan.usage.get("mix"):  # the best mix (SPEC §6): the JSON's mix object
        from planner.errors import UserError
        from planner.evaluate.optimize import optimize

        try:
            mix = optimize(plan)
        except UserError:  # no candidate serves the demand, or too many: optimize says why
            data["mix"] = None
        else:
            data["mix"] = mix.to_dict()  # only with a mix: other plans' JSON is unchanged
    names = [row["name"] for row in options]
    currency = data["currency"]
    result = Result(
        data=data,
        monthly=_monthly_frame(figures, names, currency),
        cost_vs_usage=_cost_vs_usage(plan, figures, data, names),
        assumptions=_assumptions(plan),
        inputs=headline_inputs(plan),
        sensitivity=with_dtypes(sensitivity(plan.model, figures, sensitivity_range), currency,
                                categories=dict.fromkeys(
                                    ("cheapest", "cheapest_low", "cheapest_high"), names)),
        breakdown=with_dtypes(_breakdown(figures), currency, categories={
            "option": names, "component": [*COMPONENTS, RESIDUAL_VALUE]}),
        pue=float(np.asarray(resolved.site["pue"]).ravel()[0]),
        **intermediate_fields(plan, figures),
        plan_warnings=plausibility(plan.usage, plan.document),
        **decision_fields(figures),
        mix_result=mix,
        purchase_months=_purchase_months(model),
    )
    result.buying_cheaper_side = buying_cheaper_sides(result.cost_vs_usage, pairs)
    return result


def _purchase_months(model) -> dict[str, int]:
    """Own options bought after month 0 and their purchase month (SPEC §6)."""
    months = {}
    for name, card in model.cards.items():
        month = getattr(card, "purchase_month", None)
        if month is not None and float(np.asarray(month).ravel()[0]) > 0:
            months[name] = int(np.asarray(month).ravel()[0])
    return months


def _check_finite(plan, options: list[dict[str, Any]]) -> None:
    """A feasible option whose costs overflowed (inputs near 1e308, or growth compounded past
    the float range) is refused as a user error at that option, never shown as null costs."""
    from planner.errors import UserError
    from planner.evaluate.overflow import too_large_message

    problems = []
    names = [o.get("name") for o in plan.usage["options"]]
    for row in options:
        if not row["feasible"]:
            continue
        figures = [row["total_cost"], row["present_value"], row["residual_value"],
                   *(row["monthly_cost"] or [])]
        if any(value is None for value in figures):
            index = names.index(row["name"])
            problems.append(plan.document.problem(f"options[{index}]", too_large_message()))
    if problems:
        raise UserError(problems)


def _breakdown(figures: Figures) -> pd.DataFrame:
    """What each feasible option's costs are made of over the horizon: one row per component
    with its quantity, unit and price per unit ("8,760 instance-hours × $2.14")."""
    rows = []
    for o in figures.options:
        if not bool(o.feasible[0]):
            continue
        flows = o.flows
        for component in COMPONENTS:
            cost = flows.components.get(component)
            if cost is None:
                continue
            quantity, unit, price = flows.quantities.get(component, (None, "", None))
            if callable(quantity):
                quantity = quantity()
            if component == "reservation" and flows.reserved_per_term is not None:
                unit = Message("qty.committed_instance_hours_noted",
                               note=reserved_per_term_note(flows.reserved_per_term[0]))
            rows.append({
                "option": o.name, "component": component,
                "quantity": (None if quantity is None
                             else float(np.asarray(quantity)[0].sum())),
                "unit": unit,
                "price": None if price is None else float(np.asarray(price).ravel()[0]),
                "cost": float(np.asarray(cost)[0].sum()),
            })
        if float(np.asarray(flows.residual_value).ravel()[0]):
            rows.append({"option": o.name, "component": RESIDUAL_VALUE, "quantity": None,
                         "unit": "", "price": None,
                         "cost": -float(np.asarray(flows.residual_value).ravel()[0])})
    frame = pd.DataFrame(rows, columns=["option", "component", "quantity", "unit", "price",
                                        "cost"])
    frame.attrs["unit"] = "currency over the horizon"
    return frame


def _free_tier_use(plan, o: OptionFigures) -> dict[str, float | None]:
    """Sessions per week the tier's share of the work takes, and how many calendar days one
    job waits to get its hours out of the quotas."""
    card = plan.model.cards[o.name]
    if not isinstance(card, FreeTierCard) or not bool(o.feasible[0]):
        return {"sessions_per_week": None, "job_wait_days": None}
    model = plan.model
    H = float(np.asarray(model.calendar.hours_per_month).ravel()[0])
    g = min(float(np.asarray(model.demand.gpus).ravel()[0]),
            float(np.asarray(card.gpus).ravel()[0]))
    session = float(np.asarray(card.session_hours).ravel()[0])
    setup = float(np.asarray(card.setup_minutes).ravel()[0]) / 60.0
    served_wall_hours = float(np.asarray(o.flows.served)[0, 1]) / g
    sessions = None
    if np.isfinite(session) and session > setup:
        sessions = served_wall_hours / (session - setup) * 168.0 / H
    wait = None
    capacity = float(np.asarray(o.capacity_gpu_hours_per_month).ravel()[0])
    per_day = capacity / g / (H / 24.0)  # usable wall-clock hours a calendar day
    if card.job_hours is not None and per_day > 0:  # (a subnormal capacity underflows to 0)
        job_wall_hours = float(np.asarray(card.job_hours).ravel()[0])
        wait = job_wall_hours / per_day
    return {"sessions_per_week": _num(sessions), "job_wait_days": _num(wait)}


def _feasible(figures: Figures, name: str) -> bool:
    return any(o.name == name and bool(o.feasible[0]) for o in figures.options)


def _option_row(plan, o: OptionFigures) -> dict[str, Any]:
    card = plan.model.cards[o.name]
    flows = o.flows
    feasible = bool(o.feasible[0])
    reasons = _unique([text for mask, text in flows.infeasible if bool(np.asarray(mask).ravel()[0])])
    warnings = plan.resolved.warnings.get(o.name, []) + _unique(
        [text for mask, text in flows.warnings if bool(np.asarray(mask).ravel()[0])])
    gpus = (card.gpus if not isinstance(card, OwnCard) else card.gpu_count)
    row = {
        "name": o.name,
        "kind": o.kind,
        "feasible": feasible,
        "reasons": reasons,
        "warnings": _unique(warnings),
        "gpu": card.gpu,
        "gpus": _int_or_none(np.asarray(gpus).ravel()[0]),
        "gpu_hours_per_month": _num(o.gpu_hours_per_month[0]),
        "total_cost": _num(o.total_cost[0]),
        "present_value": _num(o.present_value[0]),
        "residual_value": _num(o.residual_value[0]),
        "cost_per_gpu_hour": _num(o.cost_per_gpu_hour[0]),
        "monthly_cost": ([_num(v) for v in flows.monthly_cost[0]] if feasible else None),
        "energy_kwh": None if o.energy_kwh is None else _num(o.energy_kwh[0]),
        "carbon_kg": None if o.carbon_kg is None else _num(o.carbon_kg[0]),
        "capacity_gpu_hours_per_month": (None if o.capacity_gpu_hours_per_month is None
                                         else _num(o.capacity_gpu_hours_per_month[0])),
        "unmet_gpu_hours_per_month": _num(o.unmet_gpu_hours_per_month[0]),
        "first_unmet_month": _int_or_none(o.first_unmet_month[0]),
        "machines": None if o.machines is None else _int_or_none(o.machines[0]),
        "cost_per_owned_gpu_hour": (None if o.cost_per_owned_gpu_hour is None
                                    else _num(o.cost_per_owned_gpu_hour[0])),
        "scaling_efficiency": _num(o.scaling_efficiency[0]),
        "job_days": None if o.job_days is None else _num(o.job_days[0]),
        **_free_tier_use(plan, o),
        **_who_serves(plan, o),
    }
    if row["served_share"] == 0.0:  # a tier that serves nothing has no job that waits
        row["sessions_per_week"] = row["job_wait_days"] = None
    row["warnings"] = _unique(row["warnings"] + _overflow_warnings(plan, o))
    row.update(_reserved_per_term(o))
    return row


def _who_serves(plan, o: OptionFigures) -> dict[str, float | None]:
    """The share of its demand over the horizon the option serves itself, and the nominal
    cost of its overflow or fallback and that cost's share of all its monthly costs (null
    without a target, or when infeasible)."""
    return {
        "served_share": _num(o.served_share[0]),
        "passed_cost": None if o.passed_cost is None else _num(o.passed_cost[0]),
        "passed_cost_share": (None if o.passed_cost_share is None
                              else _num(o.passed_cost_share[0])),
    }


def _overflow_warnings(plan, o: OptionFigures) -> list[Message]:
    """An owned option that passes more than half of the horizon's GPU-hours to its overflow
    is mostly rented: its machines are too few for the demand (and its growth)."""
    if o.kind != "own" or not bool(o.feasible[0]) or o.passed_cost is None:
        return []
    if o.machines is not None and o.machines[0] == 0:  # no machine: all overflow, as asked
        return []
    if not bool(mostly_overflow(o.served_share[:1])[0]):
        return []
    return [Message("warning.mostly_overflow",
                    share=Share(round(1.0 - float(o.served_share[0]), 2)),
                    target=plan.model.target_of[o.name],
                    month=_int_or_none(o.first_unmet_month[0]))]


def _reserved_per_term(o: OptionFigures) -> dict[str, Any]:
    """``reserved_instances_per_term``: the counts committed term by term, on the row of a
    reserved cloud whose file asks for a count per term (per_term or a list); absent
    otherwise, so that rows of a single count read as before."""
    counts = o.flows.reserved_per_term
    if counts is None:
        return {}
    return {"reserved_instances_per_term": (
        [_int_or_none(c) for c in np.asarray(counts)[0]] if bool(o.feasible[0]) else None)}


def reserved_per_term_note(counts) -> Message:
    """"reserved per term: 2, 7, 24 instances", for the counts of one scenario, (terms,)."""
    return Message("note.reserved_per_term",
                   counts=", ".join(str(int(c)) for c in np.asarray(counts, float)))


def _unique(items: list[Message]) -> list[Message]:
    return list(dict.fromkeys(items))


def _categorical(codes: np.ndarray, categories) -> pd.Categorical:
    """A categorical of ``categories`` (in their order) from its codes, as
    ``pd.Categorical(values, categories=categories)`` makes it of the values they stand for,
    without looking each value up."""
    return pd.Categorical.from_codes(codes, dtype=category_dtype(categories))


def _monthly_frame(figures: Figures, names: list[str], currency: str) -> pd.DataFrame:
    """Long form: option, month, component, cost — feasible options only.

    ``option`` is a category of ``names`` (the options in file order), ``month`` a nullable
    integer (``Int64``), ``component`` a category of :data:`COMPONENTS`; ``attrs`` the
    unit and the currency. Built from the flows' arrays in one piece, not row by row."""
    options, components, costs = [], [], []
    for o in figures.options:
        if not bool(o.feasible[0]):
            continue
        for index, component in enumerate(COMPONENTS):
            values = o.flows.components.get(component)
            if values is None:
                continue
            options.append(names.index(o.name) if o.name in names else -1)
            components.append(index)
            costs.append(np.asarray(values)[0])
    if not costs:
        frame = pd.DataFrame(columns=["option", "month", "component", "cost"])
        return with_dtypes(frame, currency, integers=("month",), categories={
            "option": names, "component": COMPONENTS})
    months = np.array([values.size for values in costs])  # T + 1 each
    frame = pd.DataFrame({
        "option": _categorical(np.repeat(np.array(options, dtype=np.int64), months), names),
        "month": pd.array(np.concatenate([np.arange(n) for n in months]), dtype="Int64"),
        "component": _categorical(np.repeat(np.array(components, dtype=np.int64), months),
                                  COMPONENTS),
        "cost": np.concatenate(costs),
    })
    frame.attrs["unit"] = "currency per month"
    frame.attrs["currency"] = currency
    return frame


def _cost_vs_usage(plan, figures: Figures, data: dict[str, Any],
                   names: list[str]) -> pd.DataFrame:
    """Present value and total cost of every option over a range of month-1 demand levels
    (``machines: auto`` at the count chosen for the plan's demand, as the break-even rows).

    ``option`` is a category of ``names`` (the options in file order); ``attrs`` the unit
    (the currency) and the currency."""
    model = figures.model if figures.model is not None else plan.model
    level = float(np.asarray(model.demand.level).ravel()[0])
    marks = [level]
    for pair in data["break_even"]:
        if pair["gpu_hours_per_month"] is not None and model.demand.form != "flops":
            marks.append(pair["gpu_hours_per_month"])
    for name, card in model.cards.items():
        if isinstance(card, (OwnCard, FreeTierCard)):
            option = next(o for o in data["options"] if o["name"] == name)
            cap = option["capacity_gpu_hours_per_month"]
            if cap:
                marks.append(cap / float(np.asarray(card.gpu_hours_per_unit).ravel()[0]))
    top = max(marks) * 1.5 if max(marks) > 0 else 1.0
    levels = np.linspace(0.0, top, USAGE_CURVE_POINTS)[None, :]
    curves = list(model.cards)
    pv, ok = pv_at_levels(model, curves, levels)
    points = levels.shape[1]
    frame = pd.DataFrame({
        "gpu_hours_per_month": np.tile(levels[0], len(curves)),
        "option": _categorical(np.repeat(np.array(
            [names.index(n) if n in names else -1 for n in curves], dtype=np.int64), points),
            names),
        "present_value": np.concatenate(
            [np.where(ok[n][0], pv[n][0], np.nan) for n in curves]).astype(float, copy=False),
    })
    frame.attrs["unit"] = data["currency"]
    frame.attrs["currency"] = data["currency"]
    return frame


def _assumptions(plan) -> list[dict[str, Any]]:
    return assumption_dicts(assumptions(plan))


def _dates_and_warnings(plan) -> dict[str, Any]:
    """The JSON's ``prices_as_of``: the oldest price used (``catalog_as_of`` stays the oldest
    row of any kind, SPEC §2)."""
    return {"prices_as_of": prices_as_of(assumptions(plan))}


def headline_inputs(plan) -> list[Input]:
    """The few inputs that matter most: a label and a value, both messages (the renderer
    formats the value's money, shares and figures)."""
    usage = plan.usage
    currency = usage["currency"]
    d = usage["demand"]
    out = []
    # The demand and its growth in the units the file wrote them in (issue 10, point 9).
    if d.get("gpu_hours_per_week") is not None:
        value = Message("input.gpu_hours_week", hours=Number(d["gpu_hours_per_week"], 0))
    elif d.get("gpu_hours_per_month") is not None:
        value = Message("input.gpu_hours", hours=Number(d["gpu_hours_per_month"], 0))
    elif d.get("utilization") is not None:
        value = Message("input.utilization", share=Share(d["utilization"]), gpus=d["gpus"])
    else:
        value = Message("input.flops", flops=d["flops_per_month"])
    out.append(Input(Message("input.demand"), value))
    # The GPU whose hours the demand counts, named as the catalog names it.
    reference = next((a.item.param("gpu") for a in plan.resolved.provenance
                      if a.item.key == "assumption.reference_gpu"), None)
    if reference is not None:
        out.append(Input(Message("input.reference_gpu"), Message("input.name", name=reference)))
    if d.get("growth_per_month"):
        out.append(Input(Message("input.demand_growth"),
                         Message("input.per_month", share=Share(d["growth_per_month"]))))
    elif d.get("growth_per_year"):
        out.append(Input(Message("input.demand_growth"),
                         Message("input.per_year", share=Share(d["growth_per_year"]))))
    out.append(Input(Message("input.gpus_per_job"), Message("input.count", n=d["gpus"])))
    out.append(Input(Message("input.horizon"),
                     Message("input.months", n=usage["horizon_months"])))
    if usage["discount_rate"]:
        out.append(Input(Message("input.discount_rate"),
                         Message("input.per_year", share=Share(usage["discount_rate"]))))
    site = plan.resolved.site
    if site.get("electricity_per_kwh") is not None:
        price = Money(float(np.asarray(site["electricity_per_kwh"]).ravel()[0]), currency, "kWh")
        if site.get("region") and (usage.get("site") or {}).get("electricity_per_kwh") is None:
            value = Message("input.price_at", price=price, region=site["region"],
                            tariff=Message(f"tariff.{site.get('tariff') or 'business'}"))
        else:
            value = Message("input.price", price=price)
        out.append(Input(Message("input.electricity"), value))
        out.append(Input(Message("input.pue"), Message(
            "input.pue_value", pue=float(np.asarray(site["pue"]).ravel()[0]))))
    return out
