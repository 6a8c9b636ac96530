"""luabundle bundles: they run, they round-trip, and their lines map back to modules."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lupa import lua52

from tts_builder.lua.bundle import (
    FOOTER,
    HEADER,
    bundle,
    explain_error,
    is_bundle,
    module_line_map,
    unbundle,
)

MODULES = {
    "rules": "local M = {}\nfunction M.double(x)\n  return x * 2\nend\nreturn M\n",
    "util/strings": "return { shout = function(s) return s .. '!' end }\n",
}
ROOT = 'Rules = require("rules")\nlocal s = require("util/strings")\nreturn s.shout("hi")\n'


def test_bundle_runs_and_requires_modules_once() -> None:
    text = bundle(MODULES, ROOT)
    lua = lua52.LuaRuntime()
    assert lua.execute(text) == "hi!"
    assert lua.eval("Rules.double(21)") == 42
    assert text.startswith(HEADER + "\n") and text.endswith(FOOTER + "\n")
    assert is_bundle(text) and not is_bundle(ROOT)


def test_bundle_layout_is_luabundle_compatible() -> None:
    text = bundle(MODULES, ROOT)
    registers = [line for line in text.splitlines() if line.startswith("__bundle_register(")]
    wrapper = ", function(require, _LOADED, __bundle_register, __bundle_modules)"
    assert registers == [
        f'__bundle_register("{name}"{wrapper}' for name in ("__root", "rules", "util/strings")
    ]
    assert "local __bundle_require, __bundle_loaded, __bundle_register, __bundle_modules" in text


def test_unbundle_round_trip() -> None:
    text = bundle(MODULES, ROOT)
    assert unbundle(text) == {"__root": ROOT, **MODULES}
    # a source without a final newline comes back with one
    assert unbundle(bundle({"m": "return 1"}, "x = 1"))["m"] == "return 1\n"


lua_lines = st.lists(
    st.text(st.characters(blacklist_characters="\n\r", codec="utf-8"), max_size=30).filter(
        lambda line: not line.startswith("__bundle_register(")
    ),
    max_size=8,
).map(lambda lines: "".join(line + "\n" for line in lines))


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.from_regex(r"[a-z][a-z0-9_/.]{0,8}", fullmatch=True), lua_lines, max_size=4),
    lua_lines,
)
def test_unbundle_inverts_bundle(modules: dict[str, str], root: str) -> None:
    assert unbundle(bundle(modules, root)) == {"__root": root, **modules}


def test_line_map_names_module_and_line() -> None:
    text = bundle(MODULES, ROOT)
    mapping = module_line_map(text)
    lines = text.split("\n")
    for bundle_line, (module, line) in mapping.items():
        source = ROOT if module == "__root" else MODULES[module]
        assert lines[bundle_line - 1] == source.split("\n")[line - 1]
    assert sorted(mapping.values()) == sorted(
        [("__root", i) for i in range(1, 4)]
        + [("rules", i) for i in range(1, 6)]
        + [("util/strings", 1)]
    )


def test_lua_runtime_error_maps_to_template_line() -> None:
    text = bundle(
        {"rules": "local M = {}\nfunction M.f()\n  error('boom')\nend\nreturn M\n"},
        'return require("rules")\n',
    )
    lua = lua52.LuaRuntime()
    rules = lua.execute(text)
    with pytest.raises(lua52.LuaError) as caught:
        rules.f()
    message = explain_error(text, str(caught.value), {"rules": "rules.lua.j2"})
    assert "rules.lua.j2:3: boom" in message


REGISTER_LINE = (
    '__bundle_register("x", function(require, _LOADED, __bundle_register, __bundle_modules)\n'
)


@pytest.mark.parametrize(
    ("modules", "root"),
    [({"__root": "x"}, ""), ({"bad name": "x"}, ""), ({}, REGISTER_LINE)],
)
def test_bundle_refuses_ambiguous_input(modules: dict[str, str], root: str) -> None:
    with pytest.raises(ValueError):
        bundle(modules, root)
