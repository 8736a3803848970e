"""Where a problem was written: a key path becomes file:line:column.

A problem found on plain data knows its key path only; here it gets the position of its value,
of its key, or of the map that holds (or lacks) the key, as its ``at`` says. A path without a
recorded position (a key that is missing, a dict given from Python) takes that of the nearest
enclosing path.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from planner.errors import Problem
from planner.usage.yaml12 import Position, parent_path

AT = ("value", "key", "map")


def locate(
    problem: Problem,
    file: str | None,
    positions: Mapping[str, Position],
    key_positions: Mapping[str, Position],
) -> Problem:
    """``problem`` with the file, line and column of its path."""
    if problem.at not in AT:
        raise ValueError(f"at must be 'value', 'key' or 'map', got {problem.at!r}")
    path = problem.path
    where = key_positions.get(path) if problem.at == "key" else None
    search: str | None = parent_path(path) if problem.at == "map" else path
    while where is None and search is not None:
        where = positions.get(search)
        search = parent_path(search)
    line, column = where if where else (None, None)
    return dataclasses.replace(problem, file=file, line=line, column=column)


def within(path: str, roots: AbstractSet[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies below one."""
    search: str | None = path
    while search is not None:
        if search in roots:
            return True
        search = parent_path(search)
    return False
