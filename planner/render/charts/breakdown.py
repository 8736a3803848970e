"""Every feasible option's monthly cost by component group, in small multiples (energy split
into IT load and cooling by the Result's cooling share).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render import content, fmt
from planner.render.charts.layout import arrange, figure_legend
from planner.render.charts.style import (
    GROUP_STYLES,
    HATCH_INK,
    INK,
    few_ticks,
    money_axis,
    month_step,
)
from planner.render.charts.svg import WIDTH_INCHES, new_figure, svg_of
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from planner.result import Result


SPIKE_RATIO = 3.0  # a month this many times its neighbours' cost is clipped in the bars
SPIKE_WINDOW = 3  # months on either side that make a month's neighbours
PANEL_HEIGHT_INCHES = 1.45


def monthly_breakdown(result: Result) -> str | None:
    """The chart of :func:`monthly_breakdown_figure` as inline SVG."""
    return svg_of(monthly_breakdown_figure(result), "breakdown")


def monthly_breakdown_figure(result: Result) -> Figure | None:
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
        figure_legend(fig, handles, None, min(len(order), 5), handlelength=1.6,
                       handletextpad=0.5)
        grid = [[axes[r][c] for c in range(columns)] for r in range(rows)]
        arrange(fig, grid, legend_rows=legend_rows, top=2.0, right=12.0)
        return t("label.breakdown")

    return new_figure("breakdown", WIDTH_INCHES, height, draw)


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
    money_axis(ax, currency)
    ax.yaxis.set_major_locator(few_ticks())
    ax.set_xlim(0.3, horizon + 0.7)
    step = month_step(horizon) * (2 if horizon > 24 else 1)
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
    # add_artist, not add_patch: add_patch finds the data limits by splitting the path into
    # Bézier segments one by one (a third of the chart's drawing); the bars' corners are the
    # limits, and the panel's axes limits are set by the caller anyway.
    ax.add_artist(PathPatch(Path(vertices, codes), **style))
    ax.update_datalim(vertices)


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
