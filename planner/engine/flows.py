"""An option's cash flows and physical figures over [scenario × month], and their sums.

Every kind of option (:mod:`planner.engine.cloud`, :mod:`~planner.engine.own`,
:mod:`~planner.engine.free_tier`) returns :class:`Flows`; :mod:`planner.engine.tco` folds an
overflow or fallback target's flows into its passer's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from planner.cards.model import Array, Model
from planner.engine.months import discount
from planner.messages import Message

#: Work below this share of a month's demand is rounding noise, not unmet demand.
UNMET_TOLERANCE = 1e-9

COMPONENTS = ("purchase", "resale", "financing", "loan_payoff", "energy", "maintenance",
              "fixed", "operating", "rental", "reservation", "storage", "fee", "overflow",
              "fallback")


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
    reserved_per_term : instances committed in each term, (S, terms), for a reserved cloud
        whose count may change from term to term (a ladder or per_term); else None [instances]
    steps : the part of each month's cost that is a step at the month's end in SPEC §5.6's
        cumulative curve instead of accruing over the month (a purchase after month 0, SPEC
        §6), (S, T + 1); None when there is none [currency]
    own_residual_value : the residual value of the option's own machines, its target's not
        included, (S,); None for other kinds [currency]
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
    reserved_per_term: Array | None = None
    steps: Array | None = None
    own_residual_value: Array | None = None

    @functools.cached_property
    def unmet(self) -> Array:
        return self.needed - self.served

    @functools.cached_property
    def unmet_mask(self) -> Array:
        """Months whose unmet work is more than rounding noise (:data:`UNMET_TOLERANCE` of the
        month's demand, or of one GPU-hour). (S, T + 1) bool"""
        return self.unmet > UNMET_TOLERANCE * np.maximum(self.needed, 1.0)

    @functools.cached_property
    def monthly_cost(self) -> Array:
        """Sum of the components, (S, T + 1); read only once the flows are complete."""
        total = 0.0
        # Shared rows (1, T + 1) first: they add up cheaply before the per-scenario arrays,
        # which are then added in place, into one array allocated once.
        fresh = False
        for value in sorted(self.components.values(), key=lambda a: np.shape(a)[0]):
            if fresh and np.broadcast_shapes(total.shape, np.shape(value)) == total.shape:
                np.add(total, value, out=total)
            else:
                total = total + value
                fresh = isinstance(total, np.ndarray)
        return total

    @functools.cached_property
    def monthly_total(self) -> Array:
        """Sum of the monthly costs over months 0..T, (S,); read once the flows are complete.
        [currency]"""
        return month_sums(self.monthly_cost)

    def feasible(self, rows: int) -> Array:
        ok = np.ones(rows, dtype=bool)
        for mask, _ in self.infeasible:
            ok &= ~np.broadcast_to(mask, (rows,))
        return ok


def month_sums(monthly: Array) -> Array:
    """Σ over the months of each scenario's row, (S, T + 1) → (S,). numpy's einsum adds the
    37 numbers of a row in one loop, three times as fast as ``sum(axis=1)`` (which sums the
    short rows pairwise, one call each); the two differ by rounding alone."""
    monthly = np.asarray(monthly, dtype=float)
    return np.einsum("ij->i", monthly) if monthly.ndim == 2 else monthly.sum(axis=-1)


def present_value(model: Model, flows: Flows, disc: Array | None = None) -> Array:
    """Discounted sum of the monthly costs less the discounted residual value, (S,). [currency]"""
    if disc is None:
        disc = discount(model)
    T = model.calendar.horizon_months
    monthly = flows.monthly_cost
    if disc.shape[0] == 1:  # one discount curve for all scenarios: a matrix-vector product
        discounted = np.einsum("ij,j->i", monthly, disc[0])  # numpy's loop: no BLAS threads
    else:
        discounted = np.einsum("ij,ij->i", *np.broadcast_arrays(monthly, disc))
    return discounted - flows.residual_value * disc[:, T]


def total_cost(flows: Flows) -> Array:
    """Nominal sum of the monthly costs less the residual value, (S,). [currency]"""
    return flows.monthly_total - flows.residual_value


def row_count(model: Model, work: Array) -> int:
    return max(model.scenarios, work.shape[0])
