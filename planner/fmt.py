"""Number formatting for people: the one place where figures become text.

Every report, table and message formats money, durations and quantities through these
functions, so a figure reads the same everywhere. Missing figures (``None`` or NaN) read as an
em dash, never as a silent zero; :func:`months` reads a missing break-even as "never".

>>> money(12345.4, "USD"), money(1234.5, "EUR", decimals=2), money(1234, "CNY")
('$12,345', '€1,234.50', 'CNY 1,234')
>>> money_rate(2.14, "USD", "h"), months(14.23), months(None), percent(0.055)
('$2.14/h', '14.2 months', 'never', '5.5%')
"""

from __future__ import annotations

import math
from numbers import Real

MISSING = "—"

#: Currencies written with a symbol; any other code is written before the number ("CNY 1,234").
#: The yuan is left out on purpose: "¥" alone would read as yen.
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "KRW": "₩"}
#: Currencies without minor units: never shown with decimals.
ZERO_DECIMAL = {"JPY", "KRW"}


def is_missing(x: object) -> bool:
    """Whether ``x`` stands for "no figure": ``None`` or a float NaN."""
    return x is None or (isinstance(x, Real) and math.isnan(x))


def _grouped(x: float, decimals: int) -> str:
    text = f"{abs(x):,.{decimals}f}"
    # "-0" after rounding is zero, not a negative amount.
    negative = x < 0 and any(c not in "0.," for c in text)
    return ("-" if negative else "") + text


def _default_decimals(amount: float) -> int:
    return 2 if abs(amount) < 100 else 0


def money(amount: float | None, currency: str, *, decimals: int | None = None) -> str:
    """``amount`` [currency] as text: "$12,345", "€1,234.50", "CNY 1,234", "-$500".

    ``decimals=None`` shows cents below 100 units and whole units from 100 up. Pass
    ``decimals`` to align a column. Currencies without minor units (yen, won) never show any.
    """
    if is_missing(amount):
        return MISSING
    amount = float(amount)  # type: ignore[arg-type]
    if currency in ZERO_DECIMAL:
        decimals = 0
    elif decimals is None:
        decimals = _default_decimals(amount)
    digits = _grouped(amount, decimals)
    sign, digits = ("-", digits[1:]) if digits.startswith("-") else ("", digits)
    symbol = SYMBOLS.get(currency)
    if symbol is None:
        return f"{sign}{currency} {digits}"
    return f"{sign}{symbol}{digits}"


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
    return f"{text} hour" if text == "1" else f"{text} hours"


def months(x: float | None, decimals: int = 1) -> str:
    """A duration in months, "14.2 months"; a missing one (no break-even) is "never"."""
    if is_missing(x):
        return "never"
    text = number(x, decimals)
    return f"{text} month" if float(text.replace(",", "")) == 1 else f"{text} months"


def percent(x: float | None, decimals: int | None = None) -> str:
    """A fraction as a percentage: 0.05 -> "5%", 0.055 -> "5.5%".

    ``decimals=None`` shows one decimal only when the percentage is not whole.
    """
    if is_missing(x):
        return MISSING
    value = float(x) * 100  # type: ignore[arg-type]
    if decimals is None:
        decimals = 0 if math.isclose(value, round(value), abs_tol=1e-9) else 1
    return f"{number(value, decimals)}%"
