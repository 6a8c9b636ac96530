"""``tts-builder schema``: a JSON Schema (draft 2020-12) of a game's ``game.yaml`` from the specs
the loader checks with; a stock validator accepts every bundled game and rejects wrong ones;
``new`` writes it beside a new game and names it on the game.yaml's first line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import click
import pytest
import yaml
from jsonschema import Draft7Validator, Draft202012Validator

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, cli, run
from tts_builder.cli_schema import schema
from tts_builder.definition import SCHEMA_FILE, available_games, load_definition
from tts_builder.scaffold import MODELINE

#: The CLI with the schema command (cli.py registers it; this test does not rely on that).
ENTRY = click.Group(commands={**cli.commands, "schema": schema}, params=cli.params,
                    callback=cli.callback)  # fmt: skip
BUNDLED = [source.id for source in available_games(None)]


def exported(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert run(["schema", *args], entry=ENTRY) == EXIT_OK
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def schemas() -> dict[str, dict[str, Any]]:
    """Each bundled game's exported schema, checked to be a valid draft 2020-12 schema."""
    from click.testing import CliRunner

    found = {}
    for game in BUNDLED:
        result = CliRunner().invoke(schema, [game])
        assert result.exit_code == 0, result.output
        found[game] = json.loads(result.stdout)
        Draft202012Validator.check_schema(found[game])
    return found


@pytest.mark.parametrize("game", BUNDLED)
def test_every_bundled_game_yaml_fits_its_schema(schemas: dict[str, Any], game: str) -> None:
    data = load_definition(game).doc.data
    problems = list(Draft202012Validator(schemas[game]).iter_errors(data))
    assert not problems, [f"{list(p.absolute_path)}: {p.message}" for p in problems]
    assert schemas[game]["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    # its keywords mean the same in draft 7, which older YAML editors read
    older = {key: value for key, value in schemas[game].items() if key != "$schema"}
    Draft7Validator.check_schema(older)
    assert Draft7Validator(older).is_valid(data)


def _wrong(data: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    """``data`` with the value at the dotted path ``where`` replaced (``-`` removes it)."""
    out = copy.deepcopy(data)
    *parents, last = where.split(".")
    node = out
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if value == "-":
        del node[last]
    else:
        node[int(last) if isinstance(node, list) else last] = value
    return out


@pytest.mark.parametrize(
    ("game", "where", "value"),
    [
        ("prototype", "colour", "red"),  # an unknown key
        ("prototype", "engine", "arche-noah"),  # another engine: another schema
        ("prototype", "players.min", 0),  # the documented range: 1 to 10
        ("prototype", "complexity", "Lowish"),
        ("prototype", "name", "-"),  # a required key
        ("prototype", "table.pieces.0.kind", "spaceship"),
        ("prototype", "table.pieces.0.tags", "Flower"),  # a list
        ("prototype", "table.type", "Table_Moon"),
        ("prototype", "variants", {"Quick": {"name": "Quick"}}),  # a variant's id: lower case
        ("arche-noah", "rules.playthroughs", 10),
        ("arche-noah", "animals.0.color", "red"),
        ("arche-noah", "components.card.face.0.type", "circle"),  # a layout's element
        ("arche-noah-flood", "rules.mode", "expert"),
        ("arche-noah-flood", "rules.stair_hexes.min", "one"),
        ("ark-and-noah", "rules.actions.0.kind", "fly"),
        ("ark-and-noah", "rules.actions.0.resource", "-"),  # a gain action needs resource
    ],
)
def test_a_wrong_document_is_rejected(
    schemas: dict[str, Any], game: str, where: str, value: Any
) -> None:
    data = _wrong(load_definition(game).doc.data, where, value)
    assert not Draft202012Validator(schemas[game]).is_valid(data)


def test_descriptions_come_from_the_specs(schemas: dict[str, Any]) -> None:
    properties = schemas["prototype"]["properties"]
    assert "folder" in properties["id"]["description"]
    assert properties["id"]["pattern"] == "^(?:[a-z0-9]+(-[a-z0-9]+)*)$"
    at = properties["table"]["properties"]["pieces"]["items"]["properties"]["at"]
    assert "anchor" in at["description"] and "``" not in at["description"]
    rules = schemas["arche-noah"]["properties"]["rules"]["properties"]
    assert rules["chips"]["description"].startswith("the chips each player starts with")


def test_the_command_names_the_game_or_finds_the_only_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["schema"], entry=ENTRY) == EXIT_BAD_INPUT  # several bundled games: name one
    assert "schema: name a game (found: arche-noah, " in capsys.readouterr().err
    assert run(["new", "my-cards", "--from", "prototype"], entry=ENTRY) == EXIT_OK
    capsys.readouterr()
    assert exported(capsys) == exported(capsys, "my-cards")  # the current folder's game
    assert run(["schema", "no-such-game"], entry=ENTRY) == EXIT_BAD_INPUT


def test_new_writes_the_schema_beside_the_game_and_names_it_first(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(["new", "my-flood", "--from", "arche-noah-flood"], entry=ENTRY) == EXIT_OK
    text = (tmp_path / "my-flood" / "game.yaml").read_text("utf-8")
    assert text.startswith(MODELINE)
    assert text.splitlines()[0] == "# yaml-language-server: $schema=game.schema.json"
    written = json.loads((tmp_path / "my-flood" / SCHEMA_FILE).read_text("utf-8"))
    capsys.readouterr()
    assert written == exported(capsys, "my-flood")
    assert Draft202012Validator(written).is_valid(yaml.safe_load(text))
    # a copy of a copy keeps one modeline and a fresh schema of its own engine
    assert run(["new", "again", "--from", "my-flood"], entry=ENTRY) == EXIT_OK
    again = (tmp_path / "again" / "game.yaml").read_text("utf-8")
    assert again.count("yaml-language-server") == 1 and again.startswith(MODELINE)
    assert (tmp_path / "again" / SCHEMA_FILE).read_bytes() == (
        tmp_path / "my-flood" / SCHEMA_FILE
    ).read_bytes()
