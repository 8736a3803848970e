"""The report's tables as rows of text: the options compared, break-even, sensitivity, free
tiers, the notes and the assumptions.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.render import fmt, i18n
from planner.render.content.common import (
    KIND_LABELS,
    all_options,
    feasible_options,
    money_text,
    option_name,
    ranked_options,
    sentences_of,
    swing,
)
from planner.render.content.served import served_text
from planner.render.i18n import t
from planner.result import age_days

if TYPE_CHECKING:
    from planner.result import Result



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
    served: str = ""  # the share of its demand it serves itself
    job_days: str = ""  # wall-clock days one job runs on it (SPEC §8); "" without job_hours
    scaling: str = ""  # its scaling efficiency when not 1 (SPEC §8), e.g. "93% scaling"


def _gpu_text(row: dict[str, Any]) -> str:
    if row.get("gpu") is None:
        text = "" if fmt.is_missing(row.get("gpus")) else f"{row['gpus']} GPU"
    else:
        count = row.get("gpus")
        text = row["gpu"] if count in (None, 1) else f"{count} × {row['gpu']}"
    machines = row.get("machines")
    if row["kind"] == "own" and machines is not None and machines != 1:  # a fleet (SPEC §6)
        return t("gpu.fleet", n=machines, machine=text or t("gpu.machine"))
    return text


def _bought(text: str, month: int | None) -> str:
    """The machine's text with its purchase month, for one bought after month 0 (SPEC §6):
    "8 × h100-80gb, bought in month 12"."""
    if month is None:
        return text
    return t("gpu.bought", machine=text or t("gpu.machine"), month=month, next=month + 1)


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


def option_rows(result: Result) -> list[OptionRow]:
    """The comparison table, cheapest first, infeasible options last with their reasons."""
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    rows = []
    for row in ranked_options(result):
        rows.append(OptionRow(
            name=row["name"],
            kind=_kind_text(row["kind"]),
            gpu=_bought(_gpu_text(row), result.purchase_months.get(row["name"])),
            feasible=bool(row["feasible"]),
            cheapest=row["name"] == data.get("cheapest"),
            reasons=sentences_of(row.get("reasons")),
            warnings=sentences_of(row.get("warnings")),
            total_cost=money_text(row["total_cost"], currency),
            present_value=money_text(row["present_value"], currency),
            cost_per_gpu_hour=fmt.money(row["cost_per_gpu_hour"], currency, decimals=2),
            gpu_hours_per_month=fmt.number(row["gpu_hours_per_month"]),
            capacity=_capacity_text(row),
            residual_value=money_text(row["residual_value"], currency),
            energy=_energy_text(row, horizon),
            served=served_text(row),
            job_days=_job_days_text(row),
            scaling=_scaling_text(row),
        ))
    return rows


def _job_days_text(row: dict[str, Any]) -> str:
    """Wall-clock days one job runs on the option, one decimal ("—" where it cannot run)."""
    if "job_days" not in row:
        return ""
    return fmt.number(row["job_days"], 1)


def _scaling_text(row: dict[str, Any]) -> str:
    """The option's scaling efficiency (SPEC §8) when a job does not scale linearly there."""
    efficiency = row.get("scaling_efficiency")
    if fmt.is_missing(efficiency) or efficiency == 1:
        return ""
    return t("gpu.scaling", share=fmt.percent(efficiency))


def shows_job_days(result: Result) -> bool:
    """Whether the options table has a column of job lengths: when demand.job_hours is given
    (some option has one)."""
    return any(not fmt.is_missing(row.get("job_days")) for row in result.data["options"])


def _direction(result: Result, row: dict[str, Any]) -> str:
    """On which side of the break-even usage buying is cheaper, in words
    (``result.buying_cheaper_side``; "" when it cannot tell)."""
    side = result.buying_cheaper_side.get((row["own"], row["versus"]))
    return {"above": t("be.above"), "below": t("be.below")}.get(side, "")


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
    order = [r["name"] for r in feasible_options(result)]
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


def warnings(result: Result, date: datetime.date) -> list[str]:
    """Everything the reader should know, option by option, then about the plan itself:
    values probably not meant (each with its key and line) and the prices' age at ``date``."""
    notes = []
    for row in all_options(result):
        for text in sentences_of(row.get("warnings")):
            notes.append(f"{row['name']}{t('colon')}{text}")
    notes += sentences_of(result.warnings_at(date))
    return notes


def catalog_age_days(result: Result, date: datetime.date) -> int | None:
    """Days between the oldest catalog data used (of any kind) and the report's date."""
    return age_days(result.data.get("catalog_as_of"), date)


def prices_age_days(result: Result, date: datetime.date) -> int | None:
    """Days between the oldest price used and the report's date."""
    return age_days(result.data.get("prices_as_of"), date)


def _sources(source: object) -> list[dict[str, Any]]:
    """A source field as its parts ("a; b" is two sources), each marked whether it is a URL."""
    parts = [part.strip() for part in str(source).split(";") if part.strip()]
    return [{"text": part, "is_url": part.startswith(("http://", "https://"))} for part in parts]


def assumption_rows(result: Result) -> list[dict[str, Any]]:
    """What the figures rest on: item, value, as-of date (a price's own date) and sources (the
    user's inputs marked).

    ``source`` is the text of the source field ("your input" for the user's own values);
    ``sources`` the same split into its parts, each with ``text`` and ``is_url``; ``kind``
    is ``"price"`` or ``"reference"``, prices first.
    """
    rows = []
    for item in _prices_first(result.assumptions):
        value = item.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            text = fmt.MISSING if value is None else i18n.text(value)
        else:
            text = fmt.figure(value)
        # A price is dated by the price itself: the "as of" beside a street price is the day
        # it was priced, not the date of the GPU row that carries it (the row's date still
        # counts in the plan's catalog_as_of).
        dated = item.get("price_as_of") or item.get("as_of")
        source = item.get("source")
        if source:
            source_text = source = i18n.text(source)
        elif item.get("as_of") is None:
            source_text = t("source.yours")
        else:
            source_text = fmt.MISSING
        rows.append({
            "kind": item.get("kind") or "reference",
            "item": i18n.text(item.get("item", "")),
            "value": text,
            "as_of": str(dated) if dated else fmt.MISSING,
            "source": source_text,
            "sources": _sources(source) if source else [{"text": source_text, "is_url": False}],
        })
    return rows


def _prices_first(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The assumptions grouped: prices (dated and warned about when old) first, then
    specifications and references; each group in the Result's order."""
    return sorted(items, key=lambda item: item.get("kind") != "price")


def free_tier_rows(result: Result) -> list[dict[str, Any]]:
    """Every free tier: usable capacity, the share of its work it serves itself, sessions a
    week, days a job waits, where the rest goes; infeasible ones with their reasons."""
    rows = []
    for row in all_options(result):
        if row["kind"] != "free_tier":
            continue
        share = row.get("served_share") if row["feasible"] else None
        sessions, wait = row.get("sessions_per_week"), row.get("job_wait_days")
        rows.append({
            "name": row["name"],
            "feasible": bool(row["feasible"]),
            "reasons": sentences_of(row.get("reasons")),
            "capacity": fmt.number(row.get("capacity_gpu_hours_per_month")),
            "served": fmt.MISSING if fmt.is_missing(share) else served_text(row),
            "sessions": fmt.number(sessions, 1),
            "sessions_value": None if fmt.is_missing(sessions) else float(sessions),
            "wait": fmt.number(wait, 1),
            "wait_value": None if fmt.is_missing(wait) else float(wait),
            "rest": (result.passed_to.get(row["name"]) if row["feasible"] else None)
            or fmt.MISSING,
        })
    return rows


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
        if swing(row) == 0 and low == base and high == base:
            still.append(i18n.text(row.input))
            continue
        rows.append({
            "input": i18n.text(row.input),
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
