"""Imported rows made a catalog file of the ``clouds`` table: completed from the catalog,
written as CSV, and written completely or not at all.

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from pricing.files import write_atomic
from pricing.import_rows import COLUMNS

__all__ = ["complete", "to_csv", "write_catalog"]


def complete(rows: list[dict[str, Any]], catalog: Any) -> list[dict[str, Any]]:
    """``rows`` with empty cells filled from ``catalog`` (a :class:`pricing.catalog.Catalog`).

    ``gpu_memory_gb`` comes from the row's GPU. ``billing_increment_minutes`` and
    ``storage_per_gb_month`` come from the catalog's rows of the same provider and currency
    where they all agree on one value. ``interruptions_per_hour`` (rows with a spot price only)
    comes from that provider's spot rows likewise, else from the value every spot row of the
    catalog agrees on (its default estimate). A note names the cells filled so.
    """
    memory = {r["id"].lower(): r.get("memory_gb") for r in catalog.rows("gpus")}
    clouds = catalog.rows("clouds")
    by_provider: dict[tuple[Any, Any], list[dict[str, Any]]] = {}
    for r in clouds:
        by_provider.setdefault((r.get("provider"), r.get("currency")), []).append(r)
    defaults = {key: _agreed(same) for key, same in by_provider.items()}
    spot_default = _agreed(clouds)["interruptions_per_hour"]
    done = []
    for row in rows:
        row = dict(row)
        if row.get("gpu_memory_gb") is None and row.get("gpu"):
            row["gpu_memory_gb"] = memory.get(row["gpu"].lower())
        agreed = defaults.get((row.get("provider"), row.get("currency")), {})
        notes = [row.get("notes")]
        filled = []
        for column in ("billing_increment_minutes", "storage_per_gb_month"):
            if row.get(column) is None and agreed.get(column) is not None:
                row[column] = agreed[column]
                filled.append(column)
        if filled:
            notes.append(f"{', '.join(filled)}: the catalog's value for {row['provider']} rows")
        if row.get("spot_price_per_hour") is not None and row.get("interruptions_per_hour") is None:
            if agreed.get("interruptions_per_hour") is not None:
                row["interruptions_per_hour"] = agreed["interruptions_per_hour"]
                notes.append(f"interruptions_per_hour: the catalog's value for {row['provider']} "
                             "spot rows (estimate)")
            elif spot_default is not None:
                row["interruptions_per_hour"] = spot_default
                notes.append("interruptions_per_hour: the catalog's default for spot rows "
                             "(estimate)")
        row["notes"] = "; ".join(n for n in notes if n) or None
        done.append(row)
    return done


def _agreed(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The values all ``rows`` agree on (None where they differ); interruptions: spot rows."""
    spot = [r for r in rows if r.get("spot_price_per_hour") is not None]
    return {
        "billing_increment_minutes": _only({r.get("billing_increment_minutes") for r in rows}),
        "storage_per_gb_month": _only({r.get("storage_per_gb_month") for r in rows}),
        "interruptions_per_hour": _only({r.get("interruptions_per_hour") for r in spot}),
    }


def _only(values: set[Any]) -> Any:
    return next(iter(values)) if len(values) == 1 else None


def to_csv(rows: Iterable[Mapping[str, Any]]) -> str:
    """The CSV text of ``rows`` in the clouds schema (header included; empty cell = None)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([_text(row.get(name)) for name in COLUMNS])
    return out.getvalue()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if value == int(value) and abs(value) < 1e15:
            return str(int(value))
        text = f"{value:.10f}".rstrip("0")
        return text if float(text) == value else repr(value)
    return str(value)


def write_catalog(path: str | Path, text: str,
                  check: Callable[[Path], Any] | None = None) -> Path:
    """Write ``text`` to ``path`` completely or not at all (:func:`pricing.files.write_atomic`).

    ``check(temporary_path)`` may inspect the written file, and raise to stop, before it
    replaces ``path``.
    """
    return write_atomic(path, text.encode("utf-8"), check=check)
