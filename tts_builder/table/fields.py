"""The ``{field}`` filling of a manifest's text (names, notes, roster fields) and the fields a
seat or a card prints: one home, below every other table module."""

from __future__ import annotations

import re
from typing import Any

from ..save.tables import PLAYER_COLORS


def filled(text: str, fields: dict[str, Any]) -> Any:
    """``text`` with each known ``{field}`` printed; text that is one whole field is that
    field's value (a number stays a number in JSON notes)."""
    whole = re.fullmatch(r"\{(\w+)\}", text)
    if whole and whole.group(1) in fields:
        return fields[whole.group(1)]
    return printed(text, fields)


def printed(text: str, fields: dict[str, Any]) -> str:
    """``text`` with each known ``{field}`` printed, always as text (a board's words)."""
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), text)


def card_fields(entry: dict[str, Any]) -> dict[str, Any]:
    """The {fields} a card face may use: its roster entry's keys."""
    return dict(entry)


def seat_fields(color: str) -> dict[str, str]:
    """``seat`` (the colour's name) and ``seat_color`` (#rrggbb) of a seat colour."""
    r, g, b = (round(255 * c) for c in PLAYER_COLORS[color])
    return {"seat": color, "seat_color": f"#{r:02x}{g:02x}{b:02x}"}
