"""The plain-text formats: JSON (SPEC §2), CSV (the options table) and Markdown."""

from __future__ import annotations

import csv
import datetime
import io
import json
from typing import TYPE_CHECKING, Any

from planner import fmt
from planner.report import content
from planner.result import OPTION_FIELDS

if TYPE_CHECKING:
    from planner.result import Result


def render_json(result: Result) -> str:
    """The JSON object of SPEC §2; NaN is never written (it would not be JSON)."""
    return json.dumps(result.to_dict(), indent=2, allow_nan=False, ensure_ascii=False) + "\n"


def _csv_value(value: Any) -> str:
    if fmt.is_missing(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    return str(value)


def csv_columns(result: Result) -> list[str]:
    """The CSV's columns: the scalar fields of SPEC §2 in its order, then any added ones."""
    columns = [name for name in OPTION_FIELDS if name != "monthly_cost"]
    for row in result.data["options"]:
        for key, value in row.items():
            if key not in columns and key != "monthly_cost" and not isinstance(value, dict):
                columns.append(key)
    return [*columns, "currency"]


def render_csv(result: Result) -> str:
    """One row per option, in file order: every scalar field of SPEC §2 and the currency.

    ``monthly_cost`` is left out; ``reasons`` and ``warnings`` are joined with "; ". Money is
    unrounded, in the ``currency`` column's currency; a null is an empty cell. The break-even
    table is not in the CSV: it is in the JSON, Markdown, HTML and PDF reports.
    """
    columns = csv_columns(result)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in result.data["options"]:
        values = dict(row, currency=result.data["currency"])
        writer.writerow([_csv_value(values.get(column)) for column in columns])
    return buffer.getvalue()


def _cell(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows: list[list[str]], numeric: set[int]) -> list[str]:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |",
             "|" + "|".join("---:" if i in numeric else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(result: Result, date: datetime.date) -> str:
    """Title, the recommendation, then the options, break-even and assumptions tables."""
    data = result.data
    meta = [date.isoformat(), f"{data['horizon_months']}-month horizon",
            f"money in {data['currency']}"]
    if data["discount_rate"]:
        meta[-1] += f", discounted at {fmt.percent(data['discount_rate'])} a year"
    if data.get("catalog_as_of"):
        meta.append(f"catalog data as of {data['catalog_as_of']}")
    lines = [f"# {_cell(data['title'])}", "", " · ".join(meta), "",
             content.recommendation(result), ""]
    if result.inputs:
        lines += [f"- {_cell(label)}: {_cell(value)}" for label, value in result.inputs] + [""]

    lines += ["## Options compared", ""]
    rows = []
    for row in content.option_rows(result):
        name = row.name + (" (cheapest)" if row.cheapest else "")
        feasible = "yes" if row.feasible else "no: " + "; ".join(row.reasons)
        rows.append([name, row.kind, row.gpu, feasible, row.total_cost, row.present_value,
                     row.cost_per_gpu_hour, row.gpu_hours_per_month, row.capacity,
                     row.residual_value])
    lines += _table(["Option", "Kind", "GPU", "Feasible", "Total cost", "Present value",
                     "Per GPU-hour", "GPU-hours / month", "Capacity / month", "Residual value"],
                    rows, numeric={4, 5, 6, 7, 8, 9})
    lines.append("")

    notes = content.warnings(result, date)
    if notes:
        lines += ["## Warnings", ""] + [f"- {_cell(n)}" for n in notes] + [""]

    break_even = content.break_even_rows(result)
    if break_even:
        lines += ["## When buying pays off", ""]
        lines += _table(
            ["Own", "Against", "Pays off after", "Busy system-hours until then",
             "Break-even usage (GPU-hours / month)"],
            [[r["own"], r["versus"], r["months"], r["system_hours"],
              r["usage"] + (f" ({r['direction']})" if r["direction"] else "")]
             for r in break_even],
            numeric={2, 3, 4})
        lines += ["", ("Pays off after: cumulative cost, residual value not counted. "
                       "Break-even usage: month-1 demand in reference GPU-hours at which both "
                       "cost the same in present value."), ""]

    lines += ["## Assumptions", ""]
    assumptions = content.assumption_rows(result)
    if assumptions:
        lines += _table(["Item", "Value", "As of", "Source"],
                        [[r["item"], r["value"], r["as_of"], r["source"]] for r in assumptions],
                        numeric=set())
        lines.append("")
    else:
        lines += ["No assumptions were recorded.", ""]
    if data.get("catalog_as_of"):
        lines += [f"The oldest catalog figures used date from {data['catalog_as_of']}.", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
