"""The figure every chart is drawn on: a matplotlib figure that shows itself in Jupyter.

A figure made without pyplot (as the charts are, :func:`planner.render.charts.svg.new_figure`)
is shown by IPython as ``<Figure size 690x295 with 1 Axes>`` unless an inline backend has been
set up; :class:`Chart` gives it a PNG of its own, drawn in the charts' settings, so that
``result.plot.cumulative()`` shows the chart in any notebook. Where an inline backend is set
up, IPython uses that backend's printer instead. Imported only when a chart is drawn.
"""

from __future__ import annotations

import io
from typing import Any

from matplotlib.figure import Figure

#: The PNG's resolution [dots per inch], shown at half its pixel size (sharp on a HiDPI screen).
PNG_DPI = 200
#: The width a notebook shows it at, per inch of the figure [pixels per inch].
SHOWN_PX_PER_INCH = 100


class Chart(Figure):
    """A chart's figure; ``get_label()`` is its title."""

    salt = "chart"  # the chart's id prefix in its settings (svg.rc_params)

    def draw(self, renderer: Any) -> None:
        """Draw the chart, its texts measured once per process (:mod:`.metrics`)."""
        from planner.render.charts.metrics import remember_measurements

        super().draw(remember_measurements(renderer, self))

    def png(self, dpi: float = PNG_DPI) -> bytes:
        """The chart as PNG at ``dpi`` [dots per inch], drawn in the charts' settings."""
        from planner.render.charts.svg import chart_context

        buffer = io.BytesIO()
        with chart_context(self.salt):
            self.savefig(buffer, format="png", dpi=dpi, facecolor="white")
        return buffer.getvalue()

    def _repr_png_(self) -> tuple[bytes, dict[str, int]]:
        width_inches, height_inches = self.get_size_inches()
        return self.png(), {"width": round(width_inches * SHOWN_PX_PER_INCH),
                            "height": round(height_inches * SHOWN_PX_PER_INCH)}
