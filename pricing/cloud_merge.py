"""Rows of the clouds table laid over earlier ones: per (id, region), keeping the pricings the
later row leaves empty. Used when user catalog files are merged over the built-in catalog
(:func:`pricing.catalog.load_catalog`) and when a refresh is laid over the built rows
(``pricing/tools/build_from_reference.py``).

This module uses only the standard library and never imports ``planner``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["KEPT_PRICINGS", "cloud_key", "keep_pricings", "overlay_clouds"]

KEPT_PRICINGS = ("spot_price_per_hour", "interruptions_per_hour", "reserved_1y_price_per_hour",
                 "reserved_3y_price_per_hour")
"""Pricing cells a later row may leave empty to keep the earlier row's value."""


def cloud_key(row: dict[str, Any]) -> tuple[str, str]:
    """(id, region), lowercase; an empty region is ``*``."""
    return str(row["id"]).lower(), str(row.get("region") or "*").lower()


def _empty(value: Any) -> bool:
    return value is None or value == ""


def keep_pricings(row: dict[str, Any], old: dict[str, Any]) -> dict[str, Any]:
    """``row`` with the pricings it leaves empty taken from ``old``, the row it replaces; its
    notes say which, with ``old``'s as_of. A spot price's interruption rate goes with it."""
    kept = [c for c in KEPT_PRICINGS if _empty(row.get(c)) and not _empty(old.get(c))]
    if "interruptions_per_hour" in kept and "spot_price_per_hour" not in kept:
        kept.remove("interruptions_per_hour")
    if not kept:
        return row
    row = dict(row, **{c: old[c] for c in kept})
    note = f"{', '.join(kept)} kept from the earlier row (as_of {old.get('as_of')})"
    row["notes"] = "; ".join(str(n) for n in (row.get("notes"), note) if n)
    return row


def overlay_clouds(base: Iterable[dict[str, Any]],
                   later: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``base`` rows with ``later`` rows laid over them per (id, region) (:func:`keep_pricings`);
    base rows the later ones do not name stay, in their order, before the later rows."""
    base = list(base)
    before = {cloud_key(r): r for r in base}
    later = list(later)
    named = {cloud_key(r) for r in later}
    kept = [r for r in base if cloud_key(r) not in named]
    laid = [keep_pricings(r, before[cloud_key(r)]) if cloud_key(r) in before else r
            for r in later]
    return kept + laid
