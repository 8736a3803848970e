"""A plan evaluated on draws of its uncertain inputs (SPEC §7).

The draws are made once, all of them (:func:`planner.engine.draws.draw`), and evaluated as one
zip sweep: the same array engine, chunks and break-even as any sweep. The summary follows
SPEC §7: the share of draws in which each option is the cheapest, each option's feasible share
and percentiles of present value and total cost over the draws in which it is feasible, and
for each break-even pair of the plan the share of draws in which buying pays off and the
percentiles of its months.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from planner.cards.resolve import resolve
from planner.engine.draws import Input, draw
from planner.engine.drivers import first_order_indices
from planner.engine.figures import compute
from planner.errors import Problem, UserError
from planner.evaluate.progress import sweep_progress
from planner.evaluate.sweep import MAX_SCENARIOS, axis_indices, run_sweep
from planner.usage.paths import canonical_path, set_path
from planner.usage.uncertainty_rules import copula_correlation, input_range

#: Percentiles of SPEC §7, numpy's default (linear) method.
PERCENTILES = (5, 50, 95)
#: The most draws the cumulative bands are computed from (all months of all options at once):
#: the first ones, which, the rows of a Latin hypercube being in random order, are a random
#: sample of all of them.
BAND_DRAWS = 20_000


@dataclass
class Draws:
    """The draws of a plan's uncertain inputs: ``names`` (their dotted paths, in file order)
    and ``values`` (samples, inputs)."""

    names: list[str]
    values: np.ndarray
    samples: int
    seed: int
    items: list[Input] = field(default_factory=list)


def plan_inputs(usage: Mapping[str, Any]) -> tuple[list[str], list[Input], np.ndarray | None]:
    """The uncertain inputs of validated usage data: their paths, distributions with their
    keys' valid ranges, and the copula's correlation matrix (None when all are independent)."""
    block = usage["uncertainty"]
    names = list(block["inputs"])
    items = []
    for name in names:
        spec = block["inputs"][name]
        valid = input_range(usage, name)
        parameters = {k: float(v) for k, v in spec.items()
                      if k != "distribution" and v is not None}
        items.append(Input(spec["distribution"], parameters, valid.low, valid.high,
                           valid.low_open, valid.integer))
    correlation = None
    for entry in block.get("correlations") or []:
        if correlation is None:
            correlation = np.eye(len(names))
        a, b = (names.index(p) for p in entry["inputs"])
        correlation[a, b] = correlation[b, a] = copula_correlation(float(entry["rank"]))
    return names, items, correlation


def make_draws(usage: Mapping[str, Any]) -> Draws:
    """The draws the file's ``uncertainty`` map asks for."""
    block = usage["uncertainty"]
    names, items, correlation = plan_inputs(usage)
    samples, seed = int(block.get("samples", 10_000)), int(block.get("seed", 0))
    return Draws(names, draw(items, samples, seed, correlation), samples, seed, items)


def draw_frame(plan, draws: Draws, *, chunk_size: int | None = None,
               **sweep: Any) -> pd.DataFrame:
    """The sweep of the draws: one row per (draw, option), as :meth:`planner.Plan.sweep`
    without the draws' own shares (``sweep`` passes executor and progress on)."""
    axes = {name: draws.values[:, k] for k, name in enumerate(draws.names)}
    sweep.setdefault("progress", sweep_progress(None))
    # SPEC §7 needs the break-even months, not the break-even usage: the level search is
    # skipped (the months are computed either way). Only the columns the summary reads are
    # kept: a million draws of four options hold some 60 bytes a row, not 300.
    return run_sweep(plan, axes, mode="zip", chunk_size=chunk_size, break_even=False,
                     fields=_fields_read(plan, "present_value", "total_cost"), **sweep)


def _fields_read(plan, *more: str) -> list[str]:
    """The sweep columns the draws' figures are read from: feasibility, the break-even
    months against every option, and ``more``."""
    return ["feasible", *more,
            *(f"break_even.{o['name']}.months" for o in plan.usage["options"])]


def scenario_shares(plan, axes: Mapping[str, Any], mode: str, **sweep: Any) -> pd.DataFrame:
    """SPEC §7 for a sweep of an uncertain plan: in every scenario of ``axes``, the plan's
    draws (the same for every scenario; a swept key is not drawn). One row per (scenario,
    option): ``uncertainty.cheapest_share`` and ``uncertainty.feasible_share`` of the draws,
    and on own rows ``uncertainty.pays_off_share.<versus>`` (among the draws in which both
    are feasible). Evaluated as one zip sweep of scenarios × draws."""
    draws = make_draws(plan.usage)
    names = list(axes)
    values = [list(axes[name]) for name in names]
    sizes = [len(v) for v in values]
    total = sizes[0] if mode == "zip" else int(np.prod(sizes, dtype=object))
    n = draws.samples
    if total * n > MAX_SCENARIOS:
        raise UserError([Problem(
            f"a sweep of an uncertain plan evaluates its {total:,} scenarios × "
            f"{n:,} draws = {total * n:,}; the limit is {MAX_SCENARIOS:,} (lower "
            f"uncertainty.samples or the number of scenarios)", path="uncertainty.samples")])
    swept = {tuple(canonical_path(plan.usage, name)) for name in names}
    combined: dict[str, Any] = {}
    for name, vals, idx in zip(names, values, axis_indices(sizes, mode, total)):
        column = np.empty(len(vals), dtype=object)
        column[:] = vals
        picked = column[idx]
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
            picked = picked.astype(float)
        combined[name] = np.repeat(picked, n)
    for k, name in enumerate(draws.names):
        if tuple(canonical_path(plan.usage, name)) not in swept:
            combined[name] = np.tile(draws.values[:, k], total)
    sweep.setdefault("progress", sweep_progress(None))
    big = run_sweep(plan, combined, mode="zip", break_even=False,
                    fields=_fields_read(plan, "kind"), **sweep)
    return _shares(big, total, n)


def _shares(big: pd.DataFrame, total: int, n: int) -> pd.DataFrame:
    """Per (scenario, option) the shares of :func:`scenario_shares` from the sweep ``big`` of
    ``total`` scenarios × ``n`` draws."""
    options = list(big["option"].cat.categories)
    k = len(options)
    order = np.argsort(big["scenario"].to_numpy() * k + big["option"].cat.codes.to_numpy(),
                       kind="stable")
    big = big.iloc[order]
    feasible = big["feasible"].to_numpy(bool).reshape(total, n, k)
    codes = big["cheapest"].cat.codes.to_numpy().reshape(total, n, k)[:, :, 0]
    out = {"scenario": np.repeat(np.arange(total), k),
           "option": np.tile(np.arange(k), total),
           "uncertainty.cheapest_share": np.stack(
               [(codes == j).mean(axis=1) for j in range(k)], axis=1).ravel(),
           "uncertainty.feasible_share": feasible.mean(axis=1).ravel()}
    kinds = big["kind"].to_numpy().reshape(total, n, k)[0, 0]
    for j, versus in enumerate(options):
        column = f"break_even.{versus}.months"
        if column not in big:
            continue
        months = big[column].to_numpy(float).reshape(total, n, k)
        share = np.full((total, k), np.nan)
        for i in range(k):
            if kinds[i] != "own" or i == j:
                continue
            both = feasible[:, :, i] & feasible[:, :, j]
            pays = both & ~np.isnan(months[:, :, i])
            with np.errstate(invalid="ignore", divide="ignore"):
                share[:, i] = np.where(both.any(axis=1), pays.sum(axis=1) / both.sum(axis=1),
                                       np.nan)
        out[f"uncertainty.pays_off_share.{versus}"] = share.ravel()
    frame = pd.DataFrame(out)
    frame["option"] = pd.Categorical.from_codes(frame["option"], categories=options)
    return frame


def summary(frame: pd.DataFrame, draws: Draws, options: list[str],
            pairs: list[tuple[str, str]],
            headline: tuple[str, str] | None = None) -> dict[str, Any]:
    """The ``uncertainty`` object of SPEC §7 from the draws' sweep ``frame``, with the
    ``drivers`` of the ``headline`` pair's difference in present value (own − versus)."""
    n = draws.samples
    by_option = {name: frame[frame["option"] == name].sort_values("scenario")
                 for name in options}
    cheapest = frame.drop_duplicates("scenario")["cheapest"]
    counts = cheapest.value_counts()
    result: dict[str, Any] = {
        "samples": n, "seed": draws.seed,
        "cheapest_share": {name: float(counts.get(name, 0)) / n for name in options},
        "options": [],
        "break_even": [],
    }
    for name in options:
        rows = by_option[name]
        feasible = rows["feasible"].to_numpy(bool)
        result["options"].append({
            "name": name,
            "feasible_share": float(feasible.mean()) if n else 0.0,
            "present_value": _statistics(rows["present_value"].to_numpy(float)[feasible]),
            "total_cost": _statistics(rows["total_cost"].to_numpy(float)[feasible]),
        })
    for own, versus in pairs:
        both = (by_option[own]["feasible"].to_numpy(bool)
                & by_option[versus]["feasible"].to_numpy(bool))
        months = by_option[own][f"break_even.{versus}.months"].to_numpy(float)[both]
        pays = months[~np.isnan(months)]
        result["break_even"].append({
            "own": own, "versus": versus,
            "pays_off_share": float(pays.size / months.size) if months.size else None,
            "months": (dict(zip(("p5", "p50", "p95"), _percentiles(pays)))
                       if pays.size else None),
        })
    result["drivers"] = drivers(by_option, draws, headline)
    return result


def drivers(by_option: dict[str, pd.DataFrame], draws: Draws,
            headline: tuple[str, str] | None) -> dict[str, Any] | None:
    """Which inputs drive the spread of the headline pair's difference in present value
    (own − versus, over the draws in which both are feasible): each input's first-order
    Sobol' index, the largest first (:func:`planner.engine.drivers.first_order_indices`).
    None without a pair, or with fewer than 100 such draws."""
    if headline is None:
        return None
    own, versus = (by_option[name] for name in headline)
    both = own["feasible"].to_numpy(bool) & versus["feasible"].to_numpy(bool)
    if both.sum() < 100:
        return None
    difference = (own["present_value"].to_numpy(float)
                  - versus["present_value"].to_numpy(float))[both]
    indices = first_order_indices(draws.values[both], difference)
    order = np.argsort(-indices, kind="stable")
    return {"own": headline[0], "versus": headline[1],
            "inputs": [{"input": draws.names[k], "first_order": float(indices[k])}
                       for k in order]}


def _percentiles(values: np.ndarray) -> list[float]:
    return [float(v) for v in np.percentile(values, PERCENTILES)]


def _statistics(values: np.ndarray) -> dict[str, float] | None:
    """Mean and percentiles (None over no draws)."""
    if values.size == 0:
        return None
    p5, p50, p95 = _percentiles(values)
    # The mean as the first draw plus the mean of the deviations from it: as accurate as
    # numpy's, and exactly the value itself when every draw gives one value (a degenerate
    # distribution), where a plain sum of n equal floats, divided by n, may miss it by a unit
    # in the last place.
    shift = values.flat[0]
    return {"mean": float(shift + (values - shift).mean()), "p5": p5, "p50": p50, "p95": p95}


def cumulative_bands(plan, draws: Draws) -> dict[str, dict[str, list[float]] | None]:
    """Per option, the P5, P50 and P95 over the draws in which it is feasible of its
    cumulative nominal cost at the end of each month 0..T (monthly_cost summed; residual value
    not counted, as in §5.6), None where it is feasible in no draw. The first
    :data:`BAND_DRAWS` draws at once, through the engine.

    The bands run over the plan's own months: a drawn ``horizon_months`` is held at the plan's
    value here (one set of months for every draw; the other inputs vary as drawn), while the
    draws' figures (:func:`draw_frame`) use each draw's own horizon."""
    usage: dict[str, Any] = dict(plan.usage)
    for k, name in enumerate(draws.names):
        if name != "horizon_months":
            # As Plan.replace sets it: a drawn demand form replaces the file's other one.
            usage = set_path(usage, name, draws.values[:BAND_DRAWS, k])
    with np.errstate(over="ignore"):
        figures = compute(resolve(usage, plan.catalog).model, break_even=False)
    bands: dict[str, dict[str, list[float]] | None] = {}
    n = min(draws.samples, BAND_DRAWS)
    for o in figures.options:
        monthly = o.flows.monthly_cost
        feasible = np.broadcast_to(o.feasible, (n,))
        cumulative = np.cumsum(np.broadcast_to(monthly, (n, monthly.shape[1])), axis=1)
        kept = cumulative[feasible]
        if kept.shape[0] == 0 or not np.isfinite(kept).all():
            bands[o.name] = None
            continue
        p5, p50, p95 = np.percentile(kept, PERCENTILES, axis=0)
        bands[o.name] = {"p5": p5.tolist(), "p50": p50.tolist(), "p95": p95.tolist()}
    return bands


def uncertainty(plan, data: Mapping[str, Any],
                headline: tuple[str, str] | None = None) -> dict[str, Any] | None:
    """SPEC §7's object for ``plan`` whose undrawn result is ``data`` (SPEC §2), or None
    without an ``uncertainty`` map; ``headline`` is the pair whose drivers are ranked."""
    if not plan.usage.get("uncertainty"):
        return None
    draws = make_draws(plan.usage)
    frame = draw_frame(plan, draws)
    options = [row["name"] for row in data["options"]]
    pairs = [(row["own"], row["versus"]) for row in data["break_even"]]
    block = summary(frame, draws, options, pairs, headline)
    block["cumulative_cost"] = cumulative_bands(plan, draws)
    return block
