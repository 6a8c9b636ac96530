"""The shared seat checks of ``tts_builder.gamekit.checks``: seats in clockwise turn order round
a known table, each seat facing its own hand zone."""

from __future__ import annotations

import pytest

from tts_builder.errors import FieldError
from tts_builder.gamekit.checks import check_clockwise, check_facing_hands
from tts_builder.save.tables import HAND_PLACEMENTS

RPG = list(HAND_PLACEMENTS["Table_RPG"])  # the table's seats, clockwise


@pytest.mark.parametrize("start", range(len(RPG)))
def test_seats_in_the_tables_order_from_any_seat_pass(start: int) -> None:
    picked = [RPG[(start + k) % len(RPG)] for k in (0, 2, 3, 5)]
    check_clockwise("Table_RPG", picked)


def test_seats_against_the_tables_order_are_refused() -> None:
    with pytest.raises(FieldError) as error:
        check_clockwise("Table_RPG", [RPG[1], RPG[5], RPG[3]], "table.players")
    assert error.value.field == "table.players"
    assert "seats must run clockwise round Table_RPG" in str(error.value)


def test_two_seats_and_unknown_tables_are_not_checked() -> None:
    check_clockwise("Table_RPG", [RPG[3], RPG[1]])  # two seats run both ways round
    check_clockwise("Table_Unknown", ["Red", "Blue", "White"])


def test_a_seat_facing_its_hand_zone_passes_and_one_facing_away_is_refused() -> None:
    hands = HAND_PLACEMENTS["Table_RPG"]
    seats = [{"color": c, "facing": hands[c][1][1] + 360.4} for c in ("Red", "Yellow")]
    check_facing_hands(seats, "Table_RPG")
    seats[1]["facing"] = hands["Yellow"][1][1] + 180
    with pytest.raises(FieldError) as error:
        check_facing_hands(seats, "Table_RPG")
    assert error.value.field == "table.seats[1].facing"
    assert "Yellow's hand zone on Table_RPG faces" in str(error.value)


def test_a_seat_the_table_has_no_hand_zone_for_is_not_checked() -> None:
    check_facing_hands([{"color": "Red", "facing": 123.0}], "Table_Unknown")
