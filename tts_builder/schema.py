"""A small declarative schema for game definitions.

Specs are plain objects; :func:`validate` walks a value and raises :class:`FieldError` with the
field path and a message such as ``expected an integer >= 0, got 'twelve'``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import FieldError
from .yamlsrc import join

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


class Spec:
    """Base class: ``check(value, path)`` raises FieldError when the value does not fit."""

    def check(self, value: Any, path: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def fail(self, path: str, expected: str, value: Any) -> FieldError:
        return FieldError(path, f"expected {expected}, got {_show(value)}")


@dataclass(frozen=True)
class Int(Spec):
    min: int | None = None
    max: int | None = None

    def describe(self) -> str:
        if self.min is not None and self.max is not None:
            return f"an integer from {self.min} to {self.max}"
        if self.min is not None:
            return f"an integer >= {self.min}"
        if self.max is not None:
            return f"an integer <= {self.max}"
        return "an integer"

    def check(self, value: Any, path: str) -> None:
        ok = isinstance(value, int) and not isinstance(value, bool)
        if ok and self.min is not None and value < self.min:
            ok = False
        if ok and self.max is not None and value > self.max:
            ok = False
        if not ok:
            raise self.fail(path, self.describe(), value)


@dataclass(frozen=True)
class Num(Spec):
    def check(self, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, "a number", value)
        if not math.isfinite(value):  # YAML's .nan and .inf
            raise self.fail(path, "a finite number", value)


@dataclass(frozen=True)
class Str(Spec):
    pattern: str | None = None
    hint: str = "a non-empty string"

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, self.hint, value)
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise self.fail(path, self.hint, value)


@dataclass(frozen=True)
class Bool(Spec):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise self.fail(path, "true or false", value)


@dataclass(frozen=True)
class Color(Spec):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or not _HEX_COLOR.match(value):
            raise self.fail(path, 'a colour "#rrggbb"', value)


@dataclass(frozen=True)
class OneOf(Spec):
    values: tuple[str, ...]

    def check(self, value: Any, path: str) -> None:
        if value not in self.values:
            raise self.fail(path, "one of " + ", ".join(self.values), value)


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    min_len: int = 0
    max_len: int | None = None

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise self.fail(path, "a list", value)
        if len(value) < self.min_len:
            raise FieldError(path, f"expected at least {self.min_len} entries, got {len(value)}")
        if self.max_len is not None and len(value) > self.max_len:
            raise FieldError(path, f"expected at most {self.max_len} entries, got {len(value)}")
        for index, item in enumerate(value):
            self.item.check(item, join(path, index))


@dataclass(frozen=True)
class Point(Spec):
    """A fixed-length list of numbers, e.g. ``[x, z]``."""

    size: int = 2

    def check(self, value: Any, path: str) -> None:
        if (
            not isinstance(value, list)
            or len(value) != self.size
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)
            or not all(math.isfinite(v) for v in value)
        ):
            raise self.fail(path, f"a list of {self.size} finite numbers", value)


@dataclass(frozen=True)
class Map(Spec):
    """A mapping with known keys; keys not listed are rejected."""

    fields: Mapping[str, Spec]
    optional: frozenset[str] = field(default_factory=frozenset)

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, "a mapping", value)
        for key in value:
            if key not in self.fields:
                known = ", ".join(sorted(self.fields))
                raise FieldError(join(path, key), f"unknown key (known keys: {known})")
        for key, spec in self.fields.items():
            if key not in value:
                if key in self.optional:
                    continue
                raise FieldError(join(path, key) if path else key, "missing required key")
            spec.check(value[key], join(path, key))


@dataclass(frozen=True)
class Custom(Spec):
    """Delegates to a function ``fn(value, path)`` that raises FieldError."""

    fn: Callable[[Any, str], None]

    def check(self, value: Any, path: str) -> None:
        self.fn(value, path)


def validate(spec: Spec, value: Any, path: str = "") -> None:
    """Raise :class:`FieldError` at the first place ``value`` does not fit ``spec``."""
    spec.check(value, path)
