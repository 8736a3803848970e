"""What-if sweeps (SPEC §4): every scenario of a grid, computed as arrays, in bounded chunks.

Scenarios that share their non-numeric values (pricing, horizon, …) form a group with one
structure; within a group every swept number becomes an array over scenarios, evaluated by the
same engine as a single evaluation.

Three steps, so that slices of a sweep can run anywhere: :func:`sweep_spec` checks the axes and
every group once and describes the sweep in a small picklable :class:`SweepSpec`;
:func:`sweep_columns` computes the result columns of scenarios ``start`` .. ``stop`` − 1 of
it; :func:`run_sweep` allocates the frame's columns once (:func:`allocate_columns`), fills them
slice by slice and wraps them in a DataFrame without copying (:func:`columns_frame`).
"""

from __future__ import annotations

import copy
import itertools
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from planner.cards.checks import catalog_checks
from planner.cards.model import has_infinity
from planner.cards.resolve import resolve
from planner.engine.figures import compute
from planner.errors import Problem, UserError
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
#: 4,096 scenarios cost more in Python overhead than they gain in cache, 16,384 lose cache.
CHUNK_CELLS = 8_192 * 37 * 4

SCALAR_FIELDS = ("kind", "feasible", "gpu", "gpus", "gpu_hours_per_month", "total_cost",
                 "present_value", "residual_value", "cost_per_gpu_hour", "energy_kwh",
                 "carbon_kg", "capacity_gpu_hours_per_month", "unmet_gpu_hours_per_month",
                 "first_unmet_month", "served_share", "passed_cost", "passed_cost_share")
BREAK_EVEN_FIELDS = ("months", "system_hours", "gpu_hours_per_month")


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def run_sweep(plan, axes: Mapping[str, Iterable[Any]], *, mode: str = "product",
              chunk_size: int = 16_384, break_even: bool = True) -> pd.DataFrame:
    """The tidy frame of SPEC §4: the columns are allocated once, for all rows, and filled
    slice by slice of scenarios by :func:`sweep_columns`."""
    spec = sweep_spec(plan, axes, mode=mode)
    columns = allocate_columns(spec)
    step = slice_scenarios(spec, chunk_size)
    n_options = len(spec.option_names)
    for start in range(0, spec.scenarios, step):
        stop = min(start + step, spec.scenarios)
        rows = slice(start * n_options, stop * n_options)
        sweep_columns(spec, start, stop, break_even=break_even,
                      out={name: column[rows] for name, column in columns.items()})
    return columns_frame(spec, columns)


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep, small and picklable: what :func:`sweep_columns` needs to compute
    any slice of its scenarios, here or in another process.

    usages : for each group of scenarios (the index of its value on every non-numeric axis,
        0 on numeric ones), the validated usage dict with the numeric axes at their first
        values.
    values : each axis's values; arrays : each numeric axis's values as floats, else None.
    """

    catalog: Any
    names: tuple[str, ...]
    paths: tuple[tuple, ...]
    numeric: tuple[bool, ...]
    values: tuple[tuple, ...]
    arrays: tuple[np.ndarray | None, ...]
    sizes: tuple[int, ...]
    mode: str
    usages: dict[tuple, dict]
    option_names: tuple[str, ...]
    kinds: tuple[str, ...]
    gpu_categories: tuple[str, ...]
    break_even_columns: tuple[str, ...]
    months: int  # the most months (T + 1) of any group

    @property
    def scenarios(self) -> int:
        return self.sizes[0] if self.mode == "zip" else int(np.prod(self.sizes))


def sweep_spec(plan, axes: Mapping[str, Iterable[Any]], *, mode: str = "product") -> SweepSpec:
    """Check the axes and every group of scenarios (user errors for all that is wrong), and
    describe the sweep for :func:`sweep_columns`."""
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
    index = _axis_indices(sizes, mode, total)
    arrays = [np.asarray(v, dtype=float) if num else None for v, num in zip(values, numeric)]
    _check_finite(names, arrays)
    usages = {}
    for key, members in _groups(index, numeric):
        data = plan.data
        for name, num, vals, k in zip(names, numeric, values, key):
            data = set_path(data, name, vals[0] if num else vals[k])
        label = ", ".join(f"{name} = {vals[k]!r}" for name, num, vals, k
                          in zip(names, numeric, values, key) if not num)
        document = _validated(data, plan, names, numeric, arrays, index, members,
                              label or "with the axes' first values")
        usages[key] = document.usage.model_dump()
    del index
    first = next(iter(usages.values()))
    option_names = tuple(o["name"] for o in first["options"])
    kinds = tuple(next(k for k in ("own", "cloud", "free_tier") if o.get(k) is not None)
                  for o in first["options"])
    gpus = []
    pairs = []
    for usage in usages.values():
        with np.errstate(over="ignore"):
            cards = resolve(usage, plan.catalog).model.cards
        gpus += [cards[name].gpu for name in option_names if name in cards]
        owns = [o["name"] for o in usage["options"] if o.get("own") is not None]
        pairs += [f"break_even.{versus}.{field}" for own in owns for versus in option_names
                  if versus != own for field in BREAK_EVEN_FIELDS]
    months = max(int(u["horizon_months"]) + 1 for u in usages.values())
    return SweepSpec(
        catalog=plan.catalog, names=tuple(names), paths=tuple(tuple(p) for p in paths),
        numeric=tuple(numeric), values=tuple(tuple(v) for v in values), arrays=tuple(arrays),
        sizes=tuple(sizes), mode=mode, usages=usages, option_names=option_names, kinds=kinds,
        gpu_categories=tuple(dict.fromkeys(g for g in gpus if g is not None)),
        break_even_columns=tuple(dict.fromkeys(pairs)), months=months)


def slice_scenarios(spec: SweepSpec, chunk_size: int = 16_384) -> int:
    """Scenarios computed at once: at most ``chunk_size``, fewer as the horizon and the
    options grow (every option's flows are (scenarios × months) arrays), so that memory stays
    bounded."""
    cells = spec.months * max(len(spec.option_names), 1)
    return max(1, min(chunk_size, CHUNK_CELLS // cells))


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
    return out


def allocate_columns(spec: SweepSpec, scenarios: int | None = None) -> dict[str, np.ndarray]:
    """The columns of ``scenarios`` scenarios (all of the sweep's by default), allocated once:
    one row per scenario and option; NaN where a figure is not filled in."""
    rows = (spec.scenarios if scenarios is None else scenarios) * len(spec.option_names)
    out = {}
    for name, dtype in _column_dtypes(spec).items():
        if dtype is float:
            out[name] = np.full(rows, np.nan)
        elif dtype is object:
            out[name] = np.empty(rows, dtype=object)
        else:
            out[name] = np.zeros(rows, dtype=dtype)
    return out


def columns_frame(spec: SweepSpec, columns: dict[str, np.ndarray]) -> pd.DataFrame:
    """The tidy frame of SPEC §4 from filled columns (codes become categories), without
    copying the numeric columns."""
    categories = {"option": list(spec.option_names), "cheapest": list(spec.option_names),
                  "kind": list(dict.fromkeys(spec.kinds)), "gpu": list(spec.gpu_categories)}
    data: dict[str, Any] = {}
    for name, column in columns.items():
        if name in categories:
            data[name] = pd.Categorical.from_codes(column, categories=categories[name])
        else:
            data[name] = column
    return pd.DataFrame(data, copy=False)


def sweep_columns(spec: SweepSpec, start: int, stop: int, *, break_even: bool = True,
                  out: Mapping[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """The frame's columns for scenarios ``start`` .. ``stop`` − 1 of the sweep, one row per
    scenario and option, scenario-major ((stop − start) × options rows).

    The one function a sweep computes with, picklable in all its inputs, so that slices can
    run anywhere (another process, a Dask worker) and their columns be put together in
    scenario order. ``out`` (column name → array of that many rows, views of a larger
    frame's columns for example, as :func:`allocate_columns` makes them) is filled in place
    and returned; without it new columns are allocated. Categories are codes: ``option`` and
    ``cheapest`` into :attr:`SweepSpec.option_names` (−1: none), ``kind`` into the kinds in
    option order, ``gpu`` into :attr:`SweepSpec.gpu_categories`.
    """
    count = stop - start
    columns = allocate_columns(spec, count) if out is None else dict(out)
    scenario = np.arange(start, stop)
    if spec.mode == "zip":
        index = [scenario for _ in spec.sizes]
    else:
        index = list(np.unravel_index(scenario, spec.sizes))
    for key, members in _groups(index, list(spec.numeric)):
        picked = [idx[members] for idx in index]
        _fill_group(spec, spec.usages[key], picked, scenario[members], members, columns,
                    break_even)
    return columns


def _fill_group(spec: SweepSpec, usage: dict, picked: list[np.ndarray], scenarios: np.ndarray,
                members: np.ndarray, columns: dict[str, np.ndarray], break_even: bool) -> None:
    """Compute the scenarios of one group (``picked``: their index on every axis) and write
    their rows (at ``members``, positions in the slice) into ``columns``."""
    usage = copy.deepcopy(usage)
    for path, num, arr, idx in zip(spec.paths, spec.numeric, spec.arrays, picked):
        if num:
            _set_leaf(usage, path, arr[idx])
    with np.errstate(over="ignore"):  # an input that overflows is refused below
        resolved = resolve(usage, spec.catalog)
    if resolved.issues:
        raise UserError([Problem(p.message, path=p.path) for p in resolved.issues])
    described = (spec.names, spec.values, picked)
    if has_infinity(resolved.model):  # inputs beyond the float range once converted
        raise _overflow_error(resolved.model, *described)
    _check_rules_between_axes(usage, resolved.model, *described)
    try:
        with np.errstate(over="raise"):
            figures = compute(resolved.model, break_even=break_even)
    except FloatingPointError:
        raise _overflow_error(resolved.model, *described) from None
    n_options = len(spec.option_names)
    rows = members.size
    if rows and members[-1] - members[0] + 1 == rows:  # contiguous: a view, not a gather
        members = slice(int(members[0]), int(members[-1]) + 1)

    def put(name: str, values: Any, option: int | None = None) -> None:
        """Write ``values`` into column ``name``: into one option's rows, or all rows."""
        table = columns[name].reshape(-1, n_options)
        if option is None:
            table[members] = values  # (rows, 1) or (1, options)
        else:
            table[members, option] = values

    put("scenario", scenarios[:, None])
    for name, vals, arr, idx in zip(spec.names, spec.values, spec.arrays, picked):
        if columns[name].dtype == object:
            column = np.empty(len(vals), dtype=object)  # one cell per value, lists too
            column[:] = list(vals)
            put(name, column[idx][:, None])
        else:
            put(name, (np.asarray(vals, dtype=float) if arr is None else arr)[idx][:, None])
    put("option", np.arange(n_options)[None, :])
    kinds = list(dict.fromkeys(spec.kinds))
    for j, o in enumerate(figures.options):
        option = spec.option_names.index(o.name)
        gpu = resolved.model.cards[o.name].gpu
        put("kind", kinds.index(spec.kinds[option]), option)
        put("gpu", -1 if gpu is None else spec.gpu_categories.index(gpu), option)
        for field in SCALAR_FIELDS:
            if field not in ("kind", "gpu"):
                put(field, _field(resolved.model, o, field, rows), option)
    put("cheapest", figures.cheapest[:, None])
    for pair in figures.pairs:
        option = spec.option_names.index(pair.own)
        for field in BREAK_EVEN_FIELDS:
            put(f"break_even.{pair.versus}.{field}", getattr(pair, field), option)


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


def _axis_indices(sizes: list[int], mode: str, total: int) -> list[np.ndarray]:
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


def _scenarios_text(names, values, picked, where) -> str:
    """The first few scenarios at ``where`` (positions among the scenarios whose index on
    each axis ``picked`` gives) by their axis values."""
    shown = [", ".join(f"{name} = {vals[idx[k]]!r}" for name, vals, idx
                       in zip(names, values, picked)) for k in where[:3]]
    more = f" and {where.size - 3} more" if where.size > 3 else ""
    return "; ".join(shown) + more


def _check_rules_between_axes(usage, model, names, values, picked) -> None:
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
            bad = np.broadcast_to(setup_takes_whole_session(setup, session),
                                  (picked[0].size,))
        if bad.any():
            where = np.flatnonzero(bad)
            problems.append(Problem(
                f"{SETUP_TAKES_WHOLE_SESSION} in the sweep's scenarios "
                + _scenarios_text(names, values, picked, where),
                path=f"options[{i}].free_tier.setup_minutes"))
    if problems:
        raise UserError(problems)


def _overflow_error(model, names, values, picked) -> UserError:
    """The scenarios whose costs leave the float range (absurd values on an axis), as a user
    error naming the first few of them by their axis values."""
    count = picked[0].size
    bad = np.zeros(count, dtype=bool)
    for rows in overflowed(model, count).values():
        bad |= rows
    where = np.flatnonzero(bad) if bad.any() else np.arange(min(count, 1))
    return UserError([Problem(
        too_large_message(_scenarios_text(names, values, picked, where)),
        path=names[0] if len(names) == 1 else "")])


def _field(model, o, field: str, rows: int) -> np.ndarray:
    card = model.cards[o.name]
    if field == "gpus":
        gpus = card.gpu_count if o.kind == "own" else card.gpus
        return np.broadcast_to(np.asarray(gpus, dtype=float)[:, 0], (rows,))
    value = getattr(o, field)
    if value is None:
        return np.full(rows, np.nan)
    return np.broadcast_to(np.asarray(value, dtype=float if field != "feasible" else bool),
                           (rows,))
