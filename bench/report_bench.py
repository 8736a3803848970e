"""Benchmark: the program's own work of ``planner report`` on the lab example, HTML and PDF.

Each run is a fresh interpreter, as on the command line, that first imports what a report
needs (planner, numpy, pandas, scipy, matplotlib, jinja2, Babel, WeasyPrint, fontTools) and then
times load + evaluate + render of ``examples/usage.yaml`` only: imports excluded, first-use
costs (fonts found) included. The templates are compiled in the first run only: jinja2's
bytecode cache keeps them for the next processes (planner/render/html.py), so the first run's
CPU seconds are printed too. The best of ``--runs`` runs is printed, as CPU seconds of the
process (steady on a shared machine) and wall seconds. The targets
(issue 11; DESIGN.md, Performance): HTML under 0.5 s, PDF under 2 s.

    python bench/report_bench.py [--runs 5] [--profile html|pdf [--sort tottime]]

``--profile`` prints where one run's time goes instead (cProfile, top 40, cumulative unless
``--sort`` says otherwise).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"
TARGETS = {"html": 0.5, "pdf": 2.0}

# One run, in a child interpreter: argv[1] is the format, argv[2] the example, argv[3] "profile"
# or "time", argv[4] the profile's order.
CHILD = r"""
import datetime, importlib, json, pkgutil, sys, time
import matplotlib.backends.backend_agg, matplotlib.backends.backend_svg, matplotlib.figure
import fontTools.subset, weasyprint
# What planner imports on first use (inside a function) is an import too.
import babel.dates, babel.numbers, babel.plural, encodings.unicode_escape, encodings.utf_8_sig
import jinja2, jinja2.bccache, jinja2.compiler, jinja2.nodes, jinja2.optimizer, markupsafe
import planner, pricing
for package in (planner, pricing):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)

fmt, example, mode = sys.argv[1:4]
day = datetime.date(2026, 1, 1)

def work():
    result = planner.load(example).evaluate()
    return planner.render.render(result, fmt, date=day)

if mode == "profile":
    import cProfile, pstats
    profile = cProfile.Profile()
    profile.runcall(work)
    pstats.Stats(profile).sort_stats(sys.argv[4]).print_stats(40)
else:
    cpu, wall = time.process_time(), time.perf_counter()
    size = len(work())
    print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall,
                      "bytes": size}))
"""


def one_run(fmt: str, mode: str = "time", sort: str = "cumulative") -> dict | str:
    done = subprocess.run([sys.executable, "-c", CHILD, fmt, str(EXAMPLE), mode, sort],
                          capture_output=True, text=True, check=True)
    return done.stdout if mode == "profile" else json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh interpreters per format")
    parser.add_argument("--profile", choices=sorted(TARGETS),
                        help="print one run's cProfile instead of timing")
    parser.add_argument("--sort", default="cumulative",
                        help="the profile's order (pstats: cumulative, tottime, ...)")
    args = parser.parse_args()
    if args.profile:
        print(one_run(args.profile, "profile", args.sort))
        return
    print(f"planner report {EXAMPLE.name}: own work (imports excluded), best of {args.runs}")
    for fmt, target in TARGETS.items():
        runs = [one_run(fmt) for _ in range(args.runs)]
        cpu = min(r["cpu"] for r in runs)
        wall = min(r["wall"] for r in runs)
        verdict = "ok" if cpu < target else "over"
        print(f"{fmt:>4}: {cpu:.3f} s CPU, {wall:.3f} s wall, {runs[0]['bytes']:,} bytes "
              f"(target {target:g} s: {verdict}; first run {runs[0]['cpu']:.3f} s CPU)")


if __name__ == "__main__":
    main()
