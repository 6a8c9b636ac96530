"""The flood race's definition: its keys, the map checks of issue 3 part 1, its rule config."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from rules_ref import arche_noah_flood as F
from tts_builder.cli import EXIT_BAD_INPUT, run
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.errors import BuildError
from tts_builder.games import game_ids
from tts_builder.games.arche_noah_flood import rules_config

GAME = "arche-noah-flood"
SOURCE = (ASSETS_ROOT / GAME / "game.yaml").read_text(encoding="utf-8")
DATA = yaml.safe_load(SOURCE)


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / GAME, root / GAME)
    return root


def edit(assets: Path, change: Callable[[str], str]) -> None:
    path = assets / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")


def row(r: int) -> str:
    return DATA["map"]["terrain"][r]


def build_error(capsys: pytest.CaptureFixture[str], assets: Path, tmp_path: Path) -> str:
    """Build the game from ``assets`` on the command line; it must fail with exit 2."""
    code = run(["--assets", str(assets), "build", GAME, "--out", str(tmp_path / "dist")])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert not (tmp_path / "dist" / GAME).exists()
    return lines[0]


def test_the_bundled_definition_loads_with_its_variants() -> None:
    definition = load_definition(GAME)
    assert GAME in game_ids()
    assert definition.variants == ["junior", "distinct-species"]
    assert definition.players == (3, 5)
    assert [a["art"] for a in definition.data["animals"]] == [
        f"art/{a['name'].lower()}.png" for a in definition.data["animals"]
    ]


def test_rules_config_is_what_rules_ref_reads() -> None:
    data = load_definition(GAME).data
    config = rules_config(data)
    assert config == F.config_from_definition(data)
    assert config["animals"] == ["Elephant", "Hippo", "Camel", "Giraffe", "Eagle"]
    assert config["map"] == data["map"] and config["distinct_species"] is False
    assert rules_config(data, "distinct-species")["distinct_species"] is True
    # the junior variant overlays only the mode: the rule functions take it as "variant"
    assert rules_config(data, "junior") == {**config, "mode": "junior"}
    assert F.validate_map(config) == []


def test_a_start_hex_some_species_cannot_leave(capsys, assets: Path, tmp_path: Path) -> None:
    # Swamp all around the first start hex (2, 1): only the hippo could leave it.
    def change(text: str) -> str:
        for r, new in (
            (1, "SS" + row(1)[2:]),
            (2, "S" + row(2)[1] + "S" + row(2)[3:]),
            (3, "SS" + row(3)[2:]),
        ):
            text = text.replace(f"    - {row(r)}\n", f"    - {new}\n", 1)
        return text

    edit(assets, change)
    line = build_error(capsys, assets, tmp_path)
    assert "game.yaml:" in line
    assert "map.starts[0]: start hex (2, 1): Elephant cannot reach the Ark" in line


def test_a_start_hex_a_camel_cannot_leave_over_the_river(
    capsys, assets: Path, tmp_path: Path
) -> None:
    # A river all around the start hex (4, 8): the elephant, hippo and eagle may swim or
    # fly across it, the camel and the giraffe cross only at fords.
    ring = [[[4, 8], list(h)] for h in F.neighbours(4, 8, 10, 12)]
    extra = "".join(f"    - {edge}\n" for edge in ring)
    edit(assets, lambda t: t.replace("rivers:\n", "rivers:\n" + extra, 1))
    line = build_error(capsys, assets, tmp_path)
    index = DATA["map"]["starts"].index([4, 8])
    assert f"map.starts[{index}]: start hex (4, 8): Camel cannot reach the Ark" in line


def test_fewer_than_ten_start_hexes(capsys, assets: Path, tmp_path: Path) -> None:
    def change(text: str) -> str:
        for s in DATA["map"]["starts"][9:]:
            text = text.replace(f"    - [{s[0]}, {s[1]}]\n", "", 1)
        return text

    edit(assets, change)
    line = build_error(capsys, assets, tmp_path)
    assert "map.starts: 9 start hexes; at least 10 are needed" in line


def test_a_ford_off_the_river(capsys, assets: Path, tmp_path: Path) -> None:
    edit(assets, lambda t: t.replace("fords:\n", "fords:\n    - [[0, 0], [0, 1]]\n", 1))
    line = build_error(capsys, assets, tmp_path)
    assert "map.fords[0]: ford (0, 0)-(0, 1) is not on a river edge" in line


def test_an_unknown_terrain_letter(capsys, assets: Path, tmp_path: Path) -> None:
    bad = row(3)[:4] + "W" + row(3)[5:]
    edit(assets, lambda t: t.replace(f"    - {row(3)}\n", f"    - {bad}\n", 1))
    line = build_error(capsys, assets, tmp_path)
    assert "map.terrain[3]: hex (3, 4): unknown terrain letter 'W' (F, M, P, S)" in line


def test_ragged_rows(capsys, assets: Path, tmp_path: Path) -> None:
    edit(assets, lambda t: t.replace(f"    - {row(5)}\n", f"    - {row(5)[:-1]}\n", 1))
    line = build_error(capsys, assets, tmp_path)
    assert "map.terrain[5]: row 5 has 11 hexes but row 0 has 12 (ragged rows)" in line


def test_loading_checks_die_styles_without_drawing_a_die(monkeypatch) -> None:
    import tts_builder.render.composite as composite

    def no_drawing(*args: object, **kwargs: object) -> None:
        raise AssertionError("a die face was drawn to check the definition")

    monkeypatch.setattr(composite, "render_die_face", no_drawing)
    monkeypatch.setattr(composite, "render_layout", no_drawing)
    assert load_definition(GAME).data["components"]["number_die"]["style"]["size"] == 768


@pytest.mark.parametrize(
    ("old", "new", "field", "message"),
    [
        (
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: fords_only}",
            "Camel: {plain: 1, forest: 0, mountain: 3, swamp: null, river: fords_only}",
            "rules.costs.Camel.forest",
            "expected an integer >= 1 or null, got 0",
        ),
        (
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: fords_only}",
            "Camel: {plain: 1, forest: 2, mountain: 3, river: fords_only}",
            "rules.costs.Camel",
            "missing the cost of swamp",
        ),
        (
            '  - {name: Eagle, color: "#6c584c", art: art/eagle.png}',
            '  - {name: Eagle, color: "#6c584c", art: art/owl.png}',
            "animals[4].art",
            "art file not found",
        ),
        (
            "flies_over_animals: [Eagle]",
            "flies_over_animals: [Owl]",
            "rules.flies_over_animals[0]",
            "'Owl' is not one of the animals",
        ),
        (
            "faces: [1, 1, 2, 2, sun, water]",
            "faces: [1, 1, 2, 2, sun, rain]",
            "rules.junior.dice.faces[5]",
            "expected an integer from 0 to 99, sun or water",
        ),
        (
            "stair_hexes: {min: 2, max: 4}",
            "stair_hexes: {min: 5, max: 4}",
            "rules.stair_hexes.max",
            "expected >= stair_hexes.min",
        ),
        (
            "    - [9, 10]\n",
            "    - [8, 10]\n",
            "map.stairs[3]",
            "stair hex (8, 10) is not a hex of the last row (row 9)",
        ),
        (
            "      distinct_species: true\n",
            "      distinct_species: true\n      mode: junior\n",
            "variants.distinct-species.rules.distinct_species",
            "the junior variant deals no cards",
        ),
        (
            '      plain: "#c5dc8e"',
            '      meadow: "#c5dc8e"',
            "components.board.style.meadow",
            "unknown board style key",
        ),
        (
            'style: {size: 768, background: "#1f4e79"',
            'style: {size: 47, background: "#1f4e79"',
            "components.number_die.style.size",
            "expected at least 48 px, got 47",
        ),
        (
            'outline: "#6b4f12", color: "#6b3a00"}',
            'outline: "#6b4f12", colour: "#6b3a00"}',
            "components.symbol_die.style.colour",
            "unknown die style key",
        ),
        (
            "hex_width: 1.8, pixels_per_unit: 96}",
            "hex_width: 2.0, pixels_per_unit: 160}",
            "table.board.pixels_per_unit",
            "the board picture would be 4512 px a side",
        ),
        # the schema's types and references (schema.yaml beside the game module)
        (
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: fords_only}",
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: ford}",
            "rules.costs.Camel.river",
            "expected an integer >= 0, null or fords_only, got 'ford'",
        ),
        (
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: fords_only}",
            "Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, marsh: 1, river: fords_only}",
            "rules.costs.Camel.marsh",
            "'marsh' is not one of the terrains of rules.terrain",
        ),
        (
            "    Camel: {plain: 1, forest: 2, mountain: 3, swamp: null, river: fords_only}\n",
            "",
            "rules.costs",
            "no movement costs for Camel",
        ),
        (
            "  ford_cost: 0\n",
            "    Owl: {plain: 1}\n  ford_cost: 0\n",
            "rules.costs.Owl",
            "'Owl' is not one of the animals",
        ),
        (
            "  terrain: {P: plain,",
            "  terrain: {p: plain,",
            "rules.terrain.p",
            "expected one capital letter, got 'p'",
        ),
        (
            "hex_width: 1.8,",
            "hex_width: 12,",
            "table.board.hex_width",
            "expected a number from 0.5 to 10, got 12",
        ),
        (
            '      background: "#fbf7ef"\n',
            "",
            "components.cost_card.colors.background",
            "missing required key",
        ),
        (
            'heads: {forest: "#ffffff",',
            'heads: {woods: "#ffffff",',
            "components.cost_card.heads.woods",
            "'woods' is not one of the terrains of rules.terrain",
        ),
        (
            'heads: {forest: "#ffffff",',
            'heads: {forest: "white",',
            "components.cost_card.heads.forest",
            "expected a colour",
        ),
        (
            "pieces_per_species: 2",
            "pieces_per_species: 3",
            "table.pieces[1].at.track",
            "15 objects but track 'starts' has 12 points",
        ),
        (
            "step: [0, 48]",
            "step: [0, 80]",
            "components.cost_card.face[6].elements[0].box",
            "not inside the 900x640 canvas (a copy moved by [0, 80])",
        ),
        (
            "{color: Red, cost-card: [-13.0, -15.0], reveal: [-8.0, -15.0], facing: 0}",
            "{color: Red, cost-card: [-13.0, -15.0], facing: 0}",
            "table.seats[1].reveal",
            "missing required key",
        ),
        (
            "{color: Red, cost-card: [-13.0, -15.0],",
            "{color: Red, cost-card: [-13.0],",
            "table.seats[1].cost-card",
            "expected a list of 2 finite numbers",
        ),
        ("      deck: {first: cards}\n", "", "table.script.guids.deck", "missing required key"),
        (
            "dice: [symbol-dice, dice]",
            "dice: [symbol-dice, die]",
            "table.script.guids.dice[1]",
            "unknown piece 'die'",
        ),
        (
            "seats: {reveal: 1.2}",
            "seats: {reveal: high}",
            "table.script.seats.reveal",
            "expected a number, got 'high'",
        ),
        (
            "set_aside: {anchor: set-aside, y: 1.0}",
            "set_aside: {anchor: aside, y: 1.0}",
            "table.script.positions.set_aside.anchor",
            "unknown anchor 'aside'",
        ),
        (
            "  - {name: Eagle, color:",
            "  - {name: Hippo, color:",
            "animals[4].name",
            "animal 'Hippo' listed twice",
        ),
        (
            "      faces: [1, 1, 2, 2, sun, water]",
            "      faces: [1, 1, 2, 2, sun]",
            "rules.junior.dice.faces",
            "expected at least 6 entries, got 5",
        ),
    ],
)
def test_bad_definitions_are_located(
    assets: Path, old: str, new: str, field: str, message: str
) -> None:
    edit(assets, lambda t: t.replace(old, new, 1))
    with pytest.raises(BuildError) as err:
        load_definition(GAME, assets)
    text = str(err.value)
    assert "game.yaml:" in text and f"{field}: " in text and message in text
