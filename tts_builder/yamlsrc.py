"""YAML with positions: plain data plus a map from field paths to file locations.

Field paths look like ``rules.chips[0].purple``. Every error about a value can then name the
file, line and column where that value was written. The document is composed by libyaml (the C
loader) when PyYAML has it, else by the pure-Python loader; one loader composes the document and
constructs its scalars.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import DefinitionError, DefinitionErrors, FieldError, Location, field_errors

#: The fastest safe loader PyYAML has here: libyaml's when it is installed.
LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class SourceDoc:
    """A parsed YAML document and where each of its values came from."""

    path: Path
    data: Any
    locations: dict[str, Location]

    def locate(self, field: str) -> Location:
        """The location of ``field``, or of its nearest ancestor that has one."""
        probe = field
        while probe:
            if probe in self.locations:
                return self.locations[probe]
            probe = _parent(probe)
        return self.locations.get("", Location(self.path, 1, 1))

    def error(self, field: str, message: str) -> DefinitionError:
        """A one-line definition error pointing at ``field``."""
        return DefinitionError(self.locate(field), field, message)

    def reraise(self, err: FieldError) -> DefinitionError:
        """Turn a location-less :class:`FieldError` into a located one (several: a
        :class:`DefinitionErrors`, sorted by line)."""
        located = [self.error(one.field, one.detail) for one in field_errors(err)]
        return located[0] if len(located) == 1 else DefinitionErrors(located)


def join(parent: str, key: str | int) -> str:
    """The path of a child: ``join("a", "b") == "a.b"``, ``join("a", 0) == "a[0]"``."""
    if isinstance(key, int):
        return f"{parent}[{key}]"
    return f"{parent}.{key}" if parent else key


def _parent(path: str) -> str:
    if path.endswith("]"):
        return path[: path.rindex("[")]
    return path.rpartition(".")[0]


def parse_yaml(text: str, path: Path) -> SourceDoc:
    """Parse ``text`` (read from ``path``) into plain data with locations.

    Raises :class:`DefinitionError` for syntax errors, duplicate keys, non-string keys and
    YAML features a game definition has no use for (tags, anchors reused as merge keys),
    and a text longer than :data:`MAX_DOCUMENT_BYTES` characters (or a value longer than
    :data:`MAX_SCALAR`).
    """
    if len(text) > MAX_DOCUMENT_BYTES:
        raise too_big(path)
    try:
        loader, node = _compose(LOADER, text, path)
    except DefinitionError:
        if LOADER is yaml.SafeLoader:
            raise
        # libyaml reports a syntax error where it gave up (often the end of the file); the
        # pure-Python loader names the place and the token, so it words the error instead.
        loader, node = _compose(yaml.SafeLoader, text, path)
    try:
        locations: dict[str, Location] = {}
        if node is None:
            locations[""] = Location(path, 1, 1)
            return SourceDoc(path, None, locations)
        data = _Converter(loader, path, locations).convert(node, "")
        return SourceDoc(path, data, locations)
    finally:
        loader.dispose()


def _compose(loader_class: type, text: str, path: Path) -> tuple[Any, yaml.Node | None]:
    """A loader of ``loader_class`` and the document's node tree; syntax errors located."""
    try:
        loader = loader_class(text)
    except yaml.YAMLError as err:  # the pure-Python reader checks the characters up front
        raise _located(err, path, text) from None
    try:
        return loader, loader.get_single_node()
    except yaml.YAMLError as err:
        loader.dispose()
        raise _located(err, path, text) from None
    except RecursionError:  # nesting deeper than the composer can follow
        loader.dispose()
        raise DefinitionError(
            Location(path, 1, 1), "", f"YAML nested too deep (more than {MAX_DEPTH} levels)"
        ) from None


def too_big(path: Path) -> DefinitionError:
    """The error of a definition longer than :data:`MAX_DOCUMENT_BYTES`."""
    return DefinitionError(
        Location(path, 1, 1), "",
        f"larger than {MAX_DOCUMENT_BYTES:,} bytes (1 MiB), the most a definition may hold",
    )  # fmt: skip


def _located(err: yaml.YAMLError, path: Path, text: str) -> DefinitionError:
    if isinstance(err, yaml.MarkedYAMLError):
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (err.problem or err.context or "invalid YAML").strip()
        return DefinitionError(Location(path, line, col), "", f"YAML syntax error: {problem}")
    if isinstance(err, yaml.reader.ReaderError):  # a control character: no mark, a position
        return DefinitionError(
            text_location(path, text, err.position), "",
            f"YAML error: unacceptable character #x{err.character:04x}: {err.reason}",
        )  # fmt: skip
    return DefinitionError(Location(path, 1, 1), "", f"YAML error: {' '.join(str(err).split())}")


def text_location(path: Path, text: str | bytes, offset: int) -> Location:
    """The line and column of ``offset`` (a character or byte index) in ``text``."""
    newline = "\n" if isinstance(text, str) else b"\n"
    line = text.count(newline, 0, offset) + 1
    return Location(path, line, offset - (text.rfind(newline, 0, offset) + 1) + 1)


def _loc(node: yaml.Node, path: Path) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


_STR_TAG = "tag:yaml.org,2002:str"
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Characters no designer text holds: control characters but tab, newline and carriage return
#: (XML cannot hold them, a terminal obeys them) and the non-characters U+FFFE and U+FFFF.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
_MERGE_TAG = "tag:yaml.org,2002:merge"


#: The largest definition, in bytes of UTF-8 (characters of a text): the bundled games' largest
#: is 27 KB, so 1 MiB leaves room for a game forty times bigger and keeps parsing well under a
#: second; a bigger file is refused before it is read whole.
MAX_DOCUMENT_BYTES = 2**20
#: The longest value (a text, a number's digits, a key) a definition may write, in characters:
#: above the longest text field's own limit (a description's 8,000, the Steam Workshop's), so
#: that a field's limit and its reason are what an error names; this one bounds what no field's
#: spec measures (layout texts, roster fields).
MAX_SCALAR = 10_000
#: The most values a definition may hold once its aliases are expanded (bundled games hold
#: about 1,000): a few lines of nested aliases could otherwise expand to billions.
MAX_VALUES = 100_000
#: The deepest a definition's values may nest (bundled games: 7 levels); a recursive alias
#: (``a: &x [*x]``) would otherwise nest without end.
MAX_DEPTH = 64


class _Converter:
    """Nodes to plain data, recording each value's location; scalars built by ``loader``."""

    def __init__(self, loader: Any, path: Path, locations: dict[str, Location]) -> None:
        self.loader = loader
        self.path = path
        self.locations = locations
        self.values = 0

    def text(self, node: yaml.ScalarNode, field: str) -> str:
        """A string scalar's text: one Unicode text can hold (no lone surrogate, which an
        escape such as ``"\\ud800"`` writes and no file, Lua or JSON output can) and every
        output shows as written (no control character, which an escape such as ``"\\e"``
        writes: XML cannot hold it and a terminal obeys it)."""
        self.short(node, field)
        found = _SURROGATE.search(node.value)
        if found:
            raise DefinitionError(
                _loc(node, self.path), field,
                f"U+{ord(found.group()):04X} is half of a character pair, not a character",
            )  # fmt: skip
        found = _CONTROL.search(node.value)
        if found:
            raise DefinitionError(
                _loc(node, self.path), field,
                f"U+{ord(found.group()):04X} is a control character (or U+FFFE/U+FFFF), not "
                "text: a text may hold tabs and line breaks",
            )  # fmt: skip
        return node.value

    def short(self, node: yaml.ScalarNode, field: str) -> None:
        """Refuse a scalar longer than :data:`MAX_SCALAR` characters (a key, a text, digits)."""
        if len(node.value) > MAX_SCALAR:
            raise DefinitionError(
                _loc(node, self.path), field,
                f"{len(node.value):,} characters: a value may have at most {MAX_SCALAR:,}",
            )  # fmt: skip

    def convert(self, node: yaml.Node, field: str, depth: int = 0) -> Any:
        path, locations = self.path, self.locations
        self.values += 1
        if depth > MAX_DEPTH:  # a recursive alias, or nesting no definition needs
            raise DefinitionError(
                _loc(node, path), field.split(".")[0].split("[")[0],
                f"values nested more than {MAX_DEPTH} levels deep (a recursive alias?)",
            )  # fmt: skip
        if self.values > MAX_VALUES:  # aliases expanding without bound ("billion laughs")
            raise DefinitionError(
                _loc(node, path), field,
                f"more than {MAX_VALUES:,} values: aliases (*name) repeat too much",
            )  # fmt: skip
        locations[field] = _loc(node, path)
        if isinstance(node, yaml.MappingNode):
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    raise DefinitionError(
                        _loc(key_node, path), field, "merge keys (<<) are not supported"
                    )
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _STR_TAG:
                    raise DefinitionError(_loc(key_node, path), field, "keys must be plain strings")
                key = self.text(key_node, field)
                child = join(field, key)
                if key in result:
                    raise DefinitionError(_loc(key_node, path), child, "duplicate key")
                result[key] = self.convert(value_node, child, depth + 1)
                locations[child] = _loc(value_node, path)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [
                self.convert(item, join(field, index), depth + 1)
                for index, item in enumerate(node.value)
            ]
        if node.tag == _STR_TAG:
            return self.text(node, field)
        self.short(node, field)
        try:
            return self.loader.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError) as err:  # ValueError: e.g. "!!int x"
            problem = " ".join(str(getattr(err, "problem", None) or err).split())
            raise DefinitionError(_loc(node, path), field, f"bad value: {problem}") from None
