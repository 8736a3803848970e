"""What both layouts of a price list share: the ``clouds`` columns, the result of a reading
(:class:`Imported`), and the parsing of a number and a provider name.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pricing.schema import TABLES
from pricing.table_file import non_negative_number

__all__ = ["COLUMNS", "PROVIDER", "Imported", "clouds_row", "number"]

COLUMNS = tuple(c.name for c in TABLES["clouds"])
"""The clouds table's columns, in its order: the columns of every imported row."""

PROVIDER = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
"""A provider name as the catalog spells it."""


@dataclass
class Imported:
    """Rows in the ``clouds`` schema and the input rows left out, counted by reason."""

    rows: list[dict[str, Any]]
    skipped: dict[str, int] = field(default_factory=dict)

    def skip(self, reason: str, count: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + count


def number(text: str, name: str) -> float | None:
    """A non-negative finite number (:func:`pricing.table_file.non_negative_number`), or None
    for an empty cell."""
    return non_negative_number(text, name) if text else None


def clouds_row(**values: Any) -> dict[str, Any]:
    """A clouds row: every column, in the table's order."""
    if not values.get("id"):
        values["id"] = f"{values['provider']}/{values['instance']}"
    return {name: values.get(name) for name in COLUMNS}
