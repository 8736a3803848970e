"""What a report says, as plain data: the answer, the tables, the notes.

Every format (HTML and PDF, Markdown, the terminal summary) is drawn from these functions, so
the recommendation and every figure read the same in all of them. All text formatting goes
through :mod:`planner.fmt`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner import fmt

if TYPE_CHECKING:
    from planner.result import Result

COMPONENT_ORDER = ("purchase", "resale", "financing", "loan_payoff", "energy", "maintenance",
                   "fixed", "operating", "rental", "reservation", "storage", "fee", "overflow",
                   "fallback")
KIND_LABELS = {"cloud": "cloud", "own": "own", "free_tier": "free tier"}
KIND_VERBS = {"cloud": "Rent", "own": "Buy", "free_tier": "Use"}
#: Prices older than this at the report's date get a warning.
STALE_AFTER_DAYS = 180


def _join(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _options(result: Result) -> list[dict[str, Any]]:
    return list(result.data["options"])


def ranked_options(result: Result) -> list[dict[str, Any]]:
    """Feasible options by present value (file order on a tie), then the infeasible ones."""
    rows = _options(result)
    feasible = [r for r in rows if r["feasible"] and not fmt.is_missing(r["present_value"])]
    feasible.sort(key=lambda r: r["present_value"])
    return feasible + [r for r in rows if r not in feasible]


def marked_break_even(result: Result) -> list[dict[str, Any]]:
    """The break-even rows the answer is about.

    With an own option cheapest: its rows against the others. With another option cheapest:
    the rows of own options against it. With no feasible option: all rows (there are none).
    """
    data = result.data
    cheapest = data.get("cheapest")
    rows = list(data.get("break_even") or [])
    kinds = {row["name"]: row["kind"] for row in data["options"]}
    if cheapest is None:
        return rows
    if kinds.get(cheapest) == "own":
        return [row for row in rows if row["own"] == cheapest]
    return [row for row in rows if row["versus"] == cheapest]


def _verdict(result: Result) -> str:
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    options = _options(result)
    cheapest = data.get("cheapest")
    if cheapest is None:
        if len(options) == 1:
            return "The only option cannot serve the demand; the reasons are listed below."
        return (f"None of the {len(options)} options can serve the demand; "
                "the reasons are listed below.")
    ranked = [r for r in ranked_options(result) if r["feasible"]]
    best = next(r for r in options if r["name"] == cheapest)
    runners = [r for r in ranked if r["name"] != cheapest]
    verb = KIND_VERBS.get(best["kind"], "Choose")
    discounted = bool(data["discount_rate"])
    if discounted:
        figure = (f"at {fmt.money(best['present_value'], currency, decimals=0)} in present value "
                  f"({fmt.percent(data['discount_rate'])} a year)")
    else:
        figure = f"at {fmt.money(best['total_cost'], currency, decimals=0)}"
    sentence = f"{verb} {cheapest}: it is the cheapest option over {horizon} months {figure}"
    if runners and not fmt.is_missing(best["present_value"]):
        saving = runners[0]["present_value"] - best["present_value"]
        sentence += (f", {fmt.money(saving, currency, decimals=0)} less than the runner-up, "
                     f"{runners[0]['name']}.")
    else:
        sentence += ", and the only one that can serve the demand."
    return sentence


def _pays_off(row: dict[str, Any]) -> str:
    if row["months"] == 0:
        return f"from the start against {row['versus']}"
    return f"after {fmt.months(row['months'])} against {row['versus']}"


def _break_even_sentence(result: Result) -> str:
    data = result.data
    horizon = data["horizon_months"]
    cheapest = data.get("cheapest")
    kinds = {row["name"]: row["kind"] for row in data["options"]}
    rows = marked_break_even(result)
    if cheapest is None or not rows:
        return ""
    if kinds.get(cheapest) == "own":
        paying = sorted((r for r in rows if not fmt.is_missing(r["months"])),
                        key=lambda r: r["months"])
        never = [r["versus"] for r in rows if fmt.is_missing(r["months"])]
        if not paying:
            return (f"On cumulative cost alone (residual value not counted), buying does not "
                    f"pay off within {horizon} months against {_join(never)}.")
        sentence = "Buying pays off " + _join([_pays_off(r) for r in paying])
        if never:
            sentence += (f", and not within {horizon} months against {_join(never)} "
                         "(cumulative cost, residual value not counted)")
        return sentence + "."
    never = [r["own"] for r in rows if fmt.is_missing(r["months"])]
    paying = [r for r in rows if not fmt.is_missing(r["months"])]
    parts = []
    if never:
        parts.append(f"Buying never pays off within {horizon} months "
                     f"({_join(never)} against {cheapest}).")
    for row in paying:
        parts.append(f"Buying {row['own']} pays off {_pays_off(row)}, yet costs more "
                     "in present value.")
    return " ".join(parts)


def recommendation(result: Result) -> str:
    """The answer in one or two sentences: what to choose, what it saves, when buying pays."""
    return " ".join(s for s in (_verdict(result), _break_even_sentence(result)) if s)


def recommendation_parts(result: Result) -> tuple[str, str]:
    """:func:`recommendation` split after its lead ("Buy workstation:") for emphasis.

    The lead is empty when there is no option to recommend; ``lead + " " + rest`` (without the
    space when the lead is empty) is the recommendation.
    """
    text = recommendation(result)
    if result.data.get("cheapest") is None or ": " not in text:
        return "", text
    lead, rest = text.split(": ", 1)
    return lead + ":", rest


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
        return "no limit" if row["kind"] == "cloud" else fmt.MISSING
    return fmt.number(capacity)


def _energy_text(row: dict[str, Any], horizon: int) -> str:
    if fmt.is_missing(row.get("energy_kwh")):
        return ""
    text = f"{fmt.number(row['energy_kwh'])} kWh over {horizon} months"
    if not fmt.is_missing(row.get("carbon_kg")):
        text += f", {fmt.number(row['carbon_kg'])} kg CO2e"
    return text


def option_rows(result: Result) -> list[OptionRow]:
    """The comparison table, cheapest first, infeasible options last with their reasons."""
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    rows = []
    for row in ranked_options(result):
        rows.append(OptionRow(
            name=row["name"],
            kind=KIND_LABELS.get(row["kind"], row["kind"]),
            gpu=_gpu_text(row),
            feasible=bool(row["feasible"]),
            cheapest=row["name"] == data.get("cheapest"),
            reasons=list(row.get("reasons") or []),
            warnings=list(row.get("warnings") or []),
            total_cost=fmt.money(row["total_cost"], currency, decimals=0),
            present_value=fmt.money(row["present_value"], currency, decimals=0),
            cost_per_gpu_hour=fmt.money(row["cost_per_gpu_hour"], currency, decimals=2),
            gpu_hours_per_month=fmt.number(row["gpu_hours_per_month"]),
            capacity=_capacity_text(row),
            residual_value=fmt.money(row["residual_value"], currency, decimals=0),
            energy=_energy_text(row, horizon),
        ))
    return rows


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
        return "buying is cheaper above it"
    if low[row["own"]] < low[row["versus"]] and high[row["own"]] >= high[row["versus"]]:
        return "buying is cheaper below it"
    return ""


def break_even_rows(result: Result) -> list[dict[str, str]]:
    """The break-even table, as text."""
    horizon = result.data["horizon_months"]
    rows = []
    for row in result.data.get("break_even") or []:
        months = row["months"]
        if fmt.is_missing(months):
            pays = f"not within {horizon} months"
        elif months == 0:
            pays = "from the start"
        else:
            pays = fmt.months(months)
        usage = fmt.number(row["gpu_hours_per_month"])
        direction = _direction(result, row)
        rows.append({
            "own": row["own"],
            "versus": row["versus"],
            "months": pays,
            "system_hours": fmt.number(row["system_hours"]),
            "usage": usage,
            "direction": direction,
        })
    return rows


def warnings(result: Result, date: datetime.date) -> list[str]:
    """Everything the reader should know, option by option, then about the prices' age."""
    notes = []
    for row in _options(result):
        for text in row.get("warnings") or []:
            notes.append(f"{row['name']}: {text}")
    age = catalog_age_days(result, date)
    if age is not None and age > STALE_AFTER_DAYS:
        notes.append(
            f"The oldest catalog figures used date from {result.data['catalog_as_of']}, "
            f"{age} days before this report: check current prices and figures before committing money.")
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
            source_text = "your input"
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
    components = [c for c in COMPONENT_ORDER if c in sums.index.get_level_values(0)]
    components += sorted(set(sums.index.get_level_values(0)) - set(components))
    rows = []
    for component in components:
        values = [sums.get((component, name)) for name in names]
        if all(fmt.is_missing(v) or v == 0 for v in values):
            continue
        rows.append((component.replace("_", " "),
                     [fmt.money(0.0 if fmt.is_missing(v) else v, currency, decimals=0)
                      for v in values]))
    residual = [fmt.money(-(by_name[n]["residual_value"] or 0.0), currency, decimals=0)
                for n in names]
    total = [fmt.money(by_name[n]["total_cost"], currency, decimals=0) for n in names]
    return {"options": names, "rows": rows, "residual": residual, "total": total}


def yearly_cash_flow(result: Result) -> dict[str, Any]:
    """Money paid per year for each feasible option: today (month 0), then each 12 months.

    Returns ``{"periods": [label, ...], "rows": [(option, [text per period]), ...]}``.
    """
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    periods = [("Today", 0, 0)]
    for start in range(1, horizon + 1, 12):
        end = min(start + 11, horizon)
        label = f"Year {(start - 1) // 12 + 1}" if end - start == 11 else f"Months {start}–{end}"
        periods.append((label, start, end))
    rows = []
    for row in ranked_options(result):
        flows = row.get("monthly_cost")
        if not row["feasible"] or not flows:
            continue
        rows.append((row["name"], [fmt.money(sum(flows[a:b + 1]), currency, decimals=0)
                                   for _, a, b in periods]))
    return {"periods": [p[0] for p in periods], "rows": rows}
