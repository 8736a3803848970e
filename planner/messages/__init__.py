"""Messages as data: what the planner says, as a key and parameters, rendered at the end.

Every sentence the rate cards, the engine and evaluation write (why an option is infeasible,
what the reader should know, the units of the cost breakdown, the key inputs, diff's notes) is
a :class:`Message`; every fixed text of the report is a key of the same :data:`CATALOGUE`, one
table of (English, Chinese) templates. :func:`render` turns a message into a sentence in one
language, so a translation is a table of keys, never a parser of sentences.
"""

from planner.messages.catalogue import CATALOGUE
from planner.messages.message import Message, Money, Number, Param, Share, Text
from planner.messages.render import LANGUAGES, keys_of, render

__all__ = ["CATALOGUE", "LANGUAGES", "Message", "Money", "Number", "Param", "Share", "Text",
           "keys_of", "render"]
