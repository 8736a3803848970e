"""The answer as the report states it: the decision, the recommendation, the key figures,
when buying pays off, what could change the answer, and the inputs that matter most.

The pairs the answer speaks of are chosen by evaluation (``Result.headline_pair``,
``Result.marked_break_even_pairs``); this module words them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from planner.messages import Number, Share
from planner.render import fmt, i18n
from planner.render.content.common import (
    all_options,
    feasible_options,
    is_discounted,
    join_sentences,
    kinds_of,
    money_text,
    option_name,
    quoted,
    swing,
    verb_of,
)
from planner.render.content.served import decision_notes
from planner.render.i18n import join, t

if TYPE_CHECKING:
    from planner.result import Result


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


def _verdict(result: Result) -> str:
    data = result.data
    currency, horizon = data["currency"], data["horizon_months"]
    options = all_options(result)
    cheapest = data.get("cheapest")
    if cheapest is None:
        if len(options) == 1:
            return t("verdict.only_infeasible")
        return t("verdict.none_feasible", count=len(options))
    best = next(r for r in options if r["name"] == cheapest)
    if is_discounted(result):
        figure = t("verdict.figure_pv", money=money_text(best["present_value"], currency),
                   rate=fmt.percent(data["discount_rate"]))
    else:
        figure = t("verdict.figure_total", money=money_text(best["total_cost"], currency))
    sentence = t("verdict.cheapest", verb=verb_of(best["kind"]), name=cheapest, months=horizon,
                 figure=figure)
    if result.runner_up is not None and not fmt.is_missing(result.saving_vs_runner_up):
        sentence += t("verdict.saving", money=money_text(result.saving_vs_runner_up, currency),
                      name=result.runner_up)
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
    if kinds_of(result).get(cheapest) == "own":
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
    return join_sentences(parts)


def break_even_sentence(result: Result) -> str:
    """When buying pays off against the options the answer is about ("" when no pair is)."""
    return _break_even_sentence(result)


def recommendation(result: Result) -> str:
    """The answer in a few sentences: what to choose, what it saves, who does the work, when
    buying pays."""
    return join_sentences([_verdict(result), decision_notes(result),
                           _break_even_sentence(result), uncertainty_sentence(result)])


def _split_lead(result: Result, text: str) -> tuple[str, str]:
    """``text`` split after its lead, "Buy workstation:" (the option's name may hold a colon
    too)."""
    cheapest = result.data.get("cheapest")
    kind = kinds_of(result).get(cheapest, "")
    start = f"{verb_of(kind)} {cheapest}"
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
    options = all_options(result)
    best = next(r for r in options if r["name"] == cheapest)
    values = {"verb": verb_of(best["kind"]), "name": cheapest, "count": len(options),
              "months": data["horizon_months"]}
    if len(options) == 1:
        return t("decision.single", **values)
    if len(feasible_options(result)) == 1:
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
    if is_discounted(result):
        cost = {"value": money_text(best["present_value"], currency),
                "label": t("tile.pv", name=cheapest, months=horizon,
                           rate=fmt.percent(data["discount_rate"]),
                           total=money_text(best["total_cost"], currency))}
    else:
        cost = {"value": money_text(best["total_cost"], currency),
                "label": t("tile.total", name=cheapest, months=horizon)}
    if result.runner_up is not None:
        saving = {"value": money_text(result.saving_vs_runner_up, currency),
                  "label": t("tile.saving", name=result.runner_up,
                             basis=t("tile.saving_pv") if is_discounted(result) else "")}
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
                    "risk.condition", input=quoted(row.input), spread=spread,
                    direction=t(f"risk.{side}")))
    parts = [t("risk.change", name=name, conditions=join(conditions, t("list.or")))
             if name is not None else
             t("risk.none", conditions=join(conditions, t("list.or")))
             for name, conditions in changes.items()]
    if not parts:
        parts.append(t("risk.steady", spread="±" + spread))
    mover = next((row for row in frame.itertuples() if swing(row) > 0), None)
    if mover is not None:
        ends = sorted([mover.months_low, mover.months_high],
                      key=lambda m: math.inf if fmt.is_missing(m) else m)
        parts.append(t("risk.moves", input=quoted(mover.input), low=fmt.months(ends[0]),
                       high=fmt.months(ends[1])))
    return join_sentences(parts)


def uncertainty_sentence(result: Result) -> str:
    """How sure the answer is, from the draws of SPEC §7 ("" without them): the share of draws
    in which buying (any owned option) is the cheapest, or the cheapest option's share when
    nothing is owned, and the middle 90 % of the headline pair's pay-off months."""
    block = result.data.get("uncertainty")
    if not block:
        return ""
    kinds = kinds_of(result)
    samples = Number(block["samples"])
    owned = [name for name, kind in kinds.items() if kind == "own"]
    if owned:
        share = sum(block["cheapest_share"].get(name, 0.0) for name in owned)
        text = t("uncertainty.buying_wins", share=Share(share), samples=samples)
    elif result.data.get("cheapest") is not None:
        name = result.data["cheapest"]
        text = t("uncertainty.cheapest_in", name=name,
                 share=Share(block["cheapest_share"].get(name, 0.0)), samples=samples)
    else:
        return ""
    pair = next((p for p in block["break_even"]
                 if (p["own"], p["versus"]) == result.headline_pair), None)
    if pair is None:
        return text + t("uncertainty.end")
    if pair["months"] is None:
        return text + t("uncertainty.never_pays", own=pair["own"], versus=pair["versus"])
    return text + t("uncertainty.pays_within", own=pair["own"], versus=pair["versus"],
                    low=fmt.figure(math.floor(pair["months"]["p5"])),
                    high=fmt.figure(math.ceil(pair["months"]["p95"])),
                    share=Share(pair["pays_off_share"]))


def inputs(result: Result) -> list[tuple[str, str]]:
    """The inputs that matter most, as (label, value), in the report's language."""
    return [(i18n.text(label), i18n.text(value)) for label, value in result.inputs]
