"""The plain formats: JSON (SPEC §2), CSV (the options table), ZIP (every table as CSV) and
Markdown (every table, aligned).

CSV files are UTF-8 without a byte-order mark, comma-separated, one line per row ending in
"\\n", with a header row of field names. Figures are unrounded (``repr`` of the float), in the
plan's currency; a missing figure (null) is an empty cell, a boolean ``true``/``false``.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import unicodedata
import zipfile
from typing import TYPE_CHECKING, Any

from planner.messages import Message
from planner.render import content, fmt, i18n, tables
from planner.render.i18n import t

if TYPE_CHECKING:
    from planner.result import Result


def render_json(result: Result, date: datetime.date | None = None) -> str:
    """The JSON object of SPEC §2, its warnings those at ``date`` (default: as
    :meth:`Result.to_dict`); NaN is never written (it would not be JSON)."""
    return json.dumps(result.to_dict(date), indent=2, allow_nan=False,
                      ensure_ascii=False) + "\n"


# -- CSV ----------------------------------------------------------------------------------------


def _csv_value(value: Any) -> str:
    if fmt.is_missing(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    return str(value)


def table_csv(table: tables.Table, currency: str) -> str:
    """One table as CSV: a header of column keys (and ``currency`` last when the table holds
    money), then its rows, each ending in "\\n".

    The csv module quotes a cell holding a character of its line terminator: the rows are
    written with "\\r\\n" and then ended in "\\n", so that a cell with a bare "\\r" is quoted
    too (with "\\n" alone it would not be, and split the row in a reader)."""
    written: list[str] = []
    writer = csv.writer(_Rows(written), lineterminator="\r\n")
    header = [c.key for c in table.columns]
    writer.writerow([*header, "currency"] if table.currency_column else header)
    for row in table.rows:
        cells = [_csv_value(v) for v in row]
        writer.writerow([*cells, currency] if table.currency_column else cells)
    return "".join(row[:-2] + "\n" for row in written)


class _Rows:
    """A file for :func:`csv.writer` that keeps what it writes in ``rows``: the writer writes
    each row whole, in one call."""

    def __init__(self, rows: list[str]) -> None:
        self.write = rows.append


def render_csv(result: Result) -> str:
    """One row per option, in file order: every scalar field of SPEC §2 and the currency.

    ``monthly_cost`` is left out; ``reasons`` and ``warnings`` are joined with "; ". Money is
    unrounded, in the ``currency`` column's currency; a null is an empty cell. The other tables
    are in the ZIP format (:func:`render_zip`), one CSV file each.
    """
    return table_csv(tables.options_table(result), result.data["currency"])


def render_zip(result: Result, date: datetime.date) -> bytes:
    """Every table as a CSV file in one ZIP archive: ``summary.csv`` (title, date,
    recommendation, key inputs, warnings), then ``options.csv`` (the same bytes as
    ``--format csv``), ``monthly.csv``, ``monthly_long.csv``, ``breakdown.csv``,
    ``cash_flow_by_year.csv``, ``break_even.csv``, ``sensitivity.csv``, ``cost_vs_usage.csv``
    and ``assumptions.csv``.

    Reproducible: every entry is dated ``date`` at midnight, with fixed attributes, so the same
    result and date give the same bytes.
    """
    currency = result.data["currency"]
    files = [("summary.csv", table_csv(tables.summary_table(result, date), currency))]
    files += [(f"{t.name}.csv", table_csv(t, currency)) for t in tables.tables(result)]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files:
            archive.writestr(fixed_zipinfo(name, date), text.encode("utf-8"))
    return buffer.getvalue()


def fixed_zipinfo(name: str, date: datetime.date) -> zipfile.ZipInfo:
    """A ZIP entry header that depends on nothing but ``name`` and ``date``: the date at
    midnight (1980-01-01 at the earliest, the format's first day), a regular file readable by
    all, deflated, made on "Unix" whatever the platform."""
    stamp = max(date, datetime.date(1980, 1, 1))
    info = zipfile.ZipInfo(name, date_time=(stamp.year, stamp.month, stamp.day, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3
    info.create_version = 20
    info.extract_version = 20
    info.external_attr = 0o100644 << 16
    return info


# -- Markdown -----------------------------------------------------------------------------------


def _cell(text: Any) -> str:
    """A Markdown table cell or line: a message in the report's language, a backslash, a bar
    and a line break escaped."""
    value = i18n.text(text) if isinstance(text, Message) else str(text)
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _width(text: str) -> int:
    """Columns ``text`` takes in a fixed-width font: wide East Asian characters take two,
    combining marks none."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


def markdown_table(header: list[str], rows: list[list[str]], numeric: set[int]) -> list[str]:
    """A Markdown table whose columns line up in the source: numeric columns right-aligned."""
    cells = [[_cell(h) for h in header]] + [[_cell(c) for c in row] for row in rows]
    widths = [max(3, *(_width(line[i]) for line in cells)) for i in range(len(header))]

    def line(values: list[str]) -> str:
        padded = []
        for i, text in enumerate(values):
            gap = " " * (widths[i] - _width(text))
            padded.append(gap + text if i in numeric else text + gap)
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join("-" * (widths[i] + 1) + ":" if i in numeric else "-" * (widths[i] + 2)
                          for i in range(len(header))) + "|"
    return [line(cells[0]), rule] + [line(values) for values in cells[1:]]


def _price(value: Any, currency: str) -> str:
    """A price per unit: cents from 1 up, up to four decimals below ("$0.1600" reads "$0.16")."""
    if fmt.is_missing(value):
        return ""
    value = float(value)
    if abs(value) >= 1 or value == 0:
        return fmt.money(value, currency, decimals=2)
    text = fmt.money(value, currency, decimals=4)
    while text.endswith("0") and len(text.rsplit(".", 1)[-1]) > 2:
        text = text[:-1]
    return text


def _quantity(value: Any) -> str:
    return "" if fmt.is_missing(value) else fmt.figure(value, 2)


def _months(value: Any) -> str:
    return fmt.break_even_months(value)


def _breakdown_lines(result: Result) -> list[str]:
    """What each option's costs are made of: quantity × price per component (one table per
    option), else the component totals side by side."""
    data = result.data
    currency = data["currency"]
    table = tables.breakdown_table(result)
    lines = [f"## {t('md.h.costs')}", ""]
    if table.rows:
        by_name = {r["name"]: r for r in data["options"]}
        names = [r["name"] for r in content.ranked_options(result)
                 if r["name"] in set(table.column("option"))]
        for name in names:
            rows = []
            for option, component, quantity, unit, price, cost in table.rows:
                if option != name:
                    continue
                rows.append([_component(str(component)), _quantity(quantity), unit or "",
                             _price(price, currency), fmt.money(cost, currency, decimals=0)])
            rows.append([t("md.total"), "", "", "",
                         fmt.money(by_name[name]["total_cost"], currency, decimals=0)])
            lines += [f"### {_cell(name)}", ""]
            lines += markdown_table([t("md.col.component"), t("costs.quantity"), t("md.col.unit"),
                                     t("md.col.price_per_unit"), t("costs.cost")],
                                    rows, numeric={1, 3, 4})
            lines.append("")
        return lines
    totals = content.component_totals(result)
    if not totals["options"]:
        return []
    rows = [[component, *values] for component, values in totals["rows"]]
    rows.append([t("md.residual"), *totals["residual"]])
    rows.append([t("md.total"), *totals["total"]])
    lines += markdown_table([t("md.col.component"), *totals["options"]], rows,
                            numeric=set(range(1, len(totals["options"]) + 1)))
    return lines + [""]


def _component(component: str) -> str:
    """A cost component's name; the residual value is one (a negative cost), not "less" one."""
    return t("md.residual") if component == "residual value" else content.component_label(component)


def _cash_flow_lines(result: Result) -> list[str]:
    table = tables.cash_flow_table(result)
    if not table.rows:
        return []
    currency = result.data["currency"]
    rank = [r["name"] for r in content.ranked_options(result)]
    rows = [[row[0], *[fmt.money(v, currency, decimals=0) for v in row[1:]]]
            for row in sorted(table.rows, key=lambda row: rank.index(row[0]))]
    lines = [f"## {t('md.h.cash')}", ""]
    lines += markdown_table([c.label for c in table.columns], rows,
                            numeric=set(range(1, len(table.columns))))
    return lines + ["", t("md.cash.note"), ""]


def _break_even_lines(result: Result) -> list[str]:
    data = result.data
    pairs = data.get("break_even") or []
    if not pairs:
        return []
    horizon = data["horizon_months"]
    lines = [f"## {t('h.break_even')}", ""]
    owns = list(dict.fromkeys(p["own"] for p in pairs))
    versus = [r["name"] for r in data["options"]
              if any(p["versus"] == r["name"] for p in pairs)]
    months = {(p["own"], p["versus"]): p["months"] for p in pairs}
    matrix = []
    for own in owns:
        cells = [own]
        for other in versus:
            if (own, other) not in months:
                cells.append(fmt.MISSING)
            elif fmt.is_missing(months[(own, other)]):
                cells.append(t("value.never"))
            else:
                cells.append(fmt.number(months[(own, other)], 1))
        matrix.append(cells)
    lines += markdown_table([t("md.be.corner"), *versus], matrix,
                            numeric=set(range(1, len(versus) + 1)))
    lines += ["", t("md.be.matrix_note", never=t("value.never"), months=horizon), ""]
    lines += markdown_table(
        [t("md.col.own"), t("md.col.against"), t("md.col.pays_off_after"),
         t("md.col.busy_hours"), t("md.col.break_even_usage")],
        [[r["own"], r["versus"], r["months"], r["system_hours"],
          r["usage"] + (f" ({r['direction']})" if r["direction"] else "")]
         for r in content.break_even_rows(result)],
        numeric={2, 3, 4})
    lines += ["", t("md.be.pairs_note"), ""]
    return lines


def _sensitivity_lines(result: Result) -> list[str]:
    frame = result.sensitivity
    if frame is None or frame.empty:
        return []
    pair = frame.attrs.get("pair")
    records = frame.to_dict("records")
    low, high = float(records[0]["low"]), float(records[0]["high"])
    down, up = f"−{fmt.percent(1 - low)}", f"+{fmt.percent(high - 1)}"
    base = content.option_name(records[0]["cheapest"])

    def cheapest(value: Any) -> str:
        name = content.option_name(value)
        text = fmt.MISSING if name is None else name
        return f"**{text}**" if name != base else text

    lines = [f"## {t('h.sensitivity')}", ""]
    header = [t("sens.input")]
    if pair:
        header += [t("md.sens.pays_off_at", change=down), t("md.sens.pays_off_at", change=up)]
    header += [t("md.sens.cheapest_at", change=down), t("md.sens.cheapest_at", change=up)]
    rows = []
    for r in records:
        cells = [r["input"]]
        if pair:
            cells += [_months(r["months_low"]), _months(r["months_high"])]
        cells += [cheapest(r["cheapest_low"]), cheapest(r["cheapest_high"])]
        rows.append(cells)
    lines += markdown_table(header, rows, numeric={1, 2} if pair else set())
    moved = {"down": fmt.percent(1 - low), "up": fmt.percent(high - 1),
             "cheapest": base or fmt.MISSING}
    if pair:
        text = t("md.sens.note_pair", own=pair[0], versus=pair[1],
                 months=_months(records[0]["months"]), **moved)
    else:
        text = t("md.sens.note", **moved)
    return lines + ["", text, ""]


def _mix_lines(result: Result) -> list[str]:
    """SPEC §6's best mix: the sentences, the nearest alternatives, the rent-then-buy rule
    ([] without a mix)."""
    section = content.mix_section(result)
    if section is None:
        return []
    lines = [f"## {t('md.h.mix')}", "", f"**{_cell(section['words'])}**", "",
             _cell(section["summary"]), ""]
    lines += markdown_table([t("md.col.alternative"), t("col.pv"), t("md.col.against_best")],
                            [[r["change"], r["pv"], r["versus"]]
                             for r in section["alternatives"]], numeric={1, 2})
    lines.append("")
    for rule in section["rules"]:
        lines += [_cell(rule), ""]
    return lines


def _uncertainty_lines(result: Result) -> list[str]:
    """SPEC §7's figures: the sentence, each option's shares and percentiles, each pair's
    pay-off share and months, and the inputs that drive the spread ([] without draws)."""
    block = result.data.get("uncertainty")
    if not block:
        return []
    currency = result.data["currency"]
    lines = [f"## {t('md.h.uncertainty')}", "", content.uncertainty_sentence(result), ""]
    rows = []
    for row in block["options"]:
        pv = row["present_value"] or {}
        rows.append([row["name"], fmt.percent(block["cheapest_share"][row["name"]]),
                     fmt.percent(row["feasible_share"]),
                     *[fmt.money(pv.get(k), currency) for k in ("p5", "p50", "p95")]])
    lines += markdown_table([t("col.option"), t("md.col.cheapest_in"), t("md.col.feasible_in"),
                             t("md.col.pv_p5"), "P50", "P95"], rows, numeric={1, 2, 3, 4, 5})
    lines.append("")
    if block["break_even"]:
        rows = [[p["own"], p["versus"], fmt.percent(p["pays_off_share"]),
                 *[_months((p["months"] or {}).get(k)) for k in ("p5", "p50", "p95")]]
                for p in block["break_even"]]
        lines += markdown_table([t("md.col.own"), t("md.col.against"), t("md.col.pays_off_in"),
                                 t("md.col.months_p5"), "P50", "P95"],
                                rows, numeric={2, 3, 4, 5})
        lines.append("")
    drivers = block.get("drivers")
    if drivers:
        lines += [t("md.drivers", own=drivers["own"], versus=drivers["versus"]), ""]
        lines += markdown_table([t("sens.input"), t("md.col.share")],
                                [[d["input"], fmt.percent(d["first_order"])]
                                 for d in drivers["inputs"]], numeric={1})
        lines.append("")
    return lines


def render_markdown(result: Result, date: datetime.date, lang: str = "en") -> str:
    """Title, the recommendation and key inputs, then every table: options, warnings, cost
    breakdown per option, money by year, break-even (matrix and pairs), sensitivity and
    assumptions, in ``lang`` (``"en"`` or ``"zh"``: plain text needs no font, so Chinese is
    never replaced by English here). Columns line up in the source; figures are rounded for
    reading (the CSV, ZIP and XLSX formats carry them unrounded)."""
    with i18n.language(lang):
        return _markdown(result, date)


def _markdown(result: Result, date: datetime.date) -> str:
    data = result.data
    meta = [date.isoformat(), t("meta.horizon", months=data["horizon_months"]),
            t("meta.money", currency=data["currency"])]
    if data["discount_rate"]:
        meta[-1] += t("meta.discounted", rate=fmt.percent(data["discount_rate"]))
    if data.get("prices_as_of"):
        meta.append(t("meta.prices", date=data["prices_as_of"]))
    elif data.get("catalog_as_of"):
        meta.append(t("meta.catalog", date=data["catalog_as_of"]))
    lines = [f"# {_cell(data['title'])}", "", " · ".join(meta), "",
             content.recommendation(result), ""]
    if result.inputs:
        lines += [f"- {_cell(label)}{t('colon')}{_cell(value)}"
                  for label, value in content.inputs(result)] + [""]

    lines += [f"## {t('h.options')}", ""]
    rows = []
    for row in content.option_rows(result):
        name = row.name + (f" ({t('badge.cheapest')})" if row.cheapest else "")
        feasible = t("yes") if row.feasible else t("no") + t("colon") + "; ".join(row.reasons)
        rows.append([name, row.kind, row.gpu, feasible, row.total_cost, row.present_value,
                     row.cost_per_gpu_hour, row.gpu_hours_per_month, row.capacity,
                     row.served, row.residual_value])
    lines += markdown_table([t("col.option"), t("col.kind"), "GPU", t("col.feasible"),
                             t("col.total"), t("col.pv"), t("md.col.per_hour"),
                             t("col.gpu_hours"), t("col.capacity"), t("col.served"),
                             t("col.residual")],
                            rows, numeric={4, 5, 6, 7, 8, 9, 10})
    lines.append("")

    notes = content.warnings(result, date)
    if notes:
        lines += [f"## {t('h.warnings')}", ""] + [f"- {_cell(n)}" for n in notes] + [""]

    lines += _breakdown_lines(result)
    lines += _cash_flow_lines(result)
    lines += _break_even_lines(result)
    lines += _sensitivity_lines(result)
    lines += _uncertainty_lines(result)
    lines += _mix_lines(result)

    lines += [f"## {t('h.assumptions')}", ""]
    assumptions = content.assumption_rows(result)
    if assumptions:
        lines += markdown_table(
            [t("col.item"), t("col.value"), t("col.as_of"), t("col.source")],
            [[r["item"], r["value"], r["as_of"], r["source"]] for r in assumptions],
            numeric=set())
        lines.append("")
    else:
        lines += [t("md.no_assumptions"), ""]
    if data.get("prices_as_of"):
        lines += [t("md.oldest_prices", date=data["prices_as_of"]), ""]
    if data.get("catalog_as_of"):
        lines += [t("md.oldest_catalog", date=data["catalog_as_of"]), ""]
    return "\n".join(lines).rstrip("\n") + "\n"
