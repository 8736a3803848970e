"""Dotted paths into usage data (SPEC §4): ``site.electricity_per_kwh``,
``options.box.own.purchase_price``.

Options are named by their ``name``. The kind level may be left out: ``options.box.purchase_price``
is ``own.purchase_price`` when ``box`` is an own option, because that key belongs in the own
map; keys that go beside the kind key (``relative_speed``, ``pricing``, …) resolve there.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from planner.errors import Problem, UserError, closest
from planner.usage.models import Demand, Site, Usage
from planner.usage.options import OPTION_MODELS, SPEC_MODELS, Financing, OwnSpec
from planner.usage.uncertainty import Uncertainty
from planner.usage.vocabulary import EXCLUSIVE_DEMAND_KEYS, KIND_LABELS, KINDS, option_kind

Key = str | int

# Keys whose value is a map of known keys; every other key is a leaf.
_SUBMAPS: dict[tuple[type[BaseModel], str], type[BaseModel]] = {
    (Usage, "demand"): Demand,
    (Usage, "site"): Site,
    (Usage, "uncertainty"): Uncertainty,
    (OwnSpec, "financing"): Financing,
}


def canonical_path(data: Mapping[str, Any], dotted: str) -> tuple[Key, ...]:
    """The keys that ``dotted`` names in ``data``, options by index.

    >>> data = {"options": [{"name": "box", "own": {"gpu": "rtx-4090"}}]}
    >>> canonical_path(data, "options.box.purchase_price")
    ('options', 0, 'own', 'purchase_price')

    Raises :class:`UserError` naming the path, with the closest names as a suggestion, when it
    does not lead to a key of usage.yaml.
    """
    parts = dotted.split(".") if isinstance(dotted, str) else []
    if not parts or "" in parts:
        raise _error(dotted, "a path is keys joined by '.', like site.electricity_per_kwh")
    head, rest = parts[0], parts[1:]
    if head == "options":
        return ("options", *_option_keys(data, rest, dotted))
    if head == "fx":
        if len(rest) > 1:
            raise _error(dotted, "fx holds one rate per currency code, like fx.EUR")
        return ("fx", *rest)
    return _model_keys(Usage, parts, dotted, "")


def set_path(data: Mapping[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with the key that ``dotted`` names set to ``value``.

    Maps on the way are created when missing. Setting one demand form
    (``demand.utilization``, ``demand.gpu_hours_per_week``) removes the others, and setting
    one growth (``demand.growth_per_month``) the other. The result is not validated: load it with
    :func:`planner.usage.load.load_usage` to check it.
    """
    keys = canonical_path(data, dotted)
    result = copy.deepcopy(dict(data))
    node: Any = result
    for depth, key in enumerate(keys[:-1]):
        if isinstance(key, int):
            node = node[key]
            continue
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        elif not isinstance(child, list if isinstance(keys[depth + 1], int) else dict):
            where = ".".join(str(k) for k in keys[: depth + 1])
            raise _error(dotted, f"{where} is not a map, so nothing can be set inside it")
        node = child
    node[keys[-1]] = copy.deepcopy(value)
    if keys[0] == "demand" and len(keys) == 2:
        for group in EXCLUSIVE_DEMAND_KEYS:
            if keys[1] in group:
                for other in group:
                    if other != keys[1]:
                        node.pop(other, None)
    return result


def _error(dotted: Any, message: str, suggestion: str | None = None) -> UserError:
    return UserError([Problem(message, path=str(dotted), suggestion=suggestion)])


def _model_keys(
    model: type[BaseModel], parts: list[str], dotted: str, where: str
) -> tuple[Key, ...]:
    """Resolve ``parts`` among the keys of ``model`` (and the maps below them)."""
    if not parts:
        return ()
    key, rest = parts[0], parts[1:]
    if key not in model.model_fields:
        place = f" in {where}" if where else ""
        raise _error(dotted, f"unknown key '{key}'{place}", closest(key, model.model_fields))
    below = _SUBMAPS.get((model, key))
    if rest and below is None:
        raise _error(dotted, f"'{key}' has no keys below it")
    inner = f"{where}.{key}" if where else key
    return (key, *(_model_keys(below, rest, dotted, inner) if below else ()))


def _option_keys(data: Mapping[str, Any], rest: list[str], dotted: str) -> tuple[Key, ...]:
    if not rest:
        return ()
    options = data.get("options")
    if not isinstance(options, list):
        raise _error(dotted, "the usage data has no list of options")
    name, rest = rest[0], rest[1:]
    names = [e.get("name") for e in options if isinstance(e, Mapping)]
    index = next(
        (i for i, e in enumerate(options) if isinstance(e, Mapping) and e.get("name") == name),
        None,
    )
    if index is None:
        raise _error(dotted, f"no option is named '{name}'", closest(name, names))
    entry = options[index]
    kind = option_kind(entry)
    if kind is None:
        raise _error(dotted, f"option '{name}' does not have exactly one of cloud, own or "
                             "free_tier")
    if not rest:
        return (index,)
    key, tail = rest[0], rest[1:]
    beside, inside = OPTION_MODELS[kind].model_fields, SPEC_MODELS[kind].model_fields
    label = KIND_LABELS[kind]
    article = "an" if label[0] in "aeiou" else "a"
    if key == kind:
        return (index, kind, *_inside_keys(entry, kind, name, tail, dotted))
    if key in KINDS:
        raise _error(dotted, f"option '{name}' is {article} {label} option, not {key}")
    if key in beside:
        if tail:
            raise _error(dotted, f"'{key}' has no keys below it")
        return (index, key)
    if key in inside:
        return (index, kind, *_inside_keys(entry, kind, name, rest, dotted))
    if any(key in OPTION_MODELS[k].model_fields or key in SPEC_MODELS[k].model_fields
           for k in KINDS):
        raise _error(dotted, f"'{key}' does not apply to {article} {label} option")
    raise _error(dotted, f"unknown key '{key}' for option '{name}'",
                 closest(key, [*beside, *inside]))


def _inside_keys(
    entry: Mapping[str, Any], kind: str, name: str, keys: list[str], dotted: str
) -> tuple[Key, ...]:
    if not keys:
        return ()
    value = entry.get(kind)
    if isinstance(value, str):
        raise _error(
            dotted,
            f"{kind} of option '{name}' is the catalog id '{value}'; '{keys[0]}' can be set "
            f"only in an inline {kind} map (set options.{name}.{kind} to a map)",
        )
    return _model_keys(SPEC_MODELS[kind], keys, dotted, f"options.{name}.{kind}")
