"""YAML syntax errors in plain words, for the two commonest slips: a tab in the indentation,
and a line indented unlike the keys (or list items) above it. Other syntax errors keep the
parser's words. The same messages come from libyaml and from PyYAML's pure-Python parser."""

from __future__ import annotations

import yaml

from planner.errors import Problem


def syntax_problem(exc: yaml.MarkedYAMLError, text: str, file: str | None) -> Problem:
    """The parser's error as a located problem: in plain words when it is a tab in the
    indentation or a line indented unlike its neighbours, else in the parser's words."""
    mark = exc.problem_mark or exc.context_mark
    if mark is not None:
        lines = text.splitlines()
        indentation = any(words in (exc.problem or "") for words in _INDENTATION_ERRORS)
        plain = _slip(lines, mark.line, indentation) if mark.line < len(lines) else None
        if plain is not None:
            message, column = plain
            return Problem(message, file=file, line=mark.line + 1, column=column)
    message = " ".join(part for part in (exc.context, exc.problem) if part)
    return Problem(
        f"YAML syntax error: {message or 'cannot parse'}",
        file=file,
        line=mark.line + 1 if mark is not None else None,
        column=mark.column + 1 if mark is not None else None,
    )


TAB_MESSAGE = "tabs are not allowed for indentation in YAML; use spaces"
#: What libyaml and PyYAML say when a line is indented unlike its neighbours.
_INDENTATION_ERRORS = ("expected key", "expected <block end>", "mapping values are not allowed",
                       "expected '-' indicator")


def _slip(lines: list[str], at: int, indentation: bool) -> tuple[str, int] | None:
    """The commonest slips behind a syntax error on line ``at`` (0-based), in plain words,
    with the column to show: a tab in the line's indentation, or (for an ``indentation``
    error of the parser) a line indented unlike the keys above it. None when the line shows
    neither."""
    line = lines[at]
    indent = _indent(line)
    if line[indent:indent + 1] == "\t":
        return TAB_MESSAGE, indent + 1
    above = _content_above(lines, at)
    if not indentation or not line.strip() or line.lstrip().startswith("#") or above is None:
        return None
    if indent in _levels(lines, at) and not _is_item(line):
        return None  # a key at the level of a map above: the slip is elsewhere on the line
    number, previous = above
    if _is_item(line):
        items = [(n, p) for n, p in _lines_above(lines, at) if _is_item(p)]
        if indent in {_indent(p) for _, p in items} or _key_column(previous) == indent:
            return None  # an item of a list above (an inner list may lie between)
        if items:
            n, p = items[0]
            return (f"this list item is indented differently from the item above it (line "
                    f"{n + 1}): it starts in column {indent + 1}, that one in column "
                    f"{_indent(p) + 1}; items of one list line up"), indent + 1
    opens = previous.split(" #")[0].rstrip().endswith(":")
    if opens and indent > _key_column(previous):
        return None  # the first key of a new map: any deeper indentation is fine
    return (f"this line is indented differently from the keys above it (line {number + 1}): "
            f"it starts in column {indent + 1}, they in column {_key_column(previous) + 1}; "
            "keys of one map line up"), indent + 1


def _lines_above(lines: list[str], at: int):
    """The lines above ``at`` that hold content (not blank, not a comment), nearest first."""
    for number in range(at - 1, -1, -1):
        stripped = lines[number].strip()
        if stripped and not stripped.startswith("#") and stripped not in ("---", "..."):
            yield number, lines[number]


def _content_above(lines: list[str], at: int) -> tuple[int, str] | None:
    return next(iter(_lines_above(lines, at)), None)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_item(line: str) -> bool:
    stripped = line.lstrip(" ")
    return stripped == "-" or stripped.startswith("- ")


def _key_column(line: str) -> int:
    """Where the key of a line starts (0-based): after a list item's ``- ``."""
    column = _indent(line)
    while line[column:column + 2] == "- ":
        column += 2
        column += len(line[column:]) - len(line[column:].lstrip(" "))
    return column


def _levels(lines: list[str], at: int) -> set[int]:
    """The columns (0-based) where a key may start on line ``at``: those of the maps that
    enclose it, found by walking up through ever smaller indentation."""
    levels: set[int] = set()
    smallest = None
    for _, line in _lines_above(lines, at):
        column = _indent(line)
        if smallest is None or column < smallest:
            levels.add(_key_column(line))
            levels.add(column)
            smallest = column
        elif smallest is not None and _key_column(line) < smallest:
            levels.add(_key_column(line))
        if smallest == 0:
            break
    return levels
