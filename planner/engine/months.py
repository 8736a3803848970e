"""The month axis (month 0 for purchases, months 1..T of use): the work in each month with its
growth, the discount factor of each month, the months inside the horizon."""

from __future__ import annotations

import numpy as np

from planner.cards.model import Array, Model
from planner.engine.money import discount_factors


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


def horizon_mask(model: Model) -> Array:
    """1.0 in months 1..T, 0.0 in month 0, shape (1, T + 1)."""
    mask = np.ones((1, model.calendar.horizon_months + 1))
    mask[0, 0] = 0.0
    return mask


def cumulative_by_month(monthly: Array) -> Array:
    """Running sum over the months of each scenario's row, (S, T + 1), equal to
    ``np.cumsum(monthly, axis=1)`` to the bit (both add month by month), in months-first
    (Fortran) order: each month's column is added to the previous one, S numbers at a time.
    ``np.cumsum`` along the short rows of 37 months costs four flat passes; this one, a little
    over one; and the maxima, minima and comparisons month against month that break-even
    reads from it run over contiguous columns too."""
    monthly = np.asarray(monthly, dtype=float)
    if monthly.ndim != 2 or monthly.shape[0] < 64:
        return np.cumsum(monthly, axis=-1)
    out = np.empty(monthly.shape, order="F")
    out[:, 0] = monthly[:, 0]
    for m in range(1, monthly.shape[1]):
        np.add(out[:, m - 1], monthly[:, m], out=out[:, m])
    return out
