"""The report's languages: the language a report is written in, and its texts in it.

A report is written in English (``en``, the default) or Chinese (``zh``). The language is a
context (:func:`language`), so the functions of :mod:`planner.render.content`,
:mod:`planner.render.charts` and :mod:`planner.render.fmt` keep their signatures and read it from
here; outside a ``language`` block everything is English.

Every text comes from the one message catalogue of :mod:`planner.messages`: the report's fixed
texts by key (:func:`t`), and the messages the rate cards, the engine and evaluation wrote
(:func:`text`).

Chinese needs a CJK font: WeasyPrint draws the PDF with the fonts fontconfig knows, and the
charts are measured with it. :func:`resolve` checks for one (:mod:`planner.render.fonts`);
without it the report falls back to English and says so with a :class:`LanguageFallbackWarning` (a
Python warning, which the command line prints to the terminal).

Catalog items and sources (the pricing module's words) stay as they are.
"""

from __future__ import annotations

import contextlib
import contextvars
import warnings
from collections.abc import Iterator

from planner.messages import LANGUAGES, Message, Text, render
from planner.render import fonts

#: Babel locale of each language (money and numbers).
LOCALES = {"en": "en_US", "zh": "zh_CN"}

_LANGUAGE: contextvars.ContextVar[str] = contextvars.ContextVar("planner_report_language",
                                                               default="en")


class LanguageFallbackWarning(UserWarning):
    """A report asked for in a language this machine cannot print; it is written in English."""


def current() -> str:
    """The language texts are written in now ("en" outside a :func:`language` block)."""
    return _LANGUAGE.get()


def locale() -> str:
    """The Babel locale of the current language."""
    return LOCALES[current()]


@contextlib.contextmanager
def language(lang: str) -> Iterator[None]:
    """Write every text in ``lang`` inside the block."""
    check(lang)
    token = _LANGUAGE.set(lang)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def check(lang: str) -> None:
    """ValueError unless ``lang`` is one of :data:`LANGUAGES`."""
    if lang not in LANGUAGES:
        msg = f"unknown report language {lang!r}; use one of {', '.join(LANGUAGES)}"
        raise ValueError(msg)


def t(key: str, **values: object) -> str:
    """The text ``key`` of the catalogue in the current language, with ``values`` filled in."""
    return text(Message(key, **values))


def t_or(key: str, default: str) -> str:
    """The text ``key`` in the current language, or ``default`` where the catalogue has no
    such key (a component, field or sheet the catalogue does not name)."""
    try:
        return t(key)
    except KeyError:
        return default


def text(message: Text | None) -> str:
    """A message in the current language, its money, shares and figures formatted by
    :mod:`planner.render.fmt`; anything else (text that is no message: the user's own words,
    a pricing module's) as it is, None as ""."""
    from planner.render import fmt

    if isinstance(message, Message):
        return render(message, current(), fmt.value)
    return "" if message is None else str(message)


def join(items: list[str], last: str | None = None) -> str:
    """"a", "a and b", "a, b and c" (in Chinese "a、b 和 c"); ``last`` replaces " and "."""
    if len(items) <= 1:
        return "".join(items)
    return t("list.sep").join(items[:-1]) + (last or t("list.and")) + items[-1]


def resolve(lang: str) -> str:
    """The language a report asked for in ``lang`` is written in.

    ``zh`` without a CJK font gives ``en`` and a :class:`LanguageFallbackWarning`.
    """
    check(lang)
    if lang == "zh" and fonts.cjk_font() is None:
        warnings.warn(
            "no font with Chinese glyphs is installed (fc-list :lang=zh lists none), so the "
            "report is written in English; install one (e.g. fonts-noto-cjk) for --lang zh",
            LanguageFallbackWarning, stacklevel=3)
        return "en"
    return lang
