"""The PDF's fonts subset by HarfBuzz, from the ``uharfbuzz`` wheel.

WeasyPrint embeds the subset of each font that the report uses. It subsets with HarfBuzz
where the system has ``libharfbuzz-subset``, and otherwise with fontTools, in Python, which
is slow for the large fonts a report may need: a Chinese report's Noto Sans CJK (65,535
glyphs, and WeasyPrint keeps glyph ids, so tens of thousands of empty glyphs are
desubroutinized, unhinted and measured one by one) took a minute on two busy cores, and
DejaVu Sans a few tenths of a second. :func:`harfbuzz_subsetting` replaces WeasyPrint's
fontTools step (``Font._fonttools_subset``) for the duration of a ``with`` block by the same
two HarfBuzz passes WeasyPrint's own ``_harfbuzz_subset`` makes (keep the used glyphs at
their ids, then drop the empty glyphs after the last used one), through ``uharfbuzz``, the
HarfBuzz project's Python binding, so no system library is needed.

Where WeasyPrint subsets with the system's HarfBuzz, its fontTools step is never called and
nothing changes; where that step is not there (a WeasyPrint that subsets differently),
nothing changes either; where HarfBuzz cannot subset a font, or ``uharfbuzz`` is not
installed, WeasyPrint's fontTools step does, as before. The caller holds the PDF lock
(:func:`planner.render.html.write_pdf`), so no other thread writes a PDF meanwhile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection, Iterator
from typing import Any

#: Tables the PDF does not use (the same list as WeasyPrint's HarfBuzz subsetting): a PDF
#: places every glyph itself, so the layout tables GSUB and GPOS go, with bitmaps and SVG.
DROPPED_TABLES = ("BASE", "DSIG", "EBDT", "EBLC", "EBSC", "GPOS", "GSUB", "JSTF", "LTSH",
                  "PCLT", "SVG ")


def harfbuzz_subset(font_file: bytes, index: int, glyph_ids: Collection[int], *,
                    hinting: bool, notdef_outline: bool) -> bytes | None:
    """Font ``index`` of ``font_file`` (a font or a collection) reduced to ``glyph_ids``, each
    kept at its glyph id (the PDF's text refers to glyphs by id), the glyphs after the last
    of them dropped, the tables of :data:`DROPPED_TABLES` left out, hints kept only with
    ``hinting``, the .notdef glyph's outline kept with ``notdef_outline``. A single font
    (never a collection); None where HarfBuzz cannot subset it."""
    import uharfbuzz as hb

    if not glyph_ids:
        return None
    flags = hb.SubsetFlags
    common = flags.PASSTHROUGH_UNRECOGNIZED | flags.DESUBROUTINIZE
    if notdef_outline:
        common |= flags.NOTDEF_OUTLINE

    used = hb.SubsetInput()
    used.glyph_set.update(glyph_ids)
    used.flags = common | flags.RETAIN_GIDS
    used.drop_table_tag_set.update(int.from_bytes(tag.encode("ascii"), "big")
                                   for tag in DROPPED_TABLES)
    kept = hb.subset(hb.Face(hb.Blob(font_file), index), used)
    if kept is None:
        return None

    # What is left is glyph ids 0..max, the unused ones empty: keeping them all trims the tail.
    head = hb.SubsetInput()
    head.glyph_set.add_range(0, max(glyph_ids))
    head.flags = common if hinting else common | flags.NO_HINTING
    trimmed = hb.subset(kept, head)
    data = None if trimmed is None else trimmed.blob.data
    return bytes(data) if data else None


@contextlib.contextmanager
def harfbuzz_subsetting() -> Iterator[None]:
    """Within the block, WeasyPrint subsets fonts with :func:`harfbuzz_subset` instead of
    fontTools (see the module's docstring)."""
    try:
        import uharfbuzz  # noqa: F401  (a dependency; without it WeasyPrint subsets as it would)
        from weasyprint.pdf import fonts
    except ImportError:  # pragma: no cover - both are dependencies
        yield
        return
    original = getattr(fonts.Font, "_fonttools_subset", None)
    if original is None:
        yield
        return

    def subset(font: Any, to_unicode: Any, hinting: Any, *args: Any, **kwargs: Any) -> Any:
        # WeasyPrint's fontTools step, Font._fonttools_subset(to_unicode, hinting): the keys
        # of to_unicode are the glyph ids the PDF uses
        data = harfbuzz_subset(font.file_content, font.index, sorted(to_unicode),
                               hinting=bool(hinting), notdef_outline=bool(font.missing))
        if data is None:
            return original(font, to_unicode, hinting, *args, **kwargs)
        font.file_content = data
        return None

    fonts.Font._fonttools_subset = subset
    try:
        yield
    finally:
        fonts.Font._fonttools_subset = original
