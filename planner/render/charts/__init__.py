"""The report's charts as inline SVG.

- :func:`ranking`: the first page's small chart, every option's cost over the horizon;
- :func:`cumulative_cost`: cumulative cost over time, break-even months marked;
- :func:`cost_vs_usage`: cost against monthly usage, break-even usage levels marked;
- :func:`monthly_breakdown`: every feasible option's monthly cost by component, small
  multiples on one scale (energy split into IT load and cooling);
- :func:`sensitivity`: a tornado of the break-even month as each key input moves;
- :func:`free_tiers`: sessions a week and days a job waits on each free tier;
- :func:`drivers`: which uncertain inputs drive the spread of the answer;
- :func:`cumulative_bands`: cumulative cost under uncertainty, P5–P95 per option
  (:func:`glance_bands`: the same at the first page's size, in place of the ranking).

Each function takes a :class:`planner.result.Result` and returns an ``<svg>`` element as text
(no XML prolog, ids prefixed per chart so several can share one HTML page, its title in a
``<title>`` element and ``aria-label``), or ``None`` when the result has nothing to draw.

The first five have a ``…_figure`` twin that returns the matplotlib figure before it is
written out (:func:`.svg.new_figure`; ``result.plot`` in :mod:`planner.render.plots`), so a
notebook's charts are the report's.

The plumbing is :mod:`.svg` (matplotlib's settings, fonts, inlining, ids), :mod:`.layout`
(axes and legends placed) and :mod:`.style` (colours, line styles, hatches, ticks); the charts
are :mod:`.bars`, :mod:`.lines`, :mod:`.breakdown` and :mod:`.tornado`.
"""

from planner.render.charts import svg
from planner.render.charts.bands import cumulative_bands, glance_bands
from planner.render.charts.bars import free_tiers, ranking, ranking_figure
from planner.render.charts.breakdown import monthly_breakdown, monthly_breakdown_figure
from planner.render.charts.drivers import drivers
from planner.render.charts.lines import (
    cost_vs_usage,
    cost_vs_usage_figure,
    cumulative_cost,
    cumulative_cost_figure,
)
from planner.render.charts.style import GROUP_STYLES
from planner.render.charts.tornado import sensitivity, sensitivity_figure

__all__ = ["GROUP_STYLES", "cost_vs_usage", "cost_vs_usage_figure", "cumulative_bands",
           "cumulative_cost", "cumulative_cost_figure", "drivers", "free_tiers", "glance_bands",
           "monthly_breakdown", "monthly_breakdown_figure", "ranking", "ranking_figure",
           "sensitivity", "sensitivity_figure", "svg"]
