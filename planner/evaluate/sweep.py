"""What-if sweeps (SPEC §4): every scenario of a grid, computed as arrays, in bounded chunks.

Scenarios that share their non-numeric values (pricing, horizon, …) form a group with one
structure; within a group every swept number becomes an array over scenarios and the whole
group is evaluated in chunks of ``chunk_size`` scenarios by the same engine as a single
evaluation. The chunks run through an executor: here, one after the other (``in_process``), or
as tasks on a Dask cluster (planner/evaluate/distributed.py).

The frame's columns are allocated once, for all rows (:func:`allocate_columns`), and filled
chunk by chunk: :func:`sweep_columns` writes a chunk's rows into views of them where its
scenarios are consecutive (``out``), else its columns are written into their rows by
:func:`assemble`; categories travel as integer codes and the columns become a DataFrame
without copying (:func:`columns_frame`).
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import numbers
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from planner.cards.checks import catalog_checks
from planner.cards.model import has_infinity
from planner.cards.resolve import resolve
from planner.engine.figures import compute
from planner.errors import Problem, UserError
from planner.evaluate.frame_memory import nan_columns
from planner.evaluate.freed_memory import reuse_freed_memory
from planner.evaluate.overflow import overflowed, too_large_message
from planner.usage.load import load_usage
from planner.usage.paths import canonical_path, set_path
from planner.usage.rules import SETUP_TAKES_WHOLE_SESSION, setup_takes_whole_session
from planner.usage.vocabulary import EXCLUSIVE_DEMAND_KEYS

#: Keys whose numbers change the shape of the computation; their values are grouped.
STRUCTURAL = {("horizon_months",)}
#: The largest sweep accepted: beyond it, the output frame alone would not fit in memory.
MAX_SCENARIOS = 50_000_000
#: The largest result frame accepted (8 bytes a cell), checked before anything is computed.
MAX_RESULT_BYTES = 4_000_000_000
#: Option-months computed at once (chunk scenarios × (T + 1) × options): about 200 MB of
#: working memory, whatever the horizon and the number of options (8,192 scenarios of four
#: options over 36 months, 2.4 MB an array). Measured on two cores: chunks of 2,048 and
#: 4,096 scenarios cost more in Python overhead (about 10 ms a chunk) than they gain in
#: cache. 16,384 cost the same CPU within a process, but in a fresh one (bench/) 20 % more at
#: 200,000 scenarios of examples/usage.yaml (1.95 s against 1.60 s, the first chunk faults
#: in twice the temporaries: 201 MB against 105 MB beyond the frame) and no less at 10^6.
CHUNK_CELLS = 8_192 * 37 * 4
#: Scenarios of a chunk at most, unless the caller asks for another number.
DEFAULT_CHUNK_SCENARIOS = 16_384

SCALAR_FIELDS = ("kind", "feasible", "gpu", "gpus", "gpu_hours_per_month", "total_cost",
                 "present_value", "residual_value", "cost_per_gpu_hour", "energy_kwh",
                 "carbon_kg", "capacity_gpu_hours_per_month", "unmet_gpu_hours_per_month",
                 "first_unmet_month", "served_share", "passed_cost", "passed_cost_share",
                 "machines", "cost_per_owned_gpu_hour", "scaling_efficiency", "job_days")
BREAK_EVEN_FIELDS = ("months", "system_hours", "gpu_hours_per_month")
#: The scalar fields that are whole numbers: nullable integers (``Int64``) in the frame.
INTEGER_FIELDS = ("gpus", "first_unmet_month", "machines")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def run_sweep(plan, axes: Mapping[str, Iterable[Any]], *, mode: str = "product",
              chunk_size: int | None = None, break_even: bool = True,
              executor: Executor | None = None, progress: Progress | None = None,
              fields: Sequence[str] | None = None):
    """The sweep's groups, validated, turned into its result by ``executor`` (by default
    :func:`in_process`: every chunk here, one after the other). ``progress(total)`` is a
    context manager giving the executor a callback that counts scenarios done. ``fields``:
    the only columns kept besides ``scenario``, ``option`` and ``cheapest`` (all without it),
    so that a caller that needs a few figures of many scenarios holds only those."""
    if mode not in ("product", "zip"):
        raise UserError([Problem(f"sweep mode must be 'product' or 'zip', not {mode!r}")])
    if not axes:
        raise UserError([Problem("a sweep needs at least one axis")])
    names = list(axes)
    # Sizes first, values later: a sweep too large is refused before its values are listed.
    given = [_axis(name, axes[name]) for name in names]
    sizes = [len(axis) for axis in given]
    problems = [Problem(f"axis {name!r} has no values", path=name)
                for name, size in zip(names, sizes) if not size]
    if problems:
        raise UserError(problems)
    if mode == "zip":
        if len(set(sizes)) != 1:
            raise UserError([Problem("a zip sweep needs axes of equal length, got "
                                     + ", ".join(f"{n}: {s}" for n, s in zip(names, sizes)))])
        total = sizes[0]
    else:
        total = int(np.prod(sizes, dtype=object))
    if total > MAX_SCENARIOS:
        raise UserError([Problem(f"the sweep has {total:,} scenarios; the limit is "
                                 f"{MAX_SCENARIOS:,} (split it into several sweeps)")])
    _check_result_size(plan, names, total)
    values = [list(axis) for axis in given]
    paths = [canonical_path(plan.data, name) for name in names]
    for group in EXCLUSIVE_DEMAND_KEYS:
        keys = {("demand", key) for key in group}
        forms = [name for name, path in zip(names, paths) if tuple(path) in keys]
        if len(forms) > 1:  # setting one demand form replaces the others (SPEC §4)
            what = "demand form" if "utilization" in group else "growth"
            raise UserError([Problem(f"a sweep can vary one {what}, not "
                                     f"{' and '.join(forms)}: each replaces the others",
                                     path=forms[1])])
    numeric = [all(_is_number(v) for v in vals) and tuple(p) not in STRUCTURAL
               for p, vals in zip(paths, values)]
    index = axis_indices(sizes, mode, total)
    arrays = [np.asarray(v, dtype=float) if num else None for v, num in zip(values, numeric)]
    _check_finite(names, arrays)
    found = []
    for key, members in _groups(index, numeric):
        data = plan.data
        for name, num, vals, k in zip(names, numeric, values, key):
            data = set_path(data, name, vals[0] if num else vals[k])
        label = ", ".join(f"{name} = {vals[k]!r}" for name, num, vals, k
                          in zip(names, numeric, values, key) if not num)
        document = _validated(data, plan, names, numeric, arrays, index, members,
                              label or "with the axes' first values")
        found.append((key, members.size, document.usage.model_dump()))
    del index
    layout = _layout(plan, [usage for _, _, usage in found])
    groups = []
    for key, size, usage in found:
        # Every option's flows are (scenarios × months) arrays: the chunk shrinks as the
        # horizon and the options grow, so that memory stays bounded.
        cells = (int(usage["horizon_months"]) + 1) * max(len(usage["options"]), 1)
        rows = max(1, min(chunk_size or DEFAULT_CHUNK_SCENARIOS, CHUNK_CELLS // cells))
        spec = SweepSpec(usage, plan.catalog, tuple(names), tuple(map(tuple, paths)),
                         tuple(numeric), tuple(values), tuple(arrays), tuple(sizes), mode,
                         key, break_even, **layout,
                         fields=None if fields is None else tuple(fields))
        groups.append(Group(spec, size, rows, cells, chunk_size is not None))
    with (progress or _no_progress)(total) as advance, reuse_freed_memory():
        return (executor or in_process)(groups, advance)


def _axis(name: str, axis: Any) -> Sequence[Any] | range | np.ndarray:
    """An axis's values as a sized collection (a list, range or array as given; any other
    iterable is read, up to the scenario limit)."""
    if isinstance(axis, (str, bytes, Mapping)) or not isinstance(axis, Iterable):
        raise UserError([Problem(f"an axis is a list of values (or a range or an array), not "
                                 f"{type(axis).__name__}", path=str(name))])
    if isinstance(axis, (Sequence, range, np.ndarray)):
        return axis
    values = list(itertools.islice(axis, MAX_SCENARIOS + 1))
    if len(values) > MAX_SCENARIOS:
        raise UserError([Problem(f"the axis has more than {MAX_SCENARIOS:,} values; the limit "
                                 f"of a sweep is {MAX_SCENARIOS:,} scenarios", path=str(name))])
    return values


def _check_result_size(plan, names: list[str], total: int) -> None:
    """Refuse a sweep whose result frame would not fit in memory (one row per scenario and
    option; a column per field, axis and break-even figure), before anything is computed."""
    options = plan.usage["options"]
    owns = any(o.get("own") is not None for o in options)
    columns = 4 + len(names) + len(SCALAR_FIELDS) + (3 * (len(options) - 1) if owns else 0)
    rows = total * len(options)
    size = rows * columns * 8
    if size > MAX_RESULT_BYTES:
        raise UserError([Problem(
            f"the sweep's result would take about {size / 1e9:,.1f} GB ({total:,} scenarios × "
            f"{len(options)} options, {columns} columns); the limit is "
            f"{MAX_RESULT_BYTES / 1e9:.0f} GB (split it into several sweeps)")])


def axis_indices(sizes: list[int], mode: str, total: int) -> list[np.ndarray]:
    """For every axis, the index of its value in each scenario (scenario order: last axis
    fastest in product mode)."""
    scenario = np.arange(total)
    if mode == "zip":
        return [scenario for _ in sizes]
    return list(np.unravel_index(scenario, sizes)) if sizes else []


def _groups(index: list[np.ndarray], numeric: list[bool]):
    """Scenarios grouped by the values of their non-numeric axes."""
    keyed = [i for i, num in zip(index, numeric) if not num]
    total = index[0].size
    if not keyed:
        return [((0,) * len(index), np.arange(total))]
    stacked = np.stack(keyed, axis=1)
    unique, inverse = np.unique(stacked, axis=0, return_inverse=True)
    out = []
    for g, row in enumerate(unique):
        members = np.flatnonzero(inverse.ravel() == g)
        it = iter(row)
        key = tuple(int(next(it)) if not num else 0 for num in numeric)
        out.append((key, members))
    return out


def _check_finite(names, arrays):
    problems = []
    for name, arr in zip(names, arrays):
        if arr is not None and not np.isfinite(arr).all():
            bad = arr[~np.isfinite(arr)][0]
            problems.append(Problem(f"sweep value {bad} is not a finite number", path=name))
    if problems:
        raise UserError(problems)


def _validated(data, plan, names, numeric, arrays, index, members, label):
    """Validate the group's document at the extremes of each numeric axis: constraints are
    intervals, so the smallest and largest value (and any non-whole value, for integer keys)
    stand for all."""
    problems: list[Problem] = []
    checks = catalog_checks(plan.base_dir, plan.extra_catalogs)
    try:
        document = load_usage(data, name=plan.document.file, checks=checks)
    except UserError as err:
        raise UserError([_in_sweep(p, label) for p in err.problems]) from None
    for name, num, arr, idx in zip(names, numeric, arrays, index):
        if not num:
            continue
        used = arr[np.unique(idx[members])]
        probes = {float(used.min()), float(used.max())}
        fractional = used[np.mod(used, 1) != 0]
        if fractional.size:
            probes.add(float(fractional[0]))
        for value in sorted(probes):
            try:
                load_usage(set_path(data, name, _plain(value)), name=plan.document.file)
            except UserError as err:
                problems.extend(_in_sweep(p, f"{name} = {value:g}") for p in err.problems)
    if problems:
        raise UserError(list(dict.fromkeys(problems)))
    return document


def _plain(value: float):
    return int(value) if float(value).is_integer() else value


def _in_sweep(problem: Problem, scenario: str) -> Problem:
    return Problem(f"{problem.message} (in the sweep's scenarios {scenario})", path=problem.path,
                   suggestion=problem.suggestion)


def _set_leaf(usage: dict, path: tuple, value) -> None:
    node = usage
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _evaluate_chunk(spec: SweepSpec, index, chunk: np.ndarray, columns: dict[str, np.ndarray],
                    break_even: bool) -> None:
    """Compute the group's scenarios ``chunk`` (scenario numbers; ``index``: each axis's
    position in every scenario) and write their rows, scenario-major, into ``columns``
    (chunk.size × options rows each)."""
    usage = copy.deepcopy(spec.usage)
    names, values = spec.names, spec.values
    for path, num, arr, idx in zip(spec.paths, spec.numeric, spec.arrays, index):
        if num:
            _set_leaf(usage, tuple(path), arr[idx[chunk]])
    with np.errstate(over="ignore"):  # an input that overflows is refused below
        resolved = resolve(usage, spec.catalog)
    if resolved.issues:
        raise UserError([Problem(p.message, path=p.path) for p in resolved.issues])
    if has_infinity(resolved.model):  # inputs beyond the float range once converted
        raise _overflow_error(resolved.model, names, values, index, chunk)
    _check_rules_between_axes(usage, resolved.model, names, values, index, chunk)
    try:
        with np.errstate(over="raise"):
            figures = compute(resolved.model, break_even=break_even)
    except FloatingPointError:
        raise _overflow_error(resolved.model, names, values, index, chunk) from None
    rows = chunk.size
    n_options = len(spec.option_names)

    def put(name: str, value: Any, option: int | None = None) -> None:
        """Write ``value`` into column ``name``: into one option's rows, or all rows (not
        at all when the sweep does not keep that column)."""
        if name not in columns:
            return
        table = columns[name].reshape(rows, n_options)
        if option is None:
            table[:] = value  # (rows, 1) or (1, options)
        else:
            table[:, option] = value

    put("scenario", chunk[:, None])
    for name, vals, arr, idx in zip(names, values, spec.arrays, index):
        if name not in columns:
            continue
        picked = idx[chunk]
        if columns[name].dtype == object:
            column = np.empty(len(vals), dtype=object)  # one cell per value, lists too
            column[:] = list(vals)
            put(name, column[picked][:, None])
        else:
            put(name, (np.asarray(vals, dtype=float) if arr is None else arr)[picked][:, None])
    put("option", np.arange(n_options)[None, :])
    kinds = list(dict.fromkeys(spec.kinds))
    for o in figures.options:
        option = spec.option_names.index(o.name)
        gpu = resolved.model.cards[o.name].gpu
        put("kind", kinds.index(o.kind), option)
        put("gpu", -1 if gpu is None else spec.gpu_categories.index(gpu), option)
        for field in SCALAR_FIELDS:
            if field not in ("kind", "gpu") and field in columns:
                put(field, _field(resolved.model, o, field), option)
    # (1,) when no option depends on the swept values: one answer for every scenario.
    put("cheapest", np.broadcast_to(figures.cheapest, (rows,))[:, None])
    for pair in figures.pairs:
        option = spec.option_names.index(pair.own)
        for field in BREAK_EVEN_FIELDS:
            put(f"break_even.{pair.versus}.{field}", getattr(pair, field), option)


def _scenarios_text(names, values, index, chunk, where) -> str:
    """The first few scenarios at ``where`` (positions in ``chunk``) by their axis values (a
    number as Python writes it: 0.8, not numpy's np.float64(0.8))."""
    shown = [", ".join(f"{name} = {_plain_value(vals[idx[chunk[k]]])!r}" for name, vals, idx
                       in zip(names, values, index)) for k in where[:3]]
    more = f" and {where.size - 3} more" if where.size > 3 else ""
    return "; ".join(shown) + more


def _plain_value(value):
    return value.item() if isinstance(value, np.generic) else value


def _check_rules_between_axes(usage, model, names, values, index, chunk) -> None:
    """The numeric rule between two keys (SPEC §1), checked in every scenario: each axis is
    validated only at its ends with the others at their first values, which cannot see a
    free tier's setup_minutes swept past its swept session_hours."""
    problems = []
    for i, entry in enumerate(usage["options"]):
        if not isinstance(entry.get("free_tier"), dict):
            continue
        card = model.cards[entry["name"]]
        if card.session_hours is None or card.setup_minutes is None:
            continue
        session = np.asarray(card.session_hours, dtype=float)[:, 0]
        setup = np.asarray(card.setup_minutes, dtype=float)[:, 0]
        with np.errstate(invalid="ignore"):
            bad = np.broadcast_to(setup_takes_whole_session(setup, session), (chunk.size,))
        if bad.any():
            where = np.flatnonzero(bad)
            problems.append(Problem(
                f"{SETUP_TAKES_WHOLE_SESSION} in the sweep's scenarios "
                + _scenarios_text(names, values, index, chunk, where),
                path=f"options[{i}].free_tier.setup_minutes"))
    if problems:
        raise UserError(problems)


def _overflow_error(model, names, values, index, chunk) -> UserError:
    """The scenarios whose costs leave the float range (absurd values on an axis), as a user
    error naming the first few of them by their axis values."""
    bad = np.zeros(chunk.size, dtype=bool)
    for rows in overflowed(model, chunk.size).values():
        bad |= rows
    where = np.flatnonzero(bad) if bad.any() else np.arange(min(chunk.size, 1))
    return UserError([Problem(
        too_large_message(_scenarios_text(names, values, index, chunk, where)),
        path=names[0] if len(names) == 1 else "")])


def _field(model, o, field: str) -> np.ndarray:
    # (rows,) or (1,): the column's assignment broadcasts, so no broadcast view is made here.
    card = model.cards[o.name]
    if field == "gpus":
        gpus = card.gpu_count if o.kind == "own" else card.gpus
        return np.asarray(gpus, dtype=float)[:, 0]
    value = getattr(o, field)
    if value is None:
        return np.full(1, np.nan)
    return np.asarray(value, dtype=float if field != "feasible" else bool).reshape(-1)


# -- The seam between a sweep and where its chunks run ---------------------------------------
# A group's chunks are computed by sweep_columns from a small picklable SweepSpec and a range
# of the group's scenarios, so that they run the same here and on a Dask worker
# (planner/evaluate/distributed.py). An executor turns the groups into the result; assemble
# puts the chunks' columns together in scenario order.

#: ``executor(groups, advance)``: the sweep's result; ``advance(n)`` after n scenarios.
Executor = Callable[[list["Group"], Callable[[int], None]], Any]
#: ``progress(total)``: a context manager yielding ``advance``.
Progress = Callable[[int], Any]


@dataclass(frozen=True)
class SweepSpec:
    """What every chunk of one group is computed from: the group's usage document (the
    swept numbers still at their first values), the catalog and the axes. Never per-scenario
    arrays: a chunk finds its scenarios' axis values from ``sizes``, ``mode`` and ``key``."""

    usage: dict
    catalog: Any
    names: tuple[str, ...]
    paths: tuple[tuple, ...]
    numeric: tuple[bool, ...]
    values: tuple[list, ...]  # each axis's values, as listed
    arrays: tuple[np.ndarray | None, ...]  # a numeric axis's values as floats, else None
    sizes: tuple[int, ...]
    mode: str
    key: tuple[int, ...]  # the group's value on each non-numeric axis (0 on numeric axes)
    break_even: bool
    # What every group's columns share (the same in all groups' specs):
    option_names: tuple[str, ...] = ()  # the options in order: the codes of option, cheapest
    kinds: tuple[str, ...] = ()  # each option's kind; the codes of kind: their first order
    gpu_categories: tuple[str, ...] = ()  # the GPUs of all groups: the codes of gpu
    break_even_columns: tuple[str, ...] = ()  # "break_even.{versus}.{field}" of all groups
    fields: tuple[str, ...] | None = None  # the columns kept (with scenario, option, cheapest)


@dataclass(frozen=True)
class Group:
    """Scenarios that share their non-numeric values: ``size`` of them, computed in chunks of
    at most ``rows`` (which bound memory: ``cells`` option-months a scenario); ``chosen``
    when the caller set the chunk size."""

    spec: SweepSpec
    size: int
    rows: int
    cells: int
    chosen: bool


def sweep_columns(spec: SweepSpec, start: int, stop: int, *, break_even: bool | None = None,
                  out: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """The result columns (one entry per scenario and option, scenario-major; ``option``,
    ``cheapest``, ``kind`` and ``gpu`` as integer codes, see :func:`columns_frame`) of the
    group's scenarios ``start`` to ``stop`` (positions among the group's scenarios in
    scenario order, ``stop`` excluded).

    Picklable in all its inputs, so that chunks run anywhere (a Dask worker). ``out``
    (column name → array of (stop − start) × options rows, views of the whole frame's columns
    for example, as :func:`allocate_columns` makes them: float columns NaN, which the cells a
    chunk does not write keep) is filled in place and returned; without it new columns are
    allocated. ``break_even``: the spec's unless given."""
    chunk = _members(spec, start, stop)
    columns = allocate_columns(spec, chunk.size) if out is None else dict(out)
    index = [_AxisIndex(spec.sizes, spec.mode, axis) for axis in range(len(spec.sizes))]
    _evaluate_chunk(spec, index, chunk, columns,
                    spec.break_even if break_even is None else break_even)
    return columns


def _layout(plan, usages: list[dict]) -> dict[str, tuple]:
    """What every group's columns share (:class:`SweepSpec`'s last fields): the options in
    order, their kinds, the GPUs of all groups, the break-even columns of all groups."""
    first = usages[0]
    option_names = tuple(o["name"] for o in first["options"])
    kinds = tuple(next(k for k in ("own", "cloud", "free_tier") if o.get(k) is not None)
                  for o in first["options"])
    gpus, pairs = [], []
    for usage in usages:
        with np.errstate(over="ignore"):
            cards = resolve(usage, plan.catalog).model.cards
        gpus += [cards[name].gpu for name in option_names if name in cards]
        owns = [o["name"] for o in usage["options"] if o.get("own") is not None]
        pairs += [f"break_even.{versus}.{field}" for own in owns for versus in option_names
                  if versus != own for field in BREAK_EVEN_FIELDS]
    return {"option_names": option_names, "kinds": kinds,
            "gpu_categories": tuple(dict.fromkeys(g for g in gpus if g is not None)),
            "break_even_columns": tuple(dict.fromkeys(pairs))}


def _column_dtypes(spec: SweepSpec) -> dict[str, Any]:
    """Every column of the frame and the dtype it is allocated with (codes for categories)."""
    out: dict[str, Any] = {"scenario": np.int64}
    for name, vals in zip(spec.names, spec.values):
        out[name] = float if all(_is_number(v) for v in vals) else object
    out["option"] = np.int32
    out["kind"] = out["gpu"] = np.int32
    for field in SCALAR_FIELDS:
        if field not in out:
            out[field] = bool if field == "feasible" else float
    out["cheapest"] = np.int32
    for name in spec.break_even_columns:
        out[name] = float
    if spec.fields is not None:
        kept = {"scenario", "option", "cheapest", *spec.fields}
        out = {name: dtype for name, dtype in out.items() if name in kept}
    return out


def allocate_columns(spec: SweepSpec, scenarios: int) -> dict[str, np.ndarray]:
    """The columns of ``scenarios`` scenarios, allocated once: one row per scenario and
    option. Float columns start as NaN, the value of every cell a chunk does not write (a
    break-even column in the rows of the options it does not belong to).

    Writing them here, in one sequential pass, also faults their pages in before the chunks
    write them option by option (every fourth number or so): measured on two cores, a 200,000
    scenario sweep of examples/usage.yaml spent 0.6–0.9 s CPU in those strided first writes,
    against 0.1–0.4 s for this pass and 0.13–0.15 s for the same writes afterwards. The float
    columns are rows of one block mapped on its own (:mod:`planner.evaluate.frame_memory`)."""
    rows = scenarios * len(spec.option_names)
    dtypes = _column_dtypes(spec)
    floats = iter(nan_columns(sum(dtype is float for dtype in dtypes.values()), rows))
    out = {}
    for name, dtype in dtypes.items():
        if dtype is float:
            out[name] = next(floats)
        elif dtype is object:
            out[name] = np.empty(rows, dtype=object)
        else:
            out[name] = np.zeros(rows, dtype=dtype)
    return out


def columns_frame(spec: SweepSpec, columns: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The tidy frame of SPEC §4 from filled columns (codes become categories, the
    :data:`INTEGER_FIELDS` nullable integers), without copying the other numeric columns."""
    categories = {"option": list(spec.option_names), "cheapest": list(spec.option_names),
                  "kind": list(dict.fromkeys(spec.kinds)), "gpu": list(spec.gpu_categories)}
    data: dict[str, Any] = {}
    for name, column in columns.items():
        if name in categories:
            # The codes are the chunks' own indices into these categories (or −1): no pass
            # over them to check their range.
            data[name] = pd.Categorical.from_codes(column, categories=categories[name],
                                                   validate=False)
        elif name in INTEGER_FIELDS:  # whole numbers, missing as <NA> (one copy, a small column)
            missing = np.isnan(column)
            with np.errstate(invalid="ignore"):  # NaN cast to an integer, then set to 0
                values = column.astype(np.int64)
            values[missing] = 0
            data[name] = pd.arrays.IntegerArray(values, missing)
        else:
            data[name] = column
    return pd.DataFrame(data, copy=False)


def chunk_bounds(size: int, rows: int, start: int = 0) -> list[tuple[int, int]]:
    """``(start, stop)`` of each chunk of ``rows`` scenarios from ``start`` to ``size``."""
    return [(first, min(first + rows, size)) for first in range(start, size, rows)]


def local_chunks(groups: list[Group], advance: Callable[[int], None],
                 columns: dict[str, np.ndarray] | None = None
                 ) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Every chunk of every group, computed here in order: ``(group, start, columns)``. With
    ``columns`` (the whole frame's, :func:`allocate_columns`), a chunk of consecutive
    scenarios is written straight into its rows and yields None for its columns."""
    for g, group in enumerate(groups):
        n_options = len(group.spec.option_names)
        for start, stop in chunk_bounds(group.size, group.rows):
            out = None
            if columns is not None:
                first, last = _members(group.spec, start, start + 1)[0], \
                    _members(group.spec, stop - 1, stop)[0]
                if last - first == stop - start - 1:  # consecutive: views, not a copy
                    rows = slice(int(first) * n_options, (int(last) + 1) * n_options)
                    out = {name: column[rows] for name, column in columns.items()}
            chunk = sweep_columns(group.spec, start, stop, out=out)
            advance(stop - start)
            yield g, start, None if out is not None else chunk


def in_process(groups: list[Group], advance: Callable[[int], None]) -> pd.DataFrame:
    """The executor of a sweep on this machine: the chunks fill the frame's columns."""
    columns = allocate_columns(groups[0].spec, sum(group.size for group in groups))
    return assemble(groups, local_chunks(groups, advance, columns), columns)


def assemble(groups: list[Group], chunks: Iterable[tuple[int, int, dict[str, Any] | None]],
             columns: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
    """The sweep's frame from its chunks' columns, which may come in any order: each chunk's
    rows are written into the frame's columns, allocated once (``columns``: already, with
    None for a chunk written there), at scenario × options + option."""
    spec = groups[0].spec
    n_options = len(spec.option_names)
    if columns is None:
        columns = allocate_columns(spec, sum(group.size for group in groups))
    for _, _, part in chunks:
        if part is None:
            continue
        scenarios = np.asarray(part["scenario"]).reshape(-1, n_options)[:, 0]
        for name, column in columns.items():
            column.reshape(-1, n_options)[scenarios] = \
                np.asarray(part[name]).reshape(-1, n_options)
    return columns_frame(spec, columns)


def _members(spec: SweepSpec, start: int, stop: int) -> np.ndarray:
    """The scenario numbers of the group's scenarios ``start`` to ``stop``: in product mode
    the group is the grid of the numeric axes at the group's values of the others; in zip
    mode a group with a non-numeric axis is the one scenario ``key`` names."""
    keyed = [k for k, num in zip(spec.key, spec.numeric) if not num]
    if not keyed:
        return np.arange(start, stop)
    if spec.mode == "zip":
        return np.array([keyed[0]])[start:stop]
    free = [size for size, num in zip(spec.sizes, spec.numeric) if num]
    if not free:
        return np.array([np.ravel_multi_index(spec.key, spec.sizes)])[start:stop]
    within = iter(np.unravel_index(np.arange(start, stop), free))
    where = [next(within) if num else k for k, num in zip(spec.key, spec.numeric)]
    return np.ravel_multi_index(where, spec.sizes)


class _AxisIndex:
    """One axis's ``index`` (the position of its value in each scenario), computed for the
    scenarios asked for rather than stored for the whole sweep."""

    def __init__(self, sizes: tuple[int, ...], mode: str, axis: int):
        self.sizes, self.mode, self.axis = sizes, mode, axis

    def __getitem__(self, scenarios):
        if self.mode == "zip":
            return scenarios
        return np.unravel_index(scenarios, self.sizes)[self.axis]


def _no_progress(total: int) -> contextlib.AbstractContextManager[Callable[[int], None]]:
    return contextlib.nullcontext(lambda done: None)
