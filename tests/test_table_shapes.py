"""Manifest pieces shaped as Custom_Tiles (``shape`` + ``width``), GM notes as data (a mapping
written as JSON, {fields} filled, a whole {field} keeping its type) and an infinite bag per
roster entry (each bag's tokens drawn, named and noted with the entry's fields)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table

HOOKS = TableHooks(
    anchors={"start": (2.0, 1.5, -3.0)},
    tracks={"bag-row": [(-10.0, 0.0), (-10.0, -2.0), (-10.0, -4.0)]},
    rosters={
        "values": [{"value": 1}, {"value": 2}, {"value": 3}],
        "beasts": [
            {"name": "Lion", "key": "lion", "size": 3},
            {"name": "Seal", "key": "seal", "size": 1},
        ],
    },
)


def definition() -> dict[str, Any]:
    coin = [{"type": "rect", "box": [0, 0, 64, 64], "fill": "#aa8800"},
            {"type": "text", "text": "+{value}", "box": [0, 0, 64, 64], "size": 20}]  # fmt: skip
    plain = [{"type": "rect", "box": [0, 0, 64, 32], "fill": "#224466"}]
    wild = [*plain, {"type": "text", "text": "{name}", "box": [0, 0, 64, 64], "size": 12}]
    return {
        "players": {"min": 2, "max": 2},
        "components": {
            "coin": {"size": [64, 64], "face": coin},
            "strip": {"size": [64, 32], "face": plain},
            "beast": {"size": [64, 64], "wild": wild, "tame": plain},
        },
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "pieces": [
                {
                    "id": "marker",
                    "kind": "token",
                    "component": "strip",
                    "shape": "box",
                    "width": 0.8,
                    "thickness": 0.3,
                    "name": "Marker",
                    "tags": ["Marker"],
                    "notes": {"kind": "marker", "seat": "none"},
                    "at": {"anchor": "start"},
                },
                {
                    "id": "coins",
                    "kind": "infinite_bag",
                    "component": "coin",
                    "roster": "values",
                    "name": "Coins +{value}",
                    "tags": ["CoinBag"],
                    "notes": "bag of {value}",
                    "contents": {
                        "name": "Coin +{value}",
                        "tags": ["Coin"],
                        "notes": {"kind": "coin", "value": "{value}", "label": "+{value}"},
                        "shape": "circle",
                        "width": 0.56,
                        "thickness": 0.1,
                    },
                    "at": {"track": "bag-row"},
                },
                {
                    "id": "beasts",
                    "kind": "bag",
                    "component": "beast",
                    "roster": "beasts",
                    "order": "random",
                    "contents": {
                        "name": "{name}",
                        "description": "size {size}",
                        "tags": ["Beast"],
                        "shape": "box",
                        "sides": ["wild", "tame"],
                        "file": "beast-{key}",
                        "width": 1.2,
                        "thickness": 0.1,
                    },
                    "at": [4.0, 4.0],
                },
            ],
        },
    }


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("game")
    images = ImageSet("shapes", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    check_manifest(data, hooks=HOOKS)
    table = lay_table(data, Art(root, data["components"], images), GuidAllocator("shapes"),
                      hooks=HOOKS)  # fmt: skip
    return table, images


def by_piece(table: Any, piece: str) -> list[dict[str, Any]]:
    return [o for o in table.objects if o["GUID"] in table.guids[piece]]


def test_a_shaped_token_is_a_custom_tile_of_its_width_at_its_point(laid: Any) -> None:
    table, _images = laid
    (marker,) = by_piece(table, "marker")
    assert marker["Name"] == "Custom_Tile"
    tile = marker["CustomImage"]["CustomTile"]
    assert (tile["Type"], tile["Thickness"], tile["Stretch"]) == (0, 0.3, True)
    t = marker["Transform"]
    assert (t["posX"], t["posY"], t["posZ"]) == (2.0, 1.5, -3.0)
    # A Stretch tile is 2 units across at scale 1; the 2:1 picture keeps its aspect along z.
    assert (t["scaleX"], t["scaleZ"]) == pytest.approx((0.8 / 2 / 2.0, 0.4 / 2))
    assert t["rotY"] == 180.0  # read by the first seat (White)
    assert json.loads(marker["GMNotes"]) == {"kind": "marker", "seat": "none"}
    assert marker["Tags"] == ["Marker"]


def test_an_infinite_bag_per_roster_entry_along_its_track(laid: Any) -> None:
    table, images = laid
    bags = by_piece(table, "coins")
    assert [b["Name"] for b in bags] == ["Infinite_Bag"] * 3
    assert [b["Nickname"] for b in bags] == ["Coins +1", "Coins +2", "Coins +3"]
    assert [b["GMNotes"] for b in bags] == ["bag of 1", "bag of 2", "bag of 3"]
    assert [(b["Transform"]["posX"], b["Transform"]["posZ"]) for b in bags] == [
        (-10.0, 0.0), (-10.0, -2.0), (-10.0, -4.0)]  # fmt: skip
    assert bags[0]["Transform"]["posY"] > geo.TABLE_TOP_Y
    for value, bag in enumerate(bags, start=1):
        (token,) = bag["ContainedObjects"]
        assert token["Name"] == "Custom_Tile" and token["Nickname"] == f"Coin +{value}"
        assert token["CustomImage"]["CustomTile"]["Type"] == 2
        assert token["CustomImage"]["ImageURL"].endswith(f"/images/coin-face-{value}.png")
        # A whole {field} keeps its type; a field inside text is printed.
        notes = json.loads(token["GMNotes"])
        assert notes == {"kind": "coin", "value": value, "label": f"+{value}"}
        assert token["Tags"] == ["Coin"]
    assert {f"images/coin-face-{v}.png" for v in (1, 2, 3)} <= set(images.files)
    assert [f[0] for f in table.faces][:4] == ["Marker", "Coin +1", "Coin +2", "Coin +3"]


def test_a_roster_bag_of_double_sided_tiles_prints_two_named_layouts(laid: Any) -> None:
    table, images = laid
    (bag,) = by_piece(table, "beasts")
    assert bag["Bag"]["Order"] == 2
    lion, seal = bag["ContainedObjects"]
    assert table.contents["beasts"] == [lion["GUID"], seal["GUID"]]
    assert (lion["Nickname"], lion["Description"], lion["Tags"]) == ("Lion", "size 3", ["Beast"])
    urls = [lion["CustomImage"][k].rsplit("/", 1)[1] for k in ("ImageURL", "ImageSecondaryURL")]
    assert urls == ["beast-lion-wild.png", "beast-lion-tame.png"]  # images/<file>-<side>.png
    assert images.files["images/beast-lion-wild.png"] != images.files["images/beast-lion-tame.png"]
    assert seal["CustomImage"]["ImageURL"].endswith("/beast-seal-wild.png")
    assert lion["Transform"]["scaleX"] == pytest.approx(1.2 / 2)
    labels = [f[:3] for f in table.faces if f[1] == "beast"]
    assert labels == [("Lion", "beast", "wild"), ("Lion", "beast", "tame"),
                      ("Seal", "beast", "wild"), ("Seal", "beast", "tame")]  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda t: t["pieces"][0].pop("width"), "table.pieces[0].width", "missing required key"),
        (lambda t: t["pieces"][0].update(width=40), "table.pieces[0].width", "0.1 to 20"),
        (lambda t: t["pieces"][0].pop("shape"), "table.pieces[0].width", "only a shaped token"),
        (lambda t: t["pieces"][0].update(shape="star"), "table.pieces[0].shape", "star"),
        (
            lambda t: t["pieces"][0].update(notes={"kind": ["a"]}),
            "table.pieces[0].notes.kind",
            "expected text or a number",
        ),
        (
            lambda t: t["pieces"][1]["contents"].pop("width"),
            "table.pieces[1].contents.width",
            "missing required key",
        ),
        (
            lambda t: t["pieces"][1]["contents"].update(thickness=9),
            "table.pieces[1].contents.thickness",
            "0.01 to 5",
        ),
        (
            lambda t: t["pieces"][2]["contents"].update(sides=["wild", "lost"]),
            "table.pieces[2].component",
            "needs a layout",
        ),
        (
            lambda t: t["pieces"][2].pop("roster"),
            "table.pieces[2].contents",
            "sides and file are for the shaped tiles of a roster bag",
        ),
        (
            lambda t: t["pieces"][1]["at"].update(track="short"),
            "table.pieces[1].at.track",
            "3 objects but track 'short' has 2 points",
        ),
        (
            lambda t: t.update(setup=[{"deal": "coins", "count": 1, "to": [0, 0]}]),
            "table.setup[0].deal",
            "a bag per roster entry",
        ),
    ],
)
def test_bad_shapes_notes_and_roster_bags_are_located(change: Any, field: str, message: str
                                                      ) -> None:  # fmt: skip
    data = definition()
    change(data["table"])
    hooks = TableHooks(anchors=HOOKS.anchors, rosters=HOOKS.rosters,
                       tracks={**HOOKS.tracks, "short": [(0.0, 0.0), (1.0, 0.0)]})  # fmt: skip
    with pytest.raises(FieldError) as err:
        MANIFEST.check(data["table"], "table")  # the keys' shapes, as the loader checks them
        check_manifest(data, hooks=hooks)
    assert err.value.field == field and message in err.value.message, err.value
