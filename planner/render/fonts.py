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
