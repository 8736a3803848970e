"""The best mix (SPEC §6): the mix's present value against the machines owned of one own
member, one line per purchase month (the other members at their best, the cloud's
commitments the best of each term for every point), the optimum marked: how flat it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from planner.render.charts.layout import arrange, legend_below
from planner.render.charts.style import GRID, INK, LINESTYLES, MARKERS, PALETTE, money_axis
from planner.render.charts.svg import draw_axes
from planner.render.content.mix import charted_member
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from planner.result import Result

#: Purchase months drawn at most (the best one always among them).
MAX_LINES = 6


def mix_lines(mix) -> tuple[str, dict[int, pd.DataFrame]]:
    """The charted member and its lines: purchase month → (machines, present value) rows,
    sorted by machines, the no-machine point at the start of each; the other members at their
    best setting."""
    name = charted_member(mix)
    frame = mix.candidates
    keep = np.ones(len(frame), bool)
    for other in mix.members[:-1]:
        if other != name:
            for key in ("machines", "purchase_month"):
                keep &= frame[f"{other}.{key}"].to_numpy() == mix.best[f"{other}.{key}"]
    part = frame[keep]
    horizon = int(part[f"{name}.purchase_month"].max()) + 1
    best_p = int(mix.best[f"{name}.purchase_month"])
    wanted = sorted({best_p, *range(0, horizon, 12)})
    if len(wanted) > MAX_LINES:  # the best month and the ones nearest to it
        wanted = sorted(sorted(wanted, key=lambda p: (abs(p - best_p), p))[:MAX_LINES])
    none = part[part[f"{name}.machines"] == 0]
    lines = {}
    for p in wanted:
        line = part[(part[f"{name}.purchase_month"] == p) & (part[f"{name}.machines"] > 0)]
        line = pd.concat([none, line]).sort_values(f"{name}.machines")
        lines[p] = line[[f"{name}.machines", "present_value"]].rename(
            columns={f"{name}.machines": "machines"})
    return name, lines


def best_mix(result: Result) -> str | None:
    """The chart, or None without a mix."""
    mix = getattr(result, "mix_result", None)
    if mix is None:
        return None
    name, lines = mix_lines(mix)
    currency = result.data["currency"]
    best_m = int(mix.best[f"{name}.machines"])
    best_p = int(mix.best[f"{name}.purchase_month"])

    def draw(ax: Axes) -> str:
        for k, (p, line) in enumerate(lines.items()):
            ax.plot(line["machines"], line["present_value"], color=PALETTE[k % len(PALETTE)],
                    linestyle=LINESTYLES[k % len(LINESTYLES)], marker=MARKERS[k % len(MARKERS)],
                    markersize=4, markerfacecolor="white", markeredgewidth=1.0,
                    linewidth=2.2 if p == best_p else 1.4, label=t("chart.mix_month", month=p))
        ax.plot([best_m], [mix.present_value], "o", color=INK, markersize=8, zorder=6,
                markerfacecolor="none", markeredgewidth=1.6)
        ax.annotate(t("chart.mix_best", machines=best_m, month=best_p), (best_m,
                    mix.present_value), xytext=(9, 4), textcoords="offset points",
                    fontsize=7.5, color=INK)
        top = max(int(line["machines"].max()) for line in lines.values())
        ax.set_xticks(range(top + 1))
        ax.grid(axis="y", color=GRID, linewidth=0.5)
        ax.set_axisbelow(True)
        money_axis(ax, currency)
        ax.set_xlabel(t("chart.mix_x", option=name))
        ax.set_ylabel(t("chart.mix_y", currency=currency))
        rows = legend_below(ax)
        arrange(ax.figure, [[ax]], legend_rows=rows, right=12.0)
        return t("mix.title")

    return draw_axes("mix", 2.95, draw)
