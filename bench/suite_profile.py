"""Where the test suite's time goes: a pytest plugin that times every test and every plan
evaluation (issue 11, point 7; docs/performance.md, 2026-12-02).

Loaded by name from this folder, in each pytest-xdist worker as well:

    PYTHONPATH=bench HYPOTHESIS_PROFILE=ci python -m pytest -p suite_profile
    python bench/suite_profile.py summary            # then: the tables, from the files below

Every worker appends JSON lines to ``suite-profile/`` in the current folder (``SUITE_PROFILE_DIR``
sets another): ``tests-<pid>.jsonl``, one line per test (its id, wall and CPU seconds, its
children's CPU, the garbage collector's seconds), and ``evaluations-<pid>.jsonl``, one line per
``Plan.evaluate`` (the test it ran in, CPU seconds, and the plan's document where it took more
than ``SUITE_PROFILE_SLOW`` seconds, default 0.5, to profile it again alone).

Collect the whole suite when timing the fuzz tests: Hypothesis's derandomized examples depend
on what pytest collected, so a module run alone draws other documents.
"""

from __future__ import annotations

import collections
import gc
import glob
import json
import os
import sys
import time
from pathlib import Path

import pytest

FOLDER = Path(os.environ.get("SUITE_PROFILE_DIR", "suite-profile"))
SLOW_SECONDS = float(os.environ.get("SUITE_PROFILE_SLOW", "0.5"))

_state = {"test": None, "gc": 0.0, "gc_start": 0.0}


def _write(kind: str, row: dict) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    with open(FOLDER / f"{kind}-{os.getpid()}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(row, default=str, ensure_ascii=False) + "\n")


def _on_garbage_collection(phase: str, info: dict) -> None:
    if phase == "start":
        _state["gc_start"] = time.perf_counter()
    else:
        _state["gc"] += time.perf_counter() - _state["gc_start"]


def pytest_configure(config) -> None:
    from planner.evaluate.plan import Plan

    evaluate = Plan.evaluate

    def timed(self, *args, **kwargs):
        start = time.process_time()
        try:
            return evaluate(self, *args, **kwargs)
        finally:
            spent = time.process_time() - start
            _write("evaluations", {"test": _state["test"], "cpu": spent,
                                   "document": self.data if spent > SLOW_SECONDS else None})

    Plan.evaluate = timed
    gc.callbacks.append(_on_garbage_collection)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _state["test"], _state["gc"] = item.nodeid, 0.0
    wall, cpu, before = time.perf_counter(), time.process_time(), os.times()
    yield
    after = os.times()
    children = (after.children_user + after.children_system
                - before.children_user - before.children_system)
    _write("tests", {"test": item.nodeid, "wall": time.perf_counter() - wall,
                     "cpu": time.process_time() - cpu, "children_cpu": children,
                     "gc": _state["gc"]})


def summary(folder: Path = FOLDER, top: int = 20) -> None:
    """Print the slowest tests, each worker's share, and per test the plan evaluations and
    those over the slow threshold."""
    workers = {}
    tests = []
    for path in sorted(glob.glob(str(folder / "tests-*.jsonl"))):
        rows = [json.loads(line) for line in Path(path).read_text("utf-8").splitlines()]
        workers[Path(path).stem] = (len(rows), sum(r["wall"] for r in rows))
        tests += rows
    for name, (count, wall) in workers.items():
        print(f"{name}: {count} tests, {wall:.1f} s")
    for r in sorted(tests, key=lambda r: -r["wall"])[:top]:
        print(f"{r['wall']:8.1f} s wall {r['cpu']:8.1f} s CPU {r['children_cpu']:6.1f} s children"
              f" {r['gc']:5.1f} s gc  {r['test']}")
    by_test = collections.defaultdict(lambda: [0, 0.0, 0, 0.0])
    for path in sorted(glob.glob(str(folder / "evaluations-*.jsonl"))):
        for line in Path(path).read_text("utf-8").splitlines():
            r = json.loads(line)
            entry = by_test[r["test"]]
            entry[0] += 1
            entry[1] += r["cpu"]
            if r["document"] is not None:
                entry[2] += 1
                entry[3] += r["cpu"]
    print(f"\nevaluations per test (slow: over {SLOW_SECONDS} s):")
    for test, (count, cpu, slow, slow_cpu) in sorted(by_test.items(), key=lambda x: -x[1][1]):
        if cpu >= 0.5:
            print(f"{count:6d} in {cpu:7.1f} s, {slow:4d} slow in {slow_cpu:7.1f} s  {test}")


if __name__ == "__main__":
    if sys.argv[1:] != ["summary"]:
        sys.exit(__doc__)
    summary()
