"""What the figures rest on, as messages: the pricing module's provenance rows (a catalog
row's date and source, and what it gives as text keys and parameters) turned into
:class:`Assumption` records whose item and value are :class:`~planner.messages.Message`, so a
report prints them in its reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from planner.messages import Message, Text
from pricing.rates import Provenance

#: The prefix of every provenance text in the message catalogue.
PREFIX = "assumption."


@dataclass(frozen=True)
class Assumption:
    """One thing the figures rest on.

    ``item`` and ``value`` say what it is and what it says; ``as_of`` and ``source`` are the
    catalog row's date and source (``None`` for the user's own input; ``source`` may then be
    a message saying where in the file it was written). ``kind`` is ``"price"`` (dated, and
    warned about when old) or ``"reference"`` (a specification or reference figure).
    ``price_as_of`` is the date of the price (``None`` for a reference); ``currency`` the
    currency it was converted from with the plan's fx rate (``None`` if it was not).
    """

    item: Text
    value: Text
    as_of: str | None
    source: Text | None
    kind: str = "reference"
    price_as_of: str | None = None
    currency: str | None = None


def text_of(key: str, params: tuple[tuple[str, Any], ...]) -> Message:
    """The message ``assumption.<key>`` with ``params``; a tier's list of terms becomes a
    chain of list messages ("30 h/week, 12 h sessions"), an electricity tariff its word
    (``tariff.household``)."""
    values = {}
    for name, value in params:
        if name == "terms":
            value = _joined([text_of(k, p) for k, p in value])
        elif name == "tariff":  # household or business, a word of the reader's language
            value = Message(f"tariff.{value}")
        values[name] = value
    return Message(PREFIX + key, **values)


def _joined(parts: list[Message]) -> Message:
    """Messages joined into one list message, in order (at least one part)."""
    if len(parts) == 1:
        return parts[0]
    return Message(PREFIX + "list", first=parts[0], rest=_joined(parts[1:]))


def from_provenance(row: Provenance) -> Assumption:
    """A pricing provenance row as an assumption with messages."""
    return Assumption(text_of(row.item_key, row.item_params),
                      text_of(row.value_key, row.value_params), row.as_of, row.source,
                      row.kind, row.price_as_of, row.currency)
