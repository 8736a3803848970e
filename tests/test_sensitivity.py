"""Sensitivity: each row equals the single evaluation of the moved plan."""

import pytest

import planner
from planner.errors import UserError

EXAMPLE = "examples/usage.yaml"


def pair_months(result, own, versus):
    return next(p["months"] for p in result.to_dict()["break_even"]
                if (p["own"], p["versus"]) == (own, versus))


def test_rows_equal_the_moved_plans(monkeypatch):
    monkeypatch.chdir(__file__.rsplit("/tests/", 1)[0])
    plan = planner.load(EXAMPLE)
    result = plan.evaluate(sensitivity_range=0.2)
    table = result.sensitivity.set_index(result.sensitivity["input"].map(str))  # in English
    own, versus = result.sensitivity.attrs["pair"]
    assert own == result.cheapest
    box = plan.usage["options"][0]["own"]
    base_price = box["gpu_count"] * plan.catalog.gpu(box["gpu"]).street_price + box["system_price"]
    cheaper = plan.replace({"options.workstation.own.purchase_price": base_price * 0.8})
    assert table.loc["Price of workstation", "months_low"] == pytest.approx(
        pair_months(cheaper.evaluate(), own, versus), rel=1e-9)
    more = plan.replace({"demand.gpu_hours_per_month": 1200 * 1.2})
    assert table.loc["Demand", "months_high"] == pytest.approx(
        pair_months(more.evaluate(), own, versus), rel=1e-9)
    assert table.loc["Demand", "cheapest_high"] == more.evaluate().cheapest


def test_the_range_must_be_a_fraction():
    with pytest.raises(UserError):
        planner.load({"version": 1, "demand": {"gpu_hours_per_month": 1},
                      "options": [{"name": "c", "cloud": {"price_per_hour": 1}}]}
                     ).evaluate(sensitivity_range=1.5)
