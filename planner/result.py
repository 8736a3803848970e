"""The result of evaluating a plan: the JSON of SPEC §2 plus the frames behind the report.

What the planner says (reasons, warnings, the breakdown's units, the key inputs) is kept as
:class:`~planner.messages.Message` records; the JSON has them in English (SPEC §2: strings),
a report in its reader's language.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from numbers import Real
from typing import Any, NamedTuple

import pandas as pd

from planner.messages import Text, render

OPTION_FIELDS = (
    "name", "kind", "feasible", "reasons", "warnings", "gpu", "gpus", "gpu_hours_per_month",
    "total_cost", "present_value", "residual_value", "cost_per_gpu_hour", "monthly_cost",
    "energy_kwh", "carbon_kg", "capacity_gpu_hours_per_month", "unmet_gpu_hours_per_month",
    "first_unmet_month", "sessions_per_week", "job_wait_days",
)
BREAK_EVEN_FIELDS = ("own", "versus", "months", "system_hours", "gpu_hours_per_month")
#: The option fields that hold messages: lists of them, strings in the JSON.
MESSAGE_FIELDS = ("reasons", "warnings")


class Input(NamedTuple):
    """One of the inputs that matter most: its label and its value, as messages."""

    label: Text
    value: Text


def is_missing(x: object) -> bool:
    """Whether ``x`` stands for "no figure": ``None`` or a float NaN (SPEC §2's null)."""
    return x is None or (isinstance(x, Real) and math.isnan(x))


@dataclass
class Result:
    """What :meth:`planner.Plan.evaluate` returns.

    ``data`` is the JSON object of SPEC §2 (plain Python values, ``None`` for null), except
    that an option's ``reasons`` and ``warnings`` are messages (:data:`MESSAGE_FIELDS`;
    :meth:`to_dict` renders them in English).
    ``monthly`` is long form: columns ``option``, ``month``, ``component``, ``cost`` [currency].
    ``cost_vs_usage`` has columns ``gpu_hours_per_month`` (month-1 reference GPU-hours),
    ``option`` and ``present_value`` [currency], NaN where the option is infeasible at that
    level.
    ``assumptions`` lists what the figures rest on: dicts with ``item``, ``value``, ``as_of``
    and ``source`` (``as_of``/``source`` ``None`` for the user's own inputs).
    ``inputs`` are the few inputs that matter most, as :class:`Input` (label, value) pairs of
    messages.
    ``sensitivity`` says what changes the answer: each key input moved down and up (see
    :func:`planner.engine.sensitivity.sensitivity`), the widest swing first.
    ``breakdown`` says what each feasible option's costs are made of over the horizon: columns
    ``option``, ``component``, ``quantity``, ``unit`` (a message, "" for none), ``price``
    (per unit) and ``cost``.
    ``pue`` is the site's power usage effectiveness (1 without one), by which own machines'
    energy includes cooling.
    """

    data: dict[str, Any]
    monthly: pd.DataFrame
    cost_vs_usage: pd.DataFrame
    assumptions: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    sensitivity: pd.DataFrame = field(default_factory=pd.DataFrame)
    breakdown: pd.DataFrame = field(default_factory=pd.DataFrame)
    pue: float = 1.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of SPEC §2 (a deep copy), its messages in English."""
        data = copy.deepcopy(self.data)
        data["options"] = [_in_english(row) for row in data["options"]]
        return data

    @property
    def options(self) -> pd.DataFrame:
        """One row per option, the fields of SPEC §2 (messages in English)."""
        return pd.DataFrame([_in_english(row) for row in self.data["options"]],
                            columns=list(OPTION_FIELDS))

    @property
    def break_even(self) -> pd.DataFrame:
        """One row per (own option, other option) pair."""
        return pd.DataFrame(self.data["break_even"], columns=list(BREAK_EVEN_FIELDS))

    @property
    def cheapest(self) -> str | None:
        return self.data["cheapest"]


def _in_english(row: dict[str, Any]) -> dict[str, Any]:
    """An option row with its messages rendered in English."""
    row = dict(row)
    for key in MESSAGE_FIELDS:
        if row.get(key) is not None:
            row[key] = [render(message, "en") for message in row[key]]
    return row
