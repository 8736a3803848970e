"""User errors as data.

A :class:`Problem` is one thing wrong with the user's input, located by file, line, column and
key path. Code below the command line collects problems and raises a single
:class:`UserError` holding all of them; the command line prints them and exits with status 1.
Anything else that escapes is a bug and keeps its traceback.

A problem found on plain data (a rule between keys, a catalog id) knows its key path only;
:func:`planner.usage.locate.locate` gives it its file, line and column. Near matches for a
mistyped word come from :func:`closest`, the one "did you mean" of the planner.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One problem with the user's input.

    ``line`` and ``column`` are 1-based; ``None`` when the input has no position (a dict given
    from Python, a command-line value), or before the problem is located. ``at`` says which
    position locating gives it: ``"value"`` (the value's), ``"key"`` (the key's) or ``"map"``
    (that of the map that holds, or lacks, the key).
    """

    message: str
    path: str = ""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    suggestion: str | None = None
    # Not compared: two problems with the same text at the same place are one problem, however
    # they were found.
    at: str = field(default="value", compare=False)

    def location(self) -> str:
        """``file:line:column`` as far as it is known (``<input>`` without a file)."""
        where = self.file or "<input>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        text = f"{self.location()}: "
        if self.path:
            text += f"{self.path}: "
        text += self.message
        if self.suggestion:
            text += f" (did you mean {self.suggestion}?)"
        return text


@dataclass
class UserError(Exception):
    """A problem with the user's input or files; shown without a traceback, exit status 1."""

    problems: list[Problem] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(str(self))

    @classmethod
    def single(cls, message: str, **where: object) -> UserError:
        return cls([Problem(message, **where)])  # type: ignore[arg-type]

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)

    def __reduce__(self):
        # Rebuilt from its problems, not from the message (a sweep's chunk on a Dask worker
        # raises it there and its caller gets the same error).
        return type(self), (self.problems,)


#: How close a word must be to a choice to be suggested (difflib's ratio; its default).
CLOSENESS = 0.6


def closest(word: object, choices: Iterable[object]) -> str | None:
    """The one of ``choices`` closest to ``word`` when one is close, else ``None``: the
    "did you mean" of every problem (``None`` for a ``word`` that is not text)."""
    if not isinstance(word, str):
        return None
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=CLOSENESS)
    return close[0] if close else None


def suggestion_text(suggestions: Iterable[str]) -> str | None:
    """Up to three near matches as one "did you mean" text: 'a' or 'b'."""
    shown = list(suggestions)[:3]
    if not shown:
        return None
    return " or ".join(repr(s) for s in shown)
