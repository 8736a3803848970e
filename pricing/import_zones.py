"""Availability zones of a SkyPilot price list folded into their region: which zones count, and
the price a region gets from them.

AWS Local Zones (``us-east-1-bos-1a``, zone id ``use1-bos1-az1``) and Wavelength zones
(``us-east-1-wl1-bos-wlz-1``, ``use1-wl1-bos-wlz1``) are metro extensions priced apart from
their parent region, often with a thin spot market (p5.48xlarge spot at 10.24/h in one Atlanta
Local Zone against 17.63 to 25.75 in the region's own zones). They are left out of a region's
prices. A region's price is that of its median zone (the lower median of an even count, so
the figure is one a zone actually offers), not the cheapest one. A spot price not below the
zone's on-demand price is no spot offer (SkyPilot's files repeat the on-demand price there)
and is left out of the spot median.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

__all__ = ["is_edge_zone", "median_zone_price"]

# A standard AWS zone: its name (us-east-1a) or its id (use1-az1). Anything longer that starts
# like its region is a Local Zone or a Wavelength zone.
_AWS_ZONE_ID = re.compile(r"^[a-z]{2,}\d+-az\d+$")


def is_edge_zone(provider: str, region: str, zone: str) -> bool:
    """True for an AWS Local Zone or Wavelength zone of ``region``.

    Only AWS has them; zones of other providers are always ``False``. An empty zone is not an
    edge zone.
    """
    if provider != "aws" or not zone:
        return False
    zone = zone.strip().lower()
    if "-wl" in zone or "wlz" in zone:
        return True
    if _AWS_ZONE_ID.match(zone):
        return False
    region = region.strip().lower()
    if zone.startswith(region):
        return not re.fullmatch(r"[a-z]", zone[len(region):])
    # a zone id with more than two parts (use1-atl2-az1) is a Local Zone
    return bool(re.fullmatch(r"[a-z]{2,}\d+-[a-z0-9]+-az\d+", zone))


def median_zone_price(prices: Sequence[float]) -> float | None:
    """The lower median of the zones' ``prices`` (None for none)."""
    return statistics.median_low(prices) if prices else None
