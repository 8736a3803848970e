"""What every part of the report's content shares: the options in the answer's order, the
verbs and kinds, money as the report writes it, sentences joined in the report's language.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from planner.render import fmt, i18n
from planner.render.i18n import current, t

if TYPE_CHECKING:
    from planner.messages import Text
    from planner.result import Result


KIND_LABELS = {"cloud": "cloud", "own": "own", "free_tier": "free tier"}
KIND_VERBS = {"cloud": "Rent", "own": "Buy", "free_tier": "Use"}


def all_options(result: Result) -> list[dict[str, Any]]:
    return list(result.data["options"])


def kinds_of(result: Result) -> dict[str, str]:
    return {row["name"]: row["kind"] for row in result.data["options"]}


def verb_of(kind: str) -> str:
    return t(f"verb.{kind}") if kind in KIND_VERBS else t("verb.other")


def money_text(amount: float | None, currency: str) -> str:
    return fmt.money(amount, currency, decimals=0)


def is_discounted(result: Result) -> bool:
    return bool(result.data["discount_rate"])


def ranked_options(result: Result) -> list[dict[str, Any]]:
    """Feasible options by present value (the cheapest first among those that cost the same,
    then file order), then the infeasible ones."""
    rows = all_options(result)
    feasible = [r for r in rows if r["feasible"] and not fmt.is_missing(r["present_value"])]
    cheapest = result.data.get("cheapest")
    feasible.sort(key=lambda r: (r["present_value"], r["name"] != cheapest))
    return feasible + [r for r in rows if r not in feasible]


def feasible_options(result: Result) -> list[dict[str, Any]]:
    return [r for r in ranked_options(result) if r["feasible"]
            and not fmt.is_missing(r["present_value"])]


def join_sentences(parts: list[str]) -> str:
    return ("" if current() == "zh" else " ").join(p for p in parts if p)


def quoted(label: Text) -> str:
    return f"\u201c{i18n.text(label)}\u201d"


def option_name(value: object) -> str | None:
    """An option's name from a frame cell; None for no option (None or NaN)."""
    return None if fmt.is_missing(value) else str(value)


def swing(row: Any) -> float:
    """How far an input moves the break-even month (a change to or from "never" counts as
    infinitely far); 0 when it does not move it."""
    ends = [row.months_low, row.months_high]
    if all(fmt.is_missing(m) for m in ends + [row.months]):
        return 0.0
    if any(fmt.is_missing(m) for m in ends + [row.months]):
        return math.inf
    return abs(row.months_high - row.months) + abs(row.months_low - row.months)


def site_pue(result: Result) -> float:
    """The site's power usage effectiveness (at least 1)."""
    return max(1.0, result.pue)


def sentences_of(texts: list[Text] | None) -> list[str]:
    """The engine's reasons or warnings of an option, in the report's language."""
    return [i18n.text(message) for message in texts or []]


def component_label(component: str) -> str:
    return i18n.t_or(f"component.{component}", component.replace("_", " "))
