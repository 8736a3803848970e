"""The short summary the command line prints after writing a report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.messages import Message
from planner.render import content, i18n
from planner.render.i18n import t

if TYPE_CHECKING:
    import rich.console
    import rich.table

    from planner.result import Result


def summary_table(result: Result, lang: str = "en") -> rich.table.Table:
    """Option, feasible, total, present value and cost per GPU-hour; the cheapest marked; in
    ``lang`` (a terminal needs no font check)."""
    from rich.table import Table
    from rich.text import Text

    with i18n.language(lang):
        data = result.data
        caption = "\n".join([content.recommendation(result), *_reserved_per_term(result),
                             *_fleets(result), *_job_days(result), *_mix(result, lang)])
        table = Table(title=data["title"], caption=caption, caption_justify="left")
        table.add_column(t("term.option"))
        table.add_column(t("term.feasible"))
        table.add_column(t("term.total", currency=data["currency"]), justify="right")
        table.add_column(t("term.pv"), justify="right")
        table.add_column(t("term.per_hour"), justify="right")
        for row in content.option_rows(result):
            name = Text(row.name)
            if row.cheapest:
                name = Text.assemble((row.name, "bold green"), (" ★", "green"))
            feasible = (t("yes") if row.feasible
                        else Text(t("term.no", reasons="; ".join(row.reasons)), "red"))
            table.add_row(name, feasible, row.total_cost, row.present_value,
                          row.cost_per_gpu_hour)
    return table


def _reserved_per_term(result: Result) -> list[str]:
    """"h100-reserved-1y: reserved per term: 2, 7, 24 instances", for each reserved cloud whose
    file asks for a count per term (the report shows it in the breakdown)."""
    lines = []
    for row in result.data["options"]:
        counts = row.get("reserved_instances_per_term")
        if counts:
            note = Message("note.reserved_per_term", counts=", ".join(str(c) for c in counts))
            lines.append(f"{row['name']}: {i18n.text(note)}")
    return lines


def _mix(result: Result, lang: str) -> list[str]:
    """The best mix, where the plan has one (SPEC §6)."""
    mix = getattr(result, "mix_result", None)
    if mix is None:
        return []
    with i18n.language(lang):
        return content.mix_sentences(mix)[:3]


def _fleets(result: Result) -> list[str]:
    """"box: 3 machines of 4 × rtx-a6000", for each own option of other than one machine or
    bought after month 0 (the report shows it under the option's name)."""
    return [f"{row.name}: {row.gpu}" for row, data in zip(content.option_rows(result),
                                                          _by_name(result))
            if data["kind"] == "own" and (data.get("machines") not in (None, 1)
                                          or row.name in result.purchase_months)]


def _job_days(result: Result) -> list[str]:
    """"Days / job: h100-server 3.5, h100-on-demand 3.3" (SPEC §8), when demand.job_hours is
    given: a line under the table, so that the table keeps its width in 80 columns."""
    if not content.shows_job_days(result):
        return []
    days = [f"{row.name} {row.job_days}" for row in content.option_rows(result) if row.feasible]
    return [f"{t('col.job_days')}: {', '.join(days)}"]


def _by_name(result: Result) -> list[dict]:
    """The option rows of the JSON in the order of :func:`content.option_rows`."""
    rows = {row["name"]: row for row in result.data["options"]}
    return [rows[row.name] for row in content.option_rows(result)]



def mix_table(mix, title: str, lang: str = "en") -> rich.console.Group:
    """``planner optimize``'s output: the best mix above, the nearest alternatives in the
    table (their present value and the difference to the best), the rent-then-buy rule
    below."""
    from rich.table import Table

    from planner.render import fmt

    currency = mix.currency
    with i18n.language(lang):
        rules = [i18n.text(m) for m in mix.rule_messages()]
        table = Table(title=f"{title}: {t('mix.title')}", caption="\n\n".join(rules),
                      caption_justify="left")
        table.add_column(t("mix.change"))
        table.add_column(t("term.pv"), justify="right")
        table.add_column(t("mix.versus"), justify="right")
        for row in mix.alternatives.itertuples():
            table.add_row(i18n.text(row.message), fmt.money(row.present_value, currency),
                          fmt.money(row.versus_best, currency) if row.versus_best <= 0
                          else "+" + fmt.money(row.versus_best, currency))
        from rich.console import Group
        from rich.text import Text

        return Group(Text("\n".join(content.mix_sentences(mix))), table)
