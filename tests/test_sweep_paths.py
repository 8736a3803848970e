"""Sweeps whose break-even walks differ between scenarios: the events (capacities, growth,
discounting, reserved prices) change with a swept key, so the per-scenario walk is taken
where a single evaluation takes the shared one (planner.engine.linear.shared_walk); both give
the same figures."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_plan import _close, base_plan

import planner

AXES = {
    "demand.growth_per_year": st.floats(-0.5, 1.5),
    "discount_rate": st.floats(0, 0.3),
    "options.box.availability": st.floats(0.3, 1.0),
    "options.commit.reserved_1y_price_per_hour": st.floats(0.5, 2.4),
    "options.rent.price_per_hour": st.floats(1.7, 6.0),
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(sorted(AXES)), data=st.data(),
       level=st.lists(st.floats(0, 1500), min_size=1, max_size=2, unique=True))
def test_a_sweep_over_the_walks_events_equals_the_evaluations(key, data, level):
    values = data.draw(st.lists(AXES[key], min_size=2, max_size=3, unique=True))
    plan = planner.load(base_plan())
    frame = plan.sweep({key: values, "demand.gpu_hours_per_month": level})
    for (v, x), rows in frame.groupby([key, "demand.gpu_hours_per_month"]):
        single = plan.replace({key: v, "demand.gpu_hours_per_month": x}).evaluate().to_dict()
        assert rows.iloc[0].cheapest == single["cheapest"]
        for o in single["options"]:
            row = rows[rows.option == o["name"]].iloc[0]
            for field in ("total_cost", "present_value", "residual_value"):
                assert _close(o[field], row[field]), (o["name"], field)
        for pair in single["break_even"]:
            row = rows[rows.option == pair["own"]].iloc[0]
            for field in ("months", "system_hours", "gpu_hours_per_month"):
                got = row[f"break_even.{pair['versus']}.{field}"]
                assert _close(pair[field], None if np.isnan(got) else got), (pair, field)


# A swept memory need makes an overflow chain's feasible bound vary by scenario while its
# capacities do not: the line took the capacities' shape and failed to broadcast (a sweep or a
# draw of demand.min_gpu_memory_gb, or of the overflow target's gpu_memory_gb, crashed).
MEMORY_PLAN = {
    "version": 1, "horizon_months": 12,
    "demand": {"gpu_hours_per_month": 300, "min_gpu_memory_gb": 16},
    "site": {"electricity_per_kwh": 0.2},
    "options": [
        {"name": "box", "overflow": "rent",
         "own": {"gpu_count": 1, "purchase_price": 2000, "power_watts": 500,
                 "gpu_memory_gb": 24}},
        {"name": "rent", "cloud": {"price_per_hour": 1.0, "gpu_memory_gb": 80}},
    ],
}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(["demand.min_gpu_memory_gb", "options.rent.gpu_memory_gb"]),
       values=st.lists(st.sampled_from([8.0, 16.0, 24.0, 32.0, 80.0, 100.0]), min_size=2,
                       max_size=4, unique=True))
def test_a_sweep_of_gpu_memory_through_an_overflow_equals_the_evaluations(key, values):
    plan = planner.load(MEMORY_PLAN)
    frame = plan.sweep({key: values})
    for value, rows in frame.groupby(key):
        single = plan.replace({key: value}).evaluate().to_dict()
        for o in single["options"]:
            row = rows[rows.option == o["name"]].iloc[0]
            assert bool(row.feasible) == o["feasible"], (value, o["name"])
            if o["feasible"]:
                assert _close(o["total_cost"], row.total_cost), (value, o["name"])


def test_the_memory_chain_by_hand():
    """box 24 GB serves all 300 h at 0.5 kW × 0.2 = 0.1 a GPU-hour: 2,000 + 12 × 300 × 0.1
    − 1,500 residual value (SPEC §5.3: 2,000 − 2,000 × 12/48 at the default 4-year lifetime
    and no resale) = 860; a 32 GB need leaves it infeasible and the rent at 12 × 300 × 1.0 =
    3,600."""
    frame = planner.load(MEMORY_PLAN).sweep({"demand.min_gpu_memory_gb": [16.0, 32.0]})
    box = frame[frame.option == "box"].set_index("demand.min_gpu_memory_gb")
    rent = frame[frame.option == "rent"].set_index("demand.min_gpu_memory_gb")
    assert box.loc[16.0, "total_cost"] == pytest.approx(860.0)
    assert not box.loc[32.0, "feasible"]
    assert list(rent.total_cost) == pytest.approx([3600.0, 3600.0])
