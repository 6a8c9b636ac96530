"""A board of columns as data (a board piece's ``columns``, :mod:`tts_builder.table.columns`):
equal columns inside the margins, each printing the same elements with its own fields, placed
by the column's edges or around its named spots; and the one-line errors of a bad one."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tts_builder import geometry as geo
from tts_builder.errors import FieldError
from tts_builder.plugin import TableHooks
from tts_builder.render.layout import render_layout
from tts_builder.table import MANIFEST, check_manifest, snap_points
from tts_builder.table.columns import (
    columns_layout,
    columns_of,
    needed_columns,
    sided_pictures,
    spot_halves,
)
from tts_builder.table.layout import THICKNESS
from tts_builder.table.points import manifest_tracks
from tts_builder.table.printed import column_positions, column_spots, laid_board

INK, SPACE = "#111111", "#ffeecc"


def spec() -> dict[str, Any]:
    return {
        "size": [500, 300],
        "margin": 10,
        "spots": {
            "worker": {"x": 0, "y": 120, "half": 30},
            "bonus": {"x": 0.25, "y": 60, "half": 10},
        },
        "board": [
            {"type": "rect", "box": [0, 0, 500, 300], "fill": "#333333"},
            {"type": "text", "text": "{title}", "box": [10, 5, 490, 35], "size": 20},
        ],
        "sides": {
            "front": [
                {"at": "column", "type": "rect", "box": [4, 40, -4, 290], "fill": "#ccbbaa"},
                {"at": "worker", "type": "ellipse", "box": [-30, -30, 30, 30], "fill": SPACE},
                {
                    "at": "left",
                    "type": "text",
                    "text": "{number}",
                    "box": [5, 45, 35, 75],
                    "size": 16,
                    "color": INK,
                },
                {
                    "at": "column",
                    "type": "text",
                    "text": "{name}: {cost}",
                    "box": [4, 200, -4, 240],
                    "size": 16,
                    "color": INK,
                },
            ],
            "back": [
                {
                    "at": "column",
                    "type": "text",
                    "text": "{name}",
                    "box": [4, 200, -4, 240],
                    "size": 16,
                }
            ],
        },
    }


COLUMNS = [{"name": "Wood", "cost": 1}, {"name": "Stone", "cost": 2}, {"name": "Gold", "cost": 3}]


def test_the_columns_share_the_board_between_its_margins() -> None:
    columns = columns_of(spec(), 3)
    assert [(c.x0, c.x1) for c in columns] == [(10, 170), (170, 330), (330, 490)]
    assert columns[0].spots == {"worker": (90.0, 120.0), "bonus": (130.0, 60.0)}
    assert [c.spots["worker"][0] for c in columns] == [90.0, 250.0, 410.0]
    edges = [(c.x0, c.x1) for c in columns_of(spec(), 7)]
    assert edges[0][0] == 10 and edges[-1][1] == 490
    assert all(a[1] == b[0] for a, b in zip(edges, edges[1:], strict=False))  # no gaps
    assert spot_halves(spec()) == {"worker": 30.0, "bonus": 10.0}


def test_each_column_prints_the_sides_elements_with_its_fields() -> None:
    elements, size, fields = columns_layout(spec(), "front", COLUMNS, {"title": "Market"})
    assert size == (500, 300) and fields == {"title": "Market"}
    assert elements[:2] == spec()["board"]
    first = elements[2:6]
    assert first[0]["box"] == [14, 40, 166, 290] and "at" not in first[0]  # column edges
    assert first[1]["box"] == [60, 90, 120, 150]  # round the worker spot (90, 120)
    assert first[2]["box"] == [15, 45, 45, 75] and first[2]["text"] == "1"  # left edge
    assert first[3]["text"] == "Wood: 1"
    texts = [e["text"] for e in elements[6:] if e["type"] == "text"]
    assert texts == ["2", "Stone: 2", "3", "Gold: 3"]
    picture = render_layout(elements, size, fields).convert("RGB")
    assert picture.getpixel((250, 120)) == (0xFF, 0xEE, 0xCC)  # the second column's spot
    back, _size, _fields = columns_layout(spec(), "back", COLUMNS[:2], {"title": ""})
    assert [e["text"] for e in back[2:]] == ["Wood", "Stone"]


def test_a_board_printed_on_two_sides_is_its_face_and_its_back() -> None:
    """One picture per side (each with its own columns and board fields), the built side as the
    piece's picture and the other as its back; a board of one side is its own back."""
    sides = {"front": (COLUMNS, {"title": "Market"}), "back": (COLUMNS[:2], {"title": "B"})}
    pictures = sided_pictures("market", spec(), sides, "back", "the market")
    assert set(pictures) == {"market", "market-back"}
    face, back = pictures["market"], pictures["market-back"]
    assert (face.file, back.file) == ("market-back", "market-front")
    assert face.spec == {"board": "back", "layout": columns_layout(spec(), "back", *sides["back"])}
    drawn = back.make().convert("RGB")
    assert drawn.getpixel((250, 120)) == (0xFF, 0xEE, 0xCC)  # the front's second worker spot
    assert face.make().convert("RGB").getpixel((250, 120)) != (0xFF, 0xEE, 0xCC)
    alone = sided_pictures("market", spec(), {"front": sides["front"]}, "front", "the market")
    assert alone["market"] is alone["market-back"] and alone["market"].file == "market-front"


def definition(columns: dict[str, Any]) -> dict[str, Any]:
    face = [{"type": "rect", "box": [0, 0, 50, 30], "fill": "#336699"}]
    return {
        "players": {"min": 2, "max": 2},
        "components": {"plain": {"size": [50, 30], "face": face}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "pieces": [
                {
                    "id": "market",
                    "kind": "board",
                    "component": "plain",
                    "width": 10,
                    "at": [0, 0],
                    "columns": columns,
                }
            ],
        },
    }


def test_a_board_may_carry_its_columns_and_the_manifest_checks_them() -> None:
    data = definition(spec())
    MANIFEST.check(data["table"], "table")
    check_manifest(data)
    token = copy.deepcopy(data)
    token["table"]["pieces"][0]["kind"] = "token"
    token["table"]["pieces"][0].pop("width")
    with pytest.raises(FieldError, match=r"pieces\[0\]\.columns: a token has no 'columns'"):
        check_manifest(token)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda s: s["sides"]["front"][1].update(at="corner"),
            r"columns\.sides\.front\[1\]\.at: unknown place 'corner' \(places: left, column, "
            r"worker, bonus\)",
        ),
        (
            lambda s: s["sides"]["front"][0].update(box=[4, 40, -500, 290]),
            r"columns\.sides\.front\[0\]\.box",
        ),
        (
            lambda s: s["sides"]["back"][0].pop("at"),
            r"columns\.sides\.back\[0\]\.at: missing required key",
        ),
        (
            lambda s: s["spots"]["worker"].pop("half"),
            r"columns\.spots\.worker\.half: missing required key",
        ),
    ],
)
def test_a_bad_column_board_is_one_error_naming_its_field(change: Any, message: str) -> None:
    columns = spec()
    change(columns)
    data = definition(columns)
    with pytest.raises(FieldError, match=message):
        MANIFEST.check(data["table"], "table")
        check_manifest(data)


def test_the_tutorials_columns_example_is_a_valid_board_of_columns() -> None:
    """docs/tutorial.md's reference example (its ``text`` block under "Columns")."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "tutorial.md").read_text("utf-8")
    block = re.search(r"### Columns.*?```text\n(.*?)```", text, re.S)
    assert block is not None
    columns = yaml.safe_load(block.group(1))["columns"]
    data = definition(columns)
    MANIFEST.check(data["table"], "table")
    check_manifest(data)
    elements, _size, _fields = columns_layout(columns, "standard", COLUMNS, {"title": "Actions"})
    assert [e["text"] for e in elements if e.get("text") in ("1", "2", "3")] == ["1", "2", "3"]


def test_a_board_counts_its_columns_and_names_tracks_of_their_spots() -> None:
    """``count`` (here a list's length) says how many columns there are, so the table knows
    each column's spots on the table (``column_spots``, ``column_positions``) and ``tracks``
    names a track of some spots of every column (where workers snap, while a ``when`` holds)."""
    columns = {**spec(), "count": {"key": "rules.goods", "length": True},
               "tracks": {"workers": ["worker"], "all": ["worker", "bonus"]}}  # fmt: skip
    data = definition(columns)
    data["rules"] = {"goods": COLUMNS, "mode": "full"}
    data["table"]["snap_points"] = [
        {
            "at": {"track": "workers"},
            "tags": ["Worker"],
            "when": {"key": "rules.mode", "is": "full"},
        }
    ]
    MANIFEST.check(data["table"], "table")
    check_manifest(data)
    board = laid_board(data["table"], "market", (500, 300))
    spots = column_spots(data, "market")
    assert spots == [{k: board.at(px) for k, px in c.spots.items()} for c in columns_of(spec(), 3)]
    top = round(geo.TABLE_TOP_Y + THICKNESS, 4)
    tracks = manifest_tracks(data)
    assert tracks["workers"] == [(s["worker"][0], top, s["worker"][1]) for s in spots]
    assert len(tracks["all"]) == 6 and tracks["all"][1] == (*spots[0]["bonus"][:1], top,
                                                            spots[0]["bonus"][1])  # fmt: skip
    snaps = snap_points(data, TableHooks(), 2)
    assert [(p["Position"]["x"], p["Position"]["z"]) for p in snaps] == [
        tuple(s["worker"]) for s in spots
    ]
    data["rules"]["mode"] = "short"  # the entry's when no longer holds
    assert snap_points(data, TableHooks(), 2) == []
    positions = column_positions(data, "market", "abc123", ["wood", "stone"], "space", top)
    assert [p.label for p in positions] == [
        "wood worker",
        "wood bonus",
        "stone worker",
        "stone bonus",
    ]
    assert positions[1].at == (spots[0]["bonus"][0], top, spots[0]["bonus"][1])


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (lambda c: c.update(tracks={"w": ["nowhere"]}), "table.pieces[0].columns.tracks.w[0]",
         "unknown spot 'nowhere'"),
        (lambda c: c.pop("count"), "table.pieces[0].columns.count", "missing required key"),
        (lambda c: c.update(count={"key": "rules.mode", "length": True}),
         "table.pieces[0].columns.count.key", "is not a list"),
    ],
)  # fmt: skip
def test_a_bad_columns_count_or_track_names_its_field(
    change: Any, field: str, message: str
) -> None:
    columns = {
        **spec(),
        "count": {"key": "rules.goods", "length": True},
        "tracks": {"w": ["worker"]},
    }
    change(columns)
    data = definition(columns)
    data["rules"] = {"goods": COLUMNS, "mode": "full"}
    with pytest.raises(FieldError, match=message) as err:
        check_manifest(data)
    assert err.value.field == field


def test_a_game_names_the_spots_and_sides_its_code_needs() -> None:
    manifest = definition(spec())["table"]
    found = needed_columns(manifest, "market", ["worker"], ["front", "back"], "the market")
    assert found == spec()
    with pytest.raises(FieldError, match="the market needs worker, seat") as err:
        needed_columns(manifest, "market", ["worker", "seat"], ["front"], "the market")
    assert err.value.field == "table.pieces[0].columns.spots"
    with pytest.raises(FieldError, match=r"needs front, side \(missing side\)") as err:
        needed_columns(manifest, "market", [], ["front", "side"], "the market")
    assert err.value.field == "table.pieces[0].columns.sides"
    del manifest["pieces"][0]["columns"]
    with pytest.raises(FieldError, match="missing required key"):
        needed_columns(manifest, "market", [], [], "the market")


def test_a_board_the_manifest_lacks_is_one_located_error_not_a_stopiteration() -> None:
    """``needed_columns``, ``column_spots`` and ``column_positions`` on a manifest without the
    board, or on a board without ``columns``, raise one FieldError at the manifest's pieces."""
    data = definition({**spec(), "count": 2})
    calls = [
        lambda d, board: needed_columns(d["table"], board, [], [], "the board"),
        lambda d, board: column_spots(d, board),
        lambda d, board: column_positions(d, board, "abc123", ["wood"], "space", 1.0),
    ]
    for call in calls:
        with pytest.raises(FieldError, match="no piece 'stall'") as err:
            call(data, "stall")
        assert err.value.field == "table.pieces"
    del data["table"]["pieces"][0]["columns"]
    for call in calls:
        with pytest.raises(FieldError, match="missing required key") as err:
            call(data, "market")
        assert err.value.field == "table.pieces[0].columns"


def test_column_positions_read_the_manifest_at_the_key_column_spots_do() -> None:
    """``column_positions`` takes the manifest's ``key`` as ``column_spots`` does: a board
    under another key (here laid 5 units right) lies where that key's manifest says."""
    data = definition({**spec(), "count": 2})
    data["spare"] = copy.deepcopy(data["table"])
    data["spare"]["pieces"][0]["at"] = [5, 0]
    assert column_spots(data, "market") == [
        {"worker": [-2.4, 0.6], "bonus": [-1.2, 1.8]},
        {"worker": [2.4, 0.6], "bonus": [3.6, 1.8]},
    ]
    assert column_spots(data, "market", "spare")[0] == {"worker": [2.6, 0.6], "bonus": [3.8, 1.8]}
    positions = column_positions(data, "market", "abc123", ["wood"], "space", 1.0, "spare")
    assert [(p.label, p.at) for p in positions] == [
        ("wood worker", (2.6, 1.0, 0.6)),
        ("wood bonus", (3.8, 1.0, 1.8)),
    ]
