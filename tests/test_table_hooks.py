"""The table manifest's hooks for a game's own code (``plugin.TableHooks``): pictures the game
draws, anchors and tracks it computes, rosters it derives, pieces its rules leave off; and the
manifest keys that go with them (roster tokens, ``numbered``, ``stand_up``, ``thickness``,
seats with named points and a ``facing``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.plugin import Picture, TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import Art, check_manifest, lay_table

DRAWN: list[str] = []
#: What the module's one laying (the ``laid`` fixture) drew: DRAWN holds every test's draws,
#: and a worker may lay the module's table more than once (its tests split between workers).
LAID_DRAWN: list[str] = []


def _square(colour: str, px: int = 64) -> Image.Image:
    DRAWN.append(colour)
    return Image.new("RGB", (px, px), colour)


HOOKS = TableHooks(
    pictures={
        "map": Picture({"map": 1}, lambda: _square("#336699", 128), width=8.0),
        "water": Picture({"water": 1}, lambda: _square("#2255aa", 32), scale=0.7),
        "dots": Picture(
            {"dots": 1}, lambda: _square("#ffffff", 96), faces=("1", "2", "3", "4", "5", "sun")
        ),  # fmt: skip
    },
    anchors={"middle": (1.0, 2.0), "on-map": (3.0, 1.5, -4.0)},
    tracks={
        "starts": [(0.0, 1.2, 0.0), (1.0, 1.2, 0.0), (2.0, 1.2, 0.0), (3.0, 1.2, 0.0)],
        "dice-row": [(15.0, -5.0), (17.0, -5.0), (19.0, -5.0)],
    },
    areas={"ark": ((0.0, 1.16, -6.0), (10.0, 2.0))},
    rosters={
        "beasts": [{"name": "Lion", "color": "#aa8800"}, {"name": "Seal", "color": "#667788"}]
    },
    omit=frozenset({"spare"}),
)


def definition() -> dict[str, Any]:
    pawn = [{"type": "rect", "box": [0, 0, 60, 60], "fill": "{color}"},
            {"type": "text", "text": "{name}", "box": [0, 0, 60, 60], "size": 12}]  # fmt: skip
    return {
        "players": {"min": 2, "max": 3},
        "components": {
            "pawn": {"size": [60, 60], "face": pawn},
            "card": {
                "size": [60, 84],
                "face": pawn,
                "back": [{"type": "rect", "box": [0, 0, 60, 84], "fill": "#222222"}],
            },
        },
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": [
                {"color": "White", "card": [8.0, -15.0]},
                {"color": "Red", "card": [-13.0, -15.0]},
                {"color": "Blue", "card": [13.0, 15.0], "facing": 180},
            ],
            "pieces": [
                {
                    "id": "board",
                    "kind": "board",
                    "picture": "map",
                    "at": {"anchor": "middle"},
                    "tags": ["Board"],
                },
                {
                    "id": "beasts",
                    "kind": "token",
                    "component": "pawn",
                    "roster": "beasts",
                    "count": 2,
                    "numbered": True,
                    "stand_up": True,
                    "thickness": 0.15,
                    "scale": 0.5,
                    "at": {"track": "starts"},
                },
                {"id": "marker", "kind": "token", "picture": "map", "at": {"anchor": "on-map"}},
                {
                    "id": "dice",
                    "kind": "die",
                    "picture": "dots",
                    "count": 2,
                    "numbered": True,
                    "at": [17.5, -5.0],
                },
                {
                    "id": "cards",
                    "kind": "tile",
                    "picture": "map",
                    "width": 4.5,
                    "thickness": 0.05,
                    "at": {"seat": "card"},
                },
                {"id": "spare", "kind": "token", "component": "pawn", "at": [20, 0]},
                {"id": "more-dice", "kind": "die", "picture": "dots", "at": {"track": "dice-row"}},
                {
                    "id": "floods",
                    "kind": "infinite_bag",
                    "picture": "water",
                    "thickness": 0.08,
                    "tags": ["FloodBag"],
                    "contents": {"name": "Flood", "tags": ["FloodTile"]},
                    "at": [21.5, -5.0],
                },
                {"id": "ark", "kind": "zone", "name": "The Ark", "at": {"area": "ark"}},
                {
                    "id": "deck",
                    "kind": "deck",
                    "component": "card",
                    "roster": "beasts",
                    "tags": ["Deck"],
                    "contents": {"tags": ["Card"]},
                    "at": [17.5, 2.0],
                },
            ],
            "snap_points": [{"at": {"track": "starts"}, "tags": ["Beast"]}, {"at": [5, 5]}],
        },
    }


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("game")
    images = ImageSet("hooks", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    check_manifest(data, hooks=HOOKS)
    start = len(DRAWN)
    table = lay_table(data, Art(root, data["components"], images, HOOKS.pictures),
                      GuidAllocator("hooks"), hooks=HOOKS)  # fmt: skip
    LAID_DRAWN[:] = DRAWN[start:]
    return table, images


def by_piece(table: Any, piece: str) -> list[dict[str, Any]]:
    guids = table.guids[piece]
    return [o for o in table.objects if o["GUID"] in guids]


def test_a_board_drawn_by_the_game_is_written_once_at_its_width(laid: Any) -> None:
    table, images = laid
    (board,) = by_piece(table, "board")
    assert board["CustomImage"]["ImageURL"].endswith("/images/map.png")
    t = board["Transform"]
    assert (t["posX"], t["posZ"]) == (1.0, 2.0)
    assert t["scaleX"] == pytest.approx(8.0 / 2)  # a Stretch tile is 2 units at scale 1
    assert "images/map.png" in images.files and LAID_DRAWN.count("#336699") == 1


def test_roster_tokens_lie_one_per_track_point_at_its_height(laid: Any) -> None:
    table, images = laid
    tokens = by_piece(table, "beasts")
    assert [o["Nickname"] for o in tokens] == ["Lion 1", "Lion 2", "Seal 1", "Seal 2"]
    assert [json.loads(o["GMNotes"])["piece"] for o in tokens] == [0, 1, 2, 3]
    assert json.loads(tokens[2]["GMNotes"])["name"] == "Seal"
    for i, o in enumerate(tokens):
        t = o["Transform"]
        assert (t["posX"], t["posY"], t["posZ"]) == (float(i), 1.2, 0.0)
        assert t["rotY"] == 180.0  # read by the first seat (White)
        assert o["CustomImage"]["CustomToken"]["StandUp"] is True
        assert o["CustomImage"]["CustomToken"]["Thickness"] == 0.15
    urls = {o["CustomImage"]["ImageURL"].rsplit("/", 1)[1] for o in tokens}
    assert urls == {"pawn-face-1.png", "pawn-face-2.png"}
    (marker,) = by_piece(table, "marker")
    assert (marker["Transform"]["posX"], marker["Transform"]["posY"]) == (3.0, 1.5)


def test_a_die_drawn_by_the_game_carries_its_faces(laid: Any) -> None:
    table, _images = laid
    dice = by_piece(table, "dice")
    assert [d["Nickname"] for d in dice] == ["Dice 1", "Dice 2"]
    assert [v["Value"] for v in dice[0]["RotationValues"]] == ["1", "2", "3", "4", "5", "sun"]
    assert dice[0]["Transform"]["posY"] == pytest.approx(geo.TABLE_TOP_Y + geo.D6_SIDE / 2)


def test_seat_points_and_facing(laid: Any) -> None:
    table, _images = laid
    cards = by_piece(table, "cards")
    assert [o["Nickname"] for o in cards] == ["White Cards", "Red Cards", "Blue Cards"]
    assert [(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in cards] == [
        (8.0, -15.0), (-13.0, -15.0), (13.0, 15.0)]  # fmt: skip
    # Blue's hand zone is turned 179.8; its entry's facing 180 wins.
    assert [o["Transform"]["rotY"] for o in cards] == [180.0, 180.0, 0.0]


def test_omitted_pieces_are_left_off_and_hooks_reach_the_context(laid: Any) -> None:
    table, _images = laid
    assert "spare" not in table.guids
    assert table.context["anchors"]["on-map"] == (3.0, 1.5, -4.0)
    assert table.context["tracks"]["starts"][3] == (3.0, 1.2, 0.0)
    faces = [f for f in table.faces if f[2] == "picture"]
    assert ("Board", "map", "picture", {}) in faces


def test_a_track_without_a_count_lays_one_per_point(laid: Any) -> None:
    table, _images = laid
    dice = by_piece(table, "more-dice")
    assert [d["Transform"]["posX"] for d in dice] == [15.0, 17.0, 19.0]


def test_contents_name_and_tag_what_a_bag_or_deck_holds(laid: Any) -> None:
    table, _images = laid
    (bag,) = by_piece(table, "floods")
    (template,) = bag["ContainedObjects"]
    assert (bag["Nickname"], bag["Tags"]) == ("Floods", ["FloodBag"])
    assert (template["Nickname"], template["Tags"]) == ("Flood", ["FloodTile"])
    assert template["Transform"]["scaleX"] == 0.7  # the picture's own scale
    assert template["CustomImage"]["CustomToken"]["Thickness"] == 0.08
    (deck,) = by_piece(table, "deck")
    assert deck["Tags"] == ["Deck"] and {tuple(c["Tags"]) for c in deck["ContainedObjects"]} == {
        ("Card",)
    }


def test_a_zone_covers_the_games_area_and_snap_points_lie_at_points(laid: Any) -> None:
    table, _images = laid
    (zone,) = by_piece(table, "ark")
    t = zone["Transform"]
    assert (t["posX"], t["posY"], t["posZ"], t["scaleX"], t["scaleZ"]) == (
        0.0, 2.16, -6.0, 10.0, 2.0)  # fmt: skip
    points = [(p["Position"]["x"], p["Position"]["y"], p.get("Tags")) for p in table.snap_points]
    assert points[:2] == [(0.0, 1.2, ["Beast"]), (1.0, 1.2, ["Beast"])]
    assert points[-1] == (5.0, geo.TABLE_TOP_Y, None)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda t: t["pieces"][0].update(picture="mapp"),
            "table.pieces[0].picture",
            "unknown picture 'mapp' (the game draws: dots, map, water)",
        ),
        (
            lambda t: t["pieces"][3].update(picture="map"),
            "table.pieces[3].picture",
            "a die needs a d6 texture",
        ),
        (
            lambda t: t["pieces"][2].update(component="pawn"),
            "table.pieces[2].picture",
            "a component or a picture, not both",
        ),
        (
            lambda t: t["pieces"][1].update(count=3),
            "table.pieces[1].at.track",
            "6 objects but track 'starts' has 4 points",
        ),
        (
            lambda t: t["pieces"][1].update(at={"track": "ends"}),
            "table.pieces[1].at.track",
            "unknown track 'ends' (tracks: dice-row, starts)",
        ),
        (
            lambda t: t["pieces"][4].update(at={"seat": "reveal"}),
            "table.pieces[4].at.seat",
            "unknown seat 'reveal' (points of every seat: card)",
        ),
        (
            lambda t: t.update(anchors={"middle": [0, 0]}),
            "table.anchors.middle",
            "a point the game supplies",
        ),
        (
            lambda t: t["pieces"][1].update(roster="birds"),
            "table.pieces[1].roster",
            "unknown roster 'birds' (rosters: beasts)",
        ),
        (
            lambda t: t.update(setup=[{"deal": "spare", "count": 1, "to": [0, 0]}]),
            "table.setup[0].deal",
            "is a token",
        ),
        (
            lambda t: t["pieces"][8].update(size=[2, 2]),
            "table.pieces[8].at",
            "a zone lies at an area or has a size",
        ),
        (
            lambda t: t["pieces"][8].update(at={"area": "bay"}),
            "table.pieces[8].at.area",
            "unknown area 'bay' (areas: ark)",
        ),
        (
            lambda t: t["pieces"][5].update(contents={"name": "x"}),
            "table.pieces[5].contents",
            "a token has no 'contents'",
        ),
        (
            lambda t: t["snap_points"].append({"at": {"track": "nowhere"}}),
            "table.snap_points[2].at.track",
            "unknown track 'nowhere'",
        ),
        (
            lambda t: (
                t["pieces"][5].update(kind="infinite_bag"),
                t.update(setup=[{"deal": "spare", "count": 1, "to": [0, 0]}]),
            ),
            "table.setup[0].deal",
            "not on the table",
        ),
    ],
)
def test_bad_uses_of_the_hooks_are_located(change: Any, field: str, message: str) -> None:
    data = definition()
    change(data["table"])
    with pytest.raises(FieldError) as err:
        check_manifest(data, hooks=HOOKS)
    assert err.value.field == field and message in err.value.message, err.value
