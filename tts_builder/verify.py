"""Cross-checking the shipped Lua against rules_ref.

The Lua side runs the exact Global script text of a built save in a TTS-like Lua 5.2 sandbox;
the Python side calls the same-named function of ``rules_ref.<game>`` with the definition's
rule config. Hypothesis generates inputs and shrinks any disagreement to a smallest example.

The contract holds both ways: every function of the shipped ``Rules`` table has a rules_ref
twin and an input strategy (:meth:`Engines.contract_gaps` names each one missing). A rule
refuses bad input with one declared error kind: ``RuleError(code)`` in rules_ref, the string
``"rule_error:<code>: <detail>"`` in Lua; two refusals agree when their codes are equal. Any
other exception on either side is a crash, and a crash never agrees.

Inputs are generated once per game: a check that passes keeps the inputs it drew, by generator
object, and a later check with the same generator (another variant of the game whose config
agrees on what the generator reads, see ``tts_builder.strategies``) runs those inputs through
its own builds instead of drawing them again. Any disagreement there is searched for and shrunk
by Hypothesis as usual, on the same seed.
"""

from __future__ import annotations

import importlib
import json
import pickle
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .errors import BuildError

Json = Any
RULE_ERROR = "rule_error"  # outcome key: the rule refused its input with this code
CRASH = "crash"  # outcome key: any other exception (always a failure)
_LUA_REFUSAL = re.compile(RULE_ERROR + r":([a-z0-9_]+)(?::\s?(.*))?", re.S)


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


def _normal_float(text: str) -> Json:
    return normalize(float(text))


_NORMAL_JSON = json.JSONDecoder(parse_float=_normal_float).decode


def refused(code: str, message: str | None = None) -> dict[str, str]:
    """The outcome of a rule refusing its input with ``code`` (``message``: the full text)."""
    return {RULE_ERROR: code} if message is None else {RULE_ERROR: code, "message": message}


def crashed(message: str) -> dict[str, str]:
    """The outcome of any exception that is not the declared rule error."""
    return {CRASH: message}


def is_refusal(outcome: Json) -> bool:
    return isinstance(outcome, dict) and RULE_ERROR in outcome


def is_crash(outcome: Json) -> bool:
    return isinstance(outcome, dict) and CRASH in outcome


def agree(lua: Json, python: Json) -> bool:
    """Whether two outcomes agree: equal results, or refusals with the same code. A crash on
    either side never agrees."""
    if is_crash(lua) or is_crash(python):
        return False
    if is_refusal(lua) or is_refusal(python):
        return is_refusal(lua) and is_refusal(python) and lua[RULE_ERROR] == python[RULE_ERROR]
    return bool(lua == python)


def python_outcome(
    function: Callable[..., Json], config: Any, inp: Json, detail: bool = False
) -> Json:
    """``function(config, inp)`` normalised; a RuleError as a refusal (with its message when
    ``detail``), anything else a crash."""
    from rules_ref.errors import RuleError

    try:
        return normalize(function(config, inp))
    except RuleError as err:
        return refused(err.code, str(err) if detail else None)
    except Exception as err:  # noqa: BLE001 - any other exception is a failure, reported
        return crashed(f"{type(err).__name__}: {err}")


def lua_error_outcome(message: str, detail: bool = False) -> Json:
    """A Lua error message as an outcome: ``rule_error:<code>`` (after any chunk position,
    which MoonSharp adds whatever the level) is a refusal, anything else a crash."""
    found = _LUA_REFUSAL.search(message)
    if found is None:
        return crashed(message)
    return refused(found.group(1), message[found.start() :] if detail else None)


def rules_module(game_id: str) -> ModuleType:
    """``rules_ref.<game>`` for a game id (``arche-noah`` -> ``rules_ref.arche_noah``)."""
    return importlib.import_module(f"rules_ref.{game_id.replace('-', '_')}")


class Engines:
    """The two implementations of a game's rule functions, callable by name."""

    def __init__(
        self, game_id: str, config: dict[str, Any], global_script: str, lua: str | None = None
    ) -> None:
        from .emulator import LuaScriptError
        from .emulator.engines import new_sandbox
        from .emulator.sandbox import decoded

        self._lua_error = LuaScriptError
        self._decoded = decoded
        self.game_id = game_id
        self.config = config
        self.global_script = global_script
        self.python_functions: dict[str, Callable[..., Json]] = rules_module(game_id).FUNCTIONS
        self.sandbox = new_sandbox(lua)
        self.engine = self.sandbox.engine
        self._from_lua = self.sandbox.from_lua
        # Rule calls make many short-lived tables: a collection cycle once the heap has
        # quadrupled (Lua's default: doubled) saves 5-10 % of their time. Memory only.
        self.sandbox.execute("collectgarbage('setpause', 400)")
        self.env = self.sandbox.load_script(global_script, "Global")
        self._lua_functions: dict[str, Any] = {}

    def lua_names(self) -> list[str]:
        """Every function in the shipped ``Rules`` table, sorted."""
        lua_type = self.sandbox.lua_type
        rules = self.env["Rules"]
        if rules is None or lua_type(rules) != "table":
            return []
        return sorted(
            k for k, v in rules.items() if isinstance(k, str) and lua_type(v) == "function"
        )

    def names(self) -> list[str]:
        """Functions present on both sides (rules_ref's order)."""
        lua = set(self.lua_names())
        return [name for name in self.python_functions if name in lua]

    def contract_gaps(self, strategies: Mapping[str, Any]) -> list[str]:
        """What breaks the contract both ways, one line each: a ``Rules`` function without a
        rules_ref twin or an input strategy, a twin or a strategy without a ``Rules`` function."""
        module = self.game_id.replace("-", "_")
        strategies_file = f"tts_builder/games/{module}/strategies.py"
        lua = self.lua_names()
        gaps = []
        for name in lua:
            if name not in self.python_functions:
                gaps.append(
                    f"Rules.{name} has no rules_ref twin "
                    f"(add it to rules_ref/{module}.py FUNCTIONS)"
                )
            if name not in strategies:
                gaps.append(f"Rules.{name} has no input strategy (add it to {strategies_file})")
        for name in self.python_functions:
            if name not in lua:
                gaps.append(f"rules_ref/{module}.py FUNCTIONS[{name!r}] has no Lua Rules.{name}")
        for name in strategies:
            if name not in lua and name not in self.python_functions:
                gaps.append(
                    f"{strategies_file} has a strategy for {name!r}, which is no rule function"
                )
        return gaps

    def check_name(self, name: str) -> None:
        if name not in self.python_functions:
            known = ", ".join(self.python_functions)
            raise BuildError(f"{self.game_id}: unknown rule function {name!r} (known: {known})")

    def python(self, name: str, inp: Json, detail: bool = False) -> Json:
        """rules_ref's outcome (a refusal's message too when ``detail``)."""
        self.check_name(name)
        return python_outcome(self.python_functions[name], self.config, inp, detail)

    def lua_function(self, name: str) -> Any:
        """The shipped ``Rules.<name>`` (looked up once); a LuaScriptError if it is none."""
        fn = self._lua_functions.get(name)
        if fn is None:
            fn = self.sandbox.lookup(self.env, f"Rules.{name}")
            if self.sandbox.lua_type(fn) != "function":
                raise self._lua_error(f"Rules.{name} is not a function in this script")
            self._lua_functions[name] = fn
        return fn

    def lua(self, name: str, inp: Json, detail: bool = False) -> Json:
        """The shipped Lua's outcome (a refusal's message too when ``detail``)."""
        self.check_name(name)
        try:
            text, raw = self.sandbox.call_encoded(self.lua_function(name), inp)
            if text is None:
                return normalize(self._from_lua(raw))
            # convert.lua's JSON is normal already (no empty or null-valued objects, string
            # keys, integral numbers below 2^63 as integers) but for larger integral numbers.
            return self._decoded(text, _NORMAL_JSON)
        except self._lua_error as err:
            return lua_error_outcome(err.message, detail)
        except Exception as err:  # noqa: BLE001 - e.g. a result JSON cannot hold
            return crashed(f"{type(err).__name__}: {err}")


@dataclass
class Mismatch:
    """The smallest input found on which the two engines disagree."""

    function: str
    input: Json
    lua: Json
    python: Json
    engine: str = "lupa"
    #: lupa's outcome, when MoonSharp's differs from it (and both may agree with rules_ref)
    lupa: Json = None

    def describe(self) -> str:
        lua = "Lua" if self.engine == "lupa" else "MoonSharp"
        if self.lupa is not None:
            return (
                f"{self.function}: MoonSharp and lupa disagree on {json.dumps(self.input)}: "
                f"moonsharp={json.dumps(self.lua)} lupa={json.dumps(self.lupa)} "
                f"python={json.dumps(self.python)}"
            )
        crashed_side = [
            side for side, out in ((lua, self.lua), ("rules_ref", self.python)) if is_crash(out)
        ]
        what = (
            f"{' and '.join(crashed_side)} raised an error that is no rule_error"
            if crashed_side
            else f"{lua} and rules_ref disagree"
        )
        return (
            f"{self.function}: {what} on {json.dumps(self.input)}: "
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
    return check_functions([engines], name, strategy, examples, seed)[0]


@dataclass
class Drawn:
    """The inputs one passing check drew from a generator (pickled: pristine for every build),
    and how many of them were distinct."""

    strategy: Any  # kept alive, so that its id is not reused while the entry exists
    inputs: list[bytes]
    distinct: int


#: Inputs drawn by passing checks, by (game, id of the generator, examples, seed); the entries
#: of one game at a time (a game's variants share generators, other games do not).
_DRAWN: dict[tuple[str, int, int, int], Drawn] = {}


def forget_drawn_inputs() -> None:
    """Drop every kept input: the next check of each generator draws its inputs again."""
    _DRAWN.clear()


def _drawn_key(builds: list[Engines], strategy: Any, examples: int, seed: int) -> tuple:
    return (builds[0].game_id, id(strategy), examples, seed)


def _keep_drawn(key: tuple, drawn: Drawn) -> None:
    if any(other[0] != key[0] for other in _DRAWN):
        _DRAWN.clear()  # another game's inputs: no build of this game shares them
    _DRAWN[key] = drawn


def _replay(builds: list[Engines], runs: list[int], name: str, drawn: Drawn) -> bool:
    """Whether every kept input agrees in each build ``runs`` names (False at the first that
    does not)."""
    for data in drawn.inputs:
        for index in runs:
            inp = pickle.loads(data)  # noqa: S301 - our own pickles of generated inputs
            if not agree(builds[index].lua(name, inp), builds[index].python(name, inp)):
                return False
    return True


def check_functions(
    builds: list[Engines], name: str, strategy: Any, examples: int, seed: int
) -> list[FunctionResult]:
    """:func:`check_function` for builds that share one input strategy (a game's variants whose
    configs agree on what it reads): each input is generated once and run through every build's
    two engines (once for builds with the same script and config), so a disagreement in any
    build fails the run and is shrunk. Inputs a passing check drew from ``strategy`` before
    (for another variant of the game) are run again rather than drawn again. A build's mismatch
    is the last input it disagreed on: the shrunk one for a build that fails on it."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    same: dict[tuple[str, str, str], int] = {}
    for index, engines in enumerate(builds):
        same.setdefault(_build_key(engines), index)
    runs = sorted(set(same.values()))
    drawn_key = _drawn_key(builds, strategy, examples, seed)
    kept = _DRAWN.get(drawn_key)
    if kept is not None and kept.strategy is strategy and _replay(builds, runs, name, kept):
        return [FunctionResult(name, kept.distinct, None) for _ in builds]
    failures: dict[int, Mismatch] = {}
    seen: set[str] = set()
    inputs: list[bytes] = []

    @with_seed(seed)
    @settings(
        max_examples=examples,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def same_outcome(inp: Json) -> None:
        seen.add(json.dumps(inp, sort_keys=True))
        inputs.append(pickle.dumps(inp))
        failed = False
        lupa: dict[tuple[str, str], Json] = {}  # a build's lupa outcome, by script and config
        for index in runs:
            engines = builds[index]
            lua, python = engines.lua(name, inp), engines.python(name, inp)
            if not agree(lua, python):
                failures[index] = Mismatch(name, inp, lua, python, engines.engine)
                failed = True
            script = _build_key(engines)[1:]
            if engines.engine == "lupa":
                lupa[script] = lua
            elif script in lupa and lupa[script] != lua and index not in failures:
                failures[index] = Mismatch(name, inp, lua, python, engines.engine, lupa[script])
                failed = True
        if failed:
            raise AssertionError(name)

    try:
        same_outcome()
    except Exception:  # Hypothesis re-raises the shrunk failure (possibly grouped)
        if not failures:
            raise
    if not failures:
        _keep_drawn(drawn_key, Drawn(strategy, inputs, len(seen)))
    results = []
    for engines in builds:
        results.append(FunctionResult(name, len(seen), failures.get(same[_build_key(engines)])))
    return results


def _build_key(engines: Engines) -> tuple[str, str, str]:
    """What makes two builds' outcomes the same: the engine, the script and the config."""
    config = json.dumps(engines.config, sort_keys=True, default=str)
    return (engines.engine, engines.global_script, config)
