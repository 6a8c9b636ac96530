"""QA: a designer's mistakes with the new keys (variants, the table manifest, art, the build
cache) each get one line naming the file, line and field, exit 2, and nothing half-written."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tts_builder.cache import HEADER
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run

PROJECT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
GAME = "qa-game"
#: A 1x1 PNG: an art file the load's check reads as one.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082"
)


def write(root: Path, data: dict[str, Any] | bytes) -> Path:
    """``root/qa-game/game.yaml`` holding ``data`` (a definition, or raw bytes)."""
    (root / GAME).mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, bytes) else yaml.safe_dump(data, sort_keys=False).encode()
    (root / GAME / "game.yaml").write_bytes(text)
    return root


def meadow(**variants: Any) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    data["id"] = GAME
    if variants:
        data["variants"] = variants
    return data


def one_line_error(capsys: pytest.CaptureFixture[str], root: Path, args: list[str]) -> str:
    """Run the CLI on ``root``'s game: exit 2, one line, no traceback, no build folder."""
    assert run(["-q", "--assets", str(root), *args]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert not (root / "dist" / GAME).exists()
    return err


def build_args(root: Path) -> list[str]:
    return ["build", GAME, "--out", str(root / "dist")]


def test_a_variant_overlaying_a_section_the_game_has_not_is_located(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A prototype has no ``rules`` section: the overlay was an internal KeyError (exit 3).
    root = write(tmp_path, meadow(fast={"name": "Fast", "rules": {"rounds": 3}}))
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(
        r"error: .*qa-game/game\.yaml:\d+:\d+: variants\.fast\.rules: this game has no "
        r"'rules' section to overlay \(sections: components, table\)$",
        err,
    ), err


def test_art_named_only_in_a_variant_is_checked_at_load_and_located_there(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    image = {"type": "image", "src": "art/seed.png", "box": [0, 0, 200, 200]}
    root = write(tmp_path, meadow(art={"name": "Art", "components": {"seed": {"face": [image]}}}))
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(
        r"error: .*qa-game/game\.yaml:\d+:\d+: variants\.art\.components\.seed\.face\[0\]\.src: "
        r"art file not found: .*art/seed\.png$",
        err,
    ), err


def test_art_from_a_roster_template_is_checked_for_every_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = meadow()
    data["components"]["flower"]["face"].append(
        {"type": "image", "src": "art/{name}.png", "box": [100, 100, 300, 300]}
    )
    root = write(tmp_path, data)
    (root / GAME / "art").mkdir()
    (root / GAME / "art" / "Rose.png").write_bytes(PNG)  # the first entry's file only
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(
        r"error: .*qa-game/game\.yaml:\d+:\d+: components\.flower\.face\[6\]\.src: "
        r"art file not found: .*art/Tulip\.png$",
        err,
    ), err


def test_art_outside_the_game_folder_is_refused_at_load(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = meadow()
    data["components"]["seed"]["face"].append(
        {"type": "image", "src": "../elsewhere.png", "box": [0, 0, 10, 10]}
    )
    root = write(tmp_path, data)
    (tmp_path / "elsewhere.png").write_bytes(b"")
    err = one_line_error(capsys, root, build_args(root))
    assert "components.seed.face[2].src: art file must be inside the game folder" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--after-setup", "--players", "0"], "--players 0: qa-game takes 2-4 players"),
        (["--after-setup", "--players", "5"], "--players 5: qa-game takes 2-4 players"),
        (["--players", "3"], "--players: seats players for --after-setup only"),
    ],
)
def test_table_refuses_a_player_count_it_cannot_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    # ``--players 0`` drew every player count and 1 drew a table nobody can play (exit 0).
    root = write(tmp_path, meadow())
    err = one_line_error(capsys, root, ["table", GAME, *args, "--out", str(tmp_path / "t.png")])
    assert message in err, err
    assert not (tmp_path / "t.png").exists()


@pytest.mark.parametrize(
    "command",
    [
        ["table", GAME, "--variant", "nope"],
        ["eval", GAME, "deals", "{}", "--variant", "nope"],
        ["build", GAME, "--variant", "nope"],
    ],
)
def test_an_unknown_variant_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    root = write(tmp_path, meadow())
    err = one_line_error(capsys, root, command)
    assert "'nope'" in err and "variants: none" in err, err


def test_a_truncated_build_manifest_rebuilds(tmp_path: Path) -> None:
    root = write(tmp_path, meadow())
    out = root / "dist"
    assert run(["-q", "--assets", str(root), *build_args(root)]) == EXIT_OK
    built = {p.relative_to(out): p.read_bytes() for p in (out / GAME).rglob("*") if p.is_file()}
    cached = [p for p in (out / ".cache").rglob("*") if p.is_file()]
    # an entry is a header, its key and the sha256 of its value, then the value (cache.Store)
    manifests = [p for p in cached if p.read_bytes()[len(HEADER) + 96 :].startswith(b'{"')]
    assert manifests
    for path in manifests:
        path.write_bytes(path.read_bytes()[:7])
    (out / GAME / f"{GAME}.json").write_bytes(b"{}")  # so a stale manifest would be noticed
    assert run(["-q", "--assets", str(root), *build_args(root)]) == EXIT_OK
    assert {p.relative_to(out): p.read_bytes() for p in (out / GAME).rglob("*")
            if p.is_file()} == built  # fmt: skip


def test_a_truncated_render_cache_entry_is_redrawn_not_shipped(tmp_path: Path) -> None:
    root = write(tmp_path, meadow())
    out = root / "dist"
    assert run(["-q", "--assets", str(root), *build_args(root)]) == EXIT_OK
    built = {p.relative_to(out): p.read_bytes() for p in (out / GAME).rglob("*") if p.is_file()}
    damaged = [path for path in (out / ".cache").rglob("*") if path.is_file()]
    assert damaged
    for path in damaged:  # every entry cut short: images, lint results, the no-op record
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    for path in (out / GAME).rglob("*.png"):
        path.unlink()  # the build must make them again, from the cache or by drawing
    code = run(["-q", "--assets", str(root), *build_args(root)])
    assert code == EXIT_OK
    assert {p.relative_to(out): p.read_bytes() for p in (out / GAME).rglob("*")
            if p.is_file()} == built  # fmt: skip


def test_a_non_utf8_byte_is_located_by_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = yaml.safe_dump(meadow(), sort_keys=False).replace("Rose", "Ros\xe9")
    root = write(tmp_path, text.encode("latin-1"))
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "Ros\xe9" in row)
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(rf"error: .*qa-game/game\.yaml:{line}:\d+: ", err), err


def test_a_control_character_is_located_by_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    text = yaml.safe_dump(meadow(), sort_keys=False).replace("Rose", "Ro\x00se")
    root = write(tmp_path, text.encode())
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "\x00" in row)
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(rf"error: .*qa-game/game\.yaml:{line}:\d+: ", err), err


def test_a_zone_of_no_size_is_located_not_an_internal_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Was ``internal error: ValueError: scale components must be nonzero`` (exit 3).
    data = meadow()
    data["table"]["pieces"].append({"id": "bed", "kind": "zone", "size": [0, 2], "at": [3, 3]})
    index = len(data["table"]["pieces"]) - 1
    err = one_line_error(capsys, write(tmp_path, data), build_args(tmp_path))
    assert f"table.pieces[{index}].size[0]: expected a number from 0.1 to 100, got 0" in err, err


def test_a_piece_laid_off_the_table_is_reported_at_its_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An impossible map was ``internal error: RuntimeError: ... generated save fails`` (exit 3).
    data = meadow()
    data["table"]["pieces"][0]["at"] = [100, 0]
    err = one_line_error(capsys, write(tmp_path, data), build_args(tmp_path))
    assert re.match(
        r"error: .*qa-game/game\.yaml:\d+:\d+: table\.pieces\[0\]\.at: object \w{6} \(Garden\) "
        r"reaches off the table",
        err,
    ), err


def test_a_variant_that_moves_a_piece_off_the_table_is_located_in_the_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pieces = copy.deepcopy(BASE["table"]["pieces"])
    pieces[0]["at"] = [0, 40]
    data = meadow(wide={"name": "Wide", "table": {"pieces": pieces}})
    err = one_line_error(capsys, write(tmp_path, data), build_args(tmp_path))
    assert "variants.wide.table.pieces[0].at: object" in err and "off the table" in err, err


ARCHE_NOAH = PROJECT / "assets" / "arche-noah"
SEATS_TWICE = """
variants:
  pair:
    name: Pair
    table:
      seats:
        - {color: White, collection: [12.0, -12.0], chips: [17.0, -12.0], facing: 0}
        - {color: White, collection: [-12.0, -12.0], chips: [-7.0, -12.0], facing: 0}
"""
CHIPS_FOR_SOME = """
variants:
  rich:
    name: Rich
    rules:
      chips:
        - {players: [2, 3], purple: 12, green: 3}
"""


@pytest.mark.parametrize(
    ("overlay", "field"),
    [
        (SEATS_TWICE, "variants.pair.table.seats[1]"),  # was exit 3 at build
        (CHIPS_FOR_SOME, "variants.rich.rules.chips"),  # built; 4 players had no chips
    ],
)
def test_a_variant_is_cross_checked_like_the_game(tmp_path: Path, overlay: str, field: str) -> None:
    from tts_builder.definition import load_definition
    from tts_builder.errors import BuildError

    folder = tmp_path / "arche-noah"
    folder.mkdir()
    for path in ARCHE_NOAH.rglob("*"):
        if path.is_file():
            (folder / path.relative_to(ARCHE_NOAH)).parent.mkdir(parents=True, exist_ok=True)
            (folder / path.relative_to(ARCHE_NOAH)).write_bytes(path.read_bytes())
    definition = folder / "game.yaml"
    definition.write_text(definition.read_text("utf-8") + overlay, "utf-8")
    with pytest.raises(BuildError, match=rf"game\.yaml:\d+:\d+: {re.escape(field)}: "):
        load_definition("arche-noah", tmp_path)


def test_a_variant_and_a_game_building_into_one_folder_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # ``qa-game`` variant ``quick`` and the game ``qa-game-quick`` both built into
    # dist/qa-game-quick/, the second silently replacing the first.
    quick = {"name": "Quick", "table": {"setup": [{"deal": "flowers", "count": 3, "to": "hand"}]}}
    root = write(tmp_path, meadow(quick=quick))
    other = copy.deepcopy(BASE)
    other["id"] = f"{GAME}-quick"
    (root / other["id"]).mkdir()
    (root / other["id"] / "game.yaml").write_text(yaml.safe_dump(other), "utf-8")
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(
        r"error: .*qa-game/game\.yaml:\d+:\d+: variants\.quick: builds into qa-game-quick/, "
        r"as the game 'qa-game-quick' does",
        err,
    ), err
    assert not (root / "dist").exists()


@pytest.mark.parametrize(
    ("variant", "field", "message"),
    [
        ({"table": [1]}, "variants.v.table", "expected a mapping, got list"),
        ({"table": {"score": {"max": "many"}}}, "variants.v.table.score.max",
         "expected an integer"),
        ({"table": {"pieces": [p for p in BASE["table"]["pieces"] if p["id"] != "flowers"]}},
         "variants.v.table.setup[0].deal", "unknown piece 'flowers' (pieces: garden, "
         "pawns, score-track, seeds, weather-die)"),  # the deck Setup deals is gone
        ({"tabel": {}}, "variants.v.tabel", "unknown key"),
        ({"components": {"seed": {"size": [8, 64]}}}, "variants.v.components.seed.size[0]",
         "expected an integer from 16"),
    ],
)  # fmt: skip
def test_a_broken_variant_overlay_is_located_in_the_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, variant: Any, field: str, message: str
) -> None:
    root = write(tmp_path, meadow(v={"name": "V", **copy.deepcopy(variant)}))
    err = one_line_error(capsys, root, build_args(root))
    assert re.match(rf"error: .*qa-game/game\.yaml:\d+:\d+: {re.escape(field)}: ", err), err
    assert message in err, err


def test_text_the_font_cannot_draw_is_an_error_not_boxes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = meadow()
    data["rosters"]["flowers"][1]["name"] = "\u73ab\u7470"  # 玫瑰, a rose
    err = one_line_error(capsys, write(tmp_path, data), build_args(tmp_path))
    assert "components.flower.face" in err and "\u73ab" in err, err


def test_install_refuses_a_table_that_build_refuses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # install checked FORMAT [req] findings only: a piece off the table was installed.
    data = meadow()
    data["table"]["pieces"][0]["at"] = [100, 0]
    saves = tmp_path / "Saves"
    saves.mkdir()
    root = write(tmp_path, data)
    args = ["install", GAME, "--saves-dir", str(saves), "--out", str(tmp_path / "dist")]
    err = one_line_error(capsys, root, args)
    assert "table.pieces[0].at: object" in err and "off the table" in err, err
    assert list(saves.iterdir()) == []


def test_a_seat_spot_reaching_into_another_seats_hand_is_located(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # ``{seat: [0, 40]}`` laid White's pawn in Blue's hand zone: no check saw it (exit 0).
    data = meadow()
    data["table"]["pieces"].append(
        {"id": "pawn", "kind": "token", "component": "seed", "at": {"seat": [0, 40]}}
    )
    index = len(data["table"]["pieces"]) - 1
    err = one_line_error(capsys, write(tmp_path, data), build_args(tmp_path))
    assert re.match(
        rf"error: .*qa-game/game\.yaml:\d+:\d+: table\.pieces\[{index}\]\.at\.seat: White's spot "
        r"\(15\.2, 19\.9\) lies in Blue's hand zone",
        err,
    ), err
