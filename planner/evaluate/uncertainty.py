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

from planner.engine.draws import Input, draw
from planner.engine.drivers import first_order_indices
from planner.usage.uncertainty_rules import copula_correlation, input_range

#: Percentiles of SPEC §7, numpy's default (linear) method.
PERCENTILES = (5, 50, 95)


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


def draw_frame(plan, draws: Draws, *, chunk_size: int | None = None) -> pd.DataFrame:
    """The sweep of the draws: one row per (draw, option), as :meth:`planner.Plan.sweep`."""
    axes = {name: draws.values[:, k] for k, name in enumerate(draws.names)}
    kwargs = {} if chunk_size is None else {"chunk_size": chunk_size}
    return plan.sweep(axes, mode="zip", **kwargs)


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
    return {"mean": float(values.mean()), "p5": p5, "p50": p50, "p95": p95}


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
    return summary(frame, draws, options, pairs, headline)
