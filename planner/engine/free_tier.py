"""Free notebook tiers (SPEC §5.4): capacity from the tightest quota less setup time per
session; what the tier cannot take (too little memory, too few GPUs, another framework) goes
to its fallback."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, FreeTierCard, Model
from planner.engine.feasible import UNKNOWN_MEMORY, memory_masks, memory_reason
from planner.engine.flows import Flows, row_count
from planner.engine.months import horizon_mask
from planner.messages import Message


def free_tier_capacity(model: Model, card: FreeTierCard) -> Array:
    """Usable GPU-hours per month: granted hours less setup time per session (SPEC §5.4). (S,1)"""
    H = model.calendar.hours_per_month
    g = model.demand.gpus
    limits = [card.weekly_quota_hours * H / 168.0, card.daily_quota_hours * H / 24.0,
              card.monthly_quota_hours]
    hours = H
    for limit in limits:
        hours = np.fmin(hours, limit)
    granted = np.minimum(g, card.gpus) * hours * card.availability
    session = card.session_hours
    with np.errstate(divide="ignore", invalid="ignore"):
        usable_share = np.where(np.isnan(session), 1.0,
                                np.maximum(session - card.setup_minutes / 60.0, 0.0) / session)
    return granted * usable_share


def free_tier_flows(model: Model, card: FreeTierCard, work: Array) -> Flows:
    rows = row_count(model, work)
    in_horizon = horizon_mask(model)
    needed = work * card.gpu_hours_per_unit
    capacity = free_tier_capacity(model, card)
    memory_small, memory_unknown = memory_masks(model, card, rows)
    wide = np.broadcast_to((model.demand.gpus > card.gpus)[:, 0], (rows,))
    other_framework = np.full(rows, card.framework_reason is not None)
    excluded = (memory_small | wide | other_framework)[:, None]
    served = np.minimum(needed, capacity)
    if served.shape[0] != excluded.shape[0]:  # one row of work for many scenarios
        served = np.where(excluded, 0.0, served)
    elif excluded.any():  # all work to the fallback there, written in place
        np.copyto(served, 0.0, where=excluded)
    fee = card.fee_per_month * in_horizon
    flows = Flows(components={"fee": fee}, residual_value=np.zeros(rows), needed=needed,
                  served=served, capacity=np.broadcast_to(capacity[:, 0], (rows,)),
                  quantities={"fee": (in_horizon, Message("qty.months"), card.fee_per_month)})
    if memory_unknown.any():
        flows.warnings.append((memory_unknown, UNKNOWN_MEMORY))
    # Too little memory or too few GPUs sends all the work to the fallback (SPEC §5.4); without
    # one the tier is infeasible for that reason.
    if memory_small.any():
        flows.redirected.append(
            (memory_small, memory_reason(card, model.demand.min_gpu_memory_gb)))
    if wide.any():
        flows.redirected.append((wide, Message("reason.wide_free_tier")))
    if card.framework_reason is not None:
        flows.redirected.append((other_framework, card.framework_reason))
    return flows
