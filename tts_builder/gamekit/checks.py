"""Cross-field checks more than one game needs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import FieldError
from ..json_types import Data
from ..render.art_file import check_art_file
from ..save.tables import HAND_PLACEMENTS
from ..schema import player_count_rows as player_count_rows  # a by-player-count table's rows


def check_art_files(root: Path, art: Iterable[tuple[str, str]]) -> None:
    """Every ``(field, relative path)`` names an art file inside the game folder that is read
    within the art limits (:func:`tts_builder.render.art_file.check_art_file`: found, a
    regular file, its format its name's, its size and chunks within bounds)."""
    for field, rel in art:
        check_art_file(root, rel, field)


def unique_names(names: Sequence[str], field: str, message: str) -> None:
    """No name twice: the second one fails at ``field.format(index)`` with
    ``message.format(repr or name)`` (``{!r}`` in the message quotes it)."""
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise FieldError(field.format(index), message.format(name))


def check_clockwise(table: str, colours: Sequence[str], field: str = "table.seats") -> None:
    """Seat order is the clockwise turn order: on a table whose seats are known (FORMAT §5.2,
    listed clockwise), the colours must come in the table's order, starting from any seat.
    Colours the table does not seat are not checked here."""
    order = list(HAND_PLACEMENTS.get(table, {}))
    at = [order.index(c) for c in colours if c in order]
    if len(at) > 2 and sum(1 for a, b in zip(at, at[1:] + at[:1], strict=True) if b < a) != 1:
        raise FieldError(
            field, f"seats must run clockwise round {table} (its seats in turn: {', '.join(order)})"
        )


def check_facing_hands(seats: Sequence[Data], table: str, field: str = "table.seats") -> None:
    """Each seat's ``facing`` (``{color, facing}``) is its hand zone's rotY on ``table`` (within
    1°), so what reads upright for the seat faces its player; a seat the table places no hand
    zone for is not checked."""
    hands = HAND_PLACEMENTS.get(table, {})
    for index, seat in enumerate(seats):
        rot_y = hands[seat["color"]][1][1] if seat["color"] in hands else seat["facing"]
        if abs((seat["facing"] - rot_y + 180) % 360 - 180) > 1:
            raise FieldError(
                f"{field}[{index}].facing",
                f"{seat['color']}'s hand zone on {table} faces {rot_y:g}, not {seat['facing']:g}",
            )
