"""Sweeps whose break-even walks differ between scenarios: the events (capacities, growth,
discounting, reserved prices) change with a swept key, so the per-scenario walk is taken
where a single evaluation takes the shared one (planner.engine.linear.shared_walk); both give
the same figures."""

import numpy as np
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
