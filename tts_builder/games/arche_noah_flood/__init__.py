"""Arche Noah, the flood race (RULINGS §3, issue 3): its definition keys, map checks, rule
config, and the hooks its table manifest (``table:`` in game.yaml, :mod:`tts_builder.table`)
takes from the map and the rules.

What lies on the table, where, with which tags, is the manifest's; the game's code draws the
board from ``map`` (:mod:`tts_builder.render.hexmap`), the cost card from ``rules.costs`` and
the dice from the rules' faces, and computes the points on the board (hex centres, start hexes,
the flood track, the Ark), so pieces, snap points, flood tiles and the Ark zone line up with
the printed hexes. Variants (``junior``, ``distinct-species``) overlay ``rules``; the pieces
the junior rules do not use are left off (each such piece's ``when`` in the manifest).

The parts: :mod:`.schema` (the definition keys: ``schema.yaml`` beside it, in the vocabulary of
:mod:`tts_builder.schema_yaml`; terrain names, the rule config), :mod:`.checks`
(cross-field and map checks), :mod:`.cost_card` (the cost-card layout),
:mod:`.table` (board geometry, pictures, hooks, the script's positions) and :mod:`.assemble`
(the scripts' context; :func:`tts_builder.table.game.build_table_game` builds the rest).
"""

from __future__ import annotations

from ...plugin import Game
from .assemble import assemble
from .checks import check
from .cost_card import cost_card_layout
from .schema import FIELDS, OPTIONAL, rules_config
from .table import geometry, table_positions

GAME_ID = "arche-noah-flood"
#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(
    GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble,
    strategies=f"{__name__}.strategies",
    play=f"{__name__}.play:FloodAdapter",
    balance=f"{__name__}.balance:Flood",
)  # fmt: skip

#: What other modules use: the game, and the rule config, geometry and positions the play
#: driver, the tests and the cost card's pictures read.
__all__ = ["GAME", "GAME_ID", "cost_card_layout", "geometry", "rules_config", "table_positions"]
