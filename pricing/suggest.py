"""Near matches for a name that was not found: "did you mean ...?" (difflib), in one place.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["close_matches", "did_you_mean"]


def close_matches(key: str, candidates: Iterable[str], n: int = 3, *,
                  ignore_case: bool = True) -> list[str]:
    """Up to ``n`` of ``candidates`` closest to ``key``, best first, in their own spelling.

    With ``ignore_case`` (the default) names are compared in lowercase; without it, as they
    are spelled (for names whose case is part of them, like a SkyPilot column's).

    >>> close_matches("A100", ["a100-80gb", "h100-80gb", "t4"], n=1)
    ['a100-80gb']
    """
    if not ignore_case:
        return difflib.get_close_matches(key, list(candidates), n=n)
    by_lower = {c.lower(): c for c in candidates}
    return [by_lower[m] for m in difflib.get_close_matches(key.lower(), list(by_lower), n=n)]


def did_you_mean(near: Iterable[str]) -> str:
    """The hint a message ends with: ``" (did you mean a, b?)"``, or ``""`` without matches."""
    near = list(near)
    return f" (did you mean {', '.join(near)}?)" if near else ""
