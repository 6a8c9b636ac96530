"""Arche Noah, the flood race (RULINGS §3, issue 3): its definition keys, map checks, rule
config, and the hooks its table manifest (``table:`` in game.yaml, :mod:`tts_builder.table`)
takes from the map and the rules.

What lies on the table, where, with which tags, is the manifest's; the game's code draws the
board from ``map`` (:mod:`tts_builder.render.hexmap`), the cost card from ``rules.costs`` and
the dice from the rules' faces, and computes the points on the board (hex centres, start hexes,
the flood track, the Ark), so pieces, snap points, flood tiles and the Ark zone line up with
the printed hexes. Variants (``junior``, ``distinct-species``) overlay ``rules``; the pieces
the junior rules do not use are left off (``TableHooks.omit``).

The parts: :mod:`.schema` (the definition keys, terrain names, the rule config), :mod:`.checks`
(cross-field and map checks), :mod:`.cost_card` (the cost-card layout),
:mod:`.table` (board geometry, pictures, hooks, the script's positions) and :mod:`.assemble`.
"""

from __future__ import annotations

from ...plugin import Game
from .assemble import assemble
from .checks import MAX_BOARD_PX, check
from .cost_card import cost_card_layout
from .schema import FIELDS, OPTIONAL, rules_config
from .table import geometry, table_positions

GAME_ID = "arche-noah-flood"
STRATEGIES = "tts_builder.strategies.arche_noah_flood"  # its rule functions' input generators
#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble, strategies=STRATEGIES)

__all__ = [
    "FIELDS",
    "GAME",
    "GAME_ID",
    "MAX_BOARD_PX",
    "OPTIONAL",
    "assemble",
    "check",
    "cost_card_layout",
    "geometry",
    "rules_config",
    "table_positions",
]
