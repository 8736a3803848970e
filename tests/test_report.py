"""Reports: every format from the fixture Result, the PDF's text, determinism, atomic writes."""

from __future__ import annotations

import csv
import datetime
import importlib.util
import io
import itertools
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import reports

import planner
from planner.messages import Message, Share
from planner.render import FORMATS, content, fmt, format_for, render, summary_table, write_report
from planner.result import Result

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"

FIXTURE = Path(__file__).parent / "fixtures" / "result_small.py"
DATE = reports.FIXTURE_DATE


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
def html() -> str:
    return reports.html("fixture")


@pytest.fixture(scope="module")
def pdf() -> bytes:
    return reports.pdf("fixture")


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
def test_every_format_renders(result, pdf, fmt_name):
    # The PDF is the shared one, which test_pdf_is_reproducible renders again through render().
    output = pdf if fmt_name == "pdf" else render(result, fmt_name, date=DATE)
    assert isinstance(output, bytes) and output
    if fmt_name == "pdf":
        assert output.startswith(b"%PDF-")
    elif fmt_name in ("xlsx", "zip"):
        assert output.startswith(b"PK\x03\x04")
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
    assert "| kaggle | free tier | p100 | no: its GPU (p100, 16 GB)" in _squash(text)
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
    # Four times in the options table, once more in the free tiers' table (kaggle).
    assert page.count("its GPU has too little memory") == 5
    assert render(odd, "md", date=DATE).decode("utf-8").count("no: its GPU") == 4


# -- HTML -------------------------------------------------------------------------------------


def test_html_is_deterministic(result, html):
    assert render(result, "html", date=DATE).decode("utf-8") == html


def test_html_is_the_same_in_another_process(html):
    code = (
        "import datetime, importlib.util, sys\n"
        "spec = importlib.util.spec_from_file_location('f', sys.argv[1])\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "from planner.render import render\n"
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
    # ranking, cumulative, usage, breakdown, sensitivity (the fixture's free tier serves nothing)
    assert html.count('<svg class="chart chart-') == 5
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

    from planner.render.html import environment

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
    assert _squash(content.decision(result)) in pdf_text
    assert _squash(content.break_even_sentence(result)) in pdf_text
    for figure in content.key_figures(result):
        assert figure["value"] in pdf_text
    for row in result.data["options"]:
        assert row["name"] in pdf_text
        if row["total_cost"] is not None:
            assert fmt.money(row["total_cost"], "USD", decimals=0) in pdf_text
    assert "$21,100" in pdf_text and "$27,054" in pdf_text and "$81,072" in pdf_text
    assert "Why not:" in pdf_text


def test_pdf_pages(pdf, pdf_text):
    pypdf = pytest.importorskip("pypdf")
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert 4 <= pages <= 8
    assert f"Page 1 of {pages}" in pdf_text and f"Page {pages} of {pages}" in pdf_text


def test_pdf_is_reproducible(result, pdf):
    """render() of a fresh Result gives the bytes of the shared PDF (tests/reports.py), which
    the other PDF checks read."""
    assert render(result, "pdf", date=DATE) == pdf


# -- charts ----------------------------------------------------------------------------------


def test_charts_are_inline_svg(result):
    from planner.render import charts

    for draw in (charts.ranking, charts.cumulative_cost, charts.cost_vs_usage,
                 charts.monthly_breakdown, charts.sensitivity):
        svg = draw(result)
        assert svg.startswith('<svg class="chart chart-') and svg.endswith("</svg>\n")
        assert re.search(r"<title>[^<]+</title>", svg)
        assert "<metadata" not in svg and not re.search(r"\d{4}-\d{2}-\d{2}T", svg)
        assert draw(result) == svg


def test_break_even_is_marked(result):
    from planner.render import charts

    assert "workstation pays off vs a100-on-demand" in charts.cumulative_cost(result)
    usage = charts.cost_vs_usage(result)
    assert "workstation costs the same as a100-on-demand" in usage
    assert "at 161 GPU-h/month" in usage


def test_a_far_costlier_option_is_cut_off(result):
    from planner.render import charts

    data = result.to_dict()
    row = data["options"][1]
    row["monthly_cost"] = [10 * x for x in row["monthly_cost"]]
    odd = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    assert "a100-on-demand off the chart: $811k by month 36" in charts.cumulative_cost(odd)
    assert "off the chart" not in charts.cumulative_cost(result)


def test_a_replacement_month_is_clipped_in_the_bars(result):
    import pandas as pd

    from planner.render import charts

    spike = pd.DataFrame([
        {"option": "workstation", "month": 24, "component": "purchase", "cost": 30_000.0},
        {"option": "workstation", "month": 24, "component": "resale", "cost": -9_000.0},
    ])
    odd = Result(data=result.data, monthly=pd.concat([result.monthly, spike]),
                 cost_vs_usage=result.cost_vs_usage)
    svg = charts.monthly_breakdown(odd)
    # The chart nets a replacement: purchase and resale are one group.
    assert "$21k" in svg
    assert "$21k" not in charts.monthly_breakdown(result)


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
    import planner.render  # the stage's package does not shadow the API's function

    assert callable(planner.report)
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
    import planner.render.plain

    target = tmp_path / "plan.md"
    target.write_text("the old report\n")

    def broken(*args, **kwargs):
        raise RuntimeError("render failed")

    monkeypatch.setattr(planner.render.plain, "render_markdown", broken)
    with pytest.raises(RuntimeError, match="render failed"):
        write_report(result, target, date=DATE)
    assert target.read_text() == "the old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.md"]


def test_failed_write_leaves_existing_file_alone(result, tmp_path, monkeypatch):
    import pricing.files

    target = tmp_path / "plan.csv"
    target.write_text("old\n")
    target.chmod(0o640)

    def broken(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(pricing.files.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        write_report(result, target)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plan.csv"]
    monkeypatch.undo()
    write_report(result, target)
    assert target.read_text().startswith("name,kind,feasible")
    assert target.stat().st_mode & 0o777 == 0o640


def test_failed_render_leaves_no_new_file(result, tmp_path, monkeypatch):
    import planner.render.plain

    monkeypatch.setattr(planner.render.plain, "render_csv",
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
    ((1234, "CNY"), {}, "CN¥1,234"),
    ((1234.5, "CHF"), {"decimals": 2}, "CHF\u00a01,234.50"),
    ((1234567, "JPY"), {}, "¥1,234,567"),
    ((99.5, "JPY"), {}, "¥100"),
    ((320.4, "JPY"), {"decimals": 2}, "¥320"),
    ((750, "GBP"), {}, "£750"),
    ((-14250, "USD"), {}, "-$14,250"),
    ((-5, "CNY"), {}, "-CN¥5.00"),
    ((-0.001, "EUR"), {}, "€0.00"),
    ((1234.5, "KRW"), {"decimals": 2}, "₩1,234"),
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
    # Short of all is never "100%", above none never "0%" (9,996 draws of 10,000; 4 of 100,000).
    assert fmt.percent(0.9996) == "99.96%" and fmt.percent(0.999996) == "99.99%"
    assert fmt.percent(0.00004) == "0.01%" and fmt.percent(1.0) == "100%"
    assert fmt.percent(0.0) == "0%" and fmt.percent(0.999) == "99.9%"
    assert fmt.percent(None) == "—"


# -- the first page ---------------------------------------------------------------------------


def test_decision_is_one_sentence_with_the_numbers_behind_it(result):
    assert content.decision(result) == ("Buy workstation: the cheapest of the 4 options over 36 "
                                        "months.")
    cost, saving, payoff = content.key_figures(result)
    assert cost["value"] == "$22,657" and "total cost $21,100" in cost["label"]
    assert saving["value"] == "$2,459" and "a100-spot" in saving["label"]
    # The headline pair (workstation against the runner-up) never pays off in cumulative cost.
    assert payoff["value"] == "never" and "against a100-spot" in payoff["label"]


def test_payoff_figure_when_renting_wins():
    odd = result_small.make_result(purchase_price=60_000)
    assert content.decision(odd).startswith("Rent a100-spot: the cheapest of the 4 options")
    payoff = content.key_figures(odd)[2]
    assert payoff["value"] == "never"
    assert "buying workstation does not pay off against a100-spot" in payoff["label"]


def test_risk_sentence_says_what_changes_the_answer(result):
    assert content.risk_sentence(result) == (
        "a100-spot becomes the cheapest if \u201cPrice of workstation\u201d is 25% higher, "
        "\u201cPrices of a100-spot\u201d is 25% lower or \u201cDemand\u201d is 25% lower. The "
        "break-even month moves most with \u201cPrice of workstation\u201d (27.5 months to "
        "never).")


def test_inputs_that_matter_most_are_on_the_first_page(result, html):
    first_page = html[:html.index('<section class="options">')]
    for label, value in result.inputs:
        assert f"<dt>{label}</dt>" in first_page and f"<dd>{value}</dd>" in first_page
    assert 'class="chart chart-ranking"' in first_page


# -- tables -----------------------------------------------------------------------------------


def test_break_even_matrix(result):
    matrix = content.break_even_matrix(result)
    assert matrix["columns"] == ["a100-spot", "a100-on-demand"]
    (own, (spot, on_demand)), = matrix["rows"]
    assert own == "workstation"
    assert spot["months"] == "not within 36 months" and spot["hours"] == ""
    assert on_demand["months"] == "14.3 months"
    assert on_demand["usage"] == "same cost at 161 GPU\u2011h/month"
    assert on_demand["direction"] == "buying is cheaper above it"


def test_break_even_matrix_has_a_diagonal_with_two_owned_options(result):
    data = result.to_dict()
    data["options"].append(dict(data["options"][0], name="server"))
    data["break_even"] += [
        {"own": "server", "versus": "workstation", "months": 3.0, "system_hours": 450.0,
         "gpu_hours_per_month": None},
        {"own": "workstation", "versus": "server", "months": None, "system_hours": None,
         "gpu_hours_per_month": None},
    ]
    odd = Result(data=data, monthly=result.monthly, cost_vs_usage=result.cost_vs_usage)
    matrix = content.break_even_matrix(odd)
    assert matrix["columns"] == ["workstation", "server", "a100-spot", "a100-on-demand"]
    rows = dict(matrix["rows"])
    assert rows["workstation"][0] is None and rows["server"][1] is None
    assert rows["server"][0]["months"] == "3.0 months"
    assert rows["workstation"][1]["usage"] == "no break-even usage"


def test_breakdown_reads_quantity_times_price(result):
    tables = {table["name"]: table for table in content.breakdown_tables(result)}
    assert list(tables) == ["workstation", "a100-spot", "a100-on-demand"]
    rental = tables["a100-on-demand"]["rows"][0]
    assert (rental["component"], rental["quantity"], rental["unit"], rental["price"],
            rental["cost"]) == ("rental", "21,600", "instance-hours", "$3.67", "$79,272")
    assert tables["a100-on-demand"]["total"] == "$81,072"
    rows = tables["workstation"]["rows"]
    energy = next(i for i, row in enumerate(rows) if row["component"] == "energy")
    cooling = rows[energy + 1]
    assert cooling["sub"] and cooling["component"] == "of which cooling"
    kwh = result_small.POWER_KW * result_small.DEMAND / result_small.SPEED_OWN / \
        result_small.GPU_COUNT * result_small.PUE * 36
    assert cooling["cost"] == fmt.money(kwh * result_small.ELECTRICITY * (1 - 1 / 1.2), "USD",
                                        decimals=0)
    assert rows[-1]["component"] == "less residual value" and rows[-1]["cost"] == "-$14,250"


def test_breakdown_reconciles_with_the_totals(result):
    frame = result.breakdown
    for row in result.data["options"]:
        if row["feasible"]:
            part = frame[frame["option"] == row["name"]]
            assert part["cost"].sum() == pytest.approx(row["total_cost"])


def test_monthly_groups_split_energy_into_it_load_and_cooling(result):
    groups = content.grouped_monthly(result, "workstation")
    monthly = result.monthly
    energy = monthly[(monthly.option == "workstation") & (monthly.component == "energy")]
    assert (groups["it_energy"] + groups["cooling"]).sum() == pytest.approx(energy.cost.sum())
    assert groups["cooling"].sum() == pytest.approx(energy.cost.sum() * (1 - 1 / 1.2))
    assert groups.sum().sum() == pytest.approx(monthly[monthly.option == "workstation"].cost.sum())
    assert "rent" not in groups.columns


def test_sensitivity_rows(result):
    analysis = content.sensitivity(result)
    assert analysis["pair"] == ("workstation", "a100-spot") and analysis["spread"] == "25%"
    assert [r["input"] for r in analysis["rows"]] == ["Price of workstation",
                                                      "Prices of a100-spot", "Demand"]
    assert analysis["still"] == ["Electricity price", "Prices of a100-on-demand",
                                 "Discount rate"]
    first = analysis["rows"][0]
    assert (first["low_text"], first["high_text"], first["cheapest_high"]) == (
        "27.5 months", "never", "a100-spot")


def test_free_tier_rows(result):
    (kaggle,) = content.free_tier_rows(result)
    assert kaggle["name"] == "kaggle" and not kaggle["feasible"]
    assert kaggle["sessions"] == "—" and kaggle["capacity"] == "129"


# -- the appendix -----------------------------------------------------------------------------


def _evaluate(expression: str) -> float:
    return eval(expression.replace(",", "").replace("−", "-").replace("×", "*"))


def test_worked_figures_redo_every_total(result):
    groups = {group["name"]: {row[0]: row[1:] for row in group["rows"]}
              for group in content.worked_figures(result)}
    for row in result.data["options"]:
        if not row["feasible"]:
            continue
        worked = groups[row["name"]]
        calculation, value = worked["Total cost"]
        assert value == fmt.money(row["total_cost"], "USD", decimals=0)
        assert _evaluate(calculation) == pytest.approx(row["total_cost"], abs=3)
        calculation, value = worked["Present value"]
        redo = calculation.split(" = ")[-1] if "RV" in calculation else calculation.split("= ")[1]
        assert _evaluate(redo) == pytest.approx(row["present_value"], abs=3)
        calculation, value = worked["Per GPU-hour"]
        assert value == fmt.money(row["cost_per_gpu_hour"], "USD", decimals=2)
    calculation, value = groups["workstation"]["Pays off against a100-on-demand"]
    assert value == "14.26 months"
    assert _evaluate(calculation.split(": ")[1].split(" = ")[0]) == pytest.approx(14.26, abs=0.01)
    assert groups["workstation"]["Pays off against a100-spot"][0] == "above at month 36: never"


def test_formulas_cover_the_options_present(result):
    names = [row["name"] for row in content.formulas(result)]
    for name in ("Total cost", "Present value", "Own: energy", "Own: cooling share of energy",
                 "Cloud: rented instance-hours", "Free tier: usable capacity",
                 "Break-even month"):
        assert name in names
    assert "Own: loan payment" not in names and "Cloud: reserved capacity" not in names


def test_formulas_of_a_fleet_say_its_machines_and_purchase_month():
    """Two machines bought in month 6: the appendix's own formulas carry n and in_service_m
    (as docs/model.md §3a and the engine do); one machine in month 0 keeps the short forms."""
    def formulas(**own):
        plan = planner.load({
            "version": 1, "horizon_months": 24, "demand": {"gpu_hours_per_month": 100},
            "site": {"electricity_per_kwh": 0.1},
            "options": [{"name": "box", "own": {"purchase_price": 5000, "power_watts": 500,
                                                **own}, "overflow": "rent"},
                        {"name": "rent", "cloud": {"price_per_hour": 2.0}}]})
        return {row["name"]: row["formula"] for row in content.formulas(plan.evaluate())}

    fleet = formulas(machines=2, purchase_month=6)
    assert fleet["Own: capacity and busy hours"].startswith("K = n × gpu_count × H")
    assert "P_idle × (n × H − S_m) × [always_on] × in_service_m" in fleet["Own: energy"]
    assert "age = T − (p + L" in fleet["Own: residual value"]
    single = formulas()
    assert single["Own: capacity and busy hours"].startswith("K = gpu_count × H")
    assert "in_service_m" not in single["Own: energy"]


# -- paper and language -----------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "size"), [("a4", (595, 842)), ("letter", (612, 792))])
def test_paper_size(paper, size):
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(reports.pdf("fixture", paper=paper)))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_unknown_paper_or_language_is_refused(result):
    with pytest.raises(ValueError, match="legal"):
        render(result, "html", date=DATE, paper="legal")
    with pytest.raises(ValueError, match="fr"):
        render(result, "html", date=DATE, lang="fr")


def test_chinese_without_a_font_warns_and_writes_english(result, html, monkeypatch):
    from planner.render import LanguageFallbackWarning, fonts

    monkeypatch.setattr(fonts, "cjk_font", lambda: None)
    with pytest.warns(LanguageFallbackWarning, match="no font with Chinese glyphs"):
        page = render(result, "html", date=DATE, lang="zh").decode("utf-8")
    assert page == html


def test_cli_prints_the_fallback_warning(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from planner.cli import main
    from planner.render import fonts

    monkeypatch.setattr(fonts, "cjk_font", lambda: None)
    usage = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"
    out = tmp_path / "plan.html"
    run = CliRunner().invoke(main, ["report", str(usage), "-o", str(out), "--lang", "zh",
                                    "--paper", "letter", "--date", "2024-06-03"],
                             catch_exceptions=False)
    assert run.exit_code == 0
    assert "warning: no font with Chinese glyphs" in run.stderr
    page = out.read_text()
    assert '<html lang="en">' in page and "size: letter" in page
    assert "Option (★ cheapest)" in run.stdout


def test_cli_refuses_an_unknown_paper(tmp_path):
    from click.testing import CliRunner

    from planner.cli import main

    usage = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"
    run = CliRunner().invoke(main, ["report", str(usage), "-o", str(tmp_path / "p.pdf"),
                                    "--paper", "legal"])
    assert run.exit_code == 2 and not (tmp_path / "p.pdf").exists()


def test_text_in_chinese_needs_no_font(result):
    from planner.render import i18n

    with i18n.language("zh"):
        assert content.decision(result) == "购买 workstation：在 36 个月内是 4 个方案中成本最低的。"
        assert content.recommendation(result).startswith("购买 workstation：在 36 个月内它是成本")
        assert fmt.money(1234, "USD") == "US$1,234" and fmt.money(1234, "CNY") == "¥1,234"
        assert fmt.months(2.5) == "2.5 个月"
    assert fmt.months(2.5) == "2.5 months"


def test_terminal_summary_in_chinese(result):
    from rich.console import Console

    console = Console(width=120, record=True, color_system=None)
    console.print(summary_table(result, "zh"))
    text = console.export_text()
    assert "方案（★ 最低）" in text and "否：" in text


def test_every_text_of_the_templates_is_in_the_catalog():
    from planner.messages import CATALOGUE
    from planner.render.html import _template_source

    keys = set(re.findall(r'\bt\("([^"]+)"', _template_source("report.html")))
    render = Path(__file__).resolve().parent.parent / "planner" / "render"
    files = [*sorted((render / "content").glob("*.py")), *sorted((render / "charts").glob("*.py")),
             render / "html.py", render / "terminal.py"]
    sources = "".join(path.read_text() for path in files)
    keys |= set(re.findall(r'\bt\("([^"{]+)"', sources))
    missing = sorted(keys - set(CATALOGUE))
    assert not missing
    untranslated = [k for k, (en, zh) in CATALOGUE.items()
                    if not zh and not k.startswith("fx.")]
    assert not untranslated


@pytest.mark.skipif(not __import__("planner.render.fonts", fromlist=["x"]).cjk_font(),
                    reason="no font with Chinese glyphs installed (fc-list :lang=zh)")
def test_chinese_report(result):
    import warnings

    from planner.render import fonts

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        page = render(result, "html", date=DATE, lang="zh").decode("utf-8")
    assert '<html lang="zh-Hans">' in page and "方案比较" in page and "第 " in page
    assert fonts.cjk_font() in page
    assert render(result, "html", date=DATE, lang="zh").decode("utf-8") == page
    pypdf = pytest.importorskip("pypdf")
    assert reports.html("fixture", lang="zh") == page
    reader = pypdf.PdfReader(io.BytesIO(reports.pdf("fixture", lang="zh")))
    assert "方案比较" in _squash(reader.pages[0].extract_text())


# -- colour and grayscale ---------------------------------------------------------------------


def _grey(color: str) -> float:
    red, green, blue = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue


def test_component_groups_stay_apart_in_grayscale():
    from planner.render import charts

    styles = charts.GROUP_STYLES
    assert set(styles) == {group for group, _ in content.COMPONENT_GROUPS}
    solid = sorted(_grey(s["color"]) for s in styles.values() if s["hatch"] is None)
    assert all(b - a >= 0.15 for a, b in itertools.pairwise(solid))
    hatches = [s["hatch"] for s in styles.values() if s["hatch"]]
    assert len(set(hatches)) == len(hatches)
    assert not any(c in h for h in hatches for c in "oO.*"), "dot hatches are slow to print"


def test_options_differ_by_more_than_colour(result):
    from planner.render import charts

    styles = charts.style.option_styles(result).values()
    assert len({(str(s["linestyle"]), s["marker"]) for s in styles}) == len(styles)


def _plan_with_every_reason_and_warning():
    """Options whose reasons and warnings cover each sentence the engine writes."""
    return planner.load({
        "version": 1, "horizon_months": 12, "site": {"electricity_per_kwh": 0.1},
        "demand": {"gpu_hours_per_month": 2000, "gpus": 2, "min_gpu_memory_gb": 40,
                   "reference_gpu": "a100-80gb"},
        "options": [
            {"name": "small", "own": {"purchase_price": 1000, "power_watts": 300,
                                      "gpu_count": 2, "gpu_memory_gb": 24}},
            {"name": "full", "own": {"purchase_price": 1000, "power_watts": 300,
                                     "gpu_count": 2}},
            {"name": "full-spill", "own": {"purchase_price": 1000, "power_watts": 300,
                                           "gpu_count": 2}, "overflow": "small"},
            {"name": "tier", "free_tier": "kaggle", "fallback": "rent"},
            {"name": "baidu", "free_tier": "baidu-ai-studio"},
            {"name": "rent", "cloud": {"price_per_hour": 2, "gpus": 2}},
            {"name": "odd", "cloud": {"price_per_hour": 2, "gpus": 2, "gpu": "rtx-4090"}},
        ],
    }).evaluate()


def test_engine_reasons_and_warnings_are_translated():
    from planner.render import i18n

    result = _plan_with_every_reason_and_warning()
    messages = {message for row in result.data["options"]
                for message in (row["reasons"] or []) + (row["warnings"] or [])}
    assert len(messages) >= 5, messages
    with i18n.language("zh"):
        for message in messages:
            translated = i18n.text(message)
            assert translated != str(message), message
            # What is left in Latin letters is names, keys and units, never English prose.
            prose = re.sub(r"[\w.-]*_[\w.-]*|“[^”]*”|\([^)]*\)|（[^）]*）|[A-Za-z0-9-]+\d[\w-]*",
                           "", translated)
            assert not re.search(r"\b(the|is|and|than|no|of)\b", prose), translated
    english = {text for row in result.to_dict()["options"]
               for text in row["reasons"] + row["warnings"]}
    assert {i18n.text(message) for message in messages} == english  # English outside zh


@pytest.mark.parametrize("message, text", [
    (Message("warning.no_throughput", gpu="rtx-4090", reference="mi300x"),
     "no throughput figure relates rtx-4090 to mi300x; relative speed 1 assumed"),
    (Message("warning.random_gpus", handed_out=Message(
        "warning.list", first=Message("warning.gpu_share", gpu="t4", share=Share(0.7)),
        rest=Message("warning.gpu_share", gpu="p100", share=Share(0.3)))),
     ("GPUs handed out at random (t4 70%, p100 30%); costs use the expected speed of the "
      "sessions that get a GPU with enough memory")),
    (Message("warning.flops_speed"),
     "relative_speed does not apply to FLOPs demand and was ignored"),
    (Message("reason.unmet"), "demand cannot be served"),
    (Message("reason.wide_own"), "a job needs more GPUs (demand.gpus) than the machine has"),
    (Message("reason.fallback_target", target="rent", reason=Message("reason.unmet")),
     "fallback option 'rent' cannot take the work: demand cannot be served"),
])
def test_engine_notes_are_translated(message, text):
    from planner.render import i18n

    assert str(message) == text
    with i18n.language("zh"):
        translated = i18n.text(message)
    assert translated != text and not re.search(r"\b(the|is|to|of)\b", translated), translated



def _plans_with_every_message():
    """Results whose reasons, warnings, breakdown units and inputs cover every message the
    rate cards, the engine and evaluation write."""
    own = {"purchase_price": 1000, "power_watts": 300, "gpu_count": 2, "lifetime_years": 0.5}
    financed = dict(own, financing={"annual_rate": 0.06, "months": 12, "down_payment": 100})
    return [
        _plan_with_every_reason_and_warning(),
        planner.load(EXAMPLES_DIR / "usage.yaml").evaluate(),
        planner.load(EXAMPLES_DIR / "startup-h100.yaml").evaluate(),
        planner.load({
            "version": 1, "horizon_months": 18, "discount_rate": 0.05,
            "site": {"region": "us-ca", "pue": 1.3},
            "demand": {"utilization": 0.6, "gpus": 1, "growth_per_year": 0.1, "data_gb": 10,
                       "min_gpu_memory_gb": 12},
            "options": [
                {"name": "box", "own": own, "overflow": "spill"},
                {"name": "loan", "own": financed},
                {"name": "spill", "cloud": {"price_per_hour": 2, "gpus": 1}},
                {"name": "term", "cloud": {"price_per_hour": 1.5, "gpus": 1,
                                           "reserved_1y_price_per_hour": 1.0},
                 "pricing": "reserved_1y"},
                {"name": "colab", "free_tier": "colab-free", "fallback": "spill"},
                {"name": "tight", "free_tier": "kaggle", "fallback": "small"},
                {"name": "small", "cloud": {"price_per_hour": 1, "gpus": 1, "gpu_memory_gb": 8}},
            ],
        }).evaluate(),
        planner.load({
            "version": 1, "horizon_months": 12, "site": {"electricity_per_kwh": 0.1},
            "demand": {"flops_per_month": 1e20, "gpus": 1},
            "options": [
                {"name": "box", "own": dict(own, gpu="rtx-4090"), "overflow": "cloud"},
                {"name": "cloud", "cloud": {"price_per_hour": 2, "gpus": 1, "gpu": "a100-80gb"},
                 "relative_speed": 2},
            ],
        }).evaluate(),
    ]


def _messages_of(result):
    """Every message a Result holds: reasons, warnings, units, inputs, sensitivity labels,
    assumptions."""
    found = [m for row in result.data["options"] for m in row["reasons"] + row["warnings"]]
    found += list(result.breakdown["unit"]) + [part for i in result.inputs for part in i]
    found += list(result.sensitivity["input"]) if not result.sensitivity.empty else []
    found += [a[key] for a in result.assumptions for key in ("item", "value")]
    return [m for m in found if isinstance(m, Message)]


def _names_in(messages):
    """The text parameters of messages (option names, GPU ids, regions): names, not prose."""
    names = set()
    for message in messages:
        for _, value in message.params:
            if isinstance(value, Message):
                names |= _names_in([value])
            elif isinstance(value, str):
                names.add(value)
    return names


def test_every_message_key_used_has_both_languages():
    from planner.messages import CATALOGUE, keys_of

    sources = "".join(path.read_text() for path in
                      (Path(__file__).resolve().parent.parent / "planner").rglob("*.py")
                      if path.name != "catalogue.py")
    keys = set(re.findall(r'Message\(\s*"([a-z_]+\.[a-z_]+)"|"(qty\.[a-z_]+)"', sources))
    keys = {key for pair in keys for key in pair if key}
    for result in _plans_with_every_message():
        keys |= set(keys_of(_messages_of(result)))
    assert {"reason.overflow_target", "reason.fallback_target", "qty.passed_gpu_hours",
            "qty.passed_flops", "qty.loan_payments", "qty.committed_instance_hours",
            "qty.machines_sold", "input.utilization", "input.price_at"} <= keys
    missing = sorted(k for k in keys if k not in CATALOGUE or not all(CATALOGUE[k]))
    assert not missing


def test_chinese_report_has_no_english_left_of_the_engine():
    """The breakdown, reasons, warnings, inputs and sensitivity labels in Chinese: no word of
    the English templates is left but names, ids, usage keys and units."""
    from planner.messages import CATALOGUE
    from planner.render import i18n

    english_words = {word for key, (english, _) in CATALOGUE.items()
                     if key.split(".")[0] in ("reason", "warning", "qty", "input", "assumption")
                     for word in re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^}]*\}", "", english))}
    allowed = {"GPU", "GB", "kWh", "PUE", "FLOPs", "overflow", "fallback"}  # units, usage keys
    for result in _plans_with_every_message():
        names = _names_in(_messages_of(result)) | {o["name"] for o in result.data["options"]}
        with i18n.language("zh"):
            texts = [row["unit"] for table in content.breakdown_tables(result)
                     for row in table["rows"]]
            for row in content.option_rows(result):
                texts += row.reasons + row.warnings
            texts += content.warnings(result, DATE)
            texts += [part for pair in content.inputs(result) for part in pair]
            analysis = content.sensitivity(result)
            if analysis:
                texts += [r["input"] for r in analysis["rows"]] + analysis["still"]
            texts += [r["reasons"] for r in content.free_tier_rows(result)]
        for text in texts:
            text = " ".join(text) if isinstance(text, list) else text
            for name in sorted(names, key=len, reverse=True):
                text = text.replace(name, " ")
            # usage keys (min_gpu_memory_gb, demand.gpus) and ids with digits are not prose
            words = re.sub(r"[\w.-]*[_.][\w.-]*[a-z][\w.-]*|[A-Za-z0-9-]*\d[\w-]*", " ", text)
            left = set(re.findall(r"[A-Za-z]{2,}", words)) & english_words - allowed
            assert not left, (text, left)

def test_the_python_api_honours_source_date_epoch_like_the_command_line(result, monkeypatch):
    """SPEC §4: planner.render writes the same files as the command line, which dates them by
    SOURCE_DATE_EPOCH when it is set."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13 UTC
    assert render(result, "html") == render(result, "html", date=datetime.date(2023, 11, 14))
