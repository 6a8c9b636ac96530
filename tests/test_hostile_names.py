"""A designer's game name with what XML, Lua and JSON treat specially (``--``, ``<>&"'``,
``]]``) builds a save whose XML UI parses and shows the name literally, and whose scripts
load (issue 24)."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from lupa import lua52

from tts_builder.build import BuildOptions, build_game
from tts_builder.bundled import ASSETS_DIR
from tts_builder.definition import select_games

NAMES = ["Noah -- the Ark", 'Noah <b>&amp; "Ark" \'s <!-- x -->', "Noah ]] --[[ end"]


def _yaml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.mark.parametrize("game", select_games([]))
@pytest.mark.parametrize("name", NAMES)
def test_a_name_with_markup_and_comment_dashes_is_shown_literally(
    game: str, name: str, tmp_path: Path
) -> None:
    shutil.copytree(ASSETS_DIR / game, tmp_path / game)
    path = tmp_path / game / "game.yaml"
    lines = path.read_text(encoding="utf-8").split("\n")
    (at,) = [i for i, line in enumerate(lines) if line.startswith("name:")]
    lines[at] = f"name: {_yaml_string(name)}"
    path.write_text("\n".join(lines), encoding="utf-8")

    build = build_game(game, BuildOptions(), {}, tmp_path)

    ui = ET.fromstring(f"<root>{build.save['XmlUI']}</root>")  # a comment with -- fails here
    texts = ["".join(e.itertext()) for e in ui.iter() if e.tag == "Text"]
    assert any(name in text for text in texts), texts
    compile_error = lua52.LuaRuntime().eval("function(s) local _, err = load(s); return err end")
    assert compile_error(build.global_script) is None
