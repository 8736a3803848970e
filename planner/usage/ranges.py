"""The valid range of a number of usage.yaml, read from its schema: what a drawn value
(SPEC §7) is truncated to.

``number_range(data, ("options", 0, "own", "resale_fraction"))`` is ``[0, 1]``; a key that
holds no number (a catalog id, a flag) has none.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from planner.usage.models import Demand, Site, Usage
from planner.usage.options import OPTION_MODELS, SPEC_MODELS, Financing
from planner.usage.vocabulary import option_kind


@dataclass(frozen=True)
class NumberRange:
    """The numbers a key accepts: from ``low`` to ``high`` (either end excluded when its
    ``*_open`` is set), whole numbers only when ``integer``."""

    low: float = -math.inf
    high: float = math.inf
    low_open: bool = False
    high_open: bool = False
    integer: bool = False

    def admits(self, value: float) -> bool:
        """Whether ``value`` lies in the range (whole or not)."""
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    def text(self) -> str:
        """"at least 0", "greater than 0", "from 0 to 1", for messages."""
        if self.low > -math.inf and self.high < math.inf:
            return f"from {_number(self.low)} to {_number(self.high)}"
        if self.low > -math.inf:
            return f"{'greater than' if self.low_open else 'at least'} {_number(self.low)}"
        if self.high < math.inf:
            return f"{'less than' if self.high_open else 'at most'} {_number(self.high)}"
        return "any number"


def _number(value: float) -> str:
    return f"{value:g}"


def number_range(data: Mapping[str, Any], keys: tuple[str | int, ...]) -> NumberRange | None:
    """The range of the number at ``keys`` (a canonical path, options by index), or None when
    the key holds no number."""
    if keys[:1] == ("fx",) and len(keys) == 2:
        return NumberRange(low=0.0, low_open=True)
    model, leaf = _model_of(data, keys)
    if model is None:
        return None
    prop = _properties(model).get(leaf)
    return _numeric(prop) if prop is not None else None


def _model_of(data: Mapping[str, Any], keys: tuple) -> tuple[type[BaseModel] | None, Any]:
    parents, leaf = keys[:-1], keys[-1]
    fixed = {(): Usage, ("demand",): Demand, ("site",): Site}
    if parents in fixed:
        return fixed[parents], leaf
    if len(parents) >= 2 and parents[0] == "options" and isinstance(parents[1], int):
        options = data.get("options") or []
        entry = options[parents[1]] if parents[1] < len(options) else None
        kind = option_kind(entry) if isinstance(entry, Mapping) else None
        rest = parents[2:]
        if kind is None:
            return None, leaf
        if rest == ():
            return OPTION_MODELS[kind], leaf
        if rest == (kind,):
            return SPEC_MODELS[kind], leaf
        if rest == ("own", "financing"):
            return Financing, leaf
    return None, leaf


@functools.cache
def _properties(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()["properties"]


def _numeric(prop: Mapping[str, Any]) -> NumberRange | None:
    """The number among the schema's alternatives (``anyOf``/``oneOf``), if any."""
    if prop.get("type") in ("number", "integer"):
        low, low_open = prop.get("minimum", -math.inf), False
        if "exclusiveMinimum" in prop:
            low, low_open = prop["exclusiveMinimum"], True
        high, high_open = prop.get("maximum", math.inf), False
        if "exclusiveMaximum" in prop:
            high, high_open = prop["exclusiveMaximum"], True
        return NumberRange(float(low), float(high), low_open, high_open,
                           prop["type"] == "integer")
    for alternatives in ("anyOf", "oneOf"):
        for inner in prop.get(alternatives, ()):
            found = _numeric(inner)
            if found is not None:
                return found
    return None
