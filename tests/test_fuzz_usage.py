"""Fuzzing the usage.yaml boundary and the evaluation with hypothesis (issue 5).

Generated usage documents, valid ones and mutated ones (wrong types, missing and extra keys,
0, negative, 1e308, NaN, infinity, unicode, deep nesting, long lists), given as a dict and as
YAML text, go through loading and evaluation. Each must end in one of two ways:

- a :class:`~planner.errors.UserError` whose every problem is located (a key path; a line and
  column when the input was YAML text), or
- a result whose numbers are all finite and keep the invariants of SPEC §2 and §5 (checked by
  :func:`check_result`).

Anything else (another exception, a NaN, a broken invariant, a numerical warning) is a bug.

Example counts: each test sets its own ``max_examples`` through :func:`budget`, so that the
suite runs a known number of generated inputs in CI (``HYPOTHESIS_PROFILE=ci``, derandomized);
``HYPOTHESIS_PROFILE=deep`` multiplies every budget by ten for an occasional long run. The
strategies are shared with ``test_fuzz_outputs.py``.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import planner
from planner.engine.shares import NONE_SERVED
from planner.errors import UserError
from planner.usage.load import load_usage, load_usage_text
from planner.usage.vocabulary import MAX_HORIZON_MONTHS

# -- example budgets ----------------------------------------------------------------------

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
#: The deep profile runs every fuzz test this many times longer.
DEEP_FACTOR = 10


def budget(examples: int, **extra: Any) -> settings:
    """Settings for a fuzz test that runs ``examples`` inputs (ten times as many, and at least
    the profile's own count, under ``HYPOTHESIS_PROFILE=deep``); ``extra`` settings are added.
    Everything else (derandomize, database) comes from the loaded profile."""
    if PROFILE == "deep":
        examples = max(examples * DEEP_FACTOR, settings().max_examples)
    return settings(
        max_examples=examples, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.filter_too_much, HealthCheck.large_base_example],
        **extra,
    )


# Numerical warnings (overflow, invalid value, division by zero) are bugs in the fuzz tests.
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

# -- strategies: valid documents ------------------------------------------------------------

CATALOG_GPUS = ["t4", "l4", "a100-80gb", "h100-80gb", "rtx-4090", "rtx-a6000", "v100-16gb"]
CATALOG_CLOUDS = ["gcp/a2-highgpu-1g", "gcp/a3-highgpu-8g", "aws/p4d.24xlarge", "aws/g5.xlarge",
                  "lambda/gpu_1x_a100"]
CATALOG_TIERS = ["kaggle", "colab-free", "colab-pro", "sagemaker-studio-lab", "paperspace-free"]
PRICINGS = ["on_demand", "spot", "reserved_1y", "reserved_3y"]

#: Texts that have broken report writers elsewhere: markup, CSV formulas, table pipes,
#: right-to-left marks, astral characters, quotes, control characters.
NASTY_TEXT = ["<script>alert(1)</script>", "=HYPERLINK(\"x\")", "a|b", "\u202eevil", "😀 GPU",
              "名前", "'\"", "tab\there", "new\nline", "back\\slash", "{{ title }}", "%s%d",
              "null", "1e6", " leading", "x" * 300]


# The strategy helpers are cached: the composites below ask for the same strategies at every
# draw, and a strategy made once is validated once (a new one_of is checked again at each
# draw). Generating a document took 15 to 28 % less time for it (measured at load 1.4 and 8);
# the documents drawn are the same.
@functools.lru_cache(maxsize=512, typed=True)
def _finite(low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


@functools.lru_cache(maxsize=None, typed=True)
def _sampled(*values: Any) -> st.SearchStrategy[Any]:
    """``st.sampled_from(values)``, made once (Hypothesis caches no ``sampled_from``)."""
    return st.sampled_from(values)


@functools.cache
def _either(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``st.one_of(strategies)``, made once (the strategies must be made once too)."""
    return st.one_of(*strategies)


@functools.lru_cache(maxsize=None, typed=True)
def amounts(high: float = 1e6) -> st.SearchStrategy[float | int]:
    """Non-negative numbers: ints and floats, with the edges (0, tiny, the top) often."""
    return st.one_of(st.sampled_from([0, 0.0, 1e-9, 1, high]), st.integers(0, int(high)),
                     _finite(0, high))


@functools.lru_cache(maxsize=None, typed=True)
def fractions() -> st.SearchStrategy[float | int]:
    return st.one_of(st.sampled_from([0, 1, 0.5, 1e-12, 1 - 1e-12]), _finite(0, 1))


texts = st.one_of(st.sampled_from(NASTY_TEXT),
                  st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20))
names = st.one_of(st.sampled_from([t for t in NASTY_TEXT if "." not in t]),
                  st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="."),
                          min_size=1, max_size=16))


#: A percentage, for coin flips of a given probability: an integer draw costs Hypothesis less
#: than a float's.
_PERCENT = st.integers(0, 99)


def _maybe(draw, key: str, strategy, out: dict, p: float = 0.5) -> None:
    if draw(_PERCENT) < round(100 * p):
        out[key] = draw(strategy)


@st.composite
def demands(draw) -> dict[str, Any]:
    form = draw(_sampled("gpu_hours_per_month", "gpu_hours_per_week", "utilization",
                         "flops_per_month"))
    demand: dict[str, Any] = {}
    if form in ("gpu_hours_per_month", "gpu_hours_per_week"):
        demand[form] = draw(amounts(1e6 if form == "gpu_hours_per_month" else 2e5))
    elif form == "utilization":
        demand[form] = draw(fractions())
    else:
        demand[form] = draw(_either(_sampled(0), _finite(0, 1e23)))
        _maybe(draw, "flops_efficiency", _finite(1e-6, 1), demand)
    _maybe(draw, "gpus", st.integers(1, 16), demand)
    _maybe(draw, "reference_gpu", _sampled(*CATALOG_GPUS), demand, 0.3)
    _maybe(draw, "workload", _sampled("cv", "nlp", "llm", "generic", "other"), demand, 0.2)
    _maybe(draw, "min_gpu_memory_gb", _sampled(0, 8, 16, 40, 80, 200), demand, 0.3)
    growth = draw(_sampled("growth_per_year", "growth_per_month"))
    if growth == "growth_per_year":
        _maybe(draw, growth, _either(_sampled(-1, 0, 1, 10), _finite(-1, 3)),
               demand, 0.4)
    else:
        _maybe(draw, growth, _either(_sampled(-1, 0, 0.2, 1), _finite(-1, 0.25)),
               demand, 0.4)
    _maybe(draw, "job_hours", _either(_sampled(1e-6), _finite(0.01, 200)), demand, 0.3)
    _maybe(draw, "checkpoint_minutes", _finite(0.1, 600), demand, 0.2)
    _maybe(draw, "data_gb", amounts(1e5), demand, 0.3)
    _maybe(draw, "precision", _sampled("mixed", "fp32"), demand, 0.1)
    _maybe(draw, "framework", _sampled("pytorch", "jax", "paddlepaddle"), demand, 0.1)
    _maybe(draw, "parallelism", _sampled("data", "independent"), demand, 0.15)  # §8
    return demand


# SPEC §8, jobs on several GPUs: a fraction in (0, 1] (its ends too) or auto; documents()
# drops it where demand.parallelism is independent, and keeps auto to options whose GPU (or
# catalog instance, system or tier) the interconnects table knows.
SCALING_EFFICIENCIES = _either(_sampled(1, 1e-9, 0.5, "auto"), _finite(1e-6, 1))


def _scaling_rules(entry: dict[str, Any], demand: dict[str, Any]) -> None:
    if "scaling_efficiency" not in entry:
        return
    if demand.get("parallelism") == "independent":
        del entry["scaling_efficiency"]
        return
    spec = entry.get("cloud", entry.get("own", entry.get("free_tier")))
    known = isinstance(spec, str) or (isinstance(spec, dict) and (spec.get("gpu")
                                                                  or spec.get("system")))
    if entry["scaling_efficiency"] == "auto" and not known:
        entry["scaling_efficiency"] = 0.9


@st.composite
def cloud_options(draw) -> dict[str, Any]:
    pricing = draw(_sampled(*PRICINGS))
    entry: dict[str, Any] = {}
    if draw(st.booleans()):
        entry["cloud"] = draw(_sampled(*CATALOG_CLOUDS))
    else:
        spec: dict[str, Any] = {"price_per_hour": draw(amounts(1e3))}
        for key in ("spot_price_per_hour", "reserved_1y_price_per_hour",
                    "reserved_3y_price_per_hour"):
            needed = key.startswith(pricing.split("_")[0]) and pricing != "on_demand"
            _maybe(draw, key, amounts(1e3), spec, 0.95 if needed else 0.2)
        _maybe(draw, "gpus", st.integers(1, 16), spec)
        _maybe(draw, "gpu", _sampled(*CATALOG_GPUS), spec, 0.4)
        _maybe(draw, "gpu_memory_gb", _finite(1, 200), spec, 0.3)
        _maybe(draw, "peak_tflops", _finite(1, 2000), spec, 0.3)
        _maybe(draw, "provider", texts, spec, 0.1)
        entry["cloud"] = spec
    entry["pricing"] = pricing
    if pricing.startswith("reserved"):
        _maybe(draw, "reserved_instances", _either(
            st.integers(0, 5), _sampled("per_term"),
            st.lists(st.integers(0, 5), min_size=1, max_size=4)), entry, 0.4)
    _maybe(draw, "relative_speed", _finite(0.01, 10), entry, 0.3)
    _maybe(draw, "billing_increment_minutes", _sampled(0, 1, 60, 0.5, 1440), entry, 0.3)
    _maybe(draw, "interruptions_per_hour", _either(_sampled(0), _finite(0, 2)), entry, 0.3)
    _maybe(draw, "restart_minutes", _finite(0, 60), entry, 0.2)
    _maybe(draw, "storage_per_gb_month", _finite(0, 0.5), entry, 0.2)
    _maybe(draw, "scaling_efficiency", SCALING_EFFICIENCIES, entry, 0.2)  # SPEC §8
    return entry


@st.composite
def own_options(draw) -> dict[str, Any]:
    own: dict[str, Any] = {}
    if draw(st.booleans()):
        own["gpu"] = draw(_sampled(*CATALOG_GPUS))
        _maybe(draw, "purchase_price", amounts(1e6), own, 0.3)
        _maybe(draw, "system", _sampled("workstation-1gpu", "server-8gpu-sxm"), own, 0.2)
    else:
        own["purchase_price"] = draw(amounts(1e6))
        own["power_watts"] = draw(amounts(2e4))
        _maybe(draw, "gpu_memory_gb", _finite(1, 200), own, 0.5)
        _maybe(draw, "peak_tflops", _finite(1, 2000), own, 0.5)
    _maybe(draw, "gpu_count", st.integers(1, 16), own)
    _maybe(draw, "lifetime_years", _either(_sampled(0.01, 1 / 24, 1, 4), _finite(0.01, 20)),
           own)
    _maybe(draw, "resale_fraction", fractions(), own, 0.4)
    _maybe(draw, "idle_power_watts", amounts(2000), own, 0.3)
    _maybe(draw, "always_on", st.booleans(), own, 0.3)
    _maybe(draw, "maintenance_per_year", amounts(1e5), own, 0.3)
    _maybe(draw, "fixed_cost_per_month", amounts(1e4), own, 0.3)
    _maybe(draw, "operating_cost_per_hour", amounts(10), own, 0.2)
    _maybe(draw, "availability", fractions(), own, 0.3)
    if draw(_PERCENT) < 25:
        financing: dict[str, Any] = {"annual_rate": draw(_finite(0, 1)),
                                     "months": draw(st.integers(1, 240))}
        _maybe(draw, "down_payment", amounts(1e6), financing)
        own["financing"] = financing
    # SPEC §6; documents() keeps 0 machines and a late purchase to options with an overflow,
    # and the purchase month inside the horizon.
    _maybe(draw, "machines", _either(st.integers(0, 4), _sampled("auto")), own, 0.3)
    _maybe(draw, "purchase_month", st.integers(0, 24), own, 0.25)
    entry: dict[str, Any] = {"own": own}
    _maybe(draw, "relative_speed", _finite(0.01, 10), entry, 0.3)
    _maybe(draw, "scaling_efficiency", SCALING_EFFICIENCIES, entry, 0.2)  # SPEC §8
    return entry


@st.composite
def free_tier_options(draw) -> dict[str, Any]:
    if draw(st.booleans()):
        entry: dict[str, Any] = {"free_tier": draw(_sampled(*CATALOG_TIERS))}
    else:
        tier: dict[str, Any] = {}
        _maybe(draw, "gpu", _sampled(*CATALOG_GPUS), tier, 0.4)
        _maybe(draw, "gpus", st.integers(1, 8), tier, 0.3)
        _maybe(draw, "gpu_memory_gb", _finite(1, 80), tier, 0.3)
        _maybe(draw, "peak_tflops", _finite(1, 500), tier, 0.3)
        session = draw(_either(_sampled(None), _finite(0.1, 48)))
        if session is not None:
            tier["session_hours"] = session
            _maybe(draw, "setup_minutes", _finite(0, session * 60 * 0.99), tier, 0.4)
        for key in ("weekly_quota_hours", "daily_quota_hours", "monthly_quota_hours"):
            _maybe(draw, key, amounts(200), tier, 0.3)
        _maybe(draw, "fee_per_month", amounts(100), tier, 0.2)
        _maybe(draw, "availability", fractions(), tier, 0.3)
        _maybe(draw, "files_persist", st.booleans(), tier, 0.2)
        _maybe(draw, "download_mb_per_s", _finite(0.1, 1000), tier, 0.2)
        entry = {"free_tier": tier}
    _maybe(draw, "relative_speed", _finite(0.01, 10), entry, 0.2)
    _maybe(draw, "scaling_efficiency", SCALING_EFFICIENCIES, entry, 0.2)  # SPEC §8
    return entry


OPTION_KINDS = st.one_of(cloud_options(), own_options(), free_tier_options())


@st.composite
def distributions(draw, low: float, high: float) -> dict[str, Any]:
    """One distribution of SPEC §7 whose parameters agree, around [low, high]."""
    kind = draw(_sampled("uniform", "triangular", "pert", "normal", "lognormal"))
    a, b = sorted(draw(st.lists(_finite(low, high), min_size=2, max_size=2)))
    if kind == "uniform":
        return {"distribution": kind, "low": a, "high": b}
    if kind in ("triangular", "pert"):
        return {"distribution": kind, "low": a, "mode": draw(_finite(a, b)), "high": b}
    if kind == "normal":
        return {"distribution": kind, "mean": a,
                "sd": draw(_either(_sampled(0), _finite(0, high)))}
    return {"distribution": kind, "median": max(b, 1e-3), "sigma": draw(_finite(0, 2))}


@st.composite
def uncertainties(draw, doc: dict[str, Any]) -> dict[str, Any]:
    """An uncertainty map drawing 1-3 numbers the document gives (few samples: each is a
    sweep of the plan)."""
    demand = doc["demand"]
    candidates = [(f"demand.{key}", 0.0, 2.0 * float(demand[key]) + 1.0)
                  for key in ("gpu_hours_per_month", "gpu_hours_per_week") if key in demand]
    candidates += [("demand.growth_per_year", -0.5, 2.0), ("discount_rate", 0.0, 0.3)]
    if "electricity_per_kwh" in doc.get("site", {}):
        candidates.append(("site.electricity_per_kwh", 0.0, 1.0))
    for option in doc["options"]:
        spec = option.get("own")
        if isinstance(spec, dict):
            candidates.append((f"options.{option['name']}.own.resale_fraction", 0.0, 1.0))
    chosen = draw(st.lists(st.sampled_from(candidates), min_size=1, max_size=3,
                           unique_by=lambda c: c[0]))
    if len({c[0] for c in chosen} & {"demand.gpu_hours_per_month",
                                     "demand.gpu_hours_per_week"}) > 1:
        chosen = chosen[:1]
    block: dict[str, Any] = {"samples": draw(st.integers(100, 200)),
                             "inputs": {path: draw(distributions(low, high))
                                        for path, low, high in chosen}}
    _maybe(draw, "seed", st.integers(0, 2**32), block, 0.5)
    if len(chosen) >= 2 and draw(st.booleans()):
        block["correlations"] = [{"inputs": [chosen[0][0], chosen[1][0]],
                                  "rank": draw(_finite(-1, 1))}]
    return block


@st.composite
def documents(draw, max_options: int = 4, longest: bool = False) -> dict[str, Any]:
    """A usage document that follows the schema (it may still be refused: an unknown price in
    the catalog, FLOPs demand without a peak, a currency without a rate). Horizons up to ten
    years; ``longest``: the longest horizon allowed (an evaluation takes 0.1-1 s)."""
    option_names = draw(st.lists(names, min_size=1, max_size=max_options, unique=True))
    options = []
    for i, name in enumerate(option_names):
        entry = draw(OPTION_KINDS)
        entry = {"name": name, **entry}
        later = option_names[i + 1:]  # targets only forward: no cycles
        key = "overflow" if "own" in entry else "fallback" if "free_tier" in entry else None
        if key and later and draw(st.booleans()):
            entry[key] = draw(st.sampled_from(later))
        options.append(entry)
    doc: dict[str, Any] = {"version": 1}
    _maybe(draw, "title", texts, doc, 0.3)
    if draw(_PERCENT) < 10:
        doc["currency"] = "EUR"
        _maybe(draw, "fx", st.just({"USD": 0.9}), doc, 0.7)
    if longest:
        doc["horizon_months"] = MAX_HORIZON_MONTHS
    else:
        _maybe(draw, "horizon_months", _either(_sampled(1, 12, 36), st.integers(1, 120)), doc,
               0.7)
    _maybe(draw, "hours_per_month", _either(_sampled(720, 730, 1e-3), _finite(1, 1000)), doc,
           0.2)
    _maybe(draw, "discount_rate", _either(_sampled(0), _finite(0, 2)), doc, 0.4)
    doc["demand"] = draw(demands())
    site: dict[str, Any] = {}
    if any("own" in o for o in options) or draw(st.booleans()):
        site["electricity_per_kwh"] = draw(_either(_sampled(0), _finite(0, 2)))
    _maybe(draw, "pue", _finite(1, 3), site, 0.3)
    _maybe(draw, "carbon_kg_per_kwh", _finite(0, 2), site, 0.3)
    if site or draw(st.booleans()):
        doc["site"] = site
    for entry in options:
        _fleet_rules(entry, doc.get("horizon_months", 36))
        _scaling_rules(entry, doc["demand"])
    doc["options"] = options
    if not longest and draw(_PERCENT) < 12:
        doc["uncertainty"] = draw(uncertainties(doc))
    # the best mix (SPEC §6, planner optimize): an own option, then a cloud option it may
    # overflow to
    if not longest and draw(_PERCENT) < 10:
        pairs = [(o["name"], c["name"]) for o in options for c in options
                 if "own" in o and "cloud" in c and o.get("overflow") in (None, c["name"])]
        if pairs:
            doc["mix"] = list(draw(st.sampled_from(pairs)))
    return doc


def _fleet_rules(entry: dict[str, Any], horizon: int) -> None:
    """SPEC §6's rules on a drawn own option: 0 machines and a purchase after month 0 need an
    overflow; the purchase month is at most T − 1."""
    own = entry.get("own")
    if not isinstance(own, dict):
        return
    if "purchase_month" in own:
        own["purchase_month"] = min(own["purchase_month"], horizon - 1)
    if entry.get("overflow") is None:
        if own.get("machines") == 0:
            own["machines"] = 1
        if own.get("purchase_month", 0) > 0:
            own["purchase_month"] = 0


# -- strategies: mutations --------------------------------------------------------------------

NAN, INF = float("nan"), float("inf")


def _nested(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


_weird_values = st.one_of(
    st.sampled_from([None, True, False, 0, -1, -0.0, 1e308, -1e308, 5e-324, NAN, INF, -INF,
                     10**30, -(10**30), "12", "1e6", "12%", "1,000", "$5", "", " ", "é", "\x00",
                     "yes", "<script>", [], {}, [1, 2], {"a": 1}, _nested(60), _nested(3),
                     list(range(5000)), "x" * 20_000]),
    st.integers(),
    st.floats(),
    st.text(max_size=10),
    st.lists(st.integers(), max_size=4),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
# Copies: a mutation must never change a value another example shares.
weird_values = _weird_values.map(copy.deepcopy)
extra_keys = st.one_of(st.sampled_from(["price", "gpu_hours", "own", "cloud", "free_tier",
                                        "overflow", "fallback", "pricing", "name", "version",
                                        "relative_speed", "purchase_price", "<<", "",
                                        "gpu_hours_per_week", "growth_per_month"]),
                       st.text(max_size=8))


def _paths(value: Any, here: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``value`` (the root too)."""
    out = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += _paths(inner, (*here, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            out += _paths(inner, (*here, i))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def mutated_documents(draw) -> dict[str, Any]:
    """A valid document with one to four things broken."""
    doc = copy.deepcopy(draw(documents()))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        how = draw(_sampled("replace", "replace", "replace", "delete", "extra", "wrap"))
        if not path:  # the root itself
            if how == "replace" and draw(st.booleans()):
                return draw(weird_values)
            how = "extra"
        parent = _get(doc, path[:-1]) if path else None
        target = _get(doc, path)
        if how == "replace":
            parent[path[-1]] = draw(weird_values)
        elif how == "delete":
            del parent[path[-1]]
        elif how == "wrap":
            parent[path[-1]] = draw(st.sampled_from([[target], {"value": target}]))
        elif isinstance(target, dict):
            target[draw(extra_keys)] = draw(weird_values)
        elif isinstance(target, list):
            target.append(draw(weird_values))
        else:
            parent[path[-1]] = {draw(extra_keys): target}
        event(f"mutation: {how}")
    return doc


# -- checks -----------------------------------------------------------------------------------


def check_problems(err: UserError, *, from_text: bool) -> None:
    """Every problem says what is wrong and where."""
    assert err.problems, "a UserError without problems"
    for problem in err.problems:
        assert isinstance(problem.message, str) and problem.message.strip(), problem
        assert isinstance(problem.path, str), problem
        text = str(problem)  # printable, as the command line prints it
        assert problem.message in text
        if from_text and (problem.path or problem.line is not None):
            # A problem of a key or value has its line and column; one of the whole file
            # (empty, too large, not UTF-8 at some byte) names the file, and a line if it has
            # one.
            assert problem.line is not None and problem.line >= 1, problem
            assert problem.column is not None and problem.column >= 1, problem
        elif from_text:
            assert problem.file, problem
        else:
            # Without a text there is no line; the key path says where (the root is "").
            assert problem.line is None or problem.line >= 1, problem


def _close(a: float, b: float, scale: float, rel: float = 1e-9) -> bool:
    return abs(a - b) <= rel * max(scale, 1.0)


def check_result(d: dict[str, Any]) -> None:
    """The result's invariants (SPEC §2, §5)."""
    text = json.dumps(d, allow_nan=False)  # raises on NaN or infinity
    assert json.loads(text) == d
    T = d["horizon_months"]
    assert isinstance(T, int) and T >= 1
    assert d["format_version"] == 1
    rows = {o["name"]: o for o in d["options"]}
    assert len(rows) == len(d["options"]), "option names are unique"
    for o in d["options"]:
        assert o["kind"] in ("cloud", "own", "free_tier")
        assert isinstance(o["feasible"], bool)
        if o["feasible"]:
            monthly = o["monthly_cost"]
            assert isinstance(monthly, list) and len(monthly) == T + 1
            assert all(isinstance(v, (int, float)) for v in monthly)
            total, residual = o["total_cost"], o["residual_value"]
            assert total is not None and o["present_value"] is not None
            assert residual is not None and residual >= -1e-9 * max(abs(total), 1)
            scale = sum(abs(v) for v in monthly) + abs(residual)
            assert _close(total, sum(monthly) - residual, scale), (total, sum(monthly), residual)
            if d["discount_rate"] == 0:
                assert _close(o["present_value"], total, scale)
            if o["cost_per_gpu_hour"] is not None:
                assert o["cost_per_gpu_hour"] * 1 == o["cost_per_gpu_hour"]
            for key in ("energy_kwh", "carbon_kg"):
                assert o[key] is None or o[key] >= 0
        else:
            assert o["reasons"], f"{o['name']} is infeasible without a reason"
            for key in ("total_cost", "present_value", "residual_value", "cost_per_gpu_hour",
                        "monthly_cost", "energy_kwh", "carbon_kg"):
                assert o[key] is None, (o["name"], key)
        assert o["gpu_hours_per_month"] is not None and o["gpu_hours_per_month"] >= 0
        assert o["unmet_gpu_hours_per_month"] is not None and o["unmet_gpu_hours_per_month"] >= 0
        cap = o["capacity_gpu_hours_per_month"]
        assert cap is None or cap >= 0
        if o["kind"] == "cloud":
            assert cap is None
        first = o["first_unmet_month"]
        assert first is None or (isinstance(first, int) and 1 <= first <= T), first
        if o["kind"] == "own":  # SPEC §6
            assert isinstance(o["machines"], int) and o["machines"] >= 0, o["machines"]
            per_hour = o["cost_per_owned_gpu_hour"]
            assert per_hour is None or math.isfinite(per_hour), per_hour
            if o["machines"] == 0 or not o["feasible"]:
                assert per_hour is None, (o["name"], per_hour)
                if o["machines"] == 0:
                    assert o["gpu_hours_per_month"] == 0 and cap == 0, o["name"]
        else:
            assert o["machines"] is None and o["cost_per_owned_gpu_hour"] is None
        # SPEC §8: the efficiency used is a fraction in (0, 1]; a job's days are positive,
        # and null where the option is infeasible.
        assert 0 < o["scaling_efficiency"] <= 1, o["scaling_efficiency"]
        assert o["job_days"] is None or (o["feasible"] and o["job_days"] > 0), o["job_days"]
        assert all(isinstance(r, str) and r for r in o["reasons"] + o["warnings"])
    feasible = [o for o in d["options"] if o["feasible"]]
    if not feasible:
        assert d["cheapest"] is None
    else:
        best = min(o["present_value"] for o in feasible)
        cheapest = rows[d["cheapest"]]
        assert cheapest["feasible"]
        assert _close(cheapest["present_value"], best, abs(best)), (cheapest["present_value"],
                                                                    best)
        tied = [o for o in feasible if _close(o["present_value"], best, abs(best))]
        # SPEC §6: ties go to the first option in file order, except that one serving none
        # of its demand gives way to the option it passes the work to (named instead, even
        # when another tied option comes before that target in the file).
        # Without demand (served_share null) one that could serve nothing itself serves none:
        # no capacity of its own (0 machines, availability 0), or a tier that passes all of
        # its work on.
        first = tied[0]
        serves_none = (first["served_share"] <= NONE_SERVED if first["served_share"] is not None
                       else first["capacity_gpu_hours_per_month"] == 0
                       or first["kind"] == "free_tier")
        assert d["cheapest"] == first["name"] or serves_none, (
            "ties go to the first option in file order unless it serves none of its demand")
        assert cheapest in tied
    _check_uncertainty(d)
    _check_mix(d)
    for pair in d["break_even"]:
        own, versus = rows[pair["own"]], rows[pair["versus"]]
        assert own["kind"] == "own" and pair["own"] != pair["versus"]
        assert own["feasible"] and versus["feasible"]
        months = pair["months"]
        assert months is None or 0 <= months <= T * (1 + 1e-12), months
        assert (pair["system_hours"] is None) == (months is None)
        assert pair["system_hours"] is None or pair["system_hours"] >= -1e-9
        level = pair["gpu_hours_per_month"]
        assert level is None or level >= 0


def _check_mix(d: dict[str, Any]) -> None:
    """The best mix (SPEC §6): finite figures, a sentence, every alternative at or above the
    best (the best is the lowest of the candidates; one commitment more or fewer cannot beat
    the best ladder)."""
    mix = d.get("mix")
    if mix is None:
        return
    assert isinstance(mix["description"], str) and mix["description"]
    assert math.isfinite(mix["present_value"]) and math.isfinite(mix["total_cost"])
    assert mix["candidates"] >= 1
    scale = max(abs(mix["present_value"]), 1.0)
    for alt in mix["alternatives"]:
        assert alt["versus_best"] is None or alt["versus_best"] >= -1e-9 * scale, alt
    assert all(m >= 0 for m in mix["machines"].values())
    for rule in mix["buy_later"]:
        assert rule["rule_month"] is None or 0 <= rule["rule_month"] < d["horizon_months"]


def _check_uncertainty(d: dict[str, Any]) -> None:
    """SPEC §7's object: shares in [0, 1] summing to at most 1, percentiles in order, the
    pairs those of the plan's break-even."""
    block = d.get("uncertainty")
    if block is None:
        return
    shares = block["cheapest_share"]
    assert set(shares) == {o["name"] for o in d["options"]}
    assert all(0 <= v <= 1 for v in shares.values()) and sum(shares.values()) <= 1 + 1e-9
    for row in block["options"]:
        assert 0 <= row["feasible_share"] <= 1
        for figure in ("present_value", "total_cost"):
            stats = row[figure]
            assert (stats is None) == (row["feasible_share"] == 0)
            if stats is not None:
                scale = max(abs(stats["p5"]), abs(stats["p95"]), 1.0)
                assert stats["p5"] <= stats["p50"] + 1e-9 * scale
                assert stats["p50"] <= stats["p95"] + 1e-9 * scale
    assert [(p["own"], p["versus"]) for p in block["break_even"]] == [
        (p["own"], p["versus"]) for p in d["break_even"]]
    for pair in block["break_even"]:
        share = pair["pays_off_share"]
        assert share is None or 0 <= share <= 1
        if pair["months"] is not None:
            assert 0 <= pair["months"]["p5"] <= pair["months"]["p95"] <= d["horizon_months"] \
                * (1 + 1e-12)


_WORK = Path(tempfile.mkdtemp(prefix="planner-fuzz-"))


def run_text(text: str | bytes) -> planner.Plan | None:
    """Load YAML text through a file, as a user would; ``None`` for a located UserError."""
    path = _WORK / "usage.yaml"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    try:
        return planner.load(path)
    except UserError as err:
        check_problems(err, from_text=True)
        event("outcome: user error")
        return None


def outcome(source: Any, *, from_text: bool = False) -> dict[str, Any] | None:
    """Load and evaluate ``source`` (a dict, or YAML text); the checked result or ``None``."""
    if not from_text and not isinstance(source, dict):  # a mutated root: only text can say it
        return outcome(dump(source), from_text=True)
    try:
        plan = run_text(source) if from_text else planner.load(source)
        if plan is None:
            return None
        result = plan.evaluate()
    except UserError as err:
        check_problems(err, from_text=False)  # evaluation problems need not have a line
        event("outcome: user error")
        return None
    d = result.to_dict()
    check_result(d)
    event("outcome: result")
    return d


def dump(doc: Any) -> str:
    return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, width=10_000)


# -- the fuzz tests ---------------------------------------------------------------------------


@budget(1500)
@given(documents())
def test_valid_documents_evaluate_with_invariants(doc):
    outcome(doc)


@budget(25)
@given(documents(longest=True))
def test_documents_over_the_longest_horizon(doc):
    outcome(doc)


@budget(2500)
@given(mutated_documents())
def test_mutated_documents_are_refused_cleanly_or_evaluate(doc):
    outcome(doc)


@budget(1200)
@given(documents())
def test_valid_documents_as_yaml_text(doc):
    outcome(dump(doc), from_text=True)


@budget(1500)
@given(mutated_documents())
def test_mutated_documents_as_yaml_text(doc):
    try:
        text = dump(doc)
    except (ValueError, RecursionError):  # pragma: no cover - PyYAML cannot write it
        return
    outcome(text, from_text=True)


# Edits of the text itself: what a person typing (or a corrupted file) produces.
TEXT_EDITS = ["\t", " ", ":", "- ", "\n", "#", "&a ", "*a", "!!python/object:os.system ",
              "!!binary ", "<<: *a\n", "{", "[", "'", "\"", "\x00", "\ufeff", "\r\n", "---\n",
              "...\n", "%YAML 1.1\n", "%YAML 1.2\n", "? ", "!!float ", "!!int ", "!!bool ",
              "|\n", "&a [*a]", "~",
              "1e400", ".nan", "-.inf", "0x1F", "0o17", "1_000", "٣", "\u2028"]


@st.composite
def edited_texts(draw) -> str:
    text = dump(draw(documents(max_options=3)))
    for _ in range(draw(st.integers(1, 5))):
        at = draw(st.integers(0, len(text)))
        how = draw(_sampled("insert", "insert", "delete", "duplicate"))
        if how == "insert":
            piece = draw(_either(_sampled(*TEXT_EDITS), st.text(max_size=4)))
            text = text[:at] + piece + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = draw(st.integers(0, len(lines) - 1))
                lines.insert(i, lines[i])
            text = "".join(lines)
    return text


@budget(1300)
@given(edited_texts())
def test_edited_yaml_text(text):
    outcome(text, from_text=True)


# YAML 1.2's booleans: a !!bool tag on true or false, or on something else; a %YAML directive.
BOOL_WORDS = {"true": True, "True": True, "TRUE": True, "'true'": True, "false": False,
              "False": False, "FALSE": False, '"false"': False, "yes": None, "no": None,
              "on": None, "off": None, "y": None, "banana": None, '"yes"': None, "''": None,
              "tRuE": None, "1": None}
DIRECTIVES = {"": None, "%YAML 1.2\n---\n": None, "%YAML 1.1\n---\n": "1.1"}
_TAGGED = re.compile(r"^( *)(always_on|files_persist): (true|false)$", re.MULTILINE)


@st.composite
def tagged_texts(draw) -> tuple[str, str, str, bool]:
    """A valid document's text with a ``%YAML`` directive or none, and each boolean written
    ``!!bool WORD`` (an own option always has one): (text, directive, word, tagged)."""
    doc = copy.deepcopy(draw(documents(max_options=3)))
    for entry in doc["options"]:
        if isinstance(entry.get("own"), dict):
            entry["own"]["always_on"] = draw(st.booleans())
    directive = draw(st.sampled_from(sorted(DIRECTIVES)))
    word = draw(st.sampled_from(sorted(BOOL_WORDS)))
    text, tagged = _TAGGED.subn(lambda m: f"{m[1]}{m[2]}: !!bool {word}", dump(doc))
    event(f"directive: {directive.split(chr(10))[0] or 'none'}; bool: "
          f"{'valid' if BOOL_WORDS[word] is not None else 'invalid'}")
    return directive + text, directive, word, bool(tagged)


@budget(200)
@given(tagged_texts())
def test_bool_tags_and_yaml_directives(case):
    """!!bool takes true or false only, and only YAML 1.2 is read: anything else is a problem
    at its line and column, never a silent false."""
    text, directive, word, tagged = case
    try:
        document = load_usage_text(text, name="usage.yaml")
    except UserError as err:
        check_problems(err, from_text=True)
        messages = [(p.message, p.line, p.column) for p in err.problems]
        if DIRECTIVES[directive]:
            said = (f"%YAML {DIRECTIVES[directive]}: usage.yaml is read as YAML 1.2, where yes, "
                    "no, on and off are text, not true or false; remove the directive and write "
                    "true or false")
            assert (said, 1, 1) in messages
        if tagged and BOOL_WORDS[word] is None:
            shown = word.strip("'\"")
            assert any(m == f"'{shown}' is not a valid !!bool; write true or false"
                       for m, _, _ in messages), messages
        return  # (any other problem comes from dump: PyYAML writes YAML 1.1, "1e6" unquoted)
    assert not DIRECTIVES[directive] and not (tagged and BOOL_WORDS[word] is None)
    for entry in document.data["options"]:
        for key in ("own", "free_tier"):
            value = entry.get(key)
            if isinstance(value, dict) and tagged:
                for flag in ("always_on", "files_persist"):
                    if flag in value:
                        assert value[flag] is BOOL_WORDS[word]


@budget(600)
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
def test_arbitrary_bytes_are_refused_with_a_position(raw):
    outcome(raw, from_text=True)


@budget(400)
@given(mutated_documents())
def test_validation_alone_never_crashes(doc):
    """``load_usage`` without the catalog (the schema boundary alone), from a dict and text."""
    for attempt in (lambda: load_usage(doc) if isinstance(doc, dict) else None,
                    lambda: load_usage_text(dump(doc), name="usage.yaml")):
        try:
            attempt()
        except UserError as err:
            check_problems(err, from_text=False)
