"""Where a problem was written: a key path becomes file:line:column.

A problem found on plain data knows its key path only; here it gets the position of its value,
of its key, or of the map that holds (or lacks) the key. A path without a recorded position
(a key that is missing, a dict given from Python) takes that of the nearest enclosing path.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from planner.errors import Problem
from planner.usage.yaml12 import Position, parent_path


def locate(
    file: str | None,
    positions: Mapping[str, Position],
    key_positions: Mapping[str, Position],
    path: str,
    message: str,
    suggestion: str | None = None,
    at: str = "value",
) -> Problem:
    if at not in ("value", "key", "map"):
        raise ValueError(f"at must be 'value', 'key' or 'map', got {at!r}")
    where = key_positions.get(path) if at == "key" else None
    search: str | None = parent_path(path) if at == "map" else path
    while where is None and search is not None:
        where = positions.get(search)
        search = parent_path(search)
    line, column = where if where else (None, None)
    return Problem(message, path=path, file=file, line=line, column=column,
                   suggestion=suggestion)




def within(path: str, roots: AbstractSet[str]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies below one."""
    search: str | None = path
    while search is not None:
        if search in roots:
            return True
        search = parent_path(search)
    return False
