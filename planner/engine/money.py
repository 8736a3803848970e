"""Money over time: discounting and loans, the one place for sign and timing conventions.

Conventions
-----------
* A *flow* is money paid (positive) or received (negative) at the end of a month.
* Month 0 is today and is not discounted; month ``m`` is multiplied by ``(1 + r) ** (-m / 12)``
  where ``r`` is the effective annual discount rate [fraction per year].
* A loan is an ordinary annuity: ``n`` equal payments at the end of months 1..n at the monthly
  rate ``i`` [fraction per month]. ``i == 0`` spreads the principal evenly.

All functions broadcast like numpy's own: scalars in, scalars out; arrays in, arrays out.
"""

from __future__ import annotations

import numpy as np


def discount_factors(annual_rate, months):
    """Present-value factor of a flow at the end of each month.

    annual_rate : effective annual rate. [fraction per year]
    months : month indices, 0 = today. [months]

    What is a month-12 flow worth today at 10% a year?

    >>> round(float(discount_factors(0.10, 12)), 6)
    0.909091
    >>> float(discount_factors(0.10, 0))
    1.0
    """
    return np.power(1.0 + np.asarray(annual_rate, dtype=float), -np.asarray(months) / 12.0)


def paid_off_share(monthly_rate, n_months):
    """1 − (1 + i)^−n: the share of a loan's principal that ``n_months`` of its annuity
    payments are worth today (the annuity factor times ``i``).

    monthly_rate : interest per month. [fraction per month]
    n_months : number of payments. [months]

    Written with ``expm1``/``log1p``, so that it neither cancels for tiny rates (with
    i = 1e−17, (1 + i)^n − 1 is exactly 0 in floats, and at 1e−14 the payment came out 0.08 %
    off) nor overflows for large ones (1,000 % a year over 50 years).

    >>> round(float(paid_off_share(0.01, 12)), 6)
    0.112551
    """
    n = np.asarray(n_months, dtype=float)
    return -np.expm1(-n * np.log1p(np.asarray(monthly_rate, dtype=float)))


def annuity_payment(principal, monthly_rate, n_months):
    """Payment at the end of each of ``n_months`` months that repays ``principal``.

    principal : amount borrowed. [currency]
    monthly_rate : interest per month. [fraction per month]
    n_months : number of payments (≥ 1). [months]
    Returns the payment per month. [currency per month]

    What does a $200,000 loan over 15 years at 7.5% a year cost each month?

    >>> round(float(annuity_payment(200_000, 0.075 / 12, 180)), 2)
    1854.02

    With no interest the principal is spread evenly:

    >>> float(annuity_payment(1200, 0.0, 12))
    100.0
    """
    principal = np.asarray(principal, dtype=float)
    i = np.asarray(monthly_rate, dtype=float)
    n = np.asarray(n_months, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        with_interest = principal * (i / paid_off_share(i, n))
    return np.where(i == 0.0, principal / n, with_interest)


def loan_balance(principal, monthly_rate, n_months, payments_made):
    """Balance still owed right after ``payments_made`` payments of the annuity: the present
    value of the payments still to come.

    principal : amount borrowed. [currency]
    monthly_rate : interest per month. [fraction per month]
    n_months : number of payments of the loan. [months]
    payments_made : payments already made (0 = just borrowed). [months]
    Returns the amount that pays the loan off. [currency]

    Half-way through a 12-month interest-free loan of 1,200, 600 is still owed:

    >>> float(loan_balance(1200, 0.0, 12, 6))
    600.0
    >>> float(loan_balance(1200, 0.01, 12, 12))
    0.0
    """
    i = np.asarray(monthly_rate, dtype=float)
    n = np.asarray(n_months, dtype=float)
    remaining = np.clip(n - np.asarray(payments_made, dtype=float), 0.0, None)
    payment = annuity_payment(principal, i, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        discounted = payment * (paid_off_share(i, remaining) / i)
    return np.where(i == 0.0, payment * remaining, discounted)
