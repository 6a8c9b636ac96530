"""docs/tutorial.md, built exactly as written: its ``yaml`` blocks in order are the game.

The game passes ``check`` (no [req] or [geo] finding), installs, draws its table, and its Setup
on the strict emulated table deals every seated player what the manifest says, with 2 and 4
players. The bundled game ``prototype`` is the same file under its own id.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SESSION_CACHE, seeded

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.emulator import EmulatedTable
from tts_builder.save.checker import check_geometry, check_save
from tts_builder.save.geometry_checks import image_size_from_files

PROJECT = Path(__file__).resolve().parents[1]
TUTORIAL = PROJECT / "docs" / "tutorial.md"
BUNDLED = PROJECT / "assets" / "prototype" / "game.yaml"
GAME = "meadow"


def tutorial_yaml() -> str:
    """Every ``yaml`` block of the tutorial, in order, as one file."""
    return "".join(re.findall(r"```yaml\n(.*?)```", TUTORIAL.read_text("utf-8"), re.S))


DATA = yaml.safe_load(tutorial_yaml())
MANIFEST = DATA["table"]


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tutorial")
    (root / GAME).mkdir()
    (root / GAME / "game.yaml").write_text(tutorial_yaml(), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def built(assets: Path) -> GameBuild:
    return build_game(GAME, BuildOptions(), SESSION_CACHE, assets)


def test_the_bundled_game_is_the_tutorials_game() -> None:
    bundled = BUNDLED.read_text("utf-8")
    assert bundled.replace("id: prototype\n", f"id: {GAME}\n", 1) == tutorial_yaml()


def test_new_from_the_bundled_game_gives_the_tutorials_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(["-q", "--assets", str(tmp_path), "new", GAME, "--from", "prototype"]) == EXIT_OK
    copied = yaml.safe_load((tmp_path / GAME / "game.yaml").read_text("utf-8"))
    assert copied == DATA


def test_it_builds_and_passes_check_with_no_req_or_geo_finding(
    capsys: pytest.CaptureFixture[str], assets: Path, tmp_path: Path
) -> None:
    out = seeded(tmp_path / "dist")
    assert run(["-q", "--assets", str(assets), "build", GAME, "--out", str(out)]) == EXIT_OK
    save_path = out / GAME / f"{GAME}.json"
    capsys.readouterr()
    assert run(["check", "--strict", str(save_path)]) == EXIT_OK
    printed = capsys.readouterr().out
    assert "[req]" not in printed and "[geo]" not in printed
    assert "0 required" in printed
    for name in ("preview.png", "table.png", f"{GAME}.png", "scripts/Global.lua"):
        assert (out / GAME / name).is_file(), name


def test_the_build_is_fast_and_deterministic(assets: Path) -> None:
    first = build_game(GAME, BuildOptions(), SESSION_CACHE, assets)
    again = build_game(GAME, BuildOptions(), SESSION_CACHE, assets)
    assert first.files == again.files and again.rendered == 0


def test_it_installs_into_a_saves_folder(
    capsys: pytest.CaptureFixture[str], assets: Path, tmp_path: Path
) -> None:
    saves = tmp_path / "Tabletop Simulator" / "Saves"
    saves.mkdir(parents=True)
    code = run(["-q", "--assets", str(assets), "install", GAME, "--saves-dir", str(saves),
                "--out", str(tmp_path / "dist")])  # fmt: skip
    assert code == EXIT_OK, capsys.readouterr().err
    (installed,) = saves.glob("TS_Save_*.json")
    assert json.loads(installed.read_text("utf-8"))["SaveName"] == "Meadow"
    assert installed.with_suffix(".png").is_file()


def test_the_table_picture_draws(
    capsys: pytest.CaptureFixture[str], assets: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    for extra, name in (([], "table.png"), (["--after-setup", "--players", "2"], "setup-2p.png")):
        png = tmp_path / name
        code = run(["-q", "--assets", str(assets), "table", GAME, *extra, "--out", str(png)])
        assert code == EXIT_OK, capsys.readouterr().err
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_documented_error_is_the_real_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / GAME).mkdir()
    broken = tutorial_yaml().replace("roster: flowers, copies", "roster: flower, copies")
    (tmp_path / GAME / "game.yaml").write_text(broken, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert run(["build", GAME]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert err.removeprefix("error: ") in TUTORIAL.read_text("utf-8")
    assert not (tmp_path / "dist" / GAME).exists()


# --- Setup on the strict emulated table --------------------------------------------------------


def seeds_each(players: int) -> int:
    step = MANIFEST["setup"][1]
    return next(e["count"] for e in step["count"] if players in e["players"])


def setup_table(built: GameBuild, players: int) -> tuple[EmulatedTable, list[str]]:
    colours = MANIFEST["seats"][:players]
    table = EmulatedTable(built.save, seed=players, images=built.files)  # strict
    table.seat(colours)
    table.load()
    table.click_ui(colours[-1], "setup")  # the last seated player presses Setup and starts
    table.settle()
    return table, colours


def in_zone(zone: dict[str, Any], item: dict[str, Any]) -> bool:
    return geo.zone_contains(geo.Transform.of(zone), item["position"])


@pytest.mark.parametrize("players", [2, 4])
def test_setup_deals_every_seated_player_what_the_manifest_says(
    built: GameBuild, players: int
) -> None:
    table, colours = setup_table(built, players)
    objects = table.objects()
    hands = {o["FogColor"]: o for o in built.save["ObjectStates"] if o["Name"] == "HandTrigger"}
    cards = [o for o in objects if o["type"] == "Card" and "Flower" in o["tags"]]
    flowers = {f["name"]: f for f in DATA["rosters"]["flowers"]}
    for colour in MANIFEST["seats"]:
        held = [c for c in cards if in_zone(hands[colour], c)]
        if colour in colours:
            assert len(held) == 5, colour
            assert all(not c["face_down"] for c in held)
            for card in held:  # a real flower card: its notes are its roster entry
                assert json.loads(card["gm_notes"]) == flowers[card["nickname"]]
        else:
            assert held == [], colour
    assert len({c["guid"] for c in cards}) == len(cards) == 5 * players  # all dealt are loose
    (deck,) = [o for o in objects if o["type"] == "Deck"]
    assert deck["quantity"] == 24 - 5 * players

    # Seeds: a pile at each seated player's own spot, the rest still in the bag.
    seeds = [o for o in objects if o["type"] == "Token" and "Seed" in o["tags"]]
    frames = {o["FogColor"]: geo.Transform.of(o) for o in built.save["ObjectStates"]
              if o["Name"] == "HandTrigger"}  # fmt: skip
    for colour in MANIFEST["seats"]:
        hand = frames[colour]
        dx, dz = geo.rotate_y(-4.0, 5.0, hand.rot_y)
        spot = (hand.pos[0] + dx, hand.pos[2] + dz)
        here = [s for s in seeds if abs(s["position"][0] - spot[0]) < 0.01
                and abs(s["position"][2] - spot[1]) < 0.01]  # fmt: skip
        assert len(here) == (seeds_each(players) if colour in colours else 0), colour
    assert len(seeds) == seeds_each(players) * players
    (bag,) = [o for o in objects if o["type"] == "Bag"]
    assert bag["quantity"] == 30 - seeds_each(players) * players

    # The rest lies where the manifest says.
    (board,) = [o for o in objects if o["nickname"] == "Garden"]
    assert board["position"][0] == pytest.approx(0.0) and board["position"][2] == 0.0
    assert deck["position"][0] == pytest.approx(11.0)
    (die,) = [o for o in objects if o["type"] == "Dice"]
    assert (die["position"][0], die["position"][2]) == pytest.approx((-12.0, -2.0))

    # Whoever pressed Setup starts; the announcement names the players.
    said = [b["message"] for b in table.broadcasts]
    assert any(f"{players} players ({', '.join(colours)}), {colours[-1]} starts" in m
               for m in said)  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_the_table_after_setup_passes_the_checks(built: GameBuild, players: int) -> None:
    table, _ = setup_table(built, players)
    state = table.save_state()
    findings = [f for f in check_save(state) if f.level == "req"]
    findings += check_geometry(state, image_size_from_files(built.files), built.positions)
    assert findings == []


def test_score_counters_follow_the_seated_players_and_survive_a_reload(built: GameBuild) -> None:
    table, colours = setup_table(built, 2)
    for slot, colour in enumerate(MANIFEST["seats"], start=1):
        assert table.ui_active(f"score_row_{slot}") == (colour in colours)
    table.click_ui("White", "score_plus_1")
    table.click_ui("White", "score_plus_1")
    table.click_ui("Red", "score_minus_2")  # Red stays at the minimum, 0
    assert table.ui_value("score_value_1") == "2" and table.ui_value("score_value_2") == "0"
    reloaded = EmulatedTable(table.save_state(), images=built.files)
    reloaded.seat(colours)
    reloaded.load()
    assert reloaded.ui_value("score_value_1") == "2"
    assert not reloaded.ui_active("setup")
    assert reloaded.ui_value("status") == "2 players (White, Red), Red starts."


def test_spectators_cannot_change_the_scores_and_are_told(built: GameBuild) -> None:
    table, _ = setup_table(built, 2)
    for spectator in ("Grey", "Black"):
        table.click_ui(spectator, "score_plus_1")
        assert table.broadcasts[-1]["to"] == spectator
        assert "Only the players" in table.broadcasts[-1]["message"]
    assert table.ui_value("score_value_1") == "0"
    table.click_ui("White", "score_plus_1")
    assert table.ui_value("score_value_1") == "1"


def test_setup_refuses_too_few_players_and_tells_others_where_to_sit(built: GameBuild) -> None:
    table = EmulatedTable(built.save, images=built.files)
    table.seat(["White"])
    table.load()
    table.click_ui("White", "setup")
    assert any("needs 2-4 players" in b["message"] for b in table.broadcasts)
    assert table.ui_active("setup")
    assert not [o for o in table.objects() if o["type"] == "Card"]
