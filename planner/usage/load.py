"""Reading usage.yaml (SPEC §1): :func:`load_usage` reads a file (or takes a dict), checks
everything at once and returns a :class:`UsageDocument`: the validated
:class:`~planner.usage.models.Usage` plus the position of every key and value, so later stages
can still point at the line a problem comes from.

Fields whose default comes from the catalog stay ``None`` here; the stage that reads the
catalog fills them in. Catalog ids are checked by the ``checks`` the caller passes in (the plan
passes one that looks them up), so their problems are reported with the schema's.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from planner.errors import Problem, UserError
from planner.usage.locate import locate, within
from planner.usage.models import Usage
from planner.usage.pydantic_errors import error_problems
from planner.usage.rules import rule_problems
from planner.usage.uncertainty_rules import uncertainty_problems
from planner.usage.values import describe
from planner.usage.yaml12 import MAX_BYTES, LoadedYaml, Position, load_yaml


@dataclass
class UsageDocument:
    """A validated usage file and where each of its keys and values was written.

    ``positions`` maps dotted key paths (``options[2].own.purchase_price``; ``""`` is the
    whole file) to the 1-based (line, column) of the value, ``key_positions`` to that of the
    key. Both are empty for a dict. ``data`` is the plain data as read (without the defaults).
    """

    usage: Usage
    file: str | None
    positions: dict[str, Position] = field(default_factory=dict)
    key_positions: dict[str, Position] = field(default_factory=dict)
    data: dict[str, Any] = field(default_factory=dict)

    def problem(
        self, path: str, message: str, suggestion: str | None = None, at: str = "value"
    ) -> Problem:
        """A :class:`Problem` located at ``path``.

        ``at`` is ``"value"`` (the value's position), ``"key"`` (the key's) or ``"map"`` (the
        map that holds the key). Without a recorded position the nearest enclosing path that
        has one is used.
        """
        return self.locate(Problem(message, path=path, suggestion=suggestion, at=at))

    def locate(self, problem: Problem) -> Problem:
        """``problem`` (found on the plain data, by its key path) at its place in the file."""
        return locate(problem, self.file, self.positions, self.key_positions)


#: Extra checks on the plain data (e.g. that catalog ids exist), run with the schema's own.
Checks = Callable[[Mapping[str, Any]], "list[Problem]"]


def load_usage(
    source: str | os.PathLike[str] | Mapping[str, Any], *, name: str | None = None,
    checks: Checks | None = None,
) -> UsageDocument:
    """Read and check a usage file (a path) or usage data (a dict).

    ``name`` is the file the data is known by: it is shown in problems and gives the default
    title (its stem), also for a dict (e.g. a changed copy of a file's data). ``checks`` finds
    more problems in the plain data; they are located and reported with the schema's. Raises
    :class:`UserError` with every problem found, each located as precisely as possible.
    """
    if isinstance(source, Mapping):
        return _check(copy.deepcopy(dict(source)), name, {}, {}, [], checks=checks)
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"load_usage takes a path or a dict, got {type(source).__name__}")
    file = name or os.fspath(source)
    return _check_loaded(load_yaml(_read(source, file), file), file, checks)


def load_usage_text(text: str | bytes, *, name: str | None = None,
                    checks: Checks | None = None) -> UsageDocument:
    """Like :func:`load_usage`, for YAML text (``name``: the file it came from, if any;
    :data:`STDIN` for standard input, whose default title is ``plan``)."""
    return _check_loaded(load_yaml(text, name), name, checks)


#: The name standard input's usage data is known by in problems (``planner report -``).
STDIN = "<stdin>"


def raw_document(source: str | os.PathLike[str] | Mapping[str, Any]) -> dict[str, Any]:
    """The plain data of a usage file or dict (a deep copy; no defaults filled in).

    Raises :class:`UserError` if the file cannot be read as one YAML map.
    """
    if isinstance(source, Mapping):
        return copy.deepcopy(dict(source))
    file = os.fspath(source)
    loaded = load_yaml(_read(source, file), file)
    _require_map(loaded.data, file, loaded.positions)
    if loaded.problems:
        raise UserError(loaded.problems)
    return loaded.data


def _read(source: str | os.PathLike[str], file: str) -> bytes:
    path = Path(source)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise UserError.single("this is a folder, not a usage file", file=file)
        if size > MAX_BYTES:
            raise UserError.single(
                f"the file is too large ({size / 1e6:.1f} MB); a usage file is at most "
                f"{MAX_BYTES // (1024 * 1024)} MB", file=file)
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError.single("no such file", file=file) from None
    except OSError as exc:
        raise UserError.single(f"cannot read the file: {exc.strerror or exc}", file=file) from None


def _require_map(data: Any, file: str | None, positions: Mapping[str, Position]) -> None:
    if data is None:
        raise UserError.single(
            "the file is empty; a usage file is a map with version, demand and options",
            file=file)
    if not isinstance(data, dict):
        line, column = positions.get("", (None, None))
        raise UserError.single(
            f"the top level must be a map of keys (version, demand, options, …), got "
            f"{describe(data)}", file=file, line=line, column=column)


def _check_loaded(loaded: LoadedYaml, file: str | None,
                  checks: Checks | None = None) -> UsageDocument:
    _require_map(loaded.data, file, loaded.positions)
    return _check(loaded.data, file, loaded.positions, loaded.key_positions, loaded.problems,
                  loaded.unreadable, checks)


def _check(
    data: dict[str, Any],
    file: str | None,
    positions: dict[str, Position],
    key_positions: dict[str, Position],
    problems: list[Problem],
    unreadable: AbstractSet[str] = frozenset(),
    checks: Checks | None = None,
) -> UsageDocument:
    given = dict(data)
    if "title" not in given:
        given["title"] = Path(file).stem if file and file != STDIN else "plan"
    unlocated: list[Problem] = []
    usage = None
    try:
        usage = Usage.model_validate(given, context={"skip_rules": True})
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            unlocated += error_problems(error)
    unlocated += rule_problems(given)
    unlocated += uncertainty_problems(given)
    if checks is not None:
        unlocated += checks(given)
    found = list(problems)
    for problem in unlocated:
        if within(problem.path, unreadable):
            continue  # its unsupported tag is reported already
        found.append(locate(problem, file, positions, key_positions))
    if found or usage is None:
        unique = list(dict.fromkeys(found))
        unique.sort(key=lambda p: (p.line is None, p.line or 0, p.column or 0))
        raise UserError(unique)
    return UsageDocument(usage, file, positions, key_positions, data)
