"""The CJK font a Chinese report is printed with (``fc-list :lang=zh``), if one is installed."""

from __future__ import annotations

import functools
import shutil
import subprocess

#: CJK families preferred when several are installed, best first.
PREFERRED_CJK = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Zen Hei",
                 "WenQuanYi Micro Hei", "AR PL UMing CN")


@functools.lru_cache(maxsize=1)
def cjk_font() -> str | None:
    """The family of an installed font with Chinese glyphs (``fc-list :lang=zh``), else None.

    The same machine always gives the same answer: a preferred family if installed, else the
    first in alphabetical order.
    """
    if shutil.which("fc-list") is None:
        return None
    try:
        run = subprocess.run(["fc-list", "-f", "%{family[0]}\n", ":lang=zh"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    families = sorted({line.strip() for line in run.stdout.splitlines() if line.strip()})
    if not families:
        return None
    return next((f for f in PREFERRED_CJK if f in families), families[0])


@functools.lru_cache(maxsize=8)
def cjk_font_file(family: str, weight: str = "regular") -> str | None:
    """The file of ``family`` in ``weight`` (for matplotlib, which measures the charts' text),
    else None."""
    try:
        run = subprocess.run(["fc-match", "-f", "%{family}\t%{file}", f"{family}:{weight}"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    families, _, path = run.stdout.strip().partition("\t")
    # fc-match answers with a fallback when the family is missing: that is not the font.
    return path if family in families.split(",") and path else None


class MissingGlyphWarning(UserWarning):
    """Text of the report (its title, an option's name) has characters that no installed
    font has: the PDF prints them as boxes."""


#: Characters below this code point are in DejaVu Sans, which matplotlib ships and the report
#: names first: no need to ask fontconfig about them.
DEJAVU_COVERS_BELOW = 0x0250
#: Unicode categories that print no glyph: controls, format characters, spaces, separators.
UNPRINTED = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp"})
#: Blocks a CJK font has, when one is installed (CJK punctuation, kana, ideographs, full-width
#: forms): a Chinese title asks fontconfig nothing.
CJK_BLOCKS = ((0x3000, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xFF00, 0xFFEF))


def uncovered(text: str) -> list[str]:
    """The distinct characters of ``text``, in order, that no installed font has (per
    fontconfig: ``fc-list :charset=<hex>`` lists none). Spaces and control characters do not
    count; without fontconfig nothing can be told and none is named.

    Fast: the characters of DejaVu Sans's first blocks, and of a CJK font's when one is
    installed, are taken as covered; one ``fc-list`` call (a few milliseconds) per other
    distinct character, remembered.
    """
    import unicodedata

    found = []
    for char in dict.fromkeys(text):
        code = ord(char)
        if code < DEJAVU_COVERS_BELOW or unicodedata.category(char) in UNPRINTED:
            continue
        if any(low <= code <= high for low, high in CJK_BLOCKS) and cjk_font() is not None:
            continue
        if not _installed_font_has(code):
            found.append(char)
    return found


@functools.lru_cache(maxsize=1024)
def _installed_font_has(code: int) -> bool:
    if shutil.which("fc-list") is None:
        return True
    try:
        run = subprocess.run(["fc-list", "-f", "%{family[0]}\n", f":charset={code:x}"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return True
    return bool(run.stdout.strip())


def missing_glyph_message(where: str, chars: list[str]) -> str:
    """The warning for ``chars`` of ``where`` (``the title``, ``option 'x'``) that no font
    has: which characters, and how to get a font that has them."""
    named = ", ".join(f"{c!r} (U+{ord(c):04X})" for c in chars)
    first = f"{ord(chars[0]):04X}"
    return (f"no installed font has the characters {named} of {where}, so the report prints "
            f"them as boxes; install a font that has them (the Noto fonts cover most "
            f"scripts: e.g. fonts-noto-core, or fonts-noto-color-emoji for emoji) and check "
            f"with fc-list :charset={first}")
