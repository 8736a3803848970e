"""Benchmark: how long the usage loader takes to refuse hostile files (tests/test_limits.py
checks that it refuses them after bounded work; the seconds are measured here, where a busy
machine fails nothing).

Prints the best of ``--runs`` for each: the billion-laughs and merge alias bombs, a document of
a million values, deep nesting of lists and of maps. Each was refused within a second or three
on a laptop when written (the merge bomb took more than ten minutes before positions were moved
per merge).

    python bench/limits_bench.py [--runs 3]
"""

from __future__ import annotations

import argparse
import math
import time

from planner.errors import UserError
from planner.usage.load import load_usage_text


def laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\nversion: *a{levels - 1}\n"


def merge_bomb(levels: int = 20) -> str:
    lines = ["m0: &m0 {k: 1}"]
    lines += [f"m{i}: &m{i} {{<<: [*m{i - 1}], x{i}: *m{i - 1}, y{i}: *m{i - 1}}}"
              for i in range(1, levels)]
    return "\n".join(lines) + f"\nversion: *m{levels - 1}\n"


CASES = {
    "billion laughs": laughs(),
    "merge bomb": merge_bomb(),
    "a million values": "version: 1\nx: [" + ",".join(["1"] * 1_000_000) + "]\n",
    "nested lists": "version: " + "[" * 10_000 + "]" * 10_000,
    "nested maps": "version: " + "{a: " * 5_000 + "1" + "}" * 5_000,
}


def refusal_seconds(text: str, runs: int) -> float:
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        try:
            load_usage_text(text, name="hostile.yaml")
        except UserError:
            best = min(best, time.perf_counter() - start)
        else:
            msg = "the file was accepted"
            raise AssertionError(msg)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for name, text in CASES.items():
        print(f"{name:>16}: refused in {refusal_seconds(text, args.runs):.3f} s "
              f"({len(text):,} characters)")


if __name__ == "__main__":
    main()
