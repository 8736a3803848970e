"""``result.plot``: the report's charts as matplotlib figures, for a notebook or a script.

Every figure is drawn by the report's own chart code (:mod:`planner.render.charts`), the same
function that draws the report's SVG, stopped before the figure is written out: the same
axes, labels, break-even marks and styles. Each method returns a
:class:`matplotlib.figure.Figure` (made without pyplot, so no backend is chosen or changed;
Jupyter shows it inline, ``fig.savefig("chart.png")`` writes it) whose label
(``fig.get_label()``) is the chart's title, or ``None`` when the result has nothing to draw
(the report leaves that chart out too): no feasible option for :meth:`cumulative` and
:meth:`breakdown`, no break-even pair for :meth:`tornado`. The texts are English.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from planner.render import charts

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from planner.result import Result


class ResultPlots:
    """The charts of one :class:`~planner.result.Result` (``result.plot``)."""

    def __init__(self, result: Result):
        self._result = result

    def __repr__(self) -> str:
        return ("<plots of a Result: .cumulative(), .cost_vs_usage(), .breakdown(), "
                ".tornado(), .ranking()>")

    def cumulative(self) -> Figure | None:
        """Cumulative cost over the horizon of every feasible option, months on x, the
        break-even months marked [currency]."""
        return charts.cumulative_cost_figure(self._result)

    def cost_vs_usage(self) -> Figure | None:
        """Cost over the horizon (present value with a discount rate, else total) against
        month-1 usage [reference GPU-hours a month], the break-even usage and the plan's own
        demand marked."""
        return charts.cost_vs_usage_figure(self._result)

    def breakdown(self) -> Figure | None:
        """Every feasible option's monthly cost by component group, one panel per option
        (cheapest first), months 1..T [currency a month]."""
        return charts.monthly_breakdown_figure(self._result)

    def tornado(self) -> Figure | None:
        """What changes the answer: the headline pair's break-even month as each key input
        moves down and up by the sensitivity range [months]."""
        return charts.sensitivity_figure(self._result)

    def ranking(self) -> Figure | None:
        """Every option's cost over the horizon as bars, cheapest first (the report's first
        chart) [currency]."""
        return charts.ranking_figure(self._result)
