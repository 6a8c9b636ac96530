"""A hex-map board on the table (``tts_builder.table.hexboard``), on a small board of its own
(no game's definition): its geometry from the manifest's ``board`` key, its hexes in order,
its picture as the manifest takes it, and script positions that mean their printed hexes
for a first seat the board reads upright to."""

from __future__ import annotations

import math

import pytest

from tts_builder import geometry as geo
from tts_builder.errors import FieldError
from tts_builder.render.hexmap import hex_name, hex_table, hex_units
from tts_builder.schema_yaml import compile_type
from tts_builder.table import hexboard, layout
from tts_builder.table.printed import PrintedPoint, board, shared_rot_y

SPEC = {"centre": [2.0, -1.5], "hex_width": 1.5, "pixels_per_unit": 40}
GEO = hexboard.geometry(SPEC, rows=3, cols=4)


def test_the_geometry_is_the_manifest_boards_resting_on_the_table_top() -> None:
    assert (GEO.rows, GEO.cols, GEO.hex_width, GEO.px_per_unit) == (3, 4, 1.5, 40.0)
    assert GEO.centre == (2.0, -1.5)
    assert GEO.y - GEO.thickness / 2 == pytest.approx(geo.TABLE_TOP_Y)
    thick = hexboard.geometry(SPEC, 3, 4, thickness=0.5)
    assert thick.top_y == pytest.approx(geo.TABLE_TOP_Y + 0.5)


def test_a_board_s_default_thickness_is_the_table_s_one_number() -> None:
    """The default a hex board rests at is :data:`tts_builder.table.layout.THICKNESS` itself
    (one source of truth), so its top is the table's ``BOARD_TOP``."""
    assert hexboard.THICKNESS is layout.THICKNESS
    assert GEO.thickness == layout.THICKNESS and round(GEO.top_y, 4) == layout.BOARD_TOP


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"hex_width": 12}, "table.board.hex_width", "expected a number from 0.5 to 10, got 12"),
        ({"centre": [1.0]}, "table.board.centre", "expected a list of 2 finite numbers"),
        ({"pixels_per_unit": None}, "table.board.pixels_per_unit", "expected a number"),
        ({"width": 3}, "table.board.width", "unknown key"),
    ],
)
def test_the_schema_type_hex_board_is_the_key_the_geometry_reads(
    change: dict[str, object], field: str, message: str
) -> None:
    spec = compile_type("hex_board")
    assert spec is hexboard.BOARD
    spec.check(SPEC, "table.board")
    with pytest.raises(FieldError) as err:
        spec.check({**SPEC, **change}, "table.board")
    assert err.value.field == field and err.value.detail.startswith(message)


def test_hexes_are_listed_row_by_row_with_their_centres_and_names() -> None:
    cells = hexboard.cells(GEO)
    assert cells[:5] == [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)] and len(cells) == 12
    centres = hexboard.centres(GEO)
    for (r, c), (x, z) in zip(cells, centres, strict=True):
        assert (x, z) == pytest.approx(hex_table(GEO, r, c), abs=5e-5)
        assert (x, z) == (round(x, 4), round(z, 4))  # as a script gets them
    assert hexboard.names(GEO)[5] == hex_name(1, 1) == "B2"


def test_a_track_lies_on_the_listed_hexes_at_its_height() -> None:
    starts = [[2, 3], [0, 0], [1, 2]]
    points = hexboard.track(GEO, starts, 1.7)
    assert points == [(*hex_table(GEO, r, c)[:1], 1.7, hex_table(GEO, r, c)[1]) for r, c in starts]
    assert hexboard.track(GEO, [], 1.7) == []


def test_the_picture_is_drawn_to_scale_and_sized_by_the_manifest_key() -> None:
    drawn = hexboard.picture(GEO, {"board": 1}, lambda: None)  # type: ignore[arg-type,return-value]
    assert drawn.spec == {"board": 1} and drawn.width == GEO.side
    assert drawn.pixels == GEO.image_size == round(GEO.side * 40)
    assert drawn.sized_by == "table.board.pixels_per_unit"


@pytest.mark.parametrize("first_seat", ["White", "Red"])
def test_every_hex_position_means_the_hex_printed_under_it(first_seat: str) -> None:
    manifest = {"type": "Table_RPG", "seats": [first_seat]}
    points = hexboard.hex_points(GEO, 1.5)
    made = hexboard.printed_cells(GEO, manifest, "b0a4d1", points)
    printed = board(GEO.centre, (GEO.side, GEO.side), GEO.side, shared_rot_y(manifest))
    assert [p.label for p in made] == [f"hex {n}" for n in hexboard.names(GEO)]
    for (r, c), pos in zip(hexboard.cells(GEO), made, strict=True):
        assert pos.board == "b0a4d1" and pos.kind == "hex" and pos.at[1] == 1.5
        u, v = geo.uv_of_world(printed.transform, 1.0, pos.at)
        cu, cv = pos.cell_uv
        assert (cu * GEO.side, cv * GEO.side) == pytest.approx(hex_units(GEO, r, c))
        assert abs(u - cu) < 1e-4 and abs(v - cv) < 1e-4  # over its own hex's centre
        half = pos.tolerance_uv[0] * GEO.side
        assert half == pytest.approx(0.8 * GEO.hex_width / 2)  # inside the inscribed circle
        assert half < GEO.radius * math.sqrt(3) / 2


@pytest.mark.parametrize(("first_seat", "rot_y"), [("Green", "0"), ("Yellow", "270")])
def test_a_first_seat_that_would_turn_the_board_is_refused(first_seat: str, rot_y: str) -> None:
    manifest = {"type": "Table_RPG", "seats": [first_seat, "White"]}
    with pytest.raises(FieldError) as err:
        hexboard.printed_cells(GEO, manifest, "b0a4d1", hexboard.hex_points(GEO, 1.5))
    assert err.value.field == "table.seats[0]" and f"rotY {rot_y}" in str(err.value)


def test_points_of_the_games_own_land_where_it_measured_them() -> None:
    manifest = {"type": "Table_RPG", "seats": ["White"]}
    mark = PrintedPoint("mark 0", "mark", (5.0, 1.2, 6.0), (1.0, 2.0), (0.2, 0.2))
    (pos,) = hexboard.printed_cells(GEO, manifest, "b0a4d1", [mark])
    assert pos.at == (5.0, 1.2, 6.0)  # where the game put it
    assert pos.cell_uv == (1.0 / GEO.side, 2.0 / GEO.side)
