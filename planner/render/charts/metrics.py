"""Text measured once per process, not once per chart.

matplotlib measures every text it lays out (a tick label, a legend entry, a break-even label)
by shaping it with FreeType, and keeps the answer for one renderer only: each chart gets a new
renderer (the Agg one that :mod:`.labels` measures with, then the SVG one that writes the
chart), so the report's charts measure the same tick labels and legend entries over and over,
and look up the font's line metrics (its OS/2 and head tables) for every text they lay out.
:func:`remember_measurements` makes a renderer keep both in a table shared by the process:

- a string's width, height and descent, by renderer kind and resolution, the hinting
  settings, the font and the string (the renderer's own ``get_text_width_height_descent``
  computes it the first time);
- a font's ascent, descent and line gap, through the hook matplotlib's text layout asks a
  renderer for (``_get_font_height_metrics``, which its PDF and PostScript renderers answer),
  computed from the same tables and in the same arithmetic as matplotlib's own fallback.

The answers are the numbers matplotlib would compute, so the charts are the same to the byte.
The hook is matplotlib's internal one (3.8 to 3.11): a matplotlib that stops asking for it
draws the same charts, measuring as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

#: Measurements kept at most (a report has a few hundred distinct strings).
MAX_MEASURED = 8192
_MEASURED: dict[tuple[Any, ...], tuple[float, float, float]] = {}
#: The font tables, in the order matplotlib's text layout reads them: (table, line gap key,
#: ascent key, descent key).
_LINE_TABLES = (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                ("hhea", "lineGap", "ascent", "descent"))


def font_key(prop: FontProperties) -> tuple[Any, ...]:
    """What selects and sizes the font of ``prop`` (a FontProperties is mutable)."""
    return (tuple(prop.get_family()), prop.get_style(), prop.get_variant(), prop.get_weight(),
            prop.get_stretch(), prop.get_size_in_points(), prop.get_file(),
            prop.get_math_fontfamily())


def remember_measurements(renderer: RendererBase, figure: Figure) -> RendererBase:
    """``renderer`` (drawing or measuring ``figure``) with its text measurements and font line
    metrics kept for the whole process (see the module's docstring); returns it."""
    if getattr(renderer, "_planner_remembers", False):
        return renderer
    import matplotlib

    measure = renderer.get_text_width_height_descent
    kind = type(renderer).__qualname__

    def get_text_width_height_descent(s: str, prop: FontProperties,
                                      ismath: Any) -> tuple[float, float, float]:
        rc = matplotlib.rcParams
        key = (kind, renderer.points_to_pixels(72.0), rc["text.hinting"],
               rc["text.hinting_factor"], rc["text.kerning_factor"], s, font_key(prop),
               ismath)
        found = _MEASURED.get(key)
        if found is None:
            if len(_MEASURED) >= MAX_MEASURED:
                _MEASURED.clear()
            found = _MEASURED[key] = tuple(measure(s, prop, ismath))
        return found

    def font_height_metrics(prop: FontProperties) -> tuple[float | None, ...]:
        tables = _line_tables(prop)
        if tables is None:
            return None, None, None
        line_gap, ascent, descent, units_per_em = tables
        # matplotlib's arithmetic (text.Text._get_layout), for the same floats.
        scale = 1 / units_per_em * prop.get_size_in_points() * figure.dpi / 72
        return ascent * scale, -descent * scale, line_gap * scale

    renderer.get_text_width_height_descent = get_text_width_height_descent
    if not hasattr(renderer, "_get_font_height_metrics"):  # the PDF renderer has its own
        renderer._get_font_height_metrics = font_height_metrics
    renderer._planner_remembers = True
    return renderer


_LINE_METRICS: dict[tuple[Any, ...], tuple[float, float, float, float] | None] = {}


def _line_tables(prop: FontProperties) -> tuple[float, float, float, float] | None:
    """(line gap, ascent, descent, units per em) of the font ``prop`` selects, from the first
    of its tables that it has, else None; looked up once per font."""
    key = font_key(prop)
    key = key[:5] + key[6:]  # the size scales the metrics, it does not select them
    if key not in _LINE_METRICS:
        from matplotlib.font_manager import fontManager, get_font

        font = get_font(fontManager._find_fonts_by_props(prop))
        _LINE_METRICS[key] = None
        for table_name, gap_key, ascent_key, descent_key in _LINE_TABLES:
            table = font.get_sfnt_table(table_name)
            if table is not None:
                _LINE_METRICS[key] = (table[gap_key], table[ascent_key], table[descent_key],
                                      font.get_sfnt_table("head")["unitsPerEm"])
                break
    return _LINE_METRICS[key]
