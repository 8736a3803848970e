"""Numerical edges get a defined answer, with no warning leaking and no NaN in the JSON."""

import json
import math

import pytest
from builders import usage_plan as plan

import planner

pytestmark = pytest.mark.filterwarnings("error")


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


# -- found by the fuzz tests (issue 5) and the edges they circle --------------------------------


def test_demand_that_vanishes_after_month_one():
    """growth_per_year −1: (1 + g)^((m − 1)/12) is 1 in month 1 and 0 after; month 0's 0^(−1/12)
    divided by zero, and the sensitivity analysis (growth × 1.25 = −1.25) gave NaN."""
    d = evaluate(plan(demand={"gpu_hours_per_month": 100, "growth_per_year": -1}))
    rent = row(d, "rent")
    assert rent["monthly_cost"] == [0.0, 100.0] + [0.0] * 11
    assert rent["total_cost"] == pytest.approx(100)


def test_a_loan_at_a_rate_too_small_for_float_arithmetic():
    """(1 + 1e−17)^n − 1 is exactly 0 in floats: the payment was inf and the row null."""
    data = plan()
    data["options"][0]["own"]["financing"] = {"annual_rate": 2.2e-16, "months": 12}
    box = row(evaluate(data), "box")
    assert box["monthly_cost"][1:] == pytest.approx([100.0 + 0.1 * 100 * 0.5 * 2] * 12)
    data["options"][0]["own"]["financing"]["annual_rate"] = 0
    assert row(evaluate(data), "box")["total_cost"] == pytest.approx(box["total_cost"])


def test_a_loan_at_a_huge_rate_over_a_long_term():
    """(1 + i)^n overflowed for 1000 % a year over 50 years: the payment is principal × i."""
    data = plan()
    data["options"][0]["own"]["financing"] = {"annual_rate": 10, "months": 600}
    box = row(evaluate(data), "box")
    assert box["monthly_cost"][1] == pytest.approx(1200 * 10 / 12 + 10)
    # The balance owed at month 12 is almost the whole principal.
    assert box["total_cost"] == pytest.approx(12 * 1010 + 1200 - 900, rel=1e-6)


def test_a_machine_that_is_never_available():
    data = plan()
    data["options"][0]["own"]["availability"] = 0
    box = row(evaluate(data), "box")
    assert not box["feasible"] and box["reasons"]
    assert box["capacity_gpu_hours_per_month"] == 0 and box["first_unmet_month"] == 1
    data["options"][0]["overflow"] = "rent"
    d = evaluate(data)
    assert row(d, "box")["feasible"]
    assert row(d, "box")["total_cost"] == pytest.approx(1200 - 900 + 12 * 100)
    assert row(d, "box")["energy_kwh"] == 0


def test_zero_utilization_and_a_one_month_horizon():
    d = evaluate(plan(horizon_months=1, demand={"utilization": 0}))
    assert row(d, "rent")["total_cost"] == 0 and row(d, "rent")["cost_per_gpu_hour"] is None
    assert len(row(d, "box")["monthly_cost"]) == 2
    pair = d["break_even"][0]
    assert pair["months"] is None and pair["system_hours"] is None


def test_a_lifetime_shorter_than_a_month_is_one_month():
    data = plan()
    data["options"][0]["own"].update(lifetime_years=0.01, resale_fraction=1)
    box = row(evaluate(data), "box")
    # Bought in month 0 and every month after at the price it is sold for: nothing lost.
    assert box["total_cost"] == pytest.approx(12 * 100 * 0.5 * 0.2)
    assert box["residual_value"] == pytest.approx(1200)


def test_a_free_tier_without_quota_passes_everything_on():
    data = plan()
    data["options"].append({"name": "notebook", "free_tier": {"weekly_quota_hours": 0},
                            "fallback": "rent"})
    d = evaluate(data)
    notebook = row(d, "notebook")
    assert notebook["capacity_gpu_hours_per_month"] == 0
    assert notebook["gpu_hours_per_month"] == 0
    assert notebook["total_cost"] == pytest.approx(row(d, "rent")["total_cost"])
    assert d["cheapest"] == "box"


def test_identical_rented_options_tie_to_the_first():
    data = plan()
    data["options"][0] = {"name": "first", "cloud": {"price_per_hour": 1.0}}
    d = evaluate(data)
    assert d["cheapest"] == "first" and d["break_even"] == []


def test_calendar_extremes():
    d = evaluate(plan(hours_per_month=1e-3, discount_rate=1e6,
                      demand={"gpu_hours_per_month": 1e-4}))
    assert all(o["feasible"] for o in d["options"])
    # At 10^6 a year, every month after the first is worth almost nothing today.
    assert row(d, "box")["present_value"] == pytest.approx(1200, rel=1e-3)


def test_a_job_wider_than_the_machine():
    d = evaluate(plan(demand={"gpu_hours_per_month": 100, "gpus": 2}))
    box = row(d, "box")
    assert not box["feasible"] and "more GPUs" in box["reasons"][0]
    assert d["cheapest"] == "rent" and d["break_even"] == []


def test_a_vanishing_free_tier_quota_gives_no_waiting_time():
    # Found by the fuzzer: a quota of 5e-324 hours made the days-a-job-waits figure divide by 0.
    data = {"version": 1, "horizon_months": 2,
            "demand": {"gpu_hours_per_month": 0, "job_hours": 1e-6},
            "options": [{"name": "tier", "free_tier": {"weekly_quota_hours": 5e-324}}]}
    row = evaluate(data)["options"][0]
    assert row["job_wait_days"] is None
