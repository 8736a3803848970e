"""Break-even usage against reserved pricing in closed form (planner.engine.reserved_levels:
reserved_events and ReservedLevelSearch): by hand, and equal to the level found by evaluating
the engine on the pieces (planner.engine.breakeven.break_even_level)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from builders import calendar, cloud, demand, model, own
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.engine.breakeven import break_even_level
from planner.engine.cloud import term_count
from planner.engine.figures import compute


def _reserved(term=12, per_term=False, ladder=None, fixed=None, od=3.0, rp=2.0, storage=0.0):
    card = cloud("res", price=rp, on_demand=od, pricing=f"reserved_{term // 12}y",
                 reserved_price=rp, term=term, reserved_instances=fixed, storage=storage)
    return dataclasses.replace(
        card, reserved_per_term=per_term,
        reserved_ladder=None if ladder is None else np.asarray([ladder], float))


def _closed_form_level(m, own_name="box", other="res") -> float:
    """The pair's level as a plan's figures give it (NaN where an option is infeasible at the
    plan's own level)."""
    pair = next(p for p in compute(m).pairs if (p.own, p.versus) == (own_name, other))
    return float(pair.gpu_hours_per_month[0])


def _feasible(m, *names) -> bool:
    return all(bool(o.feasible[0]) for o in compute(m, break_even=False).options
               if o.name in names)


@pytest.mark.parametrize("fixed", [1, None])
def test_level_against_a_reserved_cloud_by_hand(fixed):
    """A 2-GPU box bought for 80,000, kept 12 of its 48 months (worth 60,000 at the end):
    20,000 + 12 × 0.5/2 × x = 20,000 + 3x over a year of x GPU-hours a month. A reserved cloud
    at 2.0 an hour (on demand 3.0), 730 h a month, no discounting: one instance commits
    12 × 730 × 2 = 17,520 and covers 730 h a month; above, 12 × 3 = 36 a GPU-hour a month.
    With one instance given, PV = 17,520 + 36 (x − 730) above 730: even where
    20,000 + 3x = 17,520 + 36 (x − 730), x = 28,760 / 33. With the count chosen per level,
    renting on demand (36x) gives way to one instance at 486.7 (36x = 17,520) and one to two
    at 1,216.7: the box is dearer up to the same level, 871.5."""
    m = model(own(price=80_000, gpu_count=2, operating=0.5, lifetime_months=48),
              _reserved(fixed=fixed), dem=demand(level=100), cal=calendar(T=12))
    assert _closed_form_level(m) == pytest.approx(28_760 / 33, rel=1e-12)


def test_level_before_the_first_reserved_instance_by_hand():
    """The same box bought for 40,000 (20,000 less its value after a year: 10,000): even with
    on-demand rent before a first instance pays, 10,000 + 3x = 36x, x = 303.03."""
    m = model(own(price=40_000, gpu_count=2, operating=0.5, lifetime_months=48),
              _reserved(), dem=demand(level=100), cal=calendar(T=12))
    assert _closed_form_level(m) == pytest.approx(10_000 / 33, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(price=st.floats(500, 60_000), run=st.floats(0, 2), gpu_count=st.integers(1, 8),
       reserved=st.floats(0.1, 3), premium=st.floats(1.0, 3.0), term=st.sampled_from([12, 36]),
       T=st.integers(1, 40), growth=st.floats(-0.5, 1.5), rate=st.floats(0, 0.2),
       overflow=st.sampled_from([None, "spare", "res"]),
       form=st.sampled_from(["best", "fixed", "per_term", "ladder"]),
       storage=st.sampled_from([0.0, 0.02]), level=st.floats(0, 1000),
       seed=st.integers(0, 2**16))
def test_closed_form_equals_the_engine_on_the_pieces(
        price, run, gpu_count, reserved, premium, term, T, growth, rate, overflow, form,
        storage, level, seed):
    """Against a reserved cloud (the count chosen per level over the horizon or per term, a
    count or a ladder given), alone or as the box's overflow, the break-even level in closed
    form is the level the engine finds by evaluating present values on the pieces."""
    od = reserved * premium
    rng = np.random.default_rng(seed)
    ladder = rng.integers(0, 2 * gpu_count + 1, term_count(T, term)).tolist()
    res = _reserved(term=term, per_term=form == "per_term",
                    ladder=ladder if form == "ladder" else None,
                    fixed=int(rng.integers(0, 4)) if form == "fixed" else None,
                    od=od, rp=reserved, storage=storage)
    cards = [own(price=price, gpu_count=gpu_count, operating=run, lifetime_months=T,
                 overflow=overflow), res]
    if overflow == "spare":
        cards.append(cloud("spare", price=od))
    m = model(*cards, dem=demand(level=level, growth=growth, data_gb=500.0),
              cal=calendar(T=T, r=rate))
    if not _feasible(m, "box", "res"):  # the pair has no figures at the plan's level
        return
    expected = break_even_level(m, "box", "res")[0]
    got = _closed_form_level(m)
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(price=st.floats(1_000, 60_000), run=st.floats(0, 2), gpu_count=st.integers(1, 4),
       machines=st.integers(1, 2), reserved=st.floats(0.2, 3), premium=st.floats(1.0, 3.0),
       term=st.sampled_from([12, 36]), T=st.integers(2, 30), month=st.integers(0, 29),
       growth=st.floats(-0.5, 1.0), overflow=st.sampled_from([None, "res"]),
       form=st.sampled_from(["best", "fixed", "per_term"]), level=st.floats(0, 800))
def test_closed_form_with_a_late_purchase_equals_the_engine_on_the_pieces(
        price, run, gpu_count, machines, reserved, premium, term, T, month, growth, overflow,
        form, level):
    """SPEC §6's fleets and purchase months against a reserved cloud (the box's capacity then
    changes by month, 0 before it serves): the closed form still equals the engine on the
    pieces."""
    res = _reserved(term=term, per_term=form == "per_term", fixed=1 if form == "fixed" else None,
                    od=reserved * premium, rp=reserved)
    m = model(own(price=price, gpu_count=gpu_count, operating=run, machines=machines,
                  purchase_month=min(month, T - 1), overflow=overflow),
              res, dem=demand(level=level, growth=growth), cal=calendar(T=T))
    if not _feasible(m, "box", "res"):  # the pair has no figures at the plan's level
        return
    got = _closed_form_level(m)
    want = float(np.asarray(break_even_level(m, "box", "res")).reshape(-1)[0])
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got == pytest.approx(want, rel=1e-6, abs=1e-6)
