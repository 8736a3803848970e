"""What a report says, as plain data: the answer, the tables, the notes.

Every format (HTML and PDF, Markdown, the terminal summary) is drawn from these functions, so
the recommendation and every figure read the same in all of them. All text formatting goes
through :mod:`planner.render.fmt`, and every fixed text through the catalog of
:mod:`planner.render.i18n` (English unless the caller is inside ``i18n.language("zh")``).
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.engine.tco import COMPONENTS
from planner.render import fmt
from planner.render.i18n import current, engine_sentence, engine_text, join, t

if TYPE_CHECKING:
    import pandas as pd

    from planner.result import Result

KIND_LABELS = {"cloud": "cloud", "own": "own", "free_tier": "free tier"}
KIND_VERBS = {"cloud": "Rent", "own": "Buy", "free_tier": "Use"}
#: Prices older than this at the report's date get a warning.
STALE_AFTER_DAYS = 180
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


def _options(result: Result) -> list[dict[str, Any]]:
    return list(result.data["options"])


def _kinds(result: Result) -> dict[str, str]:
    return {row["name"]: row["kind"] for row in result.data["options"]}


def _verb(kind: str) -> str:
    return t(f"verb.{kind}") if kind in KIND_VERBS else t("verb.other")


def _money(amount: float | None, currency: str) -> str:
    return fmt.money(amount, currency, decimals=0)


def _discounted(result: Result) -> bool:
    return bool(result.data["discount_rate"])


def ranked_options(result: Result) -> list[dict[str, Any]]:
    """Feasible options by present value (file order on a tie), then the infeasible ones."""
    rows = _options(result)
    feasible = [r for r in rows if r["feasible"] and not fmt.is_missing(r["present_value"])]
    feasible.sort(key=lambda r: r["present_value"])
    return feasible + [r for r in rows if r not in feasible]


def _feasible(result: Result) -> list[dict[str, Any]]:
    return [r for r in ranked_options(result) if r["feasible"]
            and not fmt.is_missing(r["present_value"])]


def marked_break_even(result: Result) -> list[dict[str, Any]]:
    """The break-even rows the answer is about (``result.marked_break_even_pairs``, chosen by
    :func:`planner.engine.answer.marked_pairs`), in the result's order."""
    marked = set(result.marked_break_even_pairs)
    return [row for row in result.data.get("break_even") or []
            if (row["own"], row["versus"]) in marked]


def headline_pair(result: Result) -> dict[str, Any] | None:
    """The break-even row of the pair the answer speaks of (``result.headline_pair``, chosen
    by :func:`planner.engine.answer.headline_pair`, the pair the sensitivity moves), or None."""
    pair = result.headline_pair
    if pair is None:
        return None
    return next((row for row in result.data.get("break_even") or []
                 if (row["own"], row["versus"]) == pair), None)


# -- the answer -------------------------------------------------------------------------------


def _verdict(result: Result) -> str:
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    options = _options(result)
    cheapest = data.get("cheapest")
    if cheapest is None:
        if len(options) == 1:
            return t("verdict.only_infeasible")
        return t("verdict.none_feasible", count=len(options))
    best = next(r for r in options if r["name"] == cheapest)
    runners = [r for r in _feasible(result) if r["name"] != cheapest]
    if _discounted(result):
        figure = t("verdict.figure_pv", money=_money(best["present_value"], currency),
                   rate=fmt.percent(data["discount_rate"]))
    else:
        figure = t("verdict.figure_total", money=_money(best["total_cost"], currency))
    sentence = t("verdict.cheapest", verb=_verb(best["kind"]), name=cheapest, months=horizon,
                 figure=figure)
    if runners and not fmt.is_missing(best["present_value"]):
        saving = runners[0]["present_value"] - best["present_value"]
        sentence += t("verdict.saving", money=_money(saving, currency), name=runners[0]["name"])
    else:
        sentence += t("verdict.only")
    return sentence


def _pays_off(row: dict[str, Any]) -> str:
    if row["months"] == 0:
        return t("pays.start", versus=row["versus"])
    return t("pays.after", months=fmt.months(row["months"]), versus=row["versus"])


def _break_even_sentence(result: Result) -> str:
    data = result.data
    horizon = data["horizon_months"]
    cheapest = data.get("cheapest")
    rows = marked_break_even(result)
    if cheapest is None or not rows:
        return ""
    if _kinds(result).get(cheapest) == "own":
        paying = sorted((r for r in rows if not fmt.is_missing(r["months"])),
                        key=lambda r: r["months"])
        never = [r["versus"] for r in rows if fmt.is_missing(r["months"])]
        if not paying:
            return t("pays.never_own", months=horizon, names=join(never))
        sentence = t("pays.sentence", parts=join([_pays_off(r) for r in paying]))
        if never:
            sentence += t("pays.never_tail", months=horizon, names=join(never))
        return sentence + t("period")
    never = [r["own"] for r in rows if fmt.is_missing(r["months"])]
    paying = [r for r in rows if not fmt.is_missing(r["months"])]
    parts = []
    if never:
        parts.append(t("pays.never_other", months=horizon, owns=join(never), name=cheapest))
    for row in paying:
        parts.append(t("pays.but_dearer", own=row["own"], pays=_pays_off(row)))
    return _sentences(parts)


def break_even_sentence(result: Result) -> str:
    """When buying pays off against the options the answer is about ("" when no pair is)."""
    return _break_even_sentence(result)


def _sentences(parts: list[str]) -> str:
    return ("" if current() == "zh" else " ").join(p for p in parts if p)


def recommendation(result: Result) -> str:
    """The answer in one or two sentences: what to choose, what it saves, when buying pays."""
    return _sentences([_verdict(result), _break_even_sentence(result)])


def _split_lead(result: Result, text: str) -> tuple[str, str]:
    """``text`` split after its lead, "Buy workstation:" (the option's name may hold a colon
    too)."""
    cheapest = result.data.get("cheapest")
    kind = _kinds(result).get(cheapest, "")
    start = f"{_verb(kind)} {cheapest}"
    for separator in ("：", ": "):
        if text.startswith(start + separator):
            return start + separator.strip(), text[len(start + separator):]
    return "", text


def recommendation_parts(result: Result) -> tuple[str, str]:
    """:func:`recommendation` split after its lead ("Buy workstation:") for emphasis.

    The lead is empty when there is no option to recommend; ``lead + " " + rest`` (without the
    space when the lead is empty) is the recommendation.
    """
    text = recommendation(result)
    if result.data.get("cheapest") is None:
        return "", text
    return _split_lead(result, text)


def decision(result: Result) -> str:
    """The decision in one sentence: "Buy workstation: the cheapest of the 4 options over 36
    months." (without a feasible option, why there is none)."""
    data = result.data
    cheapest = data.get("cheapest")
    if cheapest is None:
        return _verdict(result)
    options = _options(result)
    best = next(r for r in options if r["name"] == cheapest)
    values = {"verb": _verb(best["kind"]), "name": cheapest, "count": len(options),
              "months": data["horizon_months"]}
    if len(options) == 1:
        return t("decision.single", **values)
    if len(_feasible(result)) == 1:
        return t("decision.only", **values)
    return t("decision.cheapest", **values)


def decision_parts(result: Result) -> tuple[str, str]:
    """:func:`decision` split after its lead, like :func:`recommendation_parts`."""
    if result.data.get("cheapest") is None:
        return "", decision(result)
    return _split_lead(result, decision(result))


def key_figures(result: Result) -> list[dict[str, str]]:
    """The three numbers behind the decision, each ``{"value", "label"}``: what the
    recommended option costs over the horizon, what it saves against the runner-up, and when
    buying pays off. Empty without a feasible option."""
    data = result.data
    cheapest = data.get("cheapest")
    if cheapest is None:
        return []
    currency, horizon = data["currency"], data["horizon_months"]
    best = next(r for r in data["options"] if r["name"] == cheapest)
    if _discounted(result):
        cost = {"value": _money(best["present_value"], currency),
                "label": t("tile.pv", name=cheapest, months=horizon,
                           rate=fmt.percent(data["discount_rate"]),
                           total=_money(best["total_cost"], currency))}
    else:
        cost = {"value": _money(best["total_cost"], currency),
                "label": t("tile.total", name=cheapest, months=horizon)}
    runners = [r for r in _feasible(result) if r["name"] != cheapest]
    if runners:
        saving = {"value": _money(runners[0]["present_value"] - best["present_value"], currency),
                  "label": t("tile.saving", name=runners[0]["name"],
                             basis=t("tile.saving_pv") if _discounted(result) else "")}
    else:
        saving = {"value": fmt.MISSING, "label": t("tile.no_runner")}
    return [cost, saving, _payoff_figure(result)]


def _payoff_figure(result: Result) -> dict[str, str]:
    row = headline_pair(result)
    if row is None:
        return {"value": fmt.MISSING, "label": t("tile.no_own")}
    names = {"own": row["own"], "versus": row["versus"]}
    value = fmt.break_even_months(row["months"])
    if fmt.is_missing(row["months"]):
        return {"value": value,
                "label": t("tile.payoff_never", months=result.data["horizon_months"], **names)}
    if row["months"] == 0:
        return {"value": value, "label": t("tile.payoff_start", **names)}
    return {"value": value, "label": t("tile.payoff", **names)}


def _quoted(label: str) -> str:
    return f"\u201c{engine_text(label)}\u201d"


def risk_sentence(result: Result) -> str:
    """What could change the answer, from the sensitivity analysis ("" without one): which
    option becomes the cheapest when an input moves, else that none does, and which input moves
    the break-even month most."""
    frame = result.sensitivity
    if frame is None or frame.empty or result.data.get("cheapest") is None:
        return ""
    spread = fmt.percent(frame.attrs.get("spread", float(frame["high"].iloc[0]) - 1))
    changes: dict[str | None, list[str]] = {}
    for row in frame.itertuples():
        base = option_name(row.cheapest)
        for side, name in (("lower", option_name(row.cheapest_low)),
                           ("higher", option_name(row.cheapest_high))):
            if name != base:
                changes.setdefault(name, []).append(t(
                    "risk.condition", input=_quoted(row.input), spread=spread,
                    direction=t(f"risk.{side}")))
    parts = [t("risk.change", name=name, conditions=join(conditions, t("list.or")))
             if name is not None else
             t("risk.none", conditions=join(conditions, t("list.or")))
             for name, conditions in changes.items()]
    if not parts:
        parts.append(t("risk.steady", spread="±" + spread))
    mover = next((row for row in frame.itertuples() if _swing(row) > 0), None)
    if mover is not None:
        ends = sorted([mover.months_low, mover.months_high],
                      key=lambda m: math.inf if fmt.is_missing(m) else m)
        parts.append(t("risk.moves", input=_quoted(mover.input), low=fmt.months(ends[0]),
                       high=fmt.months(ends[1])))
    return _sentences(parts)


def option_name(value: object) -> str | None:
    """An option's name from a frame cell; None for no option (None or NaN)."""
    return None if fmt.is_missing(value) else str(value)


def _swing(row: Any) -> float:
    """How far an input moves the break-even month (a change to or from "never" counts as
    infinitely far); 0 when it does not move it."""
    ends = [row.months_low, row.months_high]
    if all(fmt.is_missing(m) for m in ends + [row.months]):
        return 0.0
    if any(fmt.is_missing(m) for m in ends + [row.months]):
        return math.inf
    return abs(row.months_high - row.months) + abs(row.months_low - row.months)


# -- the first page's inputs ------------------------------------------------------------------


def inputs(result: Result) -> list[tuple[str, str]]:
    """The inputs that matter most, as (label, value), in the report's language."""
    return [(engine_text(label), engine_text(value)) for label, value in result.inputs]


def site_pue(result: Result) -> float:
    """The site's power usage effectiveness (at least 1)."""
    return max(1.0, result.pue)


# -- the options table ------------------------------------------------------------------------


@dataclass
class OptionRow:
    """One option as the report tables show it (all figures already text)."""

    name: str
    kind: str
    gpu: str
    feasible: bool
    cheapest: bool
    reasons: list[str]
    warnings: list[str]
    total_cost: str
    present_value: str
    cost_per_gpu_hour: str
    gpu_hours_per_month: str
    capacity: str
    residual_value: str
    energy: str = ""


def _gpu_text(row: dict[str, Any]) -> str:
    if row.get("gpu") is None:
        return "" if fmt.is_missing(row.get("gpus")) else f"{row['gpus']} GPU"
    count = row.get("gpus")
    return row["gpu"] if count in (None, 1) else f"{count} × {row['gpu']}"


def _capacity_text(row: dict[str, Any]) -> str:
    capacity = row.get("capacity_gpu_hours_per_month")
    if fmt.is_missing(capacity):
        return t("capacity.unlimited") if row["kind"] == "cloud" else fmt.MISSING
    return fmt.number(capacity)


def _energy_text(row: dict[str, Any], horizon: int) -> str:
    if fmt.is_missing(row.get("energy_kwh")):
        return ""
    text = t("energy.use", kwh=fmt.number(row["energy_kwh"]), months=horizon)
    if not fmt.is_missing(row.get("carbon_kg")):
        text += t("energy.carbon", kg=fmt.number(row["carbon_kg"]))
    return text


def _kind_text(kind: str) -> str:
    return t(f"kind.{kind}") if kind in KIND_LABELS else kind


def _sentences_of(result: Result, texts: list[str] | None) -> list[str]:
    """The engine's reasons or warnings of an option, in the report's language."""
    names = frozenset(o["name"] for o in result.data["options"])
    return [engine_sentence(text, names) for text in texts or []]


def option_rows(result: Result) -> list[OptionRow]:
    """The comparison table, cheapest first, infeasible options last with their reasons."""
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    rows = []
    for row in ranked_options(result):
        rows.append(OptionRow(
            name=row["name"],
            kind=_kind_text(row["kind"]),
            gpu=_gpu_text(row),
            feasible=bool(row["feasible"]),
            cheapest=row["name"] == data.get("cheapest"),
            reasons=_sentences_of(result, row.get("reasons")),
            warnings=_sentences_of(result, row.get("warnings")),
            total_cost=_money(row["total_cost"], currency),
            present_value=_money(row["present_value"], currency),
            cost_per_gpu_hour=fmt.money(row["cost_per_gpu_hour"], currency, decimals=2),
            gpu_hours_per_month=fmt.number(row["gpu_hours_per_month"]),
            capacity=_capacity_text(row),
            residual_value=_money(row["residual_value"], currency),
            energy=_energy_text(row, horizon),
        ))
    return rows


# -- break-even -------------------------------------------------------------------------------


def _direction(result: Result, row: dict[str, Any]) -> str:
    """On which side of the break-even usage buying is cheaper ("" when ``cost_vs_usage``
    cannot tell): compares the two options at the levels next to it."""
    level = row["gpu_hours_per_month"]
    frame = result.cost_vs_usage
    if fmt.is_missing(level) or frame is None or frame.empty:
        return ""
    wide = frame.pivot_table(index="gpu_hours_per_month", columns="option",
                             values="present_value", aggfunc="first")
    if row["own"] not in wide.columns or row["versus"] not in wide.columns:
        return ""
    pair = wide[[row["own"], row["versus"]]].dropna()
    below = pair[pair.index < level]
    above = pair[pair.index > level]
    if below.empty or above.empty:
        return ""
    low, high = below.iloc[-1], above.iloc[0]
    if low[row["own"]] > low[row["versus"]] and high[row["own"]] <= high[row["versus"]]:
        return t("be.above")
    if low[row["own"]] < low[row["versus"]] and high[row["own"]] >= high[row["versus"]]:
        return t("be.below")
    return ""


def _pays_text(months: float | None, horizon: int) -> str:
    return fmt.break_even_months(months, never=t("be.not_within", months=horizon))


def break_even_rows(result: Result) -> list[dict[str, str]]:
    """The break-even table, as text."""
    horizon = result.data["horizon_months"]
    rows = []
    for row in result.data.get("break_even") or []:
        rows.append({
            "own": row["own"],
            "versus": row["versus"],
            "months": _pays_text(row["months"], horizon),
            "system_hours": fmt.number(row["system_hours"]),
            "usage": fmt.number(row["gpu_hours_per_month"]),
            "direction": _direction(result, row),
        })
    return rows


def break_even_matrix(result: Result) -> dict[str, Any]:
    """Every owned option (rows) against every other feasible option (columns).

    Returns ``{"columns": [name, ...], "rows": [(own, [cell or None, ...]), ...]}``; a cell is
    ``{"months", "hours", "usage", "direction"}`` as text, None on the diagonal or where the
    result has no such pair.
    """
    pairs = {(r["own"], r["versus"]): r for r in result.data.get("break_even") or []}
    order = [r["name"] for r in _feasible(result)]
    owns = [name for name in order if any(own == name for own, _ in pairs)]
    columns = [name for name in order if any(versus == name for _, versus in pairs)]
    horizon = result.data["horizon_months"]
    rows = []
    for own in owns:
        cells = []
        for versus in columns:
            row = pairs.get((own, versus))
            if row is None:
                cells.append(None)
                continue
            usage = row["gpu_hours_per_month"]
            cells.append({
                "months": _pays_text(row["months"], horizon),
                "hours": ("" if fmt.is_missing(row["system_hours"]) or not row["months"]
                          else t("be.system_hours", hours=fmt.number(row["system_hours"]))),
                "usage": (t("be.no_usage") if fmt.is_missing(usage)
                          else t("be.usage", usage=fmt.number(usage))),
                "direction": _direction(result, row),
            })
        rows.append((own, cells))
    return {"columns": columns, "rows": rows}


# -- notes ------------------------------------------------------------------------------------


def warnings(result: Result, date: datetime.date) -> list[str]:
    """Everything the reader should know, option by option, then about the prices' age."""
    notes = []
    for row in _options(result):
        for text in _sentences_of(result, row.get("warnings")):
            notes.append(f"{row['name']}{t('colon')}{text}")
    age = catalog_age_days(result, date)
    if age is not None and age > STALE_AFTER_DAYS:
        notes.append(t("warning.stale", date=result.data["catalog_as_of"], days=age))
    return notes


def catalog_age_days(result: Result, date: datetime.date) -> int | None:
    """Days between the oldest catalog data used and the report's date."""
    as_of = str(result.data.get("catalog_as_of") or "")[:10]
    if len(as_of) == 7:  # "2025-12": a month, taken from its first day
        as_of += "-01"
    try:
        return (date - datetime.date.fromisoformat(as_of)).days
    except ValueError:
        return None


def _sources(source: object) -> list[dict[str, Any]]:
    """A source field as its parts ("a; b" is two sources), each marked whether it is a URL."""
    parts = [part.strip() for part in str(source).split(";") if part.strip()]
    return [{"text": part, "is_url": part.startswith(("http://", "https://"))} for part in parts]


def assumption_rows(result: Result) -> list[dict[str, Any]]:
    """What the figures rest on: item, value, as-of date and sources (the user's inputs marked).

    ``source`` is the text of the source field ("your input" for the user's own values);
    ``sources`` the same split into its parts, each with ``text`` and ``is_url``.
    """
    rows = []
    for item in result.assumptions:
        value = item.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            text = fmt.MISSING if value is None else str(value)
        else:
            text = fmt.figure(value)
        source = item.get("source")
        if source:
            source_text = str(source)
        elif item.get("as_of") is None:
            source_text = t("source.yours")
        else:
            source_text = fmt.MISSING
        rows.append({
            "item": str(item.get("item", "")),
            "value": text,
            "as_of": str(item["as_of"]) if item.get("as_of") else fmt.MISSING,
            "source": source_text,
            "sources": _sources(source) if source else [{"text": source_text, "is_url": False}],
        })
    return rows


# -- costs ------------------------------------------------------------------------------------


def _component_label(component: str) -> str:
    key = f"component.{component}"
    try:
        return t(key)
    except KeyError:
        return component.replace("_", " ")


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
    sums = monthly[monthly["option"].isin(names)].groupby(["component", "option"])["cost"].sum()
    components = [c for c in COMPONENTS if c in sums.index.get_level_values(0)]
    components += sorted(set(sums.index.get_level_values(0)) - set(components))
    rows = []
    for component in components:
        values = [sums.get((component, name)) for name in names]
        if all(fmt.is_missing(v) or v == 0 for v in values):
            continue
        rows.append((_component_label(component),
                     [_money(0.0 if fmt.is_missing(v) else v, currency) for v in values]))
    residual = [_money(-(by_name[n]["residual_value"] or 0.0), currency) for n in names]
    total = [_money(by_name[n]["total_cost"], currency) for n in names]
    return {"options": names, "rows": rows, "residual": residual, "total": total}


def grouped_monthly(result: Result, option: str) -> pd.DataFrame:
    """One option's cost per month [currency] in the chart's groups (:data:`COMPONENT_GROUPS`),
    months 0..T as the index; groups that are zero throughout are left out."""
    import pandas as pd

    horizon = result.data["horizon_months"]
    monthly = result.monthly
    part = monthly[monthly["option"] == option]
    table = part.pivot_table(index="month", columns="component", values="cost",
                             aggfunc="sum", fill_value=0.0).reindex(range(horizon + 1),
                                                                    fill_value=0.0)
    groups = {}
    for group, members in COMPONENT_GROUPS:
        present = [c for c in members if c in table.columns]
        groups[group] = table[present].sum(axis=1) if present else 0.0 * table.index
    known = {c for _, members in COMPONENT_GROUPS for c in members}
    others = [c for c in table.columns if c not in known]
    if others:  # components this code does not know yet count as running costs
        groups["running"] = groups["running"] + table[others].sum(axis=1)
    energy = groups["it_energy"]
    workings = result.workings.get(option)
    groups["cooling"] = (0.0 * table.index if workings is None else
                         np.asarray(workings.cooling_cost_per_month, dtype=float)[:horizon + 1])
    groups["it_energy"] = energy - groups["cooling"]
    frame = pd.DataFrame({group: np.asarray(groups[group], dtype=float)
                          for group, _ in COMPONENT_GROUPS}, index=table.index)
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
        rows.append((row["name"], [_money(sum(flows[p.first_month:p.last_month + 1]), currency)
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
    for option in _feasible(result):
        part = frame[frame["option"] == option["name"]]
        workings = result.workings.get(option["name"])
        rows = []
        for item in part.itertuples():
            cost = float(item.cost)
            if abs(cost) < 0.005:
                continue
            residual = item.component == "residual value"
            rows.append({
                "component": _component_label(item.component),
                "quantity": "" if residual else _quantity(item.quantity),
                "unit": "" if residual else engine_text(str(item.unit or "")),
                "price": "" if fmt.is_missing(item.price) else fmt.price(item.price, currency),
                "cost": _money(cost, currency),
                "sub": False,
            })
            if item.component == "energy" and pue > 1 and workings is not None:
                rows.append({
                    "component": t("costs.cooling"), "quantity": "",
                    "unit": t("costs.cooling_how", energy=_money(cost, currency),
                              pue=fmt.figure(pue)),
                    "price": "",
                    "cost": _money(workings.cooling_cost, currency), "sub": True,
                })
        tables.append({"name": option["name"], "rows": rows,
                       "total": _money(option["total_cost"], currency)})
    return tables


# -- free tiers -------------------------------------------------------------------------------


def free_tier_rows(result: Result) -> list[dict[str, Any]]:
    """Every free tier: usable capacity, the share of its work it serves itself, sessions a
    week, days a job waits, where the rest goes; infeasible ones with their reasons."""
    rows = []
    for row in _options(result):
        if row["kind"] != "free_tier":
            continue
        served, unmet = row.get("gpu_hours_per_month"), row.get("unmet_gpu_hours_per_month")
        share = None
        if row["feasible"] and not fmt.is_missing(served) and not fmt.is_missing(unmet) \
                and served + unmet > 0:
            share = served / (served + unmet)
        sessions, wait = row.get("sessions_per_week"), row.get("job_wait_days")
        rows.append({
            "name": row["name"],
            "feasible": bool(row["feasible"]),
            "reasons": _sentences_of(result, row.get("reasons")),
            "capacity": fmt.number(row.get("capacity_gpu_hours_per_month")),
            "served": fmt.percent(share, 0) if share is not None else fmt.MISSING,
            "sessions": fmt.number(sessions, 1),
            "sessions_value": None if fmt.is_missing(sessions) else float(sessions),
            "wait": fmt.number(wait, 1),
            "wait_value": None if fmt.is_missing(wait) else float(wait),
            "rest": (result.passed_to.get(row["name"]) if row["feasible"] else None)
            or fmt.MISSING,
        })
    return rows


# -- sensitivity ------------------------------------------------------------------------------


def sensitivity(result: Result) -> dict[str, Any] | None:
    """The sensitivity analysis as the report shows it, or None without one.

    ``pair`` (own, versus) or None, ``spread`` ("25%"), ``months`` (the plan's, text),
    ``rows`` (inputs that move the break-even month or the cheapest option: ``input`` and,
    per end, months as a number (NaN: never) and text, and the cheapest option when it
    differs from the plan's, else "") and ``still`` (labels of inputs with no effect).
    """
    frame = result.sensitivity
    if frame is None or frame.empty:
        return None
    pair = frame.attrs.get("pair")
    spread = fmt.percent(frame.attrs.get("spread", float(frame["high"].iloc[0]) - 1))
    rows, still = [], []
    for row in frame.itertuples():
        base = option_name(row.cheapest)
        low, high = option_name(row.cheapest_low), option_name(row.cheapest_high)
        if _swing(row) == 0 and low == base and high == base:
            still.append(engine_text(row.input))
            continue
        rows.append({
            "input": engine_text(row.input),
            "low": float("nan") if fmt.is_missing(row.months_low) else float(row.months_low),
            "high": float("nan") if fmt.is_missing(row.months_high) else float(row.months_high),
            "low_text": fmt.months(row.months_low),
            "high_text": fmt.months(row.months_high),
            "cheapest_low": "" if low == base else (low or t("sens.none")),
            "cheapest_high": "" if high == base else (high or t("sens.none")),
            "cheapest_low_text": low or t("sens.none"),
            "cheapest_high_text": high or t("sens.none"),
        })
    base = float(frame["months"].iloc[0])
    return {"pair": tuple(pair) if pair else None, "spread": spread,
            "months": base, "months_text": fmt.months(base), "rows": rows, "still": still,
            "cheapest": option_name(frame["cheapest"].iloc[0])}


# -- the appendix -----------------------------------------------------------------------------


def formulas(result: Result) -> list[dict[str, str]]:
    """The model's rules in plain notation, those that apply to this plan's options, each
    ``{"name", "formula"}``."""
    kinds = set(_kinds(result).values())
    components = set()
    if result.breakdown is not None and not result.breakdown.empty:
        components = set(result.breakdown["component"])
    wanted = ["symbols", "discount", "demand", "total", "pv", "per_hour"]
    if "cloud" in kinds:
        wanted += ["instance_hours", "rent"]
        if "reservation" in components:
            wanted.append("reserved")
    if "own" in kinds:
        wanted += ["capacity", "energy", "cooling", "running", "residual"]
        if "financing" in components:
            wanted.append("loan")
    if "free_tier" in kinds:
        wanted.append("free_tier")
    if result.data.get("break_even"):
        wanted += ["break_even_months", "break_even_usage"]
    return [{"name": t(f"f.{key}"), "formula": t(f"fx.{key}")} for key in wanted]


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
    for option in _feasible(result):
        name = option["name"]
        workings = result.workings.get(name)
        rows = []
        flows = np.asarray(option["monthly_cost"], dtype=float)
        residual = float(option["residual_value"] or 0.0)
        parts = []
        if monthly is not None and not monthly.empty:
            sums = monthly[monthly["option"] == name].groupby("component")["cost"].sum()
            parts = [float(sums[c]) for c in COMPONENTS if c in sums and abs(sums[c]) >= 0.5]
        if not parts:
            parts = [float(flows.sum())]
        values = parts + ([-residual] if residual else [])
        rows.append((t("worked.total"), _sum_text(values), _money(option["total_cost"], currency)))
        if rate and workings is not None and len(factors) > horizon:
            discounted, v_t = workings.discounted_cost, float(factors[horizon])
            text = t("worked.pv_sum", flows=_plain(discounted))
            if residual:
                text = t("worked.pv_rv", flows=_plain(discounted), T=horizon,
                         v_T=f"{v_t:.4f}", rv=_plain(residual))
            rows.append((t("worked.pv"), text, _money(option["present_value"], currency)))
        demand = None if workings is None else workings.demand_gpu_hours
        if not fmt.is_missing(demand) and demand > 0:
            rows.append((t("worked.per_hour"),
                         (f"{_plain(option['total_cost'])} / {fmt.number(demand)} "
                         f"{t('worked.demand')}"),
                         fmt.money(option["cost_per_gpu_hour"], currency, decimals=2)))
        if workings is not None and pue > 1 and abs(workings.energy_cost) >= 0.5:
            rows.append((t("worked.cooling"),
                         f"{_plain(workings.energy_cost)} × (1 − 1/{fmt.figure(pue)})",
                         _money(workings.cooling_cost, currency)))
        for pair in data.get("break_even") or []:
            if pair["own"] != name:
                continue
            other = next((r for r in data["options"] if r["name"] == pair["versus"]), None)
            if other is None or not other.get("monthly_cost"):
                continue
            rows.append((t("worked.break_even", versus=pair["versus"]),
                         _break_even_text(flows, np.asarray(other["monthly_cost"], dtype=float),
                                          horizon), fmt.months(pair["months"], 2)))
        groups.append({"name": name, "rows": rows})
    return groups


def _break_even_text(own: np.ndarray, other: np.ndarray, horizon: int) -> str:
    """The break-even month of two cost streams, as the calculation (SPEC §5.6)."""
    c_own, c_other = np.cumsum(own), np.cumsum(other)
    delta = c_own - c_other
    tolerance = 1e-9 * max(1.0, float(np.abs(c_own).max()), float(np.abs(c_other).max()))
    above = np.nonzero(delta > tolerance)[0]
    if above.size == 0:
        return t("worked.start")
    k = int(above.max())
    if k >= delta.size - 1:
        return t("worked.never", T=horizon)
    a, b = float(delta[k]), float(delta[k + 1])
    months = k + a / (a - b)
    return t("worked.months", k=k, k1=k + 1, a=_plain(a), b=_plain(b), bn=_plain(-b),
             months=f"{months:.2f}")
