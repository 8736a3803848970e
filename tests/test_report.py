"""Reports: every format from the fixture Result, the PDF's text, determinism, atomic writes."""

from __future__ import annotations

import csv
import datetime
import importlib.util
import io
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from planner import fmt
from planner.report import FORMATS, content, format_for, render, summary_table, write_report
from planner.result import Result

FIXTURE = Path(__file__).parent / "fixtures" / "result_small.py"
DATE = datetime.date(2024, 6, 3)


def _load_fixture():
    spec = importlib.util.spec_from_file_location("result_small", FIXTURE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


result_small = _load_fixture()


def _squash(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def result() -> Result:
    return result_small.make_result()


@pytest.fixture(scope="module")
def html(result) -> str:
    return render(result, "html", date=DATE).decode("utf-8")


@pytest.fixture(scope="module")
def pdf(result) -> bytes:
    return render(result, "pdf", date=DATE)


@pytest.fixture(scope="module")
def pdf_text(pdf) -> str:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return _squash(" ".join(page.extract_text() for page in reader.pages))


def _nothing_feasible() -> Result:
    base = result_small.make_result()
    data = base.to_dict()
    for row in data["options"]:
        row.update(feasible=False, reasons=["its GPU has too little memory"], total_cost=None,
                   present_value=None, residual_value=None, cost_per_gpu_hour=None,
                   monthly_cost=None, energy_kwh=None, carbon_kg=None)
    data.update(break_even=[], cheapest=None, catalog_as_of=None)
    frame = base.cost_vs_usage.assign(present_value=math.nan, total_cost=math.nan)
    return Result(data=data, monthly=base.monthly.iloc[0:0], cost_vs_usage=frame)


# -- every format ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt_name", FORMATS)
def test_every_format_renders(result, fmt_name):
    output = render(result, fmt_name, date=DATE)
    assert isinstance(output, bytes) and output
    if fmt_name == "pdf":
        assert output.startswith(b"%PDF-")
    else:
        assert output.decode("utf-8").endswith("\n")


def test_unknown_format_is_refused(result):
    with pytest.raises(ValueError, match="docx"):
        render(result, "docx", date=DATE)


def test_json_is_the_result_dict(result):
    output = render(result, "json").decode("utf-8")
    assert json.loads(output) == result.to_dict()
    assert "NaN" not in output and "Infinity" not in output


def test_json_refuses_nan_rather_than_writing_it(result):
    data = result.to_dict()
    data["options"][0]["total_cost"] = math.nan
    broken = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    with pytest.raises(ValueError):
        render(broken, "json")


def test_csv_is_the_options_table(result):
    rows = list(csv.DictReader(io.StringIO(render(result, "csv").decode("utf-8"))))
    assert [r["name"] for r in rows] == ["workstation", "a100-on-demand", "a100-spot", "kaggle"]
    assert "monthly_cost" not in rows[0]
    kaggle = rows[3]
    assert kaggle["feasible"] == "false"
    assert kaggle["total_cost"] == ""
    assert kaggle["reasons"].count("; ") == 1
    assert float(rows[0]["total_cost"]) == pytest.approx(result.data["options"][0]["total_cost"])
    assert rows[0]["currency"] == "USD"


def test_markdown_has_the_answer_and_tables(result):
    text = render(result, "md", date=DATE).decode("utf-8")
    assert text.startswith("# Vision lab GPUs 2024\n")
    assert content.recommendation(result) in text
    for heading in ("## Options compared", "## When buying pays off", "## Assumptions"):
        assert heading in text
    assert "| kaggle | free tier | p100 | no: its GPU (p100, 16 GB)" in text
    assert "$21,100" in text


def test_markdown_escapes_pipes(result):
    data = result.to_dict()
    data["title"] = "Lab | 2024"
    odd = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    assert "# Lab \\| 2024" in render(odd, "md", date=DATE).decode("utf-8")


# -- the answer -------------------------------------------------------------------------------


def test_recommendation_when_buying_wins(result):
    assert content.recommendation(result) == (
        "Buy workstation: it is the cheapest option over 36 months at $22,657 in present value "
        "(5% a year), $2,459 less than the runner-up, a100-spot. Buying pays off after "
        "14.3 months against a100-on-demand, and not within 36 months against a100-spot "
        "(cumulative cost, residual value not counted)."
    )


def test_recommendation_when_renting_wins():
    text = content.recommendation(result_small.make_result(purchase_price=60_000))
    assert text.startswith("Rent a100-spot: it is the cheapest option over 36 months")
    assert text.endswith("Buying never pays off within 36 months (workstation against a100-spot).")


def test_recommendation_without_a_feasible_option():
    text = content.recommendation(_nothing_feasible())
    assert text == "None of the 4 options can serve the demand; the reasons are listed below."


def test_nothing_feasible_still_renders():
    odd = _nothing_feasible()
    page = render(odd, "html", date=DATE).decode("utf-8")
    assert "<svg" not in page
    assert page.count("its GPU has too little memory") == 4
    assert render(odd, "md", date=DATE).decode("utf-8").count("no: its GPU") == 4


# -- HTML -------------------------------------------------------------------------------------


def test_html_is_deterministic(result, html):
    assert render(result, "html", date=DATE).decode("utf-8") == html


def test_html_is_the_same_in_another_process(html):
    code = (
        "import datetime, importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('f', sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "from planner.report import render\n"
        "sys.stdout.buffer.write(render(m.make_result(), 'html', "
        "date=datetime.date(2024, 6, 3)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code, str(FIXTURE)], capture_output=True,
                         check=True, env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert run.stdout.decode("utf-8") == html


def test_html_date_is_pinned(result, html):
    assert "2024-06-03" in html
    other = render(result, "html", date=datetime.date(2025, 1, 2)).decode("utf-8")
    assert "2025-01-02" in other and "2024-06-03" not in other


def test_html_stands_alone(html):
    assert html.count('<svg class="chart"') == 3
    assert "<style>" in html and "@page" in html
    assert not re.search(r"<(img|link|script|iframe|object)\b", html)
    assert "url(http" not in html and "@import" not in html
    assert "<?xml" not in html and "<!DOCTYPE svg" not in html
    # Inside the charts, every reference is to the page itself.
    for svg in re.findall(r"<svg.*?</svg>", html, flags=re.DOTALL):
        assert all(ref.startswith("#") for ref in re.findall(r'href="([^"]*)"', svg))
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "element ids must be unique across the charts"


def test_html_shows_infeasible_reasons(html):
    assert "Why not:" in html
    assert "its GPU (p100, 16 GB) has less memory than the 24 GB the demand needs" in html


def test_html_escapes_user_text(result):
    data = result.to_dict()
    data["title"] = "<script>alert(1)</script>"
    odd = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    page = render(odd, "html", date=DATE).decode("utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;" in page


def test_template_refuses_undefined_variables():
    import jinja2

    from planner.report.html import environment

    with pytest.raises(jinja2.UndefinedError):
        environment().from_string("{{ missing }}").render()


def test_stale_prices_are_warned_about(result):
    assert not any("check current prices" in w for w in content.warnings(result, DATE))
    late = content.warnings(result, datetime.date(2025, 3, 1))
    assert any("2024-01-10" in w and "check current prices" in w for w in late)
    data = dict(result.data, catalog_as_of="2023-12")
    monthly = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    assert content.catalog_age_days(monthly, datetime.date(2024, 1, 1)) == 31


# -- PDF --------------------------------------------------------------------------------------


def test_pdf_text_has_the_answer_and_figures(result, pdf_text):
    assert _squash(content.recommendation(result)) in pdf_text
    for row in result.data["options"]:
        assert row["name"] in pdf_text
        if row["total_cost"] is not None:
            assert fmt.money(row["total_cost"], "USD", decimals=0) in pdf_text
    assert "$21,100" in pdf_text and "$27,054" in pdf_text and "$81,072" in pdf_text
    assert "Why not:" in pdf_text


def test_pdf_pages(pdf, pdf_text):
    pypdf = pytest.importorskip("pypdf")
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert 2 <= pages <= 5
    assert f"Page 1 of {pages}" in pdf_text and f"Page {pages} of {pages}" in pdf_text


def test_pdf_is_reproducible(result, pdf):
    assert render(result, "pdf", date=DATE) == pdf


# -- charts ----------------------------------------------------------------------------------


def test_charts_are_inline_svg(result):
    from planner.report import charts

    for draw in (charts.cumulative_cost, charts.cost_vs_usage, charts.monthly_breakdown):
        svg = draw(result)
        assert svg.startswith('<svg class="chart"') and svg.endswith("</svg>\n")
        assert "<metadata" not in svg and not re.search(r"\d{4}-\d{2}-\d{2}T", svg)
        assert draw(result) == svg


def test_break_even_is_marked(result):
    from planner.report import charts

    assert "workstation pays off vs a100-on-demand" in charts.cumulative_cost(result)
    usage = charts.cost_vs_usage(result)
    assert "workstation costs the same as a100-on-demand" in usage
    assert "at 161 GPU-h/month" in usage


def test_a_far_costlier_option_is_cut_off(result):
    from planner.report import charts

    data = result.to_dict()
    row = data["options"][1]
    row["monthly_cost"] = [10 * x for x in row["monthly_cost"]]
    odd = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    assert "a100-on-demand off the chart: $811k by month 36" in charts.cumulative_cost(odd)
    assert "off the chart" not in charts.cumulative_cost(result)


def test_a_replacement_month_is_clipped_in_the_bars(result):
    import pandas as pd

    from planner.report import charts

    spike = pd.DataFrame([
        {"option": "workstation", "month": 24, "component": "purchase", "cost": 30_000.0},
        {"option": "workstation", "month": 24, "component": "resale", "cost": -9_000.0},
    ])
    odd = Result(data=result.data, monthly=pd.concat([result.monthly, spike]),
                 cost_vs_usage=result.cost_vs_usage)
    svg = charts.monthly_breakdown(odd)
    assert "$30k" in svg and "-$9k" in svg
    assert "$30k" not in charts.monthly_breakdown(result)


# -- terminal summary -------------------------------------------------------------------------


def test_summary_table_marks_the_cheapest(result):
    from rich.console import Console

    console = Console(width=120, record=True, color_system=None)
    console.print(summary_table(result))
    text = console.export_text()
    assert "workstation ★" in text and "a100-spot ★" not in text
    assert "$21,100" in text and "no: its GPU" in text


def test_planner_report_is_callable(result, tmp_path):
    import planner
    import planner.report

    assert planner.report(result, tmp_path / "plan.json").read_text().startswith("{")


# -- writing files ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "expected"), [
    ("r.pdf", "pdf"), ("r.html", "html"), ("r.htm", "html"), ("r.json", "json"),
    ("r.csv", "csv"), ("r.md", "md"), ("R.PDF", "pdf"),
])
def test_format_from_suffix(name, expected):
    assert format_for(name) == expected


@pytest.mark.parametrize("name", ["report.docx", "report"])
def test_unknown_suffix_is_refused(result, tmp_path, name):
    with pytest.raises(ValueError, match=r"\.docx" if "." in name else "no suffix"):
        write_report(result, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_write_report(result, tmp_path):
    path = write_report(result, tmp_path / "plan.md", date=DATE)
    assert path == tmp_path / "plan.md"
    assert path.read_bytes() == render(result, "md", date=DATE)
    explicit = write_report(result, tmp_path / "plan.txt", "json")
    assert json.loads(explicit.read_text()) == result.to_dict()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.md", "plan.txt"]


def test_failed_render_leaves_existing_file_alone(result, tmp_path, monkeypatch):
    import planner.report.plain

    target = tmp_path / "plan.md"
    target.write_text("the old report\n")

    def broken(*args, **kwargs):
        raise RuntimeError("render failed")

    monkeypatch.setattr(planner.report.plain, "render_markdown", broken)
    with pytest.raises(RuntimeError, match="render failed"):
        write_report(result, target, date=DATE)
    assert target.read_text() == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.md"]


def test_failed_write_leaves_existing_file_alone(result, tmp_path, monkeypatch):
    import planner.report

    target = tmp_path / "plan.csv"
    target.write_text("old\n")
    target.chmod(0o640)

    def broken(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(planner.report.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        write_report(result, target)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.csv"]
    monkeypatch.undo()
    write_report(result, target)
    assert target.read_text().startswith("name,kind,feasible")
    assert target.stat().st_mode & 0o777 == 0o640


def test_failed_render_leaves_no_new_file(result, tmp_path, monkeypatch):
    import planner.report.plain

    monkeypatch.setattr(planner.report.plain, "render_csv",
                        lambda *a, **k: (_ for _ in ()).throw(RuntimeError("boom")))
    with pytest.raises(RuntimeError):
        write_report(result, tmp_path / "plan.csv")
    assert list(tmp_path.iterdir()) == []


# -- number formatting ------------------------------------------------------------------------


@pytest.mark.parametrize(("args", "kwargs", "expected"), [
    ((12345, "USD"), {}, "$12,345"),
    ((12345.4, "USD"), {}, "$12,345"),
    ((1234.5, "EUR"), {"decimals": 2}, "€1,234.50"),
    ((2.14, "USD"), {}, "$2.14"),
    ((1234, "CNY"), {}, "CNY 1,234"),
    ((1234.5, "CHF"), {"decimals": 2}, "CHF 1,234.50"),
    ((1234567, "JPY"), {}, "¥1,234,567"),
    ((99.5, "JPY"), {}, "¥100"),
    ((320.4, "JPY"), {"decimals": 2}, "¥320"),
    ((750, "GBP"), {}, "£750"),
    ((-14250, "USD"), {}, "-$14,250"),
    ((-5, "CNY"), {}, "-CNY 5.00"),
    ((-0.001, "USD"), {}, "$0.00"),
    ((0, "USD"), {"decimals": 0}, "$0"),
    ((None, "USD"), {}, "—"),
    ((math.nan, "USD"), {}, "—"),
])
def test_money(args, kwargs, expected):
    assert fmt.money(*args, **kwargs) == expected


def test_other_formats():
    assert fmt.money_rate(2.14, "USD", "h") == "$2.14/h"
    assert fmt.money_rate(None, "USD", "h") == "—"
    assert fmt.money_short(950, "USD") == "$950"
    assert fmt.money_short(12_345, "USD") == "$12k"
    assert fmt.money_short(1_250_000, "EUR") == "€1.2M"
    assert fmt.months(14.23) == "14.2 months"
    assert fmt.months(1) == "1.0 month"
    assert fmt.months(None) == "never"
    assert fmt.months(math.nan) == "never"
    assert fmt.hours(730) == "730 hours"
    assert fmt.hours(1) == "1 hour"
    assert fmt.hours(None) == "—"
    assert fmt.number(2377.1) == "2,377"
    assert fmt.number(1234.56, 1) == "1,234.6"
    assert fmt.figure(1.2) == "1.2" and fmt.figure(0.05) == "0.05" and fmt.figure(1200) == "1,200"
    assert fmt.percent(0.05) == "5%"
    assert fmt.percent(0.055) == "5.5%"
    assert fmt.percent(None) == "—"
