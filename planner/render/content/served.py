"""Who does the work, as the report says it: the options that are the cheapest under another
name ("kaggle does none of this work: it is runpod-4090"), how much of an owned option's work
its overflow serves and at what cost, and each option's served share for the options table.

It words the Result's figures (``served_share``, ``passed_cost``, ``first_unmet_month``,
``Result.same_as_cheapest``, ``Result.headline_pair``) and recomputes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.engine.shares import mostly_overflow
from planner.render import fmt
from planner.render.content.common import all_options, join_sentences, money_text
from planner.render.i18n import t

if TYPE_CHECKING:
    from planner.result import Result


def served_text(row: dict[str, Any]) -> str:
    """The share of its demand an option serves itself, as text ("0%", "26%"; "—" without
    demand)."""
    share = row.get("served_share")
    if fmt.is_missing(share):
        return fmt.MISSING
    return fmt.percent(share, 0 if share in (0.0, 1.0) or 0.01 <= share <= 0.99 else 1)


def same_as_sentences(result: Result) -> str:
    """"kaggle does none of this work: it is runpod-4090." for every option that is the
    cheapest under another name ("" when none is)."""
    cheapest = result.data.get("cheapest")
    return join_sentences([t("verdict.same_as", name=name, cheapest=cheapest)
                           for name in result.same_as_cheapest])


def overflow_sentence(result: Result) -> str:
    """How much of the headline's owned option's work its overflow serves, from which month and
    at what cost ("" when it overflows nothing, or has no overflow)."""
    pair = result.headline_pair
    if pair is None:
        return ""
    row = next((r for r in all_options(result) if r["name"] == pair[0]), None)
    target = result.passed_to.get(pair[0])
    if row is None or target is None or not row["feasible"]:
        return ""
    share, month = row.get("served_share"), row.get("first_unmet_month")
    if fmt.is_missing(share) or share >= 1.0 or fmt.is_missing(month) \
            or fmt.is_missing(row.get("passed_cost")):
        return ""
    currency = result.data["currency"]
    return t("served.overflow", own=row["name"], served=served_text(row),
             passed=served_text({"served_share": 1.0 - share}), month=int(month),
             target=target, cost=money_text(row["passed_cost"], currency),
             total=money_text(row["total_cost"], currency))


def runner_up_sentence(result: Result) -> str:
    """What the runner-up is made of when it passes most of its work on ("The runner-up kaggle
    serves 1% of the GPU-hours itself: a100-spot serves the other 99%, and all of its $130,538
    is paid to a100-spot."): the verdict names an option whose cost is mostly another's
    ("" otherwise)."""
    return _passes_most(result, result.runner_up, "served.runner_up")


def cheapest_sentence(result: Result) -> str:
    """The same for the cheapest option when it is not owned (an owned one's overflow has
    :func:`overflow_sentence`): "ai-studio serves 3% of the GPU-hours itself: …"."""
    name = result.data.get("cheapest")
    row = next((r for r in all_options(result) if r["name"] == name), None)
    if row is None or row["kind"] == "own":
        return ""
    return _passes_most(result, name, "served.cheapest")


def _passes_most(result: Result, name: str | None, key: str) -> str:
    """``key``'s sentence on option ``name`` when it passes more than
    :data:`planner.engine.shares.MOSTLY_OVERFLOW_SHARE` of its GPU-hours to its target ("" otherwise); ``key +
    "_all"`` when all of its cost is what it passes on (a free tier's own cost is nothing)."""
    target = result.passed_to.get(name) if name is not None else None
    row = next((r for r in all_options(result) if r["name"] == name), None)
    if row is None or target is None or fmt.is_missing(row.get("passed_cost")):
        return ""
    share = row.get("served_share")
    if fmt.is_missing(share) or not mostly_overflow(share):
        return ""
    currency = result.data["currency"]
    if row["passed_cost"] >= row["total_cost"]:
        key += "_all"
    return t(key, name=name, served=served_text(row),
             passed=served_text({"served_share": 1.0 - share}), target=target,
             cost=money_text(row["passed_cost"], currency),
             total=money_text(row["total_cost"], currency))


def decision_notes(result: Result) -> str:
    """Who does the work, in one to three sentences for the first page ("" when nothing needs
    saying)."""
    return join_sentences([same_as_sentences(result), overflow_sentence(result),
                           cheapest_sentence(result), runner_up_sentence(result)])
