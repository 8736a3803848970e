"""What the figures rest on, for the Result: the assumption rows (catalog rows, and the
exchange rates that converted their prices, located in the user's file) and the date of the
oldest price used (``prices_as_of``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from planner.cards.assumptions import Assumption
from planner.messages import Message


def assumptions(plan) -> list[Assumption]:
    """The resolved plan's assumptions, then one row per exchange rate of ``fx`` that
    converted a catalog price into the plan's currency (an input of the user's: no date, its
    source the place in the file where it was written)."""
    rows = list(plan.resolved.provenance)
    return rows + fx_rows(plan, rows)


def fx_rows(plan, rows: list[Assumption]) -> list[Assumption]:
    """Every ``fx`` rate that a row of ``rows`` was converted with, in the file's order."""
    usage = plan.usage
    currency = str(usage["currency"]).upper()
    used = {r.currency.upper() for r in rows if r.currency}
    out = []
    for code, rate in (usage.get("fx") or {}).items():
        code = str(code).upper()
        if code not in used or code == currency:
            continue
        out.append(Assumption(
            Message("assumption.fx", code=code, currency=currency),
            Message("assumption.fx_value", rate=float(rate)), None,
            _fx_source(plan, code), kind="price"))
    return out


def _fx_source(plan, code: str) -> Message | None:
    """Where ``fx.<code>`` was written ("your input (usage.yaml, line 7)"), None without a
    position (a plan given as a dict)."""
    document = plan.document
    for path in (f"fx.{code}", *(f"fx.{key}" for key in (document.data.get("fx") or {})
                                 if str(key).upper() == code)):
        where = document.key_positions.get(path) or document.positions.get(path)
        if where is not None and document.file:
            return Message("assumption.fx_source", file=Path(document.file).name,
                           line=where[0])
    return None


def assumption_dicts(rows: list[Assumption]) -> list[dict[str, Any]]:
    """The Result's ``assumptions``: item, value, as_of, source and kind of each row, and for a
    price ``price_as_of``, the date of the price itself (``as_of`` is its catalog row's: an
    RTX A6000 priced 2026-07-14 on a GPU row of 2024-07-24; ``None`` for a reference)."""
    return [{"item": r.item, "value": r.value, "as_of": r.as_of, "source": r.source,
             "kind": r.kind, "price_as_of": r.price_as_of} for r in rows]


def prices_as_of(rows: list[Assumption]) -> str | None:
    """The date of the oldest catalog price used (cloud, street, system, free-tier and
    electricity prices; specifications and references do not count), None if none was."""
    dates = sorted(r.price_as_of for r in rows if r.kind == "price" and r.price_as_of)
    return dates[0] if dates else None
