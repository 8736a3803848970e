"""YAML 1.2 loading that remembers where every key and value was written.

PyYAML parses the text into nodes (no constructor ever runs, so no tag can execute code); this
module turns the nodes into plain data itself. That is where YAML 1.2's core schema is applied
(``1e6`` is a number, ``yes`` and ``1_000`` are text), where duplicate keys are caught, and
where each value's position is recorded under its dotted key path
(``options[2].own.purchase_price``). Lines and columns are 1-based.

A file is read as YAML 1.2 whatever it declares: a ``%YAML 1.1`` directive is a problem (it
would promise that ``yes`` and ``off`` are booleans), and so is a ``!!bool`` tag on anything
but true or false (it would otherwise turn ``!!bool yes`` into a silent false).

A syntax error caused by one of the two commonest slips is said in plain words at its line
(:mod:`planner.usage.yaml_slips`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import BaseResolver

from planner.errors import Problem, UserError
from planner.usage.yaml_slips import syntax_problem

MAX_BYTES = 5 * 1024 * 1024
MAX_VALUES = 200_000

Position = tuple[int, int]

_TAG = "tag:yaml.org,2002:"
#: The booleans of YAML 1.2's core schema, as written.
_TRUE = ("true", "True", "TRUE")
_FALSE = ("false", "False", "FALSE")


class Yaml12Resolver(BaseResolver):
    """The implicit types of YAML 1.2's core schema, plus ``<<`` merge keys."""


for _tag, _pattern, _first in (
    ("bool", rf"^(?:{'|'.join(_TRUE + _FALSE)})$", "tTfF"),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    # int before float: the first matching resolver wins, and "12" matches both patterns.
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        "float",
        (
            r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
            r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
        ),
        "-+0123456789.",
    ),
    ("merge", r"^<<$", "<"),
):
    Yaml12Resolver.add_implicit_resolver(_TAG + _tag, re.compile(_pattern), list(_first))


try:  # libyaml: fast, and it refuses absurd nesting by itself
    from yaml.cyaml import CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml
    CParser = None

if CParser is not None:

    class _Loader(CParser, Yaml12Resolver):  # type: ignore[misc, valid-type]
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Yaml12Resolver.__init__(self)

else:  # pragma: no cover

    class _Loader(  # type: ignore[no-redef]
        yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
        Yaml12Resolver,
    ):
        def __init__(self, stream: str) -> None:
            yaml.reader.Reader.__init__(self, stream)
            yaml.scanner.Scanner.__init__(self)
            yaml.parser.Parser.__init__(self)
            yaml.composer.Composer.__init__(self)
            Yaml12Resolver.__init__(self)


@dataclass
class LoadedYaml:
    """Plain data parsed from YAML, with positions.

    ``positions`` maps a dotted key path to the (line, column) of its value, ``key_positions``
    to that of its key; the root map's path is ``""``. ``problems`` are the problems found while
    building the data (duplicate keys, unsupported tags); parsing went on past them.
    ``unreadable`` are the paths of values with an unsupported tag: kept as plain data, but
    already reported.
    """

    data: Any
    positions: dict[str, Position] = field(default_factory=dict)
    key_positions: dict[str, Position] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    unreadable: set[str] = field(default_factory=set)


def child_path(path: str, key: str | int) -> str:
    """The dotted path of ``key`` inside ``path``: ``options[2]``, ``options[2].own``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def parent_path(path: str) -> str | None:
    """The enclosing path (``options[2].own`` -> ``options[2]`` -> ``options`` -> ``""``)."""
    if not path:
        return None
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


def load_yaml(text: str | bytes, file: str | None = None) -> LoadedYaml:
    """Parse one YAML document into plain data with positions.

    Raises :class:`UserError` when the text cannot be parsed at all (too large, not UTF-8, a
    syntax error, too many values after expanding aliases); problems that leave the rest of the
    document readable are returned in :attr:`LoadedYaml.problems` instead.
    """
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > MAX_BYTES:
        raise UserError.single(
            f"the file is too large ({size / 1e6:.1f} MB); a usage file is at most "
            f"{MAX_BYTES // (1024 * 1024)} MB",
            file=file,
        )
    if isinstance(text, bytes):
        text = _decode(text, file)
    try:
        # A value takes at least one character ("?\n" is a key and its value): a shorter
        # text is counted while it is built, which a long one would take seconds to reach.
        if len(text) > MAX_VALUES // 2:
            _count_values(text, file)
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        raise UserError([syntax_problem(exc, text, file)]) from None
    except yaml.YAMLError as exc:
        raise UserError.single(f"cannot read the YAML: {exc}", file=file) from None
    except RecursionError:
        raise UserError.single("the document is nested too deeply", file=file) from None
    loaded = LoadedYaml(data=None)
    if "%YAML" in text:  # a directive is rare: only then are the events read once more
        loaded.problems += _version_problems(text, file)
    if root is None:
        return loaded
    builder = _Builder(loaded, file)
    try:
        loaded.data = builder.build(root, "")
    except RecursionError:
        raise UserError.single("the document is nested too deeply", file=file) from None
    return loaded


_VALUE_EVENTS = (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent,
                 yaml.AliasEvent)


def _count_values(text: str, file: str | None) -> None:
    """Refuse a document of more than MAX_VALUES values as written, before building any of
    it: counting the parser's events takes a tenth of a second where building a 3 MB list of
    numbers took five."""
    loader = _Loader(text)
    try:
        count = 0
        while loader.check_event():
            if isinstance(loader.get_event(), _VALUE_EVENTS):
                count += 1
                if count > MAX_VALUES:
                    raise UserError.single(
                        f"the document holds more than {MAX_VALUES} values; a usage file "
                        "holds a few hundred", file=file)
    finally:
        loader.dispose()


def _version_problems(text: str, file: str | None) -> list[Problem]:
    """A ``%YAML`` directive other than 1.2, at its line (the parser accepts 1.1 and 1.2 and
    refuses the rest as a syntax error)."""
    loader = _Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.DocumentStartEvent):
                version = event.version
                if version is None or tuple(version) == (1, 2):
                    return []
                return [Problem(
                    f"%YAML {version[0]}.{version[1]}: usage.yaml is read as YAML 1.2, where "
                    "yes, no, on and off are text, not true or false; remove the directive "
                    "and write true or false",
                    file=file, line=event.start_mark.line + 1,
                    column=event.start_mark.column + 1)]
    finally:
        loader.dispose()
    return []


def _decode(raw: bytes, file: str | None) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UserError.single(
            "the file is not UTF-8 text", file=file, line=line, column=column
        ) from None


def _position(node: Node) -> Position:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    """Walks the node graph once, expanding aliases into independent copies."""

    def __init__(self, loaded: LoadedYaml, file: str | None) -> None:
        self.loaded = loaded
        self.file = file
        self.count = 0
        self.open: set[int] = set()  # nodes being built: meeting one again means a cycle

    def build(self, node: Node, path: str) -> Any:
        self.count += 1
        if self.count > MAX_VALUES:
            raise UserError.single(
                f"the document holds more than {MAX_VALUES} values once its aliases are "
                "expanded (an alias bomb?); refusing to read it",
                file=self.file,
            )
        self.loaded.positions.setdefault(path, _position(node))
        if isinstance(node, ScalarNode):
            return self._scalar(node, path)
        if id(node) in self.open:
            raise UserError([self._problem("an alias refers to the value that contains it",
                                           node, path)])
        self.open.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                self._check_tag(node, "seq", path)
                return [self.build(item, child_path(path, i)) for i, item in enumerate(node.value)]
            self._check_tag(node, "map", path)
            return self._mapping(node, path)
        finally:
            self.open.discard(id(node))

    def _mapping(self, node: MappingNode, path: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_line: dict[str, int] = {}
        merges: list[Node] = []
        for key_node, value_node in node.value:
            if isinstance(key_node, ScalarNode) and key_node.tag == _TAG + "merge":
                merges.append(value_node)
                continue
            if not isinstance(key_node, ScalarNode):
                self._add(self._problem("a key must be plain text", key_node, path))
                continue
            key = key_node.value
            here = child_path(path, key)
            if key in result:
                self._add(self._problem(
                    f"duplicate key '{key}' (first given at line {first_line[key]})",
                    key_node, here))
                continue
            first_line[key] = key_node.start_mark.line + 1
            self.loaded.key_positions[here] = _position(key_node)
            result[key] = self.build(value_node, here)
        # Merged keys never override keys written in the map itself; earlier sources win.
        sources = [s for m in merges for s in (m.value if isinstance(m, SequenceNode) else [m])]
        for source in sources:
            if not isinstance(source, MappingNode):
                self._add(self._problem("'<<' merges only maps", source, path))
                continue
            merged, tables = self._build_apart(source, path)
            kept = {child_path(path, key) for key in merged if key not in result}
            for key, value in merged.items():
                result.setdefault(key, value)
            # Only the positions of the keys taken over, each copied once: the cost is the
            # size of the merged map, never that of the whole document (a chain of merges of
            # merges was quadratic, minutes for a 1 kB file).
            for table, scratch in zip((self.loaded.positions, self.loaded.key_positions),
                                      tables):
                for name, where in scratch.items():
                    if _below(name, path, kept):
                        table.setdefault(name, where)
        return result

    def _build_apart(self, node: Node, path: str) -> tuple[Any, tuple[dict, dict]]:
        """Build ``node`` at ``path`` with its positions recorded in tables of its own."""
        saved = self.loaded.positions, self.loaded.key_positions
        self.loaded.positions, self.loaded.key_positions = {}, {}
        try:
            value = self.build(node, path)
            return value, (self.loaded.positions, self.loaded.key_positions)
        finally:
            self.loaded.positions, self.loaded.key_positions = saved

    def _scalar(self, node: ScalarNode, path: str) -> Any:
        tag, text = node.tag, node.value
        kind = tag[len(_TAG):] if tag.startswith(_TAG) else None
        try:
            if kind == "str":
                return text
            if kind == "null":
                return None
            if kind == "bool":
                return _parse_bool(text)
            if kind == "int":
                return _parse_int(text)
            if kind == "float":
                return _parse_float(text)
        except ValueError:
            hint = "; write true or false" if kind == "bool" else ""
            self._add(self._problem(f"'{text}' is not a valid !!{kind}{hint}", node, path))
            self.loaded.unreadable.add(path)
            return text
        self._unsupported_tag(node, path)
        return text

    def _check_tag(self, node: Node, kind: str, path: str) -> None:
        if node.tag != _TAG + kind:
            self._unsupported_tag(node, path)

    def _unsupported_tag(self, node: Node, path: str) -> None:
        self._add(self._problem(f"the tag {_short(node.tag)} is not supported", node, path))
        self.loaded.unreadable.add(path)

    def _problem(self, message: str, node: Node, path: str) -> Problem:
        line, column = _position(node)
        return Problem(message, path=path, file=self.file, line=line, column=column)

    def _add(self, problem: Problem) -> None:
        self.loaded.problems.append(problem)


def _below(name: str, path: str, roots: set[str]) -> bool:
    """Whether ``name`` (a path inside ``path``) is one of ``roots`` or lies below one."""
    if name in roots:
        return True
    start = len(path) + 1 if path else 0
    for i in range(start, len(name)):
        if name[i] in ".[" and name[:i] in roots:
            return True
    return False


def _short(tag: str) -> str:
    return "!!" + tag[len(_TAG):] if tag.startswith(_TAG) else tag


def _parse_bool(text: str) -> bool:
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(text)


def _parse_int(text: str) -> int:
    if text.startswith(("0o", "0x")):
        return int(text, 0)
    return int(text)


def _parse_float(text: str) -> float:
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(text)
