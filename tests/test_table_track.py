"""A track as manifest data (``kind: track``, :mod:`tts_builder.table.track`): its cells'
pixels (a line, a grid snaking from any corner), its picture's layout (labels, words, marked
cells, decorations, a title), its cell count from a definition key, its board and cells on the
table, and the one-line errors of a bad one."""

from __future__ import annotations

import copy
import io
import math
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table, snap_points
from tts_builder.table.assemble import THICKNESS
from tts_builder.table.printed import laid_track, track_cells, track_positions, track_seats
from tts_builder.table.track import TRACK, Track, cell_count, seat_places, track_layout

INK, CELL, MARK = "#111111", "#eeeeee", "#cc3333"


def score_spec(**more: Any) -> dict[str, Any]:
    """A 0..11 score track: rows of 4 snaking up from the bottom left, every 4th cell marked."""
    return {
        "cells": 12,
        "columns": 4,
        "from": "bottom-left",
        "snake": True,
        "cell": 50,
        "gap": 3,
        "margin": 10,
        "frame": {"fill": "#333333", "radius": 8},
        "fill": CELL,
        "ink": INK,
        "labels": {"size": 20},
        "marked": {"every": 4, "fill": MARK},
        "decorations": [
            {"cell": 0, "elements": [{"type": "ellipse", "box": [-5, -5, 5, 5], "fill": INK}]}
        ],
        **more,
    }


def definition() -> dict[str, Any]:
    seed = [{"type": "ellipse", "box": [0, 0, 40, 40], "fill": "#aa7700"}]
    return {
        "players": {"min": 2, "max": 3},
        "rules": {"rounds": 6},
        "components": {"seed": {"size": [40, 40], "face": seed}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red", "Blue"],
            "pieces": [
                {
                    "id": "score",
                    "kind": "track",
                    "width": 6.0,
                    "at": [4.0, -2.0],
                    "tags": [],
                    "track": score_spec(),
                },
                {
                    "id": "rounds",
                    "kind": "track",
                    "name": "Round track",
                    "thickness": 0.3,
                    "at": [-8.0, 5.0],
                    "track": {
                        "cells": {"key": "rules.rounds", "add": 1},
                        "cell": 60,
                        "margin": [10, 40, 10, 10],
                        "fill": CELL,
                        "ink": INK,
                        "title": {"text": "Rounds", "top": 4, "bottom": 36},
                        "labels": {"words": [{"cell": 0, "text": "start"}]},
                        "marked": {"last": True, "fill": MARK},
                        "file": "rounds-{key}",
                        "cell_width": 0.9,
                    },
                },
                {
                    "id": "marker",
                    "kind": "token",
                    "component": "seed",
                    "shape": "circle",
                    "width": 0.4,
                    "at": {"track": "rounds", "cell": 0},
                },
                {
                    "id": "pegs",
                    "kind": "token",
                    "component": "seed",
                    "count": 3,
                    "at": {"track": "score"},
                },
            ],
        },
    }


# --------------------------------------------------------------------------- geometry


def test_a_line_runs_left_to_right_inside_its_margins() -> None:
    line = Track(cells=5, cell=10, columns=5, margin=(1, 2, 3, 4))
    assert line.size == (1 + 50 + 3, 2 + 10 + 4)
    assert [line.cell_px(k) for k in range(5)] == [(6 + 10 * k, 7.0) for k in range(5)]


@pytest.mark.parametrize("start", ["top-left", "top-right", "bottom-left", "bottom-right"])
@pytest.mark.parametrize("snake", [True, False])
def test_a_grid_starts_in_its_corner_and_a_snake_keeps_neighbours_touching(
    start: str, snake: bool
) -> None:
    grid = Track(cells=12, cell=10, columns=4, start=start, snake=snake)
    cells = [grid.cell_px(k) for k in range(12)]
    assert len(set(cells)) == 12 and grid.size == (40, 30)
    x, y = cells[0]
    assert x == (5.0 if start.endswith("left") else 35.0)
    assert y == (5.0 if start.startswith("top") else 25.0)
    steps = [abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(cells, cells[1:], strict=False)]
    if snake:
        assert steps == [10.0] * 11  # cell k + 1 always touches cell k
    else:
        assert steps[3] == 10.0 + 30.0  # back to the first column of the next row


def test_the_cell_count_may_come_from_a_definition_key() -> None:
    data = definition()
    assert cell_count({"cells": 12}, data) == 12
    assert cell_count({"cells": {"key": "rules.rounds", "add": 1}}, data) == 7
    with pytest.raises(FieldError, match=r"t\.cells\.key: the definition has no key 'rules\.x'"):
        cell_count({"cells": {"key": "rules.x"}}, data, "t")
    data["rules"]["rounds"] = "six"
    with pytest.raises(FieldError, match="is not a whole number"):
        cell_count({"cells": {"key": "rules.rounds"}}, data, "t")


# ----------------------------------------------------------------------------- layout


def test_the_layout_prints_labels_words_marks_and_decorations() -> None:
    data = definition()
    elements, size, fields = track_layout(score_spec(labels={"size": 20, "first": 1}), data)
    assert size == (220, 170) and fields == {}
    assert elements[0] == {"type": "rect", "box": [0, 0, 220, 170], "fill": "#333333", "radius": 8}
    squares = [e for e in elements if e["type"] == "rect"][1:]
    texts = [e for e in elements if e["type"] == "text"]
    assert [t["text"] for t in texts] == [str(k + 1) for k in range(12)]  # first: 1
    assert [s["fill"] for s in squares] == [MARK if k % 4 == 0 else CELL for k in range(12)]
    assert squares[0]["box"] == [13, 113, 57, 157]  # cell 0 at the bottom left, gap 3
    assert elements[-1]["box"] == [30, 130, 40, 140]  # the decoration, moved onto cell 0
    rounds = definition()["table"]["pieces"][1]["track"]
    elements, size, _fields = track_layout(rounds, data)
    assert size == (10 + 7 * 60 + 10, 40 + 60 + 10)
    assert elements[0] == {
        "type": "text",
        "text": "Rounds",
        "box": [10, 4, 430, 36],
        "size": 24,
        "bold": True,
        "color": INK,
    }
    texts = [e["text"] for e in elements if e["type"] == "text"][1:]
    assert texts == ["start", "1", "2", "3", "4", "5", "6"]
    squares = [e for e in elements if e["type"] == "rect"]
    assert [s["fill"] for s in squares] == [CELL] * 6 + [MARK]  # the last one marked


# --------------------------------------------------------------------------- on the table


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("tracks")
    images = ImageSet("tracks", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    MANIFEST.check(data["table"], "table")
    check_manifest(data)
    return data, lay_table(data, Art(root, data["components"], images), GuidAllocator("t")), images


def by_piece(table: Any, piece: str) -> list[dict[str, Any]]:
    return [o for o in table.objects if o["GUID"] in table.guids[piece]]


def test_a_track_is_a_locked_board_of_its_own_picture(laid: Any) -> None:
    data, table, images = laid
    (score,) = by_piece(table, "score")
    assert score["Name"] == "Custom_Tile" and score["Locked"] is True
    assert score["CustomImage"]["ImageURL"].endswith("/images/score.png")
    board, _track = laid_track(data, "score")
    assert score["Transform"]["scaleX"] == board.transform.scale[0]
    (x0, z0), (x1, z1) = board.at((0.0, 85.0)), board.at((220.0, 85.0))
    assert math.hypot(x1 - x0, z1 - z0) == pytest.approx(6.0)  # its width
    (rounds,) = by_piece(table, "rounds")
    assert rounds["Nickname"] == "Round track"
    assert rounds["CustomImage"]["ImageURL"].endswith("/images/rounds-6.png")  # {key}
    board, track = laid_track(data, "rounds")
    assert rounds["Transform"]["scaleX"] == board.transform.scale[0]
    (x0, z0), (x1, z1) = board.at((0.0, 50.0)), board.at((track.size[0], 50.0))
    assert math.hypot(x1 - x0, z1 - z0) == pytest.approx(7 * 0.9 + 20 * 0.9 / 60)  # per cell
    picture = Image.open(io.BytesIO(images.files["images/score.png"])).convert("RGB")
    assert picture.size == (220, 170)
    cx, cy = Track.of(score_spec(), data).cell_px(4)  # a marked cell, beside its label
    assert picture.getpixel((int(cx) - 18, int(cy) - 18)) == (0xCC, 0x33, 0x33)
    cx, cy = Track.of(score_spec(), data).cell_px(5)
    assert picture.getpixel((int(cx) - 18, int(cy) - 18)) == (0xEE, 0xEE, 0xEE)


def test_pieces_lie_on_a_tracks_cells_at_its_top(laid: Any) -> None:
    data, table, _images = laid
    (marker,) = by_piece(table, "marker")
    x, z = track_cells(data, "rounds")[0]
    t = marker["Transform"]
    assert (t["posX"], t["posZ"]) == (x, z)
    assert t["posY"] == pytest.approx(round(geo.TABLE_TOP_Y + 0.3, 4))  # the board's top
    pegs = by_piece(table, "pegs")
    cells = track_cells(data, "score")
    assert [(o["Transform"]["posX"], o["Transform"]["posZ"]) for o in pegs] == [
        tuple(c) for c in cells[:3]
    ]
    assert pegs[0]["Transform"]["posY"] == pytest.approx(geo.TABLE_TOP_Y + THICKNESS)
    # read from the first seat (White, at -z): 0 at the bottom left, 3 to its right
    assert cells[0][0] < cells[3][0] and cells[0][1] < cells[11][1]
    assert table.context["tracks"]["score"][0] == (
        cells[0][0],
        round(geo.TABLE_TOP_Y + THICKNESS, 4),
        cells[0][1],
    )


def test_each_cells_position_maps_into_its_printed_cell(laid: Any) -> None:
    data, table, _images = laid
    board, track = laid_track(data, "score")
    found = track_positions(data, "score", "abc123", "score", "score", 1.16)
    assert [p.label for p in found] == [f"score {k}" for k in range(12)]
    for k, position in enumerate(found):
        assert position.board == "abc123" and position.at[1] == 1.16
        u, v = geo.uv_of_world(board.transform, board.aspect, position.at)
        cx, cy = track.cell_px(k)
        assert abs(u * track.size[0] - cx) < 0.01 and abs(v * track.size[1] - cy) < 0.01
        assert position.cell_uv == (cx / 220, cy / 170)
        assert position.tolerance_uv == (22 / 220, 22 / 170)  # half a cell less its gap


# ------------------------------------------------------------------------------ errors


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(definition())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["table"]["pieces"][2]["at"].update(cell=7),
            r"pieces\[2\]\.at\.cell: track 'rounds' has 7 points \(0\.\.6\)",
        ),
        (
            lambda d: d["table"]["pieces"][0]["track"]["decorations"][0].update(cell=12),
            r"pieces\[0\]\.track\.decorations\[0\]\.cell: the track has 12 cells",
        ),
        (
            lambda d: d["table"]["pieces"][1]["track"]["labels"]["words"][0].update(cell=9),
            r"pieces\[1\]\.track\.labels\.words\[0\]\.cell: the track has 7 cells",
        ),
        (
            lambda d: d["table"]["pieces"][1]["track"]["cells"].update(key="rules.turns"),
            r"pieces\[1\]\.track\.cells\.key: the definition has no key 'rules\.turns'",
        ),
        (
            lambda d: d["table"]["pieces"][0].pop("width"),
            r"pieces\[0\]\.width: missing required key",
        ),
        (
            lambda d: d["table"]["pieces"][0].pop("track"),
            r"pieces\[0\]\.track: missing required key",
        ),
        (
            lambda d: d["table"]["pieces"][0]["track"]["marked"].pop("every"),
            r"pieces\[0\]\.track\.marked: expected every: N or last: true",
        ),
    ],
)
def test_a_bad_track_is_one_error_naming_its_field(change: Any, message: str) -> None:
    with pytest.raises(FieldError, match=message):
        check_manifest(_broken(change))


def test_a_tracks_keys_are_checked_and_only_a_track_has_them() -> None:
    with pytest.raises(FieldError, match=r"track\.from: expected one of"):
        TRACK.check(score_spec(**{"from": "middle"}), "track")
    with pytest.raises(FieldError, match=r"track\.decorations\[0\]\.elements\[0\]"):
        TRACK.check(score_spec(decorations=[{"cell": 0, "elements": [{"type": "x"}]}]), "track")
    data = definition()
    data["table"]["pieces"][3]["track"] = score_spec()
    with pytest.raises(FieldError, match=r"pieces\[3\]\.track: a token has no 'track'"):
        check_manifest(data)
    hooks = TableHooks(tracks={"score": [(0.0, 0.0)]})
    with pytest.raises(FieldError, match=r"pieces\[0\]\.id: 'score' is a track the game"):
        check_manifest(definition(), hooks=hooks)


def test_the_tutorials_track_example_is_a_valid_track() -> None:
    """docs/tutorial.md's reference example of a track (its ``text`` block under "Tracks")."""
    from tts_builder.table.schema import PIECE
    from tts_builder.table.track import check_track

    text = (Path(__file__).resolve().parents[1] / "docs" / "tutorial.md").read_text("utf-8")
    block = re.search(r"### Tracks\n.*?```text\n(.*?)```", text, re.S)
    assert block is not None
    (piece,) = yaml.safe_load(block.group(1))
    PIECE.check(piece, "piece")
    assert check_track(piece, {}, "piece") == 100
    elements, size, _fields = track_layout(piece["track"], {})
    assert size == (1040, 1040) and len(elements) == 1 + 1 + 2 * 100 + 1


def test_seat_places_share_a_cell_without_touching() -> None:
    assert seat_places(0, 0.4) == []
    assert seat_places(1, 0.4) == [(0.0, 0.0)]
    four = seat_places(4, 0.36)
    assert four == [(-0.18, 0.18), (0.18, 0.18), (-0.18, -0.18), (0.18, -0.18)]  # the corners
    for count in range(2, 9):
        places = seat_places(count, 0.3)
        assert len(set(places)) == count
        gaps = [math.dist(a, b) for i, a in enumerate(places) for b in places[i + 1 :]]
        assert min(gaps) == pytest.approx(0.3)


def test_a_marker_per_seat_lies_on_its_place_of_the_first_cell() -> None:
    data = definition()
    data["table"]["pieces"][0]["track"]["seats"] = 0.4
    data["table"]["pieces"].append(
        {
            "id": "pawns",
            "kind": "token",
            "component": "seed",
            "shape": "circle",
            "width": 0.3,
            "name": "{seat} pawn",
            "at": {"seat_track": "score"},
        }
    )
    check_manifest(data)
    images = ImageSet("seats", BuildOptions(out_dir=Path("/nonexistent")), {})
    table = lay_table(data, Art(Path("."), data["components"], images), GuidAllocator("s"))
    pawns = by_piece(table, "pawns")
    assert [p["Nickname"] for p in pawns] == ["White pawn", "Red pawn", "Blue pawn"]
    x, z = track_cells(data, "score")[0]
    places = [(p["Transform"]["posX"], p["Transform"]["posZ"]) for p in pawns]
    assert places == [(round(x + dx, 4), round(z + dz, 4)) for dx, dz in seat_places(3, 0.4)]
    assert track_seats(data, "score") == seat_places(3, 0.4)  # the places, in seat order
    assert track_seats(data, "rounds") == []  # a track without seats


def test_snap_points_may_lie_on_every_cell_of_a_track() -> None:
    data = definition()
    data["table"]["snap_points"] = [{"at": {"track": "rounds"}, "tags": ["Round"]}]
    check_manifest(data)
    images = ImageSet("snaps", BuildOptions(out_dir=Path("/nonexistent")), {})
    table = lay_table(data, Art(Path("."), data["components"], images), GuidAllocator("s"))
    cells = track_cells(data, "rounds")
    assert [(s["Position"]["x"], s["Position"]["z"]) for s in table.snap_points] == [
        tuple(c) for c in cells
    ]
    assert {s["Position"]["y"] for s in table.snap_points} == {round(geo.TABLE_TOP_Y + 0.3, 4)}
    assert all(s["Tags"] == ["Round"] for s in table.snap_points)
    # called directly (as a script's per-count snap points are), it sees the track's cells too
    assert snap_points(data, TableHooks(), 3) == table.snap_points
