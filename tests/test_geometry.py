"""The geometry model against the evidence of GEOMETRY.md (values copied from the real saves)."""

from __future__ import annotations

import math

import pytest

from tts_builder import geometry as geo
from tts_builder.save import objects as obj

# CANT Structure Sideboard 63370c (timur-tabi/canterbury-tts TS_Save_1.json).
SIDEBOARD = geo.Transform((15.354, 0.958, -7.504), (0.0, 180.0, 0.0), (9.177, 1.0, 9.177))
# (snap point local position, the tile resting on it: world x, y, z)
CANT_SNAPS = [
    ((1.558, 0.1, -0.09), (1.056, 1.058, -6.678)),  # Fountain c05fff
    ((0.932, 0.1, -0.09), (6.801, 1.058, -6.678)),  # Farm 378eb3
    ((0.305, 0.1, -0.09), (12.555, 1.058, -6.678)),  # Church 4d6a48
    ((1.557, 0.1, -0.739), (1.065, 1.058, -0.722)),  # Water Works 81ff32
]


def _close(a, b, tol=0.05):
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("local", "world"), CANT_SNAPS)
def test_snap_points_are_scaled_then_rotated(local, world):
    point = {"Position": dict(zip("xyz", local, strict=True))}
    assert _close(geo.world_of_snap_point(SIDEBOARD, point), world)


def test_local_and_world_are_inverse():
    for local, _ in CANT_SNAPS:
        back = geo.local_of_world(SIDEBOARD, geo.world_of_local(SIDEBOARD, local))
        assert _close(back, local, 1e-9)


def test_unrotated_scaled_mapping_is_plain():
    t = geo.Transform((1.0, 2.0, 3.0), (0.0, 90.0, 0.0), (2.0, 1.0, 3.0))
    # x' = x cos θ + z sin θ, z' = -x sin θ + z cos θ at θ = 90: local +x goes to world -z.
    assert _close(geo.world_of_local(t, (1.0, 0.0, 0.0)), (1.0, 2.0, 1.0), 1e-9)
    assert _close(geo.world_of_local(t, (0.0, 0.0, 1.0)), (4.0, 2.0, 3.0), 1e-9)


def test_image_top_row_is_local_minus_z_and_left_is_plus_x():
    # The punchboard prints the large structures on the top row, Water Works left: snap x +1.557
    # at z -0.739 on a square (a = 1) sideboard.
    u, v = geo.uv_of_local(1.557, -0.739, 1.0)
    assert u < 0.25 and v < 0.2
    assert geo.uv_of_local(-1.566, 0.535, 1.0)[0] > 0.75


def test_uv_and_local_are_inverse_for_any_aspect():
    for aspect in (0.5, 1.0, 3.013):
        for u, v in ((0.0, 0.0), (0.25, 0.9), (1.0, 1.0)):
            x, z = geo.local_of_uv(u, v, aspect)
            assert _close(geo.uv_of_local(x, z, aspect), (u, v), 1e-12)
    assert geo.local_of_uv(0.0, 0.0, 2.0) == (2.0, -1.0)


def test_cant_player_board_width_from_its_printed_squares():
    # player_blue_english.png 1796x596: snap x ±2.0 sit on printed squares at u ±0.332 from centre.
    aspect = 1796 / 596
    width, depth = geo.tile_size(aspect)
    assert width == pytest.approx(6.03, abs=0.01) and depth == 2.0
    u, _ = geo.uv_of_local(-2.0, 0.0, aspect)
    assert u - 0.5 == pytest.approx(0.332, abs=0.001)


def test_world_uv_round_trip_through_a_turned_tile():
    t = geo.Transform((3.0, 0.96, -2.0), (0.0, 180.0, 0.0), (4.0, 1.0, 5.0))
    for u, v in ((0.1, 0.2), (0.5, 0.5), (0.9, 0.7)):
        assert _close(geo.uv_of_world(t, 1.5, geo.world_of_uv(t, 1.5, u, v)), (u, v), 1e-9)
    # At rotY 180 the image's top edge lies at +z and its left edge at -x.
    top_left = geo.world_of_uv(t, 1.0, 0.0, 0.0)
    assert top_left[0] < 3.0 and top_left[2] > -2.0


def test_tile_transform_for_covers_the_asked_size():
    t = geo.tile_transform_for((0.0, 0.0), (12.0, 6.0), 2.0, 180.0)
    assert t.scale == (3.0, 1.0, 3.0) and t.pos[1] == geo.TABLE_TOP_Y
    corner = geo.world_of_uv(t, 2.0, 0.0, 0.0)
    assert _close((abs(corner[0]), abs(corner[2])), (6.0, 3.0), 1e-9)


def test_reader_rule_matches_the_real_saves():
    assert geo.reader_rot_y(0.0) == 180.0  # CANT hands rotY 0, tiles 180
    assert geo.reader_rot_y(180.0) == 0.0  # ARK hands 180, cards 0
    assert geo.reader_rot_y(90.0) == 270.0  # SCED mats
    assert geo.faces(359.8, 179.8)  # Table_RPG Blue hand
    assert not geo.faces(0.0, 0.0)
    assert geo.text_rotation(0.0) == (90.0, 0.0, 0.0)


def test_button_x_is_mirrored():
    t = geo.Transform((0.0, 1.0, 0.0), (0.0, 0.0, 0.0), (2.0, 1.0, 2.0))
    assert _close(geo.world_of_button(t, (1.0, 0.1, 0.5)), (-2.0, 1.1, 1.0), 1e-9)
    assert _close(geo.button_of_world(t, (-2.0, 1.1, 1.0)), (1.0, 0.1, 0.5), 1e-9)


def test_footprints_at_scale():
    tile = obj.custom_tile(
        "aaaaaa", "file:///a.png", transform=obj.transform((0, 1, 0), (0, 90, 0), (2, 1, 3))
    )
    rect = geo.footprint(tile, aspect=1.5)
    assert rect is not None and rect.size == (6.0, 6.0) and rect.rot_y == 90.0
    assert geo.footprint(tile) is None  # the image's aspect decides: unknown without it
    card = obj.card("bbbbbb", 100, obj.custom_deck_entry("file:///f", "file:///b", 2, 2))
    assert geo.footprint(card).size == geo.PORTRAIT_CARD
    assert geo.footprint(card, aspect=1.0) is None
    token = obj.custom_token("cccccc", "file:///t.png")
    assert geo.footprint(token, aspect=1.0) is None
    board = obj.custom_board("dddddd", "file:///b.png")
    assert geo.footprint(board, aspect=1.0) is None
    die = obj.custom_dice("eeeeee", "file:///d.png")
    assert geo.footprint(die).size == (geo.D6_SIDE, geo.D6_SIDE)


def test_square_cards_are_unmeasured():
    with pytest.raises(geo.Unmeasured):
        geo.square_card_size()
    with pytest.raises(geo.Unmeasured):
        geo.card_size(1.0)
    assert geo.card_size(400 / 560) == geo.PORTRAIT_CARD


def test_heights_origin_at_bottom_face():
    # BUYN TS_Save_15: a stack of th 0.155 steps 1.481 / 1.636 / 1.792.
    tile = obj.custom_tile(
        "aaaaaa", "file:///a.png", thickness=0.155, transform=obj.transform((0, 1.481, 0))
    )
    assert geo.top_y(tile) == pytest.approx(1.636, abs=0.001)
    tall = obj.custom_tile(
        "aaaaab",
        "file:///a.png",
        thickness=0.2,
        transform=obj.transform((0, 0.96, 0), scale=(1, 2, 1)),
    )
    assert geo.top_y(tall) == pytest.approx(1.36)
    board = obj.custom_board("bbbbbb", "file:///b.png", transform=obj.transform((0, 2.0, 0)))
    assert geo.top_y(board) == pytest.approx(2.592)
    assert geo.top_y(obj.bag("cccccc", [])) is None
    # CANT sideboard: thickness 0.1 at posY 0.958 carries tiles at 1.058.
    side = obj.custom_tile(
        "dddddd",
        "file:///s.png",
        thickness=0.1,
        transform=obj.transform(SIDEBOARD.pos, SIDEBOARD.rot, SIDEBOARD.scale),
    )
    assert geo.top_y(side) == pytest.approx(1.058)
    assert geo.snap_height(side) == 0.1


def test_oriented_rectangles():
    a = geo.Rect((0.0, 0.0), (2.0, 2.0))
    assert geo.rects_overlap(a, geo.Rect((1.5, 0.0), (2.0, 2.0)))
    assert not geo.rects_overlap(a, geo.Rect((2.0, 0.0), (2.0, 2.0)))  # touching
    assert not geo.rects_overlap(a, geo.Rect((2.5, 0.0), (2.0, 2.0), 45.0))
    assert geo.rects_overlap(a, geo.Rect((2.0, 0.0), (2.0, 2.0), 45.0))  # a corner reaches in
    long = geo.Rect((0.0, 0.0), (10.0, 1.0), 90.0)  # turned: 1 wide in x, 10 deep in z
    assert geo.rects_overlap(long, geo.Rect((0.0, 4.0), (1.0, 1.0)))
    assert not geo.rects_overlap(long, geo.Rect((4.0, 0.0), (1.0, 1.0)))
    assert geo.inside_extent(geo.Rect((0.0, 0.0), (4.0, 4.0)), (2.0, 2.0))
    assert not geo.inside_extent(geo.Rect((0.0, 0.0), (4.0, 4.0), 45.0), (2.0, 2.0))
    assert long.contains((0.0, 4.9)) and not long.contains((4.9, 0.0))


def test_zones_are_rotated_boxes():
    zone = geo.Transform((10.0, 2.0, 0.0), (0.0, 90.0, 0.0), (8.0, 2.0, 2.0))
    assert geo.zone_contains(zone, (10.0, 2.5, 3.5))  # 8 long in z once turned
    assert not geo.zone_contains(zone, (13.5, 2.0, 0.0))
    assert not geo.zone_contains(zone, (10.0, 3.5, 0.0))  # held above the box
    assert geo.zone_rect(zone).contains((10.0, -3.9))


def test_bad_transforms_name_the_guid():
    good = obj.custom_tile("abcdef", "file:///a.png")
    for key, value in (("posX", math.nan), ("scaleY", 0.0), ("rotY", "x")):
        broken = {**good, "Transform": {**good["Transform"], key: value}}
        with pytest.raises(geo.GeometryError, match="abcdef"):
            geo.Transform.of(broken)
    with pytest.raises(geo.GeometryError, match="abcdef.*missing"):
        geo.Transform.of({"GUID": "abcdef", "Name": "Custom_Tile"})


def test_seats_and_facing():
    hands = obj.default_hand_triggers(lambda c: f"{len(c):06x}", colors=["White", "Green"])
    seats = geo.seats_of(hands)
    assert set(seats) == {"White", "Green"}
    assert geo.seat_facing(seats, 180.0) == "White"
    assert geo.seat_facing(seats, 0.0) == "Green"
    assert geo.seat_facing(seats, 90.0) is None


def test_transform_round_trips_through_a_save_dict():
    tile = {"GUID": "abcdef", "Transform": SIDEBOARD.as_save()}
    assert geo.Transform.of(tile) == SIDEBOARD


def test_laid_transform_puts_a_tile_upright_for_its_reader_on_the_table():
    t = obj.laid_transform((4.0, -3.0), (6.0, 3.0), (200, 100), reader_hand_rot_y=90.0)
    assert t["rotY"] == 270.0 and t["scaleY"] == 1.0 and t["posY"] == geo.TABLE_TOP_Y
    tile = obj.custom_tile("abcdef", "file:///t.png", transform=t)
    rect = geo.footprint(tile, aspect=2.0)
    assert rect.size == (6.0, 3.0) and rect.centre == (4.0, -3.0)
