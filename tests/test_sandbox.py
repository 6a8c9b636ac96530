"""The MoonSharp-like Lua sandbox: library set, conversions, calls and errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tts_builder.emulator import LuaSandbox, LuaScriptError, from_lua, to_lua


@pytest.fixture(scope="module")
def sandbox() -> LuaSandbox:
    return LuaSandbox(seed=7)


def lua_value(sandbox: LuaSandbox, expression: str) -> object:
    env = sandbox.load_script(f"result = {expression}", "probe")
    return from_lua(env["result"])


@pytest.mark.parametrize(
    "name",
    ["io", "debug", "package", "require", "load", "loadstring", "dofile", "loadfile", "unpack"],
)
def test_sandbox_lacks_libraries_tts_does_not_load(sandbox: LuaSandbox, name: str) -> None:
    assert lua_value(sandbox, f"type({name})") == "nil"


def test_os_keeps_only_time_functions(sandbox: LuaSandbox) -> None:
    keys = lua_value(
        sandbox,
        "(function() local k = {} for n in pairs(os) do k[#k+1] = n end "
        "table.sort(k) return k end)()",
    )
    assert keys == ["clock", "date", "difftime", "time"]
    assert lua_value(sandbox, "type(os.clock())") == "number"
    assert lua_value(sandbox, "os.time{year=2024, month=1, day=1, hour=0}") == 1704067200


def test_standard_libraries_present(sandbox: LuaSandbox) -> None:
    present = "type(string.format), type(table.unpack), type(math.floor), type(bit32.band)"
    env = sandbox.load_script(f"a, b, c, d = {present}; e = type(coroutine.wrap)", "libs")
    assert [env[k] for k in "abcde"] == ["function"] * 5
    assert lua_value(sandbox, "_VERSION") == "Lua 5.2"
    assert lua_value(sandbox, "_G == _ENV") is True
    assert lua_value(sandbox, "type(string.dump)") == "nil"


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("local a, b = unpack({1, 2})", "global 'unpack'"),
        ("local f = load('return 1')", "global 'load'"),
        ("io.write('x')", "global 'io'"),
        ("local m = require('x')", "global 'require'"),
        ("os.exit(1)", "field 'exit'"),
    ],
)
def test_missing_functions_fail_with_clear_error(
    sandbox: LuaSandbox, source: str, fragment: str
) -> None:
    with pytest.raises(LuaScriptError) as caught:
        sandbox.load_script("local x = 1\n" + source, "Global")
    message = str(caught.value)
    assert message.startswith("Global:2:")
    assert fragment in message
    assert "table.unpack" in message or "not loaded in Tabletop Simulator" in message


def test_moonsharp_only_syntax_is_rejected(sandbox: LuaSandbox) -> None:
    with pytest.raises(LuaScriptError, match=r"^Rules:1: .*near '!'"):
        sandbox.load_script("x = 1 != 2", "Rules")


def test_environments_are_isolated(sandbox: LuaSandbox) -> None:
    first = sandbox.load_script("shared = 1; math.pi = 3", "a")
    second = sandbox.load_script("seen = shared; pi = math.pi", "b")
    assert first["shared"] == 1
    assert second["seen"] is None
    assert second["pi"] == pytest.approx(3.14159265)


def test_scripts_cannot_reach_python(sandbox: LuaSandbox) -> None:
    assert lua_value(sandbox, "type(python)") == "nil"
    assert lua_value(sandbox, "type(math.random)") == "function"
    peek = sandbox.runtime.eval("function(o) return o.__class__ end")
    with pytest.raises(AttributeError):
        peek(object())


def test_call_dotted_name_with_json(sandbox: LuaSandbox) -> None:
    env = sandbox.load_script(
        "Rules = {}\n"
        "function Rules.score(t)\n"
        "  local total = 0\n"
        "  for _, v in ipairs(t.cards) do total = total + v end\n"
        "  return {total = total, name = t.name, empty = {}, half = total / 2}\n"
        "end",
        "Global",
    )
    result = sandbox.call(env, "Rules.score", {"cards": [1, 2, 3], "name": "Noah"})
    assert result == {"total": 6, "name": "Noah", "empty": [], "half": 3}
    assert isinstance(result["half"], int)


def test_runtime_error_names_chunk_and_line(sandbox: LuaSandbox) -> None:
    env = sandbox.load_script("function f(t)\n  return t.x.y\nend", "Rules")
    with pytest.raises(LuaScriptError) as caught:
        sandbox.call(env, "f", {})
    assert str(caught.value).startswith("Rules:2: attempt to index field 'x'")
    assert caught.value.traceback and "stack traceback" in caught.value.traceback
    with pytest.raises(LuaScriptError, match="not a function"):
        sandbox.call(env, "missing.fn")


def test_random_is_seeded_and_print_is_captured() -> None:
    script = "rolls = {} for i = 1, 5 do rolls[i] = math.random(1, 6) end print('done', 1)"
    a, b, c = LuaSandbox(seed=1), LuaSandbox(seed=1), LuaSandbox(seed=2)
    rolls = [from_lua(s.load_script(script, "r")["rolls"]) for s in (a, b, c)]
    assert rolls[0] == rolls[1] != rolls[2]
    assert all(1 <= r <= 6 for r in rolls[0])
    assert a.prints == ["done\t1"]


def test_virtual_clock_drives_os_functions() -> None:
    sandbox = LuaSandbox()
    sandbox.clock = 90.5
    assert lua_value(sandbox, "os.clock()") == 90.5
    assert lua_value(sandbox, "os.time()") == 1700000000 + 90
    assert lua_value(sandbox, "os.date('%H:%M:%S', 0)") == "00:00:00"


def test_from_lua_table_shapes(sandbox: LuaSandbox) -> None:
    assert lua_value(sandbox, "{}") == []
    assert lua_value(sandbox, "{1, 2, 3}") == [1, 2, 3]
    assert lua_value(sandbox, "{[1] = 'a', [3] = 'c'}") == ["a", None, "c"]
    assert lua_value(sandbox, "{[1] = 'a', x = 'b'}") == {"1": "a", "x": "b"}
    assert lua_value(sandbox, "{[0] = 'z'}") == {"0": "z"}
    assert lua_value(sandbox, "2.0") == 2 and isinstance(lua_value(sandbox, "2.0"), int)
    with pytest.raises(TypeError):
        lua_value(sandbox, "{f = print}")


json_scalars = (
    st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(st.text(max_size=8), children, min_size=1, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_conversion_round_trips(value: object) -> None:
    sandbox = _ROUND_TRIP
    back = from_lua(to_lua(sandbox.runtime, value))
    assert back == value
    echoed = sandbox.call(_ECHO, "echo", value)
    assert echoed == value


_ROUND_TRIP = LuaSandbox()
_ECHO = _ROUND_TRIP.load_script("function echo(v) return v end", "echo")
