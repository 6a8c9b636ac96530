"""Loading game definitions: valid files load, bad ones fail on one line naming file:line:col."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.errors import BuildError, DefinitionError
from tts_builder.games import game_ids

GAME = "arche-noah"


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    """A private copy of the bundled assets to break."""
    shutil.copytree(ASSETS_ROOT / GAME, tmp_path / GAME)
    shutil.copytree(ASSETS_ROOT / "fonts", tmp_path / "fonts")
    return tmp_path


def edit(assets: Path, old: str, new: str) -> None:
    path = assets / GAME / "game.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def error_for(assets: Path) -> DefinitionError:
    with pytest.raises(DefinitionError) as info:
        load_definition(GAME, assets)
    message = str(info.value)
    assert "\n" not in message
    return info.value


def line_of(assets: Path, needle: str) -> int:
    lines = (assets / GAME / "game.yaml").read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


@pytest.mark.parametrize("game", game_ids())
def test_bundled_games_load(game: str) -> None:
    definition = load_definition(game)
    assert definition.id == game
    low, high = definition.players
    assert 1 <= low <= high


def test_wrong_type_names_file_line_column_and_field(assets: Path) -> None:
    edit(assets, "{players: [5], purple: 10, green: 2}", "{players: [5], purple: twelve, green: 2}")
    err = error_for(assets)
    line = line_of(assets, "purple: twelve")
    assert re.fullmatch(
        rf".*arche-noah/game\.yaml:{line}:\d+: rules\.chips\[1\]\.purple: "
        r"expected an integer from 0 to 99, got 'twelve'",
        str(err),
    )
    text = (assets / GAME / "game.yaml").read_text().splitlines()[line - 1]
    assert text[err.location.column - 1 :].startswith("twelve")


def test_unknown_key_is_rejected(assets: Path) -> None:
    edit(assets, "  playthroughs: 2", "  playthroughs: 2\n  playthrougs: 3")
    err = error_for(assets)
    assert err.field == "rules.playthrougs"
    assert err.location.line == line_of(assets, "playthrougs: 3")
    assert "unknown key" in str(err)


def test_broken_yaml_names_the_line(assets: Path) -> None:
    edit(assets, "players: {min: 2, max: 5}", "players: {min: 2, max: 5")
    err = error_for(assets)
    assert "YAML syntax error" in str(err)
    assert err.location.line >= line_of(assets, "players: {min: 2, max: 5")


def test_duplicate_key(assets: Path) -> None:
    edit(assets, "name: Arche Noah", "name: Arche Noah\nname: Arche Noah 2")
    err = error_for(assets)
    assert err.field == "name" and "duplicate key" in str(err)


def test_missing_art_names_the_field_and_file(assets: Path) -> None:
    (assets / GAME / "art" / "lion.png").unlink()
    err = error_for(assets)
    assert err.field == "animals[2].art"
    assert err.location.line == line_of(assets, "art/lion.png")
    assert "lion.png" in str(err)


def test_missing_player_count_coverage(assets: Path) -> None:
    edit(assets, "{players: [5], purple: 10, green: 2}", "{players: [6], purple: 10, green: 2}")
    err = error_for(assets)
    assert err.field == "rules.chips"
    assert "no entry for 5 players" in str(err)


def test_a_player_count_in_two_rows_names_the_second(assets: Path) -> None:
    """The schema's reference pass checks Arche Noah's by-player-count tables as every game's."""
    edit(assets, "{players: [4, 5], count: 0}", "{players: [3, 5], count: 0}")
    err = error_for(assets)
    assert err.field == "rules.animals_removed[2].players[0]"
    assert "3 players listed twice" in str(err)
    assert err.location.line == line_of(assets, "{players: [3, 5], count: 0}")


def test_supply_must_cover_every_player_count(assets: Path) -> None:
    edit(assets, "    purple: 50", "    purple: 47")
    err = error_for(assets)
    assert err.field == "rules.supply.purple"
    assert "4 players need 48" in str(err)


def test_bad_layout_element_is_located(assets: Path) -> None:
    edit(assets, "{type: image, src:", "{type: imag, src:")
    err = error_for(assets)
    assert err.field.startswith("components.card.face[3]")
    assert err.location.line == line_of(assets, "type: imag,")


def test_missing_definition_file(tmp_path: Path) -> None:
    (tmp_path / GAME).mkdir()  # a game folder without its game.yaml is not skipped
    with pytest.raises(BuildError, match=r"game\.yaml: definition file not found"):
        load_definition(GAME, tmp_path)


def test_unknown_game() -> None:
    with pytest.raises(BuildError, match="unknown game 'nope'"):
        load_definition("nope")


def test_unknown_template_field_is_located_at_build(assets: Path) -> None:
    from tts_builder.build import BuildOptions, build_game

    edit(assets, 'text: "{name}"', 'text: "{nmae}"')
    with pytest.raises(DefinitionError) as info:
        build_game(GAME, BuildOptions(), {}, assets_root=assets)
    assert info.value.field.startswith("components.card.face[9]")
    assert info.value.location.line == line_of(assets, "{nmae}")
    assert "nmae" in str(info.value)
