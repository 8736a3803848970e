"""Rules between keys of usage.yaml (SPEC §1): one demand form, unique option names, prices
that a pricing needs, overflow/fallback targets that exist and form no cycle, and so on.

They are checked on the plain data, so that they are found even when other parts of the file
have errors (pydantic skips a model's checks once a field fails).
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from planner.usage.values import format_number, is_boolean
from planner.usage.vocabulary import DEMAND_FORMS, PRICE_KEY_FOR_PRICING, option_kind


@dataclass(frozen=True)
class Issue:
    """A problem before it has a position: ``at`` is ``value``, ``key`` or ``map``."""

    path: str
    message: str
    at: str = "value"
    suggestion: str | None = None


def suggest(word: Any, choices: Any) -> str | None:
    """The closest of ``choices`` to ``word``, if any is close."""
    if not isinstance(word, str):
        return None
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.6)
    return close[0] if close else None


def rule_issues(data: Mapping[str, Any]) -> list[Issue]:
    """Every broken rule between keys of ``data`` (plain usage.yaml data)."""
    issues: list[Issue] = []
    demand = data.get("demand")
    if isinstance(demand, Mapping):
        given = [form for form in DEMAND_FORMS if demand.get(form) is not None]
        if not given:
            issues.append(Issue("demand", "give one of " + ", ".join(DEMAND_FORMS)))
        elif len(given) > 1:
            issues.append(Issue(
                "demand", f"give only one of {', '.join(DEMAND_FORMS)} (found "
                f"{' and '.join(given)})"))
    options = data.get("options")
    if not isinstance(options, list):
        return issues
    entries = [(i, e, option_kind(e)) for i, e in enumerate(options) if isinstance(e, Mapping)]
    names: dict[str, int] = {}
    for i, entry, _ in entries:
        name = entry.get("name")
        if not isinstance(name, str):
            continue
        if name in names:
            issues.append(Issue(
                f"options[{i}].name", f"the name '{name}' is already used by "
                f"options[{names[name]}]; option names are unique"))
        else:
            names[name] = i
    for i, entry, kind in entries:
        here = f"options[{i}]"
        if kind == "cloud":
            issues += _cloud_rules(entry, here)
        elif kind == "own":
            issues += _own_rules(entry, here)
        elif kind == "free_tier":
            issues += _free_tier_rules(entry, here)
    issues += _target_rules(entries, names)
    if any(kind == "own" for _, _, kind in entries):
        site = data.get("site", {})
        if (isinstance(site, Mapping) and site.get("electricity_per_kwh") is None
                and site.get("region") is None):
            owned = [e.get("name") for _, e, k in entries if k == "own"]
            issues.append(Issue(
                "site.electricity_per_kwh",
                f"required because an option owns hardware ({_names(owned)}); or give "
                "site.region to use the catalog's price"))
    return issues


def _names(names: list[Any]) -> str:
    return ", ".join(str(n) for n in names)


def _cloud_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    issues = []
    pricing = entry.get("pricing", "on_demand")
    if entry.get("reserved_instances") is not None and pricing in ("on_demand", "spot"):
        issues.append(Issue(
            f"{here}.reserved_instances",
            f"reserved_instances applies only with pricing reserved_1y or reserved_3y, not "
            f"{pricing}", at="map"))
    cloud = entry.get("cloud")
    if isinstance(cloud, Mapping):
        needed = PRICE_KEY_FOR_PRICING.get(pricing) if isinstance(pricing, str) else None
        if needed and cloud.get(needed) is None:
            issues.append(Issue(
                f"{here}.cloud.{needed}", f"required with pricing: {pricing}", at="map"))
        if entry.get("region") is not None:
            issues.append(Issue(
                f"{here}.region", "region applies only to a catalog id; an inline cloud map "
                "carries its own prices", at="key"))
    return issues


def _own_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    own = entry.get("own")
    if not isinstance(own, Mapping) or own.get("gpu") is not None:
        return []
    return [
        Issue(f"{here}.own.{key}", "required when own has no gpu", at="map")
        for key in ("purchase_price", "power_watts") if own.get(key) is None
    ]


def _free_tier_rules(entry: Mapping[str, Any], here: str) -> list[Issue]:
    tier = entry.get("free_tier")
    if not isinstance(tier, Mapping):
        return []
    session, setup = tier.get("session_hours"), tier.get("setup_minutes", 0)
    if _real(session) and _real(setup) and session > 0 and setup >= session * 60:
        return [Issue(
            f"{here}.free_tier.setup_minutes",
            f"setup takes the whole session ({format_number(setup)} minutes of a "
            f"{format_number(session)}-hour session)")]
    return []


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not is_boolean(value)


_TARGET_KEY = {"own": "overflow", "free_tier": "fallback"}


def _target_rules(entries: list[tuple[int, Any, str | None]], names: dict[str, int]) -> list[Issue]:
    issues = []
    target_of: dict[str, str] = {}  # option name -> the option it passes work on to
    for i, entry, kind in entries:
        key = _TARGET_KEY.get(kind or "")
        target = entry.get(key) if key else None
        if not isinstance(target, str):
            continue
        path = f"options[{i}].{key}"
        if target == entry.get("name"):
            issues.append(Issue(path, f"an option cannot name itself as its {key}"))
        elif target not in names:
            issues.append(Issue(
                path, f"no option is named '{target}'", suggestion=suggest(target, names)))
        elif isinstance(entry.get("name"), str) and names[entry["name"]] == i:
            target_of[entry["name"]] = target
    kind_of = {i: kind for i, _, kind in entries}
    reported: set[frozenset[str]] = set()
    for start in sorted(target_of, key=names.__getitem__):
        chain = [start]
        while chain[-1] in target_of and target_of[chain[-1]] not in chain:
            chain.append(target_of[chain[-1]])
        if chain[-1] not in target_of:
            continue  # the chain ends at an option that passes nothing on
        cycle = chain[chain.index(target_of[chain[-1]]):]
        if frozenset(cycle) in reported:
            continue
        reported.add(frozenset(cycle))
        first = min(cycle, key=names.__getitem__)
        order = cycle[cycle.index(first):] + cycle[:cycle.index(first)] + [first]
        index = names[first]
        issues.append(Issue(
            f"options[{index}].{_TARGET_KEY[kind_of[index] or 'own']}",
            "overflow/fallback goes round in a cycle: " + " -> ".join(order)))
    return issues
