"""How the planner's objects show themselves in Jupyter, and who draws ``result.plot``.

:class:`~planner.evaluate.plan.Plan`, :class:`~planner.result.Result` and
:class:`~planner.evaluate.compare.PlanDiff` live in stages below the renderer and may not import
it (docs/architecture.md). Their ``_repr_html_`` and ``plot`` ask this module, and the public
API (``planner/__init__.py``), which sits above every stage, registers the renderer's functions
here when ``planner`` is imported, which Python does before any of its submodules. So a
notebook gets HTML and charts, and no stage imports one above it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: What each object kind shows: ``plan_html``, ``result_html``, ``diff_html`` (an object → an
#: HTML fragment) and ``result_plots`` (a Result → its chart accessor).
_SHOWN: dict[str, Callable[[Any], Any]] = {}


def register(name: str, function: Callable[[Any], Any]) -> None:
    """Let ``function`` show what ``name`` names (see :data:`_SHOWN`)."""
    _SHOWN[name] = function


def show(name: str, obj: Any) -> Any:
    """``obj`` shown by the function registered for ``name``."""
    try:
        function = _SHOWN[name]
    except KeyError:
        msg = f"nothing is registered to show {name!r}: import planner first"
        raise LookupError(msg) from None
    return function(obj)
