"""Demand in the units people think in (issue 10): GPU-hours per week and growth per month,
each an alternative to the key of SPEC §1.1 (gpu_hours_per_month, growth_per_year) and turned
into it here, exactly as the model reads it.

- A month is ``hours_per_month`` H hours, a week 168: a month is H / 168 weeks, so
  gpu_hours_per_month = gpu_hours_per_week × H / 168 (730 / 168 ≈ 4.345 weeks by default).
- Growth compounds: demand of month m is demand × (1 + g)^(m − 1) for a growth g per month,
  which is the model's (1 + G)^((m − 1)/12) for G = (1 + g)^12 − 1 per year.

Both take numbers or the numpy arrays of a sweep's scenarios. A value beyond the float range
becomes an infinity, which the plan refuses with its located message (as for any input that
overflows once converted).
"""

from __future__ import annotations

from typing import Any

import numpy as np

HOURS_PER_WEEK = 168


def monthly_gpu_hours(gpu_hours_per_week: Any, hours_per_month: Any) -> Any:
    """GPU-hours per month of ``gpu_hours_per_week`` in months of ``hours_per_month`` hours.
    [GPU-hours/month]

    What is 40 GPU-hours a week in 730-hour months?

    >>> float(monthly_gpu_hours(40, 730))
    173.8095238095238
    """
    with np.errstate(over="ignore"):  # beyond 10^308: refused later, where it is used
        return np.asarray(gpu_hours_per_week, dtype=float) * hours_per_month / HOURS_PER_WEEK


def yearly_growth(growth_per_month: Any) -> Any:
    """The growth per year that compounds to ``growth_per_month`` each month: (1 + g)^12 − 1.
    [fraction per year]

    What yearly growth is 2 % a month?

    >>> round(float(yearly_growth(0.02)), 6)
    0.268242
    """
    with np.errstate(over="ignore"):  # beyond 10^308: refused later, where it is used
        return np.power(1.0 + np.asarray(growth_per_month, dtype=float), 12) - 1.0


def gpu_hours_per_month(demand: Any, hours_per_month: Any) -> Any:
    """The demand's month-1 GPU-hours (plain data): from gpu_hours_per_week when that is given
    (it wins over the gpu_hours_per_month a validated document filled in from it, which a
    sweep's arrays leave behind). [GPU-hours/month]"""
    if demand.get("gpu_hours_per_week") is not None:
        return monthly_gpu_hours(demand["gpu_hours_per_week"], hours_per_month)
    return demand.get("gpu_hours_per_month")


def growth_per_year(demand: Any) -> Any:
    """The demand's growth per year (plain data): from growth_per_month when that is given
    (it wins over the growth_per_year a validated document filled in from it). [fraction per
    year]"""
    if demand.get("growth_per_month") is not None:
        return yearly_growth(demand["growth_per_month"])
    return demand["growth_per_year"]
