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

import math
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner import display
from planner.messages import Message, Text, render
from planner.result import is_missing

if TYPE_CHECKING:
    from planner.result import Result

__all__ = ["PlanDiff", "compare", "diff"]

#: Relative difference below which two figures count as the same (rounding noise).
TOLERANCE = 1e-9



@dataclass
class InputChange:
    """One input whose value differs: ``old``/``new`` are ``None`` where a key is absent."""

    path: str
    old: Any
    new: Any


@dataclass
class Side:
    """One plan of the comparison.

    ``result`` is the plan's evaluated Result, the data the recommendation is made of.
    ``recommendation`` is that sentence, which is text, so the renderer writes it:
    :func:`planner.render.diff.with_recommendations` fills it in (``planner.diff`` and
    ``planner diff`` always do), and until then it is ``None``.
    """

    #: The side's name: its file's, or a message ("standard input", "usage.yaml with --set")
    #: that the renderer writes in the reader's language; English in ``str()`` and the JSON.
    name: Text
    title: str
    currency: str
    horizon_months: int
    cheapest: str | None
    result: Result = field(repr=False, compare=False)
    recommendation: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``name``, ``title``, ``currency``, ``horizon_months``, ``cheapest`` and
        ``recommendation`` (null until the renderer has written it)."""
        return {"name": str(self.name), "title": self.title, "currency": self.currency,
                "horizon_months": self.horizon_months, "cheapest": self.cheapest,
                "recommendation": self.recommendation}


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
    messages: list[Message] = field(default_factory=list)  # the notes, as messages

    @property
    def notes(self) -> list[str]:
        """What the reader should know about the comparison itself, in English."""
        return [render(message, "en") for message in self.messages]

    @property
    def cheapest(self) -> tuple[str | None, str | None]:
        """The cheapest option before and after."""
        return self.old.cheapest, self.new.cheapest

    @property
    def decision_changed(self) -> bool:
        return self.old.cheapest != self.new.cheapest

    def __repr__(self) -> str:
        old, new = self.cheapest
        count = None if self.inputs is None else len(self.inputs)
        inputs = ("inputs not compared" if count is None
                  else f"{count} input{'' if count == 1 else 's'} changed")
        names = f"{str(self.old.name)!r} → {str(self.new.name)!r}"
        return f"<PlanDiff {names}: cheapest {old!r} → {new!r}, {inputs}>"

    def _repr_html_(self) -> str:
        """Jupyter's view: the decision, the inputs that changed, the options' figures."""
        return display.show("diff_html", self)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: ``format_version``, ``old``, ``new``, ``cheapest``
        (``old``/``new``/``changed``), ``inputs`` (a list of ``path``/``old``/``new``, or
        null when not compared), ``options_added``, ``options_removed``, ``options``,
        ``break_even`` and ``notes``."""
        return {
            "format_version": 1,
            "old": self.old.to_dict(),
            "new": self.new.to_dict(),
            "cheapest": {"old": self.old.cheapest, "new": self.new.cheapest,
                         "changed": self.decision_changed},
            "inputs": None if self.inputs is None else [asdict(c) for c in self.inputs],
            "options_added": list(self.options_added),
            "options_removed": list(self.options_removed),
            "options": [asdict(o) for o in self.options],
            "break_even": [asdict(b) for b in self.break_even],
            "notes": list(self.notes),
        }


# ----------------------------------------------------------------------------------


def _load_sides(old: Any, new: Any) -> tuple[Any, Any]:
    """Both sides as a Plan or a Result; paths and dicts are loaded, and the problems of both
    are raised together."""
    from planner.errors import UserError
    from planner.evaluate.plan import Plan, load
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
    from planner.evaluate.plan import Plan

    if isinstance(side, Plan) and side.document.file:
        return Path(str(side.document.file)).name
    if isinstance(side, Plan):
        return "plan"
    return "result"


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or (a == b and type(a) is type(b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if is_missing(a) or is_missing(b):
            return is_missing(a) and is_missing(b)
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
    if is_missing(old) or is_missing(new) or isinstance(old, bool):
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


def _side(name: Text, result: Result) -> Side:
    data = result.data
    return Side(name=name, title=str(data["title"]), currency=str(data["currency"]),
                horizon_months=int(data["horizon_months"]), cheapest=data.get("cheapest"),
                result=result)


def compare(old_result: Result, new_result: Result, *, old_name: Text = "old",
            new_name: Text = "new", old_usage: dict[str, Any] | None = None,
            new_usage: dict[str, Any] | None = None) -> PlanDiff:
    """The difference of two evaluated plans (and of their usage documents, when given)."""
    old_data, new_data = old_result.data, new_result.data
    same_money = old_data["currency"] == new_data["currency"]
    notes = []
    if not same_money:
        notes.append(Message("diff.currencies", old=old_data["currency"],
                             new=new_data["currency"]))
    if old_data["horizon_months"] != new_data["horizon_months"]:
        notes.append(Message("diff.horizons", old=old_data["horizon_months"],
                             new=new_data["horizon_months"]))

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
                    options=options, break_even=pairs, messages=notes)


def diff(old: Any, new: Any) -> PlanDiff:
    """What changed from ``old`` to ``new``: each a usage file's path, a dict of its content,
    a Plan or a Result. Paths and dicts are loaded; the problems of both sides are raised
    together as one :class:`planner.UserError`."""
    from planner.errors import UserError
    from planner.evaluate.plan import Plan

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
