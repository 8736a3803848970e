"""The Python API (SPEC §4) and the model's invariants over whole plans."""

import copy
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import planner
from planner.errors import UserError


def base_plan(**changes):
    """An inline plan (no catalog): own box with overflow, on-demand and reserved cloud, tier."""
    data = {
        "version": 1,
        "horizon_months": 24,
        "discount_rate": 0.06,
        "demand": {"gpu_hours_per_month": 400, "growth_per_year": 0.2, "data_gb": 100},
        "site": {"electricity_per_kwh": 0.2, "pue": 1.3},
        "options": [
            {"name": "box", "own": {"purchase_price": 12_000, "power_watts": 800,
                                    "maintenance_per_year": 300, "fixed_cost_per_month": 20,
                                    "operating_cost_per_hour": 0.05, "resale_fraction": 0.2,
                                    "lifetime_years": 1.5},
             "overflow": "rent"},
            {"name": "rent", "cloud": {"price_per_hour": 2.5,
                                       "reserved_1y_price_per_hour": 1.6},
             "storage_per_gb_month": 0.1},
            {"name": "commit", "cloud": {"price_per_hour": 2.5,
                                         "reserved_1y_price_per_hour": 1.6},
             "pricing": "reserved_1y"},
            {"name": "tier", "free_tier": {"weekly_quota_hours": 20, "session_hours": 9,
                                           "setup_minutes": 15, "fee_per_month": 10},
             "fallback": "rent"},
        ],
    }
    for key, value in changes.items():
        data[key] = value
    return data


def option(result, name):
    return next(o for o in result.to_dict()["options"] if o["name"] == name)


def test_load_a_dict_and_evaluate():
    result = planner.load(base_plan()).evaluate()
    d = result.to_dict()
    assert d["title"] == "plan"
    assert d["format_version"] == 1
    assert d["catalog_as_of"] is None  # nothing came from the catalog
    assert {o["name"] for o in d["options"]} == {"box", "rent", "commit", "tier"}
    assert len(d["break_even"]) == 3
    assert list(result.options.columns)[:3] == ["name", "kind", "feasible"]
    assert set(result.monthly["component"]) >= {"purchase", "energy", "rental", "overflow"}


def test_monthly_frame_adds_up_to_the_monthly_cost():
    result = planner.load(base_plan()).evaluate()
    for o in result.to_dict()["options"]:
        monthly = result.monthly[result.monthly.option == o["name"]]
        sums = monthly.groupby("month")["cost"].sum().to_numpy()
        assert sums == pytest.approx(o["monthly_cost"])


def test_total_cost_is_the_sum_less_residual_value():
    d = planner.load(base_plan()).evaluate().to_dict()
    box = option_by_name(d, "box")
    assert box["total_cost"] == pytest.approx(sum(box["monthly_cost"]) - box["residual_value"])


def option_by_name(d, name):
    return next(o for o in d["options"] if o["name"] == name)


def test_replace_returns_a_new_plan():
    plan = planner.load(base_plan())
    cheaper = plan.replace({"options.box.purchase_price": 6000})
    assert option(cheaper.evaluate(), "box")["total_cost"] < option(plan.evaluate(),
                                                                     "box")["total_cost"]
    assert plan.data["options"][0]["own"]["purchase_price"] == 12_000


def test_replace_with_a_bad_value_is_a_user_error():
    with pytest.raises(UserError) as err:
        planner.load(base_plan()).replace({"options.box.purchase_price": -1})
    assert "purchase_price" in str(err.value)


def test_sweep_columns_and_rows():
    plan = planner.load(base_plan())
    df = plan.sweep({"site.electricity_per_kwh": [0.1, 0.3],
                     "demand.gpu_hours_per_month": [0, 200, 900]})
    assert len(df) == 2 * 3 * 4
    for column in ("scenario", "site.electricity_per_kwh", "demand.gpu_hours_per_month",
                   "option", "total_cost", "cheapest", "break_even.rent.months",
                   "break_even.rent.system_hours", "break_even.tier.gpu_hours_per_month"):
        assert column in df.columns
    assert df[df.option != "box"]["break_even.rent.months"].isna().all()


def test_a_sweep_keeping_some_fields_holds_only_those_with_the_same_figures():
    # The draws of SPEC §7 read a few columns of many scenarios: run_sweep(fields=...) keeps
    # those (with scenario, option and cheapest), the same to the bit as in the whole frame.
    from planner.evaluate.sweep import run_sweep

    plan = planner.load(base_plan())
    axes = {"site.electricity_per_kwh": [0.1, 0.3], "demand.gpu_hours_per_month": [0, 200, 900]}
    whole = plan.sweep(axes)
    kept = ["present_value", "feasible", "break_even.rent.months"]
    some = run_sweep(plan, axes, fields=kept)
    assert list(some.columns) == [c for c in whole.columns
                                  if c in {"scenario", "option", "cheapest", *kept}]
    for column in some.columns:
        assert some[column].equals(whole[column]), column


def test_a_sweep_over_a_value_no_option_uses():
    # Electricity with only rented options: every scenario has the same costs and answer (the
    # engine's figures stay one row; the frame still has one row per scenario and option).
    data = base_plan()
    data["options"] = [o for o in data["options"] if "own" not in o]
    df = planner.load(data).sweep({"site.electricity_per_kwh": [0.1, 0.2, 0.3]})
    assert len(df) == 3 * len(data["options"])
    assert df.groupby("scenario")["cheapest"].first().nunique() == 1


def test_sweep_zip_mode_and_non_numeric_axes():
    plan = planner.load(base_plan())
    df = plan.sweep({"options.rent.pricing": ["on_demand", "reserved_1y"],
                     "horizon_months": [12, 36]}, mode="zip")
    assert df.scenario.nunique() == 2
    first = df[(df.scenario == 0) & (df.option == "rent")].iloc[0]
    single = planner.load(base_plan(horizon_months=12)).evaluate()
    assert first.total_cost == pytest.approx(option(single, "rent")["total_cost"])


def test_sweep_rejects_invalid_scenarios():
    plan = planner.load(base_plan())
    with pytest.raises(UserError) as err:
        plan.sweep({"site.pue": [1.2, 0.5]})
    assert "pue" in str(err.value)
    with pytest.raises(UserError):
        plan.sweep({"demand.gpu_hours_per_month": [1, float("nan")]})
    with pytest.raises(UserError):
        plan.sweep({"site.no_such_key": [1]})


def _close(a, b):
    if a is None or (isinstance(a, float) and math.isnan(a)):
        return b is None or (isinstance(b, float) and math.isnan(b))
    return b is not None and a == pytest.approx(b, rel=1e-9, abs=1e-6)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(electricity=st.lists(st.floats(0, 1), min_size=1, max_size=3, unique=True),
       level=st.lists(st.floats(0, 3000), min_size=1, max_size=3, unique=True),
       price=st.floats(1000, 50_000))
def test_a_sweep_equals_the_evaluations_it_replaces(electricity, level, price):
    plan = planner.load(base_plan())
    df = plan.sweep({"site.electricity_per_kwh": electricity,
                     "demand.gpu_hours_per_month": level,
                     "options.box.purchase_price": [price]}, chunk_size=4)
    for (e, x), rows in df.groupby(["site.electricity_per_kwh",
                                    "demand.gpu_hours_per_month"]):
        single = plan.replace({"site.electricity_per_kwh": e, "demand.gpu_hours_per_month": x,
                               "options.box.purchase_price": price}).evaluate().to_dict()
        assert rows.iloc[0].cheapest == single["cheapest"]
        for o in single["options"]:
            row = rows[rows.option == o["name"]].iloc[0]
            for field in ("total_cost", "present_value", "residual_value", "energy_kwh",
                          "cost_per_gpu_hour", "gpu_hours_per_month"):
                assert _close(o[field], row[field]), (o["name"], field)
        for pair in single["break_even"]:
            row = rows[rows.option == pair["own"]].iloc[0]
            for field in ("months", "system_hours", "gpu_hours_per_month"):
                assert _close(pair[field], row[f"break_even.{pair['versus']}.{field}"])


MONEY_KEYS = {
    ("site", "electricity_per_kwh"), ("own", "purchase_price"), ("own", "maintenance_per_year"),
    ("own", "fixed_cost_per_month"), ("own", "operating_cost_per_hour"),
    ("cloud", "price_per_hour"), ("cloud", "reserved_1y_price_per_hour"),
    ("free_tier", "fee_per_month"), (None, "storage_per_gb_month"),
}


def scaled(data, k):
    data = copy.deepcopy(data)
    data["site"]["electricity_per_kwh"] *= k
    for entry in data["options"]:
        for kind in ("own", "cloud", "free_tier"):
            for key, value in entry.get(kind, {}).items():
                if (kind, key) in MONEY_KEYS:
                    entry[kind][key] = value * k
        if "storage_per_gb_month" in entry:
            entry["storage_per_gb_month"] *= k
    return data


@settings(max_examples=25, deadline=None)
@given(k=st.floats(0.01, 100), level=st.floats(0, 2000), growth=st.floats(-0.5, 1))
def test_scaling_every_price_scales_every_cost_and_keeps_break_even_months(k, level, growth):
    data = base_plan(demand={"gpu_hours_per_month": level, "growth_per_year": growth,
                             "data_gb": 100})
    a = planner.load(data).evaluate().to_dict()
    b = planner.load(scaled(data, k)).evaluate().to_dict()
    for oa, ob in zip(a["options"], b["options"]):
        for field in ("total_cost", "present_value", "residual_value"):
            if oa[field] is None:
                assert ob[field] is None
            else:
                assert ob[field] == pytest.approx(oa[field] * k, rel=1e-9, abs=1e-6)
    for pa, pb in zip(a["break_even"], b["break_even"]):
        assert _close(pa["months"], pb["months"])
    assert a["cheapest"] == b["cheapest"] or _tie(a)


def _tie(d):
    pvs = sorted(o["present_value"] for o in d["options"] if o["feasible"])
    return len(pvs) > 1 and pvs[1] == pytest.approx(pvs[0], rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(levels=st.lists(st.floats(0, 5000), min_size=2, max_size=6),
       pricing=st.sampled_from(["on_demand", "reserved_1y"]))
def test_more_usage_never_makes_renting_cheaper(levels, pricing):
    data = base_plan()
    data["options"][1]["pricing"] = pricing
    plan = planner.load(data)
    df = plan.sweep({"demand.gpu_hours_per_month": sorted(levels)})
    costs = df[df.option == "rent"].present_value.to_numpy()
    assert np.all(np.diff(costs) >= -1e-9 * np.maximum(costs[1:], 1))


def test_sweep_over_catalog_ids_reports_an_unknown_one():
    data = base_plan()
    data["options"][1] = {"name": "rent", "cloud": "lambda/gpu_1x_a100"}
    plan = planner.load(data)
    df = plan.sweep({"options.rent.cloud": ["lambda/gpu_1x_a100", "lambda/gpu_1x_h100_sxm5"]})
    rent = df[df.option == "rent"]
    assert rent.total_cost.iloc[1] > rent.total_cost.iloc[0]  # an H100 hour costs more
    with pytest.raises(UserError) as err:
        plan.sweep({"options.rent.cloud": ["lambda/gpu_1x_a100", "lambda/gpu_1x_a11"]})
    assert "lambda/gpu_1x_a11" in str(err.value) and "did you mean" in str(err.value)


def test_breakdown_adds_up_and_each_line_is_quantity_times_price():
    result = planner.load(base_plan()).evaluate()
    frame = result.breakdown
    d = result.to_dict()
    for o in d["options"]:
        lines = frame[frame.option == o["name"]]
        assert lines.cost.sum() == pytest.approx(o["total_cost"], rel=1e-12)
    priced = frame.dropna(subset=["quantity", "price"])
    assert len(priced) >= 8
    assert (priced.quantity * priced.price).to_numpy() == pytest.approx(priced.cost.to_numpy())
    rent = frame[(frame.option == "rent") & (frame.component == "rental")].iloc[0]
    assert str(rent.unit) == "instance-hours" and rent.price == 2.5


def test_free_tier_sessions_and_waiting_days():
    # 20 h a week of 9-hour sessions less 15 minutes; 400 GPU-hours of demand a month, so the
    # tier is full: 20·730/168 h a month served → per week 20 × (9 − 0.25)/9 h of work.
    data = base_plan(demand={"gpu_hours_per_month": 400, "job_hours": 10})
    tier = next(o for o in planner.load(data).evaluate().to_dict()["options"]
                if o["name"] == "tier")
    usable_per_month = 20 * 730 / 168 * (9 - 0.25) / 9
    assert tier["sessions_per_week"] == pytest.approx(usable_per_month / 8.75 * 168 / 730)
    assert tier["job_wait_days"] == pytest.approx(10 / (usable_per_month / (730 / 24)))


def test_a_sweep_uses_the_plans_own_extra_catalogs(tmp_path):
    """A plan loaded with catalogs=[file] sweeps with the same catalog it evaluates with: an
    instance known only to that file is found in every scenario (it used to be "unknown cloud
    instance" in the sweep's checks)."""
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(
        "id,provider,instance,region,gpu,gpus,gpu_memory_gb,price_per_hour,currency,as_of,"
        "source\n"
        "lab/a100x1,lab,a100x1,campus,a100-80gb,1,80,1.5,USD,2026-11,https://example.org/quote\n")
    data = {"version": 1, "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
            "options": [{"name": "quoted", "cloud": "lab/a100x1"}]}
    plan = planner.load(data, catalogs=[quotes])
    assert plan.evaluate().to_dict()["options"][0]["total_cost"] == pytest.approx(12 * 100 * 1.5)
    frame = plan.sweep({"demand.gpu_hours_per_month": [100, 200]})
    assert list(frame["total_cost"]) == pytest.approx([12 * 100 * 1.5, 12 * 200 * 1.5])
