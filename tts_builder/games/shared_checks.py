"""Cross-field checks more than one game needs (not a game: it has no GAME_ID)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import FieldError


def check_seats(seats: list[dict[str, Any]], players_max: int) -> None:
    """At least one seat per player, each of its own colour."""
    if len(seats) < players_max:
        raise FieldError("table.seats", f"expected at least {players_max} seats, got {len(seats)}")
    colours = [seat["color"] for seat in seats]
    for index, colour in enumerate(colours):
        if colours.index(colour) != index:
            raise FieldError(f"table.seats[{index}].color", f"seat colour {colour} used twice")


def check_art_files(root: Path, art: Iterable[tuple[str, str]]) -> None:
    """Every ``(field, relative path)`` names an existing file under the game folder."""
    for field, rel in art:
        if not (root / rel).is_file():
            raise FieldError(field, f"art file not found: {root / rel}")
