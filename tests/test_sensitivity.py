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


def test_the_widest_swing_first_when_the_pair_never_breaks_even():
    """A machine that never pays off (no break-even month, NaN) against two clouds: the rows
    are still ordered by their swing, not left in the order of the inputs, and the months are
    floats (NaN: never).

    The swing of a row is |months_high − months| + |months_low − months| with never counted
    as the horizon, plus the horizon when the cheapest changes either way. Every month here is
    never (NaN − NaN is NaN, counted as the horizon), so the months give each row 24 + 24 = 48.
    The cloud a at $1.25 an hour costs more than b at $1.10, and b at
    $0.825 less than a at $1: both prices' rows change the cheapest, 48 + 24 = 72. Demand,
    electricity and the machine's price change nothing (a stays the cheapest): 48."""
    doc = {"version": 1, "title": "t", "horizon_months": 24,
           "demand": {"gpu_hours_per_month": 100}, "site": {"electricity_per_kwh": 0.2},
           "options": [{"name": "box", "own": {"purchase_price": 1_000_000, "gpu": "rtx-4090"}},
                       {"name": "a", "cloud": {"price_per_hour": 1.0}},
                       {"name": "b", "cloud": {"price_per_hour": 1.1}}]}
    table = planner.load(doc).evaluate().sensitivity
    assert table.attrs["pair"] == ("box", "a")
    assert [str(label) for label in table["input"]] == [
        "Prices of a", "Prices of b", "Demand", "Electricity price", "Price of box"]
    assert list(table["cheapest_high"].astype(str)) == ["b", "a", "a", "a", "a"]
    assert list(table["cheapest_low"].astype(str)) == ["a", "b", "a", "a", "a"]
    for column in ("months", "months_low", "months_high"):
        assert table[column].dtype == "float64" and table[column].isna().all()
