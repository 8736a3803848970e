"""Owned machines (SPEC §5.3, §6): purchases, replacements, resale and residual value, loans and
their payoff, energy with the site's PUE, maintenance and running costs, capacity; for a fleet
of identical machines bought in month p."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, Model, OwnCard
from planner.engine.feasible import memory_checks, memory_masks, serves_nothing
from planner.engine.flows import Flows, row_count
from planner.engine.money import annuity_payment, loan_balance
from planner.messages import Message

#: The largest count ``machines: auto`` looks at (:mod:`planner.engine.fleet`). [machines]
MAX_AUTO_MACHINES = 10_000


def machines_of(card: OwnCard) -> Array:
    """The card's machine count, (S or 1, 1); ``machines: auto`` must have been chosen
    (:func:`planner.engine.fleet.choose_machines`). [machines]"""
    if card.machines is None:
        msg = f"machines of {card.name!r} is auto: choose it first (engine.fleet)"
        raise ValueError(msg)
    return card.machines


def machine_capacity(model: Model, card: OwnCard) -> Array:
    """Usable GPU-hours of one machine in a month of service, (S, 1). [h]"""
    return card.gpu_count * model.calendar.hours_per_month * card.availability


def cannot_run_the_work(model: Model, card: OwnCard) -> Array:
    """Where the machines cannot run the work at any count and purchase month: a job wider
    than ``gpu_count`` (SPEC §5.3: machines do not pool for one job) or a GPU with too little
    memory. The option is infeasible there whatever ``machines`` is (0 included: the reasons of
    :func:`own_flows` do not depend on the count), so a search over counts or months has
    nothing to find. (S,) bool"""
    rows = model.scenarios
    return too_wide(model, card, rows) | memory_masks(model, card, rows)[0]


def too_wide(model: Model, card: OwnCard, rows: int) -> Array:
    """Where a job needs more GPUs than one machine has, (rows,) bool."""
    return np.broadcast_to((model.demand.gpus > card.gpu_count)[:, 0], (rows,))


def in_service(model: Model, card: OwnCard) -> Array:
    """1.0 in the months the machines serve (p + 1..T), else 0.0; (S or 1, T + 1)."""
    months = model.calendar.months[None, :]
    return (months > card.purchase_month) * 1.0


def own_capacity_by_month(model: Model, card: OwnCard) -> Array:
    """Capacity of the machines in reference units per month: (S, 1) when every scenario buys
    in month 0, else (S, T) over months 1..T, 0 before the machines serve. [units]"""
    capacity = machine_capacity(model, card) * machines_of(card)
    if np.any(card.purchase_month > 0):
        capacity = capacity * in_service(model, card)[:, 1:]
    return capacity / card.gpu_hours_per_unit


def purchase_flows(card: OwnCard, horizon_months: int) -> tuple[dict[str, Array], Array, dict]:
    """Purchases, resales, loan payments and payoffs of the machines (SPEC §5.3, §6): bought in
    month p, replaced every L months after it while before T.

    Each is one machine's flow × the count. One machine's flows are computed once per distinct
    row of purchase terms (a search's grid repeats a few purchase months over many counts),
    then gathered and multiplied by the count: the same products, so the same floats, as
    computing every row on its own.

    Returns the components (S, T + 1) [currency], the residual value at T, (S,) [currency],
    and the quantities behind the components (see :class:`Flows`).
    """
    terms, rows_of = _distinct_purchase_terms(card)
    one, months, residual = _one_machine_purchase_flows(terms, horizon_months)
    n = machines_of(card)

    def fleet(per_machine: Array) -> Array:
        if rows_of is None or per_machine.shape[0] == 1:  # a flow no varying term moves
            return per_machine * n
        rows = np.take(per_machine, rows_of, axis=0).astype(float, copy=False)
        return np.multiply(rows, n, out=rows)

    components = {label: fleet(flow) for label, flow in one.items()}
    price = card.purchase_price
    quantities = {"resale": (lambda: fleet(months["replaced"]), Message("qty.machines_sold"),
                             -card.resale_fraction * price)}
    if card.financing is None:
        quantities["purchase"] = (lambda: fleet(months["bought"]), Message("qty.machines"), price)
    else:
        f = card.financing
        down = np.minimum(f.down_payment, price)
        payment = annuity_payment(price - down, f.annual_rate / 12.0, f.months)
        quantities["purchase"] = (lambda: fleet(months["bought"]), Message("qty.down_payments"),
                                  down)
        quantities["financing"] = (lambda: fleet(months["paying"]), Message("qty.loan_payments"),
                                   payment)
        quantities["loan_payoff"] = (lambda: fleet(one["loan_payoff"] > 0),
                                     Message("qty.loans_paid_off"), None)
    return components, fleet(residual)[:, 0], quantities


#: Below this many rows the purchase terms are used as they are: finding the distinct rows
#: costs more than it saves. [rows]
_FEW_ROWS = 64


def _distinct_purchase_terms(card: OwnCard) -> tuple[dict[str, Array], Array | None]:
    """The terms one machine's purchase flows depend on (purchase month, price, lifetime,
    resale share, the loan's terms), each (U, 1), and the row of them for each of the S rows,
    (S,). None instead of the rows when the terms are used as they are (few rows, or few
    repeats) or, where no term varies, cut to their first row."""
    terms = {"month": card.purchase_month, "price": card.purchase_price,
             "lifetime": card.lifetime_months, "resale": card.resale_fraction}
    if card.financing is not None:
        f = card.financing
        terms |= {"down": f.down_payment, "rate": f.annual_rate, "loan_months": f.months}
    terms = {k: np.asarray(v, dtype=float).reshape(-1, 1) for k, v in terms.items()}
    rows = max(v.shape[0] for v in terms.values())
    if rows <= _FEW_ROWS:
        return terms, None
    # Rows are the same where their bits are: compared as integers, one column alone when
    # only one differs (a search's purchase months), else as rows of all that differ.
    bits = {k: np.ascontiguousarray(v[:, 0]).view(np.int64) for k, v in terms.items()
            if v.shape[0] > 1}
    varying = {k: b for k, b in bits.items() if (b != b[0]).any()}
    if not varying:
        return {k: v[:1] for k, v in terms.items()}, None
    if len(varying) == 1:
        distinct, first, rows_of = np.unique(next(iter(varying.values())), return_index=True,
                                             return_inverse=True)
    else:
        distinct, first, rows_of = np.unique(np.column_stack(list(varying.values())), axis=0,
                                             return_index=True, return_inverse=True)
    if len(distinct) > rows // 2:
        return terms, None
    return ({k: v[first] if v.shape[0] > 1 else v for k, v in terms.items()},
            rows_of.reshape(-1))


def _one_machine_purchase_flows(terms: dict[str, Array], horizon_months: int
                                ) -> tuple[dict[str, Array], dict[str, Array], Array]:
    """One machine's purchase, resale and loan flows for each row of ``terms``, (U, T + 1)
    [currency]; the months it is bought, replaced and paid for, (U, T + 1) bool; its residual
    value at T, (U, 1) [currency]."""
    T = horizon_months
    m = np.arange(T + 1)[None, :]
    p, price, L = terms["month"], terms["price"], terms["lifetime"]
    age = m - p  # months since the first purchase
    replaced = (age > 0) & (m < T) & (np.mod(age, L) == 0)
    bought = (m == p) | replaced
    resale = terms["resale"] * price
    flows = {"resale": np.where(replaced, -resale, 0.0)}
    months = {"replaced": replaced, "bought": bought}
    if "down" not in terms:
        flows["purchase"] = np.where(bought, price, 0.0)
    else:
        down = np.minimum(terms["down"], price)
        principal = price - down
        rate = terms["rate"] / 12.0
        loan_months = terms["loan_months"]
        bought_at = p + L * np.floor((age - 1) / L)
        paid = m - bought_at  # payments made on the machine in service, this month's included
        flows["purchase"] = np.where(bought, down, 0.0)
        paying = (age >= 1) & (paid <= loan_months)
        flows["financing"] = np.where(paying, annuity_payment(principal, rate, loan_months), 0.0)
        payoff_month = (age >= 1) & (replaced | (m == T))
        flows["loan_payoff"] = np.where(
            payoff_month, loan_balance(principal, rate, loan_months, paid), 0.0)
        months["paying"] = paying
    last_bought = p + L * np.floor((T - p - 1) / L)
    kept_age = T - last_bought
    residual = price - (price - resale) * kept_age / L
    return flows, months, residual


def purchase_steps(model: Model, card: OwnCard, components: dict[str, Array]) -> Array | None:
    """The first purchase when it falls after month 0, as a step at t = p of SPEC §5.6's
    cumulative curve (every other month's cost accrues evenly over its month); None when every
    scenario buys in month 0 (month 0 is a step anyway). (S, T + 1) [currency]"""
    if not np.any(card.purchase_month > 0):
        return None
    first = (model.calendar.months[None, :] == card.purchase_month) & (card.purchase_month > 0)
    return np.where(first, components["purchase"], 0.0)


def _per_busy_hour(price_per_hour: Array, system_hours: Array) -> Array:
    """price × busy hours in each month; a row of zeros, (1, T + 1), where the price is 0 in
    every scenario (the default): no (S, T + 1) array of zeros to compute and add up.
    [currency]"""
    if not np.any(price_per_hour):
        return np.zeros((1, system_hours.shape[1]))
    return price_per_hour * system_hours


def own_flows(model: Model, card: OwnCard, work: Array) -> Flows:
    rows = row_count(model, work)
    H = model.calendar.hours_per_month
    n = machines_of(card)
    serving = in_service(model, card)
    needed = work * card.gpu_hours_per_unit
    capacity = machine_capacity(model, card) * n
    served = np.minimum(needed, capacity * serving)
    system_hours = served / card.gpu_count
    # Energy: busy power while busy, idle power in the other hours when always on; the idle
    # part is idle power × (n·H − S) = idle power × n·H − idle power × S, in months of service.
    idle_kw = card.idle_power_kw if card.always_on else 0.0
    energy_kwh = system_hours * ((card.power_kw - idle_kw) * card.pue)
    if card.always_on:
        energy_kwh = energy_kwh + (idle_kw * H * card.pue * n) * serving
    components, residual, quantities = purchase_flows(card, model.calendar.horizon_months)
    fleet = bool(np.any(n != 1))  # units say machine-years, machine-months for a fleet
    quantities.update({
        "energy": (energy_kwh, Message("qty.kwh"), card.electricity_per_kwh),
        "maintenance": (lambda: serving / 12.0 * n,
                        Message("qty.machine_years" if fleet else "qty.years"),
                        card.maintenance_per_year),
        "fixed": (lambda: serving * n,
                  Message("qty.machine_months" if fleet else "qty.months"),
                  card.fixed_cost_per_month),
        "operating": (system_hours, Message("qty.system_hours"), card.operating_cost_per_hour),
    })
    components.update({
        "energy": energy_kwh * card.electricity_per_kwh,
        "maintenance": card.maintenance_per_year / 12.0 * n * serving,
        "fixed": card.fixed_cost_per_month * n * serving,
        "operating": _per_busy_hour(card.operating_cost_per_hour, system_hours),
    })
    components = {k: np.asarray(v, dtype=float) for k, v in components.items()}
    flows = Flows(components=components, residual_value=np.broadcast_to(residual, (rows,)),
                  needed=needed, served=served, system_hours=system_hours,
                  energy_kwh=energy_kwh, capacity=np.broadcast_to(capacity[:, 0], (rows,)),
                  quantities=quantities, steps=purchase_steps(model, card, components))
    flows.own_residual_value = flows.residual_value
    if card.carbon_kg_per_kwh is not None:
        flows.carbon_kg = flows.energy_kwh * card.carbon_kg_per_kwh
    wide = too_wide(model, card, rows)
    if wide.any():
        flows.infeasible.append((wide, Message("reason.wide_own")))
        serves_nothing(flows, wide)
    memory_checks(model, card, rows, flows)
    if card.machines_beyond_search is not None:
        flows.warnings.append((np.broadcast_to(card.machines_beyond_search[:, 0], (rows,)),
                               Message("warning.machines_auto_limit",
                                       limit=MAX_AUTO_MACHINES)))
    return flows
