"""The clouds a lab in mainland China rents from: AutoDL's rows (issue 15, point 1) load, are
priced in CNY, are dated within the staleness threshold, and an option naming one evaluates to
the hand-computed cost; the China-market GPUs (A800, H800) they rent are in gpus.csv."""

import datetime

import pytest
from reports import needs_cjk_font

import planner
from pricing.catalog import load_catalog
from pricing.freshness import row_age_days

DAY = datetime.date(2026, 12, 1)  # the session's date; the planner's threshold is 180 days

# AutoDL's on-demand prices per GPU-hour (CNY), as the source table of August 2026 gives them
AUTODL = {
    "autodl/A100-40GB": ("a100-40gb", 3.45),
    "autodl/A800-80GB": ("a800-80gb", 4.98),
    "autodl/H800-80GB": ("h800-80gb", 8.88),
    "autodl/RTX-2080Ti": ("rtx-2080ti", 0.88),
    "autodl/RTX-3090": ("rtx-3090", 1.32),
    "autodl/RTX-4090": ("rtx-4090", 1.88),
    "autodl/RTX-5090": ("rtx-5090", 2.78),
    "autodl/RTX-A4000": ("rtx-a4000", 0.92),
    "autodl/V100-32GB": ("v100-32gb", 1.88),
}


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def test_the_autodl_rows_load_priced_in_cny_and_fresh(catalog):
    rows = [r for r in catalog.rows("clouds") if r["provider"] == "autodl"]
    assert {r["id"]: (r["gpu"], r["price_per_hour"]) for r in rows} == AUTODL
    for row in rows:
        assert row["currency"] == "CNY"
        assert row["gpus"] == 1 and row["region"] == "*"
        assert row["billing_increment_minutes"] == 1  # the coarser of the source's two words
        # on demand only: no spot, and a monthly package is no 1-year commitment
        assert row["spot_price_per_hour"] is None
        assert row["reserved_1y_price_per_hour"] is None
        assert row["reserved_3y_price_per_hour"] is None
        # 2026-08 counts from 2026-08-01: 122 days before 2026-12-01, within 180
        assert row_age_days(row["as_of"], DAY) == 122
        assert row["source"] == "https://www.autodl.com/market/list"
        assert "0xPabloLI/inside-china-ai" in row["notes"]  # what it was read from
        assert "estimate" in row["notes"]


def test_the_china_market_gpus_train_at_their_twins_speed(catalog):
    a800, a100 = catalog.gpu("a800-80gb"), catalog.gpu("a100-80gb")
    h800, h100 = catalog.gpu("h800-80gb"), catalog.gpu("h100-80gb")
    assert (a800.memory_gb, h800.memory_gb) == (80, 80)
    assert a800.street_price is None and h800.street_price is None  # none dated was found
    for workload in ("generic", "cv", "nlp", "llm"):
        assert catalog.relative_speed("a800-80gb", "a100-80gb", workload) == 1.0
        assert catalog.relative_speed("h800-80gb", "h100-80gb", workload) == 1.0
    assert a100.tdp_watts == a800.tdp_watts == 400 and h100.tdp_watts == h800.tdp_watts == 700


def plan(option: dict, currency: str = "CNY", **demand) -> dict:
    return {"version": 1, "currency": currency, "horizon_months": 12,
            "fx": {"CNY": 0.14},
            "demand": {"gpu_hours_per_month": 100, "reference_gpu": "a100-80gb", **demand},
            "options": [{"name": "rent", **option}]}


def test_an_autodl_option_evaluates_to_the_hand_computed_cost():
    option = planner.load(plan({"cloud": "autodl/A800-80GB"})).evaluate().to_dict()["options"][0]
    assert option["feasible"]
    # the A800 trains at the A100 80 GB's speed: 100 reference GPU-hours are 100 A800-hours,
    # 100 h x 4.98 CNY/h = 498 CNY a month, 12 x 498 = 5,976 CNY over the horizon
    assert option["monthly_cost"][1] == pytest.approx(498.0)
    assert option["total_cost"] == pytest.approx(5976.0)


def test_an_autodl_price_converts_with_the_usage_fx():
    usage = plan({"cloud": "autodl/RTX-4090"}, currency="USD", reference_gpu="rtx-4090")
    option = planner.load(usage).evaluate().to_dict()["options"][0]
    # 100 h x 1.88 CNY/h x 0.14 USD/CNY = 26.32 USD a month
    assert option["monthly_cost"][1] == pytest.approx(26.32)


def test_each_job_is_billed_in_whole_minutes():
    usage = plan({"cloud": "autodl/A800-80GB"}, job_hours=1.01)
    option = planner.load(usage).evaluate().to_dict()["options"][0]
    # a job of 1.01 h = 60.6 min is billed 61 min: 100 h of work rent 100 x (61/60) / 1.01 =
    # 100.660 h, x 4.98 CNY/h = 501.287 CNY a month
    assert option["monthly_cost"][1] == pytest.approx(100 * (61 / 60) / 1.01 * 4.98)
    assert option["monthly_cost"][1] == pytest.approx(501.287, abs=1e-3)


def test_tencents_refreshed_monthly_price_keeps_the_rows_old_date(catalog):
    row = catalog.cloud("tencent/GT4.4XLARGE96")
    # 12,948 CNY a month (Tencent's price overview as scraped on 2026-06-15) / 730 h
    assert row.reserved_1y_price_per_hour == pytest.approx(17.7370, abs=1e-4)
    # the on-demand price was not in that scrape: the row stays dated by the 2020 page
    assert row.price_per_hour == pytest.approx(28.64)
    assert row.as_of == "2020-05" and "estimate: not refreshed" in row.notes


@pytest.mark.parametrize(("lang", "words"), [("en", "moves neither the break-even month"),
                                              pytest.param("zh", "既不改变",
                                                           marks=needs_cjk_font)])
def test_the_example_says_that_no_input_changes_its_answer(lang, words):
    """examples/cn-lab.yaml against AutoDL: buying never pays off and no input moved ±25 %
    changes that, so there is no tornado and no table; the section says so instead of
    standing empty under its heading."""
    import re

    import reports

    html = reports.html("cn-lab", lang=lang)
    found = re.search(r'<section class="sensitivity">(.*?)</section>', html, re.DOTALL)
    section = found.group(1)
    assert "<svg" not in section and "<table" not in section
    assert words in section and "lab-server" in section and "ai-studio" in section


def test_the_alibaba_rows_load_priced_in_cny_and_fresh(catalog):
    rows = [r for r in catalog.rows("clouds") if r["provider"] == "alibaba"]
    assert {(r["id"], r["region"]) for r in rows} == {
        (f"alibaba/{instance}", region)
        for instance in ("ecs.gn6i-c4g1.xlarge", "ecs.gn7i-c8g1.2xlarge")
        for region in ("cn-shanghai", "cn-shenzhen")}
    for row in rows:
        assert row["currency"] == "CNY" and row["as_of"] == "2026-09-24"
        assert row_age_days(row["as_of"], DAY) == 68  # 2026-09-24 -> 2026-12-01
        assert row["spot_price_per_hour"] is None
    a10 = catalog.cloud("alibaba/ecs.gn7i-c8g1.2xlarge", region="cn-shanghai")
    assert (a10.gpu, a10.price_per_hour) == ("a10", 9.74)
    # monthly subscription 4,675.66 CNY / 730 h = 6.40501 CNY/h
    assert a10.reserved_1y_price_per_hour == pytest.approx(4675.66 / 730, abs=1e-4)
    t4 = catalog.cloud("alibaba/ecs.gn6i-c4g1.xlarge", region="cn-shenzhen")
    # its monthly quote is a promotion: no reserved price
    assert (t4.gpu, t4.price_per_hour, t4.reserved_1y_price_per_hour) == ("t4", 11.84, None)


def test_an_alibaba_option_reserved_for_a_year_evaluates():
    usage = plan({"cloud": "alibaba/ecs.gn7i-c8g1.2xlarge", "pricing": "reserved_1y",
                  "reserved_instances": 1}, reference_gpu="a10", gpu_hours_per_month=730)
    option = planner.load(usage).evaluate().to_dict()["options"][0]
    assert option["feasible"]
    # one instance committed all month: 730 h x 4,675.66 / 730 = 4,675.66 CNY a month
    assert option["monthly_cost"][1] == pytest.approx(4675.66, abs=0.01)
