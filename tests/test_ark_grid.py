"""Ark & Noah's board of square cells (the table's ``grids``, the game's own key:
:mod:`tts_builder.games.ark_and_noah.grid` and :mod:`~tts_builder.games.ark_and_noah.ark`): its
spots' pixels, its picture placed by frames, a board in one piece (a chess board) and one of
sections per player count, handed to the manifest as the game's hooks and laid by ``kind:
board`` pieces at its tracks, its snap points and script positions, and the one-line errors of
a bad one."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.games.ark_and_noah.ark import (
    check_grid_names,
    grid_plan,
    grid_positions,
    keyed_sections,
    section_guids,
    section_keys,
    section_moves,
    with_grids,
)
from tts_builder.games.ark_and_noah.grid import GRID, GRIDS, Grid, grid_elements, pictures_layout
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.save.checker import check_geometry
from tts_builder.save.geometry_checks import image_size_from_files
from tts_builder.table import MANIFEST, Art, lay_table, snap_points
from tts_builder.table import check_manifest as check_shared
from tts_builder.table.layout import THICKNESS
from tts_builder.table.printed import board_guid

DARK, LIGHT, LINE, HOLE = "#333333", "#eeeeee", "#111111", "#cc3333"


def chess() -> dict[str, Any]:
    """An 8 x 8 board in one piece: light and dark squares inside a 10 px frame."""
    return {
        "rows": 8,
        "cols": 8,
        "cell": 50,
        "margin": 10,
        "ends": 10,
        "at": [-10.0, 0.0],
        "cell_width": 1.0,
        "elements": [
            {"at": "picture", "type": "rect", "box": [0, 0, 0, 0], "fill": LINE},
            {"at": "cell", "parity": "even", "type": "rect", "box": [0, 0, 0, 0], "fill": LIGHT},
            {"at": "cell", "parity": "odd", "type": "rect", "box": [0, 0, 0, 0], "fill": DARK},
        ],
    }


def modular() -> dict[str, Any]:
    """A board of 2 x 3 sections, one per player: a left end, middles and a right end."""
    return {
        "rows": {"key": "rules.board.rows"},
        "cols": {"key": "rules.board.cols"},
        "cell": 40,
        "margin": 20,
        "ends": 30,
        "at": [8.0, 2.0],
        "cell_width": {"key": "rules.board.square"},
        "sections": {"layouts": "rules.board.sections", "kinds": ["left", "mid", "right"]},
        "spots": {"cells": {"name": "space", "half": 16}, "hull": {"half": 8}},
        "elements": [
            {"at": "picture", "type": "rect", "box": [0, 0, 0, 0], "fill": DARK},
            {"at": "cells", "type": "rect", "box": [0, 0, 0, 0], "fill": LIGHT},
            {"at": "first_end", "split": 2, "type": "rect", "box": [5, -5, -5, 5], "fill": HOLE},
            {"at": "column_line", "type": "rect", "box": [-2, 0, 2, 0], "fill": LINE},
            {"at": "row_line", "type": "rect", "box": [0, -2, 0, 2], "fill": LINE},
            {"at": "hull_point", "type": "ellipse", "box": [-6, -6, 6, 6], "fill": HOLE},
        ],
    }


def definition(high: int = 3) -> dict[str, Any]:
    layouts = [
        {"players": [1, 2], "layout": ["left", "right"]},
        {"players": [3], "layout": ["left", "mid", "right"]},
    ]
    rules = {"board": {"rows": 2, "cols": 3, "square": 1.2, "sections": layouts}}
    seed = [{"type": "ellipse", "box": [0, 0, 40, 40], "fill": "#aa7700"}]
    return {
        "players": {"min": 1, "max": high},
        "rules": rules,
        "components": {"seed": {"size": [40, 40], "face": seed}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red", "Blue"],
            "grids": {"chess": chess(), "farm": modular()},
            "snap_points": [
                {"at": {"track": "chess-cells"}, "tags": ["Piece"]},
                {"at": {"track": "farm-edges"}, "tags": ["Fence"]},
                {"at": {"track": "farm-hull"}},
            ],
            "pieces": [
                {
                    "id": "chessboard",
                    "kind": "board",
                    "picture": "chess",
                    "name": "Chess board",
                    "tags": ["Board"],
                    "at": {"track": "chess"},
                },
                {
                    "id": "farm-left",
                    "kind": "board",
                    "picture": "farm-left",
                    "name": "Farm: left",
                    "tags": ["Farm"],
                    "at": {"track": "farm-left"},
                },
                {
                    "id": "farm-mid",
                    "kind": "board",
                    "picture": "farm-mid",
                    "name": "Farm: middle",
                    "tags": ["Farm"],
                    "at": {"track": "farm-mid"},
                    "thickness": 0.3,
                },
                {
                    "id": "farm-right",
                    "kind": "board",
                    "picture": "farm-right",
                    "name": "Farm: right",
                    "tags": ["Farm"],
                    "at": {"track": "farm-right"},
                },
                {
                    "id": "pawns",
                    "kind": "token",
                    "component": "seed",
                    "count": 3,
                    "at": {"track": "chess-cells"},
                },
            ],
        },
    }


# --------------------------------------------------------------------------- geometry


def test_the_pixels_of_cells_edges_and_hull_points() -> None:
    g = Grid(3, 8, cell=100, margin=40, ends=120)
    assert g.size == (2 * 120 + 800, 2 * 40 + 300)
    assert g.cell_px(0, 0) == (170.0, 90.0)
    x, y, angle = g.edge_px("h:1:2")  # between cells (0, 2) and (1, 2)
    assert (x, y, angle) == (g.cell_px(0, 2)[0], 140.0, 0.0)
    assert g.edge_px("v:2:8") == (920.0, 290.0, 90.0)  # the right side
    assert g.hull_px("p:0:0") == (100.0, 20.0)  # outside the corner, in the margin
    assert g.hull_px("p:3:4") == (520.0, 360.0)
    points = g.points()
    assert len(points["cells"]) == 24 and list(points["cells"])[:2] == ["0:0", "0:1"]
    assert len(points["edges"]) == 4 * 8 + 3 * 9
    assert list(points["edges"])[:2] == ["h:0:0", "h:0:1"] and "v:0:0" in points["edges"]
    assert len(points["hull"]) == 2 * 3 + 2 * 8  # every grid point on the outline


def test_elements_are_placed_by_their_frames() -> None:
    g = Grid(2, 3, cell=40, margin=20, ends=30)  # 180 x 120
    placed = grid_elements(g, modular()["elements"])
    boxes = [e["box"] for e in placed]
    assert boxes[0] == [0, 0, 180, 120] and boxes[1] == [30, 20, 150, 100]  # picture, cells
    assert boxes[2] == [5, 55, 25, 65]  # the left end's middle line, 5 px in
    assert boxes[3:7] == [
        [28, 20, 32, 100],
        [68, 20, 72, 100],
        [108, 20, 112, 100],
        [148, 20, 152, 100],
    ]
    assert boxes[7] == [30, 18, 150, 22]  # the first row line
    assert len(placed) == 2 + 1 + 4 + 3 + 10 and all("at" not in e for e in placed)
    # a chess board's squares alternate: (0, 0) is even
    squares = grid_elements(Grid(8, 8, 50, 10, 10), chess()["elements"])[1:]
    assert [e["fill"] for e in squares[:3]] == [LIGHT] * 3  # the even ones first
    assert squares[0]["box"] == [10, 10, 60, 60] and squares[1]["box"] == [110, 10, 160, 60]
    assert squares[32]["box"] == [60, 10, 110, 60] and squares[32]["fill"] == DARK


def test_a_board_of_sections_is_drawn_once_and_cut_into_its_kinds() -> None:
    data = definition()
    elements, size, fields = pictures_layout(modular(), data)
    assert size == (2 * 30 + 3 * 3 * 40, 2 * 20 + 2 * 40) and fields == {}
    pictures = with_grids(data, "table", _no_hooks()).pictures
    left, mid, right = (pictures[f"farm-{k}"] for k in ("left", "mid", "right"))
    assert left.spec["box"] == (0, 0, 150, 120) and mid.spec["box"] == (150, 0, 270, 120)
    assert right.spec["box"] == (270, 0, 420, 120)
    assert left.width == pytest.approx(150 * 1.2 / 40) and mid.width == pytest.approx(3 * 1.2)
    assert left.pixels == 150 and left.sized_by == "table.grids.farm.cell"
    drawn = {k: p.make() for k, p in pictures.items()}
    assert drawn["farm-mid"].size == (120, 120) and drawn["chess"].size == (420, 420)
    # side by side the sections continue each other: the seam lies on a column line
    assert drawn["farm-left"].getpixel((149, 60))[:3] == (0x11, 0x11, 0x11)
    assert drawn["farm-mid"].getpixel((0, 60))[:3] == (0x11, 0x11, 0x11)


def _no_hooks() -> Any:
    return TableHooks()


def hooks_of(data: dict[str, Any], own: TableHooks | None = None) -> TableHooks:
    """What the game hands the manifest: ``own`` hooks and its grids (as the Ark's do)."""
    check_grid_names(data, "table", own or TableHooks())
    return with_grids(data, "table", own or TableHooks())


def check_shape(data: dict[str, Any]) -> None:
    """The table's shape: the manifest's keys and the grids (the game's key)."""
    GRIDS.check(data["table"]["grids"], "table.grids")
    MANIFEST.check({k: v for k, v in data["table"].items() if k != "grids"}, "table")


def check_manifest(data: dict[str, Any], own: TableHooks | None = None) -> None:
    """The manifest's checks with the grids handed over as the game's hooks."""
    check_shared(data, hooks=hooks_of(data, own))


# --------------------------------------------------------------------------- on the table


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("grids")
    images = ImageSet("grids", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    check_shape(data)
    check_manifest(data)
    art = Art(root, data["components"], images, hooks_of(data).pictures)
    table = lay_table(data, art, GuidAllocator("g"), hooks=hooks_of(data))
    return data, table, images


def by_piece(table: Any, piece: str) -> list[dict[str, Any]]:
    return [o for o in table.objects if o["GUID"] in table.guids[piece]]


def test_the_sections_lie_side_by_side_for_the_most_players(laid: Any) -> None:
    data, table, images = laid
    plan = grid_plan(data, "farm", 3)
    assert plan.layout == ["left", "mid", "right"] and (plan.rows, plan.cols) == (2, 9)
    laid_x = []
    for piece in ("farm-left", "farm-mid", "farm-right"):
        (board,) = by_piece(table, piece)
        assert board["Locked"] is True and board["CustomImage"]["ImageURL"].endswith(
            f"/images/{piece}.png"
        )
        laid_x.append(board["Transform"]["posX"])
    assert laid_x == sorted(laid_x)  # read from the first seat: left to right
    assert [b.transform.pos[0] for _k, b in plan.sections] == laid_x
    # the whole board (420 x 120 px, 0.03 units a px) is centred on its `at` (8, 2): the
    # sections' centres at px 75, 210 and 345, cell 0:0's at (50, 40), 1:8's at (370, 80)
    assert laid_x == pytest.approx([8 - 135 * 0.03, 8.0, 8 + 135 * 0.03])
    assert plan.cells["0:0"] == pytest.approx([3.2, 2.6])
    assert plan.cells["1:8"] == pytest.approx([12.8, 1.4])
    assert plan.hull["p:0:0"] == pytest.approx([2.3, 3.5])  # (20, 10): pushed 10 px out
    assert plan.edges["v:0:9"][:2] == pytest.approx([13.4, 2.6])  # the right side, (390, 40)
    assert sum(x for x, _z in plan.cells.values()) / 18 == pytest.approx(8.0)
    (x0, z0), (x1, _z1) = plan.cells["0:0"], plan.cells["0:1"]
    assert x1 - x0 == pytest.approx(1.2) and z0 > plan.cells["1:0"][1]
    assert plan.edges["v:0:1"][2] % 180 == 90.0 and plan.edges["h:0:0"][2] % 180 == 0.0
    picture = Image.open(io.BytesIO(images.files["images/chess.png"])).convert("RGB")
    assert picture.getpixel((35, 35)) == (0xEE, 0xEE, 0xEE)  # (0, 0) light
    assert picture.getpixel((85, 35)) == (0x33, 0x33, 0x33)  # (0, 1) dark


def test_pieces_and_snap_points_lie_on_the_spots_at_the_boards_top(laid: Any) -> None:
    data, table, _images = laid
    pawns = by_piece(table, "pawns")
    cells = grid_plan(data, "chess", 3).cells
    assert [(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in pawns] == [
        tuple(cells[name]) for name in ("0:0", "0:1", "0:2")
    ]
    top = round(geo.TABLE_TOP_Y + THICKNESS, 4)
    assert pawns[0]["Transform"]["posY"] == pytest.approx(top)
    chess_snaps = [s for s in table.snap_points if s.get("Tags") == ["Piece"]]
    assert len(chess_snaps) == 64 and chess_snaps[0]["Position"]["y"] == top
    fences = [s for s in table.snap_points if s.get("Tags") == ["Fence"]]
    plan = grid_plan(data, "farm", 3)
    assert len(fences) == len(plan.edges) == 3 * 9 + 2 * 10
    assert fences[0]["Position"]["y"] == round(geo.TABLE_TOP_Y + 0.3, 4)  # its thickest board
    assert {s["Rotation"]["y"] % 180 for s in fences} == {0.0, 90.0}  # turned along the edge
    # a script that lays out the table for fewer players sets that count's snap points
    assert snap_points(data, hooks_of(data), 3) == table.snap_points  # called directly
    two = snap_points(data, hooks_of(data), 2)
    assert len([s for s in two if s.get("Tags") == ["Fence"]]) == 3 * 6 + 2 * 7
    assert len(two) == 64 + 3 * 6 + 2 * 7 + 2 * 2 + 2 * 6


def test_a_section_the_most_players_do_without_is_left_off() -> None:
    data = definition(high=2)
    hooks = with_grids(data, "table", _no_hooks())
    assert hooks.tracks["farm-mid"] == [] and "farm-mid" in hooks.omit
    check_manifest(data)
    one = grid_plan(data, "farm", 1)  # 300 x 120 px, centred on (8, 2) as well
    assert one.layout == ["left", "right"] and (one.rows, one.cols) == (2, 6)
    xs = [b.transform.pos[0] for _kind, b in one.sections]
    assert xs == pytest.approx([5.75, 10.25])  # px 75 and 225
    assert one.cells["0:0"] == pytest.approx([5.0, 2.6])  # px (50, 40)
    assert one.cells["1:5"] == pytest.approx([11.0, 1.4])  # px (250, 80)
    assert one.hull["p:2:6"] == pytest.approx([11.9, 0.5])  # px (280, 110)


def four_players(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` for up to 4 players, the 4-player board with two middles."""
    data["players"]["max"] = 4
    data["table"]["seats"].append("Green")
    data["rules"]["board"]["sections"].append(
        {"players": [4], "layout": ["left", "mid", "mid", "right"]}
    )
    return data


def test_too_few_section_boards_are_refused_at_the_piece() -> None:
    data = four_players(definition())
    check_manifest(copy.deepcopy(data))  # the piece on the track lays both middles
    data["table"]["pieces"][2]["at"] = {"track": "farm-mid", "cell": 0}  # one of them
    message = (
        r"table\.pieces\[2\]\.at: track 'farm-mid': its pieces lay 1 section\(s\), the layout "
        r"\['left', 'mid', 'mid', 'right'\] of the most players has 2"
    )
    with pytest.raises(FieldError, match=message):
        check_manifest(data)


def test_a_section_piece_left_off_by_when_is_not_counted(tmp_path: Path) -> None:
    """A second middle piece its ``when`` leaves off: not one of the sections, nor its
    thickness the boards' top."""
    data = definition()
    thick = {**data["table"]["pieces"][2], "id": "farm-mid-thick", "thickness": 0.9}
    data["table"]["pieces"].insert(3, {**thick, "when": {"key": "rules.board.rows", "is": 5}})
    check_manifest(data)
    images = ImageSet("grids", BuildOptions(out_dir=tmp_path), {})
    art = Art(tmp_path, data["components"], images, hooks_of(data).pictures)
    table = lay_table(data, art, GuidAllocator("w"), hooks=hooks_of(data))
    assert "farm-mid-thick" not in table.guids
    keyed = keyed_sections(data, "farm", table.guids)
    assert keyed["mid:1"] == table.guids["farm-mid"][0]
    fences = [s for s in table.snap_points if s.get("Tags") == ["Fence"]]
    assert fences[0]["Position"]["y"] == round(geo.TABLE_TOP_Y + 0.3, 4)


def test_the_script_positions_land_on_their_printed_spots(laid: Any) -> None:
    """On the table as a script lays it out for 2 players (the middle gone, the right end moved
    next to the left one), each spot's position is on the section under it, inside its spot."""
    data, table, images = laid
    save = {"ObjectStates": [dict(o) for o in table.objects]}
    plan = grid_plan(data, "farm", 2)
    guids = section_guids(data, "farm", ["left", "mid", "right"], table.guids)
    assert guids == [table.guids[p][0] for p in ("farm-left", "farm-mid", "farm-right")]
    keyed = keyed_sections(data, "farm", table.guids)
    assert keyed == dict(zip(("left", "mid:1", "right"), guids, strict=True))
    placed, removed = section_moves(data, "farm", plan, keyed)
    assert [p["guid"] for p in placed] == [guids[0], guids[2]] and removed == [guids[1]]
    assert [p["pos"]["x"] for p in placed] == [b.transform.pos[0] for _k, b in plan.sections]
    moved = {guids[0]: plan.sections[0][1], guids[2]: plan.sections[1][1]}
    save["ObjectStates"] = [
        {**o, "Transform": moved[o["GUID"]].transform.as_save()} if o["GUID"] in moved else o
        for o in save["ObjectStates"]
        if o["GUID"] != guids[1]
    ]
    on = [board_guid(save, "Farm", b.transform.pos) for _kind, b in plan.sections]
    positions = grid_positions(data, "farm", plan, on)
    assert len(positions) == 2 * 6 + (3 * 6 + 2 * 7) + (2 * 2 + 2 * 6)
    assert positions[0].label == "space 0:0" and positions[-1].label == "hull point p:2:6"
    assert {p.board for p in positions} == set(on)
    assert check_geometry(save, image_size_from_files(images.files), positions) == []
    # the one board of the chess grid: each cell's spot on it
    chess_board = board_guid(save, "Board")
    found = grid_positions(data, "chess", grid_plan(data, "chess", 2), [chess_board])
    assert found[9].label == "cell 1:1" and found[9].tolerance_uv == (25 / 420, 25 / 420)
    assert check_geometry(save, image_size_from_files(images.files), found) == []
    # planted: the right end turned round is found
    right = next(o for o in save["ObjectStates"] if o["GUID"] == guids[2])
    right["Transform"] = {**right["Transform"], "rotY": (right["Transform"]["rotY"] + 180) % 360}
    problems = check_geometry(save, image_size_from_files(images.files), positions)
    assert any("space 0:3" in p.message for p in problems)


def test_sections_are_keyed_with_their_middles_numbered() -> None:
    assert section_keys(["bow", "middle", "middle", "stern"], "middle") == [
        "bow",
        "middle:1",
        "middle:2",
        "stern",
    ]


# ------------------------------------------------------------------------------ errors


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(definition())
    change(data)
    return data


def _farm(d: dict[str, Any]) -> dict[str, Any]:
    return d["table"]["grids"]["farm"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: _farm(d)["elements"][1].update(box=[0, 0, 0, 30]),
            r"grids\.farm\.elements\[1\] copy\[0\]\.box: box \[30, 20, 390, 130\] is not "
            r"inside the 420x120 canvas",
        ),
        (
            lambda d: _farm(d)["sections"].update(kinds=["left", "cells", "right"]),
            r"grids\.farm\.sections\.kinds\[1\]: 'cells' names the grid's spots",
        ),
        (
            lambda d: _farm(d)["sections"].update(kinds=["left", "mid", "left"]),
            r"grids\.farm\.sections\.kinds\[2\]: 'left' is listed twice",
        ),
        (
            lambda d: d["rules"]["board"]["sections"].pop(0),
            r"grids\.farm\.sections\.layouts: rules\.board\.sections has no row for 1 players",
        ),
        (
            lambda d: d["rules"]["board"]["sections"][0].update(layout=["top"]),
            r"grids\.farm\.sections\.layouts: rules\.board\.sections: unknown section 'top'",
        ),
        *[
            (
                lambda d, layout=layout: d["rules"]["board"]["sections"][0].update(layout=layout),
                r"grids\.farm\.sections\.layouts: rules\.board\.sections: layout "
                + re.escape(str(layout))
                + r" for 1 players is not left, any number of mid, right",
            )
            for layout in (["left"], ["mid"], ["left", "mid"], ["right", "left"], ["left"] * 3)
        ],
        *[
            (
                lambda d, rows=rows: d["rules"]["board"].update(sections=rows),
                r"grids\.farm\.sections\.layouts" + message,
            )
            for rows, message in (
                ({"a": 1}, r": expected a list, got a mapping"),
                (5, r": expected a list, got 5"),
                ([], r": expected at least 1 entries"),
                ([{"players": [1]}], r"\[0\]\.layout: missing required key"),
                ([{"players": 2, "layout": ["left", "right"]}], r"\[0\]\.players: expected a list"),
                ([{"players": [1], "layout": []}], r"\[0\]\.layout: expected at least 1"),
                ([{"players": [0], "layout": ["left", "right"]}], r"\[0\]\.players\[0\]"),
            )
        ],
        (
            lambda d: _farm(d)["elements"].append(copy.deepcopy(chess()["elements"][1])),
            r"grids\.farm\.elements\[6\]\.parity: sections of 3 \(odd\) cols: a second "
            r"middle would start on the other parity",
        ),
        (
            lambda d: _farm(d)["rows"].update(key="rules.board.height"),
            r"grids\.farm\.rows\.key: the definition has no key 'rules\.board\.height'",
        ),
        (
            lambda d: d["rules"]["board"].update(square="big"),
            r"grids\.farm\.cell_width: expected a positive number, got 'big'",
        ),
        (
            lambda d: _farm(d).update(cell=1500),
            r"grids\.farm\.cell: the farm-left picture would be 4530 px a side",
        ),
        (
            lambda d: d["table"]["pieces"][0].update(picture="board"),
            r"pieces\[0\]\.picture: unknown picture 'board'",
        ),
    ],
)
def test_a_bad_grid_is_one_error_naming_its_field(change: Any, message: str) -> None:
    with pytest.raises(FieldError, match=message):
        check_manifest(_broken(change))


@pytest.mark.parametrize(
    ("element", "message"),
    [
        ({"at": "deck", "type": "rect", "box": [0, 0, 0, 0]}, r"\[0\]\.at: unknown frame 'deck'"),
        ({"type": "rect", "box": [0, 0, 0, 0]}, r"\[0\]\.at: missing required key"),
        ({"at": "cells", "type": "rect", "box": [0, 0, 0]}, r"\[0\]\.box: expected"),
        ({"at": "cells", "type": "blob", "box": [0, 0, 0, 0]}, r"\[0\]\.type: expected one of"),
        (
            {"at": "cells", "parity": "even", "type": "rect", "box": [0, 0, 0, 0]},
            r"\[0\]\.parity: only an element at cell",
        ),
        ({"at": "cells", "split": 1, "type": "rect", "box": [0, 0, 0, 0]}, r"\[0\]\.split"),
    ],
)
def test_a_grids_elements_are_checked_at_load(element: dict[str, Any], message: str) -> None:
    with pytest.raises(FieldError, match=r"grid\.elements" + message):
        GRID.check({**chess(), "elements": [element]}, "grid")


@pytest.mark.parametrize(
    ("hooks", "message"),
    [
        ({"pictures": {"farm-mid": None}}, r"its picture 'farm-mid' is one already"),
        ({"tracks": {"chess": [(0.0, 0.0)]}}, r"its track 'chess' is one already"),
        ({"by_players": {2: {"farm-hull": []}}}, r"its track 'farm-hull' is one already"),
    ],
)
def test_a_grid_refuses_a_name_the_game_supplies(hooks: dict[str, Any], message: str) -> None:
    with pytest.raises(FieldError, match=r"^table\.grids\.(chess|farm): " + message):
        check_manifest(definition(), TableHooks(**hooks))


def test_a_grid_refuses_a_name_an_earlier_grid_has() -> None:
    data = definition()
    data["table"]["grids"]["farm-cells"] = chess()  # its track farm-cells is the farm's spots
    with pytest.raises(FieldError, match=r"^table\.grids\.farm-cells: its track 'farm-cells'"):
        check_manifest(data)


def test_parity_is_for_a_board_in_one_piece_or_sections_of_even_cols() -> None:
    data = definition()
    _farm(data)["elements"].append(copy.deepcopy(chess()["elements"][1]))
    data["rules"]["board"]["cols"] = 4  # each middle starts on an even column
    data["table"]["grids"]["chess"]["cols"] = 7
    check_manifest(data)
