"""The table manifest (``tts_builder.table``) and the prototype engine beyond the tutorial:
every piece kind, every kind of position and setup target, the errors a designer meets, and
the rules' Lua against rules_ref."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import SESSION_CACHE

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, GameBuild, build_game, check_build
from tts_builder.cli import EXIT_BAD_INPUT, run
from tts_builder.emulator import EmulatedTable
from tts_builder.games import prototype
from tts_builder.save.checker import check_geometry
from tts_builder.strategies import strategies_for
from tts_builder.table import hand_capacity, seat_frames, setup_positions
from tts_builder.verify import Engines, check_function

PROJECT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
GAME = "sampler"


def sampler() -> dict[str, Any]:
    """The bundled prototype with one piece of every kind and every kind of setup step."""
    data = copy.deepcopy(BASE)
    data["id"] = GAME
    data["players"] = {"min": 2, "max": 5}
    data["components"]["coin"] = {"size": [160, 160], "face": [
        {"type": "ellipse", "box": [0, 0, 160, 160], "fill": "#e9c46a"}]}  # fmt: skip
    data["components"]["coin-back"] = {"size": [160, 160], "face": [
        {"type": "ellipse", "box": [0, 0, 160, 160], "fill": "#264653"}]}  # fmt: skip
    data["components"]["plot"] = {"size": [300, 200], "face": [
        {"type": "rect", "box": [0, 0, 300, 200], "fill": "#bc6c25"}]}  # fmt: skip
    data["components"]["pawn"] = {"size": [160, 160], "face": [
        {"type": "ellipse", "box": [0, 0, 160, 160], "fill": "{seat_color}"},
        {"type": "text", "text": "{seat}", "box": [10, 50, 150, 110], "size": 30}]}  # fmt: skip
    data["components"]["start"] = {"size": [400, 560], "face": [
        {"type": "rect", "box": [0, 0, 400, 560], "fill": "#f1d18a"}], "back": [
        {"type": "rect", "box": [0, 0, 400, 560], "fill": "#2b4162"}]}  # fmt: skip
    data["components"]["number"] = {"size": [400, 560], "face": [
        {"type": "text", "text": "{name}", "box": [0, 0, 400, 560], "size": 40}],
        "back": [{"type": "rect", "box": [0, 0, 400, 560], "fill": "#2b4162"}]}  # fmt: skip
    table = data["table"]
    table["seats"] = ["White", "Red", "Yellow", "Green", "Blue"]
    table["anchors"]["market"] = [0, 7]
    table["pieces"] += [
        {"id": "coins", "kind": "infinite_bag", "component": "coin", "tags": ["Coin"],
         "at": {"anchor": "supply", "offset": [0, -6]}},
        {"id": "marker", "kind": "token", "component": "coin", "count": 2, "at": [20, 8]},
        {"id": "plot", "kind": "tile", "component": "plot", "width": 3, "at": {"seat": [5, 5]}},
        {"id": "bed", "kind": "zone", "size": [6, 3], "tags": ["Bed"], "at": {"seat": [0, 9]}},
        {"id": "pawn", "kind": "token", "component": "pawn", "at": {"seat": [1, 5]}},
        {"id": "first", "kind": "card", "component": "start", "face_up": True, "at": [20, -8]},
        {"id": "numbers", "kind": "deck", "component": "number", "roster": "flowers",
         "copies": 2, "at": [20, 0]},
    ]  # fmt: skip
    table["setup"] = [
        {"deal": "flowers", "count": 3, "to": "hand"},
        {"deal": "flowers", "count": 1, "to": {"anchor": "market", "offset": [-6, 0]},
         "spread": [2.6, 0], "face_up": True},
        {"deal": "coins", "count": [{"players": [2, 3], "count": 2}, {"players": [4, 5],
                                                                      "count": 1}],
         "to": {"seat": [-4, 5]}},
        {"deal": "flowers", "count": 1, "to": "hand", "players": [2, 3]},
    ]  # fmt: skip
    return data


def write(root: Path, data: dict[str, Any], game: str = GAME) -> Path:
    (root / game).mkdir(parents=True, exist_ok=True)
    (root / game / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return root


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> GameBuild:
    root = write(tmp_path_factory.mktemp("sampler"), sampler())
    return build_game(GAME, BuildOptions(), SESSION_CACHE, root)


def objects_named(build: GameBuild, name: str) -> list[dict[str, Any]]:
    return [o for o in build.save["ObjectStates"] if o["Name"] == name]


def test_every_kind_becomes_its_tts_object_and_the_build_checks_clean(built: GameBuild) -> None:
    assert check_build(built) == []
    (coins,) = objects_named(built, "Infinite_Bag")
    assert coins["ContainedObjects"][0]["Name"] == "Custom_Token"
    markers = [o for o in objects_named(built, "Custom_Token") if o["Nickname"] == "Marker"]
    assert [m["Transform"]["posY"] for m in markers] == pytest.approx([0.96, 1.16])
    plots = [o for o in objects_named(built, "Custom_Tile") if "Plot" in o["Nickname"]]
    assert sorted(p["Nickname"] for p in plots) == [f"{c} Plot" for c in sorted(
        ["White", "Red", "Yellow", "Green", "Blue"])]  # fmt: skip
    seats = geo.seats_of(built.save["ObjectStates"])
    for plot in plots:  # each seat's own tile reads upright for that seat
        owner = plot["Nickname"].split()[0]
        assert geo.faces(geo.Transform.of(plot).rot_y, seats[owner].hand.rot_y)
    zones = objects_named(built, "ScriptingTrigger")
    assert len(zones) == 5 and all(z["Tags"] == ["Bed"] for z in zones)
    assert len(objects_named(built, "HandTrigger")) == 5


def test_a_card_a_deck_of_copies_and_pieces_printing_their_seat(
    built: GameBuild,
) -> None:
    (first,) = [o for o in objects_named(built, "Card") if o["Nickname"] == "First"]
    assert first["Transform"]["rotZ"] == 0.0 and len(first["CustomDeck"]) == 1
    (numbers,) = [o for o in objects_named(built, "DeckCustom") if o["Nickname"] == "Numbers"]
    notes = [json.loads(c["GMNotes"]) for c in numbers["ContainedObjects"]]
    assert len(notes) == 12 and {n["name"] for n in notes} >= {"Rose", "Tulip"}  # 2 copies
    pawns = [o for o in objects_named(built, "Custom_Token") if o["Nickname"].endswith("Pawn")]
    urls = {o["Nickname"]: o["CustomImage"]["ImageURL"] for o in pawns}
    assert urls["White Pawn"].endswith("images/pawn-face-white.png")
    pictures = {built.files[f"images/pawn-face-{c}.png"] for c in ("white", "red", "blue")}
    assert len(pictures) == 3  # each seat's pawn in its own colour


def test_scripts_get_positions_as_data_and_the_checks_get_them_too(built: GameBuild) -> None:
    labels = [p.label for p in built.positions]
    assert [lab for lab in labels if lab.startswith("flowers (setup 2")] == [
        f"flowers (setup 2, {k})" for k in range(1, 6)
    ]  # a shared row of 5 (5 players)
    assert "Blue coins (setup 3, 1)" in labels
    row = [p for p in built.positions if p.label.startswith("flowers (setup 2")]
    assert [p.at[0] for p in row] == pytest.approx([-6.0, -3.4, -0.8, 1.8, 4.4])
    only_two = setup_positions(built.definition.data, ["White", "Red"])
    assert not any(p.label.startswith(("Yellow", "Green", "Blue")) for p in only_two)
    script = built.global_script
    assert '["target"]="shared"' in script and "ui_setup" in script


@pytest.mark.parametrize("players", [2, 3, 5])
def test_setup_deals_to_hands_a_shared_row_and_seat_spots(built: GameBuild, players: int) -> None:
    colours = ["White", "Red", "Yellow", "Green", "Blue"][:players]
    table = EmulatedTable(built.save, seed=players, images=built.files)
    table.seat(colours)
    table.load()
    table.click_ui("White", "setup")
    objects = table.objects()
    hands = {o["FogColor"]: o for o in objects_named(built, "HandTrigger")}
    cards = [o for o in objects if o["type"] == "Card"]
    for colour in colours:
        held = [c for c in cards if geo.zone_contains(geo.Transform.of(hands[colour]),
                                                      c["position"])]  # fmt: skip
        assert len(held) == (4 if players <= 3 else 3)
    market = [c for c in cards if abs(c["position"][2] - 7.0) < 0.01]
    assert len(market) == players and all(not c["face_down"] for c in market)
    coins = [o for o in objects if o["type"] == "Token" and "Coin" in o["tags"]]
    assert len(coins) == players * (2 if players <= 3 else 1)
    state = table.save_state()
    assert check_geometry(state, None, setup_positions(built.definition.data, colours)) == []


def test_the_deck_runs_down_to_its_last_card(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["id"] = "tight"
    data["rosters"]["flowers"] = data["rosters"]["flowers"][:5]
    data["table"]["pieces"][1]["copies"] = 2  # 10 cards, all dealt at 2 players
    data["table"]["setup"] = [{"deal": "flowers", "count": 5, "to": "hand"}]
    data["players"] = {"min": 2, "max": 2}
    build = build_game("tight", BuildOptions(), SESSION_CACHE, write(tmp_path, data, "tight"))
    table = EmulatedTable(build.save, images=build.files)
    table.seat(["White", "Red"])
    table.load()
    table.click_ui("Red", "setup")
    kinds = sorted(o["type"] for o in table.objects() if o["type"] in ("Card", "Deck"))
    assert kinds == ["Card"] * 10
    assert not any("missing" in b["message"] for b in table.broadcasts)


ERRORS = [
    (lambda d: d["table"]["pieces"][1].update(kind="dek"), "table.pieces[1].kind",
     "expected one of deck, card, token"),
    (lambda d: d["table"]["pieces"][2]["at"].update(anchor="suply"),
     "table.pieces[2].at.anchor", "unknown anchor 'suply' (anchors: middle, supply)"),
    (lambda d: d["table"]["setup"][0].update(deal="flower"), "table.setup[0].deal",
     "unknown piece 'flower'"),
    (lambda d: d["table"]["setup"][1]["count"].pop(), "table.setup[1].count",
     "no entry for 3 players"),
    (lambda d: d["table"]["pieces"][2].update(count=8), "table.setup[1].count",
     "3 players need 9 from 'seeds', which holds 8"),
    (lambda d: d["table"]["setup"][0].update(count=6), "table.setup[0].count",
     "a Table_RPG hand zone holds 5 side by side"),
    (lambda d: d["table"]["pieces"][1].update(component="weather"),
     "table.pieces[1].component", "a deck needs a layout (size, face) component"),
    (lambda d: d["table"]["pieces"][0].update(roster="flowers"), "table.pieces[0].roster",
     "a board has no 'roster'"),
    (lambda d: d["table"]["setup"][1].update(to="hand"), "table.setup[1].to",
     "only cards go to a hand"),
    (lambda d: d["table"].update(seats=["White", "Red", "Green"]), "table.seats",
     "expected at least 4 seats"),
    (lambda d: d["table"].update(seats=["White", "Red", "Teal", "Blue"]), "table.seats[2]",
     "Table_RPG has no seat Teal"),
    (lambda d: d["rosters"]["flowers"][0].update(points=[3]), "rosters.flowers[0].points",
     "expected text or a number"),
    (lambda d: d["table"]["score"].update(start=100), "table.score.start",
     "expected within min..max (0..99), got 100"),
]  # fmt: skip


@pytest.mark.parametrize(("edit", "field", "message"), ERRORS)
def test_a_bad_manifest_is_one_line_naming_file_line_and_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edit: Any, field: str, message: str
) -> None:
    data = copy.deepcopy(BASE)
    data["id"] = "broken"
    edit(data)
    write(tmp_path, data, "broken")
    assert run(["--assets", str(tmp_path), "build", "broken", "--out", str(tmp_path / "d")]) \
        == EXIT_BAD_INPUT  # fmt: skip
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert re.match(rf"error: .*broken/game\.yaml:\d+:\d+: {re.escape(field)}: ", err), err
    assert message in err
    assert not (tmp_path / "d" / "broken").exists()


def test_three_manifest_mistakes_are_three_lines_of_one_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A piece at an unknown anchor, a die of a component misspelt and a step dealing a piece
    the manifest has not: one build says all three, each at its field, in file order."""
    data = copy.deepcopy(BASE)
    data["id"] = "broken"
    pieces = data["table"]["pieces"]
    pieces[2]["at"] = {"anchor": "store", "offset": [0, 2]}
    pieces[3]["component"] = "wether"
    data["table"]["setup"][0]["deal"] = "flower"
    write(tmp_path, data, "broken")
    assert run(["--assets", str(tmp_path), "build", "broken", "--out", str(tmp_path / "d")]) \
        == EXIT_BAD_INPUT  # fmt: skip
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines[0].endswith("broken/game.yaml: 3 problems"), lines
    fields = [re.search(r"game\.yaml:\d+:\d+: (\S+):", line).group(1) for line in lines[1:]]
    assert fields == ["table.pieces[2].at.anchor", "table.pieces[3].component",
                      "table.setup[0].deal"]  # fmt: skip
    assert "unknown anchor 'store'" in lines[1] and "unknown component 'wether'" in lines[2]
    assert "unknown piece 'flower'" in lines[3]


def test_hand_capacity_follows_the_table() -> None:
    rpg = seat_frames({"type": "Table_RPG", "seats": ["White"]})[0]
    custom = seat_frames({"type": "Table_Custom", "seats": ["White"]})[0]
    assert (hand_capacity(rpg), hand_capacity(custom)) == (5, 6)


def test_cards_held_in_a_hand_are_not_off_the_table(built: GameBuild) -> None:
    save = copy.deepcopy(built.save)
    hand = objects_named(built, "HandTrigger")[0]
    (deck,) = [o for o in save["ObjectStates"] if o["Nickname"] == "Flowers"]
    deck["Transform"]["posX"], deck["Transform"]["posZ"] = (hand["Transform"]["posX"],
                                                            hand["Transform"]["posZ"])  # fmt: skip
    assert not [f for f in check_geometry(save) if "off the table" in f.message]
    deck["Transform"]["posZ"] = -30.0  # beyond the hand zone: off the table
    assert [f for f in check_geometry(save) if "off the table" in f.message]


def test_the_shipped_rules_agree_with_rules_ref(built: GameBuild) -> None:
    config = prototype.rules_config(built.definition.data)
    engines = Engines("prototype", config, built.global_script)
    generators = strategies_for("prototype", config, built.definition.players, malformed=True)
    assert engines.contract_gaps(generators) == []
    for name in engines.names():
        result = check_function(engines, name, generators[name], 150, 0)
        assert result.mismatch is None, result.mismatch and result.mismatch.describe()


def test_dealing_order_starts_with_whoever_pressed_setup(built: GameBuild) -> None:
    config = prototype.rules_config(built.definition.data)
    engines = Engines("prototype", config, built.global_script)
    inp = {"seats": ["White", "Red", "Yellow"], "seated": ["Red", "White", "Pink", "Yellow"],
           "chooser": "Yellow", "min": 2, "max": 5}  # fmt: skip
    seated = engines.lua("seating", inp)
    assert seated == engines.python("seating", inp)
    assert seated["players"] == ["White", "Red", "Yellow"] and seated["unlisted"] == ["Pink"]
    assert seated["start"] == 2
    plan = {"players": seated["players"], "start": seated["start"]}
    out = engines.lua("deals", plan)
    assert out == engines.python("deals", plan)
    first = [(d["color"], d["slot"]) for d in out["deals"] if d["step"] == 1][:4]
    assert first == [("Yellow", 1), ("White", 1), ("Red", 1), ("Yellow", 2)]
    market = [d["slot"] for d in out["deals"] if d["step"] == 2]
    assert market == [1, 2, 3]  # one shared row, numbered across the players
    last_hand = [d for d in out["deals"] if d["step"] == 4]
    assert [d["slot"] for d in last_hand] == [4, 4, 4]  # hand slots continue across steps
    assert engines.lua("deals", {"players": ["White"], "start": 1}) == {
        "rule_error": "bad_start"}  # fmt: skip
    assert json.dumps(engines.lua("adjust_score", {"score": 98, "delta": 5})) == '{"score": 99}'


QUICK = {"name": "Meadow (quick)", "description": "Three cards each, a head start of 5.",
         "table": {"setup": [{"deal": "flowers", "count": 3, "to": "hand"}],
                   "score": {"start": 5, "min": 0, "max": 99}}}  # fmt: skip


def test_a_variant_overlays_the_manifest(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["id"] = "quick"
    data["variants"] = {"quick": QUICK}
    root = write(tmp_path, data, "quick")
    build = build_game("quick", BuildOptions(variant="quick"), SESSION_CACHE, root)
    assert build.save["SaveName"] == "Meadow (quick)" and check_build(build) == []
    table = EmulatedTable(build.save, images=build.files)
    table.seat(["White", "Red"])
    table.load()
    table.click_ui("White", "setup")
    assert len([o for o in table.objects() if o["type"] == "Card"]) == 6
    assert not [o for o in table.objects() if o["type"] == "Token"]  # no seeds in this variant
    assert table.ui_value("score_value_1") == "5"


def test_a_variant_that_overfills_a_hand_is_located_in_the_variant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = copy.deepcopy(BASE)
    data["id"] = "quick"
    data["variants"] = {"quick": copy.deepcopy(QUICK)}
    data["variants"]["quick"]["table"]["setup"][0]["count"] = 6
    write(tmp_path, data, "quick")
    assert run(["--assets", str(tmp_path), "build", "quick", "--out", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert re.search(r"quick/game\.yaml:\d+:\d+: variants\.quick\.table\.setup\[0\]\.count: "
                     r"2 players get 6 cards in hand", err), err  # fmt: skip
