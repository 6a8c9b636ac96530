"""Pieces at every seat laid at places the game computes (``at: {seat_track: NAME}``: the
game's track ``NAME:<colour>`` per seat), printing fields the game supplies per seat
(``TableHooks.seats``: an entry per seat), named by a ``name`` with {fields} instead
of the seat prefix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table

HOOKS = TableHooks(
    tracks={
        "pawns:White": [(1.0, 0.0), (2.0, 0.0)],
        "pawns:Red": [(1.0, 9.0, 5.0), (2.0, 9.0, 5.0)],
        "start:White": [(0.0, -7.0)],
        "start:Red": [(0.0, 7.0)],
        "start:Blue": [(5.0, 7.0)],  # a seat the manifest does not have: ignored
    },
    seats=[{"name": "Ada", "color": "#112233"}, {"name": "Bo", "color": "#445566"}],
    rosters={
        "three": [{}, {}, {}],
        "gems": [{"gem": "ruby"}, {"gem": "opal"}, {"gem": "ruby"}],
    },
)


def definition() -> dict[str, Any]:
    pawn = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "{color}"}]
    named = [*pawn, {"type": "text", "text": "{name}", "box": [0, 0, 32, 32], "size": 10}]
    plain = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#808080"}]
    return {
        "players": {"min": 2, "max": 2},
        "components": {
            "pawn": {"size": [32, 32], "face": pawn},
            "hero": {"size": [32, 32], "face": named},
            "plain": {"size": [32, 32], "face": plain},
        },  # fmt: skip
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": [{"color": "White", "facing": 0}, {"color": "Red", "facing": 180}],
            "pieces": [
                {
                    "id": "pawns",
                    "kind": "token",
                    "component": "pawn",
                    "shape": "circle",
                    "width": 0.6,
                    "name": "{seat} pawn",
                    "notes": {"kind": "pawn", "color": "{seat}"},
                    "at": {"seat_track": "pawns"},
                },
                {
                    "id": "heroes",
                    "kind": "token",
                    "component": "hero",
                    "name": "{name}",
                    "at": {"seat_track": "start"},
                },
                {
                    "id": "stones",
                    "kind": "token",
                    "component": "plain",
                    "at": {"seat_track": "start"},
                },
                {
                    "id": "pouches",
                    "kind": "bag",
                    "component": "pawn",
                    "roster": "three",
                    "name": "{seat} pouch",
                    "tint": "{color}",
                    "order": "random",
                    "tags": ["Pouch"],
                    "contents": {
                        "name": "{name}'s pawn",
                        "tags": ["Pawn"],
                        "notes": {"kind": "pawn", "color": "{seat}"},
                        "shape": "box",
                        "width": 0.5,
                    },
                    "at": {"seat_track": "start"},
                },
                {
                    "id": "gems",
                    "kind": "bag",
                    "component": "plain",
                    "roster": "gems",
                    "tint": "#ff8000",
                    "at": [9.0, 0.0],
                },
            ],
        },
    }


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("game")
    images = ImageSet("seats", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    check_manifest(data, hooks=HOOKS)
    table = lay_table(data, Art(root, data["components"], images), GuidAllocator("seats"),
                      hooks=HOOKS)  # fmt: skip
    return table, images


def by_piece(table: Any, piece: str) -> list[dict[str, Any]]:
    return [o for o in table.objects if o["GUID"] in table.guids[piece]]


def test_each_seat_lays_its_own_track_read_by_that_seat(laid: Any) -> None:
    table, _images = laid
    pawns = by_piece(table, "pawns")
    assert [o["Nickname"] for o in pawns] == ["White pawn"] * 2 + ["Red pawn"] * 2
    at = [(o["Transform"]["posX"], o["Transform"]["posY"], o["Transform"]["posZ"]) for o in pawns]
    assert at[:2] == [(1.0, pytest.approx(0.96, abs=0.2), 0.0), (2.0, at[1][1], 0.0)]
    assert at[2:] == [(1.0, 9.0, 5.0), (2.0, 9.0, 5.0)]  # the game's height
    assert [o["Transform"]["rotY"] for o in pawns] == [180.0, 180.0, 0.0, 0.0]
    assert [json.loads(o["GMNotes"]) for o in pawns] == [
        {"kind": "pawn", "color": c} for c in ("White", "White", "Red", "Red")]  # fmt: skip


def test_a_seat_prints_the_games_fields_in_its_own_picture(laid: Any) -> None:
    table, images = laid
    pawns, heroes = by_piece(table, "pawns"), by_piece(table, "heroes")
    assert [o["Nickname"] for o in heroes] == ["Ada", "Bo"]  # its name, no seat prefix
    urls = [o["CustomImage"]["ImageURL"].rsplit("/", 1)[1] for o in pawns + heroes]
    assert urls == ["pawn-face-white.png"] * 2 + ["pawn-face-red.png"] * 2 + [
        "hero-face-white.png", "hero-face-red.png"]  # fmt: skip
    assert images.files["images/pawn-face-white.png"] != images.files["images/pawn-face-red.png"]
    (white, red) = by_piece(table, "stones")  # prints no seat field: one picture, seat-named
    assert (white["Nickname"], red["Nickname"]) == ("White Stones", "Red Stones")
    assert white["CustomImage"]["ImageURL"] == red["CustomImage"]["ImageURL"]


def test_a_bag_holds_one_token_per_roster_entry_tinted_and_in_order(laid: Any) -> None:
    table, _images = laid
    white, red = by_piece(table, "pouches")
    assert (white["Nickname"], red["Nickname"]) == ("White pouch", "Red pouch")
    assert white["Bag"]["Order"] == 2 and white["Tags"] == ["Pouch"]
    colour = white["ColorDiffuse"]
    assert (colour["r"], colour["g"], colour["b"]) == (0.0667, 0.1333, 0.2)  # Ada's #112233
    assert red["ColorDiffuse"]["b"] == 0.4  # Bo's #445566
    inside = red["ContainedObjects"]
    assert [o["Nickname"] for o in inside] == ["Bo's pawn"] * 3
    assert {o["Name"] for o in inside} == {"Custom_Tile"}
    assert json.loads(inside[0]["GMNotes"]) == {"kind": "pawn", "color": "Red"}
    assert inside[0]["CustomImage"]["ImageURL"].endswith("/pawn-face-red.png")
    (gems,) = by_piece(table, "gems")
    assert gems["Bag"]["Order"] == 0  # last in, first out unless the bag says
    urls = [o["CustomImage"]["ImageURL"].rsplit("/", 1)[1] for o in gems["ContainedObjects"]]
    assert urls == ["plain-face-gems-1.png", "plain-face-gems-2.png", "plain-face-gems-1.png"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda t: t["pieces"][0].update(at={"seat_track": "lane"}),
            "table.pieces[0].at.seat_track",
            "unknown seat_track 'lane' (tracks of every seat: pawns, start)",
        ),
        (
            lambda t: t["seats"].append("Blue"),
            "table.pieces[0].at.seat_track",
            "unknown seat_track 'pawns' (tracks of every seat: start)",
        ),
        (lambda t: t["pieces"][3].update(count=2), "table.pieces[3].count", "not both"),
        (lambda t: t["pieces"][3].update(tint="red"), "table.pieces[3].tint", "#rrggbb"),
        (lambda t: t["pieces"][3].update(order="stack"), "table.pieces[3].order", "stack"),
        (
            lambda t: t.update(setup=[{"deal": "gems", "count": 2, "to": [0, 0]}]),
            "table.setup[0].count",
            "2 players need 4 from 'gems', which holds 3",
        ),
        (
            lambda t: (
                t["pieces"][2].update(kind="bag"),
                t.update(setup=[{"deal": "stones", "count": 1, "to": [0, 0]}]),
            ),
            "table.setup[0].deal",
            "lies at every seat",
        ),
    ],
)
def test_bad_seat_tracks_and_fields_are_located(change: Any, field: str, message: str) -> None:
    data = definition()
    change(data["table"])
    rosters = {**HOOKS.rosters, "three": [{"name": "x"}] * 3}
    hooks = TableHooks(tracks=HOOKS.tracks, rosters=rosters, seats=HOOKS.seats)
    with pytest.raises(FieldError) as err:
        MANIFEST.check(data["table"], "table")
        check_manifest({**data, "players": {"min": 2, "max": 2}}, hooks=hooks)
    assert err.value.field == field and message in err.value.message, err.value
