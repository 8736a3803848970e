"""Costs beyond the float range (about 10^308): the one check and the one message.

Valid but absurd inputs (a price of 1e308, an fx rate of 1e308, growth compounded over a
century) give costs no float can hold. They are refused as a user error at the options whose
costs overflow, never shown as an infinity or a NaN in a report.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_ADVICE = "check the prices, the fx rates, the demand and its growth for values far out of range"


def too_large_message(scenarios: str = "") -> str:
    """The message of costs beyond the float range; ``scenarios`` names a sweep's scenarios."""
    where = f" in the sweep's scenarios {scenarios}" if scenarios else ""
    return f"the costs are too large to compute (beyond 10^308){where}: {_ADVICE}"


def overflowed(model: Any, scenarios: int = 1) -> dict[str, np.ndarray]:
    """For every option of ``model`` (by name), whether its cash flows leave the float range:
    one bool per scenario."""
    from planner.engine.fleet import choose_machines
    from planner.engine.tco import evaluate as option_flows

    out = {}
    with np.errstate(all="ignore"):
        for name, flows in option_flows(choose_machines(model)).items():
            months = flows.monthly_cost.shape[1]
            monthly = np.broadcast_to(flows.monthly_cost, (scenarios, months))
            residual = np.broadcast_to(flows.residual_value, (scenarios,))
            out[name] = ~np.isfinite(monthly).all(axis=1) | ~np.isfinite(residual)
    return out
