"""Benchmark: the draws of SPEC §7 (examples/uncertain-lab.yaml) at several sample counts.

For each count it prints, from a fresh process each:

* seconds (wall clock and CPU) of ``planner.load(...).evaluate()`` with that many draws, the
  whole ``uncertainty`` object included (percentiles, pay-off shares, drivers, the cumulative
  bands of the first 20,000 draws);
* passes: those seconds over one numpy pass, ``np.add(a, b, out=c)`` over draws × options ×
  (months + 1) float64 elements, measured in the same run (as bench/sweep_bench.py);
* peak memory: the growth of the process's peak resident set during the evaluation (the
  draws keep only the columns their figures are read from; DESIGN's bound is 1 GB).

    python bench/uncertainty_bench.py [--samples 10000 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

import yaml
from sweep_bench import EXAMPLES, pass_seconds, peak_rss_bytes, reset_peak_rss

EXAMPLE = EXAMPLES / "uncertain-lab.yaml"


def child(samples: int) -> None:
    """One evaluation with ``samples`` draws in this process: prints its figures as JSON."""
    import planner

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    planner.load(data).evaluate()  # imports, first calls
    data["uncertainty"]["samples"] = samples
    before = reset_peak_rss()
    start, start_cpu = time.perf_counter(), time.process_time()
    result = planner.load(data).evaluate()
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    shares = result.to_dict()["uncertainty"]["cheapest_share"]
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": peak_rss_bytes() - before,
                      "options": len(result.data["options"]),
                      "months": result.data["horizon_months"] + 1, "shares": shares}))


def measure(samples: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", str(samples)],
                          capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    run = json.loads(done.stdout.strip().splitlines()[-1])
    one_pass, one_pass_cpu = pass_seconds(samples * run["options"] * run["months"])
    return {**run, "passes": run["seconds"] / one_pass, "cpu_passes": run["cpu"] / one_pass_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child)
        return
    print(f"{'draws':>10} {'seconds':>8} {'CPU s':>7} {'passes':>7} {'CPU passes':>10} "
          f"{'peak MB':>8}  cheapest shares")
    for samples in args.samples:
        r = measure(samples)
        shares = ", ".join(f"{k} {v:.4f}" for k, v in r["shares"].items() if v)
        print(f"{samples:>10,} {r['seconds']:>8.2f} {r['cpu']:>7.2f} {r['passes']:>7.0f} "
              f"{r['cpu_passes']:>10.0f} {r['peak'] / 2**20:>8.0f}  {shares}")


if __name__ == "__main__":
    main()
