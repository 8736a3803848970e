"""The line charts: cumulative cost over time with break-even months marked, and cost against
monthly usage with break-even usage levels marked (the pairs marked are the Result's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.render import fmt
from planner.render.charts.labels import Mark, place_marks
from planner.render.charts.layout import arrange, legend_below
from planner.render.charts.style import (
    INK,
    LABEL_BOX,
    basis,
    floor_at_zero,
    money_axis,
    month_ticks,
    option_styles,
)
from planner.render.charts.svg import figure_axes, svg_of
from planner.render.content import marked_break_even
from planner.render.i18n import t

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from planner.result import Result


OUTLIER_RATIO = 2.5  # a curve this many times higher than all others is cut off


def _clip_outliers(ax: Axes, curves: dict[str, tuple[np.ndarray, np.ndarray]],
                   describe: Callable[[str, float, float], str]) -> int:
    """Cut off curves far above all the others, so those stay readable, and say where they go
    (the notes are on the axes before the break-even labels, which keep clear of them).

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


def _cumulative(monthly_cost: list[float], step: tuple[int, float] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Points of the cumulative cost curve: month 0 a step at t = 0, linear within months;
    ``step`` (month p, amount): a purchase after month 0, a step at t = p (SPEC §6) — month
    p's other costs accrue over the month, then the curve rises by the amount at its end."""
    costs = np.asarray(monthly_cost, dtype=float)
    t_grid = np.concatenate([[0.0], np.arange(len(costs), dtype=float)])
    y = np.concatenate([[0.0], np.cumsum(costs)])
    if step is not None and 0 < step[0] < len(costs) and step[1]:
        p, amount = step
        at = p + 1  # the point of t = p
        t_grid = np.insert(t_grid, at, float(p))
        y = np.insert(y, at, y[at] - amount)
    return t_grid, y


def _purchase_step(result: Result, name: str) -> tuple[int, float] | None:
    """(p, the first purchase's cost) of an own option bought after month 0, else None."""
    month = result.purchase_months.get(name)
    if month is None:
        return None
    frame = result.monthly
    cost = frame[(frame["option"] == name) & (frame["month"] == month)
                 & (frame["component"] == "purchase")]["cost"].sum()
    return month, float(cost)


def cumulative_cost(result: Result) -> str | None:
    """The chart of :func:`cumulative_cost_figure` as inline SVG."""
    return svg_of(cumulative_cost_figure(result), "cumulative")


def cumulative_cost_figure(result: Result) -> Figure | None:
    """Cumulative cost over the horizon per feasible option, break-even months marked."""
    data = result.data
    drawn = [row for row in data["options"] if row["feasible"] and row.get("monthly_cost")]
    if not drawn:
        return None
    horizon, currency, cheapest = data["horizon_months"], data["currency"], data["cheapest"]
    styles = option_styles(result)

    def draw(ax: Axes) -> str:
        steps = {row["name"]: _purchase_step(result, row["name"]) for row in drawn}
        curves = _draw_cumulative(ax, drawn, styles, cheapest, horizon, currency, steps)
        _clip_outliers(ax, curves, lambda name, x, y: t(
            "chart.off_by_month", name=name, money=fmt.money_short(y, currency), month=f"{x:.0f}"))
        legend_rows = legend_below(ax)
        arrange(ax.figure, [[ax]], legend_rows=legend_rows, right=12.0)
        _mark_break_even_months(ax, result, curves, horizon, lambda: arrange(
            ax.figure, [[ax]], legend_rows=legend_rows, right=12.0))
        return t("label.cumulative")

    return figure_axes("cumulative", 2.95, draw)


def _draw_cumulative(ax: Axes, drawn: list[dict[str, Any]], styles: dict[str, dict[str, Any]],
                     cheapest: str | None, horizon: int, currency: str,
                     steps: dict[str, tuple[int, float] | None]) -> dict[str, Any]:
    curves = {}
    for row in drawn:
        t_grid, y = _cumulative(row["monthly_cost"], steps.get(row["name"]))
        curves[row["name"]] = (t_grid, y)
        style = styles[row["name"]]
        label = row["name"] + (t("chart.cheapest") if row["name"] == cheapest else "")
        ax.plot(t_grid, y, label=label, color=style["color"], linestyle=style["linestyle"],
                linewidth=2.4 if row["name"] == cheapest else 1.5,
                marker=style["marker"], markersize=4, markevery=max(1, horizon // 6),
                markerfacecolor="white", markeredgewidth=1.0)
    money_axis(ax, currency)
    month_ticks(ax, horizon)
    floor_at_zero(ax, [y for _, y in curves.values()])
    ax.set_xlabel(t("chart.months_from_today"))
    ax.set_ylabel(t("chart.cumulative"))
    return curves


def _mark_break_even_months(ax: Axes, result: Result, curves: dict[str, Any],
                            horizon: int, relayout: Callable[[], None]) -> None:
    """Dotted lines at the break-even months, each labelled where it covers no line and no
    other label (:func:`place_marks`); call it once the axes are placed."""
    marks = [row for row in marked_break_even(result)
             if not fmt.is_missing(row["months"]) and 0 < row["months"] <= horizon
             and row["own"] in curves]
    marks.sort(key=lambda r: r["months"])
    labels = []
    for row in marks:
        t_grid, y = curves[row["own"]]
        at = float(np.interp(row["months"], t_grid[1:], y[1:]))
        ax.plot([row["months"]], [at], "o", color=INK, markersize=4.5, zorder=5)
        labels.append(Mark(t("chart.pays_off", own=row["own"], versus=row["versus"],
                             months=fmt.months(row["months"])),
                           row["months"], right=row["months"] < horizon * 0.7, reach=at))
    place_marks(ax, labels, relayout)


def cost_vs_usage(result: Result) -> str | None:
    """The chart of :func:`cost_vs_usage_figure` as inline SVG."""
    return svg_of(cost_vs_usage_figure(result), "usage")


def cost_vs_usage_figure(result: Result) -> Figure | None:
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
        _clip_outliers(
            ax, {name: (part["gpu_hours_per_month"].to_numpy(dtype=float),
                        part["present_value"].to_numpy(dtype=float)) for name, part in curves},
            lambda name, x, y: t("chart.off_at_usage", name=name,
                                 money=fmt.money_short(y, currency), usage=fmt.number(x)))
        legend_rows = legend_below(ax)
        arrange(ax.figure, [[ax]], legend_rows=legend_rows, right=14.0)
        _mark_break_even_usage(ax, result, lambda: arrange(
            ax.figure, [[ax]], legend_rows=legend_rows, right=14.0))
        return t("label.usage")

    return figure_axes("usage", 2.95, draw)


def _draw_usage(ax: Axes, result: Result, curves: list[tuple[str, Any]]) -> None:
    from matplotlib.ticker import FuncFormatter

    data = result.data
    styles = option_styles(result)
    for name, part in curves:
        style = styles[name]
        cheapest = name == data["cheapest"]
        ax.plot(part["gpu_hours_per_month"], part["present_value"],
                label=name + (t("chart.cheapest") if cheapest else ""),
                color=style["color"], linestyle=style["linestyle"],
                linewidth=2.4 if cheapest else 1.5, marker=style["marker"], markersize=4,
                markevery=max(1, len(part) // 7), markerfacecolor="white",
                markeredgewidth=1.0)
    money_axis(ax, data["currency"])
    floor_at_zero(ax, [part["present_value"].to_numpy(dtype=float) for _, part in curves])
    levels = result.cost_vs_usage["gpu_hours_per_month"]
    if levels.max() > levels.min():
        ax.set_xlim(float(levels.min()), float(levels.max()))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt.number(v)))
    ax.set_xlabel(t("chart.demand_axis"))
    ax.set_ylabel(t("chart.over", basis=basis(result), months=data["horizon_months"]))


def _mark_break_even_usage(ax: Axes, result: Result, relayout: Callable[[], None]) -> None:
    """Dotted lines at the break-even usage levels and a line at the plan's own demand, each
    labelled where it covers no line and no other label (:func:`place_marks`; the demand's
    label is sought from the foot); call it once the axes are placed."""
    left, right = ax.get_xlim()
    rows = sorted((row for row in marked_break_even(result)
                   if not fmt.is_missing(row["gpu_hours_per_month"])
                   and left <= row["gpu_hours_per_month"] <= right),
                  key=lambda r: r["gpu_hours_per_month"])
    marks = []
    for row in rows:
        x = row["gpu_hours_per_month"]
        marks.append(Mark(t("chart.same_cost", own=row["own"], versus=row["versus"],
                            usage=fmt.number(x)), x, right=x < left + (right - left) * 0.7))
    demand = result.data.get("demand_gpu_hours_per_month")
    if not fmt.is_missing(demand) and left <= demand <= right:
        marks.insert(0, Mark(t("chart.your_demand", usage=fmt.number(demand)), demand,
                             right=demand < left + (right - left) * 0.7, from_top=False,
                             line=(("color", INK), ("linewidth", 1.0))))
    place_marks(ax, marks, relayout)
