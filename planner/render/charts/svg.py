"""The report's charts as inline SVG.

- :func:`ranking`: the first page's small chart, every option's cost over the horizon;
- :func:`cumulative_cost`: cumulative cost over time, break-even months marked;
- :func:`cost_vs_usage`: cost against monthly usage, break-even usage levels marked;
- :func:`monthly_breakdown`: every feasible option's monthly cost by component, small
  multiples on one scale (energy split into IT load and cooling);
- :func:`sensitivity`: a tornado of the break-even month as each key input moves;
- :func:`free_tiers`: sessions a week and days a job waits on each free tier.

Each function takes a :class:`planner.result.Result` and returns an ``<svg>`` element as text
(no XML prolog, ids prefixed per chart so several can share one HTML page, its title in a
``<title>`` element and ``aria-label``), or ``None`` when the result has nothing to draw.
Output is deterministic: a fixed hash salt, no dates in the metadata. Text stays text
(``svg.fonttype: none``) in DejaVu Sans, the font matplotlib measured it with (and, for
Chinese, the CJK font :mod:`planner.render.i18n` found), so it is sharp, searchable and the
same size as the report's own text.

Colours are the Okabe–Ito palette (safe for colour-blind readers); every option also has its
own line style and marker, and component groups that share a grey level differ by hatching,
so the charts survive a grayscale printer. matplotlib is imported on first use only.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render import content, fmt, i18n
from planner.render.content import marked_break_even
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from planner.result import Result

# Okabe & Ito (2008), "Color Universal Design"; yellow last, it is faint on white paper.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")
LINESTYLES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)), (0, (8, 3)),
              (0, (3, 1, 1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
#: Fill and hatch of each component group (content.COMPONENT_GROUPS). Okabe–Ito gives four
#: grey levels a grayscale printer keeps apart (black, blue, sky blue, yellow); the other
#: groups are hatched, each with its own pattern of lines (dots would be drawn dot by dot).
GROUP_STYLES = {
    "purchase": {"color": "#0072B2", "hatch": None},
    "it_energy": {"color": "#F0E442", "hatch": None},
    "cooling": {"color": "#F0E442", "hatch": "///"},
    "maintenance": {"color": "#009E73", "hatch": "+++"},
    "running": {"color": "#E69F00", "hatch": "---"},
    "rent": {"color": "#56B4E9", "hatch": None},
    "reserved": {"color": "#0072B2", "hatch": "\\\\\\"},
    "storage": {"color": "#000000", "hatch": None},
    "fee": {"color": "#CC79A7", "hatch": "|||"},
    "passed": {"color": "#D55E00", "hatch": "xx"},
}
HATCH_INK = "#333333"

WIDTH_INCHES = 6.9  # the text width at the report's margins (A4 and Letter alike)
RANKING_WIDTH_INCHES = 3.9  # the first page's chart, beside the inputs
FONT = "DejaVu Sans"
INK = "#222222"
GRID = "#d9d9d9"
MARK = "#555555"
LIGHT = "#9ecae1"  # the light bars: a light blue that prints as a light grey
LEGEND_PT = 8
# Behind labels on the plot: mostly opaque, so lines passing under them stay traceable.
LABEL_BOX = {"boxstyle": "square,pad=0.2", "facecolor": "white", "edgecolor": "none",
             "alpha": 0.8}
OUTLIER_RATIO = 2.5  # a curve this many times higher than all others is cut off
SPIKE_RATIO = 3.0  # a month this many times its neighbours' cost is clipped in the bars
SPIKE_WINDOW = 3  # months on either side that make a month's neighbours


def _fonts() -> list[str]:
    """The font families of the charts: DejaVu Sans, then a CJK family for Chinese."""
    if i18n.current() != "zh":
        return [FONT]
    family = i18n.cjk_font()
    if family is None:
        return [FONT]
    from matplotlib import font_manager

    known = {(f.name, f.weight) for f in font_manager.fontManager.ttflist}
    for weight in ("regular", "bold"):
        path = i18n.cjk_font_file(family, weight)
        if path and not any(name == family and str(w) in (weight, "700" if weight == "bold"
                                                          else "400") for name, w in known):
            font_manager.fontManager.addfont(path)
    return [FONT, family]


def _rc(salt: str) -> dict[str, Any]:
    return {
        "svg.hashsalt": f"planner-{salt}",
        "svg.fonttype": "none",
        "text.parse_math": False,  # option names are text: "$5 box" is not a formula
        "font.family": _fonts(),
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
    }


def _draw(salt: str, height_inches: float, draw: Callable[[Axes], str | None],
          width_inches: float = WIDTH_INCHES) -> str | None:
    """Run ``draw`` on one fresh axes and return the chart as inline SVG (see
    :func:`_draw_figure`)."""
    return _draw_figure(salt, width_inches, height_inches, lambda fig: draw(fig.add_subplot()))


def _draw_figure(salt: str, width_inches: float, height_inches: float,
                 draw: Callable[[Figure], str | None]) -> str | None:
    """Run ``draw`` on a fresh figure and return the chart as inline SVG.

    ``draw`` returns the chart's title, or ``None`` when there is nothing to draw, and places
    its axes with :func:`_arrange` (measuring the labels it set is several times faster than
    a layout engine, which draws everything twice). The figure is made without pyplot, so no
    global backend is chosen or changed (a Jupyter user's backend stays as it is) and nothing
    is left open. A character the font lacks (a control character or a rare script in an
    option's name) is drawn as a box without matplotlib's "Glyph missing" warning, which would
    reach the terminal.
    """
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_rc(salt)), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"(?s)Glyph \d+ .*missing from",
                                category=UserWarning)
        fig = Figure(figsize=(width_inches, height_inches))
        label = draw(fig)
        if label is None:
            return None
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return _inline(buffer.getvalue(), salt, label)


_ID = re.compile(r'\bid="([^"]+)"')


def _inline(svg: str, salt: str, label: str) -> str:
    """matplotlib's SVG file as an ``<svg>`` element to inline, its ids unique to this chart."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.DOTALL)
    # matplotlib's "*{stroke-linejoin…}" would style the whole HTML page; report.css scopes it.
    svg = re.sub(r'\s*<style type="text/css">.*?</style>', "", svg, flags=re.DOTALL)
    svg = _flatten_groups(svg)
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
        keep = not _ID_ONLY.match(attributes)
        stack.append(keep)
        if keep:
            out.append(match.group(0))
    out.append(svg[last:])
    return "".join(out)


def _styles(result: Result) -> dict[str, dict[str, Any]]:
    """Colour, line style and marker of each option, by its place in the file."""
    return {
        row["name"]: {
            "color": PALETTE[i % len(PALETTE)],
            "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)],
        }
        for i, row in enumerate(result.data["options"])
    }


def _money_axis(ax: Axes, currency: str, axis: str = "y") -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    target.set_major_formatter(FuncFormatter(lambda v, _: fmt.money_short(v, currency)))
    ax.grid(axis=axis, color=GRID, linewidth=0.5)
    ax.set_axisbelow(True)


def _month_step(horizon: int) -> int:
    return next(s for s in (1, 2, 3, 6, 12, 24, 60, 120) if horizon / s <= 12)


def _month_ticks(ax: Axes, horizon: int) -> None:
    ax.set_xticks(np.arange(0, horizon + 1, _month_step(horizon)))
    ax.set_xlim(0, horizon)


def _text_width(text: str, size: float) -> float:
    """Width of ``text`` in points at ``size`` points, as matplotlib measures it."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(family=_fonts(), size=size)
    return text_to_path.get_text_width_height_descent(text, font, ismath=False)[0]


def _legend_columns(labels: list[str], width_inches: float) -> int:
    """How many legend columns (up to 4) fit across ``width_inches``."""
    widths = [_text_width(label, LEGEND_PT) for label in labels]
    handle, gap, spacing = 2.8, 0.8, 1.4  # ems

    def width(columns: int) -> float:
        # matplotlib fills the columns top to bottom; each is as wide as its widest entry.
        rows = -(-len(widths) // columns)
        texts = [max(widths[i:i + rows]) for i in range(0, len(widths), rows)]
        return sum(texts) + LEGEND_PT * ((handle + gap) * len(texts) + spacing * (len(texts) - 1)
                                         + 2)

    available = width_inches * 72 * 0.95
    return next((c for c in range(min(len(labels), 4), 1, -1) if width(c) <= available), 1)


def _legend_below(ax: Axes, count: int) -> int:
    """The legend at the figure's foot, in as many columns (up to 4) as fit across it;
    returns its number of rows."""
    handles, labels = ax.get_legend_handles_labels()
    columns = _legend_columns(labels, WIDTH_INCHES)
    _figure_legend(ax.figure, handles, labels, columns, handlelength=2.8, handletextpad=0.8)
    return -(-len(labels) // columns)


def _figure_legend(fig: Figure, handles: list[Any], labels: list[str] | None, columns: int,
                   **options: Any) -> None:
    kwargs = {"loc": "lower center", "bbox_to_anchor": (0.5, 0.0), "ncol": columns,
              "columnspacing": 1.4, "borderaxespad": 0.3, **options}
    if labels is None:
        fig.legend(handles=handles, **kwargs)
    else:
        fig.legend(handles, labels, **kwargs)


LINE_PT = 9.5  # height of a line of 8 pt text
LEGEND_ROW_PT = 13.3  # a legend row at LEGEND_PT, with its spacing
LEGEND_PAD_PT = 8.0  # the legend's border and its gap to the figure's edge


def _tick_labels(axis: Any, limits: tuple[float, float]) -> list[str]:
    """The tick labels ``axis`` will draw within ``limits``, without drawing it."""
    from matplotlib.ticker import FixedFormatter

    formatter = axis.get_major_formatter()
    locs = list(axis.get_majorticklocs())
    if isinstance(formatter, FixedFormatter):
        return [str(s) for s in formatter.seq[:len(locs)]]
    low, high = min(limits), max(limits)
    span = (high - low) or 1.0
    inside = [v for v in locs if low - 1e-9 * span <= v <= high + 1e-9 * span]
    return [label for label in formatter.format_ticks(inside) if label]


def _left_points(ax: Axes) -> float:
    if not ax.yaxis.get_tick_params(which="major").get("labelleft", True):
        return 4.0
    labels = _tick_labels(ax.yaxis, ax.get_ylim())
    widest = max((_text_width(label, 8) for label in labels), default=0.0)
    need = widest + ax.yaxis.get_tick_padding() + 2.0
    if ax.get_ylabel():
        need += LINE_PT + 4.0
    return need


def _bottom_points(ax: Axes) -> float:
    need = LINE_PT + ax.xaxis.get_tick_padding() + 1.0
    if ax.get_xlabel():
        need += LINE_PT + 3.0
    return need


def _top_points(ax: Axes) -> float:
    return LINE_PT + 4.0 if ax.get_title(loc="left") else 0.0


def _arrange(fig: Figure, grid: list[list[Axes]], *, legend_rows: int = 0, top: float = 6.0,
             right: float = 10.0) -> None:
    """Place the axes of ``grid`` (rows × columns) so their tick labels, axis labels and
    titles fit, with ``legend_rows`` rows of a figure legend at the foot; ``top`` and
    ``right`` are extra room [points] above and right of every axes (for labels drawn there).
    """
    width, height = (float(x) * 72 for x in fig.get_size_inches())
    rows, columns = len(grid), len(grid[0])
    shown = [[ax if ax is not None and ax.get_visible() else None for ax in row] for row in grid]
    lefts = [max((_left_points(row[c]) for row in shown if row[c] is not None), default=0.0)
             for c in range(columns)]
    tops = [max((_top_points(ax) for ax in row if ax is not None), default=0.0) + top
            for row in shown]
    bottoms = [max((_bottom_points(ax) for ax in row if ax is not None), default=0.0)
               for row in shown]
    legend = legend_rows * LEGEND_ROW_PT + LEGEND_PAD_PT if legend_rows else 0.0
    axes_width = (width - sum(lefts) - columns * right) / columns
    axes_height = (height - sum(tops) - sum(bottoms) - legend) / rows
    y = height
    for r, row in enumerate(shown):
        y -= tops[r] + axes_height
        x = 0.0
        for c, ax in enumerate(row):
            x += lefts[c]
            if ax is not None:
                ax.set_position([x / width, y / height, axes_width / width,
                                 axes_height / height])
            x += axes_width + right
        y -= bottoms[r]


def _floor_at_zero(ax: Axes, values: list[np.ndarray]) -> None:
    """Start the money axis at zero, or a little below the lowest value when that is negative."""
    lowest = min(float(np.nanmin(v)) for v in values)
    top = ax.get_ylim()[1]
    ax.set_ylim(bottom=0.0 if lowest >= 0 else lowest - 0.05 * (top - lowest))


def _clip_outliers(ax: Axes, curves: dict[str, tuple[np.ndarray, np.ndarray]],
                   describe: Callable[[str, float, float], str]) -> int:
    """Cut off curves far above all the others, so those stay readable, and say where they go.

    The highest curve is cut while its peak is more than OUTLIER_RATIO times the next one's;
    each cut curve gets a note where it leaves the chart, ``describe(name, x, y)`` of its
    peak. Returns how many curves were cut.
    """
    peaks = {name: float(np.nanmax(y)) for name, (_, y) in curves.items()}
    order = sorted(peaks, key=lambda name: -peaks[name])
    cut = 0
    # Cut only while at least two curves stay whole: the chart is there to compare them.
    while len(order) - cut >= 3 and peaks[order[cut + 1]] > 0 \
            and peaks[order[cut]] > OUTLIER_RATIO * peaks[order[cut + 1]]:
        cut += 1
    if not cut:
        return 0
    ceiling = peaks[order[cut]] * 1.3
    ax.set_ylim(top=ceiling)
    left, right = ax.get_xlim()
    for k, name in enumerate(order[:cut]):
        x, y = curves[name]
        above = np.nonzero(np.nan_to_num(y, nan=-np.inf) > ceiling)[0]
        at = int(above[0])
        leave = float(x[at]) if at == 0 else float(np.interp(ceiling, [y[at - 1], y[at]],
                                                             [x[at - 1], x[at]]))
        peak = int(np.nanargmax(y))
        align_left = leave < left + (right - left) * 0.6
        ax.annotate(describe(name, float(x[peak]), float(y[peak])),
                    xy=(leave, ceiling), xytext=(4 if align_left else -4, -3 - 11 * k),
                    textcoords="offset points", ha="left" if align_left else "right",
                    va="top", fontsize=7.5, color=INK, bbox=LABEL_BOX)
    return cut


def _cumulative(monthly_cost: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Points of the cumulative cost curve: month 0 a step at t = 0, linear within months."""
    costs = np.asarray(monthly_cost, dtype=float)
    t_grid = np.concatenate([[0.0], np.arange(len(costs), dtype=float)])
    y = np.concatenate([[0.0], np.cumsum(costs)])
    return t_grid, y


def _basis(result: Result) -> str:
    return t("basis.pv") if result.data["discount_rate"] else t("basis.total")


# -- the first page ---------------------------------------------------------------------------


def ranking(result: Result) -> str | None:
    """Every option's present value (total cost without discounting) over the horizon as
    horizontal bars, cheapest first and dark; infeasible options named without a bar."""
    data = result.data
    rows = content.ranked_options(result)
    key = "present_value" if data["discount_rate"] else "total_cost"
    if not any(r["feasible"] and not fmt.is_missing(r[key]) for r in rows):
        return None
    currency, cheapest = data["currency"], data.get("cheapest")
    height = 0.5 + 0.27 * len(rows)

    def draw(ax: Axes) -> str:
        positions = np.arange(len(rows))[::-1]
        values = [0.0 if fmt.is_missing(r[key]) else float(r[key]) for r in rows]
        top = max(values) or 1.0
        for y, row, value in zip(positions, rows, values, strict=True):
            if not row["feasible"] or fmt.is_missing(row[key]):
                ax.text(0, y, " " + t("ranking.infeasible"), va="center", ha="left",
                        fontsize=7.5, color=MARK, style="italic")
                continue
            best = row["name"] == cheapest
            ax.barh(y, value, height=0.62, color="#0072B2" if best else LIGHT,
                    edgecolor=INK if best else "#4d7ea8", linewidth=0.5)
            ax.text(value + top * 0.015, y, fmt.money(value, currency, decimals=0),
                    va="center", ha="left", fontsize=7.5, color=INK,
                    fontweight="bold" if best else "normal")
        ax.set_yticks(positions, [r["name"] for r in rows])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlim(0, top * 1.32)
        _money_axis(ax, currency, axis="x")
        ax.xaxis.set_major_locator(_few_ticks())
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        ax.set_xlabel(t("chart.over", basis=_basis(result), months=data["horizon_months"]))
        _arrange(ax.figure, [[ax]], top=2.0, right=6.0)
        return t("label.ranking")

    return _draw("ranking", height, draw, RANKING_WIDTH_INCHES)


def _few_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10])


# -- cumulative cost --------------------------------------------------------------------------


def cumulative_cost(result: Result) -> str | None:
    """Cumulative cost over the horizon per feasible option, break-even months marked."""
    data = result.data
    drawn = [row for row in data["options"] if row["feasible"] and row.get("monthly_cost")]
    if not drawn:
        return None
    horizon, currency, cheapest = data["horizon_months"], data["currency"], data["cheapest"]
    styles = _styles(result)

    def draw(ax: Axes) -> str:
        curves = _draw_cumulative(ax, drawn, styles, cheapest, horizon, currency)
        cut = _clip_outliers(ax, curves, lambda name, x, y: t(
            "chart.off_by_month", name=name, money=fmt.money_short(y, currency), month=f"{x:.0f}"))
        _mark_break_even_months(ax, result, curves, horizon, skip=cut)
        _arrange(ax.figure, [[ax]], legend_rows=_legend_below(ax, len(drawn)), right=12.0)
        return t("label.cumulative")

    return _draw("cumulative", 2.95, draw)


def _draw_cumulative(ax: Axes, drawn: list[dict[str, Any]], styles: dict[str, dict[str, Any]],
                     cheapest: str | None, horizon: int, currency: str) -> dict[str, Any]:
    curves = {}
    for row in drawn:
        t_grid, y = _cumulative(row["monthly_cost"])
        curves[row["name"]] = (t_grid, y)
        style = styles[row["name"]]
        label = row["name"] + (t("chart.cheapest") if row["name"] == cheapest else "")
        ax.plot(t_grid, y, label=label, color=style["color"], linestyle=style["linestyle"],
                linewidth=2.4 if row["name"] == cheapest else 1.5,
                marker=style["marker"], markersize=4, markevery=max(1, horizon // 6),
                markerfacecolor="white", markeredgewidth=1.0)
    _money_axis(ax, currency)
    _month_ticks(ax, horizon)
    _floor_at_zero(ax, [y for _, y in curves.values()])
    ax.set_xlabel(t("chart.months_from_today"))
    ax.set_ylabel(t("chart.cumulative"))
    return curves


def _mark_break_even_months(ax: Axes, result: Result, curves: dict[str, Any],
                            horizon: int, skip: int = 0) -> None:
    """Dotted lines at the break-even months, labelled from the top (below ``skip`` lines)."""
    marks = [row for row in marked_break_even(result)
             if not fmt.is_missing(row["months"]) and 0 < row["months"] <= horizon
             and row["own"] in curves]
    for i, row in enumerate(sorted(marks, key=lambda r: r["months"])):
        t_grid, y = curves[row["own"]]
        at = float(np.interp(row["months"], t_grid[1:], y[1:]))
        ax.axvline(row["months"], color=MARK, linewidth=0.8, linestyle=(0, (2, 2)), zorder=1)
        ax.plot([row["months"]], [at], "o", color=INK, markersize=4.5, zorder=5)
        align_left = row["months"] < horizon * 0.7
        ax.annotate(
            t("chart.pays_off", own=row["own"], versus=row["versus"],
              months=fmt.months(row["months"])),
            xy=(row["months"], 0.97 - 0.13 * (i + skip)), xycoords=("data", "axes fraction"),
            xytext=(4 if align_left else -4, 0), textcoords="offset points",
            ha="left" if align_left else "right", va="top", fontsize=7.5, color=INK,
            bbox=LABEL_BOX,
        )


# -- cost against usage -----------------------------------------------------------------------


def cost_vs_usage(result: Result) -> str | None:
    """Cost over the horizon against monthly usage, break-even usage levels marked."""
    frame = result.cost_vs_usage
    if frame is None or frame.empty:
        return None
    data = result.data
    curves = []
    for row in data["options"]:
        part = frame[frame["option"] == row["name"]].sort_values("gpu_hours_per_month")
        if part["present_value"].notna().any():
            curves.append((row["name"], part))
    if not curves:
        return None

    def draw(ax: Axes) -> str:
        _draw_usage(ax, result, curves)
        currency = data["currency"]
        cut = _clip_outliers(
            ax, {name: (part["gpu_hours_per_month"].to_numpy(dtype=float),
                        part["present_value"].to_numpy(dtype=float)) for name, part in curves},
            lambda name, x, y: t("chart.off_at_usage", name=name,
                                 money=fmt.money_short(y, currency), usage=fmt.number(x)))
        _mark_break_even_usage(ax, result, skip=cut)
        _arrange(ax.figure, [[ax]], legend_rows=_legend_below(ax, len(curves)), right=14.0)
        return t("label.usage")

    return _draw("usage", 2.95, draw)


def _draw_usage(ax: Axes, result: Result, curves: list[tuple[str, Any]]) -> None:
    from matplotlib.ticker import FuncFormatter

    data = result.data
    styles = _styles(result)
    for name, part in curves:
        style = styles[name]
        cheapest = name == data["cheapest"]
        ax.plot(part["gpu_hours_per_month"], part["present_value"],
                label=name + (t("chart.cheapest") if cheapest else ""),
                color=style["color"], linestyle=style["linestyle"],
                linewidth=2.4 if cheapest else 1.5, marker=style["marker"], markersize=4,
                markevery=max(1, len(part) // 7), markerfacecolor="white",
                markeredgewidth=1.0)
    _money_axis(ax, data["currency"])
    _floor_at_zero(ax, [part["present_value"].to_numpy(dtype=float) for _, part in curves])
    levels = result.cost_vs_usage["gpu_hours_per_month"]
    if levels.max() > levels.min():
        ax.set_xlim(float(levels.min()), float(levels.max()))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt.number(v)))
    ax.set_xlabel(t("chart.demand_axis"))
    ax.set_ylabel(t("chart.over", basis=_basis(result), months=data["horizon_months"]))


def _mark_break_even_usage(ax: Axes, result: Result, skip: int = 0) -> None:
    """Dotted lines at the break-even usage levels, labelled from the top (below ``skip``)."""
    left, right = ax.get_xlim()
    marks = [row for row in marked_break_even(result)
             if not fmt.is_missing(row["gpu_hours_per_month"])
             and left <= row["gpu_hours_per_month"] <= right]
    for i, row in enumerate(sorted(marks, key=lambda r: r["gpu_hours_per_month"])):
        x = row["gpu_hours_per_month"]
        ax.axvline(x, color=MARK, linewidth=0.8, linestyle=(0, (2, 2)), zorder=1)
        align_left = x < left + (right - left) * 0.7
        ax.annotate(
            t("chart.same_cost", own=row["own"], versus=row["versus"], usage=fmt.number(x)),
            xy=(x, 0.97 - 0.13 * (i + skip)), xycoords=("data", "axes fraction"),
            xytext=(4 if align_left else -4, 0), textcoords="offset points",
            ha="left" if align_left else "right", va="top", fontsize=7.5, color=INK,
            bbox=LABEL_BOX,
        )
    demand = result.data.get("demand_gpu_hours_per_month")
    if not fmt.is_missing(demand) and left <= demand <= right:
        ax.axvline(demand, color=INK, linewidth=1.0, zorder=1)
        ax.annotate(t("chart.your_demand", usage=fmt.number(demand)),
                    xy=(demand, 0.03), xycoords=("data", "axes fraction"), xytext=(4, 0),
                    textcoords="offset points",
                    ha="left", va="bottom", fontsize=7.5, color=INK, bbox=LABEL_BOX)


# -- monthly cost by component ----------------------------------------------------------------


PANEL_HEIGHT_INCHES = 1.45


def monthly_breakdown(result: Result) -> str | None:
    """Every feasible option's monthly cost by component group, months 1..T: one small panel
    per option (cheapest first), each on its own money scale (so the composition of a cheap
    option stays legible beside a dear one), one legend.

    Month 0 (purchases today) is left out of the bars and stated in the panel's title, and
    months far above the others (replacements, payoffs) are clipped and labelled with their
    total, so ordinary months stay legible.
    """
    data = result.data
    if result.monthly is None or result.monthly.empty:
        return None
    names = [r["name"] for r in content.ranked_options(result) if r["feasible"]
             and r.get("monthly_cost")]
    panels = []
    for name in names:
        groups = content.grouped_monthly(result, name)
        bars = groups.loc[1:]
        if not bars.empty and (bars.abs() > 1e-9).to_numpy().any():
            panels.append((name, groups))
    if not panels:
        return None
    horizon, currency = data["horizon_months"], data["currency"]
    columns = 1 if len(panels) == 1 else 2
    rows = -(-len(panels) // columns)
    order = [g for g, _ in content.COMPONENT_GROUPS if any(g in p.columns for _, p in panels)]
    legend_rows = -(-len(order) // min(len(order), 5))
    height = 0.2 + 0.19 * legend_rows + PANEL_HEIGHT_INCHES * rows

    def draw(fig: Figure) -> str:
        axes = fig.subplots(rows, columns, squeeze=False)
        for k, (name, groups) in enumerate(panels):
            ax = axes[k // columns][k % columns]
            _draw_panel(ax, groups.loc[1:], currency, horizon)
            stack = _stack(groups.loc[1:])
            top, bottom, spikes = _scale(stack)
            ax.set_ylim(bottom, top)
            today = float(groups.loc[0].sum())
            title = name if abs(today) < 0.5 else t("chart.today", name=name,
                                                     money=fmt.money(today, currency, decimals=0))
            ax.set_title(title, loc="left", fontsize=8, fontweight="bold", color=INK, pad=3)
            _label_spikes(ax, stack, spikes, top, bottom, currency)
            if k % columns == 0:
                ax.set_ylabel(t("chart.monthly"))
            if k // columns == rows - 1 or k + columns >= len(panels):
                ax.set_xlabel(t("chart.month"))
        for k in range(len(panels), rows * columns):
            axes[k // columns][k % columns].set_visible(False)
        handles = _group_handles(order)
        _figure_legend(fig, handles, None, min(len(order), 5), handlelength=1.6,
                       handletextpad=0.5)
        grid = [[axes[r][c] for c in range(columns)] for r in range(rows)]
        _arrange(fig, grid, legend_rows=legend_rows, top=2.0, right=12.0)
        return t("label.breakdown")

    return _draw_figure("breakdown", WIDTH_INCHES, height, draw)


def _stack(bars: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Months, the sum of costs and the sum of credits of each month."""
    values = bars.to_numpy(dtype=float)
    return (bars.index.to_numpy(), np.where(values > 0, values, 0).sum(axis=1),
            np.where(values < 0, values, 0).sum(axis=1))


def _spikes(up: np.ndarray, down: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Months far beyond their neighbours, up and down: a month is a spike when its costs (or
    credits) exceed SPIKE_RATIO times the median cost of the SPIKE_WINDOW months on either
    side; steady growth is never clipped."""
    neighbours = np.array([
        np.median(np.concatenate([up[max(0, i - SPIKE_WINDOW):i], up[i + 1:i + 1 + SPIKE_WINDOW]]))
        if len(up) > 1 else 0.0
        for i in range(len(up))
    ])
    high = (neighbours > 0) & (up > SPIKE_RATIO * neighbours)
    low = (neighbours > 0) & (-down > SPIKE_RATIO * neighbours)
    if (high | low).all():
        return np.zeros_like(high), np.zeros_like(low)
    return high, low


def _scale(stack: tuple[np.ndarray, np.ndarray, np.ndarray]
           ) -> tuple[float, float, tuple[np.ndarray, np.ndarray]]:
    """A panel's money scale, leaving out its spikes, and the spikes."""
    _, up, down = stack
    high, low = _spikes(up, down)
    top = (float(up[~high].max()) if (~high).any() else 1.0) * 1.15 or 1.0
    bottom = (float(down[~low].min()) if (~low).any() else 0.0) * 1.15
    if low.any():
        bottom = min(bottom, -0.3 * top)
    return top, bottom, (high, low)


def _draw_panel(ax: Axes, bars: Any, currency: str, horizon: int) -> None:
    """Stacked bars (costs up, credits such as resale down) of one option; each group's bars
    are one compound path, so a hatch pattern is drawn once per group, not once per month."""
    months = bars.index.to_numpy(dtype=float)
    up = np.zeros(len(months))
    down = np.zeros(len(months))
    for group in bars.columns:
        values = bars[group].to_numpy(dtype=float)
        base = np.where(values >= 0, up, down)
        style = GROUP_STYLES[group]
        _bar_patch(ax, months, values, base, 0.8, facecolor=style["color"],
                   hatch=style["hatch"],
                   edgecolor="white" if style["hatch"] is None else HATCH_INK,
                   linewidth=0.0 if style["hatch"] else 0.3)
        up += np.where(values >= 0, values, 0)
        down += np.where(values < 0, values, 0)
    _money_axis(ax, currency)
    ax.yaxis.set_major_locator(_few_ticks())
    ax.set_xlim(0.3, horizon + 0.7)
    step = _month_step(horizon) * (2 if horizon > 24 else 1)
    ax.set_xticks(np.arange(step, horizon + 1, step))


def _bar_patch(ax: Axes, x: np.ndarray, heights: np.ndarray, bottoms: np.ndarray,
               width: float, **style: Any) -> None:
    """Bars as one compound path (zero-height bars left out)."""
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    keep = np.abs(heights) > 0
    if not keep.any():
        return
    x, heights, bottoms = x[keep], heights[keep], bottoms[keep]
    left, right, top = x - width / 2, x + width / 2, bottoms + heights
    vertices = np.stack([np.stack([left, bottoms], 1), np.stack([right, bottoms], 1),
                         np.stack([right, top], 1), np.stack([left, top], 1),
                         np.stack([left, bottoms], 1)], axis=1).reshape(-1, 2)
    codes = np.tile([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY],
                    len(x))
    ax.add_patch(PathPatch(Path(vertices, codes), **style))


def _label_spikes(ax: Axes, stack: tuple[np.ndarray, np.ndarray, np.ndarray],
                  spikes: tuple[np.ndarray, np.ndarray], top: float, bottom: float,
                  currency: str) -> None:
    months, up, down = stack
    high, low = spikes
    label = {"fontsize": 7, "color": INK, "annotation_clip": False,
             "textcoords": "offset points"}
    for month, value in zip(months[high], up[high], strict=True):
        ax.annotate(fmt.money_short(value, currency), xy=(month, top), xytext=(0, 1),
                    ha="center", va="bottom", **label)
    for month, value in zip(months[low], down[low], strict=True):
        ax.annotate(fmt.money_short(value, currency), xy=(month, bottom), xytext=(4, 1),
                    ha="left", va="bottom", **label)


def _group_handles(order: list[str]) -> list[Any]:
    from matplotlib.patches import Patch

    handles = []
    for group in order:
        style = GROUP_STYLES[group]
        handles.append(Patch(facecolor=style["color"], hatch=style["hatch"],
                             edgecolor=HATCH_INK if style["hatch"] else "white", linewidth=0.0,
                             label=content.group_label(group)))
    return handles


# -- sensitivity ------------------------------------------------------------------------------


def sensitivity(result: Result) -> str | None:
    """A tornado of the headline pair's break-even month: one row per input that moves it,
    bars from the plan's month to where the input's low and high ends put it; "never" beyond
    the horizon; the cheapest option named at an end where it changes."""
    analysis = content.sensitivity(result)
    if analysis is None or analysis["pair"] is None or not analysis["rows"]:
        return None
    rows = analysis["rows"]
    horizon = result.data["horizon_months"]
    spread = analysis["spread"]
    own, versus = analysis["pair"]
    height = 0.85 + 0.36 * len(rows)

    def draw(fig: Figure) -> str:
        ax = fig.add_subplot()
        ends = [analysis["months"]] + [r["low"] for r in rows] + [r["high"] for r in rows]
        never_used = any(math.isnan(m) for m in ends)
        never = horizon * 1.08

        def place(m: float) -> float:
            return never if math.isnan(m) else m

        base = place(analysis["months"])
        placed = [place(m) for m in ends]
        low, high = min(placed), max(placed)
        span = max(high - low, 0.5)
        left, right = low - span * 0.05, high + span * 0.05
        if never_used:
            right = max(right, horizon * 1.12)
        labels = [(place(r[side]), _end_label(r, side)) for r in rows for side in ("low", "high")]
        left, right = _room_for_labels(labels, base, left, right, WIDTH_INCHES * 72 * 0.72)
        left = max(left, 0.0) if low >= 0 else left
        positions = np.arange(len(rows))[::-1]
        tick = (right - left) * 0.004
        for y, row in zip(positions, rows, strict=True):
            for side, offset, color, edge in (("low", 0.18, LIGHT, "#4d7ea8"),
                                              ("high", -0.18, "#0072B2", INK)):
                end = place(row[side])
                width = end - base
                if abs(width) < tick:  # no move: a thin tick shows the row is there
                    width = tick
                ax.barh(y + offset, width, left=base, height=0.34, color=color,
                        edgecolor=edge, linewidth=0.5)
                ahead = end >= base
                ax.annotate(_end_label(row, side), xy=(base + width, y + offset),
                            xytext=(3 if ahead else -3, 0), textcoords="offset points",
                            ha="left" if ahead else "right", va="center", fontsize=7,
                            color=INK)
        ax.axvline(base, color=INK, linewidth=1.0, zorder=3)
        ax.annotate(t("chart.plan", months=analysis["months_text"]), xy=(base, 1.0),
                    xycoords=("data", "axes fraction"), xytext=(0, 2),
                    textcoords="offset points", ha="center", va="bottom", fontsize=7.5,
                    color=INK)
        ax.set_yticks(positions, [r["input"] for r in rows])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlim(left, right)
        _month_axis(ax, left, min(right, horizon), never if never_used else None)
        if never_used:
            ax.axvspan(horizon, right, color="#eeeeee", zorder=0, linewidth=0)
        ax.tick_params(axis="y", length=0)
        ax.grid(axis="x", color=GRID, linewidth=0.5)
        ax.set_axisbelow(True)
        ax.set_xlabel(t("chart.sens_axis", own=own, versus=versus))
        from matplotlib.patches import Patch

        _figure_legend(fig, [
            Patch(facecolor=LIGHT, edgecolor="#4d7ea8", linewidth=0.5,
                  label=t("chart.sens_low", spread=spread)),
            Patch(facecolor="#0072B2", edgecolor=INK, linewidth=0.5,
                  label=t("chart.sens_high", spread=spread))], None, 2, handlelength=1.6)
        _arrange(fig, [[ax]], legend_rows=1, top=14.0, right=8.0)
        return t("label.sensitivity")

    return _draw_figure("sensitivity", WIDTH_INCHES, height, draw)


def _end_label(row: dict[str, Any], side: str) -> str:
    """The label at a tornado bar's end: the month (or "never") and, when it changes, the
    cheapest option."""
    text = t("chart.never") if math.isnan(row[side]) else fmt.number(row[side], 1)
    name = row[f"cheapest_{side}"]
    if name == t("sens.none"):
        text += " · " + name
    elif name:
        text += " · " + t("chart.cheapest_is", name=name)
    return text


def _room_for_labels(labels: list[tuple[float, str]], base: float, left: float, right: float,
                     axis_points: float) -> tuple[float, float]:
    """Widen [left, right] until every label fits beside its bar's end: to the right of ends
    at or beyond ``base``, to the left of the others. ``axis_points`` is the axes' width."""
    for _ in range(4):
        for end, text in labels:
            share = min((_text_width(text, 7) + 6) / axis_points, 0.8)
            if end >= base:
                right = max(right, (end - share * left) / (1 - share))
            else:
                left = min(left, (end - share * right) / (1 - share))
    return left, right


def _month_axis(ax: Axes, left: float, right: float, never: float | None) -> None:
    """Ticks in months between ``left`` and ``right``, with as many decimals as their step
    needs, and a "never" tick at ``never`` when given."""
    from matplotlib.ticker import MaxNLocator

    ticks = [x for x in MaxNLocator(nbins=7, steps=[1, 2, 2.5, 5, 10]).tick_values(left, right)
             if left <= x <= right]
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    decimals = max(0, -math.floor(math.log10(step) + 1e-9)) if step < 1 else 0
    labels = [fmt.number(x, decimals) for x in ticks]
    if never is not None:
        ticks.append(never)
        labels.append(t("chart.never"))
    ax.set_xticks(ticks, labels)


# -- free tiers -------------------------------------------------------------------------------


def free_tiers(result: Result) -> str | None:
    """Sessions a week and days a job waits, one bar per free tier that serves work."""
    rows = [r for r in content.free_tier_rows(result)
            if r["sessions_value"] is not None or r["wait_value"] is not None]
    if not rows:
        return None
    height = 0.75 + 0.3 * len(rows)

    def draw(fig: Figure) -> str:
        axes = fig.subplots(1, 2, sharey=True)
        positions = np.arange(len(rows))[::-1]
        for ax, key, title, color in (
                (axes[0], "sessions_value", t("free.sessions"), "#009E73"),
                (axes[1], "wait_value", t("free.wait"), "#CC79A7")):
            values = [r[key] for r in rows]
            top = max([v for v in values if v is not None] + [1.0])
            for y, value in zip(positions, values, strict=True):
                if value is None:
                    ax.text(0, y, " " + t("free.no_job"), va="center", ha="left",
                            fontsize=7, color=MARK, style="italic")
                    continue
                ax.barh(y, value, height=0.55, color=color, edgecolor=INK, linewidth=0.5)
                ax.text(value + top * 0.02, y, fmt.number(value, 1), va="center", ha="left",
                        fontsize=7.5, color=INK)
            ax.set_xlim(0, top * 1.25)
            ax.set_title(title, loc="left", fontsize=8, fontweight="bold", color=INK, pad=3)
            ax.grid(axis="x", color=GRID, linewidth=0.5)
            ax.set_axisbelow(True)
            ax.tick_params(axis="y", length=0)
            ax.xaxis.set_major_locator(_few_ticks())
        axes[0].set_yticks(positions, [r["name"] for r in rows])
        axes[0].set_ylim(-0.6, len(rows) - 0.4)
        axes[1].tick_params(axis="y", labelleft=False)
        _arrange(fig, [[axes[0], axes[1]]], top=2.0, right=14.0)
        return t("label.free")

    return _draw_figure("free", WIDTH_INCHES, height, draw)
