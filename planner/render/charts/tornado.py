"""What changes the answer: a tornado of the headline pair's break-even month as each key
input moves.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render import content, fmt
from planner.render.charts.layout import arrange, figure_legend
from planner.render.charts.style import GRID, INK, LIGHT
from planner.render.charts.svg import WIDTH_INCHES, new_figure, svg_of, text_width
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from planner.result import Result


def sensitivity(result: Result) -> str | None:
    """The chart of :func:`sensitivity_figure` as inline SVG."""
    return svg_of(sensitivity_figure(result), "sensitivity")


def sensitivity_figure(result: Result) -> Figure | None:
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
        bars = []  # (y, width, colour, edge colour): drawn in one call
        for y, row in zip(positions, rows, strict=True):
            for side, offset, color, edge in (("low", 0.18, LIGHT, "#4d7ea8"),
                                              ("high", -0.18, "#0072B2", INK)):
                end = place(row[side])
                width = end - base
                if abs(width) < tick:  # no move: a thin tick shows the row is there
                    width = tick
                bars.append((y + offset, width, color, edge))
                ahead = end >= base
                ax.annotate(_end_label(row, side), xy=(base + width, y + offset),
                            xytext=(3 if ahead else -3, 0), textcoords="offset points",
                            ha="left" if ahead else "right", va="center", fontsize=7,
                            color=INK)
        ax.barh([b[0] for b in bars], [b[1] for b in bars], left=base, height=0.34,
                color=[b[2] for b in bars], edgecolor=[b[3] for b in bars], linewidth=0.5)
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

        figure_legend(fig, [
            Patch(facecolor=LIGHT, edgecolor="#4d7ea8", linewidth=0.5,
                  label=t("chart.sens_low", spread=spread)),
            Patch(facecolor="#0072B2", edgecolor=INK, linewidth=0.5,
                  label=t("chart.sens_high", spread=spread))], None, 2, handlelength=1.6)
        arrange(fig, [[ax]], legend_rows=1, top=14.0, right=8.0)
        return t("label.sensitivity")

    return new_figure("sensitivity", WIDTH_INCHES, height, draw)


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
            share = min((text_width(text, 7) + 6) / axis_points, 0.8)
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
