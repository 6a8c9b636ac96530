"""MoonSharp 2.0.0.0, the interpreter Tabletop Simulator embeds, run in-process through pythonnet.

:class:`MoonSharpSandbox` has :class:`~.sandbox.LuaSandbox`'s interface, so the emulated table and
the rule cross-check run the same Lua in either engine. Lua tables and functions reach Python as
:class:`LuaTable` and :class:`LuaFunction` (indexable and callable like lupa's objects); data
crosses as JSON where it can (MoonSharp's own C# converter, one call per value), since every
pythonnet call costs microseconds.

Nothing is downloaded: the user names ``MoonSharp.Interpreter.dll`` (the official NuGet package
``MoonSharp`` 2.0.0.0, ``lib/net35/``) with ``--moonsharp PATH`` or ``TTS_BUILDER_MOONSHARP``, and
Mono comes from the system (Debian: ``mono-runtime``, ``libmono-2.0-1`` and ``mono-devel``, which
holds the ``netstandard`` facade pythonnet needs).
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import warnings
import weakref
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .sandbox import LuaSandbox, LuaScriptError, decoded, lua_read

#: The environment variable naming ``MoonSharp.Interpreter.dll``.
DLL_VARIABLE = "TTS_BUILDER_MOONSHARP"
#: The version TTS reports (``_MOONSHARP.version``); another DLL is refused.
VERSION = "2.0.0.0"


class MoonSharpUnavailable(RuntimeError):
    """MoonSharp cannot run here: no DLL named, no Mono, no pythonnet, or another version."""


class MoonSharpError(Exception):
    """A Lua error raised out of a MoonSharp call (the counterpart of lupa's ``LuaError``)."""


_CLR: dict[str, Any] = {}


def dll_path(given: str | os.PathLike[str] | None = None) -> Path | None:
    """The DLL the user named (``given``, else ``$TTS_BUILDER_MOONSHARP``), or None."""
    text = os.fspath(given) if given else os.environ.get(DLL_VARIABLE, "")
    return Path(text).expanduser() if text else None


def _clr(dll: Path | None = None) -> dict[str, Any]:
    """Load Mono, pythonnet and the MoonSharp assembly once per process; their types by name."""
    if _CLR:
        return _CLR
    dll = dll or dll_path()
    if dll is None:
        raise MoonSharpUnavailable(
            f"MoonSharp is not configured: set {DLL_VARIABLE} (or --moonsharp) to "
            "MoonSharp.Interpreter.dll from the NuGet package MoonSharp 2.0.0.0 (lib/net35)"
        )
    if not dll.is_file():
        raise MoonSharpUnavailable(f"{DLL_VARIABLE}: {dll} is not a file")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Hosting Mono versions before v6.12 ..."
            from pythonnet import load

            load("mono")
            import clr  # type: ignore[import-not-found]
    except Exception as exc:  # noqa: BLE001 - no pythonnet, no libmono, no netstandard facade
        raise MoonSharpUnavailable(
            f"cannot start Mono through pythonnet ({type(exc).__name__}: {exc}); on Debian: "
            "apt-get install mono-runtime libmono-2.0-1 mono-devel, and pip install pythonnet"
        ) from None
    clr.AddReference(str(dll.resolve()))
    import MoonSharp.Interpreter as ms  # type: ignore[import-not-found]
    from MoonSharp.Interpreter.Serialization.Json import (  # type: ignore[import-not-found]
        JsonTableConverter,
    )
    from System import Array, Func, String  # type: ignore[import-not-found]
    from System import Exception as DotNetException  # type: ignore[import-not-found]

    version = str(ms.Script.VERSION)
    if version != VERSION:
        raise MoonSharpUnavailable(f"{dll} is MoonSharp {version}; TTS runs {VERSION}")
    _CLR.update(
        ms=ms,
        Json=JsonTableConverter,
        Array=Array,
        Exception=DotNetException,
        Func=Func,
        String=String,
        Callback=Func[ms.ScriptExecutionContext, ms.CallbackArguments, ms.DynValue],
    )
    return _CLR


def available(dll: str | os.PathLike[str] | None = None) -> str | None:
    """None when MoonSharp can run here, else why not (one line)."""
    try:
        _clr(dll_path(dll))
    except MoonSharpUnavailable as exc:
        return str(exc)
    return None


class LuaTable:
    """A MoonSharp table seen from Python: ``t[key]``, ``t[key] = value``, ``t.items()``."""

    __slots__ = ("_box", "table")

    def __init__(self, box: MoonSharpSandbox, table: Any) -> None:
        self._box = box
        self.table = table

    def __getitem__(self, key: Any) -> Any:
        return self._box.py(self.table.Get(self._box.dyn(key)))

    def __setitem__(self, key: Any, value: Any) -> None:
        self.table.Set(self._box.dyn(key), self._box.dyn(value))

    def items(self) -> Iterator[tuple[Any, Any]]:
        """The pairs Lua's ``pairs`` gives (MoonSharp's own list keeps keys set to nil)."""
        py, nil = self._box.py, self._box._types.Nil
        for pair in list(self.table.Pairs):
            value = pair.Value
            if value.Type != nil:
                yield py(pair.Key), py(value)

    def keys(self) -> Iterator[Any]:
        return (key for key, _ in self.items())

    def values(self) -> Iterator[Any]:
        return (value for _, value in self.items())


class LuaFunction:
    """A MoonSharp function seen from Python; calling it raises :class:`MoonSharpError`."""

    __slots__ = ("_box", "value")

    def __init__(self, box: MoonSharpSandbox, value: Any) -> None:
        self._box = box
        self.value = value

    def __call__(self, *args: Any) -> Any:
        return self._box.call_raw(self.value, args)


class _Trampoline:
    """What a callback's .NET delegate calls: the sandbox's callback ``index``, through a weak
    reference (a dead sandbox's callbacks raise)."""

    __slots__ = ("box", "index")

    def __init__(self, box: MoonSharpSandbox, index: int) -> None:
        self.box = weakref.ref(box)
        self.index = index

    def __call__(self, _context: Any, arguments: Any) -> Any:
        box = self.box()
        if box is None:
            raise RuntimeError("a Lua callback of a sandbox that is gone")
        return box._called(self.index, arguments)


def lua_type(value: Any) -> str | None:
    """``type(value)`` as Lua names it for a wrapped MoonSharp value (None for Python data)."""
    if isinstance(value, LuaTable):
        return "table"
    if isinstance(value, LuaFunction):
        return "function"
    return None


class MoonSharpSandbox:
    """A MoonSharp script whose script environments hold only the TTS library set.

    The same Lua modules as :class:`~.sandbox.LuaSandbox` (``sandbox.lua`` for the environments,
    ``tts_api.lua`` for the emulated table) run here in MoonSharp; ``math.random`` is seeded
    from ``seed`` and the os functions read a virtual clock.
    """

    engine = "moonsharp"
    error = MoonSharpError
    # The same in both engines: written once, in LuaSandbox.
    make_env = LuaSandbox.make_env
    protected = LuaSandbox.protected
    run_chunk = LuaSandbox.run_chunk
    load_script = LuaSandbox.load_script

    def __init__(
        self,
        *,
        seed: int = 0,
        on_print: Callable[[str], None] | None = None,
        dll: str | os.PathLike[str] | None = None,
    ) -> None:
        clr = _clr(dll_path(dll))
        self._ms = clr["ms"]
        self._json = clr["Json"]
        self._array = clr["Array"][self._ms.DynValue]
        self._callback_type = clr["Callback"]
        self._types = self._ms.DataType
        self._system_exception = clr["Exception"]
        self.script = self._ms.Script(self._ms.CoreModules.Preset_Complete)
        self.prints: list[str] = []
        self._random = random.Random(seed)
        self._on_print = on_print or self.prints.append
        self._pending: list[BaseException] = []  # Python errors raised inside callbacks
        self._callbacks: list[Callable[..., Any]] = []  # what the Lua callbacks call
        services = self.to_lua(
            {
                "random": self._random.random,
                "randomseed": self._randomseed,
                "print": lambda text: self._on_print(text),
            }
        )
        self.lib = self.load_module("sandbox.lua", services)
        self._run = self.lib["run"]
        self._negatives = self.execute(_NEGATIVES)
        # A table's JSON text written in Lua (convert.lua, as lupa's sandbox does): one string
        # crosses instead of a pythonnet call per entry, the slow part of a table game here.
        self._encode = self.load_module("convert.lua")["encode"]

    # ------------------------------------------------------------------ values
    def dyn(self, value: Any) -> Any:
        """A Python value as a MoonSharp ``DynValue``."""
        DynValue = self._ms.DynValue
        if value is None:
            return DynValue.Nil
        if isinstance(value, bool):
            return DynValue.NewBoolean(value)
        if isinstance(value, int | float):
            return DynValue.NewNumber(float(value))
        if isinstance(value, str):
            return DynValue.NewString(value)
        if isinstance(value, LuaTable):
            return DynValue.NewTable(value.table)
        if isinstance(value, LuaFunction):
            return value.value
        if isinstance(value, Mapping | list | tuple):
            return DynValue.NewTable(self.to_lua(value).table)
        if callable(value):
            return self._callback(value)
        if isinstance(value, self._ms.DynValue):
            return value
        raise TypeError(f"cannot pass a Python {type(value).__name__} to MoonSharp")

    def py(self, value: Any) -> Any:
        """A ``DynValue`` as Python: scalars as themselves (integral numbers as ints, as lupa
        gives them), tables and functions wrapped, a tuple of results as a tuple."""
        kind = value.Type
        types = self._types
        if kind == types.Number:
            number = value.Number
            if number.is_integer() and abs(number) < 2**63:
                return int(number)
            return number
        if kind == types.String:
            return value.String
        if kind == types.Boolean:
            return value.Boolean
        if kind == types.Nil or kind == types.Void:
            return None
        if kind == types.Table:
            return LuaTable(self, value.Table)
        if kind == types.Function or kind == types.ClrFunction:
            return LuaFunction(self, value)
        if kind == types.Tuple:
            items = tuple(self.py(item) for item in value.Tuple)
            if not items:
                return None
            return items[0] if len(items) == 1 else items
        return value

    def _callback(self, fn: Callable[..., Any]) -> Any:
        """A Lua function calling ``fn``. The .NET delegate holds only a weak reference to this
        sandbox (``fn`` is kept here): a strong one would make a cycle through .NET that
        Python's collector cannot see, and every sandbox would live until the process ends."""
        self._callbacks.append(fn)
        delegate = self._callback_type(_Trampoline(self, len(self._callbacks) - 1))
        return self._ms.DynValue.NewCallback(delegate, getattr(fn, "__name__", "python"))

    def _called(self, index: int, arguments: Any) -> Any:
        """Run callback ``index`` for Lua; a Python error becomes a Lua error (and is raised
        again where the Lua call returns)."""
        try:
            args = [self.py(arguments[i]) for i in range(arguments.Count)]
            result = self._callbacks[index](*args)
            if isinstance(result, tuple):
                return self._ms.DynValue.NewTuple(self._array([self.dyn(v) for v in result]))
            return self.dyn(result)
        except Exception as exc:  # noqa: BLE001 - re-raised where the Lua call returns
            self._pending.append(exc)
            raise self._ms.ScriptRuntimeException(f"{type(exc).__name__}: {exc}") from None

    def call_raw(self, fn: Any, args: tuple[Any, ...]) -> Any:
        """``fn(*args)`` for a function ``DynValue``; a Lua error raises :class:`MoonSharpError`
        (or the Python exception a callback raised, as lupa re-raises it)."""
        self._pending.clear()
        try:
            result = self.script.Call(fn, self._array([self.dyn(a) for a in args]))
        except self._ms.InterpreterException as exc:
            if self._pending:
                raise self._pending[-1] from None
            raise MoonSharpError(str(exc.DecoratedMessage or exc.Message)) from None
        except self._system_exception as exc:  # .NET errors MoonSharp lets out (LUA.md §8)
            if self._pending:
                raise self._pending[-1] from None
            raise MoonSharpError(f"{type(exc).__name__}: {exc.Message}") from None
        return self.py(result)

    def to_lua(self, value: Any) -> Any:
        """JSON-shaped Python data as Lua tables (a dict's None values dropped, a None in a list
        a hole), through MoonSharp's JSON converter when the data is plain JSON."""
        if isinstance(value, Mapping | list | tuple):
            negatives: list[bool] = []
            try:
                plain = _json_form(value, negatives)
            except _NotPlain:
                pass
            else:
                text = _LUA_TOKENS.sub(_lua_token, json.dumps(plain, ensure_ascii=False))
                try:
                    table = LuaTable(self, self._json.JsonToTable(text, self.script))
                except self._ms.InterpreterException:
                    pass  # built entry by entry below
                else:
                    if negatives:
                        self._negatives(table)
                    return table
            table = LuaTable(self, self._ms.Table(self.script))
            items = value.items() if isinstance(value, Mapping) else enumerate(value, start=1)
            for key, item in items:
                if item is not None:
                    table[key] = item
            return table
        return value

    json_to_lua = to_lua

    def table(self) -> LuaTable:
        """A new empty Lua table."""
        return LuaTable(self, self._ms.Table(self.script))

    def from_lua(self, value: Any) -> Any:
        """Lua values as JSON-shaped Python data, by :func:`~.sandbox.from_lua`'s rules: a
        table as the JSON text ``convert.lua`` writes, or (what it leaves to the host) entry by
        entry."""
        if isinstance(value, LuaTable):
            text = self._encode(value)
            if text is not None:
                return decoded(text)
        return _from_lua(value, set())

    lua_to_json = from_lua

    @staticmethod
    def lua_type(value: Any) -> str | None:
        return lua_type(value)

    # ------------------------------------------------------------------ scripts
    def load_module(self, filename: str, *args: Any) -> Any:
        """Run a Lua file shipped with this package, unsandboxed, with ``args``; its result."""
        try:
            fn = self.script.LoadString(lua_read(filename), None, filename)
        except self._ms.InterpreterException as exc:
            raise LuaScriptError(str(exc.DecoratedMessage or exc.Message)) from None
        return self.call_raw(fn, args)

    def _randomseed(self, value: Any = 0) -> None:
        self._random.seed(value if isinstance(value, int | float) and math.isfinite(value) else 0)

    @property
    def clock(self) -> float:
        """Virtual seconds read by ``os.clock``."""
        return float(self.lib["clock"]["seconds"])

    @clock.setter
    def clock(self, seconds: float) -> None:
        self.lib["clock"]["seconds"] = seconds

    def compile(self, source: str, chunkname: str, env: Any = None) -> Any:
        """Compile ``source`` as text in ``env``; syntax errors raise LuaScriptError."""
        if env is None:
            env = self.make_env()
        result = self.lib["load_chunk"](source, chunkname.lstrip("=@"), env)
        if isinstance(result, tuple):
            raise LuaScriptError(str(result[1]))
        return result

    def lookup(self, env: Any, dotted_name: str) -> Any:
        """The value at ``a.b.c`` in ``env``, or None."""
        value = env
        for part in dotted_name.split("."):
            if not isinstance(value, LuaTable):
                return None
            value = value[part]
        return value

    def call_encoded(self, fn: Any, *json_args: Any) -> tuple[str | None, Any]:
        """``fn(*json_args)`` caught: ``(None, raw_first_result)``; a Lua error raises
        :class:`LuaScriptError` (the message only)."""
        ok, value, _ = self.protected(fn, *(self.to_lua(a) for a in json_args))
        if not ok:
            raise LuaScriptError(value)
        return None, value

    def call_function(self, fn: Any, *json_args: Any) -> Any:
        """``fn(*json_args)`` with JSON-shaped args; its first result as JSON-shaped data."""
        return self.from_lua(self.call_encoded(fn, *json_args)[1])

    def call(self, env: Any, dotted_name: str, *json_args: Any) -> Any:
        """Call the function at ``dotted_name``; its JSON-shaped result."""
        fn = self.lookup(env, dotted_name)
        if not isinstance(fn, LuaFunction):
            raise LuaScriptError(f"{dotted_name} is not a function in this script")
        ok, value, traceback = self.protected(fn, *(self.to_lua(a) for a in json_args))
        if not ok:
            raise LuaScriptError(value, traceback)
        return self.from_lua(value)

    def execute(self, source: str) -> Any:
        """Run host Lua (unsandboxed); its result."""
        return self.call_raw(self.script.LoadString(source, None, "host"), ())


class _NotPlain(Exception):
    """Data MoonSharp's JSON converter cannot carry; it is built entry by entry instead."""


#: MoonSharp 2.0's JSON reader refuses negative numbers: they cross as text behind this mark,
#: and :data:`_NEGATIVES` turns them back into numbers in Lua.
_MARK = "\x01"
#: Its reader is Lua's lexer: "[[" opens a long string and a string's "\u0041" is "\u{0041}".
_LUA_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|\[')
_LUA_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u([0-9a-fA-F]{4})")


def _lua_token(found: re.Match[str]) -> str:
    """A JSON string or bracket as MoonSharp's JSON reader (Lua's lexer) reads it."""
    text = found.group(0)
    if text == "[":
        return "[ "
    return _LUA_ESCAPE.sub(r"\1\\u{\2}", text) if "\\u" in text else text


_NEGATIVES = """
local function fix(t)
  for k, v in pairs(t) do
    if type(v) == "table" then
      fix(v)
    elseif type(v) == "string" and v:byte(1) == 1 then
      t[k] = tonumber(v:sub(2))
    end
  end
end
return fix
"""


def _json_form(value: Any, negatives: list[bool]) -> Any:
    """``value`` as JSON MoonSharp's converter reads as :meth:`MoonSharpSandbox.to_lua` builds
    it (a negative number as marked text, noted in ``negatives``); :class:`_NotPlain` for
    anything else: a key that is no string, None (MoonSharp's null is a userdata), a number
    that is not finite, a string that starts with the mark."""
    kind = type(value)
    if kind is str:
        if value.startswith(_MARK):
            raise _NotPlain
        return value
    if kind is bool:
        return value
    if kind is int or kind is float:
        if not math.isfinite(value):
            raise _NotPlain
        if value < 0:
            negatives.append(True)
            return _MARK + repr(value)
        return value
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = _json_form(item, negatives)
        return out
    if isinstance(value, list | tuple):
        return [_json_form(item, negatives) for item in value]
    raise _NotPlain


def _number(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    return value


def _key_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float):
        return str(int(key)) if key.is_integer() else format(key, ".14g")
    return str(key)


def _from_lua(value: Any, seen: set[int]) -> Any:
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int | float):
        return _number(value)
    if isinstance(value, LuaFunction):
        raise TypeError("cannot convert a Lua function to JSON-shaped data")
    if not isinstance(value, LuaTable):
        raise TypeError(f"cannot convert a Lua {type(value).__name__} to JSON-shaped data")
    ident = value.table.GetHashCode()
    if ident in seen:
        raise ValueError("cannot convert a Lua table that contains itself")
    seen = seen | {ident}
    items = list(value.items())
    if not items:
        return []
    if all(isinstance(k, int) and not isinstance(k, bool) and k >= 1 for k, _ in items):
        result: list[Any] = [None] * max(k for k, _ in items)
        for key, item in items:
            result[key - 1] = _from_lua(item, seen)
        return result
    return {_key_text(k): _from_lua(v, seen) for k, v in items}
