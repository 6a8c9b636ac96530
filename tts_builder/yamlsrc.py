"""YAML with positions: plain data plus a map from field paths to file locations.

Field paths look like ``rules.chips[0].purple``. Every error about a value can then name the
file, line and column where that value was written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import DefinitionError, FieldError, Location


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
        """Turn a location-less :class:`FieldError` into a located one."""
        return self.error(err.field, err.detail)


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
    YAML features a game definition has no use for (tags, anchors reused as merge keys).
    """
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (err.problem or err.context or "invalid YAML").strip()
        raise DefinitionError(
            Location(path, line, col), "", f"YAML syntax error: {problem}"
        ) from None
    except yaml.YAMLError as err:  # pragma: no cover - non-marked errors are rare
        raise DefinitionError(Location(path, 1, 1), "", f"YAML error: {err}") from None
    locations: dict[str, Location] = {}
    if node is None:
        locations[""] = Location(path, 1, 1)
        return SourceDoc(path, None, locations)
    data = _convert(node, "", path, locations)
    return SourceDoc(path, data, locations)


def _loc(node: yaml.Node, path: Path) -> Location:
    return Location(path, node.start_mark.line + 1, node.start_mark.column + 1)


def _convert(node: yaml.Node, field: str, path: Path, locations: dict[str, Location]) -> Any:
    locations[field] = _loc(node, path)
    if isinstance(node, yaml.MappingNode):
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise DefinitionError(
                    _loc(key_node, path), field, "merge keys (<<) are not supported"
                )
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != "tag:yaml.org,2002:str":
                raise DefinitionError(_loc(key_node, path), field, "keys must be plain strings")
            key = key_node.value
            child = join(field, key)
            if key in result:
                raise DefinitionError(_loc(key_node, path), child, "duplicate key")
            result[key] = _convert(value_node, child, path, locations)
            locations[child] = _loc(value_node, path)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, join(field, index), path, locations)
            for index, item in enumerate(node.value)
        ]
    constructor = yaml.SafeLoader("")
    try:
        return constructor.construct_object(node, deep=True)
    except yaml.YAMLError as err:
        problem = " ".join(str(getattr(err, "problem", None) or err).split())
        raise DefinitionError(_loc(node, path), field, f"bad value: {problem}") from None
    finally:
        constructor.dispose()
