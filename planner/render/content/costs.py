"""What the costs are made of, as the report shows them: components over the horizon, the
monthly chart's groups (energy split into IT load and cooling), money paid by year, and
quantity × price = cost per option. The cooling share and every other figure come from the
Result; nothing here recomputes the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.engine.flows import COMPONENTS
from planner.render import fmt, i18n
from planner.render.content.common import (
    component_label,
    feasible_options,
    money_text,
    ranked_options,
    site_pue,
)
from planner.render.i18n import t

if TYPE_CHECKING:
    import pandas as pd

    from planner.result import Result


#: The monthly-cost chart's groups of components, bottom of the stack first. Energy is split
#: into the IT load and cooling, the share of the facility's energy above it (PUE).
COMPONENT_GROUPS = (
    ("purchase", ("purchase", "resale", "financing", "loan_payoff")),
    ("it_energy", ("energy",)),
    ("cooling", ()),
    ("maintenance", ("maintenance",)),
    ("running", ("fixed", "operating")),
    ("rent", ("rental",)),
    ("reserved", ("reservation",)),
    ("storage", ("storage",)),
    ("fee", ("fee",)),
    ("passed", ("overflow", "fallback")),
)


def component_totals(result: Result) -> dict[str, Any]:
    """Cost per component over the horizon for each feasible option, reconciled to the totals.

    Returns ``{"options": [...], "rows": [(component, [text per option]), ...],
    "residual": [...], "total": [...]}``.
    """
    data = result.data
    currency = data["currency"]
    names = [r["name"] for r in ranked_options(result) if r["feasible"]]
    by_name = {r["name"]: r for r in data["options"]}
    monthly = result.monthly
    if monthly is None or monthly.empty or not names:
        return {"options": [], "rows": [], "residual": [], "total": []}
    chosen = monthly[monthly["option"].isin(names)]
    sums = chosen.groupby(["component", "option"], observed=True)["cost"].sum()
    components = [c for c in COMPONENTS if c in sums.index.get_level_values(0)]
    components += sorted(set(sums.index.get_level_values(0)) - set(components))
    rows = []
    for component in components:
        values = [sums.get((component, name)) for name in names]
        if all(fmt.is_missing(v) or v == 0 for v in values):
            continue
        rows.append((component_label(component),
                     [money_text(0.0 if fmt.is_missing(v) else v, currency) for v in values]))
    residual = [money_text(-(by_name[n]["residual_value"] or 0.0), currency) for n in names]
    total = [money_text(by_name[n]["total_cost"], currency) for n in names]
    return {"options": names, "rows": rows, "residual": residual, "total": total}


def grouped_monthly(result: Result, option: str) -> pd.DataFrame:
    """One option's cost per month [currency] in the chart's groups (:data:`COMPONENT_GROUPS`),
    months 0..T as the index; groups that are zero throughout are left out.

    Summed with numpy over the option's rows (a pandas pivot table per option cost a tenth
    of the report's charts): each component's costs added up per month, then the components
    of each group in the group's order."""
    import pandas as pd

    horizon = result.data["horizon_months"]
    monthly = result.monthly
    part = monthly[monthly["option"] == option]
    months = part["month"].to_numpy(dtype=np.int64)
    costs = np.nan_to_num(part["cost"].to_numpy(dtype=float))  # a missing cost adds nothing
    inside = (months >= 0) & (months <= horizon)
    names = part["component"].astype(str).to_numpy()
    table: dict[str, np.ndarray] = {}
    for component in dict.fromkeys(names[inside]):
        column = np.zeros(horizon + 1)
        chosen = inside & (names == component)
        np.add.at(column, months[chosen], costs[chosen])
        table[component] = column

    def summed(columns: list[str]) -> np.ndarray:
        total = np.zeros(horizon + 1)
        for column in columns:
            total = total + table[column]
        return total

    groups = {group: summed([c for c in members if c in table])
              for group, members in COMPONENT_GROUPS}
    known = {c for _, members in COMPONENT_GROUPS for c in members}
    others = [c for c in table if c not in known]
    if others:  # components this code does not know yet count as running costs
        groups["running"] = groups["running"] + summed(others)
    energy = groups["it_energy"]
    workings = result.workings.get(option)
    groups["cooling"] = (np.zeros(horizon + 1) if workings is None else
                         np.asarray(workings.cooling_cost_per_month, dtype=float)[:horizon + 1])
    groups["it_energy"] = energy - groups["cooling"]
    frame = pd.DataFrame({group: groups[group] for group, _ in COMPONENT_GROUPS},
                         index=pd.RangeIndex(horizon + 1, name="month"))
    return frame.loc[:, (frame.abs() > 1e-9).any(axis=0)]


def group_label(group: str) -> str:
    """The chart legend's name of a component group."""
    return t(f"group.{group}")


@dataclass(frozen=True)
class Period:
    """A part of the horizon the cash flow is summed over: months ``first_month`` to
    ``last_month``; ``key`` names it in files ("today", "year_2", "months_25_30")."""

    key: str
    label: str
    first_month: int
    last_month: int


def year_periods(horizon: int) -> list[Period]:
    """Today (month 0), then each 12 months of a ``horizon`` of months (the last may be
    shorter), labelled in the report's language."""
    periods = [Period("today", t("cash.today"), 0, 0)]
    for start in range(1, horizon + 1, 12):
        end = min(start + 11, horizon)
        if end - start == 11:
            year = (start - 1) // 12 + 1
            periods.append(Period(f"year_{year}", t("cash.year", n=year), start, end))
        else:
            periods.append(Period(f"months_{start}_{end}", t("cash.months", a=start, b=end),
                                  start, end))
    return periods


def yearly_cash_flow(result: Result) -> dict[str, Any]:
    """Money paid per year for each feasible option: today (month 0), then each 12 months.

    Returns ``{"periods": [label, ...], "rows": [(option, [text per period]), ...]}``.
    """
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    periods = year_periods(horizon)
    rows = []
    for row in ranked_options(result):
        flows = row.get("monthly_cost")
        if not row["feasible"] or not flows:
            continue
        rows.append((row["name"], [money_text(sum(flows[p.first_month:p.last_month + 1]), currency)
                                   for p in periods]))
    return {"periods": [p.label for p in periods], "rows": rows}


def _quantity(x: float | None) -> str:
    if fmt.is_missing(x):
        return ""
    return fmt.number(x) if abs(x) >= 100 else fmt.figure(x, 2)


def breakdown_tables(result: Result) -> list[dict[str, Any]]:
    """Each feasible option's costs over the horizon as quantity × price = cost.

    One dict per option (cheapest first): ``name``, ``rows`` (each ``component``,
    ``quantity``, ``unit``, ``price``, ``cost`` as text and ``sub`` for a line that details
    the one above it) and ``total``. Components that cost nothing are left out; energy is
    followed by its cooling share.
    """
    frame = result.breakdown
    if frame is None or frame.empty:
        return []
    currency = result.data["currency"]
    pue = site_pue(result)
    tables = []
    for option in feasible_options(result):
        part = frame[frame["option"] == option["name"]]
        workings = result.workings.get(option["name"])
        rows = []
        for item in part.itertuples():
            cost = float(item.cost)
            if abs(cost) < 0.005:
                continue
            residual = item.component == "residual value"
            rows.append({
                "component": component_label(item.component),
                "quantity": "" if residual else _quantity(item.quantity),
                "unit": "" if residual else i18n.text(item.unit or ""),
                "price": "" if fmt.is_missing(item.price) else fmt.price(item.price, currency),
                "cost": money_text(cost, currency),
                "sub": False,
            })
            if item.component == "energy" and pue > 1 and workings is not None:
                rows.append({
                    "component": t("costs.cooling"), "quantity": "",
                    "unit": t("costs.cooling_how", energy=money_text(cost, currency),
                              pue=fmt.figure(pue)),
                    "price": "",
                    "cost": money_text(workings.cooling_cost, currency), "sub": True,
                })
        tables.append({"name": option["name"], "rows": rows,
                       "total": money_text(option["total_cost"], currency)})
    return tables
