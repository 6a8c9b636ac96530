"""JSON-shaped Python values as Lua source, and text escaped for XmlUI.

Invariants: ``lua_string(s)`` reads back as ``s`` in Lua 5.2 *and* MoonSharp (only ASCII
control characters, ``\\`` and ``"`` are escaped; everything else stays UTF-8 text, because
MoonSharp strings are UTF-16 and ``\\ddd`` escapes of UTF-8 bytes would corrupt them there).
``lua_literal`` output is deterministic (dict keys sorted).
"""

from __future__ import annotations

import math
import re
from typing import Any

_NAMED = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: A character :func:`lua_string` escapes or refuses (a string without any is quoted as it is).
_LUA_SPECIAL_RE = re.compile(r'[\x00-\x1f\x7f"\\\ud800-\udfff]')
_MAX_EXACT_INT = 2**53


def lua_string(s: str) -> str:
    """A double-quoted Lua string literal for ``s`` (valid in Lua 5.2 and MoonSharp)."""
    if _LUA_SPECIAL_RE.search(s) is None:
        return f'"{s}"'
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch in _NAMED:
            out.append(_NAMED[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\{code:03d}")  # always 3 digits: a following digit can't join
        elif 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"lone surrogate U+{code:04X} cannot be written as UTF-8")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _number(value: int | float) -> str:
    if isinstance(value, int):
        if abs(value) > _MAX_EXACT_INT:
            raise ValueError(f"integer {value} is not exact as a Lua 5.2 number (a double)")
        text = str(value)
    else:
        if not math.isfinite(value):
            raise ValueError(f"{value!r} has no portable Lua literal")
        text = repr(value)  # shortest text that reads back as the same double
    # Parenthesised so that `a-{{ x | lua }}` can never become a `--` comment.
    return f"({text})" if text.startswith("-") else text


def lua_literal(value: Any) -> str:
    """A Lua expression for JSON-shaped ``value``.

    dict -> ``{["key"]=...}`` (string keys, sorted; a None value leaves the key out), list ->
    ``{a, b}``, str -> :func:`lua_string`, bool, None -> ``nil``, int/float written exactly.
    None inside a list is refused: it would leave a hole that changes ``#t``.
    """
    if value is None:
        return "nil"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, str):
        return lua_string(value)
    if isinstance(value, dict):
        parts = []
        for key in sorted(value):
            if not isinstance(key, str):
                raise TypeError(f"dict keys must be str, got {key!r}")
            if value[key] is not None:
                parts.append(f"[{lua_string(key)}]={lua_literal(value[key])}")
        return "{" + ", ".join(parts) + "}"
    if isinstance(value, list | tuple):
        if any(item is None for item in value):
            raise ValueError("None inside a list would be a hole in a Lua sequence")
        return "{" + ", ".join(lua_literal(item) for item in value) + "}"
    raise TypeError(f"not JSON-shaped: {type(value).__name__}")


_XML = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&apos;",
    "\n": "&#10;",
    "\r": "&#13;",
    "\t": "&#9;",
}
#: A character :func:`xml_escape` replaces (a string without any is returned as it is).
_XML_SPECIAL_RE = re.compile("[&<>\"'\x00-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_allowed(code: int) -> bool:
    """XML 1.0 Char production (tab, newline and CR are handled as references)."""
    return 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF


def xml_escape(s: str) -> str:
    """``s`` escaped for an XmlUI attribute value or element text.

    ``& < > " '`` become entities; tab, newline and CR become character references (so
    attribute-value normalisation keeps them); characters XML 1.0 forbids (NUL and other
    control characters, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
    """
    if _XML_SPECIAL_RE.search(s) is None:
        return s
    out = []
    for ch in s:
        if ch in _XML:
            out.append(_XML[ch])
        elif _xml_allowed(ord(ch)):
            out.append(ch)
        else:
            out.append("\ufffd")
    return "".join(out)
