"""Cumulative cost under uncertainty (SPEC §7): per option the median of its cumulative cost
over the draws, with the band from the 5th to the 95th percentile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from planner.render.charts.layout import arrange, legend_below
from planner.render.charts.style import floor_at_zero, money_axis, month_ticks, option_styles
from planner.render.charts.svg import RANKING_WIDTH_INCHES, WIDTH_INCHES, draw_axes
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from planner.result import Result


def glance_bands(result: Result) -> str | None:
    """:func:`cumulative_bands` at the size of the first page's chart, beside the inputs
    (SPEC §7's page-1 chart; None without draws)."""
    return cumulative_bands(result, RANKING_WIDTH_INCHES, 2.6, "glance-bands")


def cumulative_bands(result: Result, width_inches: float = WIDTH_INCHES,
                     height_inches: float = 2.8, salt: str = "bands") -> str | None:
    """Median cumulative cost per option over the draws, P5–P95 shaded (None without
    draws), ``width_inches`` × ``height_inches`` in size."""
    block = result.data.get("uncertainty") or {}
    bands = {name: b for name, b in (block.get("cumulative_cost") or {}).items() if b}
    if not bands:
        return None
    data = result.data
    horizon, currency, cheapest = data["horizon_months"], data["currency"], data["cheapest"]
    styles = option_styles(result)

    def draw(ax: Axes) -> str:
        months = np.arange(horizon + 1)
        for name, band in bands.items():
            style = styles[name]
            ax.fill_between(months, band["p5"], band["p95"], color=style["color"], alpha=0.18,
                            linewidth=0)
            label = name + (t("chart.cheapest") if name == cheapest else "")
            ax.plot(months, band["p50"], label=label, color=style["color"],
                    linestyle=style["linestyle"], linewidth=2.2 if name == cheapest else 1.4)
        money_axis(ax, currency)
        month_ticks(ax, horizon)
        floor_at_zero(ax, [np.asarray(b["p95"]) for b in bands.values()])
        ax.set_xlabel(t("chart.months_from_today"))
        ax.set_ylabel(t("chart.cumulative"))
        legend_rows = legend_below(ax, width_inches)
        arrange(ax.figure, [[ax]], legend_rows=legend_rows, right=12.0)
        return t("label.bands")

    return draw_axes(salt, height_inches, draw, width_inches)
