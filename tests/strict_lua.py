"""A pure Lua rules module loaded in a strict Lua 5.2 environment, for the rules tests.

Only the standard libraries the rules may use are visible; touching any other global (a TTS
API, or a typo) raises. Results come back as JSON-shaped Python.
"""

from __future__ import annotations

from typing import Any

from lupa import lua52

from tts_builder.emulator import from_lua, to_lua
from tts_builder.verify import lua_error_outcome, normalize

STRICT_ENV = """
local env = {}
for _, k in ipairs({"assert", "error", "ipairs", "pairs", "select", "tonumber", "tostring",
                    "type", "math", "string", "table", "next", "pcall", "setmetatable"}) do
  env[k] = _G[k]
end
return setmetatable(env, {__index = function(_, k) error("global " .. k .. " used", 2) end})
"""


class StrictRules:
    """``Rules`` from a rendered rules module: ``raw`` raises Lua errors, calling normalises."""

    def __init__(self, source: str) -> None:
        self.lua = lua52.LuaRuntime()
        env = self.lua.execute(STRICT_ENV)
        chunk = self.lua.globals().load(source, "=rules", "t", env)
        assert not isinstance(chunk, tuple), chunk  # (nil, message) on a syntax error
        self.module = chunk()

    def raw(self, name: str, *args: Any) -> Any:
        """``Rules.<name>(args)`` with JSON-shaped arguments; the result as JSON."""
        return from_lua(self.module[name](*(to_lua(self.lua, a) for a in args)))

    def normalized(self, name: str, *args: Any) -> Any:
        """Like :meth:`raw`, normalised as the verifier does."""
        return normalize(self.raw(name, *args))

    __call__ = normalized

    def safe(self, name: str, inp: Any) -> Any:
        """Like the verifier: a rule_error is ``{"rule_error": code}``, any other error a crash."""
        try:
            return self.normalized(name, inp)
        except lua52.LuaError as err:
            return lua_error_outcome(str(err))
