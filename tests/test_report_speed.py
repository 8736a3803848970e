"""What makes ``planner report`` cheaper changes nothing in what it draws (issue 11, point 6).

- text measured once per process (planner/render/charts/metrics.py): the charts' SVG is the
  same, byte for byte, as when every renderer measures for itself;
- the PDF's charts handed to WeasyPrint as SVG images (planner/render/html.py): every chart
  of the HTML becomes one image of the same SVG, which an XML parser reads;
- fonts subset by HarfBuzz (planner/render/pdf_fonts.py): the used glyphs at their ids, with
  their outlines and widths.

Speed itself is measured in bench/report_bench.py, never here.
"""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import planner
from planner.render import charts, html
from planner.render.charts import metrics

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"
DRAWN = ("ranking", "cumulative_cost", "cost_vs_usage", "monthly_breakdown", "sensitivity",
         "free_tiers")


@pytest.fixture(scope="module")
def result():
    return planner.load(EXAMPLE).evaluate()


def _every_chart(result) -> dict[str, str | None]:
    return {name: getattr(charts, name)(result) for name in DRAWN}


def test_remembered_measurements_draw_the_same_svg(result, monkeypatch):
    remembered = _every_chart(result)
    again = _every_chart(result)  # every string measured before: all from the table
    monkeypatch.setattr(metrics, "remember_measurements", lambda renderer, figure: renderer)
    measured = _every_chart(result)  # each renderer measures for itself, as matplotlib does
    assert all(measured.values())
    assert remembered == measured
    assert again == measured


def test_font_line_metrics_are_matplotlibs(result):
    """The hook answers what matplotlib's text layout computes from the font's tables."""
    from matplotlib.backends.backend_svg import RendererSVG
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties, fontManager, get_font

    figure = Figure(dpi=72)
    renderer = metrics.remember_measurements(RendererSVG(100, 100, io.StringIO()), figure)
    prop = FontProperties(family=["DejaVu Sans"], size=8)
    font = get_font(fontManager._find_fonts_by_props(prop))
    table, units_per_em = font.get_sfnt_table("OS/2"), font.get_sfnt_table("head")["unitsPerEm"]
    # DejaVu Sans: sTypoAscender 1556, sTypoDescender -492, sTypoLineGap 410 of 2048 units;
    # at 8 pt and 72 dpi one unit is 8 / 2048 px, so the ascent is 1556 × 8 / 2048 = 6.078 px.
    assert (table["sTypoAscender"], table["sTypoDescender"], units_per_em) == (1556, -492, 2048)
    ascent, descent, gap = renderer._get_font_height_metrics(prop)
    assert ascent == pytest.approx(6.078125)
    assert descent == pytest.approx(492 * 8 / 2048)
    assert gap == pytest.approx(table["sTypoLineGap"] * 8 / 2048)


def test_the_pdf_gets_every_chart_as_one_svg_image(result):
    text = html.render_html(result, planner.result.default_date())
    inline = re.findall(r'<svg class="chart ([^"]*)"', text)
    assert len(inline) == len([svg for svg in _every_chart(result).values() if svg])
    printed = html.charts_as_images(text)
    assert "<svg" not in printed
    images = re.findall(r'<img class="chart ([^"]*)" alt="([^"]*)" '
                        r'src="data:image/svg\+xml;base64,([^"]*)">', printed)
    assert [name for name, _, _ in images] == inline
    for _, alt, data in images:
        root = ET.fromstring(base64.b64decode(data))  # well-formed XML, as WeasyPrint reads it
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert root.find("{http://www.w3.org/2000/svg}title").text == alt


def test_harfbuzz_keeps_the_used_glyphs_at_their_ids():
    from fontTools.ttLib import TTFont
    from matplotlib import get_data_path

    from planner.render.pdf_fonts import harfbuzz_subset

    original = (Path(get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf").read_bytes()
    before = TTFont(io.BytesIO(original))
    order = before.getGlyphOrder()
    used = sorted(order.index(name) for name in ("A", "z", "Euro", "one"))
    after = TTFont(io.BytesIO(harfbuzz_subset(original, 0, used, hinting=False,
                                              notdef_outline=False)))
    assert len(after.getGlyphOrder()) == used[-1] + 1  # the glyphs after the last used go
    assert not any(tag in after for tag in ("GSUB", "GPOS"))
    glyphs, kept = before["glyf"], after["glyf"]
    for gid in used:  # the same outline and width at the same id
        name, new_name = order[gid], after.getGlyphOrder()[gid]
        assert kept[new_name].coordinates == glyphs[name].coordinates
        assert after["hmtx"].metrics[new_name][0] == before["hmtx"].metrics[name][0]
    unused = next(gid for gid in range(1, used[-1]) if gid not in used
                  and glyphs[order[gid]].numberOfContours > 0)
    assert kept[after.getGlyphOrder()[unused]].numberOfContours == 0  # emptied
    assert len(harfbuzz_subset(original, 0, used, hinting=False, notdef_outline=False)) < \
        len(original) / 10


def test_the_subsetting_is_weasyprints_own_again_after_the_block():
    from weasyprint.pdf import fonts

    from planner.render.pdf_fonts import harfbuzz_subsetting

    original = fonts.Font._fonttools_subset
    with harfbuzz_subsetting():
        assert fonts.Font._fonttools_subset is not original
    assert fonts.Font._fonttools_subset is original


def test_without_uharfbuzz_weasyprint_subsets_as_it_would(monkeypatch):
    import sys

    from weasyprint.pdf import fonts

    from planner.render.pdf_fonts import harfbuzz_subsetting

    monkeypatch.setitem(sys.modules, "uharfbuzz", None)  # import uharfbuzz: ImportError
    original = fonts.Font._fonttools_subset
    with harfbuzz_subsetting():
        assert fonts.Font._fonttools_subset is original
