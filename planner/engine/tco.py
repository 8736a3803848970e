"""The cost engine of SPEC §5: cash flows of every option over [scenario × month] arrays.

Each option kind has one pure function from its card and the work it is given to its
:class:`Flows`. Work is in reference units (reference GPU-hours, or FLOPs), shape (S, T + 1),
month 0 empty. Overflow and fallback targets are evaluated on the work passed to them and
folded into the passing option's flows. Reasons, warnings and units are
:class:`~planner.messages.Message` records, never prose: the report renders them.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from planner.cards.model import Array, CloudCard, FreeTierCard, Model, OwnCard
from planner.engine.money import annuity_payment, discount_factors, loan_balance
from planner.messages import Message

COMPONENTS = ("purchase", "resale", "financing", "loan_payoff", "energy", "maintenance",
              "fixed", "operating", "rental", "reservation", "storage", "fee", "overflow",
              "fallback")

#: Work below this share of a month's demand is rounding noise, not unmet demand.
_UNMET_TOLERANCE = 1e-9


@dataclass
class Flows:
    """Cash flows and physical figures of one option over (S, T + 1) months.

    components : cost of each component in each month [currency]
    residual_value : value of owned hardware kept at the horizon's end, (S,) [currency]
    needed : the option's own GPU-hours of demand in each month [h]
    served : the part it serves itself [h]
    system_hours : busy hours of the owned machine, None for other kinds [h]
    energy_kwh : facility energy in each month, None without an owned machine [kWh]
    carbon_kg : energy × grid intensity, None when unknown [kg CO2e]
    capacity : usable GPU-hours per month (own, free tier), (S,), else None [h]
    infeasible : (mask (S,), reason) pairs; a scenario is infeasible where any mask is true
    warnings : (mask (S,), message) pairs
    redirected : (mask, reason) pairs where all work goes to the target (free tier); infeasible
        reasons when there is no target
    quantities : component -> (quantity per month, or a function giving it; unit, a Message;
        price per unit, None where it varies): what each cost is made of, for the report's breakdown
    """

    components: dict[str, Array]
    residual_value: Array
    needed: Array
    served: Array
    system_hours: Array | None = None
    energy_kwh: Array | None = None
    carbon_kg: Array | None = None
    capacity: Array | None = None
    infeasible: list[tuple[Array, Message]] = field(default_factory=list)
    warnings: list[tuple[Array, Message]] = field(default_factory=list)
    redirected: list[tuple[Array, Message]] = field(default_factory=list)
    quantities: dict[str, tuple] = field(default_factory=dict)
    target: Flows | None = None  # the overflow/fallback option's flows on the passed work

    @functools.cached_property
    def unmet(self) -> Array:
        return self.needed - self.served

    @functools.cached_property
    def monthly_cost(self) -> Array:
        """Sum of the components, (S, T + 1); read only once the flows are complete."""
        total = 0.0
        # Shared rows (1, T + 1) first: they add up cheaply before the per-scenario arrays.
        for value in sorted(self.components.values(), key=lambda a: np.shape(a)[0]):
            total = total + value
        return total

    def feasible(self, rows: int) -> Array:
        ok = np.ones(rows, dtype=bool)
        for mask, _ in self.infeasible:
            ok &= ~np.broadcast_to(mask, (rows,))
        return ok


def work_by_month(model: Model) -> Array:
    """Reference work in each month: level × (1 + g)^((m − 1)/12), month 0 empty. (S, T+1)"""
    months = model.calendar.months
    d = model.demand
    growth = growth_factors(d.growth_per_year, months)
    work = d.level * growth
    work[:, 0] = 0.0
    return work


def growth_factors(growth_per_year: Array, months: Array) -> Array:
    """(1 + g)^((m − 1)/12) for ``months`` (month 0 gets the factor of month 1; its work is
    zero anyway). A growth of −1 or below (the sensitivity analysis moves −1 to −1.25) means
    the work is gone after month 1, never a NaN or a division by zero."""
    base = np.maximum(1.0 + np.asarray(growth_per_year, dtype=float), 0.0)
    return np.power(base, np.maximum(np.asarray(months) - 1, 0) / 12.0)


def discount(model: Model) -> Array:
    """Discount factor of each month, (S, T + 1)."""
    return discount_factors(model.calendar.discount_rate, model.calendar.months)


def evaluate(model: Model) -> dict[str, Flows]:
    """Flows of every option on the model's demand, targets folded in."""
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
    rows = _rows(model, work)
    if flows.served is flows.needed:  # a cloud option serves all of its work
        return flows
    passed = np.where(flows.unmet > _UNMET_TOLERANCE * np.maximum(flows.needed, 1.0),
                      flows.unmet, 0.0) / card.gpu_hours_per_unit
    has_passed = (passed > 0).any(axis=1)
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


def _rows(model: Model, work: Array) -> int:
    return max(model.scenarios, work.shape[0])


def _horizon_mask(model: Model) -> Array:
    """1.0 in months 1..T, 0.0 in month 0, shape (1, T + 1)."""
    mask = np.ones((1, model.calendar.horizon_months + 1))
    mask[0, 0] = 0.0
    return mask


def _memory_masks(model: Model, card, rows: int) -> tuple[Array, Array]:
    """Where the GPU has too little memory, and where its memory is unknown but asked for."""
    need = model.demand.min_gpu_memory_gb
    have = card.gpu_memory_gb
    too_small = np.broadcast_to((need > have)[:, 0], (rows,))
    unknown = np.broadcast_to((np.isnan(have) & (need > 0))[:, 0], (rows,))
    return too_small, unknown


def _memory_checks(model: Model, card, rows: int, flows: Flows) -> None:
    """Adds the memory reason and warning to ``flows``."""
    too_small, unknown = _memory_masks(model, card, rows)
    if too_small.any():
        flows.infeasible.append((too_small, _memory_reason(card, model.demand.min_gpu_memory_gb)))
        _serves_nothing(flows, too_small)
    if unknown.any():
        flows.warnings.append((unknown, _UNKNOWN_MEMORY))


_UNKNOWN_MEMORY = Message("warning.memory_unknown")


def _serves_nothing(flows: Flows, mask: Array) -> None:
    """Where ``mask`` (S,) holds, the option cannot run the work at all (a job too wide, too
    little memory): it serves none of it and all of it is unmet (SPEC §2). Its costs stay as
    computed; the option is infeasible there and reports none."""
    flows.served = np.where(mask[:, None], 0.0, flows.served)
    flows.__dict__.pop("unmet", None)  # computed again from the new served


def _memory_reason(card, need) -> Message:
    have = float(np.nanmax(card.gpu_memory_gb)) if np.isfinite(card.gpu_memory_gb).any() else 0
    return Message("reason.memory", have=have, need=float(np.max(need)))


# -- cloud ----------------------------------------------------------------------------------


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
    rows = _rows(model, work)
    needed = work * card.gpu_hours_per_unit
    hours = rented_instance_hours(model, card, needed)
    H = model.calendar.hours_per_month
    T = model.calendar.horizon_months
    in_horizon = _horizon_mask(model)
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
    _memory_checks(model, card, rows, flows)
    return flows


# -- own ------------------------------------------------------------------------------------


def purchase_flows(card: OwnCard, horizon_months: int) -> tuple[dict[str, Array], Array, dict]:
    """Purchases, resales, loan payments and payoffs of an owned machine (SPEC §5.3).

    Returns the components (S, T + 1) [currency], the residual value at T, (S,) [currency],
    and the quantities behind the components (see :class:`Flows`).
    """
    T = horizon_months
    m = np.arange(T + 1)[None, :]
    L = card.lifetime_months
    price = card.purchase_price
    replaced = (m > 0) & (m < T) & (np.mod(m, L) == 0)
    bought = (m == 0) | replaced
    resale = card.resale_fraction * price
    components = {"resale": np.where(replaced, -resale, 0.0)}
    quantities = {"resale": (replaced * 1.0, Message("qty.machines_sold"), -resale)}
    if card.financing is None:
        components["purchase"] = np.where(bought, price, 0.0)
        quantities["purchase"] = (bought * 1.0, Message("qty.machines"), price)
    else:
        f = card.financing
        down = np.minimum(f.down_payment, price)
        principal = price - down
        rate = f.annual_rate / 12.0
        payment = annuity_payment(principal, rate, f.months)
        bought_at = L * np.floor((m - 1) / L)
        paid = m - bought_at  # payments made on the machine in service, this month's included
        components["purchase"] = np.where(bought, down, 0.0)
        paying = (m >= 1) & (paid <= f.months)
        components["financing"] = np.where(paying, payment, 0.0)
        payoff_month = (m >= 1) & (replaced | (m == T))
        components["loan_payoff"] = np.where(payoff_month,
                                             loan_balance(principal, rate, f.months, paid), 0.0)
        quantities["purchase"] = (bought * 1.0, Message("qty.down_payments"), down)
        quantities["financing"] = (paying * 1.0, Message("qty.loan_payments"), payment)
        quantities["loan_payoff"] = (
            lambda: (components["loan_payoff"] > 0) * 1.0, Message("qty.loans_paid_off"), None)
    last_bought = L * np.floor((T - 1) / L) if T >= 1 else 0.0
    age = T - last_bought
    residual = price - (price - resale) * age / L
    return components, residual[:, 0], quantities


def own_flows(model: Model, card: OwnCard, work: Array) -> Flows:
    rows = _rows(model, work)
    H = model.calendar.hours_per_month
    in_horizon = _horizon_mask(model)
    needed = work * card.gpu_hours_per_unit
    capacity = card.gpu_count * H * card.availability
    served = np.minimum(needed, capacity)
    system_hours = served / card.gpu_count
    # Energy: busy power while busy, idle power in the other hours when always on; the idle
    # part is idle power × (H − S) = idle power × H − idle power × S (month 0 excluded).
    idle_kw = card.idle_power_kw if card.always_on else 0.0
    energy_kwh = system_hours * ((card.power_kw - idle_kw) * card.pue)
    if card.always_on:
        energy_kwh = energy_kwh + (idle_kw * H * card.pue) * in_horizon
    components, residual, quantities = purchase_flows(card, model.calendar.horizon_months)
    quantities.update({
        "energy": (energy_kwh, Message("qty.kwh"), card.electricity_per_kwh),
        "maintenance": (in_horizon / 12.0, Message("qty.years"), card.maintenance_per_year),
        "fixed": (in_horizon, Message("qty.months"), card.fixed_cost_per_month),
        "operating": (system_hours, Message("qty.system_hours"), card.operating_cost_per_hour),
    })
    components.update({
        "energy": energy_kwh * card.electricity_per_kwh,
        "maintenance": card.maintenance_per_year / 12.0 * in_horizon,
        "fixed": card.fixed_cost_per_month * in_horizon,
        "operating": card.operating_cost_per_hour * system_hours,
    })
    components = {k: np.asarray(v, dtype=float) for k, v in components.items()}
    flows = Flows(components=components, residual_value=np.broadcast_to(residual, (rows,)),
                  needed=needed, served=served, system_hours=system_hours,
                  energy_kwh=energy_kwh, capacity=np.broadcast_to(capacity[:, 0], (rows,)),
                  quantities=quantities)
    if card.carbon_kg_per_kwh is not None:
        flows.carbon_kg = flows.energy_kwh * card.carbon_kg_per_kwh
    wide = np.broadcast_to((model.demand.gpus > card.gpu_count)[:, 0], (rows,))
    if wide.any():
        flows.infeasible.append((wide, Message("reason.wide_own")))
        _serves_nothing(flows, wide)
    _memory_checks(model, card, rows, flows)
    return flows


# -- free tier ------------------------------------------------------------------------------


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
    rows = _rows(model, work)
    in_horizon = _horizon_mask(model)
    needed = work * card.gpu_hours_per_unit
    capacity = free_tier_capacity(model, card)
    memory_small, memory_unknown = _memory_masks(model, card, rows)
    wide = np.broadcast_to((model.demand.gpus > card.gpus)[:, 0], (rows,))
    other_framework = np.full(rows, card.framework_reason is not None)
    excluded = (memory_small | wide | other_framework)[:, None]
    served = np.where(excluded, 0.0, np.minimum(needed, capacity))
    fee = card.fee_per_month * in_horizon
    flows = Flows(components={"fee": fee}, residual_value=np.zeros(rows), needed=needed,
                  served=served, capacity=np.broadcast_to(capacity[:, 0], (rows,)),
                  quantities={"fee": (in_horizon, Message("qty.months"), card.fee_per_month)})
    if memory_unknown.any():
        flows.warnings.append((memory_unknown, _UNKNOWN_MEMORY))
    # Too little memory or too few GPUs sends all the work to the fallback (SPEC §5.4); without
    # one the tier is infeasible for that reason.
    if memory_small.any():
        flows.redirected.append(
            (memory_small, _memory_reason(card, model.demand.min_gpu_memory_gb)))
    if wide.any():
        flows.redirected.append((wide, Message("reason.wide_free_tier")))
    if card.framework_reason is not None:
        flows.redirected.append((other_framework, card.framework_reason))
    return flows


def present_value(model: Model, flows: Flows, disc: Array | None = None) -> Array:
    """Discounted sum of the monthly costs less the discounted residual value, (S,). [currency]"""
    if disc is None:
        disc = discount(model)
    T = model.calendar.horizon_months
    monthly = flows.monthly_cost
    if disc.shape[0] == 1:  # one discount curve for all scenarios: a matrix-vector product
        discounted = monthly @ disc[0]
    else:
        discounted = np.einsum("ij,ij->i", *np.broadcast_arrays(monthly, disc))
    return discounted - flows.residual_value * disc[:, T]


def total_cost(flows: Flows) -> Array:
    """Nominal sum of the monthly costs less the residual value, (S,). [currency]"""
    return flows.monthly_cost.sum(axis=1) - flows.residual_value


def chain(model: Model, name: str) -> list[str]:
    """The option and the overflow/fallback targets it passes work to, in order."""
    names = [name]
    while names[-1] in model.target_of:
        names.append(model.target_of[names[-1]])
    return names
