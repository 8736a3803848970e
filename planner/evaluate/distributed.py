"""Sweeps on a Dask cluster (the ``planner[dask]`` extra): ``plan.sweep(axes, client=…)``.

A sweep's chunks are independent (planner/evaluate/sweep.py), so they run as Dask tasks:

- A task is sized for Dask's guidance (at least ~100 ms of work). The sweep's first chunks run
  here, doubling from :data:`FIRST_PROBE_SCENARIOS` scenarios, until one of them (never the
  very first, which pays for warming up) takes :data:`MIN_TASK_SECONDS`: that many scenarios
  make one task (other groups scale it by their option-months per scenario; small groups are
  packed together into one task). The cost of a scenario varies a hundredfold between plans
  (options, horizon, reserved ladders), so it is measured rather than guessed. A chunk never
  exceeds the sweep's memory bound (``CHUNK_CELLS``); a ``chunk_size`` given by the caller is
  used as it is.
- A task receives no per-scenario array: the catalog is scattered to the workers once
  (about 1.3 MB pickled, the built-in catalog) and each group's :class:`SweepSpec` once (its
  usage document, a couple of KB, and the axes' values); the worker finds its scenarios'
  values from the axes and computes its columns with :func:`sweep_columns`.
- The results come back as they finish (the progress bar counts them) and are written into
  the frame's columns, allocated once, at their rows (:func:`assemble`): the frame equals the
  one computed here. With ``dask_dataframe=True`` the
  result is a dask DataFrame of the same rows, one partition a task, computed when asked;
  its index is the row's position in the local sweep's frame (divisions are known when the
  sweep has no non-numeric axis).
- A user error raised on a worker reaches the caller as the same :class:`UserError`.

dask is imported only here, and only when a sweep is sent to it.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from planner.evaluate.sweep import (
    Group,
    SweepSpec,
    assemble,
    chunk_bounds,
    columns_frame,
    sweep_columns,
)

#: A task's least work (Dask's guidance is ~100 ms; twice that leaves room for faster
#: workers). [s]
MIN_TASK_SECONDS = 0.2
#: The first chunk measured here. [scenarios]
FIRST_PROBE_SCENARIOS = 128
#: The tasks' name in the dashboard (a task's key: this, the sweep's token, its number).
TASK_NAME = "planner-sweep"

Piece = tuple[int, int, int]  # (group, start, stop): scenarios start to stop of a group


def dask_executor(client=None, *, dask_dataframe: bool = False):
    """The executor of a sweep on Dask: ``client`` a ``distributed.Client`` or a scheduler's
    address (``None``: the default scheduler, for ``dask_dataframe`` only)."""
    _require_dask(dask_dataframe)
    if client is None and not dask_dataframe:
        raise ValueError("a sweep on Dask needs a client (or its scheduler's address)")

    def execute(groups: list[Group], advance: Callable[[int], None]):
        if dask_dataframe:
            with _connected(client, keep=True):
                return dask_frame(groups)
        with _connected(client, keep=False) as live:
            return assemble(groups, dask_chunks(live, groups, advance))

    return execute


def task_sizes(groups: list[Group], advance: Callable[[int], None] = lambda done: None,
               clock: Callable[[], float] = time.perf_counter):
    """Scenarios that make one task in each group, measured on the first group's first
    chunks (module docstring); with the chunks computed meanwhile, ``(group, start,
    columns)``, and the first group's scenario where the tasks begin."""
    if groups[0].chosen:
        return [group.rows for group in groups], [], 0
    first = groups[0]
    rows, start, measured, done = min(FIRST_PROBE_SCENARIOS, first.rows), 0, 0, []
    while True:
        stop = min(start + rows, first.size)
        began = clock()
        done.append((0, start, sweep_columns(first.spec, start, stop)))
        spent = clock() - began
        advance(stop - start)
        last, start, measured = stop - start, stop, measured + 1
        if (measured > 1 and spent >= MIN_TASK_SECONDS) or rows >= first.rows:
            break
        if start >= first.size:  # the group ended first: extrapolate from its last chunk
            rows = min(first.rows, int(last * MIN_TASK_SECONDS / max(spent, 1e-6)) + 1)
            break
        rows = min(2 * rows, first.rows)
    sizes = [max(1, min(group.rows, rows * first.cells // group.cells)) for group in groups]
    sizes[0] = rows
    return sizes, done, start


def plan_tasks(groups: list[Group], sizes: list[int], resume: int = 0) -> list[list[Piece]]:
    """The tasks: each a list of pieces worth one task's work (a chunk of ``sizes[g]``
    scenarios, or several small groups' scenarios packed together)."""
    tasks: list[list[Piece]] = []
    current: list[Piece] = []
    load = 0.0
    for g, group in enumerate(groups):
        for start, stop in chunk_bounds(group.size, sizes[g], resume if g == 0 else 0):
            current.append((g, start, stop))
            load += (stop - start) / sizes[g]
            if load >= 1:
                tasks.append(current)
                current, load = [], 0.0
    if current:
        tasks.append(current)
    return tasks


def dask_chunks(client, groups: list[Group], advance: Callable[[int], None]
                ) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Every chunk of the sweep, computed on the client's cluster: ``(group, start,
    columns)``, in the order they finish."""
    from distributed import as_completed

    sizes, done, resume = task_sizes(groups, advance)
    tasks = plan_tasks(groups, sizes, resume)
    if not tasks:
        yield from done
        return
    catalog = client.scatter(groups[0].spec.catalog, broadcast=True, hash=False)
    specs = client.scatter([_without_catalog(group.spec) for group in groups], hash=False)
    token = uuid.uuid4().hex
    futures = {}
    for n, pieces in enumerate(tasks):
        used = {g: specs[g] for g in dict.fromkeys(g for g, _, _ in pieces)}
        future = client.submit(task_columns, used, catalog, pieces, key=(TASK_NAME, token, n),
                               pure=False)
        futures[future] = pieces
    yield from done  # while the cluster works
    try:
        for future in as_completed(list(futures)):
            pieces = futures.pop(future)
            results = future.result()
            del future  # the cluster forgets a result once it is here
            for (g, start, stop), columns in zip(pieces, results):
                advance(stop - start)
                yield g, start, columns
    finally:
        client.cancel(list(futures))


def task_columns(specs: dict[int, SweepSpec], catalog, pieces: list[Piece]
                 ) -> list[dict[str, Any]]:
    """One task's work, on a worker: the columns of each of its pieces."""
    return [sweep_columns(replace(specs[g], catalog=catalog), start, stop)
            for g, start, stop in pieces]


def task_frame(specs: dict[int, SweepSpec], catalog, pieces: list[Piece], n_options: int
               ) -> pd.DataFrame:
    """One partition of the dask DataFrame: a task's rows, indexed by their position in the
    local sweep's frame."""
    frames = [_indexed(specs[g], columns, n_options)
              for (g, _, _), columns in zip(pieces, task_columns(specs, catalog, pieces))]
    return pd.concat(frames) if len(frames) > 1 else frames[0]


def dask_frame(groups: list[Group]):
    """The sweep as a dask DataFrame: one partition a task (sized as for a client), nothing
    computed but the chunks that size them (or one scenario, for the frame's dtypes)."""
    import dask
    import dask.dataframe as dd
    from dask.dataframe.utils import clear_known_categories

    sizes, done, _ = task_sizes(groups)
    n_options = len(groups[0].spec.usage["options"])
    token = uuid.uuid4().hex
    # Whole objects (not traversed), each one key of the graph, however many tasks use them.
    catalog = dask.delayed(groups[0].spec.catalog, name=f"planner-catalog-{token}",
                           traverse=False)
    specs = [dask.delayed(_without_catalog(group.spec), name=f"planner-spec-{token}-{g}",
                          traverse=False) for g, group in enumerate(groups)]
    tasks = plan_tasks(groups, sizes)
    parts = []
    for n, pieces in enumerate(tasks):
        used = {g: specs[g] for g in dict.fromkeys(g for g, _, _ in pieces)}
        parts.append(dask.delayed(task_frame, pure=True)(
            used, catalog, pieces, n_options, dask_key_name=f"{TASK_NAME}-{token}-{n}"))
    sample = done[0][2] if done else sweep_columns(groups[0].spec, 0, 1)
    meta = _indexed(groups[0].spec, sample, n_options).iloc[:0]
    divisions = None
    if len(groups) > 1:  # kinds and GPUs may differ from one group to the next
        meta = clear_known_categories(meta, cols=["kind", "gpu"])
    else:
        starts = [pieces[0][1] for pieces in tasks]
        divisions = [start * n_options for start in starts] + [groups[0].size * n_options - 1]
    return dd.from_delayed(parts, meta=meta, divisions=divisions, verify_meta=True)


def _indexed(spec: SweepSpec, columns: dict[str, Any], n_options: int) -> pd.DataFrame:
    """A chunk's frame (its codes become categories) indexed by its rows' positions in the
    local sweep's frame (scenario, then option)."""
    frame = columns_frame(spec, columns)
    # A chunk's rows are its scenarios in order, each with every option in order.
    frame.index = frame["scenario"].to_numpy() * n_options + np.arange(len(frame)) % n_options
    return frame


def _without_catalog(spec: SweepSpec) -> SweepSpec:
    return replace(spec, catalog=None)  # the catalog travels once, on its own


@contextlib.contextmanager
def _connected(client, *, keep: bool):
    """The client itself, or one connected to a scheduler's address for this sweep (kept
    open as the default client when a dask DataFrame will be computed through it later)."""
    if not isinstance(client, str):
        yield client
        return
    from distributed import Client

    live = Client(client, set_as_default=keep)
    try:
        yield live
    finally:
        if not keep:
            live.close()


def _require_dask(dataframe: bool) -> None:
    try:
        import dask
        import distributed  # noqa: F401

        if dataframe:
            import dask.dataframe  # noqa: F401
    except ImportError as err:
        raise ModuleNotFoundError(
            f"sweeps on Dask need the dask extra ({err}): pip install 'gpu-planner[dask]'"
        ) from err
