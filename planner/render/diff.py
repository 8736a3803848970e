"""What changed between two plans, as text: the terminal summary, Markdown, JSON, and a page in
the report's style (HTML, PDF). The comparison itself is :mod:`planner.evaluate.compare`.

The comparison holds data; the recommendation sentence of each side is text, so it is written
here (:func:`with_recommendations`, in English, from each side's Result) and kept in the
side's ``recommendation`` field, so that ``PlanDiff.to_dict()`` and the JSON file both carry it.
The summary, the Markdown and the page are written in the reader's language (``lang``, as a
report's): their texts are the catalogue's ``diff.*`` keys, and a Chinese page writes each
side's recommendation from its Result again, in Chinese. The JSON stays English.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.evaluate.compare import PlanDiff
from planner.render import fmt, formats, i18n
from planner.render.formats import DIFF_FORMATS as FORMATS
from planner.render.formats import DIFF_SUFFIXES as SUFFIXES
from planner.render.i18n import t, text
from pricing.files import write_atomic

if TYPE_CHECKING:
    import rich.console


__all__ = ["FORMATS", "SUFFIXES", "render", "with_recommendations", "write_diff"]


def with_recommendations(d: PlanDiff) -> PlanDiff:
    """``d`` with each side's recommendation sentence written (English; the sides' Results
    say what to recommend); ``d`` itself is left as it is."""
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
        return t("diff.not_in_plan")
    if not row.get("feasible"):
        return t("diff.infeasible")
    return fmt.money(row.get(key), currency, decimals=decimals)


def _months(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return t("diff.not_in_plan")
    return fmt.break_even_months(pair.get("months"))


def _months_change(value: float | None) -> str:
    if fmt.is_missing(value):
        return fmt.MISSING
    rounded = round(value, 1)
    return _signed(fmt.number(rounded, 1), rounded)


def _usage(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return t("diff.not_in_plan")
    return fmt.number(pair.get("gpu_hours_per_month"))


def decision_sentence(d: PlanDiff) -> str:
    """The decision in one sentence, in the current language: whether the cheapest option
    changed."""
    old, new = d.old.cheapest, d.new.cheapest
    if old == new:
        return t("diff.none_before_after") if old is None else t("diff.stays", old=old)
    if old is None:
        return t("diff.now_some", new=new)
    if new is None:
        return t("diff.now_none", old=old)
    return t("diff.changes", old=old, new=new)


def diff_title(d: PlanDiff) -> str:
    if d.old.title == d.new.title:
        return t("diff.title", title=d.new.title)
    return t("diff.title_two", old=d.old.title, new=d.new.title)


def option_table_rows(d: PlanDiff) -> list[list[str]]:
    """Option, total before/after/change, present value before/after/change (text)."""
    rows = []
    for o in d.options:
        name = t(f"diff.{o.status}", name=o.name) if o.status in ("added", "removed") else o.name
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


def option_header() -> list[str]:
    """The heads of :func:`option_table_rows`, in the current language."""
    return [t(f"diff.col.{key}") for key in ("option", "total_before", "total_after", "change",
                                             "pv_before", "pv_after", "change")]


def break_even_header() -> list[str]:
    """The heads of :func:`break_even_table_rows`, in the current language."""
    return [t(f"diff.col.{key}") for key in ("own", "against", "pays_before", "pays_after",
                                             "months_change", "usage_before", "usage_after")]


def input_header() -> list[str]:
    return [t("diff.col.key"), t("diff.col.before"), t("diff.col.after")]


def _names(names: list[str]) -> str:
    return t("list.sep").join(names)


def notes(d: PlanDiff) -> list[str]:
    """The comparison's notes in the current language."""
    return [i18n.text(message) for message in d.messages]


def recommendations(d: PlanDiff) -> tuple[str, str]:
    """Each side's recommendation in the current language (the English one is the one the
    comparison holds, :func:`with_recommendations`)."""
    from planner.render.content import recommendation

    if i18n.current() == "en":
        d = with_recommendations(d)
        return d.old.recommendation or "", d.new.recommendation or ""
    return recommendation(d.old.result), recommendation(d.new.result)


def render_markdown(d: PlanDiff, date: datetime.date, lang: str = "en") -> str:
    """The difference as Markdown in ``lang``: decision, inputs changed, options, break-even,
    and the recommendation before and after."""
    with i18n.language(lang):
        return _markdown(d, date)


def _markdown(d: PlanDiff, date: datetime.date) -> str:
    from planner.render.plain import markdown_table

    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    lines = [f"# {cell(diff_title(d))}", "",
             f"{date.isoformat()} · {cell(text(d.old.name))} → {cell(text(d.new.name))}", "",
             decision_sentence(d), ""]
    lines += [f"- {cell(n)}" for n in notes(d)] + ([""] if d.messages else [])
    lines += [f"## {t('diff.h.inputs')}", ""]
    if d.inputs is None:
        lines += [t("diff.inputs_not_compared"), ""]
    elif not d.inputs:
        lines += [t("diff.no_input_differs"), ""]
    else:
        lines += markdown_table(input_header(),
                                [[c.path, value_text(c.old), value_text(c.new)] for c in d.inputs],
                                numeric=set())
        lines.append("")
    if d.options_added:
        lines += [t("diff.options_added", names=_names(d.options_added)), ""]
    if d.options_removed:
        lines += [t("diff.options_removed", names=_names(d.options_removed)), ""]
    lines += [f"## {t('diff.h.costs')}", ""]
    lines += markdown_table(option_header(), option_table_rows(d), numeric={1, 2, 3, 4, 5, 6})
    lines.append("")
    if d.break_even:
        lines += [f"## {t('diff.h.break_even')}", ""]
        lines += markdown_table(break_even_header(), break_even_table_rows(d),
                                numeric={2, 3, 4, 5, 6})
        lines += ["", t("diff.usage_note"), ""]
    before, after = recommendations(d)
    lines += [f"## {t('diff.h.recommendation')}", "", t("diff.before", text=before), "",
              t("diff.after", text=after), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_html(d: PlanDiff, date: datetime.date, paper: str = "a4", lang: str = "en") -> str:
    """The difference as a stand-alone HTML page in the report's style (``templates/diff.html``),
    printed on ``paper``, in ``lang`` (already resolved, as a report's: :func:`i18n.resolve`):
    the same sections as :func:`render_markdown`."""
    from planner.render.html import environment, page_context
    from planner.render.paper import check_paper

    check_paper(paper)
    with i18n.language(lang):
        before, after = recommendations(d)
        page = {
            **page_context(paper),
            "title": diff_title(d), "date": date.isoformat(), "old": text(d.old.name),
            "new": text(d.new.name),
            "decision": decision_sentence(d), "notes": notes(d),
            "inputs": None if d.inputs is None else [
                [c.path, value_text(c.old), value_text(c.new)] for c in d.inputs],
            "input_header": input_header(),
            "added": d.options_added and t("diff.options_added", names=_names(d.options_added)),
            "removed": d.options_removed and t("diff.options_removed",
                                               names=_names(d.options_removed)),
            "option_header": option_header(), "option_rows": option_table_rows(d),
            "break_even_header": break_even_header(),
            "break_even_rows": break_even_table_rows(d),
            "before": before, "after": after,
        }
        return environment().get_template("diff.html").render(page)


def render_json(d: PlanDiff) -> str:
    """``d.to_dict()`` as JSON, the recommendations written in."""
    data = with_recommendations(d).to_dict()
    return json.dumps(data, indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def render(d: PlanDiff, fmt_name: str, *, date: datetime.date | None = None,
           paper: str = "a4", lang: str = "en") -> bytes:
    """The difference in format ``fmt_name`` (:data:`FORMATS`: md, json, html, pdf), dated
    ``date`` (default as reports: SOURCE_DATE_EPOCH's day, else today), on ``paper``, in
    ``lang`` as a report is (:func:`planner.render.render`: the JSON is English, its fields
    and the recommendations it holds; the HTML and PDF fall back to English, with a
    :class:`~planner.render.i18n.LanguageFallbackWarning`, where no font prints Chinese)."""
    if fmt_name not in FORMATS:
        raise ValueError(f"unknown diff format {fmt_name!r}; use one of {', '.join(FORMATS)}")
    from planner.render import report_date

    i18n.check(lang)
    date = date or report_date()
    if fmt_name == "json":
        return render_json(d).encode("utf-8")
    if fmt_name in ("html", "pdf"):
        html = render_html(d, date, paper, i18n.resolve(lang))
        if fmt_name == "html":
            return html.encode("utf-8")
        from planner.render.html import print_pdf

        return print_pdf(html, date)
    return render_markdown(d, date, lang).encode("utf-8")


def format_for(path: str | Path) -> str:
    """The diff format ``path``'s suffix names; ValueError for an unknown suffix."""
    return formats.format_for(path, SUFFIXES, "diff")


def write_diff(d: PlanDiff, path: str | Path, fmt_name: str | None = None, *,
               date: datetime.date | None = None, paper: str = "a4", lang: str = "en") -> Path:
    """Write the difference to ``path``, completely or not at all (rendered in memory, written
    to a temporary file in the same folder, then moved over ``path``); ``paper`` and ``lang``
    as in :func:`render`."""
    path = Path(path)
    content = render(d, fmt_name or format_for(path), date=date, paper=paper, lang=lang)
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
    return t("value.never") if fmt.is_missing(pair.get("months")) else fmt.number(pair["months"], 1)


def print_summary(d: PlanDiff, console: rich.console.Console, lang: str = "en") -> None:
    """The terminal summary in ``lang``: decision, inputs changed, costs and break-even
    ("before → after", one figure when it did not move)."""
    with i18n.language(lang):
        _print_summary(d, console)


def _print_summary(d: PlanDiff, console: rich.console.Console) -> None:
    from rich.table import Table
    from rich.text import Text

    console.print(Text(diff_title(d), style="bold"))
    console.print(Text(f"{text(d.old.name)} → {text(d.new.name)}"))  # names: never markup
    style = "bold yellow" if d.decision_changed else "green"
    console.print(Text(decision_sentence(d), style=style))
    for note in notes(d):
        console.print(Text(note, style="yellow"))
    if d.inputs is None:
        console.print(t("diff.t.inputs_not_compared"))
    elif not d.inputs:
        console.print(t("diff.t.no_input_differs"))
    else:
        table = Table(title=t("diff.h.inputs"), title_justify="left")
        key, before, after = input_header()
        table.add_column(key, no_wrap=True)
        table.add_column(before, overflow="fold")
        table.add_column(after, overflow="fold")
        for c in d.inputs:
            table.add_row(c.path, value_text(c.old), value_text(c.new))
        console.print(table)
    if d.options_added:
        console.print(t("diff.t.options_added", names=_names(d.options_added)))
    if d.options_removed:
        console.print(t("diff.t.options_removed", names=_names(d.options_removed)))
    table = Table(title=t("diff.t.costs", currency=d.new.currency), title_justify="left",
                  caption=t("diff.t.cheapest"), caption_justify="left")
    table.add_column(t("diff.col.option"), no_wrap=True)
    change = t("diff.col.change")
    for label in (t("diff.t.total"), change, t("diff.t.pv"), change):
        table.add_column(label, justify="right")
    for row, option in zip(option_table_rows(d), d.options):
        cheapest = option.name == d.new.cheapest
        name = Text(row[0] + (" ★" if cheapest else ""), style="bold green" if cheapest else "")
        table.add_row(name, _arrow(row[1], row[2], option.status), row[3],
                      _arrow(row[4], row[5], option.status), row[6])
    console.print(table)
    if d.break_even:
        table = Table(title=t("diff.t.break_even"), title_justify="left")
        table.add_column(t("diff.col.own"), no_wrap=True)
        table.add_column(t("diff.col.against"), no_wrap=True)
        for label in (t("diff.t.pays_off"), change, t("diff.t.usage")):
            table.add_column(label, justify="right")
        for row, pair in zip(break_even_table_rows(d), d.break_even):
            table.add_row(row[0], row[1], _arrow(_bare_months(pair.old),
                                                 _bare_months(pair.new), pair.status),
                          row[4], _arrow(row[5], row[6], pair.status))
        console.print(table)
