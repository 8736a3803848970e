"""A message rendered into a sentence in one language."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from planner.messages.catalogue import CATALOGUE
from planner.messages.message import Message, Money, Number, Share, Text

LANGUAGES = ("en", "zh")

#: Formats a typed value (:class:`Money`, :class:`Share`, :class:`Number`); the report's is
#: :func:`planner.render.fmt.value`, which reads the language from the report's context.
ValueText = Callable[[Any], str]


def plain_value(value: Money | Share | Number) -> str:
    """A typed value without a locale (the report's renderer passes its own formatter)."""
    if isinstance(value, Money):
        text = f"{value.amount:,.2f} {value.currency}"
        return f"{text}/{value.per}" if value.per else text
    if isinstance(value, Share):
        return f"{value.value * 100:g}%"
    return f"{value.value:,.{value.decimals}f}"


def render(message: Text, lang: str = "en", value_text: ValueText | None = None) -> str:
    """``message`` as a sentence in ``lang`` (a str is returned as it is).

    The template is the catalogue's text of the key in ``lang`` (English where the Chinese is
    empty), filled by :meth:`str.format`: names and numbers go in as they are, so the template's
    format spec formats them; typed values go through ``value_text``; nested messages are
    rendered first, in the same language.
    """
    if isinstance(message, str):
        return message
    english, chinese = CATALOGUE[message.key]
    template = chinese if lang == "zh" and chinese else english
    if not message.params:
        return template
    values = value_text or plain_value
    params = {}
    for name, value in message.params:
        if isinstance(value, Message):
            value = render(value, lang, value_text)
        elif isinstance(value, (Money, Share, Number)):
            value = values(value)
        params[name] = value
    return template.format_map(params)


def keys_of(messages: Iterable[Any]) -> Iterator[str]:
    """Every catalogue key used by ``messages``, nested ones included."""
    for message in messages:
        if isinstance(message, Message):
            yield message.key
            yield from keys_of(value for _, value in message.params)
