"""The catalog's errors: an id that is not in it, a catalog file that cannot be used.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pricing.suggest import did_you_mean

__all__ = ["CatalogFileError", "CatalogLookupError"]


class CatalogLookupError(LookupError):
    """An id (or region) that is not in the catalog; ``suggestions`` are the closest ids."""

    def __init__(self, kind: str, key: str, suggestions: Sequence[str] = (), detail: str = ""):
        self.kind = kind
        self.key = key
        self.suggestions = list(suggestions)
        what = {"free_tier": "free tier"}.get(kind, kind)
        message = detail or f"unknown {what} {key!r}"
        super().__init__(message + did_you_mean(self.suggestions))

    def __str__(self) -> str:
        return str(self.args[0])


class CatalogFileError(ValueError):
    """A catalog CSV file that cannot be used; every problem found in it is in ``problems``.

    ``line`` and ``message`` are those of the first problem; ``problems`` holds
    ``(line, message)`` pairs (line 1 is the header, ``None`` when the file cannot be read).
    """

    def __init__(self, file: str, problems: Sequence[tuple[int | None, str]]):
        self.file = file
        self.problems = list(problems)
        self.line, self.message = self.problems[0]
        super().__init__("\n".join(_where(file, line) + text for line, text in self.problems))


def _where(file: str, line: int | None) -> str:
    return f"{file}:{line}: " if line is not None else f"{file}: "

