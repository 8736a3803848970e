"""What a report says, as plain data (being split into modules: see answer.py)."""

from planner.render.content.answer import *
