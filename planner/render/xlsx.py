"""The workbook (XLSX): a Summary sheet, then one sheet per table of
:mod:`planner.render.tables`.

Every sheet has one header row (bold, frozen, with filter buttons) and then the table's rows.
Numbers are stored as numbers, unrounded, and shown with a number format: money in the plan's
currency with thousands separators (cents unless the currency has none), prices per unit with
up to four decimals, months with one decimal, fractions as percentages. A missing figure is an
empty cell. Columns are sized to their contents.

Reproducible: the same result and date give the same bytes. The workbook's created and
modified properties are the report date at midnight (UTC), and the ZIP entries are rewritten
with that date and fixed attributes (openpyxl would stamp the current time into both).
"""

from __future__ import annotations

import datetime
import io
import zipfile
from typing import TYPE_CHECKING, Any

from planner.render import fmt, i18n, tables
from planner.render.i18n import t
from planner.render.plain import fixed_zipinfo

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

    from planner.result import Result

#: Widest a column is made, in characters; longer text (sources, reasons) runs on.
MAX_WIDTH = 60
DATE_FORMAT = "yyyy-mm-dd"


def _affixes(currency: str) -> tuple[str, str, int]:
    """(prefix, suffix, decimals) of money in ``currency`` as :func:`planner.render.fmt.money` writes
    it: "$" and "" for USD, "CNY " for the yuan; no decimals for yen and won."""
    text = fmt.money(1.0, currency, decimals=0)
    at = text.index("1")
    decimals = 2 if any(c.isdigit() for c in fmt.money(1.25, currency, decimals=2)[at + 1:]) else 0
    return text[:at], text[at + 1:], decimals


def _quoted(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if text else ""


def money_format(currency: str, decimals: int | None = None) -> str:
    """An Excel number format for money in ``currency``: '"$"#,##0.00;-"$"#,##0.00'.

    ``decimals`` defaults to the currency's (2, or 0 for yen and won).
    """
    prefix, suffix, default = _affixes(currency)
    places = default if decimals is None else (min(decimals, default) if default == 0
                                                else decimals)
    number = "#,##0" + ("." + "0" * places if places else "")
    positive = f"{_quoted(prefix)}{number}{_quoted(suffix)}"
    return f"{positive};-{positive}"


def price_format(currency: str) -> str:
    """Prices per unit: cents, and up to two more decimals when they matter ("$3.6734")."""
    prefix, suffix, default = _affixes(currency)
    number = "#,##0.00##" if default else "#,##0.##"
    positive = f"{_quoted(prefix)}{number}{_quoted(suffix)}"
    return f"{positive};-{positive}"


def number_format(kind: str, decimals: int, currency: str) -> str | None:
    """The number format of a column kind (None: leave the cell's default)."""
    if kind == "money":
        return money_format(currency)
    if kind == "price":
        return price_format(currency)
    if kind == "months":
        return "#,##0.0"
    if kind == "number":
        return "#,##0" + ("." + "0" * decimals if decimals else "")
    if kind == "integer":
        return "0"
    if kind == "fraction":
        return "0.0%"
    if kind == "factor":
        return "0.00"
    if kind == "date":
        return DATE_FORMAT
    return None


def _shown_width(value: Any, kind: str, decimals: int, currency: str) -> int:
    """About how many characters ``value`` takes once formatted."""
    if value is None:
        return 0
    if isinstance(value, bool):
        return 5
    if isinstance(value, datetime.date):
        return 10
    if isinstance(value, (int, float)):
        if kind in ("money", "price"):
            prefix, suffix, places = _affixes(currency)
            places = 4 if kind == "price" else places
            return len(prefix) + len(suffix) + len(f"{value:,.{places}f}")
        if kind == "fraction":
            return len(f"{value * 100:.1f}%")
        places = {"months": 1, "number": decimals, "factor": 2}.get(kind, 0)
        return len(f"{value:,.{places}f}")
    return max((len(line) for line in str(value).splitlines()), default=0)


def _xml_text(text: str) -> str:
    """``text`` with the control characters XML cannot hold (legal in YAML and JSON names)
    replaced by U+FFFD."""
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", text)


def _cell_value(value: Any) -> Any:
    """``value`` as a cell holds it: text that XML can hold and that is never a formula (a
    leading "=" gets a space)."""
    if not isinstance(value, str):
        return value
    value = _xml_text(value)
    return " " + value if value.startswith("=") else value


def _write_table(sheet: Worksheet, table: tables.Table, currency: str) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    bold = Font(bold=True)
    fill = PatternFill("solid", fgColor="E8ECEF")
    numeric = {"money", "price", "months", "number", "integer", "fraction", "factor"}
    for j, column in enumerate(table.columns, start=1):
        cell = sheet.cell(row=1, column=j, value=_cell_value(column.label))
        cell.font = bold
        cell.fill = fill
        if column.kind in numeric:
            cell.alignment = Alignment(horizontal="right")
    formats = [number_format(c.kind, c.decimals, currency) for c in table.columns]
    for i, row in enumerate(table.rows, start=2):
        for j, value in enumerate(row, start=1):
            if value is None:
                continue
            cell = sheet.cell(row=i, column=j, value=_cell_value(value))
            if formats[j - 1] and isinstance(value, (int, float)) and not isinstance(value, bool):
                cell.number_format = formats[j - 1]
    for j, column in enumerate(table.columns, start=1):
        widest = max([len(column.label)] + [
            _shown_width(row[j - 1], column.kind, column.decimals, currency)
            for row in table.rows])
        sheet.column_dimensions[get_column_letter(j)].width = min(widest + 2, MAX_WIDTH)
    sheet.freeze_panes = sheet.cell(row=2, column=table.frozen + 1)
    if table.rows:
        last = get_column_letter(len(table.columns))
        sheet.auto_filter.ref = f"A1:{last}{len(table.rows) + 1}"


def _write_summary(sheet: Worksheet, result: Result, date: datetime.date) -> None:
    from openpyxl.styles import Alignment, Font

    currency = result.data["currency"]
    items = tables.summary(result, date)
    sheet.column_dimensions["A"].width = 28
    sheet.column_dimensions["B"].width = 100
    title = sheet.cell(row=1, column=1, value=_cell_value(result.data["title"]))
    title.font = Font(bold=True, size=14)
    row = 3
    for label, value, kind in items[1:]:  # the title is the sheet's heading, above
        sheet.cell(row=row, column=1, value=_cell_value(label)).font = Font(bold=True)
        if value is not None:
            cell = sheet.cell(row=row, column=2, value=_cell_value(value))
            form = number_format(kind, 0, currency)
            if form and not isinstance(value, str):
                cell.number_format = form
            cell.alignment = Alignment(horizontal="left", vertical="top", wrap_text=True)
        row += 1
    row += 1
    sheet.cell(row=row, column=1, value=t("tbl.sum.sheets")).font = Font(bold=True)
    for table in tables.tables(result):
        row += 1
        sheet.cell(row=row, column=1, value=table.title)
        # what the sheet holds ("" for a sheet without a note)
        sheet.cell(row=row, column=2, value=i18n.t_or(f"tbl.note.{table.name}", ""))


def _reproducible(data: bytes, date: datetime.date) -> bytes:
    """The ZIP ``data`` again, every entry dated ``date`` with fixed attributes, in order."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            target.writestr(fixed_zipinfo(info.filename, date), source.read(info))
    return out.getvalue()


def render_xlsx(result: Result, date: datetime.date, lang: str = "en") -> bytes:
    """The workbook: a Summary sheet (title, date, recommendation, key inputs, warnings),
    then one sheet per table, in ``lang`` (sheet names, column heads, the summary and the
    cells that are messages; names and sources stay as they are)."""
    from openpyxl import Workbook
    from openpyxl.writer.excel import ExcelWriter

    currency = result.data["currency"]
    book = Workbook()
    with i18n.language(lang):
        summary = book.active
        summary.title = t("tbl.sheet.summary")
        _write_summary(summary, result, date)
        for table in tables.tables(result):
            _write_table(book.create_sheet(table.title), table, currency)
    stamp = datetime.datetime.combine(date, datetime.time())
    props = book.properties
    props.creator = "planner"
    props.lastModifiedBy = "planner"
    props.title = _xml_text(str(result.data["title"]))
    props.created = stamp
    props.modified = stamp
    buffer = io.BytesIO()
    # ExcelWriter rather than Workbook.save, which stamps the current time as "modified".
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(book, archive).write_data()
    return _reproducible(buffer.getvalue(), date)
