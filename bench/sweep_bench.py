"""Benchmark: a sweep of a million scenarios, against numpy's own speed.

Prints scenarios per second and the ratio of the sweep's time to one numpy element-wise pass
(``a * b`` into a preallocated array) over scenarios × options × months float64 elements.
The target of the design (DESIGN.md, Performance) is at most 100 such passes.

    python bench/sweep_bench.py [--scenarios 1000000] [--no-break-even]
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

import planner

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"


def numpy_pass_seconds(elements: int, chunk: int = 4_000_000, repeat: int = 5) -> float:
    """Seconds numpy takes for one element-wise multiply over ``elements`` float64 numbers."""
    a = np.random.default_rng(0).random(min(elements, chunk))
    b = np.random.default_rng(1).random(a.size)
    out = np.empty_like(a)
    best = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        np.multiply(a, b, out=out)
        best = min(best, time.perf_counter() - start)
    return best * elements / a.size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", type=int, default=1_000_000)
    parser.add_argument("--no-break-even", action="store_true",
                        help="skip the break-even columns (costs only)")
    args = parser.parse_args()
    side = round(math.sqrt(args.scenarios))
    plan = planner.load(EXAMPLE)
    axes = {"site.electricity_per_kwh": np.linspace(0.05, 0.5, side),
            "demand.gpu_hours_per_month": np.linspace(0, 3000, side)}
    scenarios = side * side
    options = len(plan.model.cards)
    months = plan.model.calendar.horizon_months + 1
    start = time.perf_counter()
    frame = plan.sweep(axes, break_even=not args.no_break_even)
    seconds = time.perf_counter() - start
    one_pass = numpy_pass_seconds(scenarios * options * months)
    print(f"plan: {EXAMPLE.name}, {options} options, {months} months")
    print(f"scenarios: {scenarios:,} ({len(frame):,} rows), break-even "
          f"{'off' if args.no_break_even else 'on'}")
    print(f"sweep: {seconds:.2f} s, {scenarios / seconds:,.0f} scenarios/s")
    print(f"one numpy pass over {scenarios * options * months:,} elements: {one_pass:.3f} s")
    print(f"ratio: {seconds / one_pass:.0f} passes (target: at most 100)")


if __name__ == "__main__":
    main()
