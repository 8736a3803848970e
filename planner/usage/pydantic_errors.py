"""pydantic's validation errors in the user's words: each error of the schema becomes the
problems it stands for, at its key path ("unknown key 'prise' (did you mean price?)", "'gpu'
belongs inside own:, not beside it", "must be at least 0, got -1")."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from planner.errors import Problem, closest
from planner.usage.models import Demand, Site, Usage
from planner.usage.options import (
    AUTO,
    MACHINE_FORMS,
    OPTION_MODELS,
    PER_TERM,
    RESERVED_FORMS,
    SCALING_FORMS,
    SPEC_MODELS,
    Financing,
)
from planner.usage.uncertainty import Correlation, Distribution, Uncertainty
from planner.usage.values import COMMON_CURRENCIES, describe, format_number, iso_currencies
from planner.usage.vocabulary import KIND_LABELS, KINDS, NAME_PATTERN
from planner.usage.yaml12 import child_path


def _loc_path(loc: tuple[Any, ...]) -> str:
    path = ""
    for part in loc:
        path = child_path(path, part if isinstance(part, int) else str(part))
    return path


def _strip_tags(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], str | None]:
    """Drop the discriminator tags pydantic puts into locations; also return the entry's kind.

    ``('options', 2, 'cloud', 'cloud', 'map', 'price_per_hour')`` ->
    ``('options', 2, 'cloud', 'price_per_hour')``, ``'cloud'``.
    """
    if len(loc) >= 3 and loc[0] == "options" and isinstance(loc[1], int) and loc[2] in KINDS:
        kind = loc[2]
        rest = loc[3:]
        if len(rest) >= 2 and rest[0] in ("cloud", "free_tier") and rest[1] in ("id", "map"):
            rest = rest[:1] + rest[2:]
        if len(rest) >= 2 and rest[0] == "reserved_instances" and rest[1] in RESERVED_FORMS:
            rest = rest[:1] + rest[2:]
        if len(rest) >= 3 and rest[:2] == ("own", "machines") and rest[2] in MACHINE_FORMS:
            rest = rest[:2] + rest[3:]
        if len(rest) >= 2 and rest[0] == "scaling_efficiency" and rest[1] in SCALING_FORMS:
            rest = rest[:1] + rest[2:]
        return loc[:2] + rest, kind
    return loc, None


def _model_at(loc: tuple[Any, ...], kind: str | None) -> type[BaseModel] | None:
    """The model that reads the map at ``loc`` (a stripped location)."""
    fixed: dict[tuple[Any, ...], type[BaseModel]] = {
        (): Usage, ("demand",): Demand, ("site",): Site, ("uncertainty",): Uncertainty}
    if loc in fixed:
        return fixed[loc]
    if len(loc) == 3 and loc[:2] == ("uncertainty", "inputs"):
        return Distribution
    if len(loc) == 3 and loc[:2] == ("uncertainty", "correlations"):
        return Correlation
    if len(loc) >= 2 and loc[0] == "options" and isinstance(loc[1], int) and kind:
        rest = loc[2:]
        if rest == ():
            return OPTION_MODELS[kind]
        if rest == (kind,):
            return SPEC_MODELS[kind]
        if rest == ("own", "financing"):
            return Financing
    return None


def _other_kinds_keys(kind: str) -> dict[str, str]:
    """Keys of the other kinds (inside or beside their kind key) -> that kind."""
    owners: dict[str, str] = {}
    for other in KINDS:
        if other != kind:
            for key in (*OPTION_MODELS[other].model_fields, *SPEC_MODELS[other].model_fields):
                owners.setdefault(key, other)
    return owners


def _unknown_key(loc: tuple[Any, ...], kind: str | None) -> Problem:
    key = str(loc[-1])
    path = _loc_path(loc)
    parent = loc[:-1]
    model = _model_at(parent, kind)
    allowed = list(model.model_fields) if model else []
    if kind and len(parent) >= 2 and parent[0] == "options":
        label = KIND_LABELS[kind]
        beside, inside = OPTION_MODELS[kind].model_fields, SPEC_MODELS[kind].model_fields
        level = parent[2:]
        if level == () and key in inside:
            return Problem(f"'{key}' belongs inside {kind}:, not beside it", path=path, at="key")
        if level == (kind,) and key in beside:
            return Problem(f"'{key}' goes beside {kind}:, not inside it", path=path, at="key")
        if key not in allowed and key in _other_kinds_keys(kind):
            article = "an" if label[0] in "aeiou" else "a"
            return Problem(f"'{key}' does not apply to {article} {label} option", path=path,
                           at="key")
    return Problem(f"unknown key '{key}'", path=path, at="key", suggestion=closest(key, allowed))


def _unknown_option_keys(entry: Mapping[str, Any], here: str) -> list[Problem]:
    """For an entry without a kind: its keys that no kind of option has."""
    known = {k for kind in KINDS for k in (*OPTION_MODELS[kind].model_fields,
                                           *SPEC_MODELS[kind].model_fields)}
    beside = {k for model in OPTION_MODELS.values() for k in model.model_fields}
    return [
        Problem(f"unknown key '{key}'", path=child_path(here, str(key)), at="key",
                suggestion=closest(key, sorted(beside)))
        for key in entry if key not in known
    ]


def _auto_suggestion(value: Any) -> str | None:
    """'auto' for a word that means it ('Auto', 'AUTO', 'automatic', 'autom')."""
    if not isinstance(value, str):
        return None
    word = value.strip().lower()
    if word.startswith(AUTO) or (len(word) >= 2 and AUTO.startswith(word)):
        return AUTO
    return closest(word, [AUTO])


def _literals(annotation: Any) -> list[Any]:
    """The values a ``Literal[...]`` (possibly inside ``Optional`` or ``Annotated``) allows."""
    if typing.get_origin(annotation) is Literal:
        return list(typing.get_args(annotation))
    return [value for inner in typing.get_args(annotation) for value in _literals(inner)]


def _choices(loc: tuple[Any, ...], kind: str | None) -> list[str]:
    """The values the choice key at ``loc`` (a stripped location) allows, in their order."""
    model = _model_at(loc[:-1], kind) if loc else None
    field = model.model_fields.get(str(loc[-1])) if model else None
    return [str(v) for v in _literals(field.annotation)] if field else []


_BOUNDS = {
    "greater_than": ("gt", "greater than"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "less_than_equal": ("le", "at most"),
}


def error_problems(error: Mapping[str, Any]) -> list[Problem]:
    """The problems one pydantic error stands for (a missing kind may hide unknown keys)."""
    loc, kind = _strip_tags(tuple(error["loc"]))
    path = _loc_path(loc)
    kind_of_error = error["type"]
    value = error.get("input")
    if kind_of_error == "extra_forbidden":
        return [_unknown_key(loc, kind)]
    if loc[-1:] == ("reserved_instances",) and kind_of_error in ("literal_error",
                                                                  "integer_type"):
        return [Problem(f"expected a whole number of instances, {PER_TERM}, or a list of whole "
                        f"numbers (one per term), got {describe(value)}", path=path,
                        suggestion=closest(value, [PER_TERM]) if isinstance(value, str)
                        else None)]
    if loc[-2:] == ("own", "machines") and kind_of_error in ("literal_error", "integer_type",
                                                            "integer_fraction"):
        return [Problem(f"expected a whole number of machines (0 or more) or {AUTO}, got "
                        f"{describe(value)}", path=path, suggestion=_auto_suggestion(value))]
    if loc[-1:] == ("scaling_efficiency",) and kind_of_error not in ("missing",):
        # SPEC §8: a fraction in (0, 1] or auto (the word's near misses suggested).
        return [Problem(f"expected a fraction above 0 and at most 1, or {AUTO}, got "
                        f"{describe(value)}", path=path, suggestion=_auto_suggestion(value))]
    if kind_of_error == "missing":
        return [Problem("required key missing", path=path)]
    if kind_of_error == "option_kind":
        if not isinstance(value, Mapping):
            return [Problem(f"expected a map with name and one of cloud, own or free_tier, "
                        f"got {describe(value)}", path=path)]
        given = [k for k in KINDS if k in value]
        if given:
            return [Problem(f"an option has exactly one of cloud, own or free_tier; this "
                        f"one has {' and '.join(given)}", path=path)]
        return [Problem("an option needs one of cloud, own or free_tier", path=path),
                *_unknown_option_keys(value, path)]
    if kind_of_error in ("model_type", "dict_type", "model_attributes_type"):
        return [Problem(f"expected a map, got {describe(value)}", path=path)]
    if kind_of_error == "list_type":
        return [Problem(f"expected a list, got {describe(value)}", path=path)]
    if kind_of_error == "too_long":
        count = (len(value) if isinstance(value, (list, tuple))
                 else error["ctx"].get("actual_length"))
        what = "options" if path == "options" else "entries"
        return [Problem(f"at most {error['ctx']['max_length']} {what} are allowed, got "
                        f"{count}", path=path)]
    if kind_of_error == "too_short":
        return [Problem(f"needs at least {error['ctx']['min_length']} entry", path=path)]
    if kind_of_error in ("string_type", "id_or_map"):
        expected = "text" if kind_of_error == "string_type" else error["msg"][len("expected "):]
        return [Problem(f"expected {expected}, got {describe(value)}", path=path)]
    if kind_of_error == "string_too_short":
        return [Problem("must not be empty", path=path)]
    if kind_of_error == "string_pattern_mismatch":
        if error["ctx"]["pattern"] == NAME_PATTERN:
            return [Problem(f"an option name cannot contain '.', got {value!r}", path=path)]
        at = "key" if loc and loc[-1] == "[key]" else "value"
        if at == "key":
            path = _loc_path(loc[:-1])
        upper = value.upper() if isinstance(value, str) else None
        return [Problem(f"expected a currency code of 3 capital letters (ISO 4217, like "
                        f"USD), got {value!r}", path=path, at=at,
                        suggestion=upper if upper and len(upper) == 3 and upper.isalpha() else None)]
    if kind_of_error == "currency_unknown":
        at = "key" if loc and loc[-1] == "[key]" else "value"
        if at == "key":
            path = _loc_path(loc[:-1])
        return [Problem(f"{value!r} is not an ISO 4217 currency code", path=path, at=at,
                        suggestion=closest(value, COMMON_CURRENCIES)
                        or closest(value, iso_currencies()))]
    if kind_of_error == "bool_type":
        return [Problem(f"expected true or false, got {describe(value)}", path=path)]
    if kind_of_error == "literal_error":
        choices = _choices(loc, kind)
        if not choices:  # pragma: no cover - every choice key sits in a known model
            return [Problem(f"expected {error['ctx']['expected']}, got {describe(value)}",
                            path=path)]
        return [Problem(f"expected one of {', '.join(choices)}, got {describe(value)}",
                        path=path, suggestion=closest(value, choices))]
    if kind_of_error in _BOUNDS:
        name, words = _BOUNDS[kind_of_error]
        bound = format_number(error["ctx"][name])
        return [Problem(f"must be {words} {bound}, got {describe(value)}", path=path)]
    return [Problem(error["msg"], path=path)]
