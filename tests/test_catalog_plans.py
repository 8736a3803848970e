"""Every catalog id can be named in a usage file and gives a plan with finite figures."""

import json

import pytest

import planner
from pricing.catalog import load_catalog

CATALOG = load_catalog()
FX = {"CNY": 0.14, "EUR": 1.08, "GBP": 1.27, "JPY": 0.0067, "INR": 0.012, "KRW": 0.00073,
      "SGD": 0.74, "CAD": 0.73, "AUD": 0.65, "BRL": 0.18}


def batches(ids, size=40):
    for start in range(0, len(ids), size):
        yield ids[start:start + size]


def evaluate(options, **demand):
    data = {"version": 1, "horizon_months": 12, "fx": FX,
            "demand": {"gpu_hours_per_month": 50, **demand},
            "site": {"electricity_per_kwh": 0.15}, "options": options}
    result = planner.load(data).evaluate().to_dict()
    json.dumps(result, allow_nan=False)
    return result


@pytest.mark.parametrize("chunk", list(batches(sorted(set(CATALOG.ids("clouds"))))))
def test_every_cloud_instance(chunk):
    options = [{"name": f"c{i}", "cloud": cloud_id} for i, cloud_id in enumerate(chunk)]
    result = evaluate(options, reference_gpu="a100-80gb")
    for row in result["options"]:
        assert row["feasible"], row["reasons"]
        assert row["total_cost"] > 0


def test_every_free_tier():
    options = [{"name": f"t{i}", "free_tier": tier, "fallback": "rent"}
               for i, tier in enumerate(CATALOG.ids("free-tiers"))]
    options.append({"name": "rent", "cloud": {"price_per_hour": 2}})
    result = evaluate(options, framework="pytorch")
    assert all(row["feasible"] for row in result["options"])


def test_every_gpu_as_an_owned_machine():
    options = [{"name": f"g{i}", "own": {"gpu": gpu, "purchase_price": 10_000},
                "overflow": "rent"} for i, gpu in enumerate(CATALOG.ids("gpus"))]
    options.append({"name": "rent", "cloud": {"price_per_hour": 2}})
    result = evaluate(options, reference_gpu="a100-80gb")
    assert all(row["feasible"] for row in result["options"])


@pytest.mark.parametrize("region", CATALOG.ids("regions"))
def test_every_region(region):
    row = CATALOG.region(region)
    tariff = "business" if row.electricity_business_per_kwh is not None else "household"
    site = {"region": region, "tariff": tariff, "kind": "server-closet"}
    if row.electricity_business_per_kwh is None and row.electricity_household_per_kwh is None:
        site["electricity_per_kwh"] = 0.2  # a region known only for its carbon intensity
    data = {"version": 1, "fx": FX, "demand": {"gpu_hours_per_month": 50}, "site": site,
            "options": [{"name": "box", "own": {"gpu": "rtx-4090", "system": "workstation-1gpu"}}]}
    result = planner.load(data).evaluate().to_dict()
    assert result["options"][0]["total_cost"] > 0
    if row.carbon_kg_per_kwh is not None:
        assert result["options"][0]["carbon_kg"] > 0


def test_a_street_price_is_dated_by_its_row():
    """catalog_as_of is the oldest as_of of the rows used (SPEC §2): a T4 priced from the
    catalog dates the plan by the T4 row, whose street price (an older launch price) keeps its
    own date in the assumptions."""
    catalog = load_catalog()
    t4 = catalog.gpu("t4")
    assert t4.price_as_of and t4.price_as_of < t4.as_of  # the case that matters
    result = planner.load({
        "version": 1, "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.1},
        "options": [{"name": "box", "own": {"gpu": "t4"}}]}).evaluate()
    assert result.to_dict()["catalog_as_of"] == t4.as_of
    price = next(a for a in result.assumptions if str(a["item"]) == "street price of NVIDIA Tesla T4")
    assert price["as_of"] == t4.as_of and f"priced {t4.price_as_of}" in str(price["value"])
