"""The balance view of each bundled game, by game id."""

from __future__ import annotations

from typing import Any

from ..errors import BuildError
from .arche_noah import ArcheNoah
from .ark import Ark
from .base import BalanceGame
from .flood import Flood

GAMES: dict[str, type[BalanceGame]] = {cls.game_id: cls for cls in (ArcheNoah, Flood, Ark)}


def balance_game(game_id: str, config: dict[str, Any], players: int, variant: str | None) -> Any:
    """The balance view of ``game_id`` for a rule config; a one-line error for other ids."""
    try:
        cls = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise BuildError(f"simulate: no bots for {game_id!r} (games: {known})") from None
    return cls(config, players, variant)
