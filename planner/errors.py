"""User errors as data.

A :class:`Problem` is one thing wrong with the user's input, located by file, line, column and
key path. Code below the command line collects problems and raises a single
:class:`UserError` holding all of them; the command line prints them and exits with status 1.
Anything else that escapes is a bug and keeps its traceback.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    """One problem with the user's input.

    ``line`` and ``column`` are 1-based; ``None`` when the input has no position (a dict given
    from Python, a command-line value).
    """

    message: str
    path: str = ""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    suggestion: str | None = None

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
