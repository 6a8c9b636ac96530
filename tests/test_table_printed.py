"""Boards printed from a game's picture (``tts_builder.table.printed``): a pixel's table point,
a drawn line's table angle, the script position meaning a printed cell, and the Board of a
manifest's board piece."""

from __future__ import annotations

import math

import pytest

from tts_builder import geometry as geo
from tts_builder.save.tables import HAND_PLACEMENTS
from tts_builder.table.printed import (
    PrintedPoint,
    board,
    board_guid,
    laid_board,
    printed_cells,
    shared_rot_y,
)

SIZE = (400, 200)  # px


@pytest.mark.parametrize("rot_y", [0.0, 90.0, 180.0, 270.0])
def test_the_pictures_centre_lies_on_the_centre_and_corners_span_the_width(rot_y: float) -> None:
    b = board([3.0, -2.0], SIZE, 8.0, rot_y)
    assert b.at((200, 100)) == [3.0, -2.0]
    left, right = b.at((0, 100)), b.at((400, 100))
    assert math.dist(left, right) == pytest.approx(8.0)
    top, bottom = b.at((200, 0)), b.at((200, 200))
    assert math.dist(top, bottom) == pytest.approx(4.0)  # the picture's aspect kept


def test_every_pixel_maps_back_through_the_geometry_model() -> None:
    b = board([1.0, 5.0], SIZE, 10.0, 180.0)
    for px in [(0, 0), (37, 150), (400, 200), (250.5, 12.25)]:
        x, z = b.at(px)
        u, v = geo.uv_of_world(b.transform, b.aspect, (x, 1.0, z))
        assert (u * SIZE[0], v * SIZE[1]) == pytest.approx(px, abs=0.005)  # at 4 places


def test_a_line_along_the_width_turns_with_the_board() -> None:
    b = board([0.0, 0.0], SIZE, 8.0, 90.0)
    assert b.angle(0.0) == 90.0
    assert b.angle(90.0) == 180.0
    assert board([0.0, 0.0], SIZE, 8.0, 300.0).angle(90.0) == 30.0


def test_a_cell_position_means_its_printed_cell() -> None:
    b = board([0.0, 0.0], SIZE, 8.0, 0.0)
    pos = b.cell("cell 1", "abc123", (100, 50), (20, 10), "square", 1.2)
    assert pos.label == "cell 1" and pos.board == "abc123" and pos.kind == "square"
    assert pos.at == (*b.at((100, 50))[:1], 1.2, b.at((100, 50))[1])
    assert pos.cell_uv == (0.25, 0.25) and pos.tolerance_uv == (0.05, 0.05)
    elsewhere = b.cell("cell 2", "abc123", (100, 50), (20, 10), "square", 1.2, [7.0, 8.0])
    assert elsewhere.at == (7.0, 1.2, 8.0) and elsewhere.cell_uv == (0.25, 0.25)


def test_a_picture_measured_in_table_units_has_cells_as_fractions_of_it() -> None:
    """A board drawn in table units (a square 10 across, as the flood race's hex map): its
    size is that unit, a cell's centre and half size are fractions of it, and its pixel
    (0, 0) is the picture's top-left corner on the table."""
    b = board([0.0, 0.0], (10.0, 10.0), 10.0, 0.0)
    pos = b.cell("hex A1", "b0a4d1", (5.0, 2.5), (0.5, 1.0), "hex", 2.0, (1.0, 3.0))
    assert pos == geo.ScriptPosition(
        "hex A1", (1.0, 2.0, 3.0), "b0a4d1", (0.5, 0.25), (0.05, 0.1), kind="hex"
    )
    assert math.dist(b.at((0.0, 0.0)), b.at((10.0, 10.0))) == pytest.approx(10.0 * math.sqrt(2))


@pytest.mark.parametrize("rot_y", [0.0, 90.0, 270.0])
def test_points_the_script_computes_mean_the_cells_printed_under_them(rot_y: float) -> None:
    """Each point keeps its own table place and height; its cell is the picture's, so the
    geometry model maps the point back inside it (on a turned board too)."""
    b = board([2.0, -3.0], SIZE, 8.0, rot_y)
    cells = [(50.0, 50.0), (320.5, 140.0)]
    points = [
        PrintedPoint(f"spot {k}", "spot", (x, 1.5 + k, z), px, (10.0, 5.0))
        for k, px in enumerate(cells)
        for x, z in [b.at(px)]
    ]
    found = printed_cells(b, "f00d01", points)
    assert [p.label for p in found] == ["spot 0", "spot 1"]
    assert all(p.board == "f00d01" and p.kind == "spot" for p in found)
    assert [p.at for p in found] == [tuple(pt.at) for pt in points]
    assert [p.cell_uv for p in found] == [(0.125, 0.25), (320.5 / 400, 0.7)]
    assert {p.tolerance_uv for p in found} == {(10.0 / 400, 5.0 / 200)}
    for pos in found:
        u, v = geo.uv_of_world(b.transform, b.aspect, pos.at)
        du, dv = pos.tolerance_uv
        assert abs(u - pos.cell_uv[0]) < du and abs(v - pos.cell_uv[1]) < dv
    assert printed_cells(b, "f00d01", []) == []


def manifest(width: float | None) -> dict:
    piece = {"id": "map", "kind": "board", "picture": "map", "at": {"anchor": "middle"}}
    if width is not None:
        piece["width"] = width
    return {
        "type": "Table_RPG",
        "seats": ["Yellow", {"color": "Red", "facing": 0}],
        "anchors": {"middle": [2.0, -1.0]},
        "pieces": [piece],
    }


def test_a_manifest_board_lies_at_its_point_upright_for_the_first_seat() -> None:
    yellow_hand = HAND_PLACEMENTS["Table_RPG"]["Yellow"][1][1]
    assert shared_rot_y(manifest(None)) == geo.reader_rot_y(yellow_hand)
    b = laid_board(manifest(None), "map", SIZE, 6.0)  # the width the game draws it at
    assert b.at((200, 100)) == [2.0, -1.0]
    assert b.transform.rot_y == geo.reader_rot_y(yellow_hand) % 360
    assert math.dist(b.at((0, 100)), b.at((400, 100))) == pytest.approx(6.0)
    own = laid_board(manifest(9.0), "map", SIZE, 6.0)  # the piece's own width wins
    assert math.dist(own.at((0, 100)), own.at((400, 100))) == pytest.approx(9.0)


def test_a_board_is_found_in_a_save_by_its_tag_and_where_it_lies() -> None:
    def laid(guid: str, tags: list[str], x: float, z: float) -> dict:
        return {"GUID": guid, "Tags": tags, "Transform": {"posX": x, "posY": 1.0, "posZ": z}}

    save = {
        "ObjectStates": [
            laid("aaa111", ["Deck"], 0.0, 0.0),
            laid("bbb222", ["Ark"], 4.0, 2.0),
            laid("ccc333", ["Ark"], -4.0, 2.0),
            laid("ddd444", ["Track", "Board"], 9.0, 9.0),
        ]
    }
    assert board_guid(save, "Ark") == "bbb222"  # the first of its tag
    assert board_guid(save, "Ark", (-4.0, 1.2, 2.0004)) == "ccc333"  # the one lying there
    assert board_guid(save, "Board") == "ddd444"
    with pytest.raises(LookupError, match="no object tagged 'Ark' at"):
        board_guid(save, "Ark", (0.0, 1.0, 2.0))
    with pytest.raises(LookupError):
        board_guid({"ObjectStates": []}, "Ark")
