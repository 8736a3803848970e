"""Labels on the line charts cover no plotted line and no other label (issue 10, point 13a).

The charts of crowded plans are drawn and every label's box (its text with its background,
in display coordinates, as matplotlib's renderer measures it) is checked against every other
label's box and every plotted line segment: the option curves, the marked points and the
leaders of the other labels (a label's own leader runs beside it, from the axis up to it).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

import planner
from planner.render import i18n
from planner.render.charts import lines

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def cn_lab_plan() -> dict:
    """The Chinese lab against Tencent Cloud (tests/fixtures/cn-lab-tencent.yaml, the example
    before AutoDL) with a V100 instance more: four break-even months close together, marked
    on a chart priced in millions of yuan."""
    import yaml

    usage = yaml.safe_load((FIXTURES / "cn-lab-tencent.yaml").read_text(encoding="utf-8"))
    usage["options"].append({"name": "tencent-v100", "cloud": "tencent/GN10Xp.2XLARGE40"})
    return usage


def phd_plan() -> dict:
    """A PhD student's few cheap options, whose cumulative curves run close together."""
    return {
        "version": 1, "title": "PhD thesis", "horizon_months": 36,
        "demand": {"gpu_hours_per_month": 520, "reference_gpu": "rtx-4090"},
        "site": {"electricity_per_kwh": 0.30},
        "options": [
            {"name": "desktop-4090", "own": {"gpu": "rtx-4090", "system_price": 1200}},
            {"name": "runpod-4090", "cloud": "runpod/1x_RTX4090_SECURE"},
            {"name": "runpod-a6000", "cloud": "runpod/1x_RTXA6000_SECURE"},
            # the RTX 4090 pod's 2026-09 row has no spot price; the A6000 pod's still has one
            {"name": "runpod-a6000-spot", "cloud": "runpod/1x_RTXA6000_SECURE",
             "pricing": "spot"},
            {"name": "kaggle", "free_tier": "kaggle", "fallback": "runpod-a6000"},
        ],
    }


def drawn_axes(result, chart) -> list:
    """The axes ``chart`` draws: those of the figure its ``…_figure`` twin returns (the same
    drawing, kept as a figure rather than written out as SVG)."""
    figure = getattr(lines, f"{chart.__name__}_figure")(result)
    assert figure is not None
    return figure.axes


def label_boxes(ax, renderer):
    from matplotlib.transforms import Bbox

    out = []
    for text in ax.texts:
        patch = text.get_bbox_patch()
        extent = patch.get_window_extent(renderer) if patch else text.get_window_extent(renderer)
        out.append((text, Bbox(extent.get_points())))
    return out


def collisions(ax) -> list[str]:
    """Every label box that meets another, or that a plotted line segment crosses."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.path import Path as MplPath

    canvas = FigureCanvasAgg(ax.figure)
    canvas.draw()  # every text and its box where they are drawn, at the figure's dpi
    renderer = canvas.get_renderer()
    boxes = label_boxes(ax, renderer)
    found = []
    for i, (text, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1:]:
            if box.overlaps(other_box):
                found.append(f"{text.get_text()!r} meets {other.get_text()!r}")
        own_x = text.xy[0] if hasattr(text, "xy") else None
        for line in ax.get_lines():
            xdata = np.asarray(line.get_xdata(), dtype=float)
            leader = len(xdata) == 2 and xdata[0] == xdata[1] == own_x
            if leader:
                continue
            xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
            if len(xy) == 1:
                if box.contains(*xy[0]):
                    found.append(f"{text.get_text()!r} covers a marked point")
                continue
            for p, q in itertools.pairwise(xy):
                if MplPath([p, q]).intersects_bbox(box, filled=True):
                    found.append(f"{text.get_text()!r} covers a segment of {line.get_label()}")
                    break
    return found


CROWDED = [
    pytest.param(lambda: planner.load(cn_lab_plan()), "zh", id="cn-lab-zh"),
    pytest.param(lambda: planner.load(cn_lab_plan()), "en", id="cn-lab-en"),
    pytest.param(lambda: planner.load(FIXTURES / "cn-lab-tencent.yaml"), "zh",
                 id="cn-lab-tencent"),
    pytest.param(lambda: planner.load(phd_plan()), "en", id="phd-en"),
    pytest.param(lambda: planner.load(phd_plan()), "zh", id="phd-zh"),
]


@pytest.mark.parametrize("chart", [lines.cumulative_cost, lines.cost_vs_usage],
                         ids=["cumulative", "usage"])
@pytest.mark.parametrize(("plan", "lang"), CROWDED)
def test_labels_cover_no_line_and_no_other_label(plan, lang, chart):
    result = plan().evaluate()
    with i18n.language(lang):
        (ax,) = drawn_axes(result, chart)
    assert len(ax.texts) >= 3  # crowded: several labels to place
    assert collisions(ax) == []


def test_the_cn_lab_chart_marks_four_break_even_months():
    """The crowded case of the issue: four break-even labels whose months lie close."""
    result = planner.load(cn_lab_plan()).evaluate()
    with i18n.language("zh"):
        (ax,) = drawn_axes(result, lines.cumulative_cost)
    assert sum("回本" in text.get_text() for text in ax.texts) == 4


def test_placing_is_deterministic(monkeypatch):
    result = planner.load(EXAMPLES / "cn-lab.yaml").evaluate()
    assert lines.cost_vs_usage(result) == lines.cost_vs_usage(result)
