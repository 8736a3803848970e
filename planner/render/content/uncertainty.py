"""The report's uncertainty section (SPEC §7): each option's shares and percentiles, each
break-even pair's pay-off share and months, formatted in the report's language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from planner.render import fmt

if TYPE_CHECKING:
    from planner.result import Result


def uncertainty_section(result: Result) -> dict[str, Any] | None:
    """``samples``, ``options`` (name, cheapest, feasible, p5, p50, p95 of present value) and
    ``pairs`` (own, versus, pays, p5, p50, p95 months), or None without draws."""
    block = result.data.get("uncertainty")
    if not block:
        return None
    currency = result.data["currency"]
    options = []
    for row in block["options"]:
        pv = row["present_value"] or {}
        options.append({
            "name": row["name"], "cheapest": fmt.percent(block["cheapest_share"][row["name"]]),
            "feasible": fmt.percent(row["feasible_share"]),
            **{key: fmt.money(pv.get(key), currency, decimals=0)
               for key in ("p5", "p50", "p95")}})
    pairs = [{"own": p["own"], "versus": p["versus"], "pays": fmt.percent(p["pays_off_share"]),
              **{key: fmt.months((p["months"] or {}).get(key)) for key in ("p5", "p50", "p95")}}
             for p in block["break_even"]]
    drivers = block.get("drivers") or {}
    return {"samples": fmt.number(block["samples"], 0), "seed": block["seed"],
            "options": options, "pairs": pairs,
            "own": drivers.get("own"), "versus": drivers.get("versus")}
