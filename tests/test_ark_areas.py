"""Ark & Noah's seat areas (``tts_builder.games.ark_and_noah.areas``): each kind's places in a
seat's own area, turned for the seat, layered on top past the last place, and the seat as a
script sees it."""

from __future__ import annotations

from typing import Any

import pytest

from tts_builder import geometry as geo
from tts_builder.errors import FieldError
from tts_builder.games.ark_and_noah.areas import (
    area_slot,
    area_slots,
    area_tracks,
    check_area_slots,
    script_seat,
    seat_area_tracks,
    seat_point,
)
from tts_builder.games.ark_and_noah.schema import FIELDS

#: The table's ``area_slots`` (the game's own key, in its schema).
AREA_SLOTS = FIELDS["table"].fields["area_slots"]  # type: ignore[attr-defined]

SOUTH = {"color": "Red", "area": [10.0, -5.0], "facing": 0}
NORTH = {"color": "Blue", "area": [10.0, 5.0], "facing": 180}
WEST = {"color": "Yellow", "area": [-8.0, 0.0], "facing": 90}


def manifest() -> dict[str, Any]:
    return {
        "type": "Table_RPG",
        "seats": [SOUTH, NORTH],
        "pieces": [
            {
                "id": "gems",
                "kind": "bag",
                "component": "gem",
                "count": 9,
                "contents": {"notes": {"kind": "gem"}, "thickness": 0.25},
                "at": [0.0, 0.0],
            },
        ],
        "area_slots": {
            "gems": {
                "kind": "gem",
                "origin": [-1.0, 0.5],
                "step": [0.5, 0.0],
                "per_line": 3,
                "line": [0.0, -0.5],
                "lines": 2,
            },
            "home": {
                "origin": [2.0, 0.0],
                "step": [0.0, 0.0],
                "per_line": 1,
                "line": [0.0, 0.0],
                "lines": 1,
            },
        },
    }


def test_places_keep_the_manifests_order_and_lift_by_their_pieces_thickness() -> None:
    slots = area_slots(manifest())
    assert list(slots) == ["gems", "home"]
    assert slots["gems"].lift == 0.25 and slots["gems"].count == 6
    assert slots["home"].lift == 0.0  # no kind: nothing stacks there


def test_a_seat_facing_0_lays_its_grid_along_the_table_axes() -> None:
    slots = area_slots(manifest())
    first, second, next_line = (area_slot(SOUTH, "gems", k, slots) for k in (0, 1, 3))
    assert first == [9.0, geo.TABLE_TOP_Y, -4.5]
    assert second == [9.5, geo.TABLE_TOP_Y, -4.5]
    assert next_line == [9.0, geo.TABLE_TOP_Y, -5.0]


def test_past_the_last_place_the_next_layer_lies_on_top() -> None:
    slots = area_slots(manifest())
    above = area_slot(SOUTH, "gems", 6, slots)
    assert above == [9.0, round(geo.TABLE_TOP_Y + 0.25, 4), -4.5]
    assert area_slot(SOUTH, "gems", 13, slots)[1] == round(geo.TABLE_TOP_Y + 0.5, 4)


@pytest.mark.parametrize("seat", [NORTH, WEST])
def test_a_turned_seats_places_turn_with_it(seat: dict[str, Any]) -> None:
    """right/forward are the seat's: the offsets turned as TTS turns objects (geometry)."""
    for right, forward in [(-1.0, 0.5), (2.0, 0.0), (0.3, -1.7)]:
        x, z = seat_point(seat, right, forward)
        dx, dz = geo.rotate_y(right, forward, seat["facing"])
        assert (x, z) == pytest.approx((seat["area"][0] + dx, seat["area"][1] + dz), abs=1e-4)


def test_the_script_seat_holds_one_layer_of_places_its_axes_and_upright() -> None:
    slots = area_slots(manifest())
    seen = script_seat(WEST, slots)
    assert seen["color"] == "Yellow" and seen["area"] == [-8.0, 0.0]
    assert [len(seen["places"][k]) for k in ("gems", "home")] == [6, 1]
    assert seen["places"]["gems"][4] == area_slot(WEST, "gems", 4, slots)[::2]
    assert seen["axes"]["right"] == pytest.approx(list(geo.rotate_y(1.0, 0.0, 90)))
    assert seen["axes"]["forward"] == pytest.approx(list(geo.rotate_y(0.0, 1.0, 90)))
    assert seen["upright"] == geo.reader_rot_y(90)


def test_the_places_spec_and_checks_refuse_bad_places() -> None:
    AREA_SLOTS.check(manifest()["area_slots"], "table.area_slots")
    bad = manifest()["area_slots"]
    bad["gems"]["per_line"] = 0
    with pytest.raises(FieldError, match=r"table\.area_slots\.gems\.per_line"):
        AREA_SLOTS.check(bad, "table.area_slots")
    unknown = manifest()
    unknown["area_slots"]["gems"]["kind"] = "ruby"
    with pytest.raises(FieldError, match=r"area_slots\.gems\.kind: no piece of kind 'ruby'"):
        check_area_slots(unknown)
    seatless = manifest()
    seatless["seats"] = [SOUTH, "Blue"]
    with pytest.raises(FieldError, match=r"table\.seats\[1\]: a seat with area places"):
        check_area_slots(seatless)
    check_area_slots(manifest())


def test_area_tracks_give_every_seat_its_first_places_as_its_own_track() -> None:
    """What a piece at every seat (``at: {seat_track: KIND}``) lies along: seat by seat."""
    slots = area_slots(manifest())
    tracks = area_tracks(manifest(), {"gems": 4, "home": 1})
    assert sorted(tracks) == ["gems:Blue", "gems:Red", "home:Blue", "home:Red"]
    assert tracks["gems:Blue"] == [tuple(area_slot(NORTH, "gems", k, slots)) for k in range(4)]
    assert tracks["home:Red"] == [tuple(area_slot(SOUTH, "home", 0, slots))]


def test_a_piece_at_every_seat_lies_along_its_kind_s_places() -> None:
    """``at: {seat_track: KIND}`` naming an ``area_slots`` kind: each seat's first places of
    it, one per object (here as many as the most players' rule gives, ``most: count``)."""
    workers = [{"players": [2], "count": 3}, {"players": [3], "count": 1}]
    data: dict[str, Any] = {"rules": {"workers": workers}, "table": manifest()}
    most = {"key": "rules.workers", "most": "count"}
    pawns = {"id": "pawns", "kind": "token", "count": most, "at": {"seat_track": "gems"}}
    data["table"]["pieces"].append(pawns)
    slots = area_slots(data["table"])
    tracks = seat_area_tracks(data, set())
    assert tracks["gems:Red"] == [tuple(area_slot(SOUTH, "gems", k, slots)) for k in range(3)]
    assert tracks["gems:Blue"] == [tuple(area_slot(NORTH, "gems", k, slots)) for k in range(3)]
    assert "home:Red" not in tracks  # no piece lies along it
    pawns["when"] = {"key": "rules.workers", "is": 0}
    assert "gems:Red" not in seat_area_tracks(data, set())  # a piece left off takes no places
    del pawns["when"]
    assert seat_area_tracks(data, {"gems"}) == {}  # a track of that name is the game's already
    pawns["count"] = {"key": "rules", "most": "count"}
    with pytest.raises(FieldError, match=r"table\.pieces\[1\]\.count\.key: 'rules' is not a li"):
        seat_area_tracks(data, set())
