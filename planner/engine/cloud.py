"""Cloud options (SPEC §5.2): whole instances rented, billing increments, interruptions,
reserved capacity and the on-demand overflow above it, storage."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, CloudCard, Model
from planner.engine.feasible import memory_checks
from planner.engine.flows import Flows, row_count
from planner.engine.months import discount, horizon_mask
from planner.messages import Message


def rented_instance_hours(model: Model, card: CloudCard, needed: Array) -> Array:
    """Instance-hours rented for ``needed`` own GPU-hours in each month (SPEC §5.2). [h]"""
    d = model.demand
    g = d.gpus
    instances = np.ceil(g / card.gpus)
    rho = 1.0 + card.interruptions_per_hour * (d.checkpoint_minutes / 2.0
                                               + card.restart_minutes) / 60.0
    if card.job_hours is None:
        return needed * (instances * rho / g)
    b = card.billing_increment_hours
    length = card.job_hours
    with np.errstate(divide="ignore", invalid="ignore"):
        billed_per_job = _ceil(length * rho / b) * b
        rounded = billed_per_job * instances / (g * length)
    return needed * np.where(b > 0, rounded, instances * rho / g)


def _ceil(x: Array) -> Array:
    """ceil that forgives float noise: 2.0000000000001 → 2."""
    return np.ceil(x - 1e-9 * np.maximum(np.abs(x), 1.0))


def reservation_weight(model: Model, disc: Array, term_months: int) -> Array:
    """Σ over months 1..T of the discount factor, plus the months of the last term that run
    past the horizon, charged in month T. (S, 1) [months]"""
    T = model.calendar.horizon_months
    extra = (-T) % term_months
    return disc[:, 1:].sum(axis=1, keepdims=True) + extra * disc[:, T:T + 1]


def best_reserved_instances(instance_hours: Array, hours_per_month: Array, reserved_price: Array,
                            on_demand_price: Array, disc: Array, weight: Array) -> Array:
    """Whole number of committed instances with the lowest present value (ties: fewer).

    The present value of R committed instances is
    R·p_r·H·weight + Σ_m disc_m·p_od·max(0, I_m − R·H), convex in R; its continuous minimum is
    the weighted quantile of I_m/H at which the discounted weight of the months still above the
    commitment drops to p_r·weight/p_od. The whole-number minimum is the floor or the ceiling of
    it. (S, 1) [instances]
    """
    hours = instance_hours[:, 1:]
    w = np.broadcast_to(disc[:, 1:], hours.shape)
    order = np.argsort(-hours, axis=1, kind="stable")
    sorted_hours = np.take_along_axis(hours, order, axis=1)
    cum_weight = np.cumsum(np.take_along_axis(w, order, axis=1), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(on_demand_price > 0, reserved_price * weight / on_demand_price, np.inf)
    k = (cum_weight <= tau * (1 + 1e-12)).sum(axis=1, keepdims=True)
    padded = np.concatenate([sorted_hours, np.zeros_like(sorted_hours[:, :1])], axis=1)
    continuous = np.take_along_axis(padded, k, axis=1) / hours_per_month

    def cost(r):
        over = np.maximum(hours - r * hours_per_month, 0.0)
        return (r * reserved_price * hours_per_month * weight
                + on_demand_price * (w * over).sum(axis=1, keepdims=True))

    low, high = np.floor(continuous), np.ceil(continuous)
    return np.where(cost(low) <= cost(high), low, high)


def cloud_flows(model: Model, card: CloudCard, work: Array, *, as_target: bool) -> Flows:
    rows = row_count(model, work)
    needed = work * card.gpu_hours_per_unit
    hours = rented_instance_hours(model, card, needed)
    H = model.calendar.hours_per_month
    T = model.calendar.horizon_months
    in_horizon = horizon_mask(model)
    components: dict[str, Array] = {}
    if card.pricing in ("reserved_1y", "reserved_3y"):
        disc = discount(model)
        weight = reservation_weight(model, disc, card.term_months)
        reserved = card.reserved_instances
        if reserved is None:
            reserved = best_reserved_instances(hours, H, card.reserved_price_per_hour,
                                               card.on_demand_price_per_hour, disc, weight)
        extra = (-T) % card.term_months
        committed = reserved * H * in_horizon  # instance-hours paid for, month by month
        committed[:, T] = committed[:, T] * (1 + extra)
        components["reservation"] = committed * card.reserved_price_per_hour
        over = np.maximum(hours - reserved * H, 0.0)
        components["rental"] = over * card.on_demand_price_per_hour  # month 0 has no work
        quantities = {
            "reservation": (committed, Message("qty.committed_instance_hours"),
                            card.reserved_price_per_hour),
            "rental": (over, Message("qty.on_demand_instance_hours"),
                       card.on_demand_price_per_hour)}
    else:
        components["rental"] = hours * card.price_per_hour  # month 0 has no work
        quantities = {"rental": (hours, Message("qty.instance_hours"), card.price_per_hour)}
    gb_months = model.demand.data_gb * in_horizon
    if as_target:
        gb_months = gb_months * (work > 0)
    components["storage"] = gb_months * card.storage_per_gb_month
    quantities["storage"] = (gb_months, Message("qty.gb_months"), card.storage_per_gb_month)
    flows = Flows(components=components, residual_value=np.zeros(rows), needed=needed,
                  served=needed, quantities=quantities)
    memory_checks(model, card, rows, flows)
    return flows
