"""The registry of games: engine id -> its :class:`~tts_builder.plugin.Game`.

To add a game (in this package or any other): its module defines ``GAME = Game(...)`` (the
contract, :mod:`tts_builder.plugin`), and one entry ``<module>.GAME`` in :data:`REGISTERED`
below registers it (plus the import of its module). Nothing is discovered by file name;
``tests/test_plugin_contract.py`` fails when a module defines a ``Game`` that is not
registered, or a bundled definition or ``lua_templates/`` folder names an engine that is not.
"""

from __future__ import annotations

from ..errors import BuildError
from ..plugin import Game
from . import arche_noah, arche_noah_flood, ark_and_noah, prototype

#: Every game, one line each (build order is alphabetical by id, whatever the order here).
REGISTERED: tuple[Game, ...] = (
    arche_noah.GAME,
    arche_noah_flood.GAME,
    ark_and_noah.GAME,
    prototype.GAME,
)

_BY_ID: dict[str, Game] = {game.id: game for game in REGISTERED}
if len(_BY_ID) != len(REGISTERED):  # pragma: no cover - a registration mistake
    raise RuntimeError("two registered games share an id")


def game_ids() -> list[str]:
    """Every registered game id, in build order (alphabetical)."""
    return sorted(_BY_ID)


def game(game_id: str) -> Game:
    """The game registered as ``game_id``; a one-line error for an unknown id."""
    try:
        return _BY_ID[game_id]
    except KeyError:
        known = ", ".join(game_ids())
        raise BuildError(f"unknown game {game_id!r} (bundled games: {known})") from None


#: The old name of :func:`game` (it returned a module before games were typed).
game_module = game
