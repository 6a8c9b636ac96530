"""What an ``eval`` payload may hold, checked before any engine runs.

A payload is JSON as both Lua engines see it: Lua 5.2 (lupa) and MoonSharp hold every number
as a double, so a number is a finite one within ±2^53 (an integral one is a whole number, as
Lua cannot tell ``2.0`` from ``2``); a string is Unicode text without surrogates or control
characters; nesting and sizes are bounded, and a function's payload has the shape (types,
ranges, list sizes) its game's strategies module declares (``PAYLOADS``, see :func:`shaped`),
so that no rule runs out of stack, memory or time and both engines see the same input.
Whatever is out of these limits is the payload's fault: a :class:`PayloadError` naming its key
path (``payload: map.terrain[3]: ...``), exit 2.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from .errors import BuildError

#: Bytes of payload text at most (Linux passes one argument of up to 128 KiB).
MAX_BYTES = 100_000
#: Containers nested in each other at most (the top-level object is level 1; the deepest
#: payload a rule reads, a flood map's river edge, is at level 5).
MAX_DEPTH = 16
#: Items of one list, or keys of one object, at most.
MAX_ITEMS = 2_000
#: Characters of one string (or key) at most.
MAX_STRING = 1_000
#: The largest magnitude of a number both engines hold exactly (doubles: 2^53).
MAX_EXACT = 2**53
#: Rows or columns of a board a payload may describe at most (the bundled boards: 3 x 16
#: squares, 10 x 12 hexes).
MAX_SIDE = 32
#: Items of a list with one entry per seat (or a list of colours) at most: TTS's 12 player
#: colours.
MAX_SEATS = 12

Path = tuple[str | int, ...]
#: How Python reads a byte of a command-line argument that is no UTF-8 (surrogateescape).
_NOT_UTF8 = re.compile("[\udc80-\udcff]")
#: A string (to its end if it has none: one pass, however many quotes), a bracket or a comma.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{},]')


class PayloadError(BuildError):
    """A payload out of range, at a key path (``""``: the payload as a whole)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"payload: {path}: {message}" if path else f"payload: {message}")
        self.path = path
        self.detail = message


class _Unheld(str):
    """A number's JSON text that no double holds (too long or not finite)."""


def path_text(path: Path) -> str:
    """``("map", "terrain", 3)`` -> ``map.terrain[3]`` (odd keys quoted: ``["a b"]``)."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", step):
            out += f".{step}" if out else step
        else:
            out += f"[{_shown(step)}]"
    return out


def _shown(value: Any, longest: int = 40) -> str:
    """``value`` as ASCII JSON text, cut to ``longest`` characters (safe on any terminal)."""
    text = value if isinstance(value, _Unheld) else json.dumps(value, ensure_ascii=True)
    return text if len(text) <= longest else text[: longest - 3] + "..."


def too_deep(text: str, limit: int = MAX_DEPTH) -> Path | None:
    """The key path of the first container in JSON ``text`` nested deeper than ``limit``, or
    None (a linear scan: no parser recursion; malformed text is left to the parser)."""
    path: list[str | int] = []
    kinds: list[str] = []
    want_key = False
    for found in _TOKENS.finditer(text):
        token = found.group()
        if token.startswith('"'):
            if want_key and kinds and kinds[-1] == "{":
                try:
                    path[-1] = json.loads(token)
                except ValueError:
                    path[-1] = token[1:-1]
                want_key = False
        elif token in "[{":
            if len(kinds) >= limit:
                return tuple(path)
            kinds.append(token)
            path.append(0 if token == "[" else "")
            want_key = token == "{"
        elif token in "]}":
            if kinds:
                kinds.pop()
                path.pop()
            want_key = False
        elif kinds:  # a comma
            if kinds[-1] == "[":
                path[-1] = int(path[-1]) + 1
            else:
                want_key = True
    return None


def _int(text: str) -> int | _Unheld:
    # 17 digits or more (JSON has no leading zeros) is beyond 2^53, a 16-digit number.
    return _Unheld(text) if len(text.lstrip("-")) > 16 else int(text)


def _float(text: str) -> float | _Unheld:
    value = float(text)
    return value if math.isfinite(value) else _Unheld(text)


def parse(text: str) -> dict[str, Any]:
    """The payload object of JSON ``text`` as both engines hold it (see :func:`held`); a
    :class:`PayloadError` for anything out of the limits."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise PayloadError("", f"longer than {MAX_BYTES:,} bytes")
    bad = _NOT_UTF8.search(text)
    if bad is not None:
        byte = ord(bad.group()) - 0xDC00
        raise PayloadError("", f"byte 0x{byte:02X} at column {bad.start() + 1} is no UTF-8 text")
    deep = too_deep(text)
    if deep is not None:
        raise PayloadError(path_text(deep), f"nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_Unheld)
    except json.JSONDecodeError as err:
        raise PayloadError("", f"invalid JSON at column {err.colno}: {err.msg}") from None
    except ValueError as err:  # e.g. digits past Python's int conversion limit
        raise PayloadError("", f"invalid JSON: {err}") from None
    if not isinstance(value, dict):
        raise PayloadError("", "must be a JSON object (the rule's input table)")
    checked = held(value)
    assert isinstance(checked, dict)
    return checked


def held(value: Any, path: Path = ()) -> Any:
    """``value`` as both engines hold it: integral numbers as ints, no key whose value is null
    (Lua cannot store nil in a table); a :class:`PayloadError` at the first value out of the
    limits, or a null in a list (a hole: no Lua list has one)."""
    where = path_text(path)
    if isinstance(value, _Unheld) or (
        isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > MAX_EXACT
    ):
        raise PayloadError(
            where, f"{_shown(value)} is no number both Lua engines hold exactly "
            "(finite, within ±2^53)"
        )  # fmt: skip
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, dict | list) and len(value) > MAX_ITEMS:
        raise PayloadError(where, f"{len(value):,} items, more than {MAX_ITEMS:,}")
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            _check_text(key, path_text((*path, key)))
            if item is not None:
                out[key] = held(item, (*path, key))
        return out
    if isinstance(value, list):
        for i, item in enumerate(value):
            if item is None:
                raise PayloadError(
                    path_text((*path, i)), "null in a list (Lua lists have no holes)"
                )
        return [held(item, (*path, i)) for i, item in enumerate(value)]
    return value


def _check_text(text: str, where: str) -> None:
    if len(text) > MAX_STRING:
        raise PayloadError(where, f"a string of {len(text):,} characters, more than {MAX_STRING:,}")
    for char in text:
        if char < " " or char == "\x7f" or "\ud800" <= char <= "\udfff":
            raise PayloadError(
                where, f"U+{ord(char):04X} in a string (no control character or surrogate)"
            )


# ---------------------------------------------------------------------------------------------
# Shapes: what a rule function reads, declared in the game's strategies module (PAYLOADS)


@dataclass(frozen=True)
class Whole:
    """A whole number in ``least..most`` (by default a 32-bit one: sums and differences of a
    few stay exact in a double, and no count drives a loop for long)."""

    least: int = -(2**31)
    most: int = 2**31 - 1


@dataclass(frozen=True)
class Text:
    """A string of at most ``most`` characters (``str`` is short for ``Text()``)."""

    most: int = MAX_STRING


@dataclass(frozen=True)
class ListOf:
    """A list of ``item`` shapes, of at most ``most`` items (``{}`` is the empty list too)."""

    item: Shape
    most: int = MAX_ITEMS


@dataclass(frozen=True)
class MapOf:
    """An object of any keys, each value of the ``value`` shape (``[]`` is the empty one)."""

    value: Shape


@dataclass(frozen=True)
class Either:
    """Any one of ``options``."""

    options: tuple[Shape, ...]


#: A shape: ``str`` (a string), :class:`Text`, ``bool``, :class:`Whole`, :class:`ListOf`,
#: :class:`MapOf`, :class:`Either`, or an object's known keys ``{key: shape}`` (absent keys,
#: and a null, are the rule's to refuse; other keys are left as they are).
Shape = Any


def shaped(value: Any, shape: Shape, path: Path = ()) -> Any:
    """``value`` (a :func:`held` one) if it has ``shape``, with an empty ``{}``/``[]`` made the
    empty container the shape wants; else a :class:`PayloadError` at the first value that does
    not have its shape."""
    if isinstance(shape, Either):
        for option in shape.options:
            try:
                return shaped(value, option, path)
            except PayloadError:
                continue
        raise PayloadError(path_text(path), f"{_shown(value)} is not {describe(shape)}")
    empty = value in ([], {})
    if isinstance(shape, ListOf) and (isinstance(value, list) or empty):
        if len(value) > shape.most:
            raise PayloadError(path_text(path), f"{len(value):,} items, more than {shape.most:,}")
        return [shaped(item, shape.item, (*path, i)) for i, item in enumerate(value or [])]
    if isinstance(shape, MapOf) and (isinstance(value, dict) or empty):
        return {k: shaped(v, shape.value, (*path, k)) for k, v in (value or {}).items()}
    if isinstance(shape, dict) and (isinstance(value, dict) or empty):
        value = value or {}
        return {k: shaped(v, shape[k], (*path, k)) if k in shape else v for k, v in value.items()}
    if isinstance(shape, Whole) and type(value) is int:
        if not shape.least <= value <= shape.most:
            raise PayloadError(path_text(path), f"{value} is outside {shape.least}..{shape.most}")
        return value
    if isinstance(shape, Text) and type(value) is str:
        if len(value) > shape.most:
            where = path_text(path)
            raise PayloadError(where, f"{len(value):,} characters, more than {shape.most:,}")
        return value
    if shape in (str, bool) and type(value) is shape:
        return value
    raise PayloadError(path_text(path), f"{_shown(value)} is not {describe(shape)}")


def describe(shape: Shape) -> str:
    """What a value of ``shape`` is, in a few words (``a whole number in 0..64``)."""
    if isinstance(shape, Either):
        return " or ".join(describe(option) for option in shape.options)
    if isinstance(shape, Whole):
        return f"a whole number in {shape.least}..{shape.most}"
    if isinstance(shape, ListOf):
        return "a list"
    if isinstance(shape, Text):
        return "a string"
    if isinstance(shape, MapOf | dict):
        return "an object"
    return {str: "a string", bool: "true or false"}[shape]


def spell(shape: Shape) -> str:
    """``shape`` written out for the documentation: ``{rows: 0..32, dividers: [{edge: text}]}``
    (a whole number without a range is a 32-bit one, a list without a size holds at most
    MAX_ITEMS items, a text at most MAX_STRING characters)."""
    if isinstance(shape, Either):
        return " or ".join(spell(option) for option in shape.options)
    if isinstance(shape, Whole):
        default = Whole()
        if shape == default:
            return "whole"
        if shape.most == default.most:
            return f"whole >= {shape.least}"
        return f"{shape.least}..{shape.most}"
    if isinstance(shape, Text):
        return "text" if shape.most == MAX_STRING else f"text (<= {shape.most} chars)"
    if isinstance(shape, ListOf):
        size = "" if shape.most == MAX_ITEMS else f" (<= {shape.most})"
        return f"[{spell(shape.item)}, ...]{size}"
    if isinstance(shape, MapOf):
        return f"{{any key: {spell(shape.value)}}}"
    if isinstance(shape, dict):
        return "{" + ", ".join(f"{key}: {spell(value)}" for key, value in shape.items()) + "}"
    return {str: "text", bool: "true/false"}[shape]
