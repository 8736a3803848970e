"""Sweeps on Dask (issue 11, point 4): on a LocalCluster of two worker processes a sweep gives
the frame the local sweep gives, as a pandas or a dask DataFrame; a user error raised on a
worker reaches the caller as the same error; tasks are sized from a measured chunk.

The cluster is started once for the module. Nothing here times anything: the sizing rule is
checked with a made-up clock.
"""

from __future__ import annotations

import json
import logging
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from builders import usage_plan

import planner
from planner.errors import Problem, UserError
from planner.evaluate import distributed as on_dask
from planner.evaluate import sweep as sweep_module
from planner.evaluate.sweep import CHUNK_CELLS, Group, SweepSpec

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "usage.yaml"

# Two numeric axes over a catalog-priced plan of four options (break-even columns included).
AXES = {"demand.gpu_hours_per_month": np.linspace(0, 2400, 60),
        "site.electricity_per_kwh": [0.1, 0.25, 0.4]}


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed")
    import dask
    from distributed import Client, LocalCluster

    # A loaded two-core machine starts worker processes slowly: generous timeouts, no memory
    # limit (no spilling or pausing warnings), no dashboard, logs at errors only.
    with dask.config.set({"distributed.comm.timeouts.connect": "120s",
                          "distributed.comm.timeouts.tcp": "120s",
                          "distributed.scheduler.worker-ttl": None}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                         dashboard_address=None, memory_limit=0,
                         silence_logs=logging.ERROR) as cluster, \
            Client(cluster, timeout="120s") as live:
        live.wait_for_workers(2, timeout=120)
        yield live


@pytest.fixture(scope="module")
def example():
    return planner.load(EXAMPLE)


def planner_tasks(stream) -> list:
    return [t for t in stream.data if t["key"][0] == on_dask.TASK_NAME]


def test_a_sweep_on_dask_equals_the_local_sweep(client, example):
    from distributed import get_task_stream

    local = example.sweep(AXES)
    with get_task_stream(client) as stream:
        remote = example.sweep(AXES, client=client, chunk_size=16)
    pd.testing.assert_frame_equal(remote, local)
    tasks = planner_tasks(stream)
    assert len(tasks) == 180 // 16 + 1
    assert len({t["worker"] for t in tasks}) == 2  # both workers took part


def test_sized_by_measure_it_equals_the_local_sweep(client, example):
    axes = {"demand.gpu_hours_per_month": np.linspace(0, 3000, 5000)}
    pd.testing.assert_frame_equal(example.sweep(axes, client=client), example.sweep(axes))


def test_groups_and_zip_sweeps_on_dask(client):
    """Non-numeric axes make groups (each its own spec); a zip sweep's groups are single
    scenarios, packed several to a task."""
    data = usage_plan()
    data["options"][1]["cloud"]["spot_price_per_hour"] = 0.4
    plan = planner.load(data)
    grid = {"horizon_months": [12, 24, 36], "demand.gpu_hours_per_month": [0, 150, 900],
            "options.rent.pricing": ["on_demand", "spot"]}
    pd.testing.assert_frame_equal(plan.sweep(grid, client=client, chunk_size=2),
                                  plan.sweep(grid))
    zipped = {"horizon_months": [12, 18, 24, 30, 36], "site.electricity_per_kwh":
              [0.1, 0.2, 0.3, 0.4, 0.5]}
    pd.testing.assert_frame_equal(plan.sweep(zipped, mode="zip", client=client, chunk_size=2),
                                  plan.sweep(zipped, mode="zip"))


def test_workers_read_no_catalog_file(client, tmp_path):
    """The catalog goes to the workers as data: workers that cannot read a catalog file
    still price every scenario with the user's own rows."""
    quotes = tmp_path / "quotes.csv"
    quotes.write_text(
        "id,provider,instance,region,gpu,gpus,gpu_memory_gb,price_per_hour,currency,as_of,"
        "source\n"
        "lab/a100x1,lab,a100x1,campus,a100-80gb,1,80,1.5,USD,2026-11,https://example.org/quote\n")
    data = {"version": 1, "horizon_months": 12, "demand": {"gpu_hours_per_month": 100},
            "options": [{"name": "quoted", "cloud": "lab/a100x1"}]}
    plan = planner.load(data, catalogs=[quotes])

    def refuse_files(refuse: bool):
        from pricing import catalog

        def unreadable(path):
            raise OSError(f"a worker read {path}")

        if refuse:
            catalog.kept_reader, catalog._read_user_file = catalog._read_user_file, unreadable
        else:
            catalog._read_user_file = catalog.__dict__.pop("kept_reader")

    client.run(refuse_files, True)
    try:
        frame = plan.sweep({"demand.gpu_hours_per_month": [100, 200, 300]}, client=client,
                           chunk_size=1)
    finally:
        client.run(refuse_files, False)
    assert list(frame["total_cost"]) == pytest.approx([12 * 100 * 1.5, 12 * 200 * 1.5,
                                                       12 * 300 * 1.5])


def test_a_dask_dataframe_of_the_same_rows(client, example):
    import dask.dataframe as dd

    local = example.sweep(AXES)
    lazy = example.sweep(AXES, client=client, chunk_size=50, dask_dataframe=True)
    assert isinstance(lazy, dd.DataFrame)
    assert lazy.npartitions == 4 and lazy.known_divisions
    assert list(lazy.columns) == list(local.columns)
    pd.testing.assert_frame_equal(lazy.compute(), local)
    # Partitions are computed on the workers; a selection reads only what it needs.
    box = lazy[lazy.option == "workstation"]["break_even.a100-spot.months"].compute()
    pd.testing.assert_series_equal(
        box, local[local.option == "workstation"]["break_even.a100-spot.months"])


def test_a_dask_dataframe_of_several_groups(client):
    plan = planner.load(usage_plan())
    grid = {"horizon_months": [12, 24], "demand.gpu_hours_per_month": [0, 150, 900]}
    lazy = plan.sweep(grid, client=client, dask_dataframe=True, chunk_size=2)
    assert not lazy.known_divisions  # the groups' scenarios interleave
    computed = lazy.compute().sort_index()
    local = plan.sweep(grid)
    for column in ("kind", "gpu"):  # categories are the union of the groups'
        computed[column] = computed[column].astype(local[column].dtype)
    pd.testing.assert_frame_equal(computed, local)


def test_a_user_error_on_a_worker_is_the_same_user_error(client):
    plan = planner.load(usage_plan())
    axes = {"options.box.purchase_price": [1000, 2000, 1e308]}
    with pytest.raises(UserError) as here:
        plan.sweep(axes)
    with pytest.raises(UserError) as there:
        plan.sweep(axes, client=client, chunk_size=1)
    assert there.value.problems == here.value.problems
    assert str(there.value) == str(here.value)
    assert "options.box.purchase_price = 1e+308" in str(there.value)


def test_the_progress_bar_counts_the_tasks(client, example, capsys):
    example.sweep(AXES, client=client, chunk_size=40, progress=True)
    assert "180/180 scenarios" in capsys.readouterr().err


def test_a_scheduler_address_is_enough(client, example):
    address = client.scheduler.address
    frame = example.sweep({"demand.gpu_hours_per_month": [100, 200]}, client=address,
                          chunk_size=1)
    pd.testing.assert_frame_equal(frame, example.sweep({"demand.gpu_hours_per_month":
                                                        [100, 200]}))


# -- without a cluster --------------------------------------------------------------------


class Clock:
    """Time that passes only when a chunk is computed: ``per_scenario`` seconds a scenario,
    and ``warm_up`` more for the first chunk."""

    def __init__(self, per_scenario: float, warm_up: float = 0.0):
        self.now, self.per_scenario, self.warm_up, self.calls = 0.0, per_scenario, warm_up, []

    def columns(self, spec, start, stop):
        self.now += (stop - start) * self.per_scenario + (self.warm_up if not self.calls else 0)
        self.calls.append(stop - start)
        return {}

    def __call__(self):
        return self.now


def group(size: int, rows: int = 16_384, cells: int = 37 * 4, chosen: bool = False) -> Group:
    return Group(spec=None, size=size, rows=rows, cells=cells, chosen=chosen)


def test_tasks_are_sized_from_a_measured_chunk(monkeypatch):
    """The first chunks run here, doubling from 128 scenarios, until one that is not the first
    (the first warms up) takes MIN_TASK_SECONDS: at 0.5 ms a scenario, 512 scenarios."""
    clock = Clock(per_scenario=0.0005, warm_up=1.0)
    monkeypatch.setattr(on_dask, "sweep_columns", clock.columns)
    sizes, done, resume = on_dask.task_sizes([group(100_000)], clock=clock)
    assert clock.calls == [128, 256, 512]
    assert 512 * 0.0005 >= on_dask.MIN_TASK_SECONDS > 256 * 0.0005
    assert sizes == [512] and resume == 896 and len(done) == 3
    tasks = on_dask.plan_tasks([group(100_000)], sizes, resume)
    assert tasks[0] == [(0, 896, 1408)] and tasks[-1][-1][2] == 100_000


def test_a_group_that_ends_first_is_extrapolated(monkeypatch):
    clock = Clock(per_scenario=0.0001)
    monkeypatch.setattr(on_dask, "sweep_columns", clock.columns)
    sizes, done, resume = on_dask.task_sizes([group(300), group(10**6)], clock=clock)
    assert clock.calls == [128, 172] and resume == 300 and len(done) == 2
    assert 1999 <= sizes[0] <= 2001 and sizes[1] == sizes[0]  # 0.2 s at 0.1 ms a scenario


def test_task_sizes_keep_the_memory_bound_and_scale_with_the_groups(monkeypatch):
    clock = Clock(per_scenario=1e-6)
    monkeypatch.setattr(on_dask, "sweep_columns", clock.columns)
    small_cells = group(10**6, rows=CHUNK_CELLS // 26, cells=26)
    long_horizon = group(10**6, rows=CHUNK_CELLS // 2402, cells=2402)
    sizes, _, _ = on_dask.task_sizes([small_cells, long_horizon], clock=clock)
    # Never 0.2 s within the memory bound: the bound is the task.
    assert sizes == [CHUNK_CELLS // 26, CHUNK_CELLS // 2402]
    assert clock.calls[-1] == CHUNK_CELLS // 26


def test_a_chunk_size_given_is_used_and_small_groups_share_a_task(monkeypatch):
    monkeypatch.setattr(on_dask, "sweep_columns", pytest.fail)  # nothing is measured
    groups = [group(1, rows=4, chosen=True) for _ in range(10)]
    sizes, done, resume = on_dask.task_sizes(groups)
    assert sizes == [4] * 10 and done == [] and resume == 0
    tasks = on_dask.plan_tasks(groups, sizes)
    assert [len(t) for t in tasks] == [4, 4, 2]


@pytest.mark.parametrize(("sizes", "numeric", "mode"), [
    ((7,), (True,), "product"),
    ((3, 4, 5), (True, False, True), "product"),
    ((2, 3, 4), (False, True, False), "product"),
    ((2, 3), (False, False), "product"),
    ((6, 6), (False, True), "zip"),
])
def test_a_groups_scenarios_come_from_its_key(sizes, numeric, mode):
    """What a worker rebuilds from a spec (a group's scenarios, each axis's positions) is what
    the sweep found with its whole-sweep index arrays."""
    total = 6 if mode == "zip" else int(np.prod(sizes))
    index = sweep_module.axis_indices(list(sizes), mode, total)
    found = []
    for key, members in sweep_module._groups(index, list(numeric)):
        spec = SweepSpec({}, None, (), (), numeric, (), (), sizes, mode, key, False)
        assert np.array_equal(sweep_module._members(spec, 0, members.size), members)
        assert np.array_equal(sweep_module._members(spec, 1, 3), members[1:3])
        for axis, whole in enumerate(index):
            assert np.array_equal(sweep_module._AxisIndex(sizes, mode, axis)[members],
                                  whole[members])
        found.extend(members)
    assert sorted(found) == list(range(total))


def test_a_user_error_survives_pickling():
    err = UserError([Problem("pue must be at least 1", path="site.pue", line=3, column=8)])
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is UserError and back.problems == err.problems
    assert str(back) == str(err) and back.args == err.args


def test_without_dask_the_error_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ModuleNotFoundError, match=r"gpu-planner\[dask\]"):
        planner.load(usage_plan()).sweep({"site.electricity_per_kwh": [0.1]}, client="x")


def test_a_local_sweep_or_a_report_never_imports_dask(tmp_path):
    code = ("import json, sys, planner\n"
            "plan = planner.load(json.loads(sys.argv[1]))\n"
            "plan.sweep({'site.electricity_per_kwh': [0.1, 0.2]}, progress=True)\n"
            "planner.report(plan.evaluate(), sys.argv[2])\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'dask', 'distributed'}))")
    done = subprocess.run([sys.executable, "-c", code, json.dumps(usage_plan()),
                           str(tmp_path / "out.json")], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
