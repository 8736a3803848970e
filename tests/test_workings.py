"""The intermediate figures evaluation puts in the Result (planner/evaluate/workings.py), each
against a value worked by hand on a small plan, and the report formatting them as they are."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import planner
from planner.evaluate.workings import _buying_cheaper_sides_pivoted, buying_cheaper_sides
from planner.render import content

RATE = 0.10
PUE = 1.5
ELECTRICITY = 0.2
DEMAND = 100.0  # GPU-hours a month
HORIZON = 12
POWER_KW = 0.5
WEEKLY_QUOTA = 10.0


@pytest.fixture(scope="module")
def small():
    """A box bought today, a cloud GPU at 2/h, and a free tier whose rest goes to the cloud."""
    return planner.load({
        "version": 1, "horizon_months": HORIZON, "discount_rate": RATE,
        "site": {"electricity_per_kwh": ELECTRICITY, "pue": PUE},
        "demand": {"gpu_hours_per_month": DEMAND},
        "options": [
            {"name": "box", "own": {"purchase_price": 1000, "power_watts": 500,
                                    "gpu_count": 1}},
            {"name": "cloud", "cloud": {"price_per_hour": 2}},
            {"name": "tier", "free_tier": {"gpu_memory_gb": 16,
                                           "weekly_quota_hours": WEEKLY_QUOTA},
             "fallback": "cloud"},
        ],
    }).evaluate()


def test_discount_factors_are_those_of_each_month(small):
    months = np.arange(HORIZON + 1)
    assert small.discount_factor_per_month == pytest.approx((1 + RATE) ** (-months / 12))
    assert small.discount_factor_per_month[0] == 1.0


def test_discounted_cost_is_the_flows_without_residual_value(small):
    v = (1 + RATE) ** (-np.arange(1, HORIZON + 1) / 12)
    assert small.workings["cloud"].discounted_cost == pytest.approx(2.0 * DEMAND * v.sum())
    energy = POWER_KW * DEMAND * PUE * ELECTRICITY  # 15 a month
    assert small.workings["box"].discounted_cost == pytest.approx(1000 + energy * v.sum())


def test_demand_is_the_divisor_of_cost_per_gpu_hour(small):
    for row in small.data["options"]:
        assert small.workings[row["name"]].demand_gpu_hours == pytest.approx(DEMAND * HORIZON)
        assert row["cost_per_gpu_hour"] == pytest.approx(row["total_cost"] / (DEMAND * HORIZON))


def test_energy_and_its_cooling_share(small):
    box = small.workings["box"]
    monthly = POWER_KW * DEMAND * PUE * ELECTRICITY  # 15 a month, 5 of it cooling
    assert box.energy_cost == pytest.approx(HORIZON * monthly)
    assert box.cooling_cost == pytest.approx(HORIZON * monthly * (1 - 1 / PUE))
    assert box.cooling_cost == pytest.approx(60.0)
    assert box.cooling_cost_per_month == pytest.approx([0.0] + [5.0] * HORIZON)
    assert small.workings["cloud"].cooling_cost == 0.0


def test_pairs_the_answer_speaks_of(small):
    # box: 1000 + 15 a month; the tier passes 100 − 10 × 730/168 GPU-hours a month to the
    # cloud at 2/h; the cloud rents all 100: the box is cheapest, the tier the runner-up.
    assert small.cheapest == "box"
    ranked = [r["name"] for r in content.ranked_options(small)]
    assert ranked == ["box", "tier", "cloud"]
    assert small.headline_pair == ("box", "tier")
    assert small.marked_break_even_pairs == [("box", "cloud"), ("box", "tier")]
    assert small.sensitivity.attrs["pair"] == small.headline_pair


def test_overflow_and_fallback_targets(small):
    assert small.passed_to == {"tier": "cloud"}
    (tier,) = content.free_tier_rows(small)
    assert tier["rest"] == "cloud"


def test_new_fields_stay_out_of_the_json(small):
    data = small.to_dict()
    for name in ("discount_factor_per_month", "headline_pair", "marked_break_even_pairs",
                 "passed_to", "workings"):
        assert name not in data


# -- the report formats them and computes none -------------------------------------------------


def test_report_cooling_is_the_results_share(small):
    """Changing the Result's cooling share changes the report: it is read, not recomputed."""
    import dataclasses

    box = small.workings["box"]
    assert box.cooling_cost == pytest.approx(box.energy_cost * (1 - 1 / PUE))
    odd_box = dataclasses.replace(box, cooling_cost=1234.0,
                                  cooling_cost_per_month=np.full(HORIZON + 1, 7.0))
    odd = dataclasses.replace(small, workings={**small.workings, "box": odd_box})
    (table,) = [t for t in content.breakdown_tables(odd) if t["name"] == "box"]
    cooling = next(row for row in table["rows"] if row["sub"])
    assert cooling["cost"] == "$1,234"
    worked = {g["name"]: {row[0]: row[1:] for row in g["rows"]}
              for g in content.worked_figures(odd)}
    assert worked["box"]["Cooling share of energy"][1] == "$1,234"
    groups = content.grouped_monthly(odd, "box")
    assert groups["cooling"].tolist() == [7.0] * (HORIZON + 1)
    assert groups["it_energy"].sum() == pytest.approx(box.energy_cost - 7.0 * (HORIZON + 1))


def test_report_reads_the_pairs_and_targets_from_the_result(small):
    import dataclasses

    moved = dataclasses.replace(small, headline_pair=("box", "cloud"),
                                marked_break_even_pairs=[("box", "cloud")],
                                passed_to={"tier": "elsewhere"})
    assert content.headline_pair(moved)["versus"] == "cloud"
    assert [(r["own"], r["versus"]) for r in content.marked_break_even(moved)] == [
        ("box", "cloud")]
    assert content.free_tier_rows(moved)[0]["rest"] == "elsewhere"


def test_report_divides_by_the_results_demand(small):
    import dataclasses

    odd = dataclasses.replace(small, workings={
        name: dataclasses.replace(w, demand_gpu_hours=999.0)
        for name, w in small.workings.items()})
    worked = {g["name"]: {row[0]: row[1:] for row in g["rows"]}
              for g in content.worked_figures(odd)}
    assert "/ 999 " in worked["cloud"]["Per GPU-hour"][0]


# -- once each -------------------------------------------------------------------------------


def test_every_engine_component_is_in_one_chart_group():
    from planner.engine.flows import COMPONENTS

    members = [c for _, group in content.COMPONENT_GROUPS for c in group]
    assert sorted(members) == sorted(COMPONENTS)
    assert content.COMPONENTS is COMPONENTS


def test_break_even_months_are_worded_by_one_function():
    from planner.render import fmt

    assert fmt.break_even_months(None) == "never"
    assert fmt.break_even_months(float("nan")) == "never"
    assert fmt.break_even_months(0.0) == "from the start"
    assert fmt.break_even_months(14.23) == "14.2 months"
    assert fmt.break_even_months(None, never="not within 36 months") == "not within 36 months"


def test_year_periods_serve_the_report_and_the_tables(small):
    from planner.render import tables

    periods = content.year_periods(30)
    assert [(p.key, p.label, p.first_month, p.last_month) for p in periods] == [
        ("today", "Today", 0, 0), ("year_1", "Year 1", 1, 12), ("year_2", "Year 2", 13, 24),
        ("months_25_30", "Months 25–30", 25, 30)]
    table = tables.cash_flow_table(small)
    assert [c.key for c in table.columns[1:]] == ["today", "year_1"]
    assert content.yearly_cash_flow(small)["periods"] == ["Today", "Year 1"]


def test_the_comparison_holds_data_and_the_renderer_writes_the_sentence(small):
    from planner.evaluate.compare import compare
    from planner.render.diff import with_recommendations

    change = compare(small, small)
    assert change.old.recommendation is None and change.old.result is small
    assert change.to_dict()["old"]["recommendation"] is None
    written = with_recommendations(change)
    assert written.old.recommendation == content.recommendation(small)
    assert written.to_dict()["new"]["recommendation"].startswith("Buy box")
    assert change.old.recommendation is None  # the comparison itself is left as it was


def test_break_even_crossings_bracket_the_month(small):
    # box against cloud: cumulative gap 1000 at month 0, then 15 − 200 = −185 a month:
    # above zero at month ends 0..5 (75), below from month 6 (−110): 5 + 75/185 months.
    crossing = small.break_even_crossings[("box", "cloud")]
    assert crossing.last_month_above == 5
    assert crossing.cost_gap_at_last_month == pytest.approx(1000 - 5 * 185)
    assert crossing.cost_gap_after_last_month == pytest.approx(1000 - 6 * 185)
    row = next(r for r in small.data["break_even"] if r["versus"] == "cloud")
    assert row["months"] == pytest.approx(5 + 75 / 185)
    assert set(small.break_even_crossings) == {(r["own"], r["versus"])
                                               for r in small.data["break_even"]}
    worked = {g["name"]: {row[0]: row[1:] for row in g["rows"]}
              for g in content.worked_figures(small)}
    assert worked["box"]["Pays off against cloud"][0] == (
        "Δ_5 = 75, Δ_6 = -110: 5 + 75 / (75 + 110) = 5.41")


def test_buying_is_cheaper_above_the_break_even_usage(small):
    # box: 1000 up front, worth 1000 × (1 − 12/48) = 750 at month 12 (lifetime 4 years),
    # and 0.15 a GPU-hour of energy; cloud: 2 a GPU-hour. Equal present values at
    # (1000 − 750 v_12) / (1.85 × Σ v_m) GPU-hours a month; above it the box is cheaper.
    v = (1 + RATE) ** (-np.arange(1, HORIZON + 1) / 12)
    row = next(r for r in small.data["break_even"] if r["versus"] == "cloud")
    assert row["gpu_hours_per_month"] == pytest.approx((1000 - 750 * v[-1]) / (1.85 * v.sum()))
    assert small.buying_cheaper_side[("box", "cloud")] == "above"
    text = next(r for r in content.break_even_rows(small) if r["versus"] == "cloud")
    assert text["direction"] == "buying is cheaper above it"


def test_runner_up_and_the_saving_against_it(small):
    rows = {r["name"]: r for r in small.data["options"]}
    assert small.runner_up == "tier"
    assert small.saving_vs_runner_up == pytest.approx(
        rows["tier"]["present_value"] - rows["box"]["present_value"])
    assert content.key_figures(small)[1]["value"] == f"${small.saving_vs_runner_up:,.0f}"


# -- which side buying is cheaper on: the arrays' reading equals the pivot's -------------------

_PV = st.one_of(st.just(float("nan")), st.sampled_from([0.0, 1.0, 2.0]),
                st.floats(-1e6, 1e6, allow_nan=False))


@st.composite
def _curves(draw):
    """A cost-against-usage frame as evaluation builds it (one block of levels per option,
    option a category) with NaNs and ties, and break-even rows between its options, some at a
    level of the curve, some outside it, some missing."""
    names = ["own", "a", "b"]
    top = draw(st.sampled_from([1.0, 80.0, 1e-300, 1.5e-323]))  # the last: levels repeat
    points = draw(st.integers(2, 12))
    levels = np.linspace(0.0, top, points)
    values = {}
    for name in names:  # a line through the levels (curves that cross), or any values
        start, slope = draw(st.integers(-3, 3)), draw(st.integers(-2, 2))
        line = [float(start + slope * i) for i in range(points)]
        holes = draw(st.lists(st.integers(0, points - 1), max_size=2))
        values[name] = (draw(st.lists(_PV, min_size=points, max_size=points))
                        if draw(st.booleans()) else
                        [float("nan") if i in holes else v for i, v in enumerate(line)])
    frame = pd.DataFrame({
        "gpu_hours_per_month": np.tile(levels, len(names)),
        "option": pd.Categorical.from_codes(np.repeat(np.arange(len(names)), points),
                                            categories=names),
        "present_value": np.concatenate([values[name] for name in names]),
    })
    level = st.one_of(st.none(), st.just(float("nan")), st.sampled_from(list(levels)),
                      st.floats(-1.0, top * 1.5, allow_nan=False),
                      st.integers(0, points - 2).map(lambda i: (levels[i] + levels[i + 1]) / 2))
    rows = [{"own": "own", "versus": versus, "gpu_hours_per_month": draw(level)}
            for versus in draw(st.lists(st.sampled_from(["a", "b", "gone"]), min_size=1,
                                        max_size=3))]
    return frame, rows


@settings(max_examples=300, deadline=None)
@given(_curves())
def test_buying_cheaper_sides_equal_the_pivots(case):
    """The sides read from the frame's arrays are those of lining the curves up with a pivot
    (pandas' pivot_table, as before), levels repeated (subnormal tops) included."""
    frame, rows = case
    assert buying_cheaper_sides(frame, rows) == _buying_cheaper_sides_pivoted(frame, rows)


def test_buying_cheaper_sides_by_hand():
    """Own costs 10 at level 0 and 30 at level 2, the cloud 20 and 20: buying is cheaper below
    the crossing at level 1 (10 < 20 below, 30 ≥ 20 above); at level 0.5 the levels next to it
    are 0 and 2 once the cloud's NaN at level 1 is left out."""
    frame = pd.DataFrame({
        "gpu_hours_per_month": [0.0, 1.0, 2.0] * 2,
        "option": pd.Categorical(["own"] * 3 + ["cloud"] * 3, categories=["own", "cloud"]),
        "present_value": [10.0, 20.0, 30.0, 20.0, float("nan"), 20.0],
    })
    rows = [{"own": "own", "versus": "cloud", "gpu_hours_per_month": 0.5}]
    assert buying_cheaper_sides(frame, rows) == {("own", "cloud"): "below"}
