"""Every table of a result as plain rows of raw values, for the CSV, ZIP and XLSX formats.

A :class:`Table` holds unformatted values (``None`` for a missing figure, never NaN), so each
format decides how to write them: the CSV files write them unrounded, the workbook writes
numbers as numbers with a number format from the column's ``kind``. The tables, in order:

======================  ==========================================================================
``options``             one row per option, file order: the scalar fields of SPEC §2 (the
                        ``--format csv`` table)
``monthly``             one row per option and cost component, one column per month 0..T (wide)
``monthly_long``        ``result.monthly`` as it is: option, month, component, cost (long)
``breakdown``           ``result.breakdown``: option, component, quantity, unit, price, cost
``cash_flow_by_year``   money paid per option today (month 0) and in each 12 months
``break_even``          one row per (own, versus) pair: SPEC §5.6 figures, and on which side of
                        the break-even usage buying is cheaper
``sensitivity``         each key input moved down and up: break-even month of the headline pair
                        and the cheapest option
``cost_vs_usage``       present value of every option at each month-1 usage level (wide)
``assumptions``         what the figures rest on: item, value, as_of, source
``mix``                 with a ``mix`` (SPEC §6): the best mix, the best single option, the
                        nearest alternatives and the rent-then-buy rule
``mix_candidates``      with a ``mix``: every candidate searched (up to 100,000 rows)
======================  ==========================================================================

:func:`summary` gives the report's head (title, date, recommendation, key inputs, warnings) as
label/value pairs, the first sheet of the workbook and ``summary.csv`` of the ZIP.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass, field
from numbers import Real
from typing import TYPE_CHECKING, Any

import numpy as np

from planner.messages import Message
from planner.render import content, i18n
from planner.render.i18n import t
from planner.result import OPTION_FIELDS

if TYPE_CHECKING:
    from planner.result import Result

#: Column kinds, which say how a workbook formats a column's numbers.
KINDS = ("text", "bool", "integer", "number", "money", "price", "months", "fraction",
         "factor", "date")


@dataclass(frozen=True)
class Column:
    """One column: ``key`` heads the CSV column, ``label`` the workbook's and Markdown's."""

    key: str
    label: str
    kind: str = "text"
    #: Decimals shown for ``number`` columns in the workbook (the value is never rounded).
    decimals: int = 0


@dataclass
class Table:
    """A table of raw values: ``rows`` are lists in the order of ``columns``.

    ``name`` is the CSV file's stem, ``title`` the workbook sheet's name (at most 31
    characters). ``currency_column``: the CSV files add a last column ``currency`` (the plan's
    currency) when the table holds money; the workbook shows the currency in its number format
    instead. ``frozen`` is the number of leading columns kept in view when scrolling sideways.
    """

    name: str
    title: str
    columns: list[Column]
    rows: list[list[Any]] = field(default_factory=list)
    currency_column: bool = False
    frozen: int = 0

    def column(self, key: str) -> list[Any]:
        """The values of the column ``key``."""
        index = [c.key for c in self.columns].index(key)
        return [row[index] for row in self.rows]


def clean(value: Any) -> Any:
    """A cell value: ``None`` for a missing figure (None, NaN) or empty text, numpy scalars as
    Python ones, a message as its text in the current language (English unless the workbook
    is written in another: :func:`planner.render.i18n.language`)."""
    if isinstance(value, Message):
        value = i18n.text(value)
    if value is None or (isinstance(value, str) and value == ""):
        return None
    if hasattr(value, "item") and not isinstance(value, (list, tuple, str)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, Real) and not isinstance(value, (bool, int)):
        value = float(value)
    return value


# -- the options table (the --format csv table) ----------------------------------------------

_OPTION_KINDS = {
    "feasible": ("bool", 0), "gpus": ("integer", 0),
    "gpu_hours_per_month": ("number", 1), "total_cost": ("money", 0),
    "present_value": ("money", 0), "residual_value": ("money", 0),
    "cost_per_gpu_hour": ("price", 0), "energy_kwh": ("number", 0),
    "carbon_kg": ("number", 0), "capacity_gpu_hours_per_month": ("number", 1),
    "unmet_gpu_hours_per_month": ("number", 1), "first_unmet_month": ("integer", 0),
    "sessions_per_week": ("number", 2), "job_wait_days": ("number", 1),
    "served_share": ("fraction", 0), "passed_cost": ("money", 0),
    "passed_cost_share": ("fraction", 0),
    "scaling_efficiency": ("fraction", 0), "job_days": ("number", 2),
}


def _label(key: str) -> str:
    """An option field's column head (``tbl.field.<key>``; a field added without one reads as
    its key in words)."""
    text = key.replace("_", " ")
    return i18n.t_or(f"tbl.field.{key}", text[:1].upper() + text[1:])


def option_columns(result: Result) -> list[str]:
    """The options table's fields: the scalar fields of SPEC §2 in its order, then any added
    ones (the CSV adds ``currency`` last)."""
    columns = [name for name in OPTION_FIELDS if name != "monthly_cost"]
    for row in result.data["options"]:
        for key, value in row.items():
            if key not in columns and key != "monthly_cost" and not isinstance(value, dict):
                columns.append(key)
    return columns


def options_table(result: Result) -> Table:
    keys = option_columns(result)
    columns = []
    for key in keys:
        kind, decimals = _OPTION_KINDS.get(key, ("text", 0))
        if key not in _OPTION_KINDS:
            sample = [r.get(key) for r in result.data["options"] if r.get(key) is not None]
            if sample and all(isinstance(v, Real) and not isinstance(v, bool) for v in sample):
                kind, decimals = "number", 2
        columns.append(Column(key, _label(key), kind, decimals))
    rows = []
    for row in result.data["options"]:
        cells = []
        for key in keys:
            value = row.get(key)
            if isinstance(value, (list, tuple)):
                value = "; ".join(i18n.text(v) for v in value) or None
            cells.append(clean(value))
        rows.append(cells)
    return Table("options", t("tbl.sheet.options"), columns, rows, currency_column=True,
                 frozen=1)


# -- monthly costs -----------------------------------------------------------------------------


def _option_order(result: Result) -> list[str]:
    return [row["name"] for row in result.data["options"]]


def _component_rank(component: str) -> tuple[int, str]:
    order = content.COMPONENTS
    return (order.index(component), "") if component in order else (len(order), component)


def _ordered_monthly(result: Result):
    """``result.monthly`` in file order of the options, then component order (components the
    report does not know last, by name), then month; rows alike keep their order."""
    frame = result.monthly
    if frame is None or frame.empty:
        return None
    names = {name: i for i, name in enumerate(_option_order(result))}
    options = [names.get(name, len(names)) for name in frame["option"].astype(object)]
    ranks = [_component_rank(str(c)) for c in frame["component"].astype(object)]
    unknown = {name: i for i, name in enumerate(sorted({name for _, name in ranks}))}
    order = np.lexsort((frame["month"].to_numpy(), [unknown[name] for _, name in ranks],
                        [rank for rank, _ in ranks], options))  # last key first; stable
    return frame.iloc[order]


def monthly_table(result: Result) -> Table:
    """Wide: one row per option and component (as in ``result.monthly``), a column per month."""
    horizon = int(result.data["horizon_months"])
    columns = [Column("option", t("tbl.col.option")), Column("component", t("tbl.col.component"))]
    columns += [Column(f"month_{m}", t("tbl.col.month_n", m=m), "money")
                for m in range(horizon + 1)]
    by_row: dict[tuple[str, str], list] = {}  # in the frame's order; a month not given: None
    frame = _ordered_monthly(result)
    if frame is not None:
        for option, component, month, cost in zip(frame["option"], frame["component"],
                                                  frame["month"], frame["cost"]):
            key, m = (str(option), str(component)), int(month)
            if key not in by_row:
                by_row[key] = [None] * (horizon + 1)
            if 0 <= m <= horizon:
                by_row[key][m] = clean(cost)
    rows = [[option, component, *costs] for (option, component), costs in by_row.items()]
    return Table("monthly", t("tbl.sheet.monthly"), columns, rows, currency_column=True,
                 frozen=2)


def monthly_long_table(result: Result) -> Table:
    """Long: ``result.monthly`` as it is, one row per option, month and component."""
    columns = [Column("option", t("tbl.col.option")),
               Column("month", t("tbl.col.month"), "integer"),
               Column("component", t("tbl.col.component")),
               Column("cost", t("tbl.col.cost"), "money")]
    rows = []
    frame = _ordered_monthly(result)
    if frame is not None:
        for option, month, component, cost in zip(frame["option"], frame["month"],
                                                  frame["component"], frame["cost"]):
            rows.append([str(option), int(month), str(component), clean(cost)])
    return Table("monthly_long", t("tbl.sheet.monthly_long"), columns, rows, currency_column=True,
                 frozen=1)


# -- breakdown and cash flow -------------------------------------------------------------------

BREAKDOWN_COLUMNS = ("option", "component", "quantity", "unit", "price", "cost")


def breakdown_table(result: Result) -> Table:
    """``result.breakdown``: what each feasible option's costs are made of over the horizon."""
    columns = [Column("option", t("tbl.col.option")), Column("component", t("tbl.col.component")),
               Column("quantity", t("tbl.col.quantity"), "number", 2),
               Column("unit", t("tbl.col.unit")),
               Column("price", t("tbl.col.price_per_unit"), "price"),
               Column("cost", t("tbl.col.cost"), "money")]
    rows = []
    frame = result.breakdown
    if frame is not None and not frame.empty:
        for record in frame.to_dict("records"):
            rows.append([clean(record.get(key)) for key in BREAKDOWN_COLUMNS])
    return Table("breakdown", t("tbl.sheet.breakdown"), columns, rows, currency_column=True,
                 frozen=2)


def cash_flow_table(result: Result) -> Table:
    """Money paid per option today and in each 12 months (the sums of ``monthly_cost``; the
    residual value is not a payment and is left out)."""
    periods = content.year_periods(int(result.data["horizon_months"]))
    columns = [Column("option", t("tbl.col.option"))]
    columns += [Column(p.key, p.label, "money") for p in periods]
    rows = []
    for row in result.data["options"]:
        flows = row.get("monthly_cost")
        if not row["feasible"] or not flows:
            continue
        rows.append([row["name"], *[clean(math.fsum(flows[p.first_month:p.last_month + 1]))
                                    for p in periods]])
    return Table("cash_flow_by_year", t("tbl.sheet.cash_flow_by_year"), columns, rows,
                 currency_column=True,
                 frozen=1)


# -- break-even, sensitivity, cost against usage, assumptions ----------------------------------


def break_even_table(result: Result) -> Table:
    columns = [Column("own", t("tbl.col.own")), Column("versus", t("tbl.col.against")),
               Column("months", t("tbl.col.pays_off_months"), "months"),
               Column("system_hours", t("tbl.col.busy_hours"), "number", 0),
               Column("gpu_hours_per_month", t("tbl.col.break_even_usage"), "number", 1),
               Column("buying_cheaper", t("tbl.col.buying_cheaper"))]
    rows = []
    for row in result.data.get("break_even") or []:
        side = result.buying_cheaper_side.get((row["own"], row["versus"]))
        rows.append([row["own"], row["versus"], clean(row["months"]),
                     clean(row["system_hours"]), clean(row["gpu_hours_per_month"]), side])
    return Table("break_even", t("tbl.sheet.break_even"), columns, rows, frozen=2)


SENSITIVITY_COLUMNS = ("input", "low", "high", "months", "months_low", "months_high",
                       "cheapest", "cheapest_low", "cheapest_high")


def sensitivity_table(result: Result) -> Table:
    """Each key input moved down (``low``, a factor) and up (``high``); ``months*`` are the
    break-even months of the pair ``own``/``versus`` (empty: never), ``cheapest*`` the
    cheapest option."""
    columns = [Column("input", t("tbl.col.input")), Column("low", t("tbl.col.low"), "factor"),
               Column("high", t("tbl.col.high"), "factor"),
               Column("months", t("tbl.col.break_even_months"), "months"),
               Column("months_low", t("tbl.col.break_even_low"), "months"),
               Column("months_high", t("tbl.col.break_even_high"), "months"),
               Column("cheapest", t("tbl.col.cheapest")),
               Column("cheapest_low", t("tbl.col.cheapest_low")),
               Column("cheapest_high", t("tbl.col.cheapest_high")),
               Column("own", t("tbl.col.break_even_of")), Column("versus", t("tbl.col.against"))]
    frame = result.sensitivity
    rows = []
    if frame is not None and not frame.empty:
        pair = frame.attrs.get("pair") or (None, None)
        for record in frame.to_dict("records"):
            rows.append([clean(record.get(key)) for key in SENSITIVITY_COLUMNS]
                        + [pair[0], pair[1]])
    return Table("sensitivity", t("tbl.sheet.sensitivity"), columns, rows, frozen=1)


def cost_vs_usage_table(result: Result) -> Table:
    """Wide: one row per month-1 usage level (reference GPU-hours), the present value of every
    option there (empty where the option is infeasible)."""
    names = _option_order(result)
    frame = result.cost_vs_usage
    columns = [Column("gpu_hours_per_month", t("tbl.col.usage"), "number", 1)]
    columns += [Column(f"present_value.{name}", name, "money") for name in names]
    rows = []
    if frame is not None and not frame.empty:
        levels: dict[float, dict[str, Any]] = {}
        for level, option, value in zip(frame["gpu_hours_per_month"], frame["option"],
                                        frame["present_value"]):
            levels.setdefault(float(level), {})[str(option)] = value
        for level in sorted(levels):
            rows.append([level, *[clean(levels[level].get(n)) for n in names]])
    return Table("cost_vs_usage", t("tbl.sheet.cost_vs_usage"), columns, rows, currency_column=True,
                 frozen=1)


def assumptions_table(result: Result) -> Table:
    """What the figures rest on; ``source`` empty and ``as_of`` empty for the user's inputs;
    ``kind``: price (dated, warned about when old) or reference (specifications);
    ``price_as_of``: a price's own date (its catalog row's ``as_of`` may be older or newer)."""
    columns = [Column("item", t("tbl.col.item")), Column("value", t("tbl.col.value")),
               Column("as_of", t("tbl.col.as_of")), Column("source", t("tbl.col.source")),
               Column("kind", t("tbl.col.kind")), Column("price_as_of", t("tbl.col.price_dated"))]
    rows = []
    for item in result.assumptions:
        value = clean(item.get("value"))
        rows.append([i18n.text(item.get("item", "")), value,
                     str(item["as_of"]) if item.get("as_of") else None,
                     i18n.text(item["source"]) if item.get("source") else None,
                     item.get("kind") or "reference",
                     str(item["price_as_of"]) if item.get("price_as_of") else None])
    return Table("assumptions", t("tbl.sheet.assumptions"), columns, rows, frozen=1)


_STATISTICS = (("mean", "mean"), ("p5", "P5"), ("p50", "P50"), ("p95", "P95"))


def uncertainty_table(result: Result) -> Table:
    """SPEC §7, per option: the share of draws in which it is the cheapest and in which it is
    feasible, and its present value and total cost over the feasible draws."""
    block = result.data["uncertainty"]
    columns = [Column("name", t("tbl.col.option")),
               Column("cheapest_share", t("tbl.col.cheapest_in"), "fraction"),
               Column("feasible_share", t("tbl.col.feasible_in"), "fraction")]
    for figure in ("present_value", "total_cost"):
        columns += [Column(f"{figure}_{key}", t("tbl.col.figure_statistic",
                                                 figure=t(f"tbl.field.{figure}"),
                                                 statistic=_statistic(name)), "money")
                    for key, name in _STATISTICS]
    rows = []
    for row in block["options"]:
        cells = [row["name"], block["cheapest_share"][row["name"]], row["feasible_share"]]
        for figure in ("present_value", "total_cost"):
            cells += [clean((row[figure] or {}).get(key)) for key, _ in _STATISTICS]
        rows.append(cells)
    return Table("uncertainty", t("tbl.sheet.uncertainty"), columns, rows, currency_column=True,
                 frozen=1)


def _statistic(name: str) -> str:
    """A statistic's name in a column head: "mean" in words, the percentiles as P5, P50, P95."""
    return t("tbl.stat.mean") if name == "mean" else name


def uncertainty_break_even_table(result: Result) -> Table:
    """SPEC §7, per break-even pair: the share of draws (both options feasible) in which
    buying pays off within the horizon, and the percentiles of its months."""
    columns = [Column("own", t("tbl.col.own")), Column("versus", t("tbl.col.against")),
               Column("pays_off_share", t("tbl.col.pays_off_in"), "fraction")]
    columns += [Column(f"months_{key}", t("tbl.col.months_statistic", statistic=name), "months")
                for key, name in _STATISTICS[1:]]
    rows = [[p["own"], p["versus"], clean(p["pays_off_share"]),
             *[clean((p["months"] or {}).get(key)) for key, _ in _STATISTICS[1:]]]
            for p in result.data["uncertainty"]["break_even"]]
    return Table("uncertainty_break_even", t("tbl.sheet.uncertainty_break_even"), columns, rows,
                 frozen=2)


def uncertainty_drivers_table(result: Result) -> Table:
    """Which inputs drive the spread of the headline pair's difference in present value: each
    input's first-order Sobol' index, the largest first."""
    drivers = result.data["uncertainty"].get("drivers")
    columns = [Column("input", t("tbl.col.input")),
               Column("first_order", t("tbl.col.variance_share"), "fraction"),
               Column("own", t("tbl.col.difference_of")), Column("versus", t("tbl.col.against"))]
    rows = [] if drivers is None else [[d["input"], d["first_order"], drivers["own"],
                                        drivers["versus"]] for d in drivers["inputs"]]
    return Table("uncertainty_drivers", t("tbl.sheet.uncertainty_drivers"), columns, rows,
                 frozen=1)


def tables(result: Result) -> list[Table]:
    """Every table of the result, in the order of the module's list (the uncertainty tables
    only for a plan with an ``uncertainty`` map)."""
    found = [options_table(result), monthly_table(result), monthly_long_table(result),
             breakdown_table(result), cash_flow_table(result), break_even_table(result),
             sensitivity_table(result), cost_vs_usage_table(result), assumptions_table(result)]
    if result.data.get("uncertainty"):
        found += [uncertainty_table(result), uncertainty_break_even_table(result),
                  uncertainty_drivers_table(result)]
    if getattr(result, "mix_result", None) is not None:
        found.append(mix_table(result))
        if len(result.mix_result.candidates) <= MAX_CANDIDATE_ROWS:
            found.append(mix_candidates_table(result))
    return found


#: The candidates table is written up to this many rows (a spreadsheet holds about a million).
MAX_CANDIDATE_ROWS = 100_000


def mix_table(result: Result) -> Table:
    """SPEC §6: the best mix (its words, present value and total, the best single option and
    the saving), then each nearest alternative and each rent-then-buy rule."""
    mix = result.mix_result
    columns = [Column("item", t("tbl.col.item")), Column("description", t("tbl.col.description")),
               Column("present_value", t("tbl.field.present_value"), "money"),
               Column("total_cost", t("tbl.field.total_cost"), "money"),
               Column("versus_best", t("tbl.col.against_best"), "money")]
    rows = [["best mix", mix.description(), clean(mix.present_value), clean(mix.total_cost),
             0.0]]
    if mix.single is not None:
        rows.append(["best single option", mix.single, clean(mix.single_present_value), None,
                     clean(mix.saving)])
    rows += [["alternative", row.change, clean(row.present_value), clean(row.total_cost),
              clean(row.versus_best)] for row in mix.alternatives.itertuples()]
    rows += [["rent-then-buy rule", sentence, clean(rule.rule_present_value), None,
              clean(rule.rule_present_value - rule.best_present_value)]
             for rule, sentence in zip(mix.buy_later.itertuples(), mix.buy_later_sentences())]
    return Table("mix", t("tbl.sheet.mix"), columns, rows, currency_column=True, frozen=1)


def mix_candidates_table(result: Result) -> Table:
    """SPEC §6: every candidate of the search: each own member's machines and purchase month,
    the committed instances per term (reserved clouds), present value and total cost."""
    frame = result.mix_result.candidates
    columns = []
    for key in frame.columns:
        if key in ("present_value", "total_cost"):
            columns.append(Column(key, t(f"tbl.field.{key}"), "money"))
        elif key == "feasible":
            columns.append(Column(key, t("tbl.field.feasible"), "bool"))
        else:
            columns.append(Column(key, key, "integer"))
    rows = [[clean(v) if c.kind == "money" else bool(v) if c.kind == "bool" else int(v)
             for c, v in zip(columns, values)] for values in frame.itertuples(index=False)]
    return Table("mix_candidates", t("tbl.sheet.mix_candidates"), columns, rows,
                 currency_column=True,
                 frozen=len(columns) - 3)


# -- summary ----------------------------------------------------------------------------------


def summary(result: Result, date: datetime.date) -> list[tuple[str, Any, str]]:
    """The report's head as (label, value, kind): title, date, recommendation, the plan's
    settings, the cheapest option's figures, the key inputs (already text) and the warnings."""
    data = result.data
    best = next((r for r in data["options"] if r["name"] == data.get("cheapest")), None)
    items: list[tuple[str, Any, str]] = [
        (t("tbl.sum.title"), data["title"], "text"),
        (t("tbl.sum.date"), date, "date"),
        (t("tbl.sum.recommendation"), content.recommendation(result), "text"),
        (t("tbl.sum.currency"), data["currency"], "text"),
        (t("tbl.sum.horizon"), data["horizon_months"], "integer"),
        (t("tbl.sum.hours"), data["hours_per_month"], "number"),
        (t("tbl.sum.discount"), data["discount_rate"], "fraction"),
        (t("tbl.sum.catalog_as_of"), data.get("catalog_as_of"), "text"),
        (t("tbl.sum.prices_as_of"), data.get("prices_as_of"), "text"),
        (t("tbl.sum.cheapest"), data.get("cheapest"), "text"),
    ]
    if best is not None:
        items += [(t("tbl.sum.cheapest_total"), clean(best["total_cost"]), "money"),
                  (t("tbl.sum.cheapest_pv"), clean(best["present_value"]), "money")]
    items += [(label, value, "text") for label, value in content.inputs(result)]
    for note in content.warnings(result, date):
        items.append((t("tbl.sum.warning"), note, "text"))
    return items


def summary_table(result: Result, date: datetime.date) -> Table:
    """:func:`summary` as a two-column table (``summary.csv`` of the ZIP)."""
    rows = []
    for label, value, kind in summary(result, date):
        if kind == "date" and isinstance(value, datetime.date):
            value = value.isoformat()
        rows.append([label, clean(value)])
    return Table("summary", t("tbl.sheet.summary"),
                 [Column("item", t("tbl.col.item")), Column("value", t("tbl.col.value"))], rows)
