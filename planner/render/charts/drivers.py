"""What drives the spread under uncertainty (SPEC §7): each drawn input's share of the variance
of the headline pair's difference in present value, as ranked horizontal bars."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from planner.render import fmt
from planner.render.charts.layout import arrange
from planner.render.charts.style import GRID, INK
from planner.render.charts.svg import WIDTH_INCHES, draw_axes
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from planner.result import Result


def drivers(result: Result) -> str | None:
    """The inputs ranked by their first-order Sobol' index, the largest on top (None without
    draws or without a pair)."""
    block = result.data.get("uncertainty") or {}
    ranked = (block.get("drivers") or {}).get("inputs") or []
    if not ranked:
        return None
    height = 0.55 + 0.27 * len(ranked)

    def draw(ax: Axes) -> str:
        positions = np.arange(len(ranked))[::-1]
        ax.barh(positions, [row["first_order"] for row in ranked], height=0.6, color="#E69F00",
                edgecolor=INK, linewidth=0.5)  # one call for all bars
        for y, row in zip(positions, ranked, strict=True):
            share = row["first_order"]
            ax.text(share + 0.015, y, fmt.percent(share, 0 if share >= 0.1 else 1),
                    va="center", ha="left", fontsize=7.5, color=INK)
        ax.set_yticks(positions, [row["input"] for row in ranked])
        ax.set_ylim(-0.6, len(ranked) - 0.4)
        ax.set_xlim(0, 1.12)
        ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
        ax.grid(axis="x", color=GRID, linewidth=0.5)
        ax.set_axisbelow(True)
        ax.tick_params(axis="y", length=0)
        ax.spines["left"].set_visible(False)
        ax.set_xlabel(t("chart.drivers"))
        arrange(ax.figure, [[ax]], top=2.0, right=6.0)
        return t("label.drivers")

    return draw_axes("drivers", height, draw, WIDTH_INCHES)
