"""Which Lua runs the scripts: lupa's C Lua 5.2 (fast, for volume) or MoonSharp 2.0.0.0 (what
Tabletop Simulator runs, the verdict). Both sandboxes have one interface."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import BuildError
from .moonsharp import DLL_VARIABLE, MoonSharpSandbox, MoonSharpUnavailable, available
from .sandbox import LuaSandbox

#: The engines by name; ``both`` (in the CLI) runs each check in each.
ENGINES = ("lupa", "moonsharp")
#: The environment variable choosing the default engine (``lupa`` when unset).
ENGINE_VARIABLE = "TTS_BUILDER_LUA"


_CHOSEN: list[str] = []  # engines chosen by :func:`using`, innermost last


class EngineUnavailable(BuildError):
    """The Lua engine the environment chose cannot run: an unknown ``$TTS_BUILDER_LUA``, or
    MoonSharp not configured (the user's setup: one line, exit 2)."""


@contextmanager
def using(engine: str) -> Iterator[None]:
    """Within this block, tables and rule checks made without an engine run ``engine``."""
    if engine not in ENGINES:
        raise ValueError(f"unknown Lua engine {engine!r}: expected one of {', '.join(ENGINES)}")
    _CHOSEN.append(engine)
    try:
        yield
    finally:
        _CHOSEN.pop()


def default_engine() -> str:
    """The engine :func:`using` chose, else ``$TTS_BUILDER_LUA`` if set, else ``lupa``."""
    if _CHOSEN:
        return _CHOSEN[-1]
    name = os.environ.get(ENGINE_VARIABLE, "lupa").strip().lower()
    if name not in ENGINES:
        raise EngineUnavailable(f"{ENGINE_VARIABLE}={name!r}: expected one of {', '.join(ENGINES)}")
    return name


def new_sandbox(engine: str | None = None, **options: Any) -> LuaSandbox | MoonSharpSandbox:
    """A sandbox of ``engine`` (default: :func:`default_engine`) with ``seed``/``on_print``."""
    engine = engine or default_engine()
    if engine == "moonsharp":
        try:
            return MoonSharpSandbox(**options)
        except MoonSharpUnavailable as err:
            raise EngineUnavailable(str(err)) from None
    if engine != "lupa":
        raise ValueError(f"unknown Lua engine {engine!r}: expected one of {', '.join(ENGINES)}")
    return LuaSandbox(**options)


def engine_note(engines: list[str]) -> str:
    """One line saying which engines run, and whose verdict that is."""
    if engines == ["moonsharp"]:
        return "Lua: MoonSharp 2.0.0.0, the interpreter TTS runs"
    if "moonsharp" in engines:
        return (
            "Lua: lupa (C Lua 5.2) and MoonSharp 2.0.0.0 (the interpreter TTS runs), every "
            "input in each"
        )
    if available() is None:
        return "Lua: lupa (C Lua 5.2); --lua moonsharp gives the verdict of the Lua TTS runs"
    return (
        "Lua: lupa (C Lua 5.2), not the MoonSharp TTS runs: the verdict is lupa's (set "
        f"{DLL_VARIABLE} to MoonSharp.Interpreter.dll to check in MoonSharp)"
    )
