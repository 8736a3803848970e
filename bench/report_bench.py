"""Benchmark: the program's own work of ``planner report`` on the lab example, HTML and PDF.

Each run is a fresh interpreter, as on the command line, that first imports what a report
needs (planner, numpy, pandas, scipy, matplotlib, jinja2, Babel, WeasyPrint, fontTools,
uharfbuzz) and then
times load + evaluate + render of ``examples/usage.yaml`` only: imports excluded, first-use
costs (fonts found) included. The templates are compiled in the first run only: jinja2's
bytecode cache keeps them for the next processes (planner/render/html.py), so the first run
may be slower. Every run is printed, as CPU seconds of the process (steadier than wall time on
a shared machine) and wall seconds, split into the stages: load + evaluate, the charts
(matplotlib, drawn and written as SVG), the template (everything else of the HTML: content,
jinja2), and for the PDF WeasyPrint's layout and the PDF's writing (fonts subset and
embedded); then the best run and the machine's load average. The targets (issue 11;
DESIGN.md, Performance): HTML under 0.5 s, PDF under 2 s.

    python bench/report_bench.py [--runs 3] [--profile html|pdf [--sort tottime]]

``--profile`` prints where one run's CPU time goes instead (cProfile, top 40, cumulative unless
``--sort`` says otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "usage.yaml"
TARGETS = {"html": 0.5, "pdf": 2.0}

# One run, in a child interpreter: argv[1] is the format, argv[2] the example, argv[3] "profile"
# or "time", argv[4] the profile's order.
CHILD = r"""
import datetime, functools, importlib, json, pkgutil, sys, time
import matplotlib.backends.backend_agg, matplotlib.backends.backend_svg, matplotlib.figure
import fontTools.subset, uharfbuzz, weasyprint
# What planner imports on first use (inside a function) is an import too.
import babel.dates, babel.numbers, babel.plural, encodings.unicode_escape, encodings.utf_8_sig
import jinja2, jinja2.bccache, jinja2.compiler, jinja2.nodes, jinja2.optimizer, markupsafe
import planner, pricing
for package in (planner, pricing):
    for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
from planner.render import charts, html

fmt, example, mode = sys.argv[1:4]
day = datetime.date(2026, 1, 1)
spent = dict.fromkeys(("evaluate", "charts", "layout", "write"), 0.0)

def timed(stage, function):
    # CPU seconds of every call of ``function`` added to ``spent[stage]``.
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[stage] += time.process_time() - start
    return wrapper

# html.context calls the charts through the package; print_pdf calls lay_out and write_pdf
# through the module: wrapped there, each is timed where the report calls it.
for name in ("ranking", "cumulative_cost", "cost_vs_usage", "monthly_breakdown",
             "sensitivity", "free_tiers", "drivers", "glance_bands", "best_mix"):
    setattr(charts, name, timed("charts", getattr(charts, name)))
html.lay_out = timed("layout", html.lay_out)
html.write_pdf = timed("write", html.write_pdf)

def work():
    start = time.process_time()
    result = planner.load(example).evaluate()
    spent["evaluate"] += time.process_time() - start
    return planner.render.render(result, fmt, date=day)

if mode == "profile":
    import cProfile, pstats
    profile = cProfile.Profile(time.process_time)  # CPU time: a busy machine does not count
    profile.runcall(work)
    pstats.Stats(profile).sort_stats(sys.argv[4]).print_stats(40)
else:
    cpu, wall = time.process_time(), time.perf_counter()
    size = len(work())
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    stages = dict(spent)
    stages["template"] = cpu - sum(spent.values())
    print(json.dumps({"cpu": cpu, "wall": wall, "bytes": size, "stages": stages}))
"""


def one_run(fmt: str, mode: str = "time", sort: str = "cumulative") -> dict | str:
    done = subprocess.run([sys.executable, "-c", CHILD, fmt, str(EXAMPLE), mode, sort],
                          capture_output=True, text=True, check=True)
    return done.stdout if mode == "profile" else json.loads(done.stdout.splitlines()[-1])


STAGES = ("evaluate", "charts", "template", "layout", "write")
STAGE_NAMES = {"evaluate": "load+evaluate", "charts": "charts", "template": "template",
               "layout": "WeasyPrint layout", "write": "PDF write/fonts"}


def _split(run: dict) -> str:
    stages = run["stages"]
    return ", ".join(f"{STAGE_NAMES[k]} {stages[k]:.3f}" for k in STAGES
                     if stages[k] or k != "layout" and k != "write")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh interpreters per format")
    parser.add_argument("--profile", choices=sorted(TARGETS),
                        help="print one run's cProfile instead of timing")
    parser.add_argument("--sort", default="cumulative",
                        help="the profile's order (pstats: cumulative, tottime, ...)")
    args = parser.parse_args()
    if args.profile:
        print(one_run(args.profile, "profile", args.sort))
        return
    print(f"planner report {EXAMPLE.name}: own work (imports excluded), CPU seconds, "
          f"{args.runs} runs; load average {_load()}")
    for fmt, target in TARGETS.items():
        runs = [one_run(fmt) for _ in range(args.runs)]
        for k, run in enumerate(runs, 1):
            print(f"{fmt:>4} run {k}: {run['cpu']:.3f} s CPU, {run['wall']:.3f} s wall "
                  f"({_split(run)})")
        best = min(runs, key=lambda r: r["cpu"])
        verdict = "ok" if best["cpu"] < target else "over"
        print(f"{fmt:>4} best: {best['cpu']:.3f} s CPU, {runs[0]['bytes']:,} bytes "
              f"(target {target:g} s: {verdict})")
    print(f"load average after: {_load()}")


def _load() -> str:
    """The machine's load average over 1, 5 and 15 minutes, where the system tells it."""
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg())
    except (AttributeError, OSError):
        return "unknown"


if __name__ == "__main__":
    main()
