"""Owned machines (SPEC §5.3): purchases, replacements, resale and residual value, loans and
their payoff, energy with the site's PUE, maintenance and running costs, capacity."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, Model, OwnCard
from planner.engine.feasible import memory_checks, serves_nothing
from planner.engine.flows import Flows, row_count
from planner.engine.money import annuity_payment, loan_balance
from planner.engine.months import horizon_mask
from planner.messages import Message


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
    rows = row_count(model, work)
    H = model.calendar.hours_per_month
    in_horizon = horizon_mask(model)
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
        serves_nothing(flows, wide)
    memory_checks(model, card, rows, flows)
    return flows
