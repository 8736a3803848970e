"""Wide amounts fit the page (issue 10, point 13b): with costs in the tens of millions of
yuan, every line of text of the PDF, tables included, stays inside the A4 text block, and the
first page's bar labels stay inside their chart.

The PDF is laid out by WeasyPrint, as ``planner report`` prints it, and every text box of
every page is compared with the page's content box (rendered widths, in CSS pixels).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
import reports

import planner
from planner.render import i18n
from planner.render.charts import bars
from planner.render.html import lay_out, options_table_pt, render_html

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DATE = datetime.date(2026, 11, 30)
SLACK_PX = 0.5  # rounding of the layout [CSS px]


def millions_plan() -> dict:
    """The Chinese lab against Tencent Cloud (tests/fixtures/cn-lab-tencent.yaml) grown to a
    64-GPU server and 40,000 GPU-hours a month: amounts of tens of millions of yuan
    (CN¥54,555,075) in nine columns."""
    import yaml

    usage = yaml.safe_load((FIXTURES / "cn-lab-tencent.yaml").read_text(encoding="utf-8"))
    usage["demand"]["gpu_hours_per_month"] = 40000
    usage["options"][0]["own"].update(gpu_count=64, purchase_price=8_800_000,
                                      power_watts=41_600)
    usage["options"].append({"name": "tencent-v100", "cloud": "tencent/GN10Xp.2XLARGE40"})
    return usage


def text_outside_the_text_block(document) -> list[str]:
    """Every text box of the laid-out PDF (a WeasyPrint document, as
    :func:`planner.render.html.lay_out` makes it) that ends beyond its page's content box."""
    from weasyprint.formatting_structure import boxes

    found = []
    for number, page in enumerate(document.pages, 1):
        frame = page._page_box
        left, right = frame.content_box_x(), frame.content_box_x() + frame.width
        stack = [frame]
        while stack:
            box = stack.pop()
            if isinstance(box, boxes.TextBox) and (
                    box.position_x < left - SLACK_PX
                    or box.position_x + box.width > right + SLACK_PX):
                found.append(f"page {number}: {box.text!r} ends "
                             f"{box.position_x + box.width - right:.1f} px beyond the margin")
            stack.extend(getattr(box, "children", []))
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_amounts_in_the_millions_of_yuan_fit_the_a4_text_block(lang):
    result = planner.load(millions_plan()).evaluate()
    assert max(row["total_cost"] for row in result.data["options"]) > 50_000_000
    assert text_outside_the_text_block(lay_out(render_html(result, DATE, "a4", lang))) == []


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.stem)
def test_the_examples_fit_the_text_block(example):
    assert text_outside_the_text_block(reports.layout(example.stem)) == []


def test_the_options_table_is_smaller_only_for_long_amounts():
    class Row:
        def __init__(self, text):
            self.total_cost = self.present_value = text
            self.cost_per_gpu_hour = self.residual_value = "$1.00"

    # Ten columns since "Serves itself" joined the table: the steps come two characters sooner.
    assert options_table_pt([Row("$244,922")]) == 8.0
    assert options_table_pt([Row("$12,489,502")]) == 7.0  # 11 characters
    assert options_table_pt([Row("CN¥4,164,891")]) == 6.5  # 12 characters
    assert options_table_pt([Row("CN¥151,161,492")]) == 6.0
    assert options_table_pt([Row("CN¥1,151,161,492")]) == 6.0
    assert options_table_pt([]) == 8.0


def test_the_ranking_chart_writes_long_amounts_inside_its_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    result = planner.load(millions_plan()).evaluate()
    with i18n.language("en"):
        figure = bars.ranking_figure(result)  # the report's ranking before it is SVG
    (ax,) = figure.axes
    canvas = FigureCanvasAgg(ax.figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    right = ax.get_window_extent(renderer).x1
    amounts = [text for text in ax.texts if "CN¥" in text.get_text()]
    assert len(amounts) == 5
    assert all(text.get_window_extent(renderer).x1 <= right for text in amounts)
