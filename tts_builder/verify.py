"""Cross-checking the shipped Lua against rules_ref.

The Lua side runs the exact Global script text of a built save in a TTS-like Lua 5.2 sandbox;
the Python side calls the same-named function of ``rules_ref.<game>`` with the definition's
rule config. Hypothesis generates inputs and shrinks any disagreement to a smallest example.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .errors import BuildError

Json = Any
ERROR = {"error": True}


def normalize(value: Json) -> Json:
    """Canonical JSON for comparison, as Lua tables see it: an empty mapping equals an empty
    list (Lua's ``{}``) and a key whose value is null is the same as an absent key (Lua
    cannot store nil in a table)."""
    if isinstance(value, dict):
        kept = {str(k): normalize(v) for k, v in value.items() if v is not None}
        return kept or []
    if isinstance(value, list | tuple):
        return [normalize(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def rules_module(game_id: str) -> ModuleType:
    """``rules_ref.<game>`` for a game id (``arche-noah`` -> ``rules_ref.arche_noah``)."""
    return importlib.import_module(f"rules_ref.{game_id.replace('-', '_')}")


class Engines:
    """The two implementations of a game's rule functions, callable by name."""

    def __init__(self, game_id: str, config: dict[str, Any], global_script: str) -> None:
        from .emulator import LuaSandbox

        self.game_id = game_id
        self.config = config
        self.python_functions: dict[str, Callable[..., Json]] = rules_module(game_id).FUNCTIONS
        self.sandbox = LuaSandbox()
        self.env = self.sandbox.load_script(global_script, "Global")

    def names(self) -> list[str]:
        """Functions present on both sides."""
        lua_rules = self.env["Rules"]
        return [name for name in self.python_functions if lua_rules[name] is not None]

    def check_name(self, name: str) -> None:
        if name not in self.python_functions:
            known = ", ".join(self.python_functions)
            raise BuildError(f"{self.game_id}: unknown rule function {name!r} (known: {known})")

    def python(self, name: str, inp: Json) -> Json:
        self.check_name(name)
        try:
            return normalize(self.python_functions[name](self.config, inp))
        except (ValueError, KeyError, TypeError, IndexError):
            return ERROR

    def lua(self, name: str, inp: Json) -> Json:
        from .emulator import LuaScriptError

        self.check_name(name)
        try:
            return normalize(self.sandbox.call(self.env, f"Rules.{name}", inp))
        except LuaScriptError:
            return ERROR


@dataclass
class Mismatch:
    """The smallest input found on which the two engines disagree."""

    function: str
    input: Json
    lua: Json
    python: Json

    def describe(self) -> str:
        return (
            f"{self.function}: Lua and rules_ref disagree on {json.dumps(self.input)}: "
            f"lua={json.dumps(self.lua)} python={json.dumps(self.python)}"
        )


@dataclass
class FunctionResult:
    """How one function fared: inputs tried (fewer when the input space is small) and any
    shrunk mismatch."""

    function: str
    tried: int
    mismatch: Mismatch | None


def check_function(
    engines: Engines, name: str, strategy: Any, examples: int, seed: int
) -> FunctionResult:
    """Run up to ``examples`` generated inputs through both engines; shrink any mismatch."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    failures: list[Mismatch] = []
    seen: set[str] = set()

    @with_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def agree(inp: Json) -> None:
        seen.add(json.dumps(inp, sort_keys=True))
        lua, python = engines.lua(name, inp), engines.python(name, inp)
        if lua != python:
            failures.append(Mismatch(name, inp, lua, python))
            raise AssertionError(name)

    try:
        agree()
    except Exception:  # Hypothesis re-raises the shrunk failure (possibly grouped)
        if not failures:
            raise
        return FunctionResult(name, len(seen), failures[-1])
    return FunctionResult(name, len(seen), None)
