"""The registry of games: engine id -> its :class:`~tts_builder.plugin.Game`, the one place a
game is registered.

A game is one folder, ``games/<engine>/``: its ``__init__`` defines ``GAME = Game(...)`` (the
contract, :mod:`tts_builder.plugin`) from its schema, checks and assembly, and names the parts
a build never imports (``strategies.py``, ``play.py``, ``balance.py`` beside it), which
``verify``, the table driver and ``simulate`` import through :meth:`Game.part
<tts_builder.plugin.Game.part>`. One line ``id: module`` in :data:`MODULES` below registers
it. A game's module (its art, its assembly) is imported only when that game is asked for, so a
build of one game, or one with nothing to rebuild, does not pay for the others.
:data:`REGISTERED` (every game) imports them all. Nothing is discovered by file name;
``tests/test_plugin_contract.py`` fails when a module defines a ``Game`` that is not
registered, when a registered module's game has another id, or when a bundled definition or
``lua_templates/`` folder names an engine that is not.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

from ..errors import BuildError

if TYPE_CHECKING:
    from ..plugin import Game

#: Every game, one line each: its id and the module defining its ``GAME`` (relative to this
#: package when it starts with a dot). Build order is alphabetical by id, whatever the order here.
MODULES: dict[str, str] = {
    "arche-noah": ".arche_noah",
    "arche-noah-flood": ".arche_noah_flood",
    "ark-and-noah": ".ark_and_noah",
    "prototype": ".prototype",
}


def game_ids() -> list[str]:
    """Every registered game id, in build order (alphabetical)."""
    return sorted(MODULES)


def game(game_id: str) -> Game:
    """The game registered as ``game_id`` (its module imported now, once); a one-line error
    for an unknown id."""
    if game_id not in MODULES:
        known = ", ".join(game_ids())
        raise BuildError(f"unknown game {game_id!r} (bundled games: {known})")
    found: Game = import_module(MODULES[game_id], __name__).GAME
    if found.id != game_id:  # pragma: no cover - a registration mistake
        raise RuntimeError(f"{MODULES[game_id]} defines the game {found.id!r}, not {game_id!r}")
    return found


def __getattr__(name: str) -> object:
    """``REGISTERED``: every game (importing each game's module)."""
    if name == "REGISTERED":
        return tuple(game(game_id) for game_id in MODULES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The old name of :func:`game` (it returned a module before games were typed).
game_module = game
