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
    """A number (int or float, not bool), finite, from ``min`` to ``max`` when given."""

    min: float | None = None
    max: float | None = None

    def describe(self) -> str:
        if self.min is not None and self.max is not None:
            return f"a number from {self.min:g} to {self.max:g}"
        return "a number"

    def check(self, value: Any, path: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(path, self.describe(), value)
        if not math.isfinite(value):  # YAML's .nan and .inf
            raise self.fail(path, "a finite number", value)
        low = -math.inf if self.min is None else self.min
        high = math.inf if self.max is None else self.max
        if not low <= value <= high:
            raise self.fail(path, self.describe(), value)


@dataclass(frozen=True)
class Str(Spec):
    pattern: str | None = None
    hint: str = "a non-empty string"

    def describe(self) -> str:
        return self.hint

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

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)

    def check(self, value: Any, path: str) -> None:
        if value not in self.values:
            raise self.fail(path, self.describe(), value)


@dataclass(frozen=True)
class ListOf(Spec):
    """A list of ``item``, ``min_len`` to ``max_len`` long; with ``unique``, no two entries
    have the same value of that key (the second fails: "animal 'Hippo' listed twice", the
    entry named ``what``); with ``at_least``, as many entries as a number of the definition;
    with ``covers``, a by-player-count table covering the definition's player counts."""

    item: Spec
    min_len: int = 0
    max_len: int | None = None
    unique: str = ""
    what: str = "entry"
    #: a path to a number in the whole definition (``players.max``): at least that many
    #: entries (checked by :func:`check_references`)
    at_least: str = ""
    #: a path to a ``{min, max}`` of the whole definition (``players``): each count from min to
    #: max in the ``players`` of exactly one entry (checked by :func:`check_references`)
    covers: str = ""

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, list):
            raise self.fail(path, "a list", value)
        if len(value) < self.min_len:
            raise FieldError(path, f"expected at least {self.min_len} entries, got {len(value)}")
        if self.max_len is not None and len(value) > self.max_len:
            raise FieldError(path, f"expected at most {self.max_len} entries, got {len(value)}")
        for index, item in enumerate(value):
            self.item.check(item, join(path, index))
        if self.unique:
            names = [item[self.unique] for item in value]
            for index, name in enumerate(names):
                if names.index(name) != index:
                    where = join(join(path, index), self.unique)
                    raise FieldError(where, f"{self.what} {name!r} listed twice")


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
    """A mapping with known keys; keys not listed are rejected (or, with ``other``, fit it).
    ``needs`` makes optional keys required by another key's value: ``{kind: {gain: (resource,
    ...)}}``, a mapping whose ``kind`` is ``gain`` needs a ``resource`` ("a gain action needs
    resource", the mapping named ``what``)."""

    fields: Mapping[str, Spec]
    optional: frozenset[str] = field(default_factory=frozenset)
    other: Spec | None = None
    needs: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    what: str = "entry"

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            raise self.fail(path, "a mapping", value)
        for key in value:
            if key not in self.fields and self.other is not None:
                self.other.check(value[key], join(path, key))
            elif key not in self.fields:
                known = ", ".join(sorted(self.fields))
                raise FieldError(join(path, key), f"unknown key (known keys: {known})")
        for key, spec in self.fields.items():
            if key not in value:
                if key in self.optional:
                    continue
                raise FieldError(join(path, key) if path else key, "missing required key")
            spec.check(value[key], join(path, key))
        for key, by_value in self.needs.items():
            shown = value.get(key)
            for need in (k for k in by_value.get(shown, ()) if k not in value):
                raise FieldError(path, f"a {shown} {self.what} needs {need}")


@dataclass(frozen=True)
class MappingOf(Spec):
    """A non-empty mapping whose keys fit ``key`` and whose values fit ``value`` (or, for a
    key listed in ``special``, that key's own spec); ``what`` names it in errors."""

    key: Spec
    value: Spec
    what: str
    special: Mapping[str, Spec] = field(default_factory=dict)

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, dict) or not value:
            raise FieldError(path, f"expected a non-empty mapping of {self.what}, got {value!r}")
        for key, item in value.items():
            self.key.check(key, join(path, str(key)))
            self.special.get(key, self.value).check(item, join(path, str(key)))


@dataclass(frozen=True)
class Either(Spec):
    """``spec``, or one of a few literal words (``null`` is YAML's nothing): "an integer >= 1
    or null", "an integer from 0 to 99, sun or water"."""

    spec: Int | Num | Str | OneOf
    words: tuple[str | None, ...]

    def check(self, value: Any, path: str) -> None:
        if (value is None or isinstance(value, str)) and value in self.words:
            return
        try:
            self.spec.check(value, path)
        except FieldError:
            shown = ["null" if w is None else w for w in self.words]
            listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
            sep = " or " if len(shown) == 1 else ", "
            raise self.fail(path, f"{self.spec.describe()}{sep}{listed}", value) from None


@dataclass(frozen=True)
class Ref(Spec):
    """A name that must be one of the values found at ``source`` in the whole definition
    (``animals[].name``, the keys of ``rules.terrain``, its values ``rules.terrain.*``), or
    one of ``extra``. Its shape (a non-empty string) is checked with the rest; membership by
    :func:`check_references` once every shape is valid. As the keys of a :class:`MappingOf`,
    ``every`` (a message with ``{}`` for the name) makes each of them required."""

    source: str | tuple[str, ...]
    what: str
    extra: tuple[str, ...] = ()
    every: str = ""

    def check(self, value: Any, path: str) -> None:
        Str().check(value, path)

    def names(self, root: Any) -> list[Any]:
        """The names at ``source`` in ``root`` (each once, in order; several sources: each
        one's in turn), then ``extra``; none where ``source`` leads to a key the definition
        leaves out (an optional section, or a key some entries of a list have)."""
        flat = []
        for source in (self.source,) if isinstance(self.source, str) else self.source:
            found = [root]
            for part in source.split("."):
                name = part.removesuffix("[]")
                found = [m for m in found if isinstance(m, dict) and (name == "*" or name in m)]
                found = [v for m in found for v in (m.values() if name == "*" else [m[name]])]
                if part.endswith("[]"):
                    found = [item for items in found for item in items]
            flat += [n for v in found for n in (v if isinstance(v, dict) else [v])]
        return list(dict.fromkeys([*flat, *self.extra]))

    def check_name(self, value: Any, path: str, root: Any) -> None:
        if value not in self.names(root):
            raise FieldError(path, f"{value!r} is not one of {self.what}")


def check_references(spec: Spec, value: Any, root: Any, path: str = "") -> None:
    """Every :class:`Ref` under ``spec`` names something ``root`` has (``value`` already fits
    ``spec``'s shape), and every list is as long (``at_least``) and covers the player counts
    (``covers``) as it says: walks maps, lists, mappings and a :class:`Custom`'s ``inner``;
    other specs hold no references."""
    if isinstance(spec, Ref):
        spec.check_name(value, path, root)
    elif isinstance(spec, Map):
        for key, sub in spec.fields.items():
            if key in value:
                check_references(sub, value[key], root, join(path, key))
    elif isinstance(spec, ListOf):
        need = Ref(spec.at_least, "").names(root)[:1] if spec.at_least else []
        if need and len(value) < need[0]:
            raise FieldError(
                path, f"expected at least {need[0]} entries ({spec.at_least}), got {len(value)}"
            )
        if spec.covers:
            low, high = (Ref(f"{spec.covers}.{end}", "").names(root)[:1] for end in ("min", "max"))
            if low and high:
                player_count_rows(value, path, low[0], high[0])
        for index, item in enumerate(value):
            check_references(spec.item, item, root, join(path, index))
    elif isinstance(spec, Custom) and spec.inner is not None:
        check_references(spec.inner, value, root, path)
    elif isinstance(spec, MappingOf):
        if isinstance(spec.key, Ref) and spec.key.every:
            for name in spec.key.names(root):
                if name not in value:
                    raise FieldError(path, spec.key.every.format(name))
        for key, item in value.items():
            check_references(spec.key, key, root, join(path, str(key)))
            check_references(spec.special.get(key, spec.value), item, root, join(path, str(key)))


def player_count_rows(entries: list[Any], path: str, low: int, high: int) -> dict[int, int]:
    """Each player count from ``low`` to ``high`` mapped to the index of the one row of a
    by-player-count table (``[{players: [..], ...}]``) that covers it."""
    seen: dict[int, int] = {}
    for index, entry in enumerate(entries):
        for j, count in enumerate(entry["players"]):
            if count in seen:
                raise FieldError(f"{path}[{index}].players[{j}]", f"{count} players listed twice")
            seen[count] = index
    for count in range(low, high + 1):
        if count not in seen:
            raise FieldError(path, f"no entry for {count} players")
    return seen


@dataclass(frozen=True)
class Custom(Spec):
    """Delegates to a function ``fn(value, path)`` that raises FieldError; ``inner``, a spec
    the function checks the value with, is where :func:`check_references` looks for names."""

    fn: Callable[[Any, str], None]
    inner: Spec | None = None

    def check(self, value: Any, path: str) -> None:
        self.fn(value, path)


def validate(spec: Spec, value: Any, path: str = "") -> None:
    """Raise :class:`FieldError` at the first place ``value`` does not fit ``spec``."""
    spec.check(value, path)
