"""Value types of usage.yaml and how values read in messages.

Numbers are real numbers (never text, never true/false); integers are whole numbers, written
12 or 12.0 and exact in the model's floats; currency codes are ISO 4217. The ``Annotated``
types here carry their constraints so that they land in the JSON Schema as minimum/maximum.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field
from pydantic_core import PydanticCustomError

from planner.usage.vocabulary import CURRENCY_PATTERN, MAX_INTEGER, NAME_PATTERN

_NUMBER_HINT = " (numbers are plain: no quotes, units, percent signs or thousands separators)"


def describe(value: Any) -> str:
    """How a value reads in a message: ``the text '12'``, ``true``, ``a map``."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, Mapping):
        return "a map"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, numbers.Real):
        return format_number(value)
    return repr(value)


def format_number(value: float) -> str:
    """``12.0`` -> ``12``; other numbers as Python writes them."""
    if isinstance(value, numbers.Integral):
        if abs(int(value)) < 10**30:
            return str(int(value))
        try:  # a huge whole number: its size, not its hundreds of digits
            return f"{float(value):.6g}"
        except OverflowError:
            return "a whole number of more than 300 digits"
    value = float(value)
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def is_boolean(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's too


def to_number(value: Any) -> float:
    if is_boolean(value) or not isinstance(value, numbers.Real):
        hint = _NUMBER_HINT if isinstance(value, str) and any(c.isdigit() for c in value) else ""
        raise PydanticCustomError(
            "number_type", "expected a number, got {got}" + hint, {"got": describe(value)}
        )
    try:
        number = float(value)
    except OverflowError:  # a whole number beyond the float range (10^400 in YAML)
        number = math.inf
    if not math.isfinite(number):
        raise PydanticCustomError(
            "number_finite", "expected a finite number, got {got}", {"got": describe(value)}
        )
    return number


def to_integer(value: Any) -> int:
    if is_boolean(value) or not isinstance(value, numbers.Real):
        hint = _NUMBER_HINT if isinstance(value, str) and any(c.isdigit() for c in value) else ""
        raise PydanticCustomError(
            "integer_type", "expected a whole number, got {got}" + hint, {"got": describe(value)}
        )
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif not (math.isfinite(float(value)) and float(value).is_integer()):
        raise PydanticCustomError(
            "integer_fraction", "expected a whole number, got {got}", {"got": describe(value)}
        )
    else:
        number = int(value)
    if abs(number) > MAX_INTEGER:  # beyond it, whole numbers are not exact in the model's floats
        raise PydanticCustomError(
            "integer_size", "expected a whole number of at most 2^53 ({limit}), got {got}",
            {"got": describe(value), "limit": MAX_INTEGER})
    return number


# Constraints go before the validator so they land in the JSON Schema as minimum/maximum.
Number = Annotated[float, BeforeValidator(to_number)]
NonNegative = Annotated[float, Field(ge=0), BeforeValidator(to_number)]
Positive = Annotated[float, Field(gt=0), BeforeValidator(to_number)]
Fraction = Annotated[float, Field(ge=0, le=1), BeforeValidator(to_number)]
PositiveFraction = Annotated[float, Field(gt=0, le=1), BeforeValidator(to_number)]
AtLeastOne = Annotated[float, Field(ge=1), BeforeValidator(to_number)]
Growth = Annotated[float, Field(ge=-1), BeforeValidator(to_number)]
Count = Annotated[int, Field(ge=1), BeforeValidator(to_integer)]
CountOrZero = Annotated[int, Field(ge=0), BeforeValidator(to_integer)]
Text = Annotated[str, Field(strict=True, min_length=1)]
Flag = Annotated[bool, Field(strict=True)]
#: Suggested first for a mistyped code (historical codes such as XEU are suggested last).
COMMON_CURRENCIES = ("USD", "EUR", "CNY", "JPY", "GBP", "INR", "KRW", "CAD", "AUD", "CHF",
                     "SGD", "HKD", "TWD", "BRL", "SEK", "NOK", "DKK", "PLN", "CZK", "ILS",
                     "MXN", "NZD", "ZAR", "TRY", "AED", "SAR", "THB", "IDR", "MYR", "VND")


def iso_currencies() -> list[str]:
    """The ISO 4217 codes Babel knows (current and historical), sorted."""
    from babel.numbers import list_currencies

    return sorted(list_currencies())


def _known_currency(code: str) -> str:
    if code not in iso_currencies():
        raise PydanticCustomError("currency_unknown", "not an ISO 4217 currency code")
    return code


CurrencyCode = Annotated[str, Field(strict=True, pattern=CURRENCY_PATTERN),
                         AfterValidator(_known_currency)]
OptionName = Annotated[str, Field(strict=True, min_length=1, pattern=NAME_PATTERN)]

