"""Benchmark: sweeps of the bundled examples against numpy's own speed and a Python loop.

For each example and size it prints

* scenarios/s of ``plan.sweep`` with break-even (months, hours and usage), the DataFrame built;
* passes: the sweep's time over the time of one numpy element-wise pass, ``np.add(a, b,
  out=c)`` over scenarios × options × (months + 1) float64 elements, measured in the same
  run, just before and just after the sweep (the faster of the two counts); in wall-clock
  seconds, and in CPU seconds of the process (``CPU passes``), which a machine shared with
  other jobs disturbs far less: there a short pass finds a free core more often than a sweep
  of seconds, and the wall-clock count rises with the load;
* peak memory: the growth of the process's peak resident set size during the sweep (Linux's
  VmHWM, reset before the sweep; elsewhere ``ru_maxrss``), less the result frame's own bytes
  (each sweep runs in a fresh process);
* the ratio of a Python loop of ``plan.replace(...).evaluate()`` over a sample of the same
  scenarios, per scenario, to the sweep's time per scenario.

and, for the machine's state at the time, the one-minute load average when the row was
measured (``load``; a figure of more than the machine's cores means the measurement shared
them). ``--runs N`` measures every example and size N times, in turns (all rows of a run
before the next run), and ends with the least and the greatest CPU passes of each.

The target of the design (DESIGN.md, Performance): at most 25 passes with break-even.

    python bench/sweep_bench.py [--sizes 200000 1000000] [--examples usage.yaml ...] [--runs 3]
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Swept keys of each example: the site's electricity price and the demand's level.
AXES = {
    "usage.yaml": ("site.electricity_per_kwh", 0.05, 0.5, "demand.gpu_hours_per_month", 0.0,
                   3000.0),
    "startup-h100.yaml": ("site.electricity_per_kwh", 0.05, 0.5, "demand.utilization", 0.05,
                          1.0),
}
#: Scenarios of the sample the Python loop evaluates one by one.
LOOP_SAMPLE = 20


def axes_of(example: str, scenarios: int) -> dict[str, np.ndarray]:
    """Two axes whose product has ``scenarios`` scenarios (the first axis gets the largest
    divisor up to the square root)."""
    first = max(d for d in range(1, math.isqrt(scenarios) + 1) if scenarios % d == 0)
    key1, lo1, hi1, key2, lo2, hi2 = AXES[example]
    return {key1: np.linspace(lo1, hi1, first), key2: np.linspace(lo2, hi2, scenarios // first)}


def pass_seconds(elements: int, repeat: int = 3) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one ``np.add(a, b, out=c)`` over ``elements`` float64
    numbers (each the best of ``repeat``, after one pass that touches the pages)."""
    a = np.full(elements, 1.5)
    b = np.full(elements, 2.5)
    c = np.empty(elements)
    np.add(a, b, out=c)
    best = cpu = math.inf
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        np.add(a, b, out=c)
        best = min(best, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return best, cpu


def _status_bytes(key: str) -> int | None:
    """A size from /proc/self/status (Linux), None elsewhere. [bytes]"""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def reset_peak_rss() -> int:
    """Start measuring the peak resident set from now (Linux: VmHWM reset through
    /proc/self/clear_refs); returns the resident set size now. [bytes]"""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass
    now = _status_bytes("VmRSS")
    return peak_rss_bytes() if now is None else now


def peak_rss_bytes() -> int:
    """The peak resident set since :func:`reset_peak_rss` (or since the process began). [bytes]"""
    peak = _status_bytes("VmHWM")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 if peak is None else peak


def child(example: str, scenarios: int) -> None:
    """One sweep in this process: prints its seconds, peak memory and frame size as JSON."""
    import planner

    plan = planner.load(EXAMPLES / example)
    axes = axes_of(example, scenarios)
    plan.sweep({k: v[:2] for k, v in axes.items()})  # imports and first calls out of the way
    before = reset_peak_rss()
    start, start_cpu = time.perf_counter(), time.process_time()
    frame = plan.sweep(axes)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    peak = peak_rss_bytes() - before
    frame_bytes = int(frame.memory_usage(index=True, deep=False).sum())
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": peak, "frame": frame_bytes,
                      "rows": len(frame), "options": len(plan.model.cards),
                      "months": plan.model.calendar.horizon_months + 1}))


def loop_seconds_per_scenario(example: str, scenarios: int) -> float:
    """Seconds per scenario of ``plan.replace(...).evaluate()`` over an even sample of the
    sweep's scenarios."""
    import planner

    plan = planner.load(EXAMPLES / example)
    (k1, v1), (k2, v2) = axes_of(example, scenarios).items()
    picks = np.linspace(0, scenarios - 1, LOOP_SAMPLE).astype(int)
    start = time.perf_counter()
    for s in picks:
        plan.replace({k1: float(v1[s // v2.size]), k2: float(v2[s % v2.size])}).evaluate()
    return (time.perf_counter() - start) / picks.size


def measure(example: str, scenarios: int) -> dict:
    import planner

    plan = planner.load(EXAMPLES / example)
    elements = scenarios * len(plan.model.cards) * (plan.model.calendar.horizon_months + 1)
    one_pass, one_pass_cpu = pass_seconds(elements)
    done = subprocess.run([sys.executable, __file__, "--child", example, str(scenarios)],
                          capture_output=True, text=True, check=True)
    sweep = json.loads(done.stdout.strip().splitlines()[-1])
    again, again_cpu = pass_seconds(elements)
    one_pass, one_pass_cpu = min(one_pass, again), min(one_pass_cpu, again_cpu)
    per_scenario = loop_seconds_per_scenario(example, scenarios)
    return {"example": example, "scenarios": scenarios, "elements": elements,
            "pass_s": one_pass, "pass_cpu_s": one_pass_cpu, **sweep,
            "loop_ratio": per_scenario * scenarios / sweep["seconds"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--examples", nargs="+", default=list(AXES))
    parser.add_argument("--runs", type=int, default=1, help="measure everything this often")
    parser.add_argument("--child", nargs=2, metavar=("EXAMPLE", "SCENARIOS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}, {os.cpu_count()} cores, numpy {np.__version__}")
    print(f"{'run':>3} {'example':<18} {'scenarios':>10} {'seconds':>8} {'scenarios/s':>12} "
          f"{'pass [s]':>9} {'passes':>7} {'CPU passes':>10} {'peak MB':>8} {'frame MB':>9} "
          f"{'loop ×':>7} {'load':>5}")
    cpu_passes: dict[tuple[str, int], list[float]] = {}
    for run in range(1, args.runs + 1):
        for example in args.examples:
            for size in args.sizes:
                r = measure(example, size)
                cpu = r["cpu"] / r["pass_cpu_s"]
                cpu_passes.setdefault((example, size), []).append(cpu)
                print(f"{run:>3} {example:<18} {size:>10,} {r['seconds']:>8.2f} "
                      f"{size / r['seconds']:>12,.0f} {r['pass_s']:>9.4f} "
                      f"{r['seconds'] / r['pass_s']:>7.1f} {cpu:>10.1f} "
                      f"{(r['peak'] - r['frame']) / 1e6:>8.0f} "
                      f"{r['frame'] / 1e6:>9.0f} {r['loop_ratio']:>7.0f} "
                      f"{os.getloadavg()[0]:>5.1f}", flush=True)
    if args.runs > 1:
        for (example, size), values in cpu_passes.items():
            print(f"{example} at {size:,}: CPU passes {min(values):.1f}–{max(values):.1f} "
                  f"in {len(values)} runs")
    print("passes: the sweep's seconds / one np.add(a, b, out=c) over scenarios × options × "
          "(months + 1) float64 elements (CPU passes: the same in CPU seconds); peak MB: "
          "growth of the peak resident set during the sweep, less the frame; loop ×: a Python "
          f"loop of plan.replace(...).evaluate() ({LOOP_SAMPLE} scenarios sampled) against the "
          "sweep, per scenario; load: the one-minute load average after the row.")


if __name__ == "__main__":
    main()
