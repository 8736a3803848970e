"""Rules between keys of usage.yaml (SPEC §1): one demand form, unique option names, prices
that a pricing needs, overflow/fallback targets that exist and form no cycle, and so on.

They are checked on the plain data, so that they are found even when other parts of the file
have errors (pydantic skips a model's checks once a field fails).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from planner.errors import Problem, closest
from planner.usage.values import format_number, is_boolean
from planner.usage.vocabulary import (
    ALTERNATIVE_KEYS,
    DEMAND_FORMS,
    PRICE_KEY_FOR_PRICING,
    RESERVED_TERM_MONTHS,
    option_kind,
)
from pricing.pricings import PRICINGS
from pricing.rates import NO_GPU

if TYPE_CHECKING:  # ranges reads the models, which check these rules
    from planner.usage.ranges import NumberRange


def rule_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every broken rule between keys of ``data`` (plain usage.yaml data)."""
    problems: list[Problem] = []
    demand = data.get("demand")
    if isinstance(demand, Mapping):
        problems += _demand_rules(demand)
    options = data.get("options")
    if not isinstance(options, list):
        return problems
    entries = [(i, e, option_kind(e)) for i, e in enumerate(options) if isinstance(e, Mapping)]
    names: dict[str, int] = {}
    for i, entry, _ in entries:
        name = entry.get("name")
        if not isinstance(name, str):
            continue
        if name in names:
            problems.append(Problem(
                f"the name '{name}' is already used by options[{names[name]}]; option names "
                "are unique", path=f"options[{i}].name"))
        else:
            names[name] = i
    for i, entry, kind in entries:
        here = f"options[{i}]"
        if kind == "cloud":
            problems += _cloud_rules(entry, here)
            problems += _ladder_rules(entry, here, data.get("horizon_months", 36))
        elif kind == "own":
            problems += _own_rules(entry, here)
            problems += _fleet_rules(entry, here, data.get("horizon_months", 36))
        elif kind == "free_tier":
            problems += _free_tier_rules(entry, here)
    problems += _target_rules(entries, names)
    problems += _mix_rules(data.get("mix"), entries, names)
    problems += _parallelism_rules(demand, entries)
    if any(kind == "own" for _, _, kind in entries):
        site = data.get("site", {})
        if (isinstance(site, Mapping) and site.get("electricity_per_kwh") is None
                and site.get("region") is None):
            owned = [e.get("name") for _, e, k in entries if k == "own"]
            problems.append(Problem(
                f"required because an option owns hardware ({_names(owned)}); or give "
                "site.region to use the catalog's price", path="site.electricity_per_kwh"))
    return problems


def _demand_rules(demand: Mapping[str, Any]) -> list[Problem]:
    """One demand form (gpu_hours_per_week standing for gpu_hours_per_month), and a key and its
    alternative never both."""
    problems = []
    both = [(alternative, key) for alternative, key in ALTERNATIVE_KEYS.items()
            if demand.get(alternative) is not None and demand.get(key) is not None]
    for alternative, key in both:
        problems.append(Problem(
            f"{alternative} says what {key} says, in other units: give one of them, not both",
            path=f"demand.{alternative}", at="key"))
    written = {ALTERNATIVE_KEYS.get(k, k): k for k in demand if demand.get(k) is not None}
    given = [written[form] for form in DEMAND_FORMS if form in written]
    if not given:
        problems.append(Problem("give one of " + ", ".join(DEMAND_FORMS), path="demand"))
    elif len(given) > 1:
        problems.append(Problem(
            f"give only one of {', '.join(DEMAND_FORMS)} (found {' and '.join(given)})",
            path="demand"))
    return problems


def _names(names: list[Any]) -> str:
    return ", ".join(str(n) for n in names)


def _cloud_rules(entry: Mapping[str, Any], here: str) -> list[Problem]:
    problems = []
    pricing = entry.get("pricing", "on_demand")
    # an unknown pricing is refused elsewhere
    committed = pricing not in PRICINGS or pricing in RESERVED_TERM_MONTHS
    if entry.get("reserved_instances") is not None and not committed:
        problems.append(Problem(
            f"reserved_instances applies only with pricing reserved_1y or reserved_3y, not "
            f"{pricing}", path=f"{here}.reserved_instances", at="map"))
    cloud = entry.get("cloud")
    if isinstance(cloud, Mapping):
        needed = PRICE_KEY_FOR_PRICING.get(pricing) if isinstance(pricing, str) else None
        if needed and cloud.get(needed) is None:
            problems.append(Problem(f"required with pricing: {pricing}",
                                    path=f"{here}.cloud.{needed}", at="map"))
        if entry.get("region") is not None:
            problems.append(Problem(
                "region applies only to a catalog id; an inline cloud map carries its own "
                "prices", path=f"{here}.region", at="key"))
    return problems


def _ladder_rules(entry: Mapping[str, Any], here: str, horizon: Any) -> list[Problem]:
    """A list of reserved counts has one count per term the horizon starts, ceil(T / term)."""
    ladder = entry.get("reserved_instances")
    pricing = entry.get("pricing")
    term = RESERVED_TERM_MONTHS.get(pricing) if isinstance(pricing, str) else None
    if not isinstance(ladder, list) or term is None or not _whole(horizon) or horizon < 1:
        return []
    terms = -(-int(horizon) // term)
    if len(ladder) == terms:
        return []
    return [Problem(
        f"a list of reserved counts has one count per term: {terms} for a {term}-month term "
        f"over {format_number(horizon)} months (ceil({format_number(horizon)} / {term})), "
        f"got {len(ladder)}", path=f"{here}.reserved_instances")]


def _whole(value: Any) -> bool:
    return _real(value) and float(value).is_integer()


def _own_rules(entry: Mapping[str, Any], here: str) -> list[Problem]:
    own = entry.get("own")
    if not isinstance(own, Mapping) or own.get("gpu") is not None:
        return []
    return [
        Problem(NO_GPU, path=f"{here}.own.{key}", at="map")
        for key in ("purchase_price", "power_watts") if own.get(key) is None
    ]


def _parallelism_rules(demand: Any, entries: list) -> list[Problem]:
    """SPEC §8: independent runs (``demand.parallelism: independent``) are one-GPU runs side
    by side; no option's scaling_efficiency applies, so giving one is an error."""
    if not isinstance(demand, Mapping) or demand.get("parallelism") != "independent":
        return []
    return [Problem("demand.parallelism is independent: every run uses one GPU, so "
                    "scaling_efficiency is 1; remove it, or set demand.parallelism: data",
                    path=f"options[{i}].scaling_efficiency", at="key")
            for i, entry, _ in entries if entry.get("scaling_efficiency") is not None]


def _fleet_rules(entry: Mapping[str, Any], here: str, horizon: Any) -> list[Problem]:
    """SPEC §6: no machines, or machines bought after month 0, need an overflow to serve the
    demand meanwhile; the purchase falls inside the horizon (months 0..T − 1)."""
    own = entry.get("own")
    if not isinstance(own, Mapping):
        return []
    problems = []
    machines, month = own.get("machines"), own.get("purchase_month")
    no_overflow = entry.get("overflow") is None
    if _real(machines) and machines == 0 and no_overflow:
        problems.append(Problem(
            "0 machines serve nothing: give the option an overflow to serve its demand",
            path=f"{here}.own.machines", at="map"))
    if _real(month) and month > 0 and no_overflow:
        problems.append(Problem(
            f"machines bought in month {format_number(month)} serve from month "
            f"{format_number(month + 1)}: give the option an overflow to serve the demand "
            "before", path=f"{here}.own.purchase_month", at="map"))
    if _real(month) and _whole(horizon) and month >= horizon >= 1:
        problems.append(Problem(
            f"the purchase month is one of 0..{format_number(horizon - 1)} (the horizon is "
            f"{format_number(horizon)} months), got {format_number(month)}",
            path=f"{here}.own.purchase_month"))
    return problems


def _free_tier_rules(entry: Mapping[str, Any], here: str) -> list[Problem]:
    tier = entry.get("free_tier")
    if not isinstance(tier, Mapping):
        return []
    session, setup = tier.get("session_hours"), tier.get("setup_minutes", 0)
    if _real(session) and _real(setup) and setup_takes_whole_session(setup, session):
        return [Problem(
            f"{SETUP_TAKES_WHOLE_SESSION} ({format_number(setup)} minutes of a "
            f"{format_number(session)}-hour session)", path=f"{here}.free_tier.setup_minutes")]
    return []



def rule_range(data: Mapping[str, Any], keys: tuple[Any, ...], valid: NumberRange) -> NumberRange:
    """``valid`` (a key's range by the schema) narrowed by the rules above that bound it
    through other keys of the file, so that a value drawn in it (SPEC §7) breaks none of them:
    a purchase month below the horizon (0 without an overflow), at least one machine without
    an overflow, a free tier's setup shorter than its session (when the file gives the
    session), and its session longer than its setup. The other keys are taken as the file
    gives them (a drawn horizon is the plan's own here; a setup and a session both drawn are
    each kept within the other's value in the file, not within its draw)."""
    if len(keys) != 4 or keys[0] != "options" or not isinstance(keys[1], int):
        return valid
    options = data.get("options") or []
    entry = options[keys[1]] if keys[1] < len(options) else None
    if not isinstance(entry, Mapping):
        return valid
    no_overflow = entry.get("overflow") is None
    section, leaf = keys[2], keys[3]
    if (section, leaf) == ("own", "purchase_month"):
        horizon = data.get("horizon_months", 36)
        last = 0 if no_overflow else (horizon - 1 if _whole(horizon) else valid.high)
        return dataclasses.replace(valid, high=min(valid.high, last), high_open=False)
    if (section, leaf) == ("own", "machines") and no_overflow:
        return dataclasses.replace(valid, low=max(valid.low, 1.0), low_open=False)
    tier = entry.get("free_tier")
    if (section, leaf) == ("free_tier", "setup_minutes") and isinstance(tier, Mapping):
        session = tier.get("session_hours")
        if _real(session) and session > 0 and session * 60 < valid.high:
            return dataclasses.replace(valid, high=session * 60.0, high_open=True)
    if (section, leaf) == ("free_tier", "session_hours") and isinstance(tier, Mapping):
        setup = tier.get("setup_minutes", 0)
        if _real(setup) and setup / 60 >= valid.low:
            return dataclasses.replace(valid, low=setup / 60.0, low_open=True)
    return valid

SETUP_TAKES_WHOLE_SESSION = "setup takes the whole session"


def setup_takes_whole_session(setup_minutes: Any, session_hours: Any) -> Any:
    """Whether a free tier's setup fills each of its sessions, leaving no time to work: the
    rule between setup_minutes and session_hours. Numbers, or arrays of a sweep's scenarios
    (compared element by element). [minutes], [hours]"""
    return (session_hours > 0) & (setup_minutes >= session_hours * 60)


def _mix_rules(mix: Any, entries: list[tuple[int, Any, str | None]],
               names: dict[str, int]) -> list[Problem]:
    """The best mix (SPEC §6): members that exist, once each; own options first, a cloud
    option last; an own member's overflow, where the file gives one, is the next member."""
    if not isinstance(mix, list) or len(mix) < 2:  # too short: the list's own check says so
        return []
    problems: list[Problem] = []
    entry_of = {names[e.get("name")]: (e, k) for _, e, k in entries
                if isinstance(e.get("name"), str) and e.get("name") in names}
    seen: dict[str, int] = {}
    for j, name in enumerate(mix):
        if not isinstance(name, str):
            continue
        here = f"mix[{j}]"
        if name not in names:
            problems.append(Problem(f"no option is named '{name}'", path=here,
                                    suggestion=closest(name, names)))
            continue
        if name in seen:
            problems.append(Problem(f"the mix names '{name}' twice (mix[{seen[name]}] and "
                                    f"mix[{j}]); each option is in it once", path=here))
            continue
        seen[name] = j
        entry, kind = entry_of[names[name]]
        last = j == len(mix) - 1
        if last and kind != "cloud":
            problems.append(Problem(
                f"the last member of a mix takes the demand the machines do not: it must be a "
                f"cloud option, and '{name}' is {'an' if kind == 'own' else 'a'} "
                f"{(kind or 'option').replace('_', ' ')} option", path=here))
        elif not last and kind != "own":
            problems.append(Problem(
                f"every member of a mix but the last is an own option (its machines and "
                f"purchase month are searched); '{name}' is a "
                f"{(kind or 'option').replace('_', ' ')} option: put it last or leave it out",
                path=here))
        elif not last and isinstance(mix[j + 1], str):
            target = entry.get("overflow")
            if isinstance(target, str) and target != mix[j + 1]:
                problems.append(Problem(
                    f"'{name}' overflows to '{target}' in the file, but in the mix its overflow "
                    f"is the next member, '{mix[j + 1]}': drop its overflow, make it "
                    f"'{mix[j + 1]}', or reorder the mix", path=here))
    return problems


def _real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not is_boolean(value)


_TARGET_KEY = {"own": "overflow", "free_tier": "fallback"}


def _target_rules(entries: list[tuple[int, Any, str | None]],
                  names: dict[str, int]) -> list[Problem]:
    problems = []
    target_of: dict[str, str] = {}  # option name -> the option it passes work on to
    for i, entry, kind in entries:
        key = _TARGET_KEY.get(kind or "")
        target = entry.get(key) if key else None
        if not isinstance(target, str):
            continue
        path = f"options[{i}].{key}"
        if target == entry.get("name"):
            problems.append(Problem(f"an option cannot name itself as its {key}", path=path))
        elif target not in names:
            problems.append(Problem(f"no option is named '{target}'", path=path,
                                    suggestion=closest(target, names)))
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
        problems.append(Problem(
            "overflow/fallback goes round in a cycle: " + " -> ".join(order),
            path=f"options[{index}].{_TARGET_KEY[kind_of[index] or 'own']}"))
    return problems
