"""The result of evaluating a plan: the JSON of SPEC §2 plus the frames behind the report.

What the planner says (reasons, warnings, the breakdown's units, the key inputs) is kept as
:class:`~planner.messages.Message` records; the JSON has them in English (SPEC §2: strings),
a report in its reader's language.
"""

from __future__ import annotations

import copy
import datetime
import functools
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Real
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from planner import display
from planner.messages import Message, Text, render

OPTION_FIELDS = (
    "name", "kind", "feasible", "reasons", "warnings", "gpu", "gpus", "gpu_hours_per_month",
    "total_cost", "present_value", "residual_value", "cost_per_gpu_hour", "monthly_cost",
    "energy_kwh", "carbon_kg", "capacity_gpu_hours_per_month", "unmet_gpu_hours_per_month",
    "first_unmet_month", "sessions_per_week", "job_wait_days", "served_share",
    "passed_cost", "passed_cost_share", "machines", "cost_per_owned_gpu_hour",
    "scaling_efficiency", "job_days",
)
BREAK_EVEN_FIELDS = ("own", "versus", "months", "system_hours", "gpu_hours_per_month")
#: The option fields that are whole numbers, nullable (``Int64``) in :attr:`Result.options`.
INTEGER_OPTION_FIELDS = ("gpus", "machines", "first_unmet_month")
#: The option fields that hold messages: lists of them, strings in the JSON.
MESSAGE_FIELDS = ("reasons", "warnings")
#: Prices older than this at the report's date get a warning. [days]
STALE_AFTER_DAYS = 180


def default_date() -> datetime.date:
    """The date a result or report is dated by default: SOURCE_DATE_EPOCH's day (UTC) when it
    is set, for reproducible builds, else today."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date()
    return datetime.date.today()


def age_days(as_of: str | None, date: datetime.date) -> int | None:
    """Days from a catalog date (``YYYY-MM-DD``, or ``YYYY-MM`` taken as its first day) to
    ``date``; None without a date that can be read. [days]"""
    text = str(as_of or "")[:10]
    if len(text) == 7:
        text += "-01"
    try:
        return (date - datetime.date.fromisoformat(text)).days
    except ValueError:
        return None


def stale_prices(prices_as_of: str | None, date: datetime.date) -> Message | None:
    """The warning that the oldest price used is more than :data:`STALE_AFTER_DAYS` old at
    ``date``, else None."""
    days = age_days(prices_as_of, date)
    if days is None or days <= STALE_AFTER_DAYS:
        return None
    return Message("warning.stale_prices", date=str(prices_as_of), days=days,
                   day=date.isoformat())


class Input(NamedTuple):
    """One of the inputs that matter most: its label and its value, as messages."""

    label: Text
    value: Text


def with_dtypes(frame: pd.DataFrame, currency: str, *,
                categories: Mapping[str, Sequence[Any] | None] | None = None,
                integers: Iterable[str] = ()) -> pd.DataFrame:
    """``frame`` with honest dtypes, for a reader in pandas or a notebook: each column of
    ``categories`` a category (of the given categories in their order, or of its values in
    order of appearance for ``None``), each of ``integers`` a nullable integer (``Int64``:
    missing is ``<NA>``, not a float NaN), and ``attrs["currency"]``, the ISO 4217 code its
    money is in. Columns it lacks are skipped; ``frame`` is changed in place and returned."""
    for name, values in (categories or {}).items():
        if name in frame.columns:
            column = frame[name]
            order = (list(dict.fromkeys(v for v in column if not is_missing(v)))
                     if values is None else list(values))
            dtype = category_dtype(order)
            codes = _text_codes(column, dtype)
            frame[name] = (pd.Categorical(column, dtype=dtype) if codes is None
                           else pd.Categorical.from_codes(codes, dtype=dtype))
    for name in integers:
        if name in frame.columns:
            frame[name] = pd.array(frame[name].astype("Float64"), dtype="Int64")
    frame.attrs["currency"] = currency
    return frame


def category_dtype(categories: Sequence[Any]) -> pd.CategoricalDtype:
    """The (unordered) categorical dtype of ``categories`` in their order, made once per list
    (pandas checks the categories each time it makes one: a result's frames share them)."""
    try:
        return _category_dtype(tuple((type(c), c) for c in categories))
    except TypeError:  # a category that cannot be hashed
        return pd.CategoricalDtype(list(categories))


@functools.lru_cache(maxsize=64)
def _category_dtype(typed: tuple[tuple[type, Any], ...]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype([c for _, c in typed])


def _text_codes(column: pd.Series, dtype: pd.CategoricalDtype) -> np.ndarray | None:
    """The category codes of a column of text and missing values (None, NaN: −1) against
    text categories, looked up in a dict; None for any other column (pandas codes it)."""
    if len(column) > 1000 or not all(isinstance(c, str) for c in dtype.categories):
        return None
    where = {c: i for i, c in enumerate(dtype.categories)}
    codes = np.empty(len(column), dtype=np.int64)
    for i, value in enumerate(column.tolist()):
        if isinstance(value, str):
            codes[i] = where.get(value, -1)
        elif is_missing(value) or value is pd.NA:
            codes[i] = -1
        else:
            return None
    return codes


def is_missing(x: object) -> bool:
    """Whether ``x`` stands for "no figure": ``None`` or a float NaN (SPEC §2's null)."""
    return x is None or (isinstance(x, Real) and math.isnan(x))


@dataclass(frozen=True)
class OptionWorkings:
    """The intermediate figures of one feasible option that the report's tables and appendix
    print: the renderer formats them and recomputes none.

    ``discounted_cost``: Σ_m v_m × monthly_cost_m over months 0..T, the residual value not
    counted. [currency]
    ``demand_gpu_hours``: the reference GPU-hours of demand over the horizon, which
    ``cost_per_gpu_hour`` divides the total cost by (with FLOPs demand, the option's own
    GPU-hours). [GPU-hours]
    ``energy_cost``: the cost of the facility's energy (× PUE) over the horizon. [currency]
    ``cooling_cost``: its cooling share, energy_cost × (1 − 1/PUE). [currency]
    ``cooling_cost_per_month``: the cooling share month by month, months 0..T, shape (T + 1,).
    [currency per month]
    """

    discounted_cost: float
    demand_gpu_hours: float | None
    energy_cost: float
    cooling_cost: float
    cooling_cost_per_month: np.ndarray


@dataclass(frozen=True)
class BreakEvenCrossing:
    """Where a break-even month comes from (SPEC §5.6): the last month end at which the own
    option's cumulative cost is above the other's, and the gaps around it.

    ``last_month_above``: that month end k; −1 when the own option is never above (it pays
    off from the start), T when it is above at the end (no break-even). [month]
    ``cost_gap_at_last_month``: own − other cumulative cost at k (NaN when never above).
    [currency]
    ``cost_gap_after_last_month``: the same at k + 1, at or below zero (NaN without a
    crossing inside the horizon). [currency]
    """

    last_month_above: int
    cost_gap_at_last_month: float
    cost_gap_after_last_month: float


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
    and ``source`` (``as_of``/``source`` ``None`` for the user's own inputs), ``kind``
    (``"price"`` or ``"reference"``) and ``price_as_of`` (a price's own date, which may differ
    from its catalog row's ``as_of``; ``None`` otherwise).
    ``inputs`` are the few inputs that matter most, as :class:`Input` (label, value) pairs of
    messages.
    ``sensitivity`` says what changes the answer: each key input moved down and up (see
    :func:`planner.engine.sensitivity.sensitivity`), the widest swing first.
    ``breakdown`` says what each feasible option's costs are made of over the horizon: columns
    ``option``, ``component``, ``quantity``, ``unit`` (a message, "" for none), ``price``
    (per unit) and ``cost``.
    ``plan_warnings`` are the plan's own warnings as messages (values that are legal but
    probably not meant, located); :meth:`to_dict` adds the stale-prices warning of its date and
    renders them as the JSON's top-level ``warnings``.
    ``pue`` is the site's power usage effectiveness (1 without one), by which own machines'
    energy includes cooling.

    The intermediate figures the report and its appendix print, so that the renderer only
    formats them (none is in :meth:`to_dict`; SPEC §2 allows more fields, but the JSON stays
    as it is):

    ``runner_up`` is the feasible option next to the cheapest in present value, and
    ``saving_vs_runner_up`` what the cheapest saves against it [currency, present value]
    (both None without two feasible options; :func:`planner.engine.answer.runner_up`).
    ``discount_factor_per_month`` is v_m = (1 + r)^(−m/12) of months 0..T, shape (T + 1,)
    [fraction]. ``headline_pair`` is (own, versus) of the pair the answer speaks of
    (:func:`planner.engine.answer.headline_pair`), None without one.
    ``marked_break_even_pairs`` are (own, versus) of the break-even rows the answer and the
    charts mark (:func:`planner.engine.answer.marked_pairs`). ``passed_to`` maps each option
    with an overflow or fallback to the option it passes work to. ``workings`` holds each
    feasible option's :class:`OptionWorkings`. ``break_even_crossings`` maps each break-even
    row's (own, versus) to its :class:`BreakEvenCrossing`, ``buying_cheaper_side`` to "above"
    or "below": on which side of the break-even usage buying is cheaper (absent where the
    cost-against-usage curves cannot tell). ``same_as_cheapest`` names the feasible options
    that serve none of their demand and pass it to the cheapest at the same cost
    (:func:`planner.engine.answer.same_as_cheapest`): the cheapest under another name.
    ``mix_result`` is the best mix of the file's ``mix``
    (:class:`planner.evaluate.optimize.MixResult`), None without one.
    """

    data: dict[str, Any]
    monthly: pd.DataFrame
    cost_vs_usage: pd.DataFrame
    assumptions: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[Input] = field(default_factory=list)
    sensitivity: pd.DataFrame = field(default_factory=pd.DataFrame)
    breakdown: pd.DataFrame = field(default_factory=pd.DataFrame)
    pue: float = 1.0
    # -- intermediate figures (issue 9, "answers as data") --
    runner_up: str | None = None
    saving_vs_runner_up: float | None = None
    discount_factor_per_month: np.ndarray = field(default_factory=lambda: np.ones(0))
    headline_pair: tuple[str, str] | None = None
    marked_break_even_pairs: list[tuple[str, str]] = field(default_factory=list)
    passed_to: dict[str, str] = field(default_factory=dict)
    workings: dict[str, OptionWorkings] = field(default_factory=dict)
    break_even_crossings: dict[tuple[str, str], BreakEvenCrossing] = field(default_factory=dict)
    buying_cheaper_side: dict[tuple[str, str], str] = field(default_factory=dict)
    # -- the plan's own warnings (issue 10: dates that mean what they say, plausibility) --
    plan_warnings: list[Message] = field(default_factory=list)
    same_as_cheapest: list[str] = field(default_factory=list)
    # -- the best mix (SPEC §6): the search of the file's mix, None without one; the JSON's
    # ``mix`` object is its to_dict() --
    mix_result: Any = None
    #: Own options bought after month 0 (SPEC §6): name → purchase month p; the report prints
    #: it and draws the purchase as a step at t = p. [month]
    purchase_months: dict[str, int] = field(default_factory=dict)

    def warnings_at(self, date: datetime.date | None = None) -> list[Message]:
        """The plan's own warnings (values probably not meant, each located) and, when the
        oldest price used is stale at ``date`` (default :func:`default_date`), that one."""
        stale = stale_prices(self.data.get("prices_as_of"), date or default_date())
        return [*self.plan_warnings, *([stale] if stale is not None else [])]

    def to_dict(self, date: datetime.date | None = None) -> dict[str, Any]:
        """The JSON object of SPEC §2 (a deep copy), its messages in English, with the
        top-level ``warnings`` of :meth:`warnings_at` ``date`` (default :func:`default_date`,
        as on the command line)."""
        data = copy.deepcopy(self.data)
        data["options"] = [_in_english(row) for row in data["options"]]
        data["warnings"] = [render(message, "en") for message in self.warnings_at(date)]
        return data

    @property
    def option_names(self) -> list[str]:
        """The options' names in the file's order."""
        return [row["name"] for row in self.data["options"]]

    @property
    def options(self) -> pd.DataFrame:
        """One row per option, the fields of SPEC §2 (messages in English): ``name`` a
        category of the options in file order, ``kind`` and ``gpu`` categories, ``gpus``,
        ``machines`` and ``first_unmet_month`` nullable integers (``Int64``);
        ``attrs["currency"]``."""
        frame = pd.DataFrame([_in_english(row) for row in self.data["options"]],
                             columns=list(OPTION_FIELDS))
        return with_dtypes(frame, self.data["currency"],
                           categories={"name": self.option_names, "kind": None, "gpu": None},
                           integers=INTEGER_OPTION_FIELDS)

    @property
    def break_even(self) -> pd.DataFrame:
        """One row per (own option, other option) pair: ``own`` and ``versus`` categories of
        the options in file order; ``months`` is a break-even time, fractional [months];
        ``attrs["currency"]``."""
        frame = pd.DataFrame(self.data["break_even"], columns=list(BREAK_EVEN_FIELDS))
        names = self.option_names
        return with_dtypes(frame, self.data["currency"],
                           categories={"own": names, "versus": names})

    @property
    def plot(self) -> Any:
        """The report's charts as matplotlib figures: ``result.plot.cumulative()``,
        ``.cost_vs_usage()``, ``.breakdown()``, ``.tornado()`` and ``.ranking()`` (see
        :class:`planner.render.plots.ResultPlots`)."""
        return display.show("result_plots", self)

    def _repr_html_(self) -> str:
        """Jupyter's view: the title, the answer, the options table and the ranking chart."""
        return display.show("result_html", self)

    def __repr__(self) -> str:
        data = self.data
        count = len(data["options"])
        cheapest = data.get("cheapest")
        answer = f"cheapest {cheapest!r}" if cheapest is not None else "none feasible"
        return (f"<Result {data['title']!r}: {count} option{'' if count == 1 else 's'}, "
                f"{answer}, {data['horizon_months']} months, {data['currency']}>")

    @property
    def cheapest(self) -> str | None:
        return self.data["cheapest"]

    @property
    def uncertainty(self) -> UncertaintyFrames | None:
        """SPEC §7's figures as DataFrames (None when the plan has no ``uncertainty``)."""
        block = self.data.get("uncertainty")
        return None if block is None else UncertaintyFrames.of(
            {**block, "currency": self.data["currency"]})


@dataclass(frozen=True)
class UncertaintyFrames:
    """The figures of a plan evaluated on draws of its uncertain inputs (SPEC §7).

    ``options``: one row per option: ``name``, ``cheapest_share``, ``feasible_share``, then
    ``present_value_mean``, ``present_value_p5``, ``…_p50``, ``…_p95`` and the same for
    ``total_cost`` [currency] (NaN over no feasible draw). ``break_even``: one row per pair of
    the plan's break-even: ``own``, ``versus``, ``pays_off_share``, ``months_p5``,
    ``months_p50``, ``months_p95`` (NaN where it never pays off). ``samples`` and ``seed`` as
    in the file.
    """

    samples: int
    seed: int
    options: pd.DataFrame
    break_even: pd.DataFrame

    @classmethod
    def of(cls, block: dict[str, Any]) -> UncertaintyFrames:
        rows = []
        for row in block["options"]:
            flat = {"name": row["name"], "cheapest_share": block["cheapest_share"][row["name"]],
                    "feasible_share": row["feasible_share"]}
            for figure in ("present_value", "total_cost"):
                stats = row[figure] or {}
                for stat in ("mean", "p5", "p50", "p95"):
                    flat[f"{figure}_{stat}"] = stats.get(stat, np.nan)
            rows.append(flat)
        pairs = [{"own": p["own"], "versus": p["versus"], "pays_off_share": p["pays_off_share"],
                  **{f"months_{k}": (p["months"] or {}).get(k, np.nan)
                     for k in ("p5", "p50", "p95")}} for p in block["break_even"]]
        names = [row["name"] for row in block["options"]]
        currency = block.get("currency", "")
        return cls(block["samples"], block["seed"],
                   with_dtypes(pd.DataFrame(rows), currency, categories={"name": names}),
                   with_dtypes(pd.DataFrame(pairs, columns=[
                       "own", "versus", "pays_off_share", "months_p5", "months_p50",
                       "months_p95"]), currency, categories={"own": names, "versus": names}))


def _in_english(row: dict[str, Any]) -> dict[str, Any]:
    """An option row with its messages rendered in English."""
    row = dict(row)
    for key in MESSAGE_FIELDS:
        if row.get(key) is not None:
            row[key] = [render(message, "en") for message in row[key]]
    return row
