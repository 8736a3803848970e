"""The file formats the planner writes, and the format a file name asks for (by its suffix).

Imports nothing heavy: the command line reads these tables for its options and ``--help``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

#: A report's formats, and the suffixes that name them.
FORMATS = ("pdf", "html", "json", "csv", "md", "xlsx", "zip")
SUFFIXES = {".pdf": "pdf", ".html": "html", ".htm": "html", ".json": "json", ".csv": "csv",
            ".md": "md", ".xlsx": "xlsx", ".zip": "zip"}

#: ``planner diff``'s formats, and their suffixes.
DIFF_FORMATS = ("md", "json", "html", "pdf")
DIFF_SUFFIXES = {".md": "md", ".json": "json", ".html": "html", ".htm": "html", ".pdf": "pdf"}


def format_for(path: str | Path, suffixes: Mapping[str, str] = SUFFIXES,
               what: str = "report") -> str:
    """The format ``path``'s suffix names (case does not matter), among ``suffixes``;
    ValueError naming the known suffixes otherwise.

    >>> format_for("plan.PDF"), format_for("change.md", DIFF_SUFFIXES, "diff")
    ('pdf', 'md')
    """
    suffix = Path(path).suffix
    try:
        return suffixes[suffix.lower()]
    except KeyError:
        shown = f"'{suffix}'" if suffix else "no suffix"
        msg = (f"cannot tell the {what} format from {shown} in {str(path)!r}; use one of "
               f"{', '.join(suffixes)}")
        raise ValueError(msg) from None
