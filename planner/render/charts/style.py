"""How the charts look: the Okabe–Ito palette (safe for colour-blind readers), a line style
and marker per option, a fill and hatch per component group (so the charts survive a
grayscale printer), and the axes' money and month ticks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render import fmt
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes

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
INK = "#222222"
GRID = "#d9d9d9"
MARK = "#555555"
LIGHT = "#9ecae1"  # the light bars: a light blue that prints as a light grey
LEGEND_PT = 8
# Behind labels on the plot: mostly opaque, so lines passing under them stay traceable.
LABEL_BOX = {"boxstyle": "square,pad=0.2", "facecolor": "white", "edgecolor": "none",
             "alpha": 0.8}


def option_styles(result: Result) -> dict[str, dict[str, Any]]:
    """Colour, line style and marker of each option, by its place in the file."""
    return {
        row["name"]: {
            "color": PALETTE[i % len(PALETTE)],
            "linestyle": LINESTYLES[i % len(LINESTYLES)],
            "marker": MARKERS[i % len(MARKERS)],
        }
        for i, row in enumerate(result.data["options"])
    }


def money_axis(ax: Axes, currency: str, axis: str = "y") -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    target.set_major_formatter(FuncFormatter(lambda v, _: fmt.money_short(v, currency)))
    ax.grid(axis=axis, color=GRID, linewidth=0.5)
    ax.set_axisbelow(True)


def month_step(horizon: int) -> int:
    return next(s for s in (1, 2, 3, 6, 12, 24, 60, 120) if horizon / s <= 12)


def month_ticks(ax: Axes, horizon: int) -> None:
    ax.set_xticks(np.arange(0, horizon + 1, month_step(horizon)))
    ax.set_xlim(0, horizon)


def floor_at_zero(ax: Axes, values: list[np.ndarray]) -> None:
    """Start the money axis at zero, or a little below the lowest value when that is negative."""
    lowest = min(float(np.nanmin(v)) for v in values)
    top = ax.get_ylim()[1]
    ax.set_ylim(bottom=0.0 if lowest >= 0 else lowest - 0.05 * (top - lowest))


def basis(result: Result) -> str:
    return t("basis.pv") if result.data["discount_rate"] else t("basis.total")


def few_ticks() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=4, steps=[1, 2, 2.5, 5, 10])
