"""The report's charts as inline SVG (being split into modules: see svg.py)."""

from planner.render.charts.svg import *
from planner.render.charts.svg import _styles  # noqa: F401
