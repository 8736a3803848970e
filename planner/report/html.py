"""The HTML report (and the PDF printed from it) from the jinja2 templates in ``templates/``.

One template, ``report.html``, with ``report.css`` inlined into it and the charts inlined as
SVG, so the HTML file stands alone and prints like the PDF. Autoescaping is on and an undefined
variable is an error. Nothing in the output depends on the clock or the machine except the
``date`` printed, which the caller can pin.
"""

from __future__ import annotations

import datetime
import functools
import os
import threading
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from planner import fmt
from planner.report import charts, content

if TYPE_CHECKING:
    import jinja2

    from planner.result import Result

TEMPLATE = "report.html"
STYLESHEET = "report.css"


def _template_source(name: str) -> str:
    """A template's text: from the installed package ``planner.templates``, which the
    project's layout keeps at the top-level ``templates/`` folder and setuptools maps into the
    package; when the code runs from a source checkout without installing, from that folder."""
    try:
        folder = resources.files("planner.templates")
    except ModuleNotFoundError:
        folder = Path(__file__).resolve().parents[2] / "templates"
    return folder.joinpath(name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The jinja2 environment of the report templates (built once)."""
    import jinja2

    def load(name: str) -> tuple[str, None, Any]:
        return _template_source(name), None, lambda: True

    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(load),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals["nowrap"] = _nowrap
    return env


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


def _paid_today(result: Result) -> str:
    """What the cheapest option pays in month 0 ("" for nothing), left out of its bar chart."""
    data = result.data
    row = next((r for r in data["options"] if r["name"] == data.get("cheapest")), None)
    flows = (row or {}).get("monthly_cost") or []
    if not flows or fmt.is_missing(flows[0]) or flows[0] == 0:
        return ""
    return fmt.money(flows[0], data["currency"], decimals=0)


def context(result: Result, date: datetime.date) -> dict[str, Any]:
    """Everything the template shows, already formatted."""
    from markupsafe import Markup

    data = result.data
    svgs = {
        "cumulative": charts.cumulative_cost(result),
        "usage": charts.cost_vs_usage(result),
        "breakdown": charts.monthly_breakdown(result),
    }
    marked = content.marked_break_even(result)
    return {
        "version": _version(),
        "css": Markup(_template_source(STYLESHEET)),
        "title": data["title"],
        "date": date.isoformat(),
        "currency": data["currency"],
        "horizon_months": data["horizon_months"],
        "hours_per_month": fmt.figure(data["hours_per_month"]),
        "discount_rate": data["discount_rate"],
        "discount_rate_text": fmt.percent(data["discount_rate"]),
        "catalog_as_of": data.get("catalog_as_of"),
        "cheapest": data.get("cheapest"),
        "recommendation": content.recommendation_parts(result),
        "paid_today": _paid_today(result),
        "inputs": list(result.inputs),
        "options": content.option_rows(result),
        "warnings": content.warnings(result, date),
        "break_even": content.break_even_rows(result),
        "marked_break_even": any(not fmt.is_missing(r["months"]) for r in marked),
        "marked_usage": any(not fmt.is_missing(r["gpu_hours_per_month"]) for r in marked),
        "charts": {name: Markup(svg) if svg else None for name, svg in svgs.items()},
        "components": content.component_totals(result),
        "cash_flow": content.yearly_cash_flow(result),
        "assumptions": content.assumption_rows(result),
    }


def render_html(result: Result, date: datetime.date) -> str:
    """The stand-alone HTML report."""
    return environment().get_template(TEMPLATE).render(context(result, date))


_PDF_LOCK = threading.Lock()


def render_pdf(result: Result, date: datetime.date) -> bytes:
    """The PDF report: WeasyPrint prints the same HTML.

    The PDF is as reproducible as the HTML: its dates come from ``date`` (the ``dcterms``
    meta tags), and the embedded font subsets, which fontTools stamps with the current time,
    are stamped with ``date`` instead through ``SOURCE_DATE_EPOCH`` (the reproducible-builds
    convention, which fontTools reads). A ``SOURCE_DATE_EPOCH`` already set is left as it is.
    """
    import weasyprint

    html = render_html(result, date)
    document = weasyprint.HTML(string=html, base_url=None)
    with _PDF_LOCK:
        if "SOURCE_DATE_EPOCH" in os.environ:
            return document.write_pdf()
        midnight = datetime.datetime.combine(date, datetime.time(), datetime.timezone.utc)
        os.environ["SOURCE_DATE_EPOCH"] = str(int(midnight.timestamp()))
        try:
            return document.write_pdf()
        finally:
            del os.environ["SOURCE_DATE_EPOCH"]
