"""The HTML report (and the PDF printed from it) from the jinja2 templates in ``templates/``.

One template, ``report.html``, with ``report.css`` inlined into it and the charts inlined as
SVG, so the HTML file stands alone and prints like the PDF. Autoescaping is on and an undefined
variable is an error; every fixed text comes from :mod:`planner.render.i18n` (``t`` in the
template). Nothing in the output depends on the clock or the machine except the ``date``
printed, which the caller can pin, and, for Chinese, the CJK font found on the machine.

The page (A4 or Letter) keeps a 176 mm wide text block on both papers, so the charts, drawn
once at that width, print at their true size; only the page's height differs.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import functools
import gc
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner.render import charts, content, fmt, i18n
from planner.render.fonts import (
    MissingGlyphWarning,
    cjk_font,
    missing_glyph_message,
    uncovered,
)
from planner.render.paper import PAGE, check_paper

if TYPE_CHECKING:
    import jinja2
    import weasyprint

    from planner.result import Result

TEMPLATE = "report.html"
STYLESHEET = "report.css"


def _loader() -> jinja2.BaseLoader:
    """The templates of the installed package ``planner.templates`` (the project keeps them in
    the top-level ``templates/`` folder, which setuptools maps into the package), through
    jinja2's package loader; from that folder itself when the code runs from a source checkout
    that was not installed."""
    import jinja2

    try:
        return jinja2.PackageLoader("planner.templates", ".")
    except (ModuleNotFoundError, ValueError):
        return jinja2.FileSystemLoader(Path(__file__).resolve().parents[2] / "templates")


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment of the report templates (built once)."""
    import jinja2

    env = jinja2.Environment(
        loader=_loader(),
        bytecode_cache=_bytecode_cache(),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["nowrap"] = _nowrap
    env.globals["t"] = i18n.t
    return env


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The templates compiled once per user and jinja2 version, not in every process: jinja2's
    cache in the temporary directory (a folder of the user's own, mode 700), checked against
    the templates' text. Compiling report.html costs 0.08–0.13 s of a report's 0.8–1.2 s
    (measured on two busy cores); a cache that cannot be written is no error: the template
    is compiled as before. None where no safe folder is found."""
    import jinja2

    class QuietCache(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            with contextlib.suppress(OSError):
                super().dump_bytecode(bucket)

    try:
        return QuietCache()
    except (OSError, RuntimeError):
        return None


def _template_source(name: str) -> str:
    """A template file's text as the environment loads it (the stylesheet, inlined)."""
    env = environment()
    return env.loader.get_source(env, name)[0]


#: Names up to this long are kept on one line in tables (a break at "a100-on-|demand" misleads).
NOWRAP_CHARS = 22


def _nowrap(name: str) -> str:
    """The class that keeps a short name on one line (with a leading space), else ""."""
    return " nowrap" if len(str(name)) <= NOWRAP_CHARS else ""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gpu-planner")
    except PackageNotFoundError:
        return "unknown"




def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _page_css(paper: str, lang: str) -> str:
    """The rules that depend on the paper and the language: page size, side margins, the
    page-number text and, for Chinese, the CJK font after DejaVu Sans."""
    size, side = PAGE[paper]
    number = (f"{_css_string(i18n.t('page') + ' ')} counter(page) "
              f"{_css_string(' ' + i18n.t('page.of') + ' ')} counter(pages) "
              f"{_css_string(i18n.t('page.end'))}")
    rules = [f"@page {{ size: {size}; margin-left: {side}; margin-right: {side};",
             f"  @bottom-right {{ content: {number}; }} }}"]
    family = cjk_font() if lang == "zh" else None
    if family:
        fonts = f'"DejaVu Sans", {_css_string(family)}, sans-serif'
        rules += [f"html {{ font-family: {fonts}; }}",
                  (f"@page {{ @top-left {{ font-family: {fonts}; }} "
                  f"@top-right {{ font-family: {fonts}; }} "
                  f"@bottom-right {{ font-family: {fonts}; }} }}")]
    return "\n".join(rules)


#: Font size of the options table [pt] by the length of its longest amount [characters]: its
#: ten columns (with "Serves itself") fit the 176 mm text block at 8 pt up to 9 characters
#: (``$244,922`` is 8), at 7 pt up to 11 (``$12,489,502``), and at 6.5 pt up to 13
#: (``CN¥4,164,891`` is 12); beyond, 6 pt (``CN¥151,161,492``).
OPTIONS_TABLE_PT = ((9, 8.0), (11, 7.0), (13, 6.5))
SMALLEST_TABLE_PT = 6.0
#: Characters the column of days a job runs (SPEC §8) counts for in the steps above.
DAYS_COLUMN_CHARS = 2


def options_table_pt(rows: list[Any]) -> float:
    """The options table's font size [pt] for its longest amount (see OPTIONS_TABLE_PT); with
    the column of days a job runs (SPEC §8), the steps come two characters sooner."""
    longest = max((len(str(getattr(row, key, None) or "")) for row in rows
                   for key in ("total_cost", "present_value", "cost_per_gpu_hour",
                               "residual_value")), default=0)
    if any(getattr(row, "job_days", "") for row in rows):
        longest += DAYS_COLUMN_CHARS
    return next((pt for chars, pt in OPTIONS_TABLE_PT if longest <= chars), SMALLEST_TABLE_PT)


def _figures_css(rows: list[Any]) -> str:
    """The options table's font size, when long amounts need a smaller one, else ""."""
    pt = options_table_pt(rows)
    return "" if pt == OPTIONS_TABLE_PT[0][1] else \
        f"\ntable.options-table {{ font-size: {pt:g}pt; }}"


def page_context(paper: str) -> dict[str, Any]:
    """What every page of this package's templates needs: version, language, the stylesheet
    and the paper's page rules, in the current language."""
    from markupsafe import Markup

    lang = i18n.current()
    return {
        "version": _version(),
        "lang": "zh-Hans" if lang == "zh" else "en",
        "css": Markup(_template_source(STYLESHEET)),
        "page_css": Markup(_page_css(paper, lang)),
        "paper": paper,
    }


def context(result: Result, date: datetime.date, paper: str = "a4") -> dict[str, Any]:
    """Everything the template shows, already formatted, in the current language."""
    from markupsafe import Markup

    data = result.data
    svgs = {
        "ranking": None if result.data.get("uncertainty") else charts.ranking(result),
        "cumulative": charts.cumulative_cost(result),
        "usage": charts.cost_vs_usage(result),
        "breakdown": charts.monthly_breakdown(result),
        "sensitivity": charts.sensitivity(result),
        "free": charts.free_tiers(result),
        "drivers": charts.drivers(result),
        # With draws (SPEC §7), the first page shows the bands instead of the ranking, which
        # the options table below it repeats.
        "glance_bands": charts.glance_bands(result),
        "mix": charts.best_mix(result),
    }
    marked = content.marked_break_even(result)
    options = content.option_rows(result)
    page = page_context(paper)
    page["page_css"] = Markup(str(page["page_css"]) + _figures_css(options))
    return {
        **page,
        "title": data["title"],
        "date": date.isoformat(),
        "currency": data["currency"],
        "horizon_months": data["horizon_months"],
        "hours_per_month": fmt.figure(data["hours_per_month"]),
        "discount_rate": data["discount_rate"],
        "discount_rate_text": fmt.percent(data["discount_rate"]),
        "catalog_as_of": data.get("catalog_as_of"),
        "prices_as_of": data.get("prices_as_of"),
        "stale_after_days": content.STALE_AFTER_DAYS,
        "cheapest": data.get("cheapest"),
        "decision": content.decision_parts(result),
        "decision_notes": content.decision_notes(result),
        "key_figures": content.key_figures(result),
        "break_even_sentence": content.break_even_sentence(result),
        "uncertainty_sentence": content.uncertainty_sentence(result),
        "risk": content.risk_sentence(result),
        "inputs": content.inputs(result),
        "options": options,
        "job_days": content.shows_job_days(result),
        "warnings": content.warnings(result, date),
        "matrix": content.break_even_matrix(result),
        "marked_break_even": any(not fmt.is_missing(r["months"]) for r in marked),
        "marked_usage": any(not fmt.is_missing(r["gpu_hours_per_month"]) for r in marked),
        "charts": {name: Markup(svg) if svg else None for name, svg in svgs.items()},
        "pue": fmt.figure(content.site_pue(result)),
        "sensitivity": content.sensitivity(result),
        "cash_flow": content.yearly_cash_flow(result),
        "costs": content.breakdown_tables(result),
        "free_tiers": content.free_tier_rows(result),
        "uncertainty": content.uncertainty_section(result),
        "mix": content.mix_section(result),
        "assumptions": content.assumption_rows(result),
        "formulas": content.formulas(result),
        "worked": content.worked_figures(result),
    }


def warn_missing_glyphs(result: Result) -> None:
    """A :class:`MissingGlyphWarning` for each of the title and the option names that has
    characters no installed font has (they would print as boxes)."""
    import warnings

    data = result.data
    texts = [("the title", data["title"])]
    texts += [(f"option {row['name']!r}", row["name"]) for row in data["options"]]
    for where, text in texts:
        chars = uncovered(str(text))
        if chars:
            warnings.warn(missing_glyph_message(where, chars), MissingGlyphWarning,
                          stacklevel=3)


def render_html(result: Result, date: datetime.date, paper: str = "a4",
                lang: str = "en") -> str:
    """The stand-alone HTML report, on ``paper`` when printed, in ``lang`` (already resolved:
    :func:`planner.render.i18n.resolve` decides whether Chinese can be printed). Text that
    no installed font can print warns (:func:`warn_missing_glyphs`). The charts' matplotlib
    objects are collected apart from the process's older ones (:func:`_collecting_new_objects_only`:
    one full collection of a process that has just imported matplotlib, pandas and WeasyPrint
    was 0.06 s of a first report's 0.5–0.6 s)."""
    check_paper(paper)
    warn_missing_glyphs(result)
    with i18n.language(lang), _collecting_new_objects_only():
        return environment().get_template(TEMPLATE).render(context(result, date, paper))


_PDF_LOCK = threading.Lock()


def render_pdf(result: Result, date: datetime.date, paper: str = "a4",
               lang: str = "en") -> bytes:
    """The PDF report: WeasyPrint prints the same HTML.

    The PDF is as reproducible as the HTML: its dates come from ``date`` (the ``dcterms``
    meta tags), and the embedded font subsets, which fontTools stamps with the current time,
    are stamped with ``date`` instead through ``SOURCE_DATE_EPOCH`` (the reproducible-builds
    convention, which fontTools reads). A ``SOURCE_DATE_EPOCH`` already set is left as it is.
    """
    return print_pdf(render_html(result, date, paper, lang), date)


def print_pdf(html: str, date: datetime.date) -> bytes:
    """``html`` printed by WeasyPrint, reproducibly (see :func:`render_pdf`)."""
    with _collecting_new_objects_only():
        return write_pdf(lay_out(html), date)


def lay_out(html: str) -> weasyprint.Document:
    """``html`` laid out in pages by WeasyPrint, as :func:`print_pdf` prints it: its charts
    handed over as SVG images (:func:`charts_as_images`)."""
    import weasyprint

    with _collecting_new_objects_only():
        return weasyprint.HTML(string=charts_as_images(html), base_url=None).render()


_INLINE_CHART = re.compile(r'<svg class="(chart [^"]*)" role="img" aria-label="([^"]*)" '
                           r'(.*?</svg>)', re.DOTALL)


def charts_as_images(html: str) -> str:
    """``html`` with each inline chart (:func:`planner.render.charts.svg.inline`) as an
    ``<img>`` of the same SVG, for WeasyPrint: the same drawing at the same size (report.css
    sizes ``img.chart`` as ``svg.chart``), its title as the image's text, but read by an XML
    parser in C where the inline element would go through WeasyPrint's HTML parser, in
    Python, and get the page's CSS computed for each of its few hundred elements (a third of
    the PDF's layout, measured on the lab example). The HTML report keeps its charts inline,
    so they are text a browser can search and select."""
    def image(match: re.Match[str]) -> str:
        classes, label, rest = match.groups()
        svg = "<svg " + rest
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        return f'<img class="{classes}" alt="{label}" src="data:image/svg+xml;base64,{data}">'

    return _INLINE_CHART.sub(image, html)


def write_pdf(document: weasyprint.Document, date: datetime.date) -> bytes:
    """The PDF of a laid-out ``document``, its font subsets stamped with ``date`` (see
    :func:`render_pdf`) and made by HarfBuzz (:mod:`planner.render.pdf_fonts`)."""
    from planner.render.pdf_fonts import harfbuzz_subsetting

    with _PDF_LOCK, _collecting_new_objects_only(), harfbuzz_subsetting():
        if "SOURCE_DATE_EPOCH" in os.environ:
            return document.write_pdf()
        midnight = datetime.datetime.combine(date, datetime.time(), datetime.timezone.utc)
        os.environ["SOURCE_DATE_EPOCH"] = str(int(midnight.timestamp()))
        try:
            return document.write_pdf()
        finally:
            del os.environ["SOURCE_DATE_EPOCH"]


@contextlib.contextmanager
def _collecting_new_objects_only() -> Iterator[None]:
    """Python's cycle collector looks only at the objects made inside the block (gc.freeze);
    nested, the outermost block decides.

    WeasyPrint makes a hundred thousand objects for a report, enough for three or so full
    collections, and each full collection otherwise walks every object the process holds
    (numpy, pandas, matplotlib, the Result): measured on a busy machine, 0.34 s of a 4 s PDF,
    0.06 s with the older objects set aside. They are handed back to the collector afterwards;
    a caller that froze objects itself is left as it was.
    """
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
