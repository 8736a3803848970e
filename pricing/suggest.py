"""Near matches for a name that was not found: "did you mean ...?" (difflib), in one place.

The order of the suggestions (written down in the README's "Decisions"): closeness first,
measured as difflib's ratio (2 × matching characters / both lengths, cutoff 0.6, as
``difflib.get_close_matches``); among candidates exactly as close, the caller's ``rank``
(lower first: the Catalog passes a cloud instance's GPU count, so the one-GPU instance leads
the ids that differ only in their count); then difflib's own order (the name, reverse
alphabetically, so that a lookup without a rank suggests what it always did). ``n`` is
applied after this order, so a ranked tie is never cut by difflib's order.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

__all__ = ["CUTOFF", "close_matches", "closest_ids", "did_you_mean"]

#: The smallest difflib ratio a suggestion has (difflib's own default).
CUTOFF = 0.6


def close_matches(key: str, candidates: Iterable[str], n: int = 3, *,
                  ignore_case: bool = True,
                  rank: Callable[[str], float] | None = None) -> list[str]:
    """Up to ``n`` of ``candidates`` closest to ``key``, best first, in their own spelling.

    With ``ignore_case`` (the default) names are compared in lowercase; without it, as they
    are spelled (for names whose case is part of them, like a SkyPilot column's).
    ``rank(candidate)`` orders candidates that are exactly as close (lower first); then the
    name decides, reverse alphabetically (difflib's order).

    >>> close_matches("A100", ["a100-80gb", "h100-80gb", "t4"], n=1)
    ['a100-80gb']
    >>> close_matches("x_a100", ["8x_a100", "1x_a100"], rank=lambda c: int(c[0]))
    ['1x_a100', '8x_a100']
    """
    fold = str.lower if ignore_case else str
    by_name = {fold(c): c for c in candidates}
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(fold(key))
    scored = []
    for name, spelled in by_name.items():
        matcher.set_seq1(name)
        if (matcher.real_quick_ratio() >= CUTOFF and matcher.quick_ratio() >= CUTOFF
                and matcher.ratio() >= CUTOFF):
            order = rank(spelled) if rank is not None else 0
            scored.append((matcher.ratio(), -order, name, spelled))
    scored.sort(reverse=True)
    return [spelled for *_, spelled in scored[:max(n, 0)]]


def closest_ids(key: str, candidates: Iterable[str], n: int = 3, *,
                rank: Callable[[str], float] | None = None) -> list[str]:
    """The ids an unknown catalog id's error lists (SPEC §1.3: "an error that lists the
    closest ids"): :func:`close_matches`, or where none is that close, the ``n`` closest
    whatever their ratio, so that the list is never empty while the catalog has ids.

    >>> closest_ids("zzz", ["a100-80gb", "t4", "l4"], n=2)
    ['t4', 'l4']
    """
    candidates = list(candidates)
    near = close_matches(key, candidates, n, rank=rank)
    if near or not candidates:
        return near
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(key.lower())
    scored = []
    for name in candidates:
        matcher.set_seq1(name.lower())
        order = rank(name) if rank is not None else 0
        scored.append((-matcher.ratio(), order, len(name), name))
    scored.sort()
    return [name for *_, name in scored[:max(n, 0)]]


def did_you_mean(near: Iterable[str]) -> str:
    """The hint a message ends with: ``" (did you mean a, b?)"``, or ``""`` without matches."""
    near = list(near)
    return f" (did you mean {', '.join(near)}?)" if near else ""
