"""Rules of the ``uncertainty`` map (SPEC §7) that need the rest of the file.

Each input's path must name a number of the file (as in ``Plan.replace``); each distribution
takes its own parameters, which agree with each other (low ≤ mode ≤ high, sd ≥ 0, …) and leave
some value in the key's valid range to draw; correlations name two listed inputs and together
form a valid correlation matrix. Problems are found on the plain data and located at the key
they concern.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np

from planner.errors import Problem, UserError, closest
from planner.usage.paths import canonical_path
from planner.usage.ranges import NumberRange, number_range
from planner.usage.rules import rule_range
from planner.usage.uncertainty import DISTRIBUTIONS
from planner.usage.vocabulary import EXCLUSIVE_DEMAND_KEYS

BASE = "uncertainty"


def uncertainty_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every broken rule of ``data``'s uncertainty map (shape problems are the schema's)."""
    block = data.get(BASE)
    if not isinstance(block, Mapping):
        return []
    inputs = block.get("inputs")
    problems: list[Problem] = []
    if isinstance(inputs, Mapping):
        if not inputs:
            problems.append(Problem("list at least one input to draw", path=f"{BASE}.inputs"))
        for name, spec in inputs.items():
            problems += _input_problems(data, str(name), spec)
        problems += _demand_form_problems([str(n) for n in inputs])
    correlations = block.get("correlations")
    if isinstance(correlations, list) and isinstance(inputs, Mapping):
        problems += _correlation_problems(correlations, [str(n) for n in inputs])
    return problems


def input_range(data: Mapping[str, Any], name: str) -> NumberRange | None:
    """The valid range of the key that the input ``name`` draws (None: not a number): the
    schema's, narrowed by the rules that bound the key through other keys
    (:func:`planner.usage.rules.rule_range`), so that no draw is invalid."""
    keys = canonical_path(data, name)
    valid = number_range(data, keys)
    return None if valid is None else rule_range(data, keys, valid)


def _input_problems(data: Mapping[str, Any], name: str, spec: Any) -> list[Problem]:
    here = f"{BASE}.inputs.{name}"
    try:
        valid = input_range(data, name)
    except UserError as error:
        return [Problem(f"no key to draw: {p.message}", path=here, at="key",
                        suggestion=p.suggestion) for p in error.problems]
    if valid is None:
        return [Problem(f"{name} holds no number, so it cannot be drawn", path=here, at="key")]
    kind = spec.get("distribution") if isinstance(spec, Mapping) else None
    if not isinstance(kind, str) or kind not in DISTRIBUTIONS:
        return []  # the schema says what is wrong
    wanted = DISTRIBUTIONS[kind]
    problems = [Problem(f"a {kind} distribution takes {_listed(wanted)}, not {key}",
                        path=f"{here}.{key}", at="key")
                for key, value in spec.items()
                if key != "distribution" and key not in wanted and value is not None]
    missing = [p for p in wanted if spec.get(p) is None]
    if missing:
        problems.append(Problem(f"a {kind} distribution needs {_listed(missing)}", path=here,
                                at="key"))
    values = {p: spec[p] for p in wanted if _finite(spec.get(p))}
    for p in wanted:
        if p in spec and spec[p] is not None and p not in values and _real(spec[p]):
            problems.append(Problem(f"must be a finite number, got {spec[p]}",
                                    path=f"{here}.{p}"))
    if problems or len(values) < len(wanted):
        return problems
    return _parameter_problems(kind, values, here, valid)


def _parameter_problems(kind: str, values: dict[str, float], here: str,
                        valid: NumberRange) -> list[Problem]:
    if kind in ("uniform", "triangular", "pert"):
        low, high = values["low"], values["high"]
        if low > high:
            return [Problem(f"low ({low:g}) is above high ({high:g})", path=f"{here}.low")]
        if "mode" in values and not low <= values["mode"] <= high:
            return [Problem(f"mode ({values['mode']:g}) lies outside low..high "
                            f"({low:g}..{high:g})", path=f"{here}.mode")]
        if not _overlaps(low, high, valid):
            return [Problem(f"no value from {low:g} to {high:g} is valid here: the key must be "
                            f"{valid.text()}", path=here, at="key")]
        return []
    spread, centre = ("sd", "mean") if kind == "normal" else ("sigma", "median")
    if values[spread] < 0:
        return [Problem(f"must be at least 0, got {values[spread]:g}", path=f"{here}.{spread}")]
    if kind == "lognormal" and values["median"] <= 0:
        return [Problem(f"must be greater than 0, got {values['median']:g}",
                        path=f"{here}.median")]
    if values[spread] == 0 and not valid.admits(values[centre]):
        return [Problem(f"with no spread every draw is {values[centre]:g}, but the key must be "
                        f"{valid.text()}", path=f"{here}.{centre}")]
    if kind == "lognormal" and valid.high <= 0:
        return [Problem(f"a lognormal draws only positive values, but the key must be "
                        f"{valid.text()}", path=here, at="key")]
    return []


def _overlaps(low: float, high: float, valid: NumberRange) -> bool:
    """Whether [low, high] holds a valid value (for a whole-number key, a whole one near it:
    draws are rounded to the nearest whole number)."""
    if low == high:
        value = round(low) if valid.integer else low
        return valid.admits(value)
    lo = max(low, valid.low)
    hi = min(high, valid.high)
    if lo > hi or (lo == hi and not valid.admits(lo)):
        return False
    if valid.integer:
        return any(valid.admits(v) for v in (math.floor(lo + 0.5), math.ceil(hi - 0.5)))
    return True


def _demand_form_problems(names: list[str]) -> list[Problem]:
    """Two forms of one demand key drawn together (the second would replace the first)."""
    problems = []
    for group in EXCLUSIVE_DEMAND_KEYS:
        drawn = [n for n in names if n in {f"demand.{key}" for key in group}]
        if len(drawn) > 1:
            problems.append(Problem(f"{drawn[0]} and {drawn[1]} are two forms of one input; "
                                    "draw one of them", path=f"{BASE}.inputs.{drawn[1]}",
                                    at="key"))
    return problems


def _correlation_problems(entries: list[Any], names: list[str]) -> list[Problem]:
    problems = []
    index = {name: i for i, name in enumerate(names)}
    matrix = np.eye(len(names))
    seen: set[frozenset[str]] = set()
    for k, entry in enumerate(entries):
        here = f"{BASE}.correlations[{k}]"
        if not isinstance(entry, Mapping):
            continue
        pair = entry.get("inputs")
        rank = entry.get("rank")
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str)
                                                                    for p in pair)):
            continue
        unknown = [p for p in pair if p not in index]
        for j, p in enumerate(pair):
            if p in unknown:
                problems.append(Problem(f"'{p}' is not one of uncertainty.inputs",
                                        path=f"{here}.inputs[{j}]",
                                        suggestion=closest(p, names)))
        if unknown:
            continue
        if pair[0] == pair[1]:
            problems.append(Problem("a correlation is between two different inputs",
                                    path=f"{here}.inputs"))
            continue
        if frozenset(pair) in seen:
            problems.append(Problem(f"{pair[0]} and {pair[1]} are correlated twice",
                                    path=f"{here}.inputs"))
            continue
        seen.add(frozenset(pair))
        if _finite(rank) and -1 <= rank <= 1:
            a, b = index[pair[0]], index[pair[1]]
            matrix[a, b] = matrix[b, a] = copula_correlation(rank)
    if not problems and seen and not positive_semidefinite(matrix):
        problems.append(Problem("these rank correlations contradict each other (no set of "
                                "draws can have them all); weaken some of them",
                                path=f"{BASE}.correlations"))
    return problems


def copula_correlation(rank: float) -> float:
    """The correlation of a Gaussian copula whose draws have Spearman rank correlation
    ``rank``: 2 sin(π ρ / 6) (Pearson's formula for the normal distribution)."""
    return 2.0 * math.sin(math.pi * rank / 6.0)


def positive_semidefinite(matrix: np.ndarray) -> bool:
    """Whether ``matrix`` (symmetric) is a correlation matrix some draws can have."""
    return bool(np.linalg.eigvalsh(matrix).min() >= -1e-10)


def _listed(names: tuple[str, ...] | list[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _finite(value: Any) -> bool:
    return _real(value) and math.isfinite(value)
