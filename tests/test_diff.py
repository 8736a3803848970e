"""``planner diff`` and ``planner.render.diff``: inputs changed, options added and removed, the
decision before and after, exit codes."""

from __future__ import annotations

import datetime
import io
import json
from pathlib import Path

import pytest
import reports

import planner
from planner.evaluate.compare import InputChange, PlanDiff
from planner.render.diff import render

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
USAGE = EXAMPLES / "usage.yaml"
STARTUP = EXAMPLES / "startup-h100.yaml"
DATE = datetime.date(2026, 1, 15)


@pytest.fixture(scope="module")
def dearer(tmp_path_factory) -> Path:
    """The usage example with one key changed: the workstation's system price 7000 -> 9000."""
    text = USAGE.read_text()
    assert text.count("system_price: 7000 ") == 1
    path = tmp_path_factory.mktemp("plans") / "dearer.yaml"
    path.write_text(text.replace("system_price: 7000 ", "system_price: 9000 "))
    return path


@pytest.fixture(scope="module")
def examples_diff() -> PlanDiff:
    return planner.diff(USAGE, STARTUP)


@pytest.fixture(scope="module")
def one_key(dearer) -> PlanDiff:
    return planner.diff(USAGE, dearer)


# -- the two examples ---------------------------------------------------------------------------


def test_examples_inputs(examples_diff):
    assert [(c.path, c.old, c.new) for c in examples_diff.inputs] == [
        ("title", "Vision lab: workstation, cloud A100s or Kaggle",
         "LLM start-up: 8×H100 server or committed cloud"),
        ("discount_rate", 0.05, 0.1),
        ("demand.gpu_hours_per_month", 1200.0, None),
        ("demand.utilization", None, 0.7),
        ("demand.gpus", 1, 8),
        ("demand.reference_gpu", "a100-80gb", "h100-80gb"),
        ("demand.workload", "cv", "llm"),
        ("demand.min_gpu_memory_gb", 16.0, 80.0),
        ("demand.growth_per_year", 0.25, 0.3),
        ("demand.job_hours", 6.0, None),
        ("demand.data_gb", 500.0, 5000.0),
        ("site.electricity_per_kwh", 0.16, 0.12),
        ("site.pue", 1.1, 1.4),
        ("site.carbon_kg_per_kwh", 0.37, None),
    ]


def test_examples_options_and_decision(examples_diff):
    d = examples_diff
    assert d.options_removed == ["workstation", "a100-on-demand", "a100-spot", "kaggle"]
    assert d.options_added == ["h100-server", "h100-reserved-1y", "h100-reserved-3y",
                               "h100-on-demand"]
    assert d.cheapest == ("workstation", "h100-server") and d.decision_changed
    assert [o.status for o in d.options] == ["removed"] * 4 + ["added"] * 4
    assert all(v is None for o in d.options for v in o.change.values())
    assert [(b.own, b.versus, b.status) for b in d.break_even][:1] == [
        ("workstation", "a100-on-demand", "removed")]
    assert d.notes == []


# -- one key changed ----------------------------------------------------------------------------


def test_one_key_changed(one_key, dearer):
    old = planner.load(USAGE).evaluate().data
    new = planner.load(dearer).evaluate().data
    d = one_key
    assert d.inputs == [InputChange("options.workstation.own.system_price", 7000.0, 9000.0)]
    assert d.options_added == [] and d.options_removed == []
    assert d.cheapest == ("workstation", "workstation") and not d.decision_changed
    assert [(o.name, o.status) for o in d.options] == [
        ("workstation", "changed"), ("a100-on-demand", "unchanged"), ("a100-spot", "unchanged"),
        ("kaggle", "unchanged")]
    work = d.options[0]
    assert work.old["total_cost"] == old["options"][0]["total_cost"]
    assert work.new["present_value"] == new["options"][0]["present_value"]
    # 2,000 more for the machine today, less the share of it still worth something at the end.
    assert work.change["total_cost"] == pytest.approx(
        new["options"][0]["total_cost"] - old["options"][0]["total_cost"])
    assert 0 < work.change["total_cost"] < 2000
    assert d.options[1].change == {"total_cost": 0.0, "present_value": 0.0,
                                   "cost_per_gpu_hour": 0.0}
    for change, before, after in zip(d.break_even, old["break_even"], new["break_even"]):
        assert change.status == "changed"
        assert change.old["months"] == before["months"]
        assert change.new["months"] == after["months"]
        assert change.change["months"] == pytest.approx(after["months"] - before["months"])
        assert change.change["months"] > 0  # a dearer machine pays off later


def test_same_plan_twice_has_no_change():
    d = planner.diff(USAGE, USAGE)
    assert d.inputs == [] and not d.decision_changed
    assert {o.status for o in d.options} == {"unchanged"}
    assert {b.status for b in d.break_even} == {"unchanged"}


def test_a_default_written_out_is_no_change(tmp_path):
    text = USAGE.read_text()
    assert text.count("hours_per_month: 730 ") == 1 and text.count("pricing: on_demand ") == 1
    spelled = tmp_path / "spelled.yaml"
    spelled.write_text(text.replace("hours_per_month: 730 ", "hours_per_month: 730.0 ")
                       .replace("    pricing: on_demand ",
                                "    restart_minutes: 5\n    pricing: on_demand "))
    assert planner.diff(USAGE, spelled).inputs == []


# -- the Python API -----------------------------------------------------------------------------


def test_api_takes_plans_dicts_and_results():
    import planner.evaluate.compare
    import planner.render.diff

    plan = planner.load(USAGE)
    cheaper = plan.replace({"site.electricity_per_kwh": 0.08})
    d = planner.diff(plan, cheaper)
    assert callable(planner.diff) and isinstance(d, PlanDiff)
    assert [c.path for c in d.inputs] == ["site.electricity_per_kwh"]
    assert d.options[0].change["total_cost"] < 0
    results = planner.diff(plan.evaluate(), cheaper.evaluate())
    assert results.inputs is None
    assert results.options[0].change == d.options[0].change
    data = dict(plan.data)
    data["options"] = [o for o in data["options"] if o["name"] != "a100-on-demand"]
    smaller = planner.diff(plan, data)
    assert smaller.options_removed == ["a100-on-demand"]
    assert smaller.new.name == "plan"


def test_to_dict_is_json(one_key):
    data = json.loads(json.dumps(one_key.to_dict(), allow_nan=False))
    assert data["format_version"] == 1
    assert data["cheapest"] == {"old": "workstation", "new": "workstation", "changed": False}
    assert data["inputs"] == [{"path": "options.workstation.own.system_price", "old": 7000.0,
                               "new": 9000.0}]
    assert data["options"][0]["old"]["kind"] == "own"
    assert set(data) >= {"old", "new", "options", "break_even", "options_added",
                         "options_removed", "notes"}


def test_kind_change_and_currency_note():
    plan = planner.load(USAGE)
    data = json.loads(json.dumps(plan.data))
    data["currency"] = "EUR"
    data["fx"] = {"USD": 0.9}
    spot = next(o for o in data["options"] if o["name"] == "a100-spot")
    del spot["cloud"], spot["region"], spot["pricing"], spot["interruptions_per_hour"]
    del spot["restart_minutes"]
    spot["cloud"] = {"price_per_hour": 1.5, "gpu": "a100-40gb"}
    d = planner.diff(plan, data)
    paths = [c.path for c in d.inputs]
    assert "currency" in paths and "fx.USD" in paths
    assert "options.a100-spot.cloud" in paths
    assert any("different currencies" in n for n in d.notes)
    assert all(v is None for o in d.options for v in o.change.values())


def test_api_reports_problems_of_both_sides(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nhorizon_month: 12\ndemand: {gpu_hours_per_month: 5}\n"
                   "options:\n  - name: c\n    cloud: aws/nope\n")
    with pytest.raises(planner.UserError) as caught:
        planner.diff(bad, tmp_path / "missing.yaml")
    text = str(caught.value)
    assert "bad.yaml:2:1" in text and "missing.yaml" in text


# -- rendering ----------------------------------------------------------------------------------


def test_markdown(one_key):
    text = render(one_key, "md", date=DATE).decode("utf-8")
    assert text.startswith("# What changed: Vision lab: workstation, cloud A100s or Kaggle\n")
    assert "2026-01-15 · usage.yaml → dearer.yaml" in text
    assert "The cheapest option stays workstation." in text
    assert "| options.workstation.own.system_price | 7,000  | 9,000 |" in text
    assert "| workstation    |      $44,421 |     $45,696 | +$1,275 |" in text
    assert "|            +0.4 |" in text  # 6.2 -> 6.6 months against on-demand
    assert "Before: Buy workstation" in text and "After: Buy workstation" in text
    assert render(one_key, "md", date=DATE) == render(one_key, "md", date=DATE)


def test_markdown_of_the_examples(examples_diff):
    text = render(examples_diff, "md", date=DATE).decode("utf-8")
    assert "The cheapest option changes from workstation to h100-server." in text
    assert "Options added: h100-server, h100-reserved-1y, h100-reserved-3y, h100-on-demand." in text
    assert "| workstation (removed)    |      $44,421 | not in plan |" in text


def test_unknown_format_is_refused(one_key):
    with pytest.raises(ValueError, match="pdf"):
        render(one_key, "docx")


def test_html_page_in_the_report_style(one_key):
    page = render(one_key, "html", date=DATE).decode("utf-8")
    assert "<h1>What changed: Vision lab: workstation, cloud A100s or Kaggle</h1>" in page
    assert "2026-01-15</span> · usage.yaml → dearer.yaml" in page
    assert "<th scope=\"row\">options.workstation.own.system_price</th><td>7,000</td>" in page
    assert "+$1,275" in page and "<strong>After:</strong> Buy workstation" in page
    assert "@page" in page  # the report's stylesheet, for print
    assert render(one_key, "html", date=DATE) == render(one_key, "html", date=DATE)


def test_html_escapes_names():
    def doc(price):
        return {"version": 1, "demand": {"gpu_hours_per_month": 10},
                "options": [{"name": "<b>x</b>", "cloud": {"price_per_hour": price}}]}

    page = render(planner.diff(doc(1), doc(2)), "html", date=DATE).decode("utf-8")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_pdf_page(one_key):
    from pypdf import PdfReader

    content = render(one_key, "pdf", date=DATE)
    reader = PdfReader(io.BytesIO(content))
    text = " ".join(page.extract_text() for page in reader.pages)
    assert len(reader.pages) == 1
    assert "What changed" in text and "+$1,275" in text and "Recommendation" in text


def test_markdown_in_chinese(examples_diff):
    """``lang="zh"``: headings, column heads, the decision, the "not in plan" cells and both
    recommendations in Chinese; the figures and names are the English page's, cell for cell
    where a cell is a figure."""
    english = render(examples_diff, "md", date=DATE).decode("utf-8")
    text = render(examples_diff, "md", date=DATE, lang="zh").decode("utf-8")
    for heading in ("## 变更的输入", "## 成本", "## 何时回本", "## 建议"):
        assert heading in text
    assert "成本最低的方案从 workstation 变为 h100-server。" in text
    assert "新增方案：h100-server、h100-reserved-1y、h100-reserved-3y、h100-on-demand。" in text
    assert "| workstation（移除）" in text and "不在方案中" in text
    assert "修改前：购买 workstation" in text and "修改后：购买 h100-server" in text
    for english_only in ("## Costs", "not in plan", "Before: Buy", "The cheapest option"):
        assert english_only not in text and english_only in english

    def money_cells(page):
        return [cell.strip() for line in page.splitlines() if line.startswith("|")
                for cell in line.split("|") if "$" in cell]

    # The Chinese locale writes US dollars "US$" (Babel's zh), the English "$".
    assert [cell.replace("US$", "$") for cell in money_cells(text)] == money_cells(english)
    assert money_cells(english)  # the comparison has money in it


def test_terminal_summary_in_chinese(one_key):
    from rich.console import Console

    console = Console(width=160, record=True, no_color=True)
    from planner.render.diff import print_summary

    print_summary(one_key, console, "zh")
    out = console.export_text()
    assert "成本最低的方案仍是 workstation。" in out and "何时回本，修改前 → 修改后" in out
    assert "US$44,421 → US$45,696" in out and "+US$1,275" in out
    assert "cheapest" not in out


@reports.needs_cjk_font
def test_html_page_in_chinese(one_key):
    page = render(one_key, "html", date=DATE, lang="zh").decode("utf-8")
    assert '<html lang="zh-Hans"' in page or 'lang="zh-Hans"' in page
    assert "<h1>变化：Vision lab: workstation, cloud A100s or Kaggle</h1>" in page
    assert "<strong>修改后：</strong> 购买 workstation" in page
    assert "Recommendation" not in page and "Plan comparison" not in page


def test_json_stays_english(one_key):
    """The JSON holds SPEC-style fields and the English recommendations whatever ``lang``."""
    assert render(one_key, "json", date=DATE, lang="zh") == render(one_key, "json", date=DATE)


def test_diff_texts_have_chinese():
    from planner.messages import CATALOGUE

    keys = [key for key in CATALOGUE if key.startswith("diff.")]
    assert len(keys) > 40
    assert all(CATALOGUE[key][1] for key in keys), [k for k in keys if not CATALOGUE[k][1]]


# -- the command line ---------------------------------------------------------------------------


def test_cli_summary(run, dearer):
    result = run("diff", USAGE, dearer)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The cheapest option stays workstation." in out
    assert "options.workstation.own.system_price" in out and "9,000" in out
    assert "$44,421 → $45,696" in out and "+$1,275" in out


def test_cli_examples(run):
    result = run("diff", USAGE, STARTUP)
    assert result.exit_code == 0, result.output
    assert "The cheapest option changes from workstation to h100-server." in result.output
    assert "Options added: h100-server" in result.output


def test_cli_writes_markdown_and_json(run, dearer, tmp_path, one_key):
    md = tmp_path / "change.md"
    result = run("diff", USAGE, dearer, "-o", md, "--date", "2026-01-15")
    assert result.exit_code == 0, result.output
    assert md.read_bytes() == render(one_key, "md", date=DATE)
    assert f"wrote {md}" in result.output
    out = tmp_path / "change.txt"
    assert run("diff", USAGE, dearer, "-o", out, "--format", "json").exit_code == 0
    assert json.loads(out.read_text()) == one_key.to_dict()
    stdout = run("diff", USAGE, dearer, "-o", "-")
    assert stdout.exit_code == 0
    assert json.loads(stdout.output) == one_key.to_dict()
    assert run("diff", USAGE, dearer, "-o", "-", "--format", "md").output.startswith("# ")
    pdf = tmp_path / "change.pdf"
    assert run("diff", USAGE, dearer, "-o", pdf).exit_code == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    html = tmp_path / "change.html"
    assert run("diff", USAGE, dearer, "-o", html, "--date", "2026-01-15").exit_code == 0
    assert html.read_bytes() == render(one_key, "html", date=DATE)
    chinese = tmp_path / "change-zh.md"
    result = run("diff", USAGE, dearer, "-o", chinese, "--date", "2026-01-15", "--lang", "zh")
    assert result.exit_code == 0, result.output
    assert chinese.read_bytes() == render(one_key, "md", date=DATE, lang="zh")
    assert "成本最低的方案仍是 workstation。" in result.output  # the summary follows --lang


def test_cli_exit_codes(run, tmp_path, dearer):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nhorizon_month: 12\ndemand: {gpu_hours_per_month: -5}\n"
                   "options:\n  - name: box\n    own: {purchase_price: 1000, power_watts: 100}\n")
    worse = tmp_path / "worse.yaml"
    worse.write_text("version: 1\ndemand: {gpu_hours_per_month: 5}\noptions:\n"
                     "  - name: k\n    free_tier: kagle\n")
    target = tmp_path / "out.md"
    target.write_text("previous")
    result = run("diff", bad, worse, "-o", target)
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    assert "bad.yaml:2:1" in result.output and "worse.yaml:5:16" in result.output
    assert target.read_text() == "previous"
    assert run("diff", USAGE, tmp_path / "none.yaml").exit_code == 1
    assert run("diff", USAGE, dearer, "-o", tmp_path / "out.docx").exit_code == 2
    assert run("diff", USAGE, dearer, "--format", "docx").exit_code == 2
    assert run("diff", USAGE).exit_code == 2
    assert not (tmp_path / "out.docx").exists()


def test_cli_failed_write_leaves_the_old_file(run, dearer, tmp_path, monkeypatch):
    import pricing.files as module

    target = tmp_path / "change.md"
    target.write_text("previous")

    def broken(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module.os, "replace", broken)
    result = run("diff", USAGE, dearer, "-o", target)
    assert result.exit_code == 1
    assert "cannot write" in result.output
    assert target.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["change.md"]
