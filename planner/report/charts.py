"""The report's charts as inline SVG: cumulative cost, cost against usage, monthly breakdown.

Each function takes a :class:`planner.result.Result` and returns an ``<svg>`` element as text
(no XML prolog, ids prefixed per chart so several can share one HTML page), or ``None`` when
the result has nothing to draw. Output is deterministic: a fixed hash salt, no dates in the
metadata. Text stays text (``svg.fonttype: none``) in DejaVu Sans, the font matplotlib measured
it with, so it is sharp, searchable and the same size as the report's own text.

Colours are the Okabe–Ito palette (safe for colour-blind readers); every option also has its
own line style and marker so the charts survive a grayscale printer. matplotlib is imported
on first use only.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from planner import fmt
from planner.report.content import COMPONENT_ORDER, marked_break_even

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from planner.result import Result

# Okabe & Ito (2008), "Color Universal Design"; yellow last, it is faint on white paper.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442")
LINESTYLES = ("-", "--", "-.", ":", (0, (6, 2, 1, 2, 1, 2)), (0, (1, 1)), (0, (8, 3)),
              (0, (3, 1, 1, 1)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
# Bar colours alternating dark and light, so stacked components stay apart in grayscale too.
BAR_COLORS = ("#0072B2", "#E69F00", "#009E73", "#F0E442", "#D55E00", "#56B4E9", "#CC79A7",
              "#000000")

WIDTH_INCHES = 6.9  # the A4 text width at the report's margins
FONT = "DejaVu Sans"
INK = "#222222"
GRID = "#d9d9d9"
MARK = "#555555"
LEGEND_PT = 8
# Behind labels on the plot: mostly opaque, so lines passing under them stay traceable.
LABEL_BOX = {"boxstyle": "square,pad=0.2", "facecolor": "white", "edgecolor": "none",
             "alpha": 0.8}
OUTLIER_RATIO = 2.5  # a curve this many times higher than all others is cut off
SPIKE_RATIO = 3.0  # a month this many times its neighbours' cost is clipped in the bars
SPIKE_WINDOW = 3  # months on either side that make a month's neighbours


def _rc(salt: str) -> dict[str, Any]:
    return {
        "svg.hashsalt": f"planner-{salt}",
        "svg.fonttype": "none",
        "font.family": FONT,
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
    }


def _draw(salt: str, height_inches: float, draw: Callable[[Axes], str | None]) -> str | None:
    """Run ``draw`` on a fresh figure and return the chart as inline SVG.

    ``draw`` returns the chart's accessible label, or ``None`` when there is nothing to draw.
    The figure is made without pyplot, so no global backend is chosen or changed (a Jupyter
    user's backend stays as it is) and nothing is left open.
    """
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_rc(salt)):
        fig = Figure(figsize=(WIDTH_INCHES, height_inches), layout="constrained")
        label = draw(fig.add_subplot())
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
    ids = set(_ID.findall(svg))

    def prefixed(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"{match.group(1)}{salt}-{name}" if name in ids else match.group(0)

    svg = _ID.sub(lambda m: f'id="{salt}-{m.group(1)}"', svg)
    svg = re.sub(r'(xlink:href="#|href="#|url\(#)([^")]+)', prefixed, svg)
    escaped = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    svg = svg.replace("<svg ", f'<svg class="chart" role="img" aria-label="{escaped}" ', 1)
    return svg.strip() + "\n"


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


def _money_axis(ax: Axes, currency: str) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: fmt.money_short(v, currency)))
    ax.grid(axis="y", color=GRID, linewidth=0.5)
    ax.set_axisbelow(True)


def _month_ticks(ax: Axes, horizon: int) -> None:
    step = next(s for s in (1, 2, 3, 6, 12, 24, 60, 120) if horizon / s <= 12)
    ax.set_xticks(np.arange(0, horizon + 1, step))
    ax.set_xlim(0, horizon)


def _legend_below(ax: Axes, count: int) -> None:
    """The legend under the axes, in as many columns (up to 4) as fit across the figure."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    font = FontProperties(family=FONT, size=LEGEND_PT)
    labels = ax.get_legend_handles_labels()[1]
    widths = [text_to_path.get_text_width_height_descent(label, font, ismath=False)[0]
              for label in labels]
    handle, gap, spacing = 2.8, 0.8, 1.4  # ems

    def width(columns: int) -> float:
        # matplotlib fills the columns top to bottom; each is as wide as its widest entry.
        rows = -(-len(widths) // columns)
        texts = [max(widths[i:i + rows]) for i in range(0, len(widths), rows)]
        return sum(texts) + LEGEND_PT * ((handle + gap) * len(texts) + spacing * (len(texts) - 1)
                                         + 2)

    available = WIDTH_INCHES * 72 * 0.95
    columns = next((c for c in range(min(count, 4), 1, -1) if width(c) <= available), 1)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=columns,
              handlelength=handle, handletextpad=gap, columnspacing=spacing)


def _floor_at_zero(ax: Axes, values: list[np.ndarray]) -> None:
    """Start the money axis at zero, or a little below the lowest value when that is negative."""
    lowest = min(float(np.nanmin(v)) for v in values)
    top = ax.get_ylim()[1]
    ax.set_ylim(bottom=0.0 if lowest >= 0 else lowest - 0.05 * (top - lowest))


def _clip_outliers(ax: Axes, curves: dict[str, tuple[np.ndarray, np.ndarray]],
                   describe: Callable[[float, float], str]) -> int:
    """Cut off curves far above all the others, so those stay readable, and say where they go.

    The highest curve is cut while its peak is more than OUTLIER_RATIO times the next one's;
    each cut curve gets a note where it leaves the chart, ``describe(x, y)`` of its peak.
    Returns how many curves were cut.
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
        ax.annotate(f"{name} off the chart: {describe(float(x[peak]), float(y[peak]))}",
                    xy=(leave, ceiling), xytext=(4 if align_left else -4, -3 - 11 * k),
                    textcoords="offset points", ha="left" if align_left else "right",
                    va="top", fontsize=7.5, color=INK, bbox=LABEL_BOX)
    return cut


def _cumulative(monthly_cost: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Points of the cumulative cost curve: month 0 a step at t = 0, linear within months."""
    costs = np.asarray(monthly_cost, dtype=float)
    t = np.concatenate([[0.0], np.arange(len(costs), dtype=float)])
    y = np.concatenate([[0.0], np.cumsum(costs)])
    return t, y


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
        cut = _clip_outliers(
            ax, curves, lambda x, y: f"{fmt.money_short(y, currency)} by month {x:.0f}")
        _mark_break_even_months(ax, result, curves, horizon, skip=cut)
        _legend_below(ax, len(drawn))
        return "Cumulative cost over time per option"

    return _draw("cumulative", 3.2, draw)


def _draw_cumulative(ax: Axes, drawn: list[dict[str, Any]], styles: dict[str, dict[str, Any]],
                     cheapest: str | None, horizon: int, currency: str) -> dict[str, Any]:
    curves = {}
    for row in drawn:
        t, y = _cumulative(row["monthly_cost"])
        curves[row["name"]] = (t, y)
        style = styles[row["name"]]
        label = row["name"] + (" (cheapest)" if row["name"] == cheapest else "")
        ax.plot(t, y, label=label, color=style["color"], linestyle=style["linestyle"],
                linewidth=2.4 if row["name"] == cheapest else 1.5,
                marker=style["marker"], markersize=4, markevery=max(1, horizon // 6),
                markerfacecolor="white", markeredgewidth=1.0)
    _money_axis(ax, currency)
    _month_ticks(ax, horizon)
    _floor_at_zero(ax, [y for _, y in curves.values()])
    ax.set_xlabel("Months from today")
    ax.set_ylabel("Cumulative cost")
    return curves


def _mark_break_even_months(ax: Axes, result: Result, curves: dict[str, Any],
                            horizon: int, skip: int = 0) -> None:
    """Dotted lines at the break-even months, labelled from the top (below ``skip`` lines)."""
    marks = [row for row in marked_break_even(result)
             if not fmt.is_missing(row["months"]) and 0 < row["months"] <= horizon
             and row["own"] in curves]
    for i, row in enumerate(sorted(marks, key=lambda r: r["months"])):
        t, y = curves[row["own"]]
        at = float(np.interp(row["months"], t[1:], y[1:]))
        ax.axvline(row["months"], color=MARK, linewidth=0.8, linestyle=(0, (2, 2)), zorder=1)
        ax.plot([row["months"]], [at], "o", color=INK, markersize=4.5, zorder=5)
        align_left = row["months"] < horizon * 0.7
        ax.annotate(
            f"{row['own']} pays off vs {row['versus']}\nafter {fmt.months(row['months'])}",
            xy=(row["months"], 0.97 - 0.13 * (i + skip)), xycoords=("data", "axes fraction"),
            xytext=(4 if align_left else -4, 0), textcoords="offset points",
            ha="left" if align_left else "right", va="top", fontsize=7.5, color=INK,
            bbox=LABEL_BOX,
        )


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
            lambda x, y: f"{fmt.money_short(y, currency)} at {fmt.number(x)} GPU-h/month")
        _mark_break_even_usage(ax, result, skip=cut)
        _legend_below(ax, len(curves))
        return "Cost over the horizon against monthly usage per option"

    return _draw("usage", 3.1, draw)


def _draw_usage(ax: Axes, result: Result, curves: list[tuple[str, Any]]) -> None:
    from matplotlib.ticker import FuncFormatter

    data = result.data
    styles = _styles(result)
    for name, part in curves:
        style = styles[name]
        cheapest = name == data["cheapest"]
        ax.plot(part["gpu_hours_per_month"], part["present_value"],
                label=name + (" (cheapest)" if cheapest else ""),
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
    ax.set_xlabel("Demand in month 1 [reference GPU-hours per month]")
    ax.set_ylabel(f"{'Present value' if data['discount_rate'] else 'Total cost'}"
                  f" over {data['horizon_months']} months")


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
            f"{row['own']} costs the same as {row['versus']}\nat {fmt.number(x)} GPU-h/month",
            xy=(x, 0.97 - 0.13 * (i + skip)), xycoords=("data", "axes fraction"),
            xytext=(4 if align_left else -4, 0), textcoords="offset points",
            ha="left" if align_left else "right", va="top", fontsize=7.5, color=INK,
            bbox=LABEL_BOX,
        )
    demand = result.data.get("demand_gpu_hours_per_month")
    if not fmt.is_missing(demand) and left <= demand <= right:
        ax.axvline(demand, color=INK, linewidth=1.0, zorder=1)
        ax.annotate(f"your demand\n{fmt.number(demand)} GPU-h/month",
                    xy=(demand, 0.03), xycoords=("data", "axes fraction"), xytext=(4, 0),
                    textcoords="offset points",
                    ha="left", va="bottom", fontsize=7.5, color=INK)


def component_table(result: Result, option: str) -> Any:
    """Cost per month and component of one option: a frame [month × component] [currency]."""
    monthly = result.monthly
    part = monthly[monthly["option"] == option]
    table = part.pivot_table(index="month", columns="component", values="cost",
                             aggfunc="sum", fill_value=0.0)
    order = [c for c in COMPONENT_ORDER if c in table.columns]
    order += sorted(c for c in table.columns if c not in order)
    table = table[order]
    return table.loc[:, (table != 0).any(axis=0)]


def monthly_breakdown(result: Result) -> str | None:
    """Stacked bars of the recommended option's monthly cost by component, months 1..T.

    Month 0 (purchases today) is left out of the bars (the report states it in the caption),
    and months far above the others (replacements) are clipped and labelled with their total,
    so ordinary months stay legible.
    """
    data = result.data
    option = data.get("cheapest")
    if option is None or result.monthly is None or result.monthly.empty:
        return None
    table = component_table(result, option)
    if table.empty:
        return None
    horizon, currency = data["horizon_months"], data["currency"]
    table = table.reindex(range(horizon + 1), fill_value=0.0)
    bars = table.loc[1:]
    bars = bars.loc[:, (bars != 0).any(axis=0)]
    if bars.empty:
        return None

    def draw(ax: Axes) -> str:
        _draw_bars(ax, bars, currency, horizon)
        _legend_below(ax, len(bars.columns))
        return f"Monthly cost of {option} by component"

    return _draw("breakdown", 2.6, draw)


def _draw_bars(ax: Axes, bars: Any, currency: str, horizon: int) -> None:
    """Stacked bars (costs up, credits such as resale down), clipping far higher months."""
    months = bars.index.to_numpy()
    up = np.zeros(len(months))
    down = np.zeros(len(months))
    for i, component in enumerate(bars.columns):
        values = bars[component].to_numpy(dtype=float)
        base = np.where(values >= 0, up, down)
        ax.bar(months, values, bottom=base, width=0.78, label=component.replace("_", " "),
               color=BAR_COLORS[i % len(BAR_COLORS)], edgecolor="white", linewidth=0.4)
        up += np.where(values >= 0, values, 0)
        down += np.where(values < 0, values, 0)
    _clip_spikes(ax, months, up, down, currency)
    _money_axis(ax, currency)
    ax.set_xlim(0.3, horizon + 0.7)
    step = next(s for s in (1, 2, 3, 6, 12, 24, 60, 120) if horizon / s <= 12)
    ax.set_xticks(np.arange(step, horizon + 1, step))
    ax.set_xlabel("Month")
    ax.set_ylabel("Monthly cost")


def _clip_spikes(ax: Axes, months: np.ndarray, up: np.ndarray, down: np.ndarray,
                 currency: str) -> None:
    """Clip single months far beyond their neighbours (replacements, payoffs), with labels.

    A month is a spike when its costs (or credits) exceed SPIKE_RATIO times the median cost of
    the SPIKE_WINDOW months on either side; steady growth is never clipped.
    """
    neighbours = np.array([
        np.median(np.concatenate([up[max(0, i - SPIKE_WINDOW):i], up[i + 1:i + 1 + SPIKE_WINDOW]]))
        if len(up) > 1 else 0.0
        for i in range(len(up))
    ])
    high = (neighbours > 0) & (up > SPIKE_RATIO * neighbours)
    low = (neighbours > 0) & (-down > SPIKE_RATIO * neighbours)
    if not (high | low).any() or (high | low).all():
        return
    top = float(up[~high].max()) * 1.35
    bottom = float(down[~low].min()) * 1.35 if (down[~low] < 0).any() else 0.0
    if low.any():
        bottom = min(bottom, -0.3 * top)
    ax.set_ylim(bottom, top)
    label = {"fontsize": 7, "color": INK, "annotation_clip": False,
             "textcoords": "offset points"}
    for month, value in zip(months[high], up[high], strict=True):
        ax.annotate(fmt.money_short(value, currency), xy=(month, top), xytext=(0, 1),
                    ha="center", va="bottom", **label)
    for month, value in zip(months[low], down[low], strict=True):
        ax.annotate(fmt.money_short(value, currency), xy=(month, bottom), xytext=(4, 1),
                    ha="left", va="bottom", **label)
