"""The papers a report prints on."""

from __future__ import annotations

PAPERS = ("a4", "letter")

#: CSS page size and side margins of each paper: the text block is 176 mm wide on both, so
#: the charts, drawn once at that width, print at their true size.
PAGE = {"a4": ("A4", "17mm"), "letter": ("letter", "19.95mm")}


def check_paper(paper: str) -> None:
    """ValueError unless ``paper`` is one of :data:`PAPERS`."""
    if paper not in PAPERS:
        msg = f"unknown paper {paper!r}; use one of {', '.join(PAPERS)}"
        raise ValueError(msg)
