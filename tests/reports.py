"""The reports that several test modules read, each made once per test process.

A PDF report takes seconds; the examples' reports and the small fixture's were printed again
and again by modules that each check something else of them. Here each is evaluated, rendered
to HTML, laid out by WeasyPrint and written as PDF once, by the same functions ``planner
report`` calls, and the texts and bytes (never the mutable Result) are shared. pytest-xdist's
workers are processes: each makes what its own tests ask for.

A test that checks rendering itself (that two renders agree, that the command line writes the
same bytes) renders anew and compares with these. Every report here is made with the network
refused (:func:`offline`), and the attempts are kept: the offline contract is checked on them.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import importlib.util
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

import planner
from planner.render import fonts, render
from planner.render import html as report_html

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
FIXTURE = Path(__file__).parent / "fixtures" / "result_small.py"
#: The date the examples' shared reports are dated by (their stale-prices warnings count from it).
EXAMPLE_DATE = datetime.date(2026, 11, 30)
#: The date the small fixture's shared reports are dated by.
FIXTURE_DATE = datetime.date(2024, 6, 3)

#: Skips a test that reads Chinese text in a report (``lang="zh"``, a Chinese title) where no
#: installed font has Chinese glyphs: there the report falls back to English and warns that the
#: title prints as boxes (test_fonts.py checks that), as README's note on fonts says.
needs_cjk_font = pytest.mark.skipif(fonts.cjk_font() is None,
                                    reason="no font with Chinese glyphs installed "
                                           "(fc-list :lang=zh)")


#: Each attempt to reach the network while a report here was made: (report, socket call).
NETWORK_ATTEMPTS: list[tuple[str, tuple]] = []


@contextlib.contextmanager
def offline(name: str) -> Iterator[None]:
    """Opening a socket or resolving a name fails, and is noted in NETWORK_ATTEMPTS."""
    def refuse(*args, **kwargs):
        NETWORK_ATTEMPTS.append((name, args))
        raise OSError("network access while a report was made")

    class Refused(socket.socket):  # a class: ssl subclasses socket.socket when imported
        def __init__(self, *args, **kwargs):
            refuse(*args)

    names = ("socket", "create_connection", "getaddrinfo", "gethostbyname")
    saved = {attribute: getattr(socket, attribute) for attribute in names}
    socket.socket = Refused
    for attribute in names[1:]:
        setattr(socket, attribute, refuse)
    try:
        yield
    finally:
        for attribute, value in saved.items():
            setattr(socket, attribute, value)


def fixture_module():
    """tests/fixtures/result_small.py, loaded as a module (``make_result()`` builds a Result)."""
    spec = importlib.util.spec_from_file_location("result_small", FIXTURE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _result(source: str):
    """A fresh Result of ``source``: an example's stem, or ``"fixture"``."""
    if source == "fixture":
        return fixture_module().make_result()
    return planner.load(ROOT / "examples" / f"{source}.yaml").evaluate()


def _date(source: str) -> datetime.date:
    return FIXTURE_DATE if source == "fixture" else EXAMPLE_DATE


@functools.cache
def html(source: str, paper: str = "a4", lang: str = "en") -> str:
    """The HTML report of ``source`` (an example's stem, or ``"fixture"``)."""
    with offline(f"{source}.html"):
        return render(_result(source), "html", date=_date(source), paper=paper,
                      lang=lang).decode("utf-8")


@functools.cache
def layout(source: str, paper: str = "a4", lang: str = "en"):
    """The WeasyPrint document of :func:`html`, laid out in pages (read it, do not change it)."""
    text = html(source, paper, lang)
    with offline(f"{source}.pdf"):
        return report_html.lay_out(text)


@functools.cache
def pdf(source: str, paper: str = "a4", lang: str = "en") -> bytes:
    """The PDF report of ``source``: :func:`layout` written as ``planner report`` writes it."""
    document = layout(source, paper, lang)
    with offline(f"{source}.pdf"):
        return report_html.write_pdf(document, _date(source))
