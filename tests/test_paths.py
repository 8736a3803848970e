"""Dotted paths into usage data (SPEC §4)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.errors import UserError
from planner.usage.load import load_usage
from planner.usage.paths import canonical_path, set_path

DATA = {
    "version": 1,
    "demand": {"utilization": 0.5, "gpus": 2},
    "site": {"electricity_per_kwh": 0.2},
    "options": [
        {"name": "rent", "cloud": "aws/p4d.24xlarge", "pricing": "spot"},
        {"name": "inline", "cloud": {"price_per_hour": 3.0}},
        {"name": "box", "own": {"gpu": "rtx-4090"}, "overflow": "rent"},
        {"name": "tier", "free_tier": "kaggle", "fallback": "rent"},
    ],
}


@pytest.mark.parametrize("dotted, keys", [
    ("horizon_months", ("horizon_months",)),
    ("site.electricity_per_kwh", ("site", "electricity_per_kwh")),
    ("demand.gpu_hours_per_month", ("demand", "gpu_hours_per_month")),
    ("fx.EUR", ("fx", "EUR")),
    ("options", ("options",)),
    ("options.box", ("options", 2)),
    ("options.box.own", ("options", 2, "own")),
    ("options.box.own.purchase_price", ("options", 2, "own", "purchase_price")),
    ("options.box.purchase_price", ("options", 2, "own", "purchase_price")),
    ("options.box.financing.months", ("options", 2, "own", "financing", "months")),
    ("options.box.relative_speed", ("options", 2, "relative_speed")),
    ("options.box.overflow", ("options", 2, "overflow")),
    ("options.rent.pricing", ("options", 0, "pricing")),
    ("options.rent.cloud", ("options", 0, "cloud")),
    ("options.inline.price_per_hour", ("options", 1, "cloud", "price_per_hour")),
    ("options.inline.cloud.gpus", ("options", 1, "cloud", "gpus")),
    ("options.tier.fallback", ("options", 3, "fallback")),
    ("options.tier.free_tier", ("options", 3, "free_tier")),
])
def test_canonical_path(dotted, keys):
    assert canonical_path(DATA, dotted) == keys


@pytest.mark.parametrize("dotted, message, suggestion", [
    ("horizon_month", "unknown key 'horizon_month'", "horizon_months"),
    ("site.electricity", "unknown key 'electricity' in site", "electricity_per_kwh"),
    ("options.bx.purchase_price", "no option is named 'bx'", "box"),
    ("options.box.purchase_prize", "unknown key 'purchase_prize' for option 'box'",
     "purchase_price"),
    ("options.box.pricing", "'pricing' does not apply to an own option", None),
    ("options.box.cloud.price_per_hour", "option 'box' is an own option, not cloud", None),
    ("options.rent.price_per_hour", "is the catalog id 'aws/p4d.24xlarge'", None),
    ("options.box.overflow.x", "'overflow' has no keys below it", None),
    ("site.pue.x", "'pue' has no keys below it", None),
    ("fx.EUR.x", "one rate per currency code", None),
    ("site..pue", "a path is keys joined by '.'", None),
    ("", "a path is keys joined by '.'", None),
])
def test_unknown_paths(dotted, message, suggestion):
    with pytest.raises(UserError) as caught:
        canonical_path(DATA, dotted)
    (problem,) = caught.value.problems
    assert problem.path == dotted
    assert message in problem.message
    assert problem.suggestion == suggestion


def test_set_path_returns_a_new_dict():
    before = copy.deepcopy(DATA)
    changed = set_path(DATA, "options.box.purchase_price", 9000)
    assert DATA == before
    assert changed["options"][2]["own"] == {"gpu": "rtx-4090", "purchase_price": 9000}
    assert changed["options"][0] is not DATA["options"][0]


def test_set_path_creates_maps_on_the_way():
    data = {k: v for k, v in DATA.items() if k != "site"}
    assert set_path(data, "site.pue", 1.2)["site"] == {"pue": 1.2}
    changed = set_path(DATA, "options.box.financing.months", 24)
    assert changed["options"][2]["own"]["financing"] == {"months": 24}
    assert set_path(DATA, "fx.EUR", 1.1)["fx"] == {"EUR": 1.1}


def test_setting_one_demand_form_removes_the_others():
    changed = set_path(DATA, "demand.gpu_hours_per_month", 300)
    assert changed["demand"] == {"gpu_hours_per_month": 300, "gpus": 2}
    again = set_path(changed, "demand.flops_per_month", 1e18)
    assert again["demand"] == {"flops_per_month": 1e18, "gpus": 2}
    assert set_path(DATA, "demand.gpus", 4)["demand"] == {"utilization": 0.5, "gpus": 4}


def test_set_beside_and_whole_values():
    changed = set_path(DATA, "options.rent.pricing", "on_demand")
    assert changed["options"][0]["pricing"] == "on_demand"
    inline = {"price_per_hour": 2.0}
    changed = set_path(DATA, "options.rent.cloud", inline)
    assert changed["options"][0]["cloud"] == inline
    assert changed["options"][0]["cloud"] is not inline


def test_set_path_inside_a_value_that_is_not_a_map():
    data = {**DATA, "site": 5}
    with pytest.raises(UserError) as caught:
        set_path(data, "site.pue", 1.2)
    assert "site is not a map" in str(caught.value)


def test_set_path_then_load():
    changed = set_path(DATA, "options.box.purchase_price", 9000)
    changed = set_path(changed, "demand.gpu_hours_per_month", 100)
    usage = load_usage(changed).usage
    assert usage.option("box").own.purchase_price == 9000
    assert usage.demand.form == "gpu_hours_per_month"


@given(st.floats(min_value=0, max_value=1e9, allow_nan=False),
       st.sampled_from(["options.box.purchase_price", "options.box.own.purchase_price",
                        "site.electricity_per_kwh", "options.inline.price_per_hour",
                        "demand.gpu_hours_per_month", "options.rent.restart_minutes"]))
def test_set_then_read_back(value, dotted):
    changed = set_path(DATA, dotted, value)
    node = changed
    for key in canonical_path(changed, dotted):
        node = node[key]
    assert node == value
    assert canonical_path(changed, dotted) == canonical_path(DATA, dotted)
