"""Words of usage.yaml that the catalog defines: workloads (the throughput columns of the GPUs
table), regions, site kinds and frameworks. A text that names one of them must name a real
one; these checks run on the raw document with the other catalog pre-checks
(:mod:`planner.cards.checks`), so that their problems come with the schema's, all at once.

Frameworks are an open list: the work may use one that no free tier names. A framework that is
neither known (the common ones below, those the catalog's tiers and the document's inline
tiers name) nor close to a known one is accepted as written; one that is close to a known one
(``pytroch``) is a problem that suggests it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.errors import Problem, closest, suggestion_text

#: Deep-learning frameworks known without any catalog (lowercase, as demand.framework is read).
COMMON_FRAMEWORKS = (
    "pytorch", "tensorflow", "jax", "flax", "keras", "paddlepaddle", "mxnet", "mindspore",
    "onnx", "caffe", "chainer", "theano", "cntk", "mlx", "tinygrad", "lightning",
    "deepspeed", "megatron", "transformers", "scikit-learn", "xgboost", "lightgbm",
)
_THROUGHPUT = "throughput_"
_FP32 = "_fp32"
#: The workload every GPU row falls back to (SPEC §1.1).
GENERIC_WORKLOAD = "generic"


def workloads(catalog) -> list[str]:
    """The workloads the catalog has throughput columns for (``throughput_<workload>`` and
    ``throughput_<workload>_fp32``), ``generic`` first, in column order."""
    from pricing.catalog import TABLES

    rows = catalog.rows("gpus")
    columns = [*(c.name for c in TABLES["gpus"]), *(rows[0] if rows else ())]
    names = [GENERIC_WORKLOAD]
    for column in columns:
        if column.startswith(_THROUGHPUT):
            name = column[len(_THROUGHPUT):]
            name = name.removesuffix(_FP32)
            if name and name not in names:
                names.append(name)
    return names


def frameworks(catalog, data: Mapping[str, Any]) -> list[str]:
    """The known frameworks: the common ones, those of the catalog's free tiers and those the
    document's inline free tiers name (lowercase)."""
    known = list(COMMON_FRAMEWORKS)
    for tier in catalog.ids("free-tiers"):
        known += catalog.free_tier(tier).frameworks
    known += _inline_frameworks(data)
    return list(dict.fromkeys(known))


def _inline_frameworks(data: Mapping[str, Any]) -> list[str]:
    options = data.get("options")
    found: list[str] = []
    for entry in options if isinstance(options, list) else []:
        tier = entry.get("free_tier") if isinstance(entry, Mapping) else None
        names = tier.get("frameworks") if isinstance(tier, Mapping) else None
        if isinstance(names, list):
            found += [n.lower() for n in names if isinstance(n, str)]
    return found


def region_problem(catalog, region: Any) -> Problem | None:
    """The problem with ``site.region`` when it is no region id of the catalog: a near id, or
    the id of the region whose name it is (``germany`` -> ``de``), as the suggestion."""
    from pricing.catalog import CatalogLookupError

    if not isinstance(region, str):
        return None
    try:
        catalog.region(region)
        return None
    except CatalogLookupError as err:
        suggestions = list(err.suggestions)
    named = region_by_name(catalog, region, exact=True)
    near = named or (None if suggestions else region_by_name(catalog, region, exact=False))
    if near is not None:
        return Problem(f"unknown region {region!r} in the catalog: regions are named by id",
                       path="site.region", suggestion=suggestion_text([near]))
    from pricing.suggest import closest_ids

    # Neither a near id nor a region's name: the closest ids all the same (SPEC §1.3).
    return Problem(f"unknown region {region!r} in the catalog (planner catalog regions lists "
                   "them)", path="site.region", suggestion=suggestion_text(
                       suggestions or closest_ids(region, catalog.ids("regions"))))


def region_by_name(catalog, text: str, *, exact: bool = True) -> str | None:
    """The id of the region whose name is ``text`` (case-insensitive; "United States" also
    names "United States (average)"); with ``exact`` False, of the one whose name is close."""
    names: dict[str, str] = {}
    for row in catalog.rows("regions"):
        name = str(row.get("name") or "").strip().lower()
        if name:
            names.setdefault(name, row["id"])
            names.setdefault(name.split(" (")[0].strip(), row["id"])
    wanted = text.strip().lower()
    if exact:
        return names.get(wanted)
    near = closest(wanted, names)
    return names[near] if near is not None else None


def site_kind_problem(catalog, kind: Any) -> Problem | None:
    """The problem with ``site.kind`` when the catalog has no such kind of site."""
    from pricing.catalog import CatalogLookupError

    if not isinstance(kind, str):
        return None
    try:
        catalog.site_kind(kind)
        return None
    except CatalogLookupError:
        kinds = catalog.ids("site-kinds")
    return Problem(f"unknown site kind {kind!r}: one of {', '.join(kinds)}", path="site.kind",
                   suggestion=closest(kind, kinds))


def demand_problems(catalog, data: Mapping[str, Any]) -> list[Problem]:
    """An unknown ``demand.workload``, a ``demand.framework`` close to a known one but not it,
    and the like in the frameworks of inline free tiers."""
    demand = data.get("demand")
    problems: list[Problem] = []
    if isinstance(demand, Mapping):
        workload = demand.get("workload")
        if isinstance(workload, str) and workload.strip():
            known = workloads(catalog)
            if workload not in known:
                problems.append(Problem(
                    f"unknown workload {workload!r}: one of {', '.join(known)}",
                    path="demand.workload",
                    suggestion=(workload.lower() if workload.lower() in known
                                else closest(workload, known))))
        framework = demand.get("framework")
        problem = _framework_problem(framework, frameworks(catalog, data), "demand.framework")
        if problem is not None:
            problems.append(problem)
    known = frameworks(catalog, {})
    options = data.get("options")
    for i, entry in enumerate(options if isinstance(options, list) else []):
        tier = entry.get("free_tier") if isinstance(entry, Mapping) else None
        names = tier.get("frameworks") if isinstance(tier, Mapping) else None
        for j, name in enumerate(names if isinstance(names, list) else []):
            problem = _framework_problem(name, known,
                                         f"options[{i}].free_tier.frameworks[{j}]")
            if problem is not None:
                problems.append(problem)
    return problems


def _framework_problem(framework: Any, known: list[str], path: str) -> Problem | None:
    if not isinstance(framework, str) or not framework.strip():
        return None
    word = framework.strip().lower()
    if word in known:
        return None
    near = closest(word, known)
    if near is None:
        return None  # a framework of its own: accepted (see the module's docstring)
    return Problem(f"unknown framework {framework!r}", path=path, suggestion=near)
