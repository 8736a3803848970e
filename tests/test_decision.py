"""The decision, stated truly (issue 10, points 1-3): who is the cheapest when a free tier
passes all of its work on, which pair the headline speaks of, and how much of an owned
option's work its overflow does. Figures are worked by hand in each test."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import planner
from planner.engine.shares import cheapest_index, serves_none
from planner.render import content
from planner.render.i18n import language

ROOT = Path(__file__).resolve().parent.parent

#: 16.8 GPU-hours a week are 16.8 × 730 / 168 = 73 GPU-hours a month.
WEEKLY = 16.8
MONTHLY = 73.0


def _phd(cloud_price: float = 0.5) -> dict:
    """A free tier with 16 GB for work that needs 24 GB (all of it goes to `rented`), a paid
    tier that does the same, the rented GPU itself and a desktop (worth nothing after its
    one-year life: it costs its €1,000)."""
    return {
        "version": 1, "currency": "EUR", "horizon_months": 12,
        "demand": {"gpu_hours_per_week": WEEKLY, "min_gpu_memory_gb": 24, "job_hours": 8},
        "site": {"electricity_per_kwh": 0.0},
        "options": [
            {"name": "tier", "free_tier": {"gpu_memory_gb": 16, "weekly_quota_hours": 30,
                                           "session_hours": 12}, "fallback": "rented"},
            {"name": "paid-tier", "free_tier": {"gpu_memory_gb": 16, "fee_per_month": 10},
             "fallback": "rented"},
            {"name": "rented", "cloud": {"price_per_hour": cloud_price, "gpu_memory_gb": 24}},
            {"name": "desktop", "own": {"purchase_price": 1000, "power_watts": 300,
                                        "gpu_memory_gb": 24, "lifetime_years": 1}},
        ],
    }


def _option(result, name):
    return next(o for o in result.to_dict()["options"] if o["name"] == name)


# -- point 1: a free tier that does none of the work is never the cheapest -----------------


def test_a_tier_that_passes_all_its_work_on_is_not_the_cheapest():
    result = planner.load(_phd()).evaluate()
    # rented: 73 h × 12 months × €0.50 = €438; the tier passes all of it on: €438 too.
    assert _option(result, "rented")["total_cost"] == pytest.approx(438.0)
    assert _option(result, "tier")["total_cost"] == pytest.approx(438.0)
    assert result.cheapest == "rented"
    assert result.same_as_cheapest == ["tier"]
    # The runner-up does work itself: the desktop (€1,000), not paid-tier (€438 + 12 × €10).
    assert _option(result, "paid-tier")["total_cost"] == pytest.approx(558.0)
    assert result.runner_up == "desktop"
    assert result.saving_vs_runner_up == pytest.approx(1000.0 - 438.0)



@pytest.mark.parametrize("machines", [0, "auto"])
def test_without_demand_an_option_of_no_machines_gives_way_to_its_overflow(machines):
    """SPEC §6: an option that serves none of the demand itself "(0 machines; …)" gives way
    to the option it passes to when they cost the same: with no demand both cost 0, and the
    0-machine option (auto chooses 0 without demand) is not the cheapest: its target is."""
    data = {"version": 1, "horizon_months": 12, "demand": {"gpu_hours_per_month": 0},
            "site": {"electricity_per_kwh": 0.2},
            "options": [
                {"name": "box", "overflow": "rent",
                 "own": {"purchase_price": 5000, "power_watts": 300, "machines": machines}},
                {"name": "rent", "cloud": {"price_per_hour": 2}}]}
    result = planner.load(data).evaluate()
    assert _option(result, "box")["total_cost"] == _option(result, "rent")["total_cost"] == 0
    assert result.cheapest == "rent"
    frame = planner.load(data).sweep({"demand.gpu_hours_per_month": [0.0, 2000.0]})
    first = frame.groupby("scenario", observed=True)["cheapest"].first()
    # At 2,000 h a month buying wins (3 machines, auto; a fixed 0 machines rents all of it).
    assert list(first) == ["rent", "box" if machines == "auto" else "rent"]


def test_without_demand_a_tier_too_narrow_for_the_job_gives_way_to_its_fallback():
    data = {"version": 1, "horizon_months": 12, "demand": {"gpu_hours_per_month": 0, "gpus": 4},
            "options": [
                {"name": "tier", "fallback": "rent",
                 "free_tier": {"gpus": 2, "session_hours": 12, "weekly_quota_hours": 30}},
                {"name": "rent", "cloud": {"price_per_hour": 2, "gpus": 4}}]}
    assert planner.load(data).evaluate().cheapest == "rent"

def test_the_served_share_and_what_is_passed_on():
    result = planner.load(_phd()).evaluate()
    tier, paid, rented = (_option(result, n) for n in ("tier", "paid-tier", "rented"))
    assert (tier["served_share"], paid["served_share"], rented["served_share"]) == (0, 0, 1)
    assert paid["passed_cost"] == pytest.approx(438.0)
    assert paid["passed_cost_share"] == pytest.approx(438.0 / 558.0)
    assert rented["passed_cost"] is None and rented["passed_cost_share"] is None
    # A tier that serves nothing has no job that waits (8 h at 30 h a week would be 1.9 days).
    assert tier["job_wait_days"] is None and tier["sessions_per_week"] is None


def test_the_report_says_the_tier_is_the_rented_option():
    result = planner.load(_phd()).evaluate()
    text = content.recommendation(result)
    assert text.startswith("Rent rented: it is the cheapest option over 12 months at €438, "
                           "€562 less than the runner-up, desktop.")
    assert "tier does none of this work: it is rented." in text
    assert [row.name for row in content.option_rows(result)][:2] == ["rented", "tier"]
    assert [row.served for row in content.option_rows(result)] == ["100%", "0%", "0%", "100%"]
    with language("zh"):
        assert "tier 自身不承担任何工作：它就是 rented。" in content.recommendation(result)


def test_a_sweep_names_the_option_that_does_the_work():
    frame = planner.load(_phd()).sweep({"options.rented.price_per_hour": [0.5, 2.0]})
    cheapest = frame.groupby("scenario")["cheapest"].first().tolist()
    # At €2/h renting costs 73 × 12 × 2 = €1,752, more than the desktop's €1,000.
    assert cheapest == ["rented", "desktop"]
    served = frame[frame.option == "tier"]["served_share"].tolist()
    assert served == [0.0, 0.0]


def test_the_what_if_sweep_trial_reads_as_its_evaluations():
    """The fourth trial plan: the PhD plan swept over its hours a week and electricity price.
    Kaggle's T4s lack the 24 GB the work needs, so it passes everything to runpod-4090 and is
    never the cheapest; each scenario's answer is the one its own evaluation gives."""
    plan = planner.load(ROOT / "examples" / "phd-germany.yaml")
    hours, prices = [2, 10, 24, 60], [0.25, 0.45]
    frame = plan.sweep({"demand.gpu_hours_per_week": hours,
                        "site.electricity_per_kwh": prices})
    answers = frame.groupby("scenario")["cheapest"].first().tolist()
    assert "kaggle" not in answers
    assert set(frame[frame.option == "kaggle"]["served_share"]) == {0.0}
    expected = [planner.load(ROOT / "examples" / "phd-germany.yaml").replace(
        {"demand.gpu_hours_per_week": h, "site.electricity_per_kwh": e}).evaluate().cheapest
        for h in hours for e in prices]
    assert answers == expected
    assert len(set(answers)) > 1  # the answer turns within the grid: renting, then buying


# -- point 2: the headline answers "buy or not" ---------------------------------------------


def _two_desktops() -> dict:
    """A used and a new desktop, both cheaper than renting at €2 an hour."""
    plan = _phd(cloud_price=2.0)
    plan["options"] = [
        {"name": "used", "own": {"purchase_price": 800, "power_watts": 300,
                                 "gpu_memory_gb": 24, "lifetime_years": 1}},
        {"name": "new", "own": {"purchase_price": 1500, "power_watts": 300,
                                "gpu_memory_gb": 24, "lifetime_years": 1}},
        plan["options"][0], plan["options"][2],
    ]
    return plan


def test_the_headline_pair_is_the_best_owned_against_the_best_rented():
    result = planner.load(_two_desktops()).evaluate()
    assert result.cheapest == "used"
    assert result.headline_pair == ("used", "rented")
    # Renting accrues 73 h × €2 = €146 a month: it passes the used desktop's €800 at
    # t = 800 / 146 = 5.479 months.
    row = content.headline_pair(result)
    assert row["months"] == pytest.approx(800 / 146)
    assert content.key_figures(result)[2] == {
        "value": "5.5 months", "label": "until buying used pays off against rented"}


def test_the_tornado_follows_the_headline_pair():
    result = planner.load(_two_desktops()).evaluate()
    frame = result.sensitivity
    assert frame.attrs["pair"] == ("used", "rented")
    price = next(row for row in frame.itertuples() if str(row.input) == "Price of used")
    # The used desktop at €600 and €1,000 against €146 a month of renting.
    assert price.months_low == pytest.approx(600 / 146)
    assert price.months_high == pytest.approx(1000 / 146)


# -- point 3: an owned option that mostly rents says so ---------------------------------------


def _doubling() -> dict:
    """Demand doubles every month: 365, 730, 1,460, 2,920 GPU-hours; one machine of 730."""
    return {
        "version": 1, "currency": "USD", "horizon_months": 4,
        "demand": {"gpu_hours_per_month": 365, "growth_per_month": 1.0},
        "site": {"electricity_per_kwh": 0.0},
        "options": [
            {"name": "box", "own": {"purchase_price": 1200, "power_watts": 300},
             "overflow": "rented"},
            {"name": "rented", "cloud": {"price_per_hour": 1.0}},
        ],
    }


def test_the_overflow_share_of_an_owned_option():
    result = planner.load(_doubling()).evaluate()
    box = _option(result, "box")
    # Served 365 + 730 + 730 + 730 = 2,555 of 5,475; 0 + 0 + 730 + 2,190 = 2,920 h overflow.
    assert box["served_share"] == pytest.approx(2555 / 5475)
    assert box["first_unmet_month"] == 3
    assert box["passed_cost"] == pytest.approx(2920.0)
    # Monthly costs: $1,200 at purchase + $2,920 rented; residual 1,200 × (1 − 4/48) = $1,100.
    assert box["passed_cost_share"] == pytest.approx(2920 / 4120)
    assert box["total_cost"] == pytest.approx(4120 - 1100)
    assert box["warnings"] == [
        ("the machines are too few for the demand and its growth: 53% of the horizon's "
         "GPU-hours go to the overflow 'rented', from month 3")]


def test_the_first_page_states_what_the_overflow_does():
    result = planner.load(_doubling()).evaluate()
    assert content.decision_notes(result) == (
        "box serves 47% of the horizon's GPU\u2011hours itself; from month 3, rented serves "
        "the other 53%, at $2,920 of its $3,020.")
    assert any("too few for the demand" in note for note in content.warnings(result, None)
               if note.startswith("box"))


def test_the_first_page_says_what_an_option_that_passes_most_on_is_made_of():
    """A tier of 10 GPU-hours a month for 100 needed: it serves 10 %, its fallback 90 h × $1
    = $90 a month, $1,080 over 12 months, all of its cost; the desktop ($500) is cheapest."""
    plan = {"version": 1, "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
            "site": {"electricity_per_kwh": 0.0},
            "options": [
                {"name": "tier", "free_tier": {"gpu_memory_gb": 16, "monthly_quota_hours": 10,
                                               "session_hours": 12, "availability": 1,
                                               "setup_minutes": 0}, "fallback": "rented"},
                {"name": "rented", "cloud": {"price_per_hour": 1.0}},
                {"name": "desktop", "own": {"purchase_price": 500, "power_watts": 300,
                                            "lifetime_years": 1}}]}
    result = planner.load(plan).evaluate()
    assert result.runner_up == "tier"
    assert content.decision_notes(result) == (
        "The runner-up tier serves 10% of the GPU\u2011hours itself: rented serves the other "
        "90%, and all of its $1,080 is paid to rented.")
    # The desktop at $5,000: the tier is the cheapest, and page 1 says what it is made of.
    plan["options"][2]["own"]["purchase_price"] = 5000
    result = planner.load(plan).evaluate()
    assert result.data["cheapest"] == "tier" and result.runner_up == "rented"
    assert content.decision_notes(result) == (
        "tier serves 10% of the GPU\u2011hours itself: rented serves the other 90%, and all "
        "of its $1,080 is paid to rented.")
    plan["options"][2]["own"]["purchase_price"] = 500
    # A tier that serves half or more is not explained.
    plan["options"][0]["free_tier"]["monthly_quota_hours"] = 50
    assert content.decision_notes(planner.load(plan).evaluate()) == ""


def test_no_warning_at_half_the_work():
    plan = _doubling()
    plan["demand"] = {"gpu_hours_per_month": 1460}  # 730 served, 730 overflow: exactly half
    box = _option(planner.load(plan).evaluate(), "box")
    assert box["served_share"] == pytest.approx(0.5)
    assert box["warnings"] == []


# -- the rule of `cheapest` as an invariant ---------------------------------------------------

@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.0, float("inf")]),
                          st.sampled_from([0.0, 0.5, 1.0]),
                          st.integers(-1, 3)), min_size=1, max_size=4))
def test_the_cheapest_costs_least_and_never_ties_its_own_target(rows):
    pv = np.array([[r[0] for r in rows]])
    share = np.array([[r[1] for r in rows]])
    n = len(rows)
    target = [r[2] if 0 <= r[2] < n and r[2] != i else None for i, r in enumerate(rows)]
    for i in range(n):  # a plan's chains never loop (a cycle is a problem of the file)
        seen, at = {i}, target[i]
        while at is not None and at not in seen:
            seen.add(at)
            at = target[at]
        if at is not None:
            target[i] = None
    index = int(cheapest_index(pv, share, target)[0])
    if not np.isfinite(pv).any():
        assert index == -1
        return
    assert pv[0, index] == pv.min()
    to = target[index]
    if to is not None and serves_none(share[0, index:index + 1])[0]:
        assert pv[0, to] != pv[0, index]
