"""Shared pytest set-up: hypothesis profiles and the ``--update-golden`` option.

Hypothesis profiles (``HYPOTHESIS_PROFILE``): ``dev`` (the default) draws new examples on every
run, so repeated local runs explore; ``ci`` draws the same examples every time, so a landing is
not decided by chance (``.ci/run`` selects it); ``deep`` runs many more examples per test.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None)
settings.register_profile("deep", deadline=None, max_examples=2000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", default=False,
        help="rewrite tests/golden/*.json from the current output instead of comparing with it")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether golden files are rewritten (``pytest --update-golden``) rather than compared."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def run():
    """``run(*args)``: the command line invoked in-process (click's runner), arguments made
    text; bugs keep their traceback."""
    from click.testing import CliRunner

    from planner.cli import main

    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)

    return invoke


#: Tests that take the longest (measured with ``--durations=60`` on two cores), longest first:
#: they are started first, so that under ``--dist worksteal`` no worker is left with one of
#: them while the other has nothing more to do. A node id prefix (a module, a test, a test
#: with all its parameters) names them; an unknown or renamed one is simply not moved.
SLOW_FIRST = (
    # seconds each, measured with --durations=40 on 2 cores at load 1 to 4.7 (2026-12-01, a
    # whole run of 18 min 48 s)
    "tests/test_fuzz_outputs.py::test_json_csv_markdown_of_generated_plans",  # 631
    "tests/test_fuzz_usage.py::test_valid_documents_evaluate_with_invariants",  # 568
    "tests/test_fuzz_usage.py::test_valid_documents_as_yaml_text",  # 179
    "tests/test_fuzz_outputs.py::test_command_line_on_generated_text",  # 62
    "tests/test_fuzz_usage.py::test_mutated_documents_as_yaml_text",  # 56
    "tests/test_calibrate.py::test_a_ten_million_line_log_in_bounded_memory",  # 55
    "tests/test_report.py::test_chinese_report",  # 54
    "tests/test_report_pages.py::test_examples_print_with_their_charts",  # 47 (cn-lab) …
    "tests/test_fuzz_usage.py::test_mutated_documents_are_refused_cleanly_or_evaluate",  # 42
    "tests/test_fuzz_usage.py::test_documents_over_the_longest_horizon",  # 32
    "tests/test_fuzz_usage.py::test_edited_yaml_text",  # 26
    "tests/test_examples.py::test_pdf_report_states_the_answer",  # 26 (cn-lab) …
    "tests/test_fuzz_usage.py",  # the rest of the fuzz tests: 8 to 21 each
    "tests/test_fuzz_outputs.py",
    "tests/test_fonts.py::test_the_examples_print_without_a_warning",  # 13
    "tests/test_limits.py::test_reports_need_no_network",  # 12 (startup-mix) …
    "tests/test_optimize.py::test_optimum_equals_brute_force",  # 10
    "tests/test_breakeven.py::test_level_against_reserved_pricing_is_the_first_sign_change",  # 8
    "tests/test_sweep_paths.py::test_a_sweep_over_the_walks_events_equals_the_evaluations",  # 7
    "tests/test_notebook.py",  # 7
    "tests/test_plan.py::test_a_sweep_equals_the_evaluations_it_replaces",  # 4
    "tests/test_sweep_dask.py",  # 4 each, and the cluster's start
)


def _slowness(item: pytest.Item) -> int:
    """The rank of ``item`` in :data:`SLOW_FIRST`, or its length if it is not there."""
    for rank, prefix in enumerate(SLOW_FIRST):
        if item.nodeid == prefix or item.nodeid.startswith((prefix + "::", prefix + "[")):
            return rank
    return len(SLOW_FIRST)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests (:data:`SLOW_FIRST`) first in every worker's share, the rest in the
    order collected.

    pytest-xdist's worksteal scheduler first hands each of its W workers a contiguous slice
    of the collection (the first ``n // W`` tests, then ``(n - that) // (W - 1)`` of the rest,
    …) and later lets an idle worker steal the tail of another's queue. A slow test at the
    head of a queue is never stolen, so the slow tests are dealt round-robin, longest first,
    to the heads of the W slices: the longest ones run side by side, not one after the other
    on the first worker. Without xdist (W = 1) this is the slow tests first."""
    ranked = sorted(items, key=_slowness)
    slow = [item for item in ranked if _slowness(item) < len(SLOW_FIRST)]
    rest = ranked[len(slow):]
    workers = max(int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")), 1)
    order: list[pytest.Item] = []
    remaining = len(items)
    for worker in range(workers):
        share = remaining // (workers - worker)  # as worksteal's first distribution counts
        heads = slow[worker::workers]
        take = max(share - len(heads), 0)
        order += heads + rest[:take]
        rest = rest[take:]
        remaining -= share
    items[:] = order + rest
