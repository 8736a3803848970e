"""Cloud options (SPEC §5.2): whole instances rented, billing increments, interruptions,
reserved capacity and the on-demand overflow above it, storage."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, CloudCard, Model
from planner.engine.feasible import memory_checks
from planner.engine.flows import Flows, row_count
from planner.engine.months import discount, horizon_mask
from planner.messages import Message


def is_reserved(card) -> bool:
    """Whether ``card`` is a cloud that commits instances for a term (reserved pricing): the
    engine's one test, on the term the card carries (0 for on-demand and spot)."""
    return isinstance(card, CloudCard) and card.term_months > 0


def rented_instance_hours(model: Model, card: CloudCard, needed: Array) -> Array:
    """Instance-hours rented for ``needed`` own GPU-hours in each month (SPEC §5.2). [h]"""
    return needed * instance_hours_per_gpu_hour(model, card)


def instance_hours_per_gpu_hour(model: Model, card: CloudCard) -> Array:
    """Instance-hours rented per own GPU-hour of demand (SPEC §5.2): whole instances, the
    time lost to interruptions, each job's billing increments. (S, 1) [h/h]"""
    d = model.demand
    g = d.gpus
    instances = np.ceil(g / card.gpus)
    rho = 1.0 + card.interruptions_per_hour * (d.checkpoint_minutes / 2.0
                                               + card.restart_minutes) / 60.0
    if card.job_hours is None:
        return instances * rho / g
    b = card.billing_increment_hours
    length = card.job_hours
    with np.errstate(divide="ignore", invalid="ignore"):
        billed_per_job = _ceil(length * rho / b) * b
        rounded = billed_per_job * instances / (g * length)
    return np.where(b > 0, rounded, instances * rho / g)


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
    it. The months are columns 1.. of ``instance_hours`` and ``disc`` (column 0 is month 0,
    which has no work). (S, 1) [instances]
    """
    # Scenarios may differ in their hours or only in their discount rate: broadcast both.
    shape = np.broadcast_shapes(instance_hours[:, 1:].shape, disc[:, 1:].shape)
    hours = np.broadcast_to(instance_hours[:, 1:], shape)
    w = np.broadcast_to(disc[:, 1:], shape)
    sorted_hours, sorted_w = _sorted_months(hours, disc[:, 1:])
    cum_weight = np.cumsum(sorted_w, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = np.where(on_demand_price > 0, reserved_price * weight / on_demand_price, np.inf)
    k = (cum_weight <= tau * (1 + 1e-12)).sum(axis=1, keepdims=True)
    padded = np.concatenate([sorted_hours, np.zeros_like(sorted_hours[:, :1])], axis=1)
    continuous = np.take_along_axis(padded, k, axis=1) / hours_per_month

    def cost(r):
        over = hours - r * hours_per_month
        np.maximum(over, 0.0, out=over)
        if disc.shape[0] == 1:  # one discount curve: Σ_m disc_m·over_m in one loop
            discounted = np.einsum("ij,j->i", over, disc[0, 1:])[:, None]
        else:
            discounted = (w * over).sum(axis=1, keepdims=True)
        return r * reserved_price * hours_per_month * weight + on_demand_price * discounted

    low, high = np.floor(continuous), np.ceil(continuous)
    return np.where(cost(low) <= cost(high), low, high)


def _sorted_months(hours: Array, disc: Array) -> tuple[Array, Array]:
    """Each scenario's months by instance-hours, most first (ties in month order), and their
    discount factors in that order, (S, M) each (the factors (1, M) where shared).

    Where every scenario's months fall in the order of the busiest scenario's (demand that
    grows alike everywhere), that one order serves all: no sort per scenario. A different
    order among tied months changes no count (:func:`best_reserved_instances` reads the hours
    at a cumulative weight, the same at the end of a tie whatever its order)."""
    if hours.shape[0] > 1 and disc.shape[0] == 1:
        busiest = int(np.argmax(np.einsum("ij->i", hours)))
        order = np.argsort(-hours[busiest], kind="stable")
        in_order = hours[:, order]
        if (in_order[:, 1:] <= in_order[:, :-1]).all():
            return in_order, disc[:, order]
    order = np.argsort(-hours, axis=1, kind="stable")
    w = np.broadcast_to(disc, hours.shape)
    return np.take_along_axis(hours, order, axis=1), np.take_along_axis(w, order, axis=1)


# -- commitments term by term -----------------------------------------------------------------


def term_count(horizon_months: int, term_months: int) -> int:
    """Terms the horizon starts: ceil(T / term). [terms]

    >>> term_count(36, 12), term_count(30, 12), term_count(12, 36)
    (3, 3, 1)
    """
    return -(-horizon_months // term_months)


def term_of_month(horizon_months: int, term_months: int) -> Array:
    """The term each month 0..T falls in, (T + 1,): (m − 1) // term for m ≥ 1; month 0 (no
    work, no commitment) is given term 0. [term index]

    >>> term_of_month(5, 2).tolist()
    [0, 0, 0, 1, 1, 2]
    """
    months = np.arange(horizon_months + 1)
    return np.maximum(months - 1, 0) // term_months


def term_weight(model: Model, disc: Array, term_months: int, months: Array) -> Array:
    """Σ of the discount factors of one term's ``months`` (indices into months 1..T, as
    :func:`term_windows` gives them); the last term adds its months past the horizon, charged
    in month T. (S, 1) [months]"""
    T = model.calendar.horizon_months
    first, last = int(months[0]) + 1, int(months[-1]) + 1  # months 1..T, consecutive
    weight = disc[:, first:last + 1].sum(axis=1, keepdims=True)
    if last == T:
        weight = weight + ((-T) % term_months) * disc[:, T:T + 1]
    return weight


def term_windows(model: Model, card: CloudCard, disc: Array) -> list[tuple[Array, Array]]:
    """One window of months per commitment, each with its discounted weight: the months as
    indices into months 1..T (month m is index m − 1, the columns of a (·, T) array), the
    weight (S, 1) [months]. Each term j (months j·term + 1 .. min((j + 1)·term, T)) for
    ``reserved_per_term``, whose best count depends on its own months alone; else the whole
    horizon, SPEC §5.2's single count.

    >>> from types import SimpleNamespace as N
    >>> m = N(calendar=N(horizon_months=5))
    >>> c = N(term_months=2, reserved_per_term=True)
    >>> [(w.tolist(), float(v[0, 0])) for w, v in term_windows(m, c, np.ones((1, 6)))]
    [([0, 1], 2.0), ([2, 3], 2.0), ([4], 2.0)]
    """
    T = model.calendar.horizon_months
    term = card.term_months
    if not card.reserved_per_term:
        return [(np.arange(T), reservation_weight(model, disc, term))]
    windows = []
    for j in range(term_count(T, term)):
        months = np.arange(j * term, min((j + 1) * term, T))
        windows.append((months, term_weight(model, disc, term, months)))
    return windows


def reserved_counts(model: Model, card: CloudCard, hours: Array, disc: Array) -> Array:
    """Instances committed in each term, (S, terms) [instances]: the ladder given, the count
    given in every term, the best count of each term separately (``reserved_per_term``), or
    the one best count over the whole horizon (SPEC §5.2's default).

    The present value of a ladder is Σ_j [R_j·p_r·H·weight_j + p_od·Σ_{m in j} disc_m·
    max(0, I_m − R_j·H)]: a sum of one term per commitment, so each term's best count is
    :func:`best_reserved_instances` on that term's months alone.
    """
    T = model.calendar.horizon_months
    n = term_count(T, card.term_months)
    rows = max(hours.shape[0], disc.shape[0])
    H = model.calendar.hours_per_month
    given = card.reserved_ladder if card.reserved_ladder is not None else card.reserved_instances
    if given is not None:
        given = np.asarray(given, float)
        return np.broadcast_to(given, (max(rows, given.shape[0]), n))
    if not card.reserved_per_term:
        weight = reservation_weight(model, disc, card.term_months)
        best = best_reserved_instances(hours, H, card.reserved_price_per_hour,
                                       card.on_demand_price_per_hour, disc, weight)
        return np.broadcast_to(best, (max(rows, best.shape[0]), n))
    counts = []
    for months, weight in term_windows(model, card, disc):
        window = np.r_[0, months + 1]  # month 0 first, as best_reserved_instances reads
        counts.append(best_reserved_instances(
            hours[:, window], H, card.reserved_price_per_hour, card.on_demand_price_per_hour,
            disc[:, window], weight))
    counts = np.broadcast_arrays(*counts)
    return np.concatenate(counts, axis=1)


def uses_term_counts(card: CloudCard) -> bool:
    """Whether a reserved cloud's count may differ from term to term (a ladder or
    ``per_term``), so that the report says the counts used per term."""
    return card.reserved_ladder is not None or card.reserved_per_term


def cloud_flows(model: Model, card: CloudCard, work: Array, *, as_target: bool) -> Flows:
    rows = row_count(model, work)
    needed = work * card.gpu_hours_per_unit
    per_gpu_hour = instance_hours_per_gpu_hour(model, card)
    H = model.calendar.hours_per_month
    T = model.calendar.horizon_months
    in_horizon = horizon_mask(model)
    components: dict[str, Array] = {}
    if is_reserved(card):
        hours = needed * per_gpu_hour
        disc = discount(model)
        per_term = reserved_counts(model, card, hours, disc)
        # Committed instance-hours in force each month, (S, T + 1): a term's count × H.
        reserved_hours = (per_term * H)[:, term_of_month(T, card.term_months)]
        extra = (-T) % card.term_months
        committed = reserved_hours * in_horizon  # instance-hours paid for, month by month
        committed[:, T] = committed[:, T] * (1 + extra)
        components["reservation"] = committed * card.reserved_price_per_hour
        over = hours - reserved_hours
        np.maximum(over, 0.0, out=over)
        components["rental"] = over * card.on_demand_price_per_hour  # month 0 has no work
        quantities = {
            "reservation": (committed, Message("qty.committed_instance_hours"),
                            card.reserved_price_per_hour),
            "rental": (over, Message("qty.on_demand_instance_hours"),
                       card.on_demand_price_per_hour)}
    else:
        # One pass over the months: the price per GPU-hour of demand is (S, 1); the
        # instance-hours are the report's, computed when it asks for them.
        components["rental"] = needed * (per_gpu_hour * card.price_per_hour)
        quantities = {"rental": (lambda: needed * per_gpu_hour, Message("qty.instance_hours"),
                                 card.price_per_hour)}
    gb_months = model.demand.data_gb * in_horizon
    if as_target:  # storage only in the months with passed work
        busy = work > 0
        components["storage"] = busy * (gb_months * card.storage_per_gb_month)
        quantities["storage"] = (lambda: gb_months * busy, Message("qty.gb_months"),
                                 card.storage_per_gb_month)
    else:
        components["storage"] = gb_months * card.storage_per_gb_month
        quantities["storage"] = (gb_months, Message("qty.gb_months"),
                                 card.storage_per_gb_month)
    flows = Flows(components=components, residual_value=np.zeros(rows), needed=needed,
                  served=needed, quantities=quantities)
    if is_reserved(card) and uses_term_counts(card):
        flows.reserved_per_term = per_term
    memory_checks(model, card, rows, flows)
    return flows
