"""The cost engine of SPEC §5: cash flows of every option over [scenario × month] arrays.

Each option kind has one pure function from its card and the work it is given to its
:class:`Flows`. Work is in reference units (reference GPU-hours, or FLOPs), shape (S, T + 1),
month 0 empty. Overflow and fallback targets are evaluated on the work passed to them and
folded into the passing option's flows. Reasons, warnings and units are
:class:`~planner.messages.Message` records, never prose: the report renders them.
"""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, CloudCard, FreeTierCard, Model, OwnCard
from planner.engine.cloud import cloud_flows
from planner.engine.flows import Flows, row_count
from planner.engine.free_tier import free_tier_flows
from planner.engine.months import work_by_month
from planner.engine.own import own_flows
from planner.messages import Message


def evaluate(model: Model, work: Array | None = None) -> dict[str, Flows]:
    """Flows of every option on the model's demand, targets folded in; ``work``: the model's
    :func:`~planner.engine.months.work_by_month` when the caller has it already."""
    if work is None:
        work = work_by_month(model)
    return {name: option_flows(model, name, work, as_target=False) for name in model.cards}


def option_flows(model: Model, name: str, work: Array, *, as_target: bool) -> Flows:
    """Flows of option ``name`` given ``work`` [reference units], its targets folded in."""
    card = model.cards[name]
    if isinstance(card, CloudCard):
        flows = cloud_flows(model, card, work, as_target=as_target)
    elif isinstance(card, OwnCard):
        flows = own_flows(model, card, work)
    else:
        flows = free_tier_flows(model, card, work)
    target = model.target_of.get(name)
    rows = row_count(model, work)
    if flows.served is flows.needed:  # a cloud option serves all of its work
        return flows
    passed = flows.unmet * flows.unmet_mask  # the unmet work beyond rounding noise
    if np.any(card.gpu_hours_per_unit != 1.0):
        np.divide(passed, card.gpu_hours_per_unit, out=passed)
    has_passed = flows.unmet_mask.any(axis=1)
    if target is None:
        flows.infeasible.extend(flows.redirected)
        flows.infeasible.append((has_passed, _unmet_reason(card)))
        return flows
    for mask, reason in flows.redirected:
        flows.warnings.append((mask, Message("warning.redirected", reason=reason,
                                             target=target)))
    inner = option_flows(model, target, passed, as_target=True)
    label = "overflow" if isinstance(card, OwnCard) else "fallback"
    flows.components[label] = inner.monthly_cost
    unit = "qty.passed_gpu_hours" if model.demand.form == "gpu_hours" else "qty.passed_flops"
    flows.quantities[label] = (passed, Message(unit, target=target), None)
    flows.target = inner
    flows.residual_value = flows.residual_value + inner.residual_value
    flows.energy_kwh = _add_optional(flows.energy_kwh, inner.energy_kwh)
    flows.carbon_kg = _add_optional(flows.carbon_kg, inner.carbon_kg)
    flows.steps = _add_optional(flows.steps, inner.steps)
    for mask, reason in inner.infeasible:
        flows.infeasible.append((np.broadcast_to(mask, (rows,)) & has_passed,
                                 Message(f"reason.{label}_target", target=target,
                                         reason=reason)))
    for mask, text in inner.warnings:
        flows.warnings.append((np.broadcast_to(mask, (rows,)) & has_passed,
                               Message("warning.of_target", target=target, warning=text)))
    return flows


def _unmet_reason(card) -> Message:
    if isinstance(card, OwnCard):
        return Message("reason.unmet_own")
    if isinstance(card, FreeTierCard):
        return Message("reason.unmet_free_tier")
    return Message("reason.unmet")


def _add_optional(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def chain(model: Model, name: str) -> list[str]:
    """The option and the overflow/fallback targets it passes work to, in order."""
    names = [name]
    while names[-1] in model.target_of:
        names.append(model.target_of[names[-1]])
    return names
