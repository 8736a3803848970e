"""Issue 10, points 4, 5 and 8: dates that mean what they say (prices dated and warned about,
specifications listed without a warning), exchange rates as assumptions, and warnings on
values that are legal but probably not meant."""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from click.testing import CliRunner

import planner
from planner.cli import main
from planner.render import content, i18n, render

EARLY = datetime.date(2026, 11, 30)  # 123 days after the A100 instance's price (2026-07-30)
LATE = datetime.date(2027, 3, 1)  # 214 days after it


def _cloud_plan(**top) -> dict:
    """A GCP A100 instance from the catalog: its price dated 2026-07-30, its GPU's
    specifications 2022-11-30."""
    return {"version": 1, "demand": {"gpu_hours_per_month": 100},
            "options": [{"name": "a100", "cloud": "gcp/a2-highgpu-1g",
                         "region": "us-central1"}], **top}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "plan.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _json(path: Path, date: str = "2026-11-30") -> dict:
    run = CliRunner().invoke(main, ["report", str(path), "--format", "json", "-o", "-",
                                    "--date", date], catch_exceptions=False)
    assert run.exit_code == 0, run.output
    return json.loads(run.stdout_bytes)


# -- point 4: prices are dated and warned about; specifications are not -----------------------


def test_prices_as_of_is_the_oldest_price_and_catalog_as_of_stays_the_oldest_row():
    data = planner.load(_cloud_plan()).evaluate().to_dict(EARLY)
    assert data["catalog_as_of"] == "2022-11-30"  # the A100's specifications (SPEC §2)
    assert data["prices_as_of"] == "2026-07-30"  # the instance's price


def test_old_specifications_give_no_stale_warning():
    result = planner.load(_cloud_plan()).evaluate()
    assert result.to_dict(EARLY)["warnings"] == []
    assert not any("oldest" in note for note in content.warnings(result, EARLY))


def test_old_prices_are_warned_about_in_the_json_and_the_report():
    result = planner.load(_cloud_plan()).evaluate()
    expected = ("The oldest prices used date from 2026-07-30, 214 days before 2027-03-01: "
                "check current prices before committing money.")
    assert result.to_dict(LATE)["warnings"] == [expected]
    assert expected in content.warnings(result, LATE)
    assert expected in render(result, "html", date=LATE).decode()


def test_a_street_price_is_dated_by_its_price_date():
    """The T4's street price is its 2018-09-13 launch price; the row is dated 2024-07-24."""
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.1},
        "options": [{"name": "box", "own": {"gpu": "t4"}}]}).evaluate()
    assert result.data["prices_as_of"] == "2018-09-13"
    kinds = {str(a["item"]): a["kind"] for a in result.assumptions}
    assert kinds == {"GPU NVIDIA Tesla T4": "reference",
                     "street price of NVIDIA Tesla T4": "price"}


def test_the_assumptions_tables_date_a_street_price_by_the_price():
    """The T4's row is dated 2024-07-24 and its street price 2018-09-13. The Result keeps the
    row's date in ``as_of`` (the plan's catalog_as_of counts it) and the price's own in
    ``price_as_of``; the report's tables put 2018-09-13 beside the price and 2024-07-24 beside
    the specifications, and the workbook's and ZIP's table carry both."""
    from planner.render.tables import assumptions_table

    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.1},
        "options": [{"name": "box", "own": {"gpu": "t4"}}]}).evaluate()
    price = "street price of NVIDIA Tesla T4"
    stored = {str(a["item"]): (a["as_of"], a["price_as_of"]) for a in result.assumptions}
    assert stored == {"GPU NVIDIA Tesla T4": ("2024-07-24", None),
                      price: ("2024-07-24", "2018-09-13")}
    shown = {row["item"]: row["as_of"] for row in content.assumption_rows(result)}
    assert shown == {"GPU NVIDIA Tesla T4": "2024-07-24", price: "2018-09-13"}
    markdown = render(result, "md", date=EARLY).decode()
    line = next(x for x in markdown.splitlines() if x.startswith(f"| {price}"))
    assert "| 2018-09-13 |" in line and "2024-07-24" not in line
    html = render(result, "html", date=EARLY).decode()
    assert '<td class="date">2018-09-13</td>' in html
    table = assumptions_table(result)
    assert dict(zip(table.column("item"), table.column("price_as_of"))) == {
        "GPU NVIDIA Tesla T4": None, price: "2018-09-13"}
    assert dict(zip(table.column("item"), table.column("as_of"))) == {
        "GPU NVIDIA Tesla T4": "2024-07-24", price: "2024-07-24"}


def test_a_pue_reference_is_listed_but_dates_no_price():
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.1, "kind": "server-closet"},
        "options": [{"name": "box", "own": {"purchase_price": 5000, "power_watts": 500}}],
    }).evaluate()
    assert result.data["catalog_as_of"] == "2008-10"
    assert result.data["prices_as_of"] is None
    assert result.to_dict(EARLY)["warnings"] == []
    rows = content.assumption_rows(result)
    assert [(r["item"], r["value"], r["kind"]) for r in rows] == [
        ("PUE of a Small server room or closet with comfort air-conditioning", "2",
         "reference")]


def test_the_chinese_assumptions_table_is_chinese():
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.1},
        "options": [{"name": "box", "own": {"gpu": "t4"}},
                    {"name": "a100", "cloud": "gcp/a2-highgpu-1g", "region": "us-central1"},
                    {"name": "kaggle", "free_tier": "kaggle"}]}).evaluate()
    with i18n.language("zh"):
        rows = {(r["item"], r["value"]) for r in content.assumption_rows(result)}
    assert ("NVIDIA Tesla T4 的市场价", "每块 GPU USD 1,880，定价日期 2018-09-13") in rows
    assert ("GPU NVIDIA Tesla T4", "显存、TDP、峰值 TFLOPS、吞吐量") in rows
    assert ("gcp/a2-highgpu-1g（us-central1）", "按需 USD 3.67339/小时") in rows
    assert ("免费层 Kaggle Notebooks", "每周 30 小时，每次会话 12 小时") in rows
    rows_en = {(r["item"], r["value"]) for r in content.assumption_rows(result)}
    assert ("free tier Kaggle Notebooks", "30 h/week, 12 h sessions") in rows_en
    # prices first, then specifications and references
    kinds = [r["kind"] for r in content.assumption_rows(result)]
    assert kinds == sorted(kinds, key=lambda kind: kind != "price") and kinds[0] == "price"


def test_each_cloud_pricing_lists_the_price_it_pays():
    """A spot option's assumption is its spot price, a reservation's its reserved price and
    the on-demand price above it (the A100 row: 3.67339 on demand, spot and reserved in the
    catalog), not the on-demand price for all."""
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "options": [{"name": "spot", "cloud": "gcp/a2-highgpu-1g", "region": "us-central1",
                     "pricing": "spot"},
                    {"name": "reserved", "cloud": "gcp/a2-highgpu-1g",
                     "region": "us-central1", "pricing": "reserved_1y"}]}).evaluate()
    from pricing.catalog import load_catalog
    row = load_catalog().cloud("gcp/a2-highgpu-1g", "us-central1")
    values = {r["value"] for r in content.assumption_rows(result)}
    assert f"USD {row.spot_price_per_hour}/h spot" in values
    assert f"USD {row.reserved_1y_price_per_hour}/h reserved for 1 year" in values
    assert f"USD {row.price_per_hour}/h on demand" in values  # the hours above the reservation
    assert row.spot_price_per_hour < row.reserved_1y_price_per_hour < row.price_per_hour


def test_a_system_row_the_model_does_not_read_dates_nothing():
    """Purchase price and both power figures given: the system row adds no assumption and does
    not date the prices (it did: 'prices as of 2020-10' for a plan priced by the user)."""
    own = {"system": "workstation-4gpu", "gpu": "t4", "purchase_price": 9000,
           "power_watts": 900, "idle_power_watts": 100}
    plan = {"version": 1, "demand": {"gpu_hours_per_month": 100},
            "site": {"electricity_per_kwh": 0.1},
            "options": [{"name": "box", "own": own}]}
    result = planner.load(plan).evaluate()
    assert result.data["prices_as_of"] is None
    assert not any("system" in str(a["item"]) for a in result.assumptions)
    # Its power read from the row: a reference, still no price date.
    own.pop("idle_power_watts")
    result = planner.load(plan).evaluate()
    assert result.data["prices_as_of"] is None
    assert [a["kind"] for a in result.assumptions if "system" in str(a["item"])] == ["reference"]
    # Its price read from the row (no purchase_price): a price, dated by the row.
    own.pop("purchase_price")
    result = planner.load(plan).evaluate()
    assert [a["kind"] for a in result.assumptions if "system" in str(a["item"])] == ["price"]


# -- point 5: exchange rates are assumptions ---------------------------------------------------


def test_an_fx_rate_used_is_an_assumption_located_in_the_file(tmp_path):
    path = _write(tmp_path, """version: 1
currency: CNY
fx:
  EUR: 7.8
  USD: 7.1
demand: {gpu_hours_per_month: 100}
options:
  - {name: a100, cloud: gcp/a2-highgpu-1g, region: us-central1}
""")
    result = planner.load(path).evaluate()
    rows = [r for r in content.assumption_rows(result) if r["item"].startswith("fx.")]
    assert [(r["item"], r["value"], r["as_of"], r["source"], r["kind"]) for r in rows] == [
        ("fx.USD (CNY per USD)", "7.1", "—", "your input (plan.yaml, line 5)", "price")]
    with i18n.language("zh"):
        zh = [r for r in content.assumption_rows(result) if r["item"].startswith("fx.")]
    assert zh[0]["item"] == "fx.USD（每 USD 合 CNY）"
    assert zh[0]["source"] == "你的输入（plan.yaml，第 5 行）"


# -- point 8: values that are legal but probably not meant ------------------------------------


PLAN = """version: 1
discount_rate: 3
hours_per_month: 8760
demand:
  utilization: 0
  growth_per_year: 2
site:
  electricity_per_kwh: 15
options:
  - name: box
    own:
      purchase_price: 50
      power_watts: 1.5
      lifetime_years: 48
      financing: {annual_rate: 6, months: 24}
"""


def test_implausible_values_are_warned_about_with_key_and_line(tmp_path):
    data = _json(_write(tmp_path, PLAN))
    assert data["warnings"] == [
        "discount_rate (plan.yaml, line 2): 3 is 300% a year: did you mean 0.03?",
        "demand.growth_per_year (plan.yaml, line 6): 2 is 200% a year: did you mean 0.02?",
        ("demand.utilization (plan.yaml, line 5): utilization is 0: the plan has no work, so "
        "every option costs only what it costs idle"),
        ("hours_per_month (plan.yaml, line 3): 8760 hours is more than a 31-day month has "
        "(744): is it the hours of a year (did you mean 730)?"),
        ("site.electricity_per_kwh (plan.yaml, line 8): 15 USD per kWh is more than 2 USD: "
        "is it in cents (did you mean 0.15)?"),
        ("options[0].own.purchase_price (plan.yaml, line 12): 50 USD for a whole machine: is "
        "it in thousands (did you mean 50000)?"),
        ("options[0].own.financing.annual_rate (plan.yaml, line 15): 6 is 600% a year: did "
        "you mean 0.06?"),
        ("options[0].own.power_watts (plan.yaml, line 13): 1.5 W for a whole machine: is it "
        "in kW (did you mean 1500)?"),
        ("options[0].own.lifetime_years (plan.yaml, line 14): a lifetime of 48 years: is it "
        "in months (did you mean 4)?"),
    ]


def test_the_warnings_show_in_the_terminal_and_the_report_and_the_plan_evaluates(tmp_path):
    path = _write(tmp_path, "version: 1\ndiscount_rate: 3\ndemand: {gpu_hours_per_month: 10}\n"
                            "options:\n  - {name: a, cloud: {price_per_hour: 1}}\n")
    out = tmp_path / "plan.html"
    run = CliRunner().invoke(main, ["report", str(path), "-o", str(out), "--date",
                                    "2026-11-30"], catch_exceptions=False)
    assert run.exit_code == 0
    sentence = "discount_rate (plan.yaml, line 2): 3 is 300% a year: did you mean 0.03?"
    assert f"warning: {sentence}" in run.stderr
    assert sentence in out.read_text(encoding="utf-8")
    check = CliRunner().invoke(main, ["validate", str(path)], catch_exceptions=False)
    assert check.exit_code == 0 and sentence in check.stderr


def test_electricity_is_judged_in_usd_through_fx():
    def warnings(site_price, fx):
        return planner.load({
            "version": 1, "currency": "CNY", "fx": fx, "demand": {"gpu_hours_per_month": 10},
            "site": {"electricity_per_kwh": site_price},
            "options": [{"name": "box", "own": {"purchase_price": 9000, "power_watts": 300}}],
        }).evaluate().to_dict(EARLY)["warnings"]

    assert warnings(20, {"USD": 7.1}) == [
        ("site.electricity_per_kwh: 20 CNY per kWh is more than 14.2 CNY (2 USD, by fx.USD): "
        "is the price or its currency wrong?")]
    assert warnings(1.2, {"USD": 7.1}) == []  # 0.17 USD
    assert warnings(20, {}) == []  # no rate to USD: not judged


def test_ordinary_values_and_a_machine_already_owned_give_no_warning():
    result = planner.load({
        "version": 1, "discount_rate": 0.08, "demand": {"gpu_hours_per_month": 100,
                                                        "growth_per_year": 1.0},
        "site": {"electricity_per_kwh": 0.3},
        "options": [{"name": "box", "own": {"purchase_price": 0, "power_watts": 300,
                                            "lifetime_years": 5}}]}).evaluate()
    assert result.plan_warnings == []


def test_a_key_written_in_other_units_is_judged_as_written():
    """8 % a month is 151.8 % a year: the growth_per_year filled in from growth_per_month is
    not warned about as a percentage written for a fraction; growth_per_month is judged with
    its own unit, and zero weekly demand is named by its own key."""
    def warnings(demand):
        return [str(w) for w in planner.load({
            "version": 1, "demand": demand,
            "options": [{"name": "rent", "cloud": {"price_per_hour": 2.0}}],
        }).evaluate().plan_warnings]

    assert warnings({"gpu_hours_per_month": 100, "growth_per_month": 0.08}) == []
    assert [w.split(":")[0] for w in warnings(
        {"gpu_hours_per_month": 100, "growth_per_month": 3})] == ["demand.growth_per_month"]
    assert [w.split(":")[0] for w in warnings(
        {"gpu_hours_per_week": 0})] == ["demand.gpu_hours_per_week"]
