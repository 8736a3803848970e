"""The bar charts: every option's cost over the horizon (the first page's ranking), and sessions
a week and days a job waits on each free tier.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from planner.render import content, fmt
from planner.render.charts.layout import arrange
from planner.render.charts.style import GRID, INK, LIGHT, MARK, basis, few_ticks, money_axis
from planner.render.charts.svg import (
    RANKING_WIDTH_INCHES,
    WIDTH_INCHES,
    draw_figure,
    figure_axes,
    svg_of,
    text_width,
)
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from planner.result import Result


def ranking(result: Result) -> str | None:
    """The chart of :func:`ranking_figure` as inline SVG."""
    return svg_of(ranking_figure(result), "ranking")


def ranking_figure(result: Result) -> Figure | None:
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
        bars = []  # (y, value, best?): drawn in one call (one bar call costs as much as all)
        for y, row, value in zip(positions, rows, values, strict=True):
            if not row["feasible"] or fmt.is_missing(row[key]):
                ax.text(0, y, " " + t("ranking.infeasible"), va="center", ha="left",
                        fontsize=7.5, color=MARK, style="italic")
                continue
            best = row["name"] == cheapest
            bars.append((y, value, best))
            ax.text(value + top * 0.015, y, fmt.money(value, currency, decimals=0),
                    va="center", ha="left", fontsize=7.5, color=INK,
                    fontweight="bold" if best else "normal")
        ax.barh([y for y, _, _ in bars], [v for _, v, _ in bars], height=0.62,
                color=["#0072B2" if best else LIGHT for _, _, best in bars],
                edgecolor=[INK if best else "#4d7ea8" for _, _, best in bars], linewidth=0.5)
        ax.set_yticks(positions, [r["name"] for r in rows])
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.set_xlim(0, top * 1.32)
        money_axis(ax, currency, axis="x")
        ax.xaxis.set_major_locator(few_ticks())
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        ax.set_xlabel(t("chart.over", basis=basis(result), months=data["horizon_months"]))
        arrange(ax.figure, [[ax]], top=2.0, right=6.0)
        _fit_value_labels(ax, rows, values, key, currency, top)
        return t("label.ranking")

    return figure_axes("ranking", height, draw, RANKING_WIDTH_INCHES)


BOLD_WIDTH = 1.1  # a bold label is at most this much wider than the regular one measured


def _fit_value_labels(ax: Axes, rows: list, values: list[float], key: str, currency: str,
                      top: float) -> None:
    """Widen the money axis so that every bar's amount, written after it, ends inside the
    axes (amounts in the millions are long), once the axes are placed."""
    fig = ax.figure
    axes_pt = ax.get_position().width * fig.get_size_inches()[0] * 72
    needed = top * 1.32
    for row, value in zip(rows, values, strict=True):
        if not row["feasible"] or fmt.is_missing(row[key]):
            continue
        label_pt = text_width(fmt.money(value, currency, decimals=0), 7.5) * BOLD_WIDTH
        share = label_pt / axes_pt  # of the axes' width
        if share < 0.9:
            needed = max(needed, (value + top * 0.015) / (1 - share))
    ax.set_xlim(0, needed)


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
            bars = []  # (y, value), drawn in one call
            for y, value in zip(positions, values, strict=True):
                if value is None:
                    ax.text(0, y, " " + t("free.no_job"), va="center", ha="left",
                            fontsize=7, color=MARK, style="italic")
                    continue
                bars.append((y, value))
                ax.text(value + top * 0.02, y, fmt.number(value, 1), va="center", ha="left",
                        fontsize=7.5, color=INK)
            if bars:
                ax.barh([y for y, _ in bars], [v for _, v in bars], height=0.55, color=color,
                        edgecolor=INK, linewidth=0.5)
            ax.set_xlim(0, top * 1.25)
            ax.set_title(title, loc="left", fontsize=8, fontweight="bold", color=INK, pad=3)
            ax.grid(axis="x", color=GRID, linewidth=0.5)
            ax.set_axisbelow(True)
            ax.tick_params(axis="y", length=0)
            ax.xaxis.set_major_locator(few_ticks())
        axes[0].set_yticks(positions, [r["name"] for r in rows])
        axes[0].set_ylim(-0.6, len(rows) - 0.4)
        axes[1].tick_params(axis="y", labelleft=False)
        arrange(fig, [[axes[0], axes[1]]], top=2.0, right=14.0)
        return t("label.free")

    return draw_figure("free", WIDTH_INCHES, height, draw)
