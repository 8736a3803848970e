"""planner.engine.money: discounting and loans, by hand, against numpy-financial, and at the extremes."""

from __future__ import annotations

import doctest
import warnings

import numpy as np
import numpy_financial as npf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from planner.engine import money


def test_the_doctests_hold():
    failures, tried = doctest.testmod(money)
    assert tried >= 7 and failures == 0


def test_discount_factor_by_hand():
    # 24 months at 10 % a year: 1 / 1.1² = 0.826446...
    assert float(money.discount_factors(0.10, 24)) == pytest.approx(1 / 1.21)


def test_annuity_by_hand():
    # 1,000 over 2 months at 10 % a month: P = 1000 · 0.1 / (1 − 1.1⁻²) = 576.19047...
    assert float(money.annuity_payment(1000, 0.10, 2)) == pytest.approx(576.190476, abs=1e-6)
    # After the first payment: 1000 · 1.1 − 576.19 = 523.81, which is one payment discounted.
    assert float(money.loan_balance(1000, 0.10, 2, 1)) == pytest.approx(523.809524, abs=1e-6)


@given(principal=st.floats(1, 1e9), annual_rate=st.floats(0.001, 0.5),
       n_months=st.integers(1, 600))
def test_payment_agrees_with_numpy_financial(principal, annual_rate, n_months):
    i = annual_rate / 12
    assert float(money.annuity_payment(principal, i, n_months)) == pytest.approx(
        -npf.pmt(i, n_months, principal), rel=1e-9)


@given(principal=st.floats(1, 1e9), annual_rate=st.floats(0.001, 0.5),
       n_months=st.integers(1, 600), data=st.data())
def test_balance_agrees_with_numpy_financial(principal, annual_rate, n_months, data):
    i = annual_rate / 12
    made = data.draw(st.integers(0, n_months))
    payment = npf.pmt(i, n_months, principal)
    expected = -npf.fv(i, made, payment, principal)  # what is still owed after `made` payments
    # numpy-financial subtracts two terms of size principal·(1 + i)^made: its own rounding
    # error grows with them (at 50 % a year after 553 months, 1e−6 on a principal of 1).
    noise = 1e-14 * principal * (1 + i) ** made
    assert float(money.loan_balance(principal, i, n_months, made)) == pytest.approx(
        expected, rel=1e-7, abs=max(1e-6 * principal, noise))


@pytest.mark.parametrize("monthly_rate", [1e-17, 1e-14, 1e-10])
def test_tiny_rates_are_interest_free_to_float_precision(monthly_rate):
    """(1 + i)^n − 1 is exactly 0 for i = 1e−17: the payment was infinite before expm1."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        payment = float(money.annuity_payment(1200, monthly_rate, 12))
        balance = float(money.loan_balance(1200, monthly_rate, 12, 6))
    assert payment == pytest.approx(100, rel=1e-8)
    assert balance == pytest.approx(600, rel=1e-8)


def test_huge_rates_do_not_overflow():
    """1,000 % a year over 50 years: (1 + i)^600 is about 10^213, near the float limit; the
    payment is then the interest alone, principal · i."""
    i = 10.0 / 12
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        payment = float(money.annuity_payment(1000, i, 600))
        balance = float(money.loan_balance(1000, i, 600, 300))
    assert payment == pytest.approx(1000 * i)
    assert balance == pytest.approx(1000)


def test_arrays_broadcast():
    rates = np.array([[0.0], [0.01]])
    months = np.array([[12, 24]])
    payments = money.annuity_payment(1200, rates, months)
    assert payments.shape == (2, 2)
    assert payments[0].tolist() == [100.0, 50.0]
    assert np.all(money.loan_balance(1200, rates, months, months) == 0)
