"""Break-even in time and in demand: hand-computed cases, scipy cross-checks, invariants."""

import numpy as np
import pytest
from builders import assert_first_break_even_level, calendar, cloud, demand, free_tier, model, own
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from planner.engine.breakeven import break_even_level, break_even_months, hours_until, pv_at_levels
from planner.engine.figures import compute


def test_months_crossing_inside_a_month():
    own_cost = np.array([[1000.0, 10, 10, 10, 10]])
    rent = np.array([[0.0, 400, 400, 400, 400]])
    # diff at knots: 1000, 610, 220, −170 → crossing in month 3 at 2 + 220/390.
    assert break_even_months(own_cost, rent)[0] == pytest.approx(2 + 220 / 390)


def test_months_zero_when_never_above_and_nan_when_above_at_the_end():
    assert break_even_months(np.array([[0.0, 1, 1]]), np.array([[0.0, 2, 2]]))[0] == 0.0
    assert np.isnan(break_even_months(np.array([[10.0, 1, 1]]), np.array([[0.0, 2, 2]]))[0])


def test_months_takes_the_last_crossing_when_the_curves_cross_twice():
    # Below after month 1, above again in month 3 (a replacement), below from month 4.5.
    own_cost = np.array([[100.0, 0, 0, 300, 0, 0]])
    rent = np.array([[0.0, 120, 80, 80, 80, 80]])
    # cumulative diff: 100, −20, −100, 120, 40, −40 → last crossing between 4 and 5: 4.5.
    assert break_even_months(own_cost, rent)[0] == pytest.approx(4.5)


def test_hours_until_accrues_within_the_month():
    assert hours_until(np.array([[0.0, 100, 100, 100]]), np.array([2.25]))[0] == \
        pytest.approx(225.0)


def test_level_of_a_simple_pair_in_closed_form():
    # Own: $10,000 now, $0.5 per GPU-hour of running cost, 36 months, no resale, 48-month life:
    # PV = 10000 − residual(10000·12/48 = 2500) + 0.5·36·x. Cloud: 2·36·x.
    # 7500 + 18x = 72x → x = 138.888…
    m = model(own(operating=0.5), cloud(price=2.0), dem=demand(level=100))
    assert break_even_level(m, "box", "cloud")[0] == pytest.approx(7500 / 54)


def test_level_is_nan_when_owning_never_pays_within_capacity():
    m = model(own(price=1e9), cloud(price=0.1), dem=demand(level=10))
    assert np.isnan(break_even_level(m, "box", "cloud")[0])


def _scipy_level(m, own_name, other, hi):
    def f(x):
        pv, _ok = pv_at_levels(m, [own_name, other], np.array([[x]]))
        return pv[own_name][0, 0] - pv[other][0, 0]

    return brentq(f, 0.0, hi, xtol=1e-10)


def test_level_with_overflow_matches_scipy():
    # The machine fills at 730 h; beyond, the rest is rented at $3 — break-even lies past it.
    m = model(own(price=60_000, overflow="od"), cloud("od", price=3.0), cloud("cheap", price=2.2),
              dem=demand(level=100, growth=0.3), cal=calendar(T=24))
    level = break_even_level(m, "box", "cheap")[0]
    assert level > 0
    # Owning pays between about 437 and 900 h a month; the smallest level is the answer.
    assert level == pytest.approx(_scipy_level(m, "box", "cheap", 500), rel=1e-7)


def test_level_against_reserved_cloud_matches_scipy():
    m = model(own(price=30_000, gpu_count=8, operating=1.0),
              cloud("res", price=1.6, on_demand=3.0, pricing="reserved_1y", reserved_price=1.6,
                    term=12), dem=demand(level=1000, gpus=1), cal=calendar(T=24))
    level = break_even_level(m, "box", "res")[0]
    assert level == pytest.approx(_scipy_level(m, "box", "res", level * 1.5), rel=1e-6)


def test_level_against_free_tier_with_fallback():
    m = model(own(price=5000), free_tier(monthly=50, fallback="od"), cloud("od", price=2.0),
              dem=demand(level=10), cal=calendar(T=36))
    level = break_even_level(m, "box", "tier")[0]
    # Below 50 h the tier is free; above, 2·36·(x − 50) must pay for 5000 − 1250 = 3750.
    assert level == pytest.approx(50 + 3750 / 72)


prices = st.floats(min_value=0.05, max_value=50)
levels = st.floats(min_value=0, max_value=700)


@settings(max_examples=60, deadline=None)
@given(price=st.floats(min_value=500, max_value=100_000), rent=prices, run=st.floats(0, 0.5),
       level=levels, growth=st.floats(-0.5, 1.0), rate=st.floats(0, 0.2))
def test_at_the_break_even_month_both_cumulative_costs_are_equal(price, rent, run, level,
                                                                  growth, rate):
    m = model(own(price=price, operating=run, overflow="od"), cloud("od", price=rent),
              dem=demand(level=level, growth=growth), cal=calendar(T=36, r=rate))
    f = compute(m)
    t = f.pairs[0].months[0]
    if np.isnan(t) or t == 0:
        return
    a, b = (np.cumsum(o.flows.monthly_cost[0]) for o in f.options)
    k = int(np.floor(t))
    frac = t - k

    def at(cum):
        return cum[k] + frac * (cum[min(k + 1, len(cum) - 1)] - cum[k])

    assert at(a) == pytest.approx(at(b), rel=1e-9, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(price=st.floats(min_value=500, max_value=100_000), rent=prices, run=st.floats(0, 0.5),
       growth=st.floats(-0.5, 1.0), rate=st.floats(0, 0.2))
def test_at_the_break_even_level_both_present_values_are_equal(price, rent, run, growth, rate):
    m = model(own(price=price, operating=run), cloud("od", price=rent),
              dem=demand(level=1, growth=growth), cal=calendar(T=36, r=rate))
    x = break_even_level(m, "box", "od")[0]
    if np.isnan(x):
        return
    pv, _ = pv_at_levels(m, ["box", "od"], np.array([[x]]))
    assert pv["box"][0, 0] == pytest.approx(pv["od"][0, 0], rel=1e-9, abs=1e-6)


@settings(max_examples=80, deadline=None)
@given(price=st.floats(500, 80_000), run=st.floats(0, 1), rent=prices, rent2=prices,
       cap_gpus=st.integers(1, 8), growth=st.floats(-0.9, 2.0), rate=st.floats(0, 0.3),
       storage=st.floats(0, 1), data=st.floats(0, 500), quota=st.floats(0, 400),
       overflow=st.booleans(), idle=st.booleans())
def test_closed_form_level_equals_the_piecewise_evaluation(price, run, rent, rent2, cap_gpus,
                                                            growth, rate, storage, data, quota,
                                                            overflow, idle):
    from planner.engine.flows import present_value
    from planner.engine.linear import break_even_level_linear
    from planner.engine.tco import evaluate

    m = model(own(price=price, operating=run, gpu_count=cap_gpus, power_w=400, idle_w=60,
                  always_on=idle, electricity=0.2, overflow="od" if overflow else None),
              cloud("od", price=rent, storage=storage),
              free_tier(monthly=quota, fallback="od2"), cloud("od2", price=rent2, storage=storage),
              dem=demand(level=1, growth=growth, data_gb=data), cal=calendar(T=24, r=rate))
    flows = evaluate(m)
    for other in ("od", "tier"):
        expected = break_even_level(m, "box", other)[0]
        got = break_even_level_linear(m, "box", other, present_value(m, flows["box"]),
                                      present_value(m, flows[other]), 10.0)[0]
        if np.isnan(expected):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(expected, rel=1e-7, abs=1e-6)


@settings(max_examples=400, deadline=None)
@given(price=st.floats(500, 60_000), run=st.floats(0, 2), gpu_count=st.integers(1, 8),
       reserved=st.floats(0.1, 3), premium=st.floats(1.0, 3.0), term=st.sampled_from([12, 36]),
       T=st.integers(6, 40), growth=st.floats(-0.5, 1.0), rate=st.floats(0, 0.2),
       overflow=st.booleans(), fixed_count=st.one_of(st.none(), st.integers(0, 6)))
def test_level_against_reserved_pricing_is_the_first_sign_change(
        price, run, gpu_count, reserved, premium, term, T, growth, rate, overflow, fixed_count):
    """Against reserved pricing (the count chosen per level, or fixed), the level is where the
    difference of present values is zero or changes sign, and no level below it is: a scan of
    1,500 levels finds no sign change before it (the difference is piecewise linear with kinks
    where the best count changes, which the search lists)."""
    od = reserved * premium
    cards = [own(price=price, gpu_count=gpu_count, operating=run, lifetime_months=T,
                 overflow="spare" if overflow else None),
             cloud("res", price=od, on_demand=od, pricing=f"reserved_{term // 12}y",
                   reserved_price=reserved, term=term, reserved_instances=fixed_count)]
    if overflow:
        cards.append(cloud("spare", price=od))
    m = model(*cards, dem=demand(level=100, growth=growth), cal=calendar(T=T, r=rate))
    g_max = max(1.0, (1 + growth) ** ((T - 1) / 12))
    bound = 10 * gpu_count * 730 if overflow else gpu_count * 730 / g_max
    assert_first_break_even_level(m, "box", "res", bound)


def test_level_against_thousands_of_reserved_instances_is_a_root():
    """8,000 GPUs against 1-GPU reserved instances over 36 months: about 12,000 counts, more
    breakpoints than are listed (MAX_BREAKPOINT_MONTHS), so they are thinned and the root is
    refined: it is still a level where both present values are equal, with no sign change
    below it on a scan of 20,000 levels."""
    m = model(own(price=1.6e8, gpu_count=8000, operating=0.3, lifetime_months=36),
              cloud("res", price=2.0, on_demand=2.0, pricing="reserved_1y", reserved_price=1.2,
                    term=12), dem=demand(level=100, growth=0.3), cal=calendar(T=36, r=0.05))
    level = break_even_level(m, "box", "res")[0]
    pv, _ = pv_at_levels(m, ["box", "res"], np.array([[level]]))
    assert pv["box"][0, 0] == pytest.approx(pv["res"][0, 0], rel=1e-9)
    grid = np.linspace(0, level, 20_001)[:-1]
    scan, _ = pv_at_levels(m, ["box", "res"], grid[None, :])
    assert (scan["box"][0] - scan["res"][0] > 0).all()
