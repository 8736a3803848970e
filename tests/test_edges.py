"""Numerical edges get a defined answer, with no warning leaking and no NaN in the JSON."""

import json
import math

import pytest

import planner

pytestmark = pytest.mark.filterwarnings("error")


def plan(**changes):
    data = {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": 1200, "power_watts": 500}},
            {"name": "rent", "cloud": {"price_per_hour": 1.0}},
        ],
    }
    for key, value in changes.items():
        data[key] = value
    return data


def evaluate(data):
    d = planner.load(data).evaluate().to_dict()
    text = json.dumps(d, allow_nan=False)  # raises on NaN or infinity
    assert "NaN" not in text
    return d


def row(d, name):
    return next(o for o in d["options"] if o["name"] == name)


def test_zero_prices_cost_nothing():
    data = plan(site={"electricity_per_kwh": 0})
    data["options"][0]["own"]["purchase_price"] = 0
    data["options"][1]["cloud"]["price_per_hour"] = 0
    d = evaluate(data)
    assert row(d, "box")["total_cost"] == 0 and row(d, "rent")["total_cost"] == 0
    assert d["cheapest"] == "box"  # a tie: first in file order
    assert d["break_even"][0]["months"] == 0


def test_zero_demand():
    d = evaluate(plan(demand={"gpu_hours_per_month": 0}))
    assert row(d, "rent")["total_cost"] == 0
    assert row(d, "rent")["cost_per_gpu_hour"] is None
    assert d["break_even"][0]["months"] is None  # the machine is never paid back
    # Owning: 1200 − 900 residual = 300, plus 0.5 kWh × $0.2 per GPU-hour: 300 + 0.1·12·x;
    # renting: 12·x → x = 300 / 10.8.
    assert d["break_even"][0]["gpu_hours_per_month"] == pytest.approx(300 / 10.8)


def test_demand_exactly_at_capacity_is_served():
    d = evaluate(plan(demand={"gpu_hours_per_month": 730}))
    box = row(d, "box")
    assert box["feasible"] and box["unmet_gpu_hours_per_month"] == 0
    assert box["first_unmet_month"] is None


def test_break_even_exactly_at_the_horizons_end():
    # Rent 100 h × $1 = $100 a month; the machine costs $1,200 and nothing to run: even at 12.
    data = plan(site={"electricity_per_kwh": 0})
    assert evaluate(data)["break_even"][0]["months"] == pytest.approx(12)


def test_identical_options():
    data = plan()
    data["options"][1] = {"name": "twin", "own": dict(data["options"][0]["own"])}
    d = evaluate(data)
    assert d["cheapest"] == "box"
    assert {(p["own"], p["months"]) for p in d["break_even"]} == {("box", 0), ("twin", 0)}


def test_nearly_parallel_cost_lines_say_never():
    # Running the machine costs almost exactly what renting does: it never catches up.
    data = plan(site={"electricity_per_kwh": 1.0 / 0.5 * (1 - 1e-12)})
    d = evaluate(data)
    assert d["break_even"][0]["months"] is None


def test_extreme_but_valid_numbers_stay_finite():
    data = plan(demand={"gpu_hours_per_month": 1e12, "growth_per_year": 10})
    data["options"][0]["overflow"] = "rent"
    d = evaluate(data)
    assert all(o["total_cost"] is None or math.isfinite(o["total_cost"])
               for o in d["options"])
