"""The registry of bundled games: game id -> the module that validates and assembles it.

A game module provides ``FIELDS`` and ``OPTIONAL`` (its definition keys beyond the common
header), ``check(data, root)`` (cross-field checks raising FieldError), ``rules_config(data)``
(the JSON-shaped rule numbers shared by rules_ref and the Lua) and ``assemble(...)``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import BuildError

#: Bundled games in build order, with the Python module that knows each one's table.
GAMES: dict[str, str] = {
    "arche-noah": "tts_builder.games.arche_noah",
}


def game_ids() -> list[str]:
    """Every bundled game id."""
    return list(GAMES)


def game_module(game_id: str) -> ModuleType:
    """The module for ``game_id``; a one-line error for an unknown id."""
    try:
        return importlib.import_module(GAMES[game_id])
    except KeyError:
        known = ", ".join(GAMES)
        raise BuildError(f"unknown game {game_id!r} (bundled games: {known})") from None
