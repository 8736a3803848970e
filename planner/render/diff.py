"""What changed between two plans, as text: the terminal summary, Markdown, JSON, and a page in
the report's style (HTML, PDF). The comparison itself is :mod:`planner.evaluate.compare`.

The comparison holds data; the recommendation sentence of each side is text, so it is written
here (:func:`with_recommendations`, in English, from each side's Result) and kept in the
side's ``recommendation`` field, so that ``PlanDiff.to_dict()`` and the JSON file both carry it.
Every renderer below writes it in when the comparison does not hold it yet.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.evaluate.compare import PlanDiff
from planner.render import fmt, formats
from planner.render.formats import DIFF_FORMATS as FORMATS
from planner.render.formats import DIFF_SUFFIXES as SUFFIXES
from pricing.files import write_atomic

if TYPE_CHECKING:
    import rich.console


__all__ = ["FORMATS", "SUFFIXES", "render", "with_recommendations", "write_diff"]


def with_recommendations(d: PlanDiff) -> PlanDiff:
    """``d`` with each side's recommendation sentence written (English; the sides' Results
    say what to recommend); ``d`` itself is left as it is."""
    from planner.render import i18n
    from planner.render.content import recommendation

    with i18n.language("en"):
        return dataclasses.replace(
            d, old=dataclasses.replace(d.old, recommendation=recommendation(d.old.result)),
            new=dataclasses.replace(d.new, recommendation=recommendation(d.new.result)))



def value_text(value: Any) -> str:
    """An input value as text: "—" for none, numbers as written, maps and lists as JSON."""
    if value is None:
        return fmt.MISSING
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return fmt.figure(value, 6)
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False, sort_keys=False)
    return str(value)


def _signed(text: str, value: float) -> str:
    return text if text.startswith("-") or value == 0 else "+" + text


def money_change(value: float | None, currency: str, decimals: int = 0) -> str:
    if fmt.is_missing(value):
        return fmt.MISSING
    rounded = round(value, decimals)
    return _signed(fmt.money(rounded, currency, decimals=decimals), rounded)


def _money(row: dict[str, Any] | None, key: str, currency: str, decimals: int = 0) -> str:
    if row is None:
        return "not in plan"
    if not row.get("feasible"):
        return "infeasible"
    return fmt.money(row.get(key), currency, decimals=decimals)


def _months(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return "not in plan"
    return fmt.break_even_months(pair.get("months"))


def _months_change(value: float | None) -> str:
    if fmt.is_missing(value):
        return fmt.MISSING
    rounded = round(value, 1)
    return _signed(fmt.number(rounded, 1), rounded)


def _usage(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return "not in plan"
    return fmt.number(pair.get("gpu_hours_per_month"))


def decision_sentence(d: PlanDiff) -> str:
    """The decision in one sentence: whether the cheapest option changed."""
    old, new = d.old.cheapest, d.new.cheapest
    if old == new:
        if old is None:
            return "No option can serve the demand, before or after."
        return f"The cheapest option stays {old}."
    if old is None:
        return f"Before, no option could serve the demand; now {new} is the cheapest."
    if new is None:
        return f"The cheapest option was {old}; now no option can serve the demand."
    return f"The cheapest option changes from {old} to {new}."


def diff_title(d: PlanDiff) -> str:
    if d.old.title == d.new.title:
        return f"What changed: {d.new.title}"
    return f"What changed: {d.old.title} → {d.new.title}"


def option_table_rows(d: PlanDiff) -> list[list[str]]:
    """Option, total before/after/change, present value before/after/change (text)."""
    rows = []
    for o in d.options:
        name = o.name + {"added": " (added)", "removed": " (removed)"}.get(o.status, "")
        rows.append([name,
                     _money(o.old, "total_cost", d.old.currency),
                     _money(o.new, "total_cost", d.new.currency),
                     money_change(o.change["total_cost"], d.new.currency),
                     _money(o.old, "present_value", d.old.currency),
                     _money(o.new, "present_value", d.new.currency),
                     money_change(o.change["present_value"], d.new.currency)])
    return rows


def break_even_table_rows(d: PlanDiff) -> list[list[str]]:
    rows = []
    for b in d.break_even:
        rows.append([b.own, b.versus, _months(b.old), _months(b.new),
                     _months_change(b.change["months"]), _usage(b.old), _usage(b.new)])
    return rows


OPTION_HEADER = ["Option", "Total before", "Total after", "Change", "Present value before",
                 "Present value after", "Change"]
BREAK_EVEN_HEADER = ["Own", "Against", "Pays off before", "Pays off after", "Change (months)",
                     "Break-even usage before", "Break-even usage after"]


def render_markdown(d: PlanDiff, date: datetime.date) -> str:
    """The difference as Markdown: decision, inputs changed, options, break-even, and the
    recommendation before and after."""
    from planner.render.plain import markdown_table

    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    lines = [f"# {cell(diff_title(d))}", "",
             f"{date.isoformat()} · {cell(d.old.name)} → {cell(d.new.name)}", "",
             decision_sentence(d), ""]
    lines += [f"- {cell(n)}" for n in d.notes] + ([""] if d.notes else [])
    lines += ["## Inputs changed", ""]
    if d.inputs is None:
        lines += ["Not compared: one side is an evaluated result without its usage file.", ""]
    elif not d.inputs:
        lines += ["No input value differs (defaults filled in).", ""]
    else:
        lines += markdown_table(["Key", "Before", "After"],
                                [[c.path, value_text(c.old), value_text(c.new)] for c in d.inputs],
                                numeric=set())
        lines.append("")
    if d.options_added:
        lines += [f"Options added: {', '.join(d.options_added)}.", ""]
    if d.options_removed:
        lines += [f"Options removed: {', '.join(d.options_removed)}.", ""]
    lines += ["## Costs", ""]
    lines += markdown_table(OPTION_HEADER, option_table_rows(d), numeric={1, 2, 3, 4, 5, 6})
    lines.append("")
    if d.break_even:
        lines += ["## When buying pays off", ""]
        lines += markdown_table(BREAK_EVEN_HEADER, break_even_table_rows(d),
                                numeric={2, 3, 4, 5, 6})
        lines += ["", "Break-even usage: month-1 demand in reference GPU-hours.", ""]
    d = with_recommendations(d)
    lines += ["## Recommendation", "", f"Before: {d.old.recommendation}", "",
              f"After: {d.new.recommendation}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_html(d: PlanDiff, date: datetime.date, paper: str = "a4") -> str:
    """The difference as a stand-alone HTML page in the report's style (``templates/diff.html``),
    printed on ``paper``: the same sections as :func:`render_markdown`."""
    from planner.render import i18n
    from planner.render.html import environment, page_context
    from planner.render.paper import check_paper

    check_paper(paper)
    d = with_recommendations(d)
    with i18n.language("en"):
        page = {
            **page_context(paper),
            "title": diff_title(d), "date": date.isoformat(), "old": d.old.name, "new": d.new.name,
            "decision": decision_sentence(d), "notes": d.notes,
            "inputs": None if d.inputs is None else [
                [c.path, value_text(c.old), value_text(c.new)] for c in d.inputs],
            "added": d.options_added, "removed": d.options_removed,
            "option_header": OPTION_HEADER, "option_rows": option_table_rows(d),
            "break_even_header": BREAK_EVEN_HEADER,
            "break_even_rows": break_even_table_rows(d),
            "before": d.old.recommendation, "after": d.new.recommendation,
        }
        return environment().get_template("diff.html").render(page)


def render_json(d: PlanDiff) -> str:
    """``d.to_dict()`` as JSON, the recommendations written in."""
    data = with_recommendations(d).to_dict()
    return json.dumps(data, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def render(d: PlanDiff, fmt_name: str, *, date: datetime.date | None = None) -> bytes:
    """The difference in format ``fmt_name`` (:data:`FORMATS`: md, json, html, pdf), dated
    ``date`` (default as reports: SOURCE_DATE_EPOCH's day, else today)."""
    if fmt_name not in FORMATS:
        raise ValueError(f"unknown diff format {fmt_name!r}; use one of {', '.join(FORMATS)}")
    from planner.render import report_date

    date = date or report_date()
    if fmt_name == "json":
        return render_json(d).encode("utf-8")
    if fmt_name == "html":
        return render_html(d, date).encode("utf-8")
    if fmt_name == "pdf":
        from planner.render.html import print_pdf

        return print_pdf(render_html(d, date), date)
    return render_markdown(d, date).encode("utf-8")


def format_for(path: str | Path) -> str:
    """The diff format ``path``'s suffix names; ValueError for an unknown suffix."""
    return formats.format_for(path, SUFFIXES, "diff")


def write_diff(d: PlanDiff, path: str | Path, fmt_name: str | None = None, *,
               date: datetime.date | None = None) -> Path:
    """Write the difference to ``path``, completely or not at all (rendered in memory, written
    to a temporary file in the same folder, then moved over ``path``)."""
    path = Path(path)
    content = render(d, fmt_name or format_for(path), date=date)
    write_atomic(path, content)
    return path




def _arrow(before: str, after: str, status: str) -> str:
    """"before → after"; one figure when it did not move or the row is in one plan only."""
    if status == "added":
        return after
    if status == "removed" or before == after:
        return before
    return f"{before} → {after}"


def _bare_months(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return fmt.MISSING
    return "never" if fmt.is_missing(pair.get("months")) else fmt.number(pair["months"], 1)


def print_summary(d: PlanDiff, console: rich.console.Console) -> None:
    """The terminal summary: decision, inputs changed, costs and break-even ("before →
    after", one figure when it did not move)."""
    from rich.table import Table
    from rich.text import Text

    console.print(Text(diff_title(d), style="bold"))
    console.print(f"{d.old.name} → {d.new.name}")
    style = "bold yellow" if d.decision_changed else "green"
    console.print(Text(decision_sentence(d), style=style))
    for note in d.notes:
        console.print(Text(note, style="yellow"))
    if d.inputs is None:
        console.print("Inputs not compared (a result on one side).")
    elif not d.inputs:
        console.print("No input value differs.")
    else:
        table = Table(title="Inputs changed", title_justify="left")
        table.add_column("Key", no_wrap=True)
        table.add_column("Before", overflow="fold")
        table.add_column("After", overflow="fold")
        for c in d.inputs:
            table.add_row(c.path, value_text(c.old), value_text(c.new))
        console.print(table)
    if d.options_added:
        console.print(f"Options added: {', '.join(d.options_added)}")
    if d.options_removed:
        console.print(f"Options removed: {', '.join(d.options_removed)}")
    table = Table(title=f"Costs ({d.new.currency}), before → after", title_justify="left",
                  caption="★ the cheapest option after the change", caption_justify="left")
    table.add_column("Option", no_wrap=True)
    for label in ("Total cost", "Change", "Present value", "Change"):
        table.add_column(label, justify="right")
    for row, option in zip(option_table_rows(d), d.options):
        cheapest = option.name == d.new.cheapest
        name = Text(row[0] + (" ★" if cheapest else ""), style="bold green" if cheapest else "")
        table.add_row(name, _arrow(row[1], row[2], option.status), row[3],
                      _arrow(row[4], row[5], option.status), row[6])
    console.print(table)
    if d.break_even:
        table = Table(title="When buying pays off, before → after", title_justify="left")
        table.add_column("Own", no_wrap=True)
        table.add_column("Against", no_wrap=True)
        for label in ("Pays off (months)", "Change", "Break-even usage"):
            table.add_column(label, justify="right")
        for row, pair in zip(break_even_table_rows(d), d.break_even):
            table.add_row(row[0], row[1], _arrow(_bare_months(pair.old),
                                                 _bare_months(pair.new), pair.status),
                          row[4], _arrow(row[5], row[6], pair.status))
        console.print(table)
