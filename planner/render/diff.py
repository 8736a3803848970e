"""What changed between two plans, and how the decision moved.

>>> import planner
>>> change = planner.diff("old.yaml", "new.yaml")      # doctest: +SKIP
>>> change.cheapest, [c.path for c in change.inputs]   # doctest: +SKIP

Either side may be a usage file's path, a dict of its content, a :class:`planner.Plan` or a
:class:`planner.Result`. Inputs are compared on the validated documents with their defaults
filled in (a value written out that equals its default is no change), key by key, each named
by its dotted path with options by name (``options.workstation.own.system_price``, as
:meth:`planner.Plan.replace` takes them). Options are matched by name: one in a single plan is
added or removed, not compared key by key; the order of the options is not compared. Lists
(``catalogs``, a tier's ``gpu_options``) and a kind key whose form changed (a catalog id
against an inline map) are compared as whole values. With a Result on either side there is no
document, and the inputs are not compared (``inputs`` is ``None``).

The decision: the cheapest option before and after; every option's feasibility, total cost,
present value and cost per GPU-hour before and after, with the change; every break-even pair's
months and break-even usage before and after. Money changes are left out (``None``) when the
two plans are in different currencies.
"""

from __future__ import annotations

import datetime
import json
import math
import os
import sys
import types
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner import fmt
from planner.files import write_atomic

if TYPE_CHECKING:
    import rich.console

    from planner.result import Result

FORMATS = ("md", "json", "html", "pdf")
SUFFIXES = {".md": "md", ".json": "json", ".html": "html", ".htm": "html", ".pdf": "pdf"}
#: Relative difference below which two figures count as the same (rounding noise).
TOLERANCE = 1e-9

__all__ = ["FORMATS", "PlanDiff", "diff", "render", "write_diff"]


@dataclass
class InputChange:
    """One input whose value differs: ``old``/``new`` are ``None`` where a key is absent."""

    path: str
    old: Any
    new: Any


@dataclass
class Side:
    """One plan of the comparison."""

    name: str
    title: str
    currency: str
    horizon_months: int
    cheapest: str | None
    recommendation: str


@dataclass
class OptionChange:
    """One option's figures before and after (``None`` in a plan without the option).

    ``status``: ``added``, ``removed``, ``changed`` (feasibility or a figure moved) or
    ``unchanged``.
    """

    name: str
    status: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    change: dict[str, float | None]


@dataclass
class BreakEvenChange:
    """One (own, versus) pair before and after; ``months`` ``None``: never within the horizon
    (inside ``old``/``new``), ``old``/``new`` ``None``: the pair is not in that plan."""

    own: str
    versus: str
    status: str
    old: dict[str, Any] | None
    new: dict[str, Any] | None
    change: dict[str, float | None]


OPTION_FIGURES = ("kind", "feasible", "total_cost", "present_value", "cost_per_gpu_hour")
MONEY_FIGURES = ("total_cost", "present_value", "cost_per_gpu_hour")
PAIR_FIGURES = ("months", "system_hours", "gpu_hours_per_month")


@dataclass
class PlanDiff:
    """What changed between two plans; :meth:`to_dict` is its JSON form."""

    old: Side
    new: Side
    inputs: list[InputChange] | None
    options_added: list[str]
    options_removed: list[str]
    options: list[OptionChange]
    break_even: list[BreakEvenChange]
    notes: list[str] = field(default_factory=list)

    @property
    def cheapest(self) -> tuple[str | None, str | None]:
        """The cheapest option before and after."""
        return self.old.cheapest, self.new.cheapest

    @property
    def decision_changed(self) -> bool:
        return self.old.cheapest != self.new.cheapest

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: ``format_version``, ``old``, ``new``, ``cheapest``
        (``old``/``new``/``changed``), ``inputs`` (a list of ``path``/``old``/``new``, or
        null when not compared), ``options_added``, ``options_removed``, ``options``,
        ``break_even`` and ``notes``."""
        return {
            "format_version": 1,
            "old": asdict(self.old),
            "new": asdict(self.new),
            "cheapest": {"old": self.old.cheapest, "new": self.new.cheapest,
                         "changed": self.decision_changed},
            "inputs": None if self.inputs is None else [asdict(c) for c in self.inputs],
            "options_added": list(self.options_added),
            "options_removed": list(self.options_removed),
            "options": [asdict(o) for o in self.options],
            "break_even": [asdict(b) for b in self.break_even],
            "notes": list(self.notes),
        }


# -- computing ----------------------------------------------------------------------------------


def _load_sides(old: Any, new: Any) -> tuple[Any, Any]:
    """Both sides as a Plan or a Result; paths and dicts are loaded, and the problems of both
    are raised together."""
    from planner.errors import UserError
    from planner.plan import Plan, load
    from planner.result import Result

    loaded, problems = [], []
    for side in (old, new):
        if isinstance(side, (Plan, Result)):
            loaded.append(side)
            continue
        if not isinstance(side, (str, os.PathLike, Mapping)):
            raise TypeError(f"cannot compare a {type(side).__name__}: give a path, a dict, a "
                            "Plan or a Result")
        try:
            loaded.append(load(side))
        except UserError as err:
            problems += err.problems
            loaded.append(None)
    if problems:
        raise UserError(problems)
    return loaded[0], loaded[1]


def _name(side: Any) -> str:
    from planner.plan import Plan

    if isinstance(side, Plan) and side.document.file:
        return Path(str(side.document.file)).name
    if isinstance(side, Plan):
        return "plan"
    return "result"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (a == b and type(a) is type(b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if fmt.is_missing(a) or fmt.is_missing(b):
            return fmt.is_missing(a) and fmt.is_missing(b)
        return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=0.0) or a == b
    return a == b


_ABSENT = object()


def _walk(old: Any, new: Any, path: str, out: list[InputChange]) -> None:
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        keys = list(old) + [k for k in new if k not in old]
        for key in keys:
            _walk(old.get(key, _ABSENT), new.get(key, _ABSENT), f"{path}.{key}" if path else key,
                  out)
        return
    if old is _ABSENT and new is _ABSENT:
        return
    if old is not _ABSENT and new is not _ABSENT and _same(old, new):
        return
    out.append(InputChange(path, None if old is _ABSENT else old,
                           None if new is _ABSENT else new))


def input_changes(old: dict[str, Any], new: dict[str, Any]) -> tuple[list[InputChange],
                                                                      list[str], list[str]]:
    """(changes, options added, options removed) between two validated usage documents, in
    the order of the document's keys."""
    changes: list[InputChange] = []
    old_options = {o["name"]: o for o in old.get("options") or []}
    new_options = {o["name"]: o for o in new.get("options") or []}
    for key in list(old) + [k for k in new if k not in old]:
        if key != "options":
            _walk(old.get(key, _ABSENT), new.get(key, _ABSENT), key, changes)
            continue
        for name, entry in old_options.items():
            if name in new_options:
                _walk({k: v for k, v in entry.items() if k != "name"},
                      {k: v for k, v in new_options[name].items() if k != "name"},
                      f"options.{name}", changes)
    added = [n for n in new_options if n not in old_options]
    removed = [n for n in old_options if n not in new_options]
    return changes, added, removed


def _figures(row: dict[str, Any] | None, keys: tuple[str, ...]) -> dict[str, Any] | None:
    if row is None:
        return None
    return {k: row.get(k) for k in keys}


def _delta(old: Any, new: Any) -> float | None:
    if fmt.is_missing(old) or fmt.is_missing(new) or isinstance(old, bool):
        return None
    return float(new) - float(old)


def _moved(old: dict[str, Any], new: dict[str, Any], keys: tuple[str, ...]) -> bool:
    return any(not _same(old.get(k), new.get(k)) for k in keys)


def _status(before: dict[str, Any] | None, after: dict[str, Any] | None,
            keys: tuple[str, ...]) -> str:
    """added, removed, changed (one of ``keys`` moved) or unchanged."""
    if before is None:
        return "added"
    if after is None:
        return "removed"
    return "changed" if _moved(before, after, keys) else "unchanged"


def _side(name: str, result: Result) -> Side:
    from planner.report.content import recommendation

    data = result.data
    return Side(name=name, title=str(data["title"]), currency=str(data["currency"]),
                horizon_months=int(data["horizon_months"]), cheapest=data.get("cheapest"),
                recommendation=recommendation(result))


def compare(old_result: Result, new_result: Result, *, old_name: str = "old",
            new_name: str = "new", old_usage: dict[str, Any] | None = None,
            new_usage: dict[str, Any] | None = None) -> PlanDiff:
    """The difference of two evaluated plans (and of their usage documents, when given)."""
    old_data, new_data = old_result.data, new_result.data
    same_money = old_data["currency"] == new_data["currency"]
    notes = []
    if not same_money:
        notes.append(f"The plans are in different currencies ({old_data['currency']} and "
                     f"{new_data['currency']}): money changes are not computed.")
    if old_data["horizon_months"] != new_data["horizon_months"]:
        notes.append(f"The horizons differ ({old_data['horizon_months']} and "
                     f"{new_data['horizon_months']} months): totals cover different periods.")

    old_rows = {r["name"]: r for r in old_data["options"]}
    new_rows = {r["name"]: r for r in new_data["options"]}
    names = list(old_rows) + [n for n in new_rows if n not in old_rows]
    options = []
    for name in names:
        before, after = old_rows.get(name), new_rows.get(name)
        change = {k: (_delta(before.get(k), after.get(k))
                      if before and after and same_money else None) for k in MONEY_FIGURES}
        status = _status(before, after, OPTION_FIGURES)
        options.append(OptionChange(name, status, _figures(before, OPTION_FIGURES),
                                    _figures(after, OPTION_FIGURES), change))

    old_pairs = {(p["own"], p["versus"]): p for p in old_data.get("break_even") or []}
    new_pairs = {(p["own"], p["versus"]): p for p in new_data.get("break_even") or []}
    pairs = []
    for key in list(old_pairs) + [k for k in new_pairs if k not in old_pairs]:
        before, after = old_pairs.get(key), new_pairs.get(key)
        change = {k: _delta(before.get(k), after.get(k)) if before and after else None
                  for k in ("months", "gpu_hours_per_month")}
        status = _status(before, after, PAIR_FIGURES)
        pairs.append(BreakEvenChange(key[0], key[1], status, _figures(before, PAIR_FIGURES),
                                     _figures(after, PAIR_FIGURES), change))

    inputs = None
    added = [n for n in new_rows if n not in old_rows]
    removed = [n for n in old_rows if n not in new_rows]
    if old_usage is not None and new_usage is not None:
        inputs, added, removed = input_changes(old_usage, new_usage)
    return PlanDiff(old=_side(old_name, old_result), new=_side(new_name, new_result),
                    inputs=inputs, options_added=added, options_removed=removed,
                    options=options, break_even=pairs, notes=notes)


def diff(old: Any, new: Any) -> PlanDiff:
    """What changed from ``old`` to ``new``: each a usage file's path, a dict of its content,
    a Plan or a Result. Paths and dicts are loaded; the problems of both sides are raised
    together as one :class:`planner.UserError`."""
    from planner.errors import UserError
    from planner.plan import Plan

    old, new = _load_sides(old, new)
    results, problems = [], []
    for side in (old, new):
        if isinstance(side, Plan):
            try:
                results.append(side.evaluate())
            except UserError as err:
                problems += err.problems
        else:
            results.append(side)
    if problems:
        raise UserError(problems)
    usages = (old.usage, new.usage) if isinstance(old, Plan) and isinstance(new, Plan) else \
        (None, None)
    return compare(results[0], results[1], old_name=_name(old), new_name=_name(new),
                   old_usage=usages[0], new_usage=usages[1])


# -- text ---------------------------------------------------------------------------------------


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
    months = pair.get("months")
    if fmt.is_missing(months):
        return "never"
    return "from the start" if months == 0 else fmt.months(months)


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


def _title(d: PlanDiff) -> str:
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
    from planner.report.plain import markdown_table

    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")
    lines = [f"# {cell(_title(d))}", "",
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
    lines += ["## Recommendation", "", f"Before: {d.old.recommendation}", "",
              f"After: {d.new.recommendation}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def render_html(d: PlanDiff, date: datetime.date, paper: str = "a4") -> str:
    """The difference as a stand-alone HTML page in the report's style (``templates/diff.html``),
    printed on ``paper``: the same sections as :func:`render_markdown`."""
    from planner.report import i18n
    from planner.report.html import check_paper, environment, page_context

    check_paper(paper)
    with i18n.language("en"):
        page = {
            **page_context(paper),
            "title": _title(d), "date": date.isoformat(), "old": d.old.name, "new": d.new.name,
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
    return json.dumps(d.to_dict(), indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def render(d: PlanDiff, fmt_name: str, *, date: datetime.date | None = None) -> bytes:
    """The difference in format ``fmt_name`` (:data:`FORMATS`: md, json, html, pdf), dated
    ``date`` (default as reports: SOURCE_DATE_EPOCH's day, else today)."""
    if fmt_name not in FORMATS:
        raise ValueError(f"unknown diff format {fmt_name!r}; use one of {', '.join(FORMATS)}")
    from planner.report import report_date

    date = date or report_date()
    if fmt_name == "json":
        return render_json(d).encode("utf-8")
    if fmt_name == "html":
        return render_html(d, date).encode("utf-8")
    if fmt_name == "pdf":
        from planner.report.html import print_pdf

        return print_pdf(render_html(d, date), date)
    return render_markdown(d, date).encode("utf-8")


def format_for(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        shown = f"'{suffix}'" if suffix else "no suffix"
        raise ValueError(f"cannot tell the diff format from {shown} in {str(path)!r}; use one "
                         f"of {', '.join(SUFFIXES)}")
    return SUFFIXES[suffix]


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

    console.print(Text(_title(d), style="bold"))
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


class _CallableModule(types.ModuleType):
    """Lets ``planner.diff(old, new)`` work although ``planner.diff`` is also this module:
    importing it binds the module, not the function, to that name."""

    def __call__(self, old: Any, new: Any) -> PlanDiff:
        return diff(old, new)


sys.modules[__name__].__class__ = _CallableModule
