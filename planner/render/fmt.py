"""Number formatting for people: the one place where figures become text.

Every report, table and message formats money, durations and quantities through these
functions, so a figure reads the same everywhere. Missing figures (``None`` or NaN) read as an
em dash, never as a silent zero; :func:`months` reads a missing break-even as "never".

Money is formatted by Babel with the currency's own symbol and the locale's pattern: the
report's language (:mod:`planner.render.i18n`, English unless a report is being written in
another) picks the locale, so ``CNY`` reads "CN¥" in English and "¥" in Chinese, and ``USD``
reads "$" in English and "US$" in Chinese. A symbol that ends in a letter is kept apart from
the digits by a no-break space ("CHF 1,234.50"), as CLDR's currency spacing says.

>>> money(12345.4, "USD"), money(1234.5, "EUR", decimals=2), money(1234, "JPY")
('$12,345', '€1,234.50', '¥1,234')
>>> money_rate(2.14, "USD", "h"), months(14.23), months(None), percent(0.055)
('$2.14/h', '14.2 months', 'never', '5.5%')
"""

from __future__ import annotations

import copy
import decimal
import functools
import math
import re
import sys
from typing import TYPE_CHECKING

from planner.messages import Money, Number, Share
from planner.result import is_missing

if TYPE_CHECKING:
    from babel.numbers import NumberPattern

__all__ = [
    "MISSING",
    "currency_decimals",
    "figure",
    "hours",
    "is_missing",
    "money",
    "money_rate",
    "money_short",
    "months",
    "number",
    "percent",
    "price",
]

MISSING = "—"
#: An infinite amount is written as the largest float (no report should print "inf").
_LARGEST = sys.float_info.max

# A symbol ending in a letter ("CHF", "CN¥" does not) is followed by a no-break space.
_SPACING = re.compile(r"(?<=[^\W\d_])(?=\d)")


def _locale() -> str:
    from planner.render import i18n

    return i18n.locale()


def _text(key: str, **values: object) -> str:
    from planner.render import i18n

    return i18n.t(key, **values)


def _grouped(x: float, decimals: int) -> str:
    if math.isinf(x):
        return "-∞" if x < 0 else "∞"
    text = f"{abs(x):,.{decimals}f}"
    # "-0" after rounding is zero, not a negative amount.
    negative = x < 0 and any(c not in "0.," for c in text)
    return ("-" if negative else "") + text


@functools.lru_cache(maxsize=64)
def _pattern(locale: str, decimals: int) -> tuple[NumberPattern, object]:
    """The locale's currency pattern with exactly ``decimals`` decimals, and the locale."""
    from babel import Locale
    from babel.numbers import parse_pattern

    parsed = Locale.parse(locale)
    pattern = copy.copy(parse_pattern(parsed.currency_formats["standard"].pattern))
    pattern.frac_prec = (decimals, decimals)
    return pattern, parsed


@functools.lru_cache(maxsize=64)
def currency_decimals(currency: str) -> int:
    """The minor units of ``currency``: 2 for USD and EUR, 0 for JPY and KRW."""
    from babel.numbers import get_currency_precision

    return get_currency_precision(currency)  # an unknown code: Babel's default, 2


def _default_decimals(amount: float) -> int:
    return 2 if abs(amount) < 100 else 0


def money(amount: float | None, currency: str, *, decimals: int | None = None) -> str:
    """``amount`` [currency] as text: "$12,345", "€1,234.50", "CN¥1,234", "-$500".

    ``decimals=None`` shows cents below 100 units and whole units from 100 up. Pass
    ``decimals`` to align a column. Currencies without minor units (yen, won) never show any,
    and no currency shows more than its minor units unless ``decimals`` asks for them (a price
    per kWh).
    """
    if is_missing(amount):
        return MISSING
    amount = float(amount)  # type: ignore[arg-type]
    if currency_decimals(currency) == 0:
        decimals = 0
    elif decimals is None:
        decimals = _default_decimals(amount)
    pattern, locale = _pattern(_locale(), decimals)
    if not math.isfinite(amount):
        amount = math.copysign(_LARGEST, amount)
    # Babel rounds in the current decimal context; its default 28 digits would fail on
    # amounts from 10^26 up, and a float has up to 309 digits before the point.
    with decimal.localcontext() as context:
        context.prec = 400
        text = pattern.apply(abs(amount), locale, currency=currency, currency_digits=False)
        # A negative amount that rounds to zero is zero, not "-$0".
        if amount < 0 and any(c in "123456789" for c in text):
            text = pattern.apply(amount, locale, currency=currency, currency_digits=False)
    return _SPACING.sub("\u00a0", text)


def price(amount: float | None, currency: str) -> str:
    """A price per unit with the digits to redo a product by hand: "$0.16", "$3.6734",
    "$24,750", "$7,631.94" (up to four decimals below 100 units, cents from 100 up)."""
    if is_missing(amount):
        return MISSING
    amount = float(amount)  # type: ignore[arg-type]
    if currency_decimals(currency) == 0 and abs(amount) >= 100:
        return money(amount, currency)
    if abs(amount) >= 100:
        whole = math.isclose(amount, round(amount), abs_tol=5e-3)
        return money(amount, currency, decimals=0 if whole else 2)
    decimals = 4
    while decimals > 2 and math.isclose(round(amount, decimals), round(amount, decimals - 1),
                                        abs_tol=1e-12):
        decimals -= 1
    return money(amount, currency, decimals=decimals)


def money_rate(amount: float | None, currency: str, unit: str, *,
               decimals: int | None = None) -> str:
    """A price per ``unit``: "$2.14/h", "$0.10/GB-month"."""
    if is_missing(amount):
        return MISSING
    return f"{money(amount, currency, decimals=decimals)}/{unit}"


def money_short(amount: float | None, currency: str) -> str:
    """A compact amount for chart axes: "$950", "$12k", "$1.2M"."""
    if is_missing(amount):
        return MISSING
    amount = float(amount)  # type: ignore[arg-type]
    size = abs(amount)
    for scale, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if size >= scale:
            value = amount / scale
            decimals = 0 if abs(value) >= 10 or value == round(value) else 1
            text = money(value, currency, decimals=decimals)
            return text + suffix
    return money(amount, currency, decimals=0)


def number(x: float | None, decimals: int = 0) -> str:
    """A plain figure with thousands separators: "1,234.5"."""
    if is_missing(x):
        return MISSING
    return _grouped(float(x), decimals)  # type: ignore[arg-type]


def figure(x: float | None, max_decimals: int = 4) -> str:
    """A figure as a person would write it: "1,234", "1.2", "0.05" (no trailing zeros)."""
    if is_missing(x):
        return MISSING
    text = _grouped(float(x), max_decimals)  # type: ignore[arg-type]
    return text.rstrip("0").rstrip(".") if "." in text else text


def hours(x: float | None, decimals: int = 0) -> str:
    """A duration in hours: "730 hours", "1 hour"."""
    if is_missing(x):
        return MISSING
    text = number(x, decimals)
    return _text("unit.hour" if text == "1" else "unit.hours", n=text)


def months(x: float | None, decimals: int = 1) -> str:
    """A duration in months, "14.2 months"; a missing one (no break-even) is "never"."""
    if is_missing(x):
        return _text("unit.never")
    text = number(x, decimals)
    one = float(text.replace(",", "")) == 1
    return _text("unit.month" if one else "unit.months", n=text)


def break_even_months(x: float | None, never: str | None = None, decimals: int = 1) -> str:
    """When buying pays off, as text: "14.2 months"; "from the start" at 0; "never" (or
    ``never``, such as "not within 36 months") when it does not within the horizon."""
    if is_missing(x):
        return _text("value.never") if never is None else never
    if x == 0:
        return _text("value.start")
    return months(x, decimals)


def percent(x: float | None, decimals: int | None = None) -> str:
    """A fraction as a percentage: 0.05 -> "5%", 0.055 -> "5.5%".

    ``decimals=None`` shows one decimal only when the percentage is not whole.
    """
    if is_missing(x):
        return MISSING
    value = float(x) * 100  # type: ignore[arg-type]
    if not math.isfinite(value):
        return f"{_grouped(value, 0)}%"
    if decimals is None:
        decimals = 0 if math.isclose(value, round(value), abs_tol=1e-9) else 1
        # A share short of all (or above none) never reads as 100% (0%): two decimals,
        # rounded away from the end (99.996 % is "99.99%", 0.004 % is "0.01%").
        if 0 < value < 100 and round(value, 1) in (0.0, 100.0):
            edge = math.floor(value * 100) if value > 50 else math.ceil(value * 100)
            return f"{number(edge / 100, 2)}%"
    return f"{number(value, decimals)}%"


def value(x: Money | Share | Number) -> str:
    """A typed value of a message (:mod:`planner.messages`) as text in the current language:
    money or a price per unit, a share as a percentage, a figure with separators."""
    if isinstance(x, Money):
        if x.per:
            return money_rate(x.amount, x.currency, x.per)
        return money(x.amount, x.currency)
    if isinstance(x, Share):
        return percent(x.value)
    return number(x.value, x.decimals)

