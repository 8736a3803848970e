"""The report's page "The best mix" (SPEC §6): the mix in words, its present value and total,
what it saves against the best single option, the nearest alternatives and the rent-then-buy
rule, formatted in the report's language (None without a mix)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.render import fmt, i18n
from planner.render.i18n import t

if TYPE_CHECKING:
    from planner.result import Result


def mix_sentences(mix) -> list[str]:
    """The best mix in sentences, in the current language: what it is, its present value and
    total, what it saves against the best single option (where there is one), how many
    candidates were searched."""
    currency = mix.currency
    lines = [t("mix.best", words=i18n.text(mix.words)),
             t("mix.figures", pv=fmt.money(mix.present_value, currency),
               total=fmt.money(mix.total_cost, currency))]
    if mix.single is not None:
        key = "mix.saving" if mix.saving > 0 else "mix.no_saving"
        lines.append(t(key, saving=fmt.money(mix.saving, currency), single=mix.single,
                       single_pv=fmt.money(mix.single_present_value, currency)))
    lines.append(t("mix.searched", count=fmt.number(len(mix.candidates))))
    return lines


def mix_section(result: Result) -> dict[str, Any] | None:
    """``words``, ``figures``, ``saving``, ``searched`` (and ``summary``: the three in one
    line, punctuated in the report's language), ``alternatives`` (change, pv, versus),
    ``rules`` (sentences) and the chart's ``caption``; None without a mix."""
    mix = getattr(result, "mix_result", None)
    if mix is None:
        return None
    currency = mix.currency
    lines = mix_sentences(mix)
    alternatives = [{"change": i18n.text(row.message),
                     "pv": fmt.money(row.present_value, currency, decimals=0),
                     "versus": ("+" if row.versus_best > 0 else "")
                     + fmt.money(row.versus_best, currency, decimals=0)}
                    for row in mix.alternatives.itertuples()]
    commit = t("mix.flat_commit") if any(c.startswith(f"{mix.members[-1]}.term_")
                                         for c in mix.candidates.columns) else ""
    saving = lines[2] if len(lines) > 3 else None
    stop = t("period")
    summary = (lines[1] + (t("mix.join") + saving if saving else "") + stop + " "
               + lines[-1] + stop)
    return {"words": lines[0], "figures": lines[1], "saving": saving, "searched": lines[-1],
            "summary": summary, "alternatives": alternatives,
            "rules": [i18n.text(m) for m in mix.rule_messages()],
            "caption": t("mix.flat", option=charted_member(mix), commit=commit)}


def charted_member(mix) -> str:
    """The own member the chart is drawn for: the first that the best mix owns, else the
    first."""
    owns = mix.members[:-1]
    return next((o for o in owns if mix.best[f"{o}.machines"] > 0), owns[0])
