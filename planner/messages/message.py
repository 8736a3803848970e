"""A message (a catalogue key and its parameters) and the typed values it may carry."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Money:
    """An amount of money in ``currency``, or a price per ``per`` unit ("$0.18/kWh")."""

    amount: float
    currency: str
    per: str | None = None


@dataclass(frozen=True)
class Share:
    """A fraction shown as a percentage (0.05: "5%")."""

    value: float


@dataclass(frozen=True)
class Number:
    """A figure shown with thousands separators and ``decimals`` decimals ("1,234")."""

    value: float
    decimals: int = 0


class Message:
    """A catalogue key and its parameters: ``Message("reason.memory", have=24.0, need=40.0)``.

    A parameter is a name or a number (formatted by the template's own format spec,
    ``{have:g}``), a typed value (:class:`Money`, :class:`Share`, :class:`Number`: formatted
    by the renderer, in the reader's locale) or a nested Message (a fallback target's reason
    inside its passer's), rendered in the same language. ``str()`` is the English sentence.
    Messages are immutable and compare by key and parameters. (Not a dataclass: the model's
    code walks dataclass fields, and a message is a leaf to it.)
    """

    __slots__ = ("key", "params")
    key: str
    params: tuple[tuple[str, Param], ...]

    def __init__(self, key: str, /, **params: Param) -> None:
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "params", tuple(params.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Message is immutable: cannot set {name!r}")

    def __reduce__(self):
        return _message, (self.key, self.params)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.key, self.params) == (other.key, other.params)

    def __hash__(self) -> int:
        return hash((self.key, self.params))

    def __repr__(self) -> str:
        params = "".join(f", {name}={value!r}" for name, value in self.params)
        return f"Message({self.key!r}{params})"

    def param(self, name: str) -> Param | None:
        """The parameter ``name``, None without one."""
        return dict(self.params).get(name)

    def __str__(self) -> str:
        from planner.messages.render import render

        return render(self, "en")


def _message(key: str, params: tuple[tuple[str, Param], ...]) -> Message:
    return Message(key, **dict(params))


Param = str | int | float | Money | Share | Number | Message
#: What a renderer takes where a message may stand: a Message, or text that is none (the
#: user's own words, a test's made-up sentence), shown as it is.
Text = Message | str
