"""Plan, Result, PlanDiff and a sweep's frame in a notebook: the short HTML fragments that
Jupyter shows for them (registered through :mod:`planner.display`), and
:func:`sweep_summary`.

Each fragment comes from ``templates/notebook.html`` (autoescaped: an option named
``<b>`` is shown as typed) and says what the report's first page says, in English, drawn from
the same content functions: the answer sentence, the options table, the ranking chart. The
chart is inline SVG whose ids are unique to the fragment, so that several results shown in one
notebook do not borrow each other's clip paths.

A sweep returns a plain :class:`pandas.DataFrame` (SPEC §4: "a tidy DataFrame"), which
shows as pandas shows any frame; a subclass with its own ``_repr_html_`` would be lost at the
first ``df[...]`` or ``merge``. What the sweep says of itself is in ``df.attrs`` (currency,
title, axes, mode, horizon) and :func:`sweep_summary` turns a frame into a
:class:`SweepSummary`, which Jupyter shows as two small tables.
"""

from __future__ import annotations

import itertools
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from planner.render import content, fmt, i18n
from planner.render.plots import ResultPlots

if TYPE_CHECKING:
    import pandas as pd

    from planner.evaluate.compare import PlanDiff
    from planner.evaluate.plan import Plan
    from planner.result import Result

__all__ = ["ResultPlots", "SweepSummary", "diff_html", "plan_html", "result_html",
           "result_plots", "sweep_summary"]

_KINDS = ("own", "cloud", "free_tier")


def _macro(name: str) -> Any:
    from planner.render.html import environment

    return getattr(environment().get_template("notebook.html").module, name)


def _fragment(name: str, **values: Any) -> str:
    with i18n.language("en"):
        return str(_macro(name)(values)).strip() + "\n"


# -- Plan -------------------------------------------------------------------------------------

def _what(option: dict[str, Any], kind: str) -> str:
    """What an option is: its catalog id, or the GPU of a machine or instance the file
    describes itself; a cloud's pricing after it."""
    spec = option.get(kind)
    if isinstance(spec, str):
        what = spec
    elif isinstance(spec, dict):
        what = str(spec.get("gpu") or spec.get("id") or i18n.t("nb.described"))
        if spec.get("gpu_count") not in (None, 1):
            what = f"{spec['gpu_count']} × {what}"
    else:
        what = ""
    if kind == "cloud" and option.get("pricing"):
        what += f", {option['pricing']}"
    return what


def plan_html(plan: Plan) -> str:
    """The plan's title, its key inputs (the demand, the horizon, the site) and its options:
    name, kind, what it is, where it passes work it cannot take."""
    from planner.evaluate.assemble import headline_inputs

    usage = plan.usage
    with i18n.language("en"):
        options = []
        for option in usage["options"]:
            kind = next((k for k in _KINDS if option.get(k) is not None), "")
            options.append({"name": option["name"], "kind": i18n.t(f"kind.{kind}"),
                            "what": _what(option, kind),
                            "target": option.get("overflow") or option.get("fallback") or ""})
        inputs = [(i18n.text(label), i18n.text(value)) for label, value in headline_inputs(plan)]
    return _fragment("plan", title=usage["title"], currency=usage["currency"],
                     horizon_months=usage["horizon_months"], inputs=inputs, options=options)


# -- Result -----------------------------------------------------------------------------------

_SHOWN = itertools.count()


def _unique_salt(chart: str) -> str:
    """A chart's id prefix unique in this notebook and in any other saved beside it."""
    return f"nb{next(_SHOWN)}{uuid.uuid4().hex[:6]}-{chart}"


def result_html(result: Result) -> str:
    """The report's first page in short: the title, the answer (its lead in bold), the
    options table cheapest first (infeasible options with their reasons) and the ranking
    chart."""
    from markupsafe import Markup

    from planner.render import charts

    data = result.data
    with i18n.language("en"):
        lead, rest = content.recommendation_parts(result)
        rows = content.option_rows(result)
        ranking = charts.svg.svg_of(charts.ranking_figure(result), _unique_salt("ranking"))
    return _fragment("result", title=data["title"], lead=lead, rest=rest, options=rows,
                     ranking=Markup(ranking) if ranking else None,
                     horizon_months=data["horizon_months"], currency=data["currency"],
                     prices_as_of=data.get("prices_as_of"))


def result_plots(result: Result) -> ResultPlots:
    """``result.plot``."""
    return ResultPlots(result)


# -- PlanDiff ---------------------------------------------------------------------------------

def diff_html(d: PlanDiff) -> str:
    """The comparison as ``planner diff`` prints it: the decision, the notes, the inputs that
    changed, every option's figures before and after, the break-even pairs and both sides'
    recommendations."""
    from planner.render import diff

    d = diff.with_recommendations(d)
    with i18n.language("en"):
        return _fragment(
            "diff", title=diff.diff_title(d), decision=diff.decision_sentence(d), notes=d.notes,
            old=i18n.text(d.old.name), new=i18n.text(d.new.name),
            inputs=None if d.inputs is None else [
                (c.path, diff.value_text(c.old), diff.value_text(c.new)) for c in d.inputs],
            option_header=diff.option_header(), option_rows=diff.option_table_rows(d),
            break_even_header=diff.break_even_header(),
            break_even_rows=diff.break_even_table_rows(d),
            before=d.old.recommendation, after=d.new.recommendation)


# -- sweeps -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class SweepSummary:
    """A sweep's frame summed up: ``scenarios`` and ``rows``; ``axes`` (one row per swept
    path: ``axis``, ``values`` (how many distinct), ``low`` and ``high`` of a numeric axis;
    of another, ``low`` lists its values and ``high`` is missing); ``options`` (one row
    per option: ``option``, ``cheapest_scenarios`` (in how many scenarios it is the
    cheapest), ``cheapest_share`` [fraction], ``present_value_min`` and
    ``present_value_max`` [currency] over the scenarios where it is feasible); ``currency``,
    ``title`` and ``mode`` from the frame's ``attrs`` (None where the frame lacks them).

    Jupyter shows it as two small tables; ``repr`` is the same as text.
    """

    scenarios: int
    rows: int
    axes: pd.DataFrame
    options: pd.DataFrame
    currency: str | None
    title: str | None
    mode: str | None

    def _values(self) -> dict[str, Any]:
        money = (lambda x: fmt.money(x, self.currency)) if self.currency else fmt.number
        options = [{"name": str(r.option),
                    "cheapest": f"{r.cheapest_scenarios} ({fmt.percent(r.cheapest_share)})",
                    "low": money(r.present_value_min), "high": money(r.present_value_max)}
                   for r in self.options.itertuples()]
        axes = [{"name": r.axis, "count": r.values, "low": _value(r.low), "high": _value(r.high)}
                for r in self.axes.itertuples()]
        return {"title": self.title, "currency": self.currency, "mode": self.mode,
                "scenarios": f"{self.scenarios:,}", "rows": f"{self.rows:,}",
                "axes": axes, "options": options}

    def _repr_html_(self) -> str:
        return _fragment("sweep", **self._values())

    def __repr__(self) -> str:
        v = self._values()
        lines = [f"Sweep{': ' + v['title'] if v['title'] else ''}: {v['scenarios']} scenarios, "
                 f"{v['rows']} rows" + (f", {v['currency']}" if v["currency"] else "")]
        lines += [f"  axis {a['name']}: {a['count']} values, "
                  + (f"{a['low']} to {a['high']}" if a["high"] else a["low"])
                  for a in v["axes"]]
        lines += [f"  {o['name']}: cheapest in {o['cheapest']}, present value {o['low']} to "
                  f"{o['high']}" for o in v["options"]]
        return "\n".join(lines)


def _value(x: Any) -> str:
    if fmt.is_missing(x):
        return ""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return fmt.figure(x, 6)
    return str(x)


def sweep_summary(frame: pd.DataFrame) -> SweepSummary:
    """The :class:`SweepSummary` of a frame that :meth:`planner.Plan.sweep` returned (or a
    selection of its rows). The axes are ``frame.attrs["axes"]``, else the columns between
    ``scenario`` and ``option``."""
    import pandas as pd

    columns = list(frame.columns)
    axes = frame.attrs.get("axes") or columns[columns.index("scenario") + 1:
                                              columns.index("option")]
    axis_rows = []
    for name in axes:
        values = frame[name].dropna()
        numeric = pd.api.types.is_numeric_dtype(values)
        distinct = list(dict.fromkeys(values))
        axis_rows.append({"axis": name, "values": len(distinct),
                          "low": values.min() if numeric else ", ".join(map(str, distinct)),
                          "high": values.max() if numeric else None})
    scenarios = frame.groupby("scenario", sort=False)["cheapest"].first()
    counts = scenarios.value_counts()
    names = [str(n) for n in frame["option"].drop_duplicates()]
    feasible = frame[frame["feasible"]]
    pv = feasible.groupby("option", observed=True)["present_value"].agg(["min", "max"])
    option_rows = []
    for name in names:
        count = int(counts.get(name, 0))
        option_rows.append({
            "option": name, "cheapest_scenarios": count,
            "cheapest_share": count / len(scenarios) if len(scenarios) else float("nan"),
            "present_value_min": float(pv["min"].get(name, float("nan"))),
            "present_value_max": float(pv["max"].get(name, float("nan")))})
    return SweepSummary(
        scenarios=len(scenarios), rows=len(frame),
        axes=pd.DataFrame(axis_rows, columns=["axis", "values", "low", "high"]),
        options=pd.DataFrame(option_rows, columns=[
            "option", "cheapest_scenarios", "cheapest_share", "present_value_min",
            "present_value_max"]),
        currency=frame.attrs.get("currency"), title=frame.attrs.get("title"),
        mode=frame.attrs.get("mode"))
