"""Cross-field checks more than one game needs."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from ..errors import FieldError
from ..json_types import Data


def check_seats(seats: list[Data], players_max: int) -> None:
    """At least one seat per player, each of its own colour."""
    if len(seats) < players_max:
        raise FieldError("table.seats", f"expected at least {players_max} seats, got {len(seats)}")
    colours = [seat["color"] for seat in seats]
    unique_names(colours, "table.seats[{}].color", "seat colour {} used twice")


def check_art_files(root: Path, art: Iterable[tuple[str, str]]) -> None:
    """Every ``(field, relative path)`` names an existing file under the game folder."""
    for field, rel in art:
        if not (root / rel).is_file():
            raise FieldError(field, f"art file not found: {root / rel}")


def unique_names(names: Sequence[str], field: str, message: str) -> None:
    """No name twice: the second one fails at ``field.format(index)`` with
    ``message.format(repr or name)`` (``{!r}`` in the message quotes it)."""
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise FieldError(field.format(index), message.format(name))


def player_count_rows(entries: list[Data], path: str, low: int, high: int) -> dict[int, int]:
    """Each player count from ``low`` to ``high`` mapped to the index of the one row of a
    by-player-count table (``[{players: [..], ...}]``) that covers it."""
    seen: dict[int, int] = {}
    for index, entry in enumerate(entries):
        for j, count in enumerate(entry["players"]):
            if count in seen:
                raise FieldError(f"{path}[{index}].players[{j}]", f"{count} players listed twice")
            seen[count] = index
    for count in range(low, high + 1):
        if count not in seen:
            raise FieldError(path, f"no entry for {count} players")
    return seen
