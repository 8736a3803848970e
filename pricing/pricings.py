"""The ways a cloud instance is paid for, defined once: ``on_demand``, ``spot``, ``reserved_1y``
and ``reserved_3y`` (SPEC §1.3, an option's ``pricing``).

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

__all__ = ["PRICE_COLUMN", "PRICINGS", "TERM_MONTHS", "price_column"]

PRICE_COLUMN = {
    "on_demand": "price_per_hour",
    "spot": "spot_price_per_hour",
    "reserved_1y": "reserved_1y_price_per_hour",
    "reserved_3y": "reserved_3y_price_per_hour",
}
"""Pricing name -> the clouds column (and inline ``cloud:`` key) that holds its price per
instance-hour."""

PRICINGS = tuple(PRICE_COLUMN)
"""The pricing names, on-demand first."""

TERM_MONTHS = {"reserved_1y": 12, "reserved_3y": 36}
"""Pricing name -> the months a reservation commits to; on-demand and spot commit to none."""


def price_column(pricing: str) -> str:
    """The clouds column holding the price of ``pricing``; ValueError for an unknown name.

    >>> price_column("spot")
    'spot_price_per_hour'
    """
    try:
        return PRICE_COLUMN[pricing]
    except KeyError:
        raise ValueError(f"pricing must be one of {', '.join(PRICINGS)}, got {pricing!r}") from None
