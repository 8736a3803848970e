"""What ``planner calibrate`` prints: a ``demand:`` block to paste into usage.yaml, or the
figures of SPEC §9 as JSON."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from planner.render import fmt

if TYPE_CHECKING:
    from planner.logs.figures import Calibration


def calibration_json(calibration: Calibration) -> str:
    """SPEC §9's fields (``growth_per_year`` null unless fitted) and where they came from."""
    return json.dumps(calibration.to_dict(), indent=2) + "\n"


def demand_yaml(calibration: Calibration) -> str:
    """A ``demand:`` block: ``gpu_hours_per_month`` (and ``growth_per_year`` when fitted),
    commented with what the logs held."""
    c = calibration
    span = (f"{fmt.number(c.span_hours / 24, 1)} days" if c.span_hours >= 48
            else f"{fmt.figure(c.span_hours, 3 if c.span_hours < 1 else 1)} hours")
    lines = [(f"# From {c.source} logs: {c.gpus} GPU{'s' if c.gpus != 1 else ''} over {span}, "
             f"{fmt.figure(c.busy_gpu_hours, 3 if c.busy_gpu_hours < 10 else 1)} busy "
             f"GPU-hours, utilization {fmt.percent(c.utilization)}."),
             "demand:",
             (f"  gpu_hours_per_month: {_plain(c.gpu_hours_per_month)}"
             "   # busy GPU-hours of the logs' GPUs, per month [h]")]
    if c.growth_per_year is not None:
        lines.append(f"  growth_per_year: {_plain(c.growth_per_year)}"
                     "   # fitted on the logs' whole months [fraction/year]")
    if c.power_watts_busy is not None or c.power_watts_idle is not None:
        busy = "—" if c.power_watts_busy is None else f"{c.power_watts_busy:.0f} W"
        idle = "—" if c.power_watts_idle is None else f"{c.power_watts_idle:.0f} W"
        lines.append(f"# Power per GPU: {busy} busy (utilization ≥ 50 %), {idle} idle.")
    return "\n".join(lines) + "\n"


def _plain(value: float) -> str:
    """A number as YAML reads it (no thousands separators), to 6 significant digits: the
    figure as the JSON has it to one part in a million, a small demand included (0.0121667
    GPU-hours a month, not 0)."""
    return f"{value:.6g}" if abs(value) < 1e15 else repr(value)
