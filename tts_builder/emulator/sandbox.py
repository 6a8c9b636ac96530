"""A lupa Lua 5.2 runtime restricted to the libraries Tabletop Simulator loads."""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from lupa import lua52

LuaRuntime = lua52.LuaRuntime
LuaError = lua52.LuaError

_HERE = Path(__file__).parent

#: Names a TTS script cannot use (MoonSharp's LoadMethods/IO/Debug/OS_System are not loaded,
#: and lupa 5.2 has no global ``unpack``).
MISSING_IN_TTS = frozenset(
    {
        "unpack",
        "load",
        "loadstring",
        "loadfile",
        "dofile",
        "require",
        "io",
        "debug",
        "package",
        "setfenv",
        "getfenv",
        "module",
        "exit",
        "getenv",
        "execute",
        "remove",
        "rename",
        "tmpname",
    }
)
_NIL_NAME = re.compile(r"attempt to (?:call|index) (?:global|field) '(\w+)' \(a nil value\)")


class LuaScriptError(Exception):
    """A Lua error: the Lua message (with chunk name and line) and, if known, a traceback."""

    def __init__(self, message: str, traceback: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.traceback = traceback

    def __str__(self) -> str:
        return self.message


def explain(message: str) -> str:
    """Append a hint when ``message`` is about a library TTS does not load."""
    found = _NIL_NAME.search(message)
    if not found or found.group(1) not in MISSING_IN_TTS:
        return message
    name = found.group(1)
    if name == "unpack":
        return f"{message} (use table.unpack: the global unpack is a MoonSharp extra, not Lua 5.2)"
    return (
        f"{message} ('{name}' is not loaded in Tabletop Simulator's MoonSharp sandbox: "
        "no io, debug, package, load, loadstring, loadfile, dofile or require, and os has only "
        "clock, date, time and difftime)"
    )


def lua_read(name: str) -> str:
    """The text of a Lua file shipped next to this module."""
    return (_HERE / name).read_text(encoding="utf-8")


def _deny_attributes(obj: object, name: object, is_setting: bool) -> str:
    raise AttributeError(f"Lua code may not access Python attribute {name!r}")


def to_lua(runtime: Any, value: Any) -> Any:
    """Convert JSON-shaped Python data to Lua: dicts to tables, lists to 1..n sequences.

    ``None`` inside a list leaves a hole (nil); ``None`` dict values are dropped. Values that
    are already Lua objects, and other scalars, pass through unchanged.
    """
    if isinstance(value, Mapping):
        table = runtime.table()
        for key, item in value.items():
            if item is not None:
                table[key] = to_lua(runtime, item)
        return table
    if isinstance(value, list | tuple):
        table = runtime.table()
        for index, item in enumerate(value, start=1):
            if item is not None:
                table[index] = to_lua(runtime, item)
        return table
    return value


_SCALARS = frozenset({str, int, float, bool, type(None)})
_SPREAD_MAX = 4096  # flat items passed as call arguments at most (more go in as one table)
_LIST, _DICT, _SPARSE_LIST = 1, 2, 3  # convert.lua's kinds of flat table


class _NotFlat(Exception):
    """A value :func:`_flat` leaves to the one-call-per-table conversion."""


class _Shapes(dict[tuple[Any, ...], Any]):
    """Key tuples of dicts -> a Lua list of those keys (``convert.lua``'s record form), made
    on first sight; None for a tuple with a key that is not a string (1, 1.0 and True are
    equal in a tuple but not in Lua) and, after LIMIT key sets, for any new one."""

    LIMIT = 4096

    def __init__(self, table_from: Callable[..., Any]) -> None:
        super().__init__()
        self._table_from = table_from

    def __missing__(self, keys: tuple[Any, ...]) -> Any:
        if len(self) >= self.LIMIT:
            return None
        keys_table = None
        if all(type(k) is str for k in keys):
            keys_table = self._table_from(list(keys))
        self[keys] = keys_table
        return keys_table


def _flat(value: Any, out: list[Any], mark: Any, shapes: _Shapes, list_kind: int = _LIST) -> None:
    """Append ``value`` (a dict, list or tuple) to ``out`` as ``convert.lua`` builds it: ``mark,
    kind, n`` and then the n items (a dict's as key, value), or for a dict of string keys
    ``mark, keys`` (``shapes``' Lua list of them) and a value per key; each scalar as itself,
    each dict, list or tuple the same way. Anything else, and keys that are not strings,
    numbers (not NaN) or booleans, raise :class:`_NotFlat`. Lists are ``list_kind``: _LIST
    (a None item keeps its slot, as lupa's ``table_from`` does) or _SPARSE_LIST (it makes none,
    as :func:`to_lua` does). (A list's dicts are written in its own loop: inputs are mostly
    lists of small records.)"""
    append = out.append
    kind = type(value)
    if kind is dict:
        _flat_dict(value, out, mark, shapes, list_kind)
    elif kind is list or kind is tuple:
        out += (mark, list_kind, len(value))
        for item in value:
            kind = type(item)
            if kind in _SCALARS:
                append(item)
            elif kind is dict:
                keys = shapes[tuple(item)]
                if keys is None:
                    _flat_dict(item, out, mark, shapes, list_kind)
                    continue
                out += (mark, keys)
                for field in item.values():
                    if type(field) in _SCALARS:
                        append(field)
                    else:
                        _flat(field, out, mark, shapes, list_kind)
            else:
                _flat(item, out, mark, shapes, list_kind)
    else:
        raise _NotFlat


def _flat_dict(
    value: dict[Any, Any], out: list[Any], mark: Any, shapes: _Shapes, list_kind: int
) -> None:
    """:func:`_flat` of a dict."""
    append = out.append
    keys = shapes[tuple(value)]
    if keys is not None:
        out += (mark, keys)
        for item in value.values():
            if type(item) in _SCALARS:
                append(item)
            else:
                _flat(item, out, mark, shapes, list_kind)
        return
    out += (mark, _DICT, len(value))
    for key, item in value.items():
        if type(key) is not str and _bad_key(key):
            raise _NotFlat
        append(key)
        if type(item) in _SCALARS:
            append(item)
        else:
            _flat(item, out, mark, shapes, list_kind)


def _bad_key(key: Any) -> bool:
    """A dict key the flat form does not carry: no scalar, None or NaN."""
    return type(key) not in _SCALARS or key is None or key != key


def _number(value: float) -> int | float:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def _key_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float):
        return str(int(key)) if key.is_integer() else format(key, ".14g")
    return str(key)


def from_lua(value: Any) -> Any:
    """Convert a Lua value to JSON-shaped Python data (TTS ``JSON.encode`` rules).

    An empty table becomes ``[]``; a table whose keys are all positive integers becomes a list
    (holes padded with ``None``); any other table becomes a dict with string keys. Integral
    floats become ints. Functions and other non-data values raise ``TypeError``.
    """
    return _from_lua(value, set())


def _from_lua(value: Any, seen: set[int]) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return _number(value)
    kind = lua52.lua_type(value)
    if kind != "table":
        raise TypeError(f"cannot convert a Lua {kind} to JSON-shaped data")
    if id(value) in seen:
        raise ValueError("cannot convert a Lua table that contains itself")
    seen = seen | {id(value)}
    items = [(_number(k) if isinstance(k, float) else k, v) for k, v in value.items()]
    if not items:
        return []
    if all(isinstance(k, int) and not isinstance(k, bool) and k >= 1 for k, _ in items):
        result: list[Any] = [None] * max(k for k, _ in items)
        for key, item in items:
            result[key - 1] = _from_lua(item, seen)
        return result
    return {_key_text(k): _from_lua(v, seen) for k, v in items}


def decoded(text: str, decode: Callable[[str], Any] = json.loads) -> Any:
    """``decode(text)`` (a JSON decoder's) for the JSON ``convert.lua`` writes."""
    try:
        return decode(text)
    except ValueError:
        raise AssertionError(f"convert.lua wrote invalid JSON: {text[:200]!r}") from None


class LuaSandbox:
    """A Lua 5.2 runtime whose script environments hold only the TTS library set.

    Scripts get ``assert collectgarbage error print select type tonumber tostring pcall xpcall
    setmetatable getmetatable rawset rawget rawequal rawlen next ipairs pairs bit32 coroutine
    math string table _G _VERSION _MOONSHARP`` and ``os.clock/date/time/difftime``.
    ``math.random`` is seeded from ``seed``; the os functions read a virtual clock.
    """

    engine = "lupa"
    error = LuaError
    from_lua = staticmethod(from_lua)
    lua_type = staticmethod(lua52.lua_type)

    def __init__(self, *, seed: int = 0, on_print: Callable[[str], None] | None = None) -> None:
        self.runtime = LuaRuntime(
            unpack_returned_tuples=True,
            register_eval=False,
            register_builtins=False,
            attribute_filter=_deny_attributes,
        )
        self.prints: list[str] = []
        self._random = random.Random(seed)
        self._on_print = on_print or self.prints.append
        self._table_from = self.runtime.table_from
        self._loader = self.runtime.eval("function(src, name) return load(src, name, 't') end")
        convert = self.load_module("convert.lua")
        self._call_json, self._call_flat = convert["call"], convert["call_flat"]
        self._call_spread = convert["call_spread"]
        self._encode = convert["encode"]
        self._mark, self._build_flat = convert["MARK"], convert["build_flat"]
        self._shapes = _Shapes(self.runtime.table_from)
        services = self.to_lua(
            {
                "random": self._random.random,
                "randomseed": self._randomseed,
                "print": lambda text: self._on_print(text),
            }
        )
        self.lib = self.load_module("sandbox.lua", services)
        self._run = self.lib["run"]

    def load_module(self, filename: str, *args: Any) -> Any:
        """Run a Lua file shipped with this package, unsandboxed, with ``args``; return its
        result."""
        fn = self._loader(lua_read(filename), "=" + filename)
        if isinstance(fn, tuple):
            raise LuaScriptError(str(fn[1]))
        return fn(*args)

    def _randomseed(self, value: Any = 0) -> None:
        self._random.seed(value if isinstance(value, int | float) and math.isfinite(value) else 0)

    @property
    def clock(self) -> float:
        """Virtual seconds read by ``os.clock`` (``os.time`` adds a fixed epoch)."""
        return float(self.lib["clock"]["seconds"])

    @clock.setter
    def clock(self, seconds: float) -> None:
        self.lib["clock"]["seconds"] = seconds

    def to_lua(self, value: Any) -> Any:
        """:func:`to_lua` bound to this runtime: the same tables (the same slots and order),
        built in Lua from one flat list (:func:`_flat`) when ``value`` is dicts, lists, tuples
        and scalars only."""
        if type(value) is not dict and type(value) is not list and type(value) is not tuple:
            return to_lua(self.runtime, value)
        out: list[Any] = []
        try:
            _flat(value, out, self._mark, self._shapes, _SPARSE_LIST)
        except (_NotFlat, RecursionError):
            return to_lua(self.runtime, value)
        return self._build_flat(self._table_from(out))

    def table(self) -> Any:
        """A new empty Lua table."""
        return self.runtime.table()

    def execute(self, source: str) -> Any:
        """Run host Lua (unsandboxed); its result."""
        return self.runtime.execute(source)

    def make_env(self, extra: Mapping[str, Any] | None = None) -> Any:
        """A fresh TTS-library environment plus ``extra`` globals (dicts/lists converted)."""
        env = self.lib["new_env"]()
        for name, value in (extra or {}).items():
            env[name] = self.to_lua(value) if isinstance(value, Mapping | list) else value
        return env

    def protected(self, fn: Any, *args: Any) -> tuple[bool, Any, str | None]:
        """Call a Lua function catching errors: ``(True, first_result, None)`` or
        ``(False, message, traceback)``."""
        result = self._run(fn, *args)
        if not isinstance(result, tuple):
            result = (result,)
        if result[0]:
            return True, result[1] if len(result) > 1 else None, None
        return False, explain(str(result[1])), result[2] if len(result) > 2 else None

    def compile(self, source: str, chunkname: str, env: Any = None) -> Any:
        """Compile ``source`` as text in ``env`` (a fresh TTS environment if omitted).

        A ``chunkname`` without a leading ``=`` or ``@`` gets ``=`` so messages read
        ``name:line: ...``. Syntax errors raise :class:`LuaScriptError`.
        """
        if not chunkname.startswith(("=", "@")):
            chunkname = "=" + chunkname
        if env is None:
            env = self.make_env()
        result = self.lib["load_chunk"](source, chunkname, env)
        if isinstance(result, tuple):
            raise LuaScriptError(str(result[1]))
        return result

    def run_chunk(self, source: str, chunkname: str, env: Any = None) -> Any:
        """Compile and run ``source`` in ``env``; return its first result (a raw Lua value)."""
        fn = self.compile(source, chunkname, env)
        ok, value, traceback = self.protected(fn)
        if not ok:
            raise LuaScriptError(value, traceback)
        return value

    def load_script(
        self, source: str, name: str, extra_globals: Mapping[str, Any] | None = None
    ) -> Any:
        """Run a script's top level in a fresh environment and return that environment."""
        env = self.make_env(extra_globals)
        self.run_chunk(source, name, env)
        return env

    def lookup(self, env: Any, dotted_name: str) -> Any:
        """The value at ``a.b.c`` in ``env``, or ``None``."""
        value = env
        for part in dotted_name.split("."):
            if value is None or lua52.lua_type(value) != "table":
                return None
            value = value[part]
        return value

    def json_to_lua(self, value: Any) -> Any:
        """:func:`to_lua` for JSON-shaped data (dicts, lists, tuples, scalars), one call into
        lupa per table rather than one per entry. (Not ``table_from(..., recursive=True)``:
        lupa 2.8 turns a list that appears twice in the value into an empty table the second
        time.)"""
        if isinstance(value, dict):
            return self._table_from(
                {k: self.json_to_lua(v) for k, v in value.items() if v is not None}
            )
        if isinstance(value, list | tuple):
            return self._table_from([self.json_to_lua(v) for v in value])
        return value

    def call_function(self, fn: Any, *json_args: Any) -> Any:
        """``fn(*json_args)`` for a Lua function ``fn`` and JSON-shaped args; its first result
        as :func:`from_lua` gives it. A Lua error raises :class:`LuaScriptError` with the same
        message as :meth:`call` (no traceback). The arguments go in with :meth:`json_to_lua`;
        the result comes out as one JSON string encoded in Lua (``convert.lua``), or through
        :func:`from_lua` when it holds something that encoder leaves to the host."""
        text, raw = self.call_encoded(fn, *json_args)
        return from_lua(raw) if text is None else decoded(text)

    def lua_to_json(self, value: Any) -> Any:
        """:func:`from_lua` of a Lua value, the same result (errors too), through one JSON
        string encoded in Lua (``convert.lua``) rather than one lupa call per table entry."""
        if lua52.lua_type(value) != "table":
            return from_lua(value)
        text = self._encode(value)
        return from_lua(value) if text is None else decoded(text)

    def call_encoded(self, fn: Any, *json_args: Any) -> tuple[str | None, Any]:
        """:meth:`call_function` up to the decoding: ``(json_text, None)``, or ``(None,
        raw_result)`` when ``convert.lua`` leaves the result to :func:`from_lua`. The arguments
        cross as one flat list of scalars that ``convert.lua`` builds the tables from (dicts,
        lists and tuples of scalars), else through :meth:`json_to_lua`."""
        out: list[Any] = []
        try:
            for arg in json_args:
                if type(arg) in _SCALARS:
                    out.append(arg)
                else:
                    _flat(arg, out, self._mark, self._shapes)
        except (_NotFlat, RecursionError):
            result = self._call_json(fn, *(self.json_to_lua(a) for a in json_args))
        else:
            if len(out) <= _SPREAD_MAX:  # the items as arguments: no lupa table object to make
                result = self._call_spread(fn, len(json_args), *out)
            else:
                result = self._call_flat(fn, self._table_from(out), len(json_args))
        ok, value, *raw = result
        if not ok:
            raise LuaScriptError(explain(str(value)))
        if value is None:
            return None, raw[0] if raw else None
        return value, None

    def call(self, env: Any, dotted_name: str, *json_args: Any) -> Any:
        """Call the function at ``dotted_name`` with JSON-shaped args; return its JSON result."""
        fn = self.lookup(env, dotted_name)
        if lua52.lua_type(fn) != "function":
            raise LuaScriptError(f"{dotted_name} is not a function in this script")
        ok, value, traceback = self.protected(fn, *(self.to_lua(a) for a in json_args))
        if not ok:
            raise LuaScriptError(value, traceback)
        return from_lua(value)
