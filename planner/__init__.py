"""planner: rent GPUs, live on free notebook tiers, or buy your own — and when buying pays off.

The public Python API (SPEC §4): :func:`load`, :func:`report`, :func:`diff`,
:func:`sweep_summary`, and the classes :class:`Plan`, :class:`Result` and :class:`UserError`.
In Jupyter, plans, results and diffs show as HTML and ``result.plot`` draws the report's
charts (:mod:`planner.display`, :mod:`planner.render.notebook`).

>>> import planner
>>> plan = planner.load("usage.yaml")       # doctest: +SKIP
>>> result = plan.evaluate()                # doctest: +SKIP
>>> planner.report(result, "plan.pdf")      # doctest: +SKIP

The stages behind it are subpackages (docs/architecture.md): ``usage`` reads usage.yaml,
``cards`` turns it and the catalog into rate cards, ``engine`` computes over arrays, ``result``
holds the answer, ``evaluate`` wires them (plans, sweeps, comparisons), ``render`` writes
reports, ``cli`` is the command line.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from planner.evaluate.compare import PlanDiff
    from planner.evaluate.plan import Plan
    from planner.result import Result

from planner import display as _display

__all__ = ["Plan", "Result", "UserError", "diff", "load", "report", "sweep_summary"]


def load(source: str | os.PathLike | Mapping[str, Any],
         catalogs: Iterable[str | os.PathLike] = ()) -> Plan:
    """Load and validate a usage file (or a dict of the same content); see
    :meth:`planner.Plan.load`. ``catalogs`` are more catalog files, merged over the built-in
    catalog and the file's own ``catalogs:``."""
    from planner.evaluate.plan import load as load_plan

    return load_plan(source, catalogs)


def report(result: Result, path: str | os.PathLike, fmt: str | None = None, *,
           date: datetime.date | None = None, paper: str = "a4", lang: str = "en") -> Path:
    """Write ``result``'s report to ``path`` (the format follows the suffix unless ``fmt``
    says), completely or not at all, as ``planner report`` does; returns the path."""
    from planner.render import write_report

    return write_report(result, path, fmt, date=date, paper=paper, lang=lang)


def diff(old: Any, new: Any) -> PlanDiff:
    """What changed from ``old`` to ``new`` (each a path, a dict, a Plan or a Result); see
    :mod:`planner.evaluate.compare`."""
    from planner.evaluate.compare import diff as compare_plans
    from planner.render.diff import with_recommendations

    return with_recommendations(compare_plans(old, new))


def sweep_summary(frame: Any) -> Any:
    """A sweep's frame summed up for a notebook: its axes, scenarios and options, and how
    often each option is the cheapest; see :func:`planner.render.notebook.sweep_summary`.
    Shown as HTML in Jupyter, as text elsewhere."""
    from planner.render.notebook import sweep_summary as summary

    return summary(frame)


def _rendered_by(name: str) -> Any:
    """The renderer's function ``name`` of :mod:`planner.render.notebook`, imported when first
    called (see :mod:`planner.display`)."""
    def call(obj: Any) -> Any:
        from planner.render import notebook

        return getattr(notebook, name)(obj)

    return call


for _name in ("plan_html", "result_html", "diff_html", "result_plots"):
    _display.register(_name, _rendered_by(_name))


def __getattr__(name: str) -> Any:
    # Lazy: `planner --help` must not import numpy, pandas or the report stack.
    if name == "Plan":
        from planner.evaluate.plan import Plan

        return Plan
    if name == "Result":
        from planner.result import Result

        return Result
    if name == "UserError":
        from planner.errors import UserError

        return UserError
    raise AttributeError(f"module 'planner' has no attribute {name!r}")
