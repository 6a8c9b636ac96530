"""Run generated TTS Lua outside the game: a MoonSharp-like sandbox and an emulated table."""

from .sandbox import LuaSandbox, LuaScriptError, from_lua, to_lua
from .table import EmulatedTable, EmulatorError, TableRuleError

__all__ = [
    "EmulatedTable",
    "EmulatorError",
    "LuaSandbox",
    "LuaScriptError",
    "TableRuleError",
    "from_lua",
    "to_lua",
]
