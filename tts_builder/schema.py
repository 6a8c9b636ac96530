"""A small declarative schema for game definitions: the one declaration of what ``game.yaml``
holds, checked and exported (longer than 500 lines: each of the dozen spec types keeps its check
and its JSON Schema side by side, so the two sayings of one type cannot drift apart).

Specs are plain objects; :func:`validate` walks a value and raises every problem it finds at
once (a :class:`FieldError`, or a :class:`FieldErrors` of several) with the field path and a
message such as ``expected an integer >= 0, got 'twelve'``. A map checks each of its keys, a list
each of its items: one bad value does not hide the next. The same specs export as JSON Schema
(:meth:`Spec.json_schema`, draft 2020-12), which YAML editors use for completion and inline
errors; what JSON Schema cannot say (references, cross-field rules) is only checked here.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import FieldError, Problems
from .yamlsrc import join

_HEX_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


#: The most characters of a text an error message repeats.
SHOWN_CHARS = 60


def _show(value: Any) -> str:
    if isinstance(value, str) and len(value) > SHOWN_CHARS:
        return f"{value[:SHOWN_CHARS]!r}... ({len(value):,} characters)"
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


JsonSchema = dict[str, Any]


class Spec:
    """Base class: ``check(value, path)`` raises FieldError (every problem: FieldErrors) when
    the value does not fit; ``json_schema()`` says the same in JSON Schema, as far as it can."""

    def check(self, value: Any, path: str) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def json_schema(self) -> JsonSchema:
        return {}

    def fail(self, path: str, expected: str, value: Any) -> FieldError:
        return FieldError(path, f"expected {expected}, got {_show(value)}")


def _bounded(kind: str, low: float | None, high: float | None) -> JsonSchema:
    found: JsonSchema = {"type": kind}
    if low is not None:
        found["minimum"] = low
    if high is not None:
        found["maximum"] = high
    return found


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

    def json_schema(self) -> JsonSchema:
        return _bounded("integer", self.min, self.max)


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

    def json_schema(self) -> JsonSchema:
        return _bounded("number", self.min, self.max)


#: The longest designer text (a piece's name, a label, a word on a card, a tag) in characters,
#: unless its field says otherwise: the bundled games' longest such text has 87, so this is
#: room for any label; a name is also measured and drawn (the table picture's labels), which
#: takes time in proportion to its length times the sizes tried.
TEXT_MAX = 1_000
#: The longest game or variant name: the Steam Workshop's title limit
#: (``k_cchPublishedDocumentTitleMax``, 128 and the terminating NUL).
TITLE_MAX = 128
#: The longest game or variant description: the Steam Workshop's description limit
#: (``k_cchPublishedDocumentDescriptionMax``).
DESCRIPTION_MAX = 8_000


@dataclass(frozen=True)
class Str(Spec):
    """A non-empty text (not only spaces) of at most ``max_len`` characters (``why``: the
    reason for that limit, said when it is passed), matching ``pattern`` when given."""

    pattern: str | None = None
    hint: str = "a non-empty string"
    max_len: int = TEXT_MAX
    why: str = "the limit of a designer's text"

    def describe(self) -> str:
        return self.hint

    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, self.hint, value)
        if len(value) > self.max_len:
            raise FieldError(
                path, f"{len(value):,} characters: at most {self.max_len:,} ({self.why})"
            )
        if self.pattern and not re.fullmatch(self.pattern, value):
            raise self.fail(path, self.hint, value)

    def json_schema(self) -> JsonSchema:
        found: JsonSchema = {"type": "string", "minLength": 1, "maxLength": self.max_len}
        found["pattern"] = f"^(?:{self.pattern})$" if self.pattern else r"\S"
        if self.hint != Str.hint:
            found["description"] = self.hint
        return found


#: A game's or variant's name, and its description: what the Workshop shows.
TITLE = Str(max_len=TITLE_MAX, why="the Steam Workshop's title limit")
DESCRIPTION = Str(max_len=DESCRIPTION_MAX, why="the Steam Workshop's description limit")


@dataclass(frozen=True)
class Bool(Spec):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, bool):
            raise self.fail(path, "true or false", value)

    def json_schema(self) -> JsonSchema:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Color(Spec):
    def check(self, value: Any, path: str) -> None:
        if not isinstance(value, str) or not _HEX_COLOR.match(value):
            raise self.fail(path, 'a colour "#rrggbb"', value)

    def json_schema(self) -> JsonSchema:
        return {"type": "string", "pattern": _HEX_COLOR.pattern, "description": "#rrggbb"}


@dataclass(frozen=True)
class OneOf(Spec):
    values: tuple[str, ...]

    def describe(self) -> str:
        return "one of " + ", ".join(self.values)

    def check(self, value: Any, path: str) -> None:
        if value not in self.values:
            raise self.fail(path, self.describe(), value)

    def json_schema(self) -> JsonSchema:
        return {"enum": list(self.values)}


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
        problems = Problems()
        if len(value) < self.min_len:
            problems.add(path, f"expected at least {self.min_len} entries, got {len(value)}")
        if self.max_len is not None and len(value) > self.max_len:
            problems.add(path, f"expected at most {self.max_len} entries, got {len(value)}")
        fit = [problems.run(self.item.check, item, join(path, i)) for i, item in enumerate(value)]
        if self.unique and all(fit):
            names = [item[self.unique] for item in value]
            for index, name in enumerate(names):
                if names.index(name) != index:
                    where = join(join(path, index), self.unique)
                    problems.add(where, f"{self.what} {name!r} listed twice")
        problems.raise_any()

    def json_schema(self) -> JsonSchema:
        found: JsonSchema = {"type": "array", "items": self.item.json_schema()}
        if self.min_len:
            found["minItems"] = self.min_len
        if self.max_len is not None:
            found["maxItems"] = self.max_len
        notes = [f"no two with the same {self.unique}"] if self.unique else []
        notes += [f"at least {self.at_least} entries"] if self.at_least else []
        notes += [f"one row for each player count of {self.covers}"] if self.covers else []
        if notes:
            found["description"] = "; ".join(notes)
        return found


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

    def json_schema(self) -> JsonSchema:
        number = {"type": "number"}
        return {"type": "array", "items": number, "minItems": self.size, "maxItems": self.size}


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
        problems = Problems()
        meant = set()  # the known keys the unknown ones look like, misspelt
        for key in (k for k in value if k not in self.fields):
            if self.other is not None:
                problems.run(self.other.check, value[key], join(path, key))
                continue
            known = ", ".join(sorted(self.fields))
            close = difflib.get_close_matches(key, [k for k in self.fields if k not in value], 1)
            meant |= set(close)
            hint = f"did you mean {close[0]!r}? known keys: " if close else "known keys: "
            problems.add(join(path, key), f"unknown key ({hint}{known})")
        for key, spec in self.fields.items():
            if key in value:
                problems.run(spec.check, value[key], join(path, key))
            elif key not in self.optional and key not in meant:  # a misspelt key: one problem
                problems.add(join(path, key), "missing required key")
        for key, by_value in self.needs.items():
            shown = value.get(key)
            if not isinstance(shown, str | int | float | bool | None):
                continue  # a list or mapping there is the field's own (located) problem
            for need in (k for k in by_value.get(shown, ()) if k not in value):
                problems.add(path, f"a {shown} {self.what} needs {need}")
        problems.raise_any()

    def json_schema(self) -> JsonSchema:
        found: JsonSchema = {
            "type": "object",
            "properties": {key: spec.json_schema() for key, spec in self.fields.items()},
            "additionalProperties": self.other.json_schema() if self.other else False,
        }
        required = [key for key in self.fields if key not in self.optional]
        if required:
            found["required"] = required
        needs = [
            {
                "if": {"properties": {key: {"const": shown}}, "required": [key]},
                "then": {"required": list(keys)},
            }
            for key, by_value in self.needs.items()
            for shown, keys in by_value.items()
        ]
        if needs:
            found["allOf"] = needs
        return found


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
            shown = "{}" if value == {} else _show(value)  # never a whole text or list
            raise FieldError(path, f"expected a non-empty mapping of {self.what}, got {shown}")
        problems = Problems()
        for key, item in value.items():
            problems.run(self.key.check, key, join(path, str(key)))
            problems.run(self.special.get(key, self.value).check, item, join(path, str(key)))
        problems.raise_any()

    def json_schema(self) -> JsonSchema:
        found: JsonSchema = {
            "type": "object",
            "minProperties": 1,
            "propertyNames": self.key.json_schema(),
            "additionalProperties": self.value.json_schema(),
        }
        if self.special:
            found["properties"] = {k: spec.json_schema() for k, spec in self.special.items()}
        if self.what:
            found["description"] = self.what
        return found


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

    def json_schema(self) -> JsonSchema:
        return {"anyOf": [self.spec.json_schema(), {"enum": list(self.words)}]}


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

    def json_schema(self) -> JsonSchema:
        return {"type": "string", "minLength": 1, "description": f"one of {self.what}"}

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
    (``covers``) as it says: walks maps, lists, mappings, a :class:`Doc`'s spec and a
    :class:`Custom`'s ``inner``; other specs hold no references. Raises every problem found."""
    problems = Problems()
    if isinstance(spec, Ref):
        spec.check_name(value, path, root)
    elif isinstance(spec, Doc):
        check_references(spec.spec, value, root, path)
    elif isinstance(spec, Map):
        for key, sub in spec.fields.items():
            if key in value:
                problems.run(check_references, sub, value[key], root, join(path, key))
    elif isinstance(spec, ListOf):
        need = Ref(spec.at_least, "").names(root)[:1] if spec.at_least else []
        if need and len(value) < need[0]:
            problems.add(
                path, f"expected at least {need[0]} entries ({spec.at_least}), got {len(value)}"
            )
        if spec.covers:
            low, high = (Ref(f"{spec.covers}.{end}", "").names(root)[:1] for end in ("min", "max"))
            if low and high:
                problems.run(player_count_rows, value, path, low[0], high[0])
        for index, item in enumerate(value):
            problems.run(check_references, spec.item, item, root, join(path, index))
    elif isinstance(spec, Custom) and spec.inner is not None:
        check_references(spec.inner, value, root, path)
    elif isinstance(spec, MappingOf):
        if isinstance(spec.key, Ref) and spec.key.every:
            for name in spec.key.names(root):
                if name not in value:
                    problems.add(path, spec.key.every.format(name))
        for key, item in value.items():
            where = join(path, str(key))
            problems.run(check_references, spec.key, key, root, where)
            problems.run(check_references, spec.special.get(key, spec.value), item, root, where)
    problems.raise_any()


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
    the function checks the value with, is where :func:`check_references` looks for names and
    what its JSON Schema is, unless ``json`` gives that (else it takes anything, described by
    the first line of ``fn``'s docstring)."""

    fn: Callable[[Any, str], None]
    inner: Spec | None = None
    json: Mapping[str, Any] | None = None

    def check(self, value: Any, path: str) -> None:
        self.fn(value, path)

    def json_schema(self) -> JsonSchema:
        if self.json is not None:
            return dict(self.json)
        if self.inner is not None:
            return self.inner.json_schema()
        doc = " ".join((self.fn.__doc__ or "").strip().split("\n\n")[0].split())
        return {"description": _markdown(doc)} if doc else {}


def _markdown(doc: str) -> str:
    """A docstring's reST as an editor's markdown: ``x`` -> `x`, :data:`X` -> `X`."""
    return re.sub(r":\w+:`~?\.?([^`]+)`", r"`\1`", doc).replace("``", "`")


@dataclass(frozen=True)
class Doc(Spec):
    """``spec``, described: ``text`` says what the value means (an editor shows it; it is the
    JSON Schema's ``description``)."""

    spec: Spec
    text: str

    def check(self, value: Any, path: str) -> None:
        self.spec.check(value, path)

    def json_schema(self) -> JsonSchema:
        return {**self.spec.json_schema(), "description": self.text}


def validate(spec: Spec, value: Any, path: str = "") -> None:
    """Raise every place ``value`` does not fit ``spec``: a :class:`FieldError`, or a
    :class:`~tts_builder.errors.FieldErrors` when there are several."""
    spec.check(value, path)
