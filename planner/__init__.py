"""planner: rent GPUs, live on free notebook tiers, or buy your own — and when buying pays off.

>>> import planner
>>> plan = planner.load("usage.yaml")       # doctest: +SKIP
>>> result = plan.evaluate()                # doctest: +SKIP
"""

from __future__ import annotations

__all__ = ["Plan", "Result", "UserError", "diff", "load", "report"]


def __getattr__(name):
    # Lazy: `planner --help` must not import numpy, pandas or the report stack.
    if name in ("load", "Plan"):
        from planner import plan

        return getattr(plan, name)
    if name == "Result":
        from planner.result import Result

        return Result
    if name == "UserError":
        from planner.errors import UserError

        return UserError
    if name == "report":
        from planner.report import write_report

        return write_report
    if name == "diff":
        import planner.diff as module  # a callable module: planner.diff(old, new)

        return module
    raise AttributeError(f"module 'planner' has no attribute {name!r}")
