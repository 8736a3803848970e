"""The appendix: the model's rules in plain notation, and every option's figures redone by
hand from the Result's own numbers and intermediate figures (``Result.workings``,
``Result.discount_factor_per_month``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from planner.engine.flows import COMPONENTS
from planner.render import fmt
from planner.render.content.common import feasible_options, kinds_of, money_text, site_pue
from planner.render.i18n import t

if TYPE_CHECKING:
    from planner.result import BreakEvenCrossing, Result


def formulas(result: Result) -> list[dict[str, str]]:
    """The model's rules in plain notation, those that apply to this plan's options, each
    ``{"name", "formula"}``."""
    kinds = set(kinds_of(result).values())
    components = set()
    if result.breakdown is not None and not result.breakdown.empty:
        components = set(result.breakdown["component"])
    wanted = ["symbols", "discount", "demand", "total", "pv", "per_hour"]
    if "cloud" in kinds:
        wanted += ["instance_hours", "rent"]
        if "reservation" in components:
            wanted.append("reserved")
    if "own" in kinds:
        # the fleet forms where any machine count is not 1 or a purchase is not in month 0
        fleet = _has_fleet(result)
        wanted += [f"capacity{fleet}", f"energy{fleet}", "cooling", f"running{fleet}",
                   f"residual{fleet}"]
        if "financing" in components:
            wanted.append("loan")
    if "free_tier" in kinds:
        wanted.append("free_tier")
    if result.data.get("break_even"):
        wanted += ["break_even_months", "break_even_usage"]
    return [{"name": t(f"f.{key.removesuffix('_fleet')}"), "formula": t(f"fx.{key}")}
            for key in wanted]


def _has_fleet(result: Result) -> str:
    """``"_fleet"`` where an own option has a machine count other than 1 or buys after month 0
    (SPEC §6), else ``""``: the suffix of the formulas' keys that say n and p."""
    machines = result.options.get("machines") if result.options is not None else None
    counts = [] if machines is None else [int(n) for n in machines.dropna()]
    late = any(month > 0 for month in result.purchase_months.values())
    return "_fleet" if late or any(n != 1 for n in counts) else ""


def _plain(x: float) -> str:
    """An amount in a calculation: whole units with separators, no currency symbol."""
    return fmt.number(x)


def _sum_text(values: list[float]) -> str:
    text = _plain(values[0]) if values else "0"
    for value in values[1:]:
        text += (" − " if value < 0 else " + ") + _plain(abs(value))
    return text


def worked_figures(result: Result) -> list[dict[str, Any]]:
    """Every option's figures redone by hand from the report's own numbers.

    One dict per feasible option: ``name`` and ``rows`` of ``(figure, calculation, result)``
    text: total cost as the sum of its components, present value with the discount factors,
    cost per GPU-hour, the cooling share of energy, and each break-even month from the
    cumulative costs.
    """
    data = result.data
    currency, horizon, rate = data["currency"], data["horizon_months"], data["discount_rate"]
    monthly = result.monthly
    pue = site_pue(result)
    factors = result.discount_factor_per_month
    groups = []
    for option in feasible_options(result):
        name = option["name"]
        workings = result.workings.get(name)
        rows = []
        flows = np.asarray(option["monthly_cost"], dtype=float)
        residual = float(option["residual_value"] or 0.0)
        parts = []
        if monthly is not None and not monthly.empty:
            sums = monthly[monthly["option"] == name].groupby("component", observed=True)["cost"].sum()
            parts = [float(sums[c]) for c in COMPONENTS if c in sums and abs(sums[c]) >= 0.5]
        if not parts:
            parts = [float(flows.sum())]
        values = parts + ([-residual] if residual else [])
        rows.append((t("worked.total"), _sum_text(values), money_text(option["total_cost"], currency)))
        if rate and workings is not None and len(factors) > horizon:
            discounted, v_t = workings.discounted_cost, float(factors[horizon])
            text = t("worked.pv_sum", flows=_plain(discounted))
            if residual:
                text = t("worked.pv_rv", flows=_plain(discounted), T=horizon,
                         v_T=f"{v_t:.4f}", rv=_plain(residual))
            rows.append((t("worked.pv"), text, money_text(option["present_value"], currency)))
        demand = None if workings is None else workings.demand_gpu_hours
        if not fmt.is_missing(demand) and demand > 0:
            rows.append((t("worked.per_hour"),
                         (f"{_plain(option['total_cost'])} / {fmt.number(demand)} "
                         f"{t('worked.demand')}"),
                         fmt.money(option["cost_per_gpu_hour"], currency, decimals=2)))
        if workings is not None and pue > 1 and abs(workings.energy_cost) >= 0.5:
            rows.append((t("worked.cooling"),
                         f"{_plain(workings.energy_cost)} × (1 − 1/{fmt.figure(pue)})",
                         money_text(workings.cooling_cost, currency)))
        for pair in data.get("break_even") or []:
            if pair["own"] != name:
                continue
            crossing = result.break_even_crossings.get((pair["own"], pair["versus"]))
            if crossing is None:
                continue
            rows.append((t("worked.break_even", versus=pair["versus"]),
                         _break_even_text(crossing, pair["months"], horizon),
                         fmt.months(pair["months"], 2)))
        groups.append({"name": name, "rows": rows})
    return groups


def _break_even_text(crossing: BreakEvenCrossing, months: float | None, horizon: int) -> str:
    """A break-even month as its calculation from the cumulative costs (SPEC §5.6)."""
    k = crossing.last_month_above
    if k < 0:
        return t("worked.start")
    if k >= horizon or fmt.is_missing(months):
        return t("worked.never", T=horizon)
    a, b = crossing.cost_gap_at_last_month, crossing.cost_gap_after_last_month
    return t("worked.months", k=k, k1=k + 1, a=_plain(a), b=_plain(b), bn=_plain(-b),
             months=f"{months:.2f}")
