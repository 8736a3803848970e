"""SVG plumbing of the report's charts: matplotlib's settings, the fonts, drawing a figure
without pyplot, and its SVG made an element to inline.

Output is deterministic: a fixed hash salt, no dates in the metadata. Text stays text
(``svg.fonttype: none``) in DejaVu Sans, the font matplotlib measured it with (and, for
Chinese, the CJK font :mod:`planner.render.i18n` found), so it is sharp, searchable and the
same size as the report's own text. Ids are prefixed per chart so several can share one HTML
page; matplotlib is imported on first use only.
"""

from __future__ import annotations

import contextlib
import functools
import io
import re
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from planner.render import i18n
from planner.render.charts.style import HATCH_INK, INK, LEGEND_PT
from planner.render.fonts import cjk_font, cjk_font_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure



WIDTH_INCHES = 6.9  # the text width at the report's margins (A4 and Letter alike)
RANKING_WIDTH_INCHES = 3.9  # the first page's chart, beside the inputs
FONT = "DejaVu Sans"


def fonts() -> list[str]:
    """The font families of the charts: DejaVu Sans, then a CJK family for Chinese."""
    if i18n.current() != "zh":
        return [FONT]
    family = cjk_font()
    if family is None:
        return [FONT]
    from matplotlib import font_manager

    known = {(f.name, f.weight) for f in font_manager.fontManager.ttflist}
    for weight in ("regular", "bold"):
        path = cjk_font_file(family, weight)
        if path and not any(name == family and str(w) in (weight, "700" if weight == "bold"
                                                          else "400") for name, w in known):
            font_manager.fontManager.addfont(path)
    return [FONT, family]


def rc_params(salt: str) -> dict[str, Any]:
    return {
        "svg.hashsalt": f"planner-{salt}",
        "svg.fonttype": "none",
        "text.parse_math": False,  # option names are text: "$5 box" is not a formula
        "font.family": fonts(),
        "font.size": 8,
        "axes.edgecolor": INK,
        "axes.labelcolor": INK,
        "axes.linewidth": 0.6,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "xtick.color": INK,
        "ytick.color": INK,
        "xtick.major.width": 0.6,
        "ytick.major.width": 0.6,
        "legend.frameon": False,
        "legend.fontsize": LEGEND_PT,
        "hatch.linewidth": 0.6,
        "hatch.color": HATCH_INK,
        # Titles at the axes' top, as matplotlib places them when nothing is drawn above the
        # axes (the charts' ticks are at the foot): without this, matplotlib measures every
        # tick label of the axes again at each draw to decide where the title goes.
        "axes.titley": 1.0,
    }


def draw_axes(salt: str, height_inches: float, draw: Callable[[Axes], str | None],
          width_inches: float = WIDTH_INCHES) -> str | None:
    """Run ``draw`` on one fresh axes and return the chart as inline SVG (see
    :func:`draw_figure`)."""
    return svg_of(figure_axes(salt, height_inches, draw, width_inches), salt)


def draw_figure(salt: str, width_inches: float, height_inches: float,
                 draw: Callable[[Figure], str | None]) -> str | None:
    """Run ``draw`` on a fresh figure and return the chart as inline SVG (:func:`new_figure`,
    then :func:`svg_of`)."""
    return svg_of(new_figure(salt, width_inches, height_inches, draw), salt)


def figure_axes(salt: str, height_inches: float, draw: Callable[[Axes], str | None],
                width_inches: float = WIDTH_INCHES) -> Figure | None:
    """Run ``draw`` on one fresh axes and return the figure (see :func:`new_figure`)."""
    return new_figure(salt, width_inches, height_inches, lambda fig: draw(fig.add_subplot()))


def new_figure(salt: str, width_inches: float, height_inches: float,
               draw: Callable[[Figure], str | None]) -> Figure | None:
    """Run ``draw`` on a fresh figure and return it (a :class:`~.figure.Chart`, which shows
    itself in Jupyter), its title as its label (``fig.get_label()``), or ``None`` when there
    is nothing to draw.

    ``draw`` returns the chart's title, or ``None`` when there is nothing to draw, and places
    its axes with :func:`arrange` (measuring the labels it set is several times faster than
    a layout engine, which draws everything twice). The figure is made without pyplot, so no
    global backend is chosen or changed (a Jupyter user's backend stays as it is) and nothing
    is left open. A character the font lacks (a control character or a rare script in an
    option's name) is drawn as a box without matplotlib's "Glyph missing" warning, which would
    reach the terminal; the report's own :class:`planner.render.MissingGlyphWarning` names
    the characters that no installed font has (:func:`planner.render.html.render_html`).
    """
    from planner.render.charts.figure import Chart

    with chart_context(salt):
        fig = Chart(figsize=(width_inches, height_inches))
        fig.salt = salt
        label = draw(fig)
        if label is None:
            return None
        fig.set_label(label)
    return fig


def svg_of(fig: Figure | None, salt: str) -> str | None:
    """A figure of :func:`new_figure` as an ``<svg>`` element to inline (:func:`inline`), ids
    prefixed with ``salt``; ``None`` for no figure."""
    if fig is None:
        return None
    buffer = io.StringIO()
    with chart_context(salt):
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return inline(buffer.getvalue(), salt, fig.get_label())


@contextlib.contextmanager
def chart_context(salt: str) -> Iterator[None]:
    """The charts' matplotlib settings, without the "Glyph missing" warning (see
    :func:`new_figure`): around drawing and around saving, which reads some of them."""
    import matplotlib

    with matplotlib.rc_context(rc_params(salt)), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"(?s)Glyph \d+ .*missing from",
                                category=UserWarning)
        yield


_ID = re.compile(r'\bid="([^"]+)"')


def inline(svg: str, salt: str, label: str) -> str:
    """matplotlib's SVG file as an ``<svg>`` element to inline, its ids unique to this chart."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    # matplotlib's "*{stroke-linejoin…}" would style the whole HTML page; report.css scopes it.
    svg = re.sub(r'\s*<style type="text/css">.*?</style>', "", svg, flags=re.DOTALL)
    svg = _flatten_groups(svg)
    # matplotlib turns every text by -0 degrees: a transform that a print engine parses and
    # applies to each label for nothing.
    svg = _UNTURNED.sub("", svg)
    ids = set(_ID.findall(svg))

    def prefixed(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"{match.group(1)}{salt}-{name}" if name in ids else match.group(0)

    svg = _ID.sub(lambda m: f'id="{salt}-{m.group(1)}"', svg)
    svg = re.sub(r'(xlink:href="#|href="#|url\(#)([^")]+)', prefixed, svg)
    escaped = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    svg = svg.replace("<svg ", f'<svg class="chart chart-{salt}" role="img" '
                               f'aria-label="{escaped}" ', 1)
    start = svg.index(">", svg.index("<svg")) + 1
    svg = svg[:start] + f"\n <title>{escaped}</title>" + svg[start:]
    return svg.strip() + "\n"


_UNTURNED = re.compile(r' transform="rotate\(-0 [-0-9.e ]+\)"')
_GROUP_TAG = re.compile(r"<(/?)g\b([^>]*)>\s*")
_ID_ONLY = re.compile(r'^\s*(id="[^"]*")?\s*$')


def _flatten_groups(svg: str) -> str:
    """Drop the ``<g>`` wrappers that carry nothing but an id (matplotlib wraps every artist
    in one): half the chart's elements, which a print engine would style one by one."""
    out, stack, last = [], [], 0
    for match in _GROUP_TAG.finditer(svg):
        out.append(svg[last:match.start()])
        last = match.end()
        closing, attributes = match.group(1), match.group(2)
        if closing:
            if stack.pop():
                out.append(match.group(0))
            continue
        if attributes.endswith("/"):  # an empty group, <g id="…"/>: nothing to close
            if not _ID_ONLY.match(attributes[:-1]):
                out.append(match.group(0))
            continue
        keep = not _ID_ONLY.match(attributes)
        stack.append(keep)
        if keep:
            out.append(match.group(0))
    out.append(svg[last:])
    return "".join(out)


def text_width(text: str, size: float) -> float:
    """Width of ``text`` in points at ``size`` points, as matplotlib measures it."""
    return _text_width(text, size, tuple(fonts()))


@functools.lru_cache(maxsize=4096)
def _text_width(text: str, size: float, families: tuple[str, ...]) -> float:
    # Legends and tick labels are measured again for every chart, and a measurement is a
    # text layout by FreeType.
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(family=list(families), size=size)
    return text_to_path.get_text_width_height_descent(text, font, ismath=False)[0]
