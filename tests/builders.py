"""Small models built by hand for the engine's tests (no YAML, no catalog)."""

from __future__ import annotations

import numpy as np

from planner.cards.model import (
    Calendar,
    CloudCard,
    Demand,
    Financing,
    FreeTierCard,
    Model,
    OwnCard,
    col,
)

NAN = np.nan


def calendar(T=36, H=730.0, r=0.0):
    return Calendar(horizon_months=T, hours_per_month=col(H), discount_rate=col(r))


def demand(level=100.0, growth=0.0, gpus=1, job_hours=None, checkpoint=30.0, data_gb=0.0,
           min_mem=0.0, form="gpu_hours"):
    return Demand(form=form, level=col(level), growth_per_year=col(growth), gpus=col(gpus),
                  job_hours=None if job_hours is None else col(job_hours),
                  checkpoint_minutes=col(checkpoint), data_gb=col(data_gb),
                  min_gpu_memory_gb=col(min_mem))


def cloud(name="cloud", price=2.0, gpus=1, pricing="on_demand", reserved_price=None, term=0,
          reserved_instances=None, billing_minutes=0.0, interruptions=0.0, restart=5.0,
          storage=0.0, speed=1.0, memory=80.0, job_hours=None, on_demand=None):
    return CloudCard(
        name=name, gpu=None, gpu_memory_gb=col(memory), gpu_hours_per_unit=1 / col(speed),
        job_hours=None if job_hours is None else col(job_hours), pricing=pricing,
        gpus=col(gpus), price_per_hour=col(price),
        on_demand_price_per_hour=col(price if on_demand is None else on_demand),
        reserved_price_per_hour=None if reserved_price is None else col(reserved_price),
        term_months=term,
        reserved_instances=None if reserved_instances is None else col(reserved_instances),
        billing_increment_hours=col(billing_minutes) / 60, interruptions_per_hour=col(
            interruptions), restart_minutes=col(restart), storage_per_gb_month=col(storage))


def own(name="box", price=10_000.0, gpu_count=1, lifetime_months=48, resale=0.0, power_w=0.0,
        idle_w=0.0, always_on=False, maintenance_per_year=0.0, fixed=0.0, operating=0.0,
        availability=1.0, electricity=0.0, pue=1.0, carbon=None, financing=None,
        overflow=None, speed=1.0, memory=80.0, job_hours=None, machines=1,
        purchase_month=0):
    """An own card; ``machines="auto"`` leaves the count to the engine."""
    return OwnCard(
        name=name, gpu=None, gpu_memory_gb=col(memory), gpu_hours_per_unit=1 / col(speed),
        job_hours=job_hours, gpu_count=col(gpu_count), purchase_price=col(price),
        lifetime_months=col(lifetime_months), resale_fraction=col(resale),
        power_kw=col(power_w) / 1000, idle_power_kw=col(idle_w) / 1000, always_on=always_on,
        maintenance_per_year=col(maintenance_per_year), fixed_cost_per_month=col(fixed),
        operating_cost_per_hour=col(operating), availability=col(availability),
        electricity_per_kwh=col(electricity), pue=col(pue),
        carbon_kg_per_kwh=None if carbon is None else col(carbon),
        financing=None if financing is None else Financing(*(col(v) for v in financing)),
        overflow=overflow, machines=None if isinstance(machines, str) else col(machines),
        machines_auto=isinstance(machines, str), purchase_month=col(purchase_month))


def free_tier(name="tier", gpus=1, session=NAN, weekly=NAN, daily=NAN, monthly=NAN, fee=0.0,
              setup=0.0, availability=1.0, fallback=None, speed=1.0, memory=16.0):
    return FreeTierCard(
        name=name, gpu=None, gpu_memory_gb=col(memory), gpu_hours_per_unit=1 / col(speed),
        job_hours=None, gpus=col(gpus), session_hours=col(session),
        weekly_quota_hours=col(weekly), daily_quota_hours=col(daily),
        monthly_quota_hours=col(monthly), fee_per_month=col(fee), setup_minutes=col(setup),
        availability=col(availability), fallback=fallback)


def model(*cards, cal=None, dem=None):
    cards_by_name = {c.name: c for c in cards}
    targets = {}
    for c in cards:
        target = getattr(c, "overflow", None) or getattr(c, "fallback", None)
        if target:
            targets[c.name] = target
    return Model(calendar=cal or calendar(), demand=dem or demand(), cards=cards_by_name,
                 target_of=targets)


def usage_plan(**changes) -> dict:
    """A small usage document (a machine and a rental, 12 months), with top-level keys
    replaced by ``changes``; a fresh dict every call."""
    data = {
        "version": 1, "horizon_months": 12,
        "demand": {"gpu_hours_per_month": 100},
        "site": {"electricity_per_kwh": 0.2},
        "options": [
            {"name": "box", "own": {"purchase_price": 1200, "power_watts": 500}},
            {"name": "rent", "cloud": {"price_per_hour": 1.0}},
        ],
    }
    data.update(changes)
    return data


def assert_first_break_even_level(m, own_name: str, other: str, bound: float) -> None:
    """The break-even level of ``own_name`` against ``other`` is where the difference of
    present values is zero or changes sign, and no level below it is: a scan of 1,500 levels
    up to ``bound`` finds no sign change before it; without a level, none at all."""
    from planner.engine.breakeven import break_even_level, pv_at_levels

    level = break_even_level(m, own_name, other)[0]
    grid = np.linspace(0, bound, 1501)
    pv, _ = pv_at_levels(m, [own_name, other], grid[None, :])
    diff = pv[own_name][0] - pv[other][0]
    scale = np.maximum(np.abs(pv[own_name][0]), np.abs(pv[other][0]))
    sign = np.where(np.abs(diff) <= 1e-7 * np.maximum(scale, 1.0), 0, np.sign(diff))
    first = next((i for i in range(len(grid))
                  if sign[i] == 0 or (i and sign[i] * sign[i - 1] < 0)), None)
    if np.isnan(level):
        assert first is None, (grid[first], diff[first])
        return
    assert first is None or not grid[first] < level * (1 - 1e-9) - 1e-9, (level, grid[first])
    # At the level itself the difference is zero, or changes sign there (a jump).
    at, _ = pv_at_levels(m, [own_name, other], np.array([[level, level * (1 + 1e-7) + 1e-7]]))
    d = at[own_name][0] - at[other][0]
    assert abs(d[0]) <= 1e-6 * max(abs(at[own_name][0, 0]), 1.0) or d[0] * d[1] <= 0
