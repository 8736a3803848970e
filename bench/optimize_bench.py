"""Benchmark: ``Plan.optimize()`` (SPEC §6's best mix) on the start-up examples, and on the lab
example at a demand that needs some 1,400 workstations (a grid of 1,400 counts × 36 purchase
months, priced on its pieces: docs/model.md §3b).

For each case it prints the candidates searched, the search's wall-clock time (the best of
three, the plan loaded and pandas imported before), candidates/s, passes (that time over one
numpy element-wise pass ``np.add(a, b, out=c)`` over candidates × (months + 1) float64
elements, measured in the same run), and the ratio of a Python loop of
``plan.replace(...).evaluate()`` over a sample of the candidates, per candidate, to the
search's time per candidate.

    python bench/optimize_bench.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import planner

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: (label, example, changes written over the file's: a mix, a demand).
CASES = [
    ("startup-h100.yaml, mix [h100-server, h100-on-demand]", "startup-h100.yaml",
     {"mix": ["h100-server", "h100-on-demand"]}),
    ("startup-mix.yaml (two batches and 1-year commitments)", "startup-mix.yaml", {}),
    ("usage.yaml at 1,000,000 GPU-hours a month, mix [workstation, a100-spot]", "usage.yaml",
     {"mix": ["workstation", "a100-spot"], "demand.gpu_hours_per_month": 1_000_000}),
]
SAMPLE = 20


def one_pass(cells: int) -> float:
    a, b, c = (np.ones(cells) for _ in range(3))
    best = np.inf
    for _ in range(5):
        start = time.perf_counter()
        np.add(a, b, out=c)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    for label, example, changes in CASES:
        plan = planner.load(EXAMPLES / example)
        if changes:
            plan = plan.replace(changes)
        times = []
        for _ in range(3):
            start = time.perf_counter()
            result = plan.optimize()
            times.append(time.perf_counter() - start)
        seconds = min(times)
        k = len(result.candidates)
        cells = k * (plan.usage["horizon_months"] + 1)
        owns = result.members[:-1]
        sample = result.candidates.sample(min(SAMPLE, k), random_state=0)
        start = time.perf_counter()
        for row in sample.to_dict("records"):
            changes = {"mix": None}  # the candidate's settings, wired as the search wires them
            for i, name in enumerate(owns):
                changes[f"options.{name}.overflow"] = result.members[i + 1]
                changes[f"options.{name}.own.machines"] = int(row[f"{name}.machines"])
                changes[f"options.{name}.own.purchase_month"] = int(row[f"{name}.purchase_month"])
            plan.replace(changes).evaluate()
        loop = (time.perf_counter() - start) / len(sample)
        print(f"{label}: {k:,} candidates in {seconds:.2f} s ({k / seconds:,.0f}/s), "
              f"{seconds / one_pass(cells):,.0f} passes; a loop of evaluate() takes "
              f"{loop * 1000:.0f} ms a candidate, {loop / (seconds / k):,.0f}× the search's")


if __name__ == "__main__":
    main()
