"""The PDF's fonts subset without reading the tables the PDF leaves out.

WeasyPrint embeds the subset of each font that the report uses. Where the HarfBuzz subsetter
(``libharfbuzz-subset``) is missing it subsets with fontTools, dropping the fonts' layout
tables (GSUB, GPOS: a PDF positions every glyph itself); but fontTools 4.68 first decompiles
those tables in full, only to find them dropped. For DejaVu Sans and DejaVu Sans Bold that is
about half of the subsetting (0.1–0.2 s of a report, measured on two busy cores).
:func:`lean_font_subsetting` hands fontTools the font without them (and without GDEF, the
glyph classes the layout tables use), so nothing is decompiled for nothing; the glyphs, their
widths, names and character map embedded are the same.

It replaces WeasyPrint's fontTools subsetting step (``Font._fonttools_subset``) for the
duration of a ``with`` block and restores it afterwards; where that step is not there (a
WeasyPrint that subsets differently) or HarfBuzz subsets, nothing changes. The caller holds
the PDF lock (:func:`planner.render.html.write_pdf`), so no other thread writes a PDF
meanwhile.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from typing import Any

#: The tables fontTools would decompile before dropping them.
LAYOUT_TABLES = ("GSUB", "GPOS", "GDEF")


def without_layout_tables(font_file: bytes) -> bytes:
    """``font_file`` (a TrueType or OpenType font, not a collection) without
    :data:`LAYOUT_TABLES`; the other tables are copied as they are, undecoded."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(font_file), lazy=True)
    present = [tag for tag in LAYOUT_TABLES if tag in font]
    if not present:
        return font_file
    for tag in present:
        del font[tag]
    out = io.BytesIO()
    font.save(out, reorderTables=False)
    return out.getvalue()


@contextlib.contextmanager
def lean_font_subsetting() -> Iterator[None]:
    """Within the block, WeasyPrint's fontTools subsetting gets each font without its layout
    tables (see the module's docstring)."""
    try:
        from weasyprint.pdf import fonts
    except ImportError:  # pragma: no cover - WeasyPrint is a dependency
        yield
        return
    original = getattr(fonts.Font, "_fonttools_subset", None)
    if original is None:
        yield
        return

    def subset(font: Any, *args: Any, **kwargs: Any) -> Any:
        # the arguments pass through untouched: only the font's bytes are changed
        content = font.file_content
        if content[:4] != b"ttcf":  # a collection keeps its tables: saved whole, as before
            with contextlib.suppress(Exception):  # an odd font: subset as WeasyPrint would
                font.file_content = without_layout_tables(content)
        return original(font, *args, **kwargs)

    fonts.Font._fonttools_subset = subset
    try:
        yield
    finally:
        fonts.Font._fonttools_subset = original
