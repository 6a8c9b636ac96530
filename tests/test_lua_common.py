"""The shared Lua modules (lua_templates/common/): bundled where a game requires them, each
saying what it provides and needs, and doing it in Lua 5.2 (the games' e2e tests run them in
the emulated table)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from lupa import lua52

from tts_builder.lua.bundle import unbundle
from tts_builder.lua.lint import lint
from tts_builder.lua.scripts import common_modules, global_script, required_common
from tts_builder.lua.templates import TEMPLATES_DIR

RULES = "local M = {}\nreturn M\n"


def _root(tmp_path: Path, glue: str, common: dict[str, str]) -> Path:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "rules.lua.j2").write_text(RULES)
    (tmp_path / "g" / "glue.lua.j2").write_text(glue)
    (tmp_path / "common").mkdir()
    for name, text in common.items():
        (tmp_path / "common" / f"{name}.lua.j2").write_text(text)
    return tmp_path


def test_only_the_common_modules_required_are_rendered_and_bundled(tmp_path: Path) -> None:
    root = _root(
        tmp_path,
        'local a = require("common/a")\nreturn a\n',
        {
            "a": 'local b = require( "common/b" )\nreturn {b = b}\n',
            "b": "return {{ value | lua }}\n",
            "unused": "return {{ not_in_the_context | lua }}\n",  # rendering it would raise
        },
    )
    modules = unbundle(global_script("g", {"value": 7}, root))
    assert sorted(modules) == ["__root", "common/a", "common/b", "glue", "rules"]
    assert modules["common/b"] == "return 7\n"


def test_a_missing_common_module_is_named(tmp_path: Path) -> None:
    root = _root(tmp_path, 'require("common/nowhere")\n', {})
    with pytest.raises(FileNotFoundError, match="common/nowhere"):
        global_script("g", {}, root)


def test_required_common_reads_require_calls() -> None:
    sources = ['local x = require("common/text")', 'require("state")\nrequire("common/ui")']
    assert required_common(sources) == {"common/text", "common/ui"}


@pytest.mark.parametrize("template", common_modules())
def test_each_common_module_says_what_it_provides_and_needs(template: str) -> None:
    text = (TEMPLATES_DIR / template).read_text(encoding="utf-8")
    name = template.removesuffix(".lua.j2")
    assert text.startswith(f"-- {name} (generated): ")
    header = text.split("\n\n")[0]
    assert "Provides:" in header and "Template context:" in header


CTX = {
    "game": {"name": "Test game"},
    "players": {"min": 2, "max": 3},
    "seats": [{"color": "Red"}, {"color": "Blue"}, {"color": "Green"}],
}
GLUE = """\
COMMON = {
  state = require("common/state"), seats = require("common/seats"),
  text = require("common/text"), messages = require("common/messages"),
  objects = require("common/objects"), ui = require("common/ui"),
}
"""


def _lua(tmp_path: Path, seated: list[str]) -> tuple[Any, Any, list[tuple[str, ...]]]:
    """The common modules bundled and run in Lua 5.2 beside stand-ins for the TTS globals
    they call (JSON, broadcasts, seated players) and a Rules.seating of the arche games'
    shape: every seated seat colour plays, in seat order; other seated colours are unlisted."""
    root = tmp_path / "t"
    root.mkdir()
    (root / "common").symlink_to(TEMPLATES_DIR / "common")
    (root / "g").mkdir()
    (root / "g" / "rules.lua.j2").write_text(
        "local M = {}\n"
        "function M.seating(a)\n"
        "  local r = {players = {}, slots = {}, unlisted = {}}\n"
        "  for i, c in ipairs(a.seats) do\n"
        "    for _, s in ipairs(a.seated) do\n"
        "      if s == c then r.players[#r.players + 1] = c; r.slots[#r.slots + 1] = i - 1 end\n"
        "    end\n"
        "  end\n"
        "  for _, s in ipairs(a.seated) do\n"
        "    local listed = false\n"
        "    for _, c in ipairs(a.seats) do listed = listed or c == s end\n"
        "    if not listed then r.unlisted[#r.unlisted + 1] = s end\n"
        "  end\n"
        "  r.enough = #r.players >= a.min and #r.players <= a.max\n"
        "  return r\n"
        "end\n"
        "return M\n"
    )
    (root / "g" / "glue.lua.j2").write_text(GLUE)
    script = global_script("g", CTX, root)
    assert lint(script, "common") == []
    said: list[tuple[str, ...]] = []
    lua = lua52.LuaRuntime()
    g = lua.globals()
    g.JSON = lua.table_from(
        {
            "encode": lambda t: json.dumps({k: t[k] for k in t}, sort_keys=True),
            "decode": lambda s: lua.table_from(json.loads(s)),
        }
    )
    g.broadcastToAll = lambda message, tint: said.append(("all", message))
    g.broadcastToColor = lambda message, color, tint: said.append((color, message))
    g.getSeatedPlayers = lambda: lua.table_from(seated)
    lua.execute(script)
    return lua, g.COMMON, said


def test_state_resets_and_restores_in_place(tmp_path: Path) -> None:
    lua, m, _ = _lua(tmp_path, [])
    state = m.state
    s = state.S
    assert s.phase == "idle"
    state.reset(lua.table_from({"phase": "setup", "round": 2}))
    assert lua.eval("function(a, b) return rawequal(a, b) end")(state.S, s)
    assert (s.phase, s.round) == ("setup", 2)
    assert json.loads(state.encode()) == {"phase": "setup", "round": 2}
    for bad in ("", None, "not json", json.dumps({"round": 3})):
        assert state.restore(bad) is False
    assert (s.phase, s.round) == ("setup", 2)
    assert state.restore(json.dumps({"phase": "over"})) is True
    assert (s.phase, s.round) == ("over", None)


def test_text_words(tmp_path: Path) -> None:
    lua, m, _ = _lua(tmp_path, [])
    text = m.text
    assert [text.fmt(3), text.signed(2), text.signed(0), text.signed(-1)] == ["3", "+2", "+0", "-1"]
    assert [text.mod(-1, 4), text.mod(9, 4)] == [3, 1]
    assert text.and_join(lua.table_from(["a", "b", "c"])) == "a, b and c"
    assert text.and_join(lua.table_from(["a"])) == "a" and text.and_join(lua.table()) == ""
    assert text.join(lua.table_from(["a", "b"])) == "a, b"
    items = lua.table_from(["x", "y", "x"])
    assert text.contains(items, "y") and not text.contains(None, "y")
    assert text.remove_value(items, "x") and [items[1], items[2]] == ["y", "x"]


def test_at_setup_seats_the_players_or_says_why_not(tmp_path: Path) -> None:
    lua, m, said = _lua(tmp_path, ["Green", "Pink", "Red"])
    seats = m.seats
    result, players = seats.at_setup("Red", "Red")
    assert [(players[i].color, players[i].slot) for i in (1, 2)] == [("Red", 1), ("Green", 3)]
    assert result.enough
    assert said == [
        (
            "Pink",
            "Pink is not a seat of this game, so you are not playing: sit at "
            "Red, Blue, Green to play.",
        )
    ]
    m.state.reset(lua.table_from({"phase": "setup", "players": players}))
    assert (seats.n_players(), seats.color_of(2), seats.slot_of(2)) == (2, "Green", 3)
    assert (seats.player_of_color("Green"), seats.player_in(3), seats.player_in(2)) == (2, 2, None)
    assert seats.seat_of_player(2).color == "Green" and seats.seat_of("Blue")[1] == 2
    said.clear()
    assert seats.at_setup("Blue", "Blue")[0] is None
    assert said == [("Blue", "The game is already set up.")]


def test_at_setup_with_too_few_seated(tmp_path: Path) -> None:
    _, m, said = _lua(tmp_path, ["Blue"])
    assert m.seats.at_setup("Blue", None)[0] is None
    assert said == [("all", "Test game needs 2-3 players seated at Red, Blue, Green; 1 seated.")]


GLUE_TEMPLATES = sorted(
    str(p.relative_to(TEMPLATES_DIR))
    for p in TEMPLATES_DIR.glob("*/*.lua.j2")
    if p.name != "rules.lua.j2"
)


@pytest.mark.parametrize("template", GLUE_TEMPLATES)
def test_the_glue_turns_no_seat_relative_offsets(template: str) -> None:
    """Seat-relative places are turned once, by the build (geometry.rotate_y), and handed to
    the glue as data: no glue module does that trigonometry again."""
    text = (TEMPLATES_DIR / template).read_text(encoding="utf-8")
    assert not re.search(r"\bmath\.(rad|cos|sin)\b", text)
