"""The fast conversion verify uses (``LuaSandbox.call_function``: arguments in through one
lupa call, the result out as one JSON string encoded in Lua) gives what ``LuaSandbox.call``
(``to_lua`` / ``from_lua``, one crossing per entry) gives, errors included."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tts_builder.emulator import LuaSandbox, LuaScriptError, from_lua, to_lua

SANDBOX = LuaSandbox()
ENV = SANDBOX.load_script(
    """
    Echo = {}
    function Echo.same(x) return x end
    function Echo.lua(code) return Echo.built[code] end
    Echo.built = {
      sparse = {[1] = 1, [3] = 3},
      very_sparse = {[1] = 1, [1000] = 2},
      mixed = {1, 2, x = "y"},
      float_keys = {[1.5] = "a", [2] = "b"},
      zero_key = {[0] = "z", [1] = "o"},
      bool_keys = {[true] = 1, [false] = 0},
      negative = {[-3] = "m"},
      nan = {0 / 0},
      inf = {1 / 0, -1 / 0},
      huge = {2 ^ 63, -2 ^ 63, 2 ^ 70, 2 ^ 53 + 1, 1e15, 1e300},
      fractions = {0.1, 1 / 3, -2.5, 5e-324},
      text = {"tab\\there", 'quote " and \\\\', "nul\\0byte", "del\\127", "été", "\\255bad"},
      huge_key = {[2 ^ 60] = 1},
      fn = {f = print},
      nested = {a = {b = {c = {}}}, list = {{}, {1}, {x = {}}}},
    }
    """,
    "Echo",
)
CASES = sorted(
    ["sparse", "very_sparse", "mixed", "float_keys", "zero_key", "bool_keys", "negative", "nan",
     "inf", "huge", "fractions", "text", "huge_key", "fn", "nested", "missing"]
)  # fmt: skip


def canonical(value: Any) -> Any:
    """``value`` with dicts as sorted items (their order is the Lua table's, which depends on
    how the table was built) and numbers by repr (NaN equals NaN, 1 differs from 1.0)."""
    if isinstance(value, dict):
        return ("dict", sorted((k, canonical(v)) for k, v in value.items()))
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return repr(value)


def outcome(call: Any) -> Any:
    try:
        return ("ok", canonical(call()))
    except (LuaScriptError, Exception) as err:  # noqa: BLE001 - the error must match too
        return ("error", type(err).__name__, str(err))


def both(name: str, *args: Any) -> tuple[Any, Any]:
    slow = outcome(lambda: SANDBOX.call(ENV, f"Echo.{name}", *args))
    fn = SANDBOX.lookup(ENV, f"Echo.{name}")
    fast = outcome(lambda: SANDBOX.call_function(fn, *args))
    return slow, fast


@pytest.mark.parametrize("case", CASES)
def test_lua_built_values_convert_alike(case: str) -> None:
    slow, fast = both("lua", case)
    assert fast == slow


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**62), 2**62)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=5), inner, max_size=5),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=100, database=None, deadline=None)
@given(json_values)
def test_json_values_round_trip_alike(value: Any) -> None:
    slow, fast = both("same", value)
    assert fast == slow


def test_a_list_shared_by_two_keys_arrives_twice() -> None:
    shared = [0, 0]
    slow, fast = both("same", {"from": shared, "to": shared, "gap": [None, 1]})
    assert fast == slow
    assert fast[1][1][0][1] == fast[1][1][2][1] == [repr(0), repr(0)]


def test_errors_carry_the_same_message() -> None:
    env = SANDBOX.load_script("function Boom(x) error('rule_error:bad: ' .. x.why) end", "B")
    with pytest.raises(LuaScriptError) as slow:
        SANDBOX.call(env, "Boom", {"why": "no"})
    with pytest.raises(LuaScriptError) as fast:
        SANDBOX.call_function(SANDBOX.lookup(env, "Boom"), {"why": "no"})
    assert fast.value.message == slow.value.message
    assert "rule_error:bad: no" in fast.value.message


def test_an_infinite_float_is_kept() -> None:
    fn = SANDBOX.lookup(ENV, "Echo.same")
    assert SANDBOX.call_function(fn, [math.inf]) == [math.inf]


LAYOUT = SANDBOX.runtime.eval(
    """function(x)
      local out = {}
      local function walk(t)
        out[#out + 1] = "#" .. #t
        for k, v in pairs(t) do
          out[#out + 1] = tostring(k)
          if type(v) == "table" then walk(v) end
        end
      end
      walk(x)
      return table.concat(out, " ")
    end"""
)
holey_values = st.recursive(
    st.none() | st.integers(-3, 3) | st.sampled_from(["a", "b", "edge", "color"]),
    lambda inner: st.lists(inner, max_size=12)
    | st.dictionaries(st.sampled_from(["a", "b", "c", "edge", "x1"]) | st.integers(-2, 20),
                      inner, max_size=12),
    max_leaves=40,
)  # fmt: skip


@settings(max_examples=100, database=None, deadline=None)
@given(st.lists(holey_values.filter(lambda v: isinstance(v, list | dict)), min_size=1,
                max_size=1))  # fmt: skip
def test_arguments_are_laid_out_as_json_to_lua_lays_them_out(args: list[Any]) -> None:
    """The tables call_function builds from its flat list are the ones json_to_lua made (one
    lupa call per table): the same #t with nil holes, the same pairs order."""
    assert SANDBOX.call_function(LAYOUT, *args) == LAYOUT(SANDBOX.json_to_lua(args[0]))


@pytest.mark.parametrize(
    "case",
    ["border", "strings", "string_then_number", "number_then_string", "lists_of_lists",
     "comma_keys"],
)  # fmt: skip
def test_encoder_paths_convert_alike(case: str) -> None:
    env = SANDBOX.load_script(
        """
        Built = {
          border = {[1] = 1, [3] = 3, x = "y"},
          strings = {"a", "b", "c[d]"},
          string_then_number = {"a", 1, "b"},
          number_then_string = {1, "a", 2000},
          lists_of_lists = {{0, 1}, {}, {{"h:0:0"}}},
          comma_keys = {[","] = 1, ['",'] = 2, ["a:b"] = {c = 3}},
        }
        function Built.get(name) return Built[name] end
        """,
        "Built",
    )
    fn = SANDBOX.lookup(env, "Built.get")
    assert SANDBOX.call_function(fn, case) == SANDBOX.call(env, "Built.get", case)


@pytest.mark.parametrize("case", CASES)
def test_lua_to_json_reads_lua_values_as_from_lua_does(case: str) -> None:
    value = SANDBOX.lookup(ENV, "Echo.built")[case]
    slow = outcome(lambda: SANDBOX.call(ENV, "Echo.lua", case))
    assert outcome(lambda: SANDBOX.lua_to_json(value)) == slow


def test_a_table_with_a_metatable_is_read_raw_as_from_lua_reads_it() -> None:
    env = SANDBOX.load_script(
        """
        local shown = setmetatable({x = 1}, {__index = function(_, k) return k end,
          __len = function() return 3 end, __pairs = function() return next, {y = 2} end})
        function Shown() return {shown, shown} end
        """,
        "Meta",
    )
    fn = SANDBOX.lookup(env, "Shown")
    assert SANDBOX.call_function(fn) == SANDBOX.call(env, "Shown") == [{"x": 1}, {"x": 1}]
    assert SANDBOX.lua_to_json(fn()) == [{"x": 1}, {"x": 1}]


@settings(max_examples=100, database=None, deadline=None)
@given(holey_values.filter(lambda v: isinstance(v, list | dict)))
def test_the_sandbox_to_lua_lays_tables_out_as_to_lua(value: Any) -> None:
    """LuaSandbox.to_lua (built in Lua from a flat list) makes the tables to_lua makes (one
    lupa call per entry, None skipped everywhere): the same #t and pairs order."""
    assert LAYOUT(SANDBOX.to_lua(value)) == LAYOUT(to_lua(SANDBOX.runtime, value))


def test_the_sandbox_to_lua_passes_other_values_through() -> None:
    service = SANDBOX.to_lua({"f": len, "n": [1, None, 2]})
    assert service["f"] is len and from_lua(service["n"]) == [1, None, 2]  # no slot 2
    assert SANDBOX.to_lua("text") == "text" and SANDBOX.to_lua(None) is None
