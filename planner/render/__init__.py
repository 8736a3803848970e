"""Reports: PDF, HTML, JSON, CSV, Markdown, and the terminal summary.

- ``pdf`` and ``html``: the full report (templates/report.html); the HTML stands alone, with
  its CSS and SVG charts inlined, and the PDF is WeasyPrint's print of the same HTML.
- ``json``: the JSON object of SPEC §2.
- ``csv``: the options table only, one row per option (see :func:`planner.render.plain.render_csv`).
- ``zip``: every table as a CSV file in one ZIP archive (:func:`planner.render.plain.render_zip`).
- ``xlsx``: a workbook, a Summary sheet then one sheet per table (:mod:`planner.render.xlsx`).
- ``md``: title, recommendation and every table, columns aligned.

Rendering is deterministic: the same result and ``date`` give the same bytes (HTML, JSON, CSV,
ZIP, XLSX, Markdown). The heavy libraries (matplotlib, WeasyPrint, rich, openpyxl) are imported
on first use.

The HTML and PDF report print on ``paper`` ``"a4"`` (the default) or ``"letter"`` and are
written in ``lang`` ``"en"`` (the default) or ``"zh"``. Chinese needs a font with Chinese
glyphs (``fc-list :lang=zh``); without one the report is written in English and
:func:`render` issues a :class:`LanguageFallbackWarning` (a ``UserWarning``) saying so. A
title or option name with characters no installed font has (Tamil, Amharic, … without a font
for them) issues a :class:`MissingGlyphWarning`, naming them. The other formats are written
in English.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from planner.render.fonts import MissingGlyphWarning
from planner.render.formats import FORMATS, SUFFIXES, format_for
from planner.render.i18n import LANGUAGES, LanguageFallbackWarning
from planner.render.paper import PAPERS, check_paper
from pricing.files import write_atomic

if TYPE_CHECKING:
    import rich.table

    from planner.result import Result


__all__ = ["FORMATS", "LANGUAGES", "PAPERS", "SUFFIXES", "LanguageFallbackWarning",
           "MissingGlyphWarning", "format_for", "render", "summary_table", "write_report"]


def report_date() -> datetime.date:
    """The date a report is dated by default: SOURCE_DATE_EPOCH's day (UTC) when it is set,
    for reproducible builds, else today."""
    from planner.result import default_date

    return default_date()


def render(result: Result, fmt: str, *, date: datetime.date | None = None,
           paper: str = "a4", lang: str = "en") -> bytes:
    """The content of a report file in format ``fmt`` (one of :data:`FORMATS`).

    ``date`` is the generation date printed in the report (default :func:`report_date`:
    SOURCE_DATE_EPOCH's day, else today, as on the command line); pin it for reproducible
    output. ``paper`` (:data:`PAPERS`) applies to the HTML and PDF report, ``lang``
    (:data:`LANGUAGES`) to them, the Markdown and the workbook (the JSON, CSV and ZIP are
    English: their columns are SPEC §2's fields); ``lang="zh"`` without a CJK font warns
    (:class:`LanguageFallbackWarning`) and writes the HTML and PDF in English (the Markdown and
    the workbook, which need no font of the planner's, stay Chinese).
    """
    if fmt not in FORMATS:
        msg = f"unknown report format {fmt!r}; use one of {', '.join(FORMATS)}"
        raise ValueError(msg)
    from planner.render import i18n
    check_paper(paper)
    i18n.check(lang)
    date = date or report_date()
    if fmt in ("pdf", "html"):
        lang = i18n.resolve(lang)
    if fmt == "pdf":
        from planner.render.html import render_pdf

        return render_pdf(result, date, paper, lang)
    if fmt == "xlsx":
        from planner.render.xlsx import render_xlsx

        return render_xlsx(result, date, lang)
    if fmt == "zip":
        from planner.render.plain import render_zip

        return render_zip(result, date)
    if fmt == "html":
        from planner.render.html import render_html

        text = render_html(result, date, paper, lang)
    elif fmt == "json":
        from planner.render.plain import render_json

        text = render_json(result, date)
    elif fmt == "csv":
        from planner.render.plain import render_csv

        text = render_csv(result)
    else:
        from planner.render.plain import render_markdown

        text = render_markdown(result, date, lang)
    return text.encode("utf-8")


def write_report(result: Result, path: str | Path, fmt: str | None = None, *,
                 date: datetime.date | None = None, paper: str = "a4",
                 lang: str = "en") -> Path:
    """Write the report to ``path``, completely or not at all; returns the path.

    The format is ``fmt``, else the one ``path``'s suffix names (:func:`format_for`). The
    report is rendered in memory first, then written to a temporary file in the same folder and
    moved over ``path`` in one step: a failure leaves no partial file and never alters an
    existing one. A file replaced keeps its permissions. ``paper`` and ``lang`` as in
    :func:`render`.
    """
    path = Path(path)
    fmt = fmt or format_for(path)
    content = render(result, fmt, date=date, paper=paper, lang=lang)
    write_atomic(path, content)
    return path


def summary_table(result: Result, lang: str = "en") -> rich.table.Table:
    """The short terminal summary: option, feasible, total, present value, per GPU-hour, in
    ``lang``."""
    from planner.render.terminal import summary_table as table

    return table(result, lang)
