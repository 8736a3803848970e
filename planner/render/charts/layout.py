"""Where the axes, tick labels and legends of a chart go: measured from the labels set, not
by a layout engine (which would draw everything twice).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.render.charts.style import LEGEND_PT
from planner.render.charts.svg import WIDTH_INCHES, text_width

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure



def _legend_columns(labels: list[str], width_inches: float) -> int:
    """How many legend columns (up to 4) fit across ``width_inches``."""
    widths = [text_width(label, LEGEND_PT) for label in labels]
    handle, gap, spacing = 2.8, 0.8, 1.4  # ems

    def width(columns: int) -> float:
        # matplotlib fills the columns top to bottom; each is as wide as its widest entry.
        rows = -(-len(widths) // columns)
        texts = [max(widths[i:i + rows]) for i in range(0, len(widths), rows)]
        return sum(texts) + LEGEND_PT * ((handle + gap) * len(texts) + spacing * (len(texts) - 1)
                                         + 2)

    available = width_inches * 72 * 0.95
    return next((c for c in range(min(len(labels), 4), 1, -1) if width(c) <= available), 1)


def legend_below(ax: Axes, width_inches: float = WIDTH_INCHES) -> int:
    """The legend at the foot of a figure ``width_inches`` wide, in as many columns (up to 4)
    as fit across it; returns its number of rows."""
    handles, labels = ax.get_legend_handles_labels()
    columns = _legend_columns(labels, width_inches)
    figure_legend(ax.figure, handles, labels, columns, handlelength=2.8, handletextpad=0.8)
    return -(-len(labels) // columns)


def figure_legend(fig: Figure, handles: list[Any], labels: list[str] | None, columns: int,
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
    widest = max((text_width(label, 8) for label in labels), default=0.0)
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


def arrange(fig: Figure, grid: list[list[Axes]], *, legend_rows: int = 0, top: float = 6.0,
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
