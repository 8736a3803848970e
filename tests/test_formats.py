"""Every table in CSV (the ZIP), XLSX and Markdown, checked against the Result; the workbook's
reproducibility; atomic writes of the binary formats."""

from __future__ import annotations

import csv
import datetime
import importlib.util
import io
import math
import time
import unicodedata
import zipfile
from pathlib import Path

import openpyxl
import pytest

import planner
import pricing.files
from planner.render import format_for, render, tables, write_report
from planner.render.plain import render_csv
from planner.result import Result

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FIXTURE = Path(__file__).parent / "fixtures" / "result_small.py"
DATE = datetime.date(2026, 1, 15)

#: The columns of ``--format csv`` before the other tables were added: they must not change.
OPTIONS_CSV_HEADER = (
    "name,kind,feasible,reasons,warnings,gpu,gpus,gpu_hours_per_month,total_cost,present_value,"
    "residual_value,cost_per_gpu_hour,energy_kwh,carbon_kg,capacity_gpu_hours_per_month,"
    "unmet_gpu_hours_per_month,first_unmet_month,sessions_per_week,job_wait_days,served_share,"
    "passed_cost,passed_cost_share,machines,cost_per_owned_gpu_hour,scaling_efficiency,job_days,"
    "currency")
TABLE_NAMES = ["options", "monthly", "monthly_long", "breakdown", "cash_flow_by_year",
               "break_even", "sensitivity", "cost_vs_usage", "assumptions"]
SHEETS = ["Summary", "Options", "Monthly", "Monthly (long)", "Breakdown", "Cash flow by year",
          "Break-even", "Sensitivity", "Cost vs usage", "Assumptions"]


def _fixture_result() -> Result:
    spec = importlib.util.spec_from_file_location("result_small", FIXTURE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.make_result()


@pytest.fixture(scope="module")
def usage() -> Result:
    return planner.load(EXAMPLES / "usage.yaml").evaluate()


@pytest.fixture(scope="module")
def startup() -> Result:
    return planner.load(EXAMPLES / "startup-h100.yaml").evaluate()


@pytest.fixture(scope="module", params=["usage", "startup", "fixture"])
def any_result(request, usage, startup) -> Result:
    if request.param == "fixture":
        return _fixture_result()
    return {"usage": usage, "startup": startup}[request.param]


def _same(a, b) -> bool:
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return isinstance(b, (int, float)) and math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9)
    return a == b


def _csv_float(text: str) -> float | None:
    return None if text == "" else float(text)


def _zip_tables(result: Result) -> dict[str, list[dict[str, str]]]:
    archive = zipfile.ZipFile(io.BytesIO(render(result, "zip", date=DATE)))
    return {Path(name).stem: list(csv.DictReader(io.StringIO(archive.read(name).decode())))
            for name in archive.namelist()}


# -- the options CSV stays as it was -------------------------------------------------------------


def test_options_csv_is_unchanged(usage):
    text = render(usage, "csv").decode("utf-8")
    header, *lines = text.splitlines()
    assert header == OPTIONS_CSV_HEADER
    assert len(lines) == len(usage.data["options"])
    first = dict(zip(header.split(","), next(csv.reader([lines[0]]))))
    row = usage.data["options"][0]
    assert first["total_cost"] == str(row["total_cost"])  # unrounded, as Python writes it
    assert first["feasible"] == "true" and first["currency"] == "USD"
    assert first["first_unmet_month"] == str(row["first_unmet_month"])


def test_options_csv_in_the_zip_is_the_same_file(any_result):
    archive = zipfile.ZipFile(io.BytesIO(render(any_result, "zip", date=DATE)))
    assert archive.read("options.csv") == render(any_result, "csv")


# -- every table in the ZIP of CSV files ---------------------------------------------------------


def test_zip_holds_every_table(any_result):
    archive = zipfile.ZipFile(io.BytesIO(render(any_result, "zip", date=DATE)))
    assert archive.namelist() == ["summary.csv"] + [f"{n}.csv" for n in TABLE_NAMES]
    assert archive.testzip() is None
    for info in archive.infolist():
        assert info.date_time == (2026, 1, 15, 0, 0, 0)


def test_zip_monthly_tables_match_the_result(usage):
    got = _zip_tables(usage)
    frame = usage.monthly
    assert len(got["monthly_long"]) == len(frame)
    long = {(r["option"], int(r["month"]), r["component"]): float(r["cost"])
            for r in got["monthly_long"]}
    for option, month, component, cost in frame.itertuples(index=False):
        assert long[(option, month, component)] == pytest.approx(cost, rel=1e-12, abs=1e-12)
    horizon = usage.data["horizon_months"]
    wide = got["monthly"]
    assert list(wide[0]) == (["option", "component"]
                             + [f"month_{m}" for m in range(horizon + 1)] + ["currency"])
    assert len(wide) == frame.groupby(["option", "component"]).ngroups
    for row in usage.data["options"]:
        rows = [r for r in wide if r["option"] == row["name"]]
        sums = [math.fsum(float(r[f"month_{m}"]) for r in rows) for m in range(horizon + 1)]
        assert sums == pytest.approx(row["monthly_cost"], rel=1e-9, abs=1e-6)


def test_zip_breakdown_and_cash_flow_match_the_result(startup):
    got = _zip_tables(startup)
    frame = startup.breakdown
    assert len(got["breakdown"]) == len(frame)
    for row, (_, expected) in zip(got["breakdown"], frame.iterrows()):
        assert row["option"] == expected.option and row["component"] == expected.component
        assert row["unit"] == ("" if expected.unit is None else str(expected.unit))
        for key in ("quantity", "price", "cost"):
            assert _same(_csv_float(row[key]), expected[key]), (row, key)
    by_name = {r["name"]: r for r in startup.data["options"]}
    for row in got["cash_flow_by_year"]:
        flows = by_name[row["option"]]["monthly_cost"]
        assert float(row["today"]) == pytest.approx(flows[0])
        assert float(row["year_1"]) == pytest.approx(math.fsum(flows[1:13]))
        total = math.fsum(float(row[k]) for k in ("today", "year_1", "year_2", "year_3"))
        assert total == pytest.approx(math.fsum(flows))


def test_zip_break_even_sensitivity_usage_assumptions(usage):
    got = _zip_tables(usage)
    pairs = got["break_even"]
    assert [(r["own"], r["versus"]) for r in pairs] == [
        (p["own"], p["versus"]) for p in usage.data["break_even"]]
    for row, pair in zip(pairs, usage.data["break_even"]):
        for key in ("months", "system_hours", "gpu_hours_per_month"):
            assert _same(_csv_float(row[key]), pair[key])
        assert row["buying_cheaper"] in ("above", "below", "")
    sensitivity = usage.sensitivity
    assert [r["input"] for r in got["sensitivity"]] == [str(m) for m in sensitivity["input"]]
    for row, (_, expected) in zip(got["sensitivity"], sensitivity.iterrows()):
        for key in ("low", "high", "months", "months_low", "months_high"):
            assert _same(_csv_float(row[key]), expected[key])
        assert row["cheapest_high"] == expected.cheapest_high
        assert (row["own"], row["versus"]) == sensitivity.attrs["pair"]
    curve = usage.cost_vs_usage
    rows = got["cost_vs_usage"]
    assert len(rows) == curve["gpu_hours_per_month"].nunique()
    for level, option, value in curve.itertuples(index=False):
        row = next(r for r in rows if float(r["gpu_hours_per_month"]) == level)
        assert _same(_csv_float(row[f"present_value.{option}"]), value)
    assumptions = got["assumptions"]
    assert len(assumptions) == len(usage.assumptions)
    for row, item in zip(assumptions, usage.assumptions):
        assert row["item"] == str(item["item"])  # a message's English, or the pricing's text
        assert row["as_of"] == (item["as_of"] or "") and row["source"] == (item["source"] or "")


def test_zip_summary_has_the_answer(usage):
    from planner.render import content

    summary = {r["item"]: r["value"] for r in _zip_tables(usage)["summary"]}
    assert summary["Recommendation"] == content.recommendation(usage)
    assert summary["Date"] == "2026-01-15"
    assert summary["Cheapest option"] == "workstation"
    assert float(summary["Cheapest: present value"]) == pytest.approx(
        usage.data["options"][0]["present_value"])
    assert summary["Demand"] == dict(content.inputs(usage))["Demand"]


def test_empty_tables_keep_their_header():
    full = _fixture_result()
    result = Result(data=full.data, monthly=full.monthly, cost_vs_usage=full.cost_vs_usage)
    assert result.breakdown.empty and result.sensitivity.empty
    got = zipfile.ZipFile(io.BytesIO(render(result, "zip", date=DATE)))
    assert got.read("breakdown.csv").decode() == (
        "option,component,quantity,unit,price,cost,currency\n")
    assert got.read("sensitivity.csv").decode().startswith("input,low,high,months,")
    assert openpyxl.load_workbook(io.BytesIO(render(result, "xlsx", date=DATE)))[
        "Breakdown"].max_row == 1
    # Without a breakdown, Markdown shows the component totals side by side.
    text = render(result, "md", date=DATE).decode("utf-8")
    assert "| Component      | workstation |" in text and "## What changes the answer" not in text


# -- the workbook -------------------------------------------------------------------------------


def _book(result: Result, date: datetime.date = DATE) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(render(result, "xlsx", date=date)))


def _sheet_rows(sheet) -> list[list]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_workbook_has_a_sheet_per_table(any_result):
    book = _book(any_result)
    assert book.sheetnames == SHEETS
    for table, name in zip(tables.tables(any_result), SHEETS[1:]):
        sheet = book[name]
        rows = _sheet_rows(sheet)
        assert rows[0] == [c.label for c in table.columns]
        assert len(rows) == len(table.rows) + 1
        for got, expected in zip(rows[1:], table.rows):
            assert all(_same(g, e) for g, e in zip(got, expected)), (name, got, expected)
        assert sheet.freeze_panes == sheet.cell(row=2, column=table.frozen + 1).coordinate


def test_workbook_numbers_are_the_results(usage):
    book = _book(usage)
    options = _sheet_rows(book["Options"])
    header = options[0]
    for got, row in zip(options[1:], usage.data["options"]):
        values = dict(zip(header, got))
        assert values["Option"] == row["name"]
        assert values["Total cost"] == pytest.approx(row["total_cost"], rel=1e-15)
        assert values["Present value"] == pytest.approx(row["present_value"], rel=1e-15)
        assert values["Feasible"] is True
    wide = _sheet_rows(book["Monthly"])
    purchase = next(r for r in wide if r[:2] == ["workstation", "purchase"])
    cost = usage.monthly.query("option == 'workstation' and component == 'purchase'")
    assert purchase[2:] == pytest.approx(list(cost.sort_values("month")["cost"]))
    pairs = _sheet_rows(book["Break-even"])[1:]
    assert [r[2] for r in pairs] == pytest.approx([p["months"] for p in usage.data["break_even"]])


def test_workbook_number_formats(usage):
    book = _book(usage)
    sheet = book["Options"]
    header = [c.value for c in sheet[1]]
    total = sheet.cell(row=2, column=header.index("Total cost") + 1)
    assert isinstance(total.value, float)
    assert "$" in total.number_format and "#,##0.00" in total.number_format
    assert book["Break-even"]["C2"].number_format == "#,##0.0"  # months, one decimal
    assert book["Monthly"]["C2"].number_format == total.number_format
    price = book["Breakdown"]["E2"]
    assert "#,##0.00##" in price.number_format
    assert book["Summary"]["B3"].number_format == "yyyy-mm-dd"
    assert sheet.auto_filter.ref == f"A1:{sheet.cell(row=1, column=len(header)).column_letter}5"
    for letter, dimension in sheet.column_dimensions.items():
        assert 3 <= dimension.width <= 60, letter


@pytest.mark.parametrize(("currency", "symbol", "decimals"), [
    ("EUR", "€", ".00"), ("JPY", "¥", None), ("CNY", "CN", ".00")])
def test_workbook_money_in_the_plans_currency(currency, symbol, decimals):
    result = _fixture_result()
    result.data["currency"] = currency
    book = _book(result)
    form = book["Options"]["I2"].number_format  # total_cost
    assert symbol in form and "#,##0" in form
    assert (decimals in form) if decimals else ("." not in form)


def test_workbook_summary(usage):
    from planner.render import content

    book = _book(usage)
    values = {row[0]: row[1] for row in _sheet_rows(book["Summary"]) if row[0]}
    assert book["Summary"]["A1"].value == usage.data["title"]
    assert values["Recommendation"] == content.recommendation(usage)
    assert values["Date"] == datetime.datetime(2026, 1, 15)
    assert values["Cheapest option"] == "workstation"
    assert values["Demand"] == dict(content.inputs(usage))["Demand"]
    assert values["Discount rate (a year)"] == 0.05
    assert book.properties.created == book.properties.modified == datetime.datetime(2026, 1, 15)


def test_workbook_text_is_never_a_formula():
    result = _fixture_result()
    result.data["options"][3]["name"] = "=1+1"
    sheet = _book(result)["Options"]
    assert sheet["A5"].data_type == "s" and sheet["A5"].value.strip() == "=1+1"


# -- reproducible bytes --------------------------------------------------------------------------


def test_xlsx_and_zip_are_byte_identical_at_another_time(usage, monkeypatch):
    first = {fmt: render(usage, fmt, date=DATE) for fmt in ("xlsx", "zip")}
    monkeypatch.setattr(time, "time", lambda: 1_000_000_001.0)  # the clock reads 2001
    assert {fmt: render(usage, fmt, date=DATE) for fmt in ("xlsx", "zip")} == first
    # The clock does reach openpyxl's own saving: the test would catch a stamp left in.
    book = openpyxl.load_workbook(io.BytesIO(first["xlsx"]))
    buffer = io.BytesIO()
    book.save(buffer)
    assert zipfile.ZipFile(buffer).infolist()[0].date_time[0] == 2001


def test_xlsx_is_the_same_in_another_process(usage, tmp_path):
    import os
    import subprocess
    import sys

    script = ("import datetime, sys, planner\n"
              "from planner.render import render\n"
              "r = planner.load(sys.argv[1]).evaluate()\n"
              "sys.stdout.buffer.write(render(r, 'xlsx', date=datetime.date(2026, 1, 15)))\n")
    env = dict(os.environ, PYTHONHASHSEED="12345", TZ="Pacific/Auckland")
    output = subprocess.run([sys.executable, "-c", script, str(EXAMPLES / "usage.yaml")],
                            capture_output=True, check=True, env=env,
                            cwd=Path(__file__).resolve().parent.parent).stdout
    assert output == render(usage, "xlsx", date=DATE)


def test_xlsx_in_chinese(usage):
    """``lang="zh"`` writes the workbook's sheet names, column heads, summary and message cells
    (units, assumptions) in Chinese; the numbers are the English workbook's, cell for cell."""
    english = openpyxl.load_workbook(io.BytesIO(render(usage, "xlsx", date=DATE)))
    chinese = openpyxl.load_workbook(io.BytesIO(render(usage, "xlsx", date=DATE, lang="zh")))
    assert english.sheetnames[:5] == ["Summary", "Options", "Monthly", "Monthly (long)",
                                      "Breakdown"]
    assert chinese.sheetnames[:5] == ["摘要", "方案", "月度", "月度（长表）", "成本构成"]
    assert len(chinese.sheetnames) == len(english.sheetnames)
    breakdown = chinese["成本构成"]
    assert [c.value for c in breakdown[1]] == ["方案", "构成", "数量", "单位", "单价", "成本"]
    units = {row[3] for row in breakdown.iter_rows(min_row=2, values_only=True)}
    assert {"台机器", "千瓦时"} <= units and "kWh" not in units
    labels = [row[0] for row in chinese["摘要"].iter_rows(values_only=True)]
    assert "建议" in labels and "Recommendation" not in labels
    for en_sheet, zh_sheet in zip(english.worksheets[1:], chinese.worksheets[1:], strict=True):
        for en_row, zh_row in zip(en_sheet.iter_rows(min_row=2, values_only=True),
                                  zh_sheet.iter_rows(min_row=2, values_only=True), strict=True):
            assert [v for v in en_row if isinstance(v, (int, float))] == \
                [v for v in zh_row if isinstance(v, (int, float))], en_sheet.title


def test_xlsx_reasons_in_chinese():
    """An infeasible option's reasons are messages: English in the English workbook, Chinese in
    the Chinese one."""
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100, "min_gpu_memory_gb": 40},
        "site": {"electricity_per_kwh": 0.1},
        "options": [{"name": "box", "own": {"gpu": "t4"}}]}).evaluate()
    cells = {}
    for lang, head in (("en", "Reasons"), ("zh", "原因")):
        sheet = openpyxl.load_workbook(io.BytesIO(
            render(result, "xlsx", date=DATE, lang=lang))).worksheets[1]
        column = [c.value for c in sheet[1]].index(head)
        cells[lang] = sheet.cell(row=2, column=column + 1).value
    assert "GPU memory 16 GB is less than the 40 GB" in cells["en"]
    assert "GPU 显存 16 GB 少于" in cells["zh"] and "GPU memory" not in cells["zh"]


def test_xlsx_depends_on_the_date(usage):
    other = render(usage, "xlsx", date=DATE + datetime.timedelta(days=1))
    assert other != render(usage, "xlsx", date=DATE)
    archive = zipfile.ZipFile(io.BytesIO(other))
    assert {i.date_time for i in archive.infolist()} == {(2026, 1, 16, 0, 0, 0)}
    core = archive.read("docProps/core.xml").decode()
    assert "2026-01-16T00:00:00Z" in core and "openpyxl" not in core.split("<dc:creator>")[1][:20]


# -- Markdown -----------------------------------------------------------------------------------


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _markdown_tables(text: str) -> list[list[str]]:
    found, current = [], []
    for line in text.splitlines():
        if line.startswith("|"):
            current.append(line)
        elif current:
            found.append(current)
            current = []
    return found + ([current] if current else [])


def test_markdown_has_every_table(usage):
    text = render(usage, "md", date=DATE).decode("utf-8")
    for heading in ("## Options compared", "## What the costs are made of", "### workstation",
                    "### a100-spot", "## Money paid by year", "## When buying pays off",
                    "## What changes the answer", "## Assumptions"):
        assert heading in text
    assert "| Own / against | a100-on-demand | a100-spot | kaggle |" in text  # the matrix
    assert "| workstation   |            6.2 |      11.4 |   11.6 |" in text
    assert "| Prices of a100-spot      |      15.3 months |" in text
    assert "| energy         | 35,313.26 | kWh" in text


def test_markdown_columns_line_up(any_result):
    text = render(any_result, "md", date=DATE).decode("utf-8")
    found = _markdown_tables(text)
    assert len(found) >= 3
    for table in found:
        widths = {_width(line) for line in table}
        assert len(widths) == 1, table
        pipes = {tuple(i for i, c in enumerate(line) if c == "|") for line in table
                 if all(_width(c) == 1 for c in line)}
        assert len(pipes) <= 1, table


def test_markdown_right_aligns_figures(usage):
    text = render(usage, "md", date=DATE).decode("utf-8")
    options = _markdown_tables(text)[0]
    assert options[1].startswith("|---") and options[1].endswith("---:|")
    cells = [line.split("|")[5] for line in options[2:]]  # total cost
    assert all(c[1:-1] == c.strip().rjust(len(c) - 2) for c in cells)
    assert {len(c) for c in cells} == {len(options[0].split("|")[5])}


def test_markdown_in_chinese(usage):
    """``lang="zh"`` writes the Markdown in Chinese, headings, column heads, units, components
    and inputs included (plain text needs no CJK font); the figures are the English report's
    and every table still lines up."""
    english = render(usage, "md", date=DATE).decode("utf-8")
    text = render(usage, "md", date=DATE, lang="zh").decode("utf-8")
    for heading in ("## 方案比较", "## 成本构成", "### workstation", "## 按年支付的金额",
                    "## 何时回本", "## 什么会改变结论", "## 假设"):
        assert heading in text
    for english_only in ("## Options compared", "## What changes the answer", "| Component",
                         "| Input ", "| energy ", "| kWh "):
        assert english_only not in text and english_only in english
    assert "| 能耗 " in text and "| 千瓦时 " in text  # the workstation's energy row
    assert "| 需求 " in text  # the sensitivity's first input, Demand
    assert "| 自购 / 对比 | a100-on-demand | a100-spot | kaggle |" in text
    assert "| workstation |            6.2 |      11.4 |   11.6 |" in text  # same months
    for table in _markdown_tables(text):
        assert len({_width(line) for line in table}) == 1, table


def test_markdown_wide_characters_line_up():
    result = _fixture_result()
    result.data["options"][3]["name"] = "工作站"
    text = render(result, "md", date=DATE).decode("utf-8")
    for table in _markdown_tables(text):
        assert len({_width(line) for line in table}) == 1


# -- files and the command line ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [("r.xlsx", "xlsx"), ("R.XLSX", "xlsx"),
                                                ("tables.zip", "zip")])
def test_suffixes(name, expected):
    assert format_for(name) == expected


def test_failed_xlsx_render_leaves_the_old_file(usage, tmp_path, monkeypatch):
    import planner.render.xlsx

    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"old workbook")

    def broken(*args, **kwargs):
        raise RuntimeError("render failed")

    monkeypatch.setattr(planner.render.xlsx, "render_xlsx", broken)
    with pytest.raises(RuntimeError):
        write_report(usage, target, date=DATE)
    assert target.read_bytes() == b"old workbook"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.xlsx"]


def test_failed_zip_write_leaves_nothing(usage, tmp_path, monkeypatch):

    def broken(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(pricing.files.os, "replace", broken)
    with pytest.raises(OSError):
        write_report(usage, tmp_path / "tables.zip", date=DATE)
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    path = write_report(usage, tmp_path / "tables.zip", date=DATE)
    assert path.read_bytes() == render(usage, "zip", date=DATE)


def test_cli_writes_xlsx_and_zip(run, tmp_path, usage):
    book = tmp_path / "plan.xlsx"
    result = run("report", EXAMPLES / "usage.yaml", "-o", book, "--date", "2026-01-15")
    assert result.exit_code == 0, result.output
    assert book.read_bytes() == render(usage, "xlsx", date=DATE)
    result = run("report", EXAMPLES / "usage.yaml", "--format", "zip", "-o", tmp_path / "t.bin",
                 "--date", "2026-01-15")
    assert result.exit_code == 0, result.output
    assert zipfile.ZipFile(tmp_path / "t.bin").namelist()[0] == "summary.csv"


def test_cli_xlsx_on_bad_input_writes_nothing(run, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\ndemand: {gpu_hours_per_month: -1}\noptions: []\n")
    target = tmp_path / "plan.xlsx"
    target.write_bytes(b"previous")
    result = run("report", bad, "-o", target)
    assert result.exit_code == 1
    assert target.read_bytes() == b"previous"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", "plan.xlsx"]


def test_csv_api_is_still_there(usage):
    assert render_csv(usage).startswith(OPTIONS_CSV_HEADER + "\n")
