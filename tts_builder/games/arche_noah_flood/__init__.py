"""Arche Noah, the flood race (RULINGS §3, issue 3): its definition keys, map checks, rule
config and scripted TTS table.

The table is drawn from the definition: the board from ``map`` and the board style, the cards,
pieces and marker from their layouts, the movement-cost card from ``rules.costs``, the dice
from the dice faces, and every position from ``table`` and the board geometry
(:mod:`tts_builder.render.hexmap`), so snap points, pieces, flood tiles and the Ark zone line
up with the printed hexes. Variants: ``junior`` (symbol dice, no costs, no cards) and
``distinct-species`` (one card of each species is removed before the deal), each a data overlay
of ``rules`` (``mode: junior``, ``distinct_species: true``).

The parts: :mod:`.schema` (the definition keys), :mod:`.checks` (cross-field and map checks),
:mod:`.config` (terrain names, the rule config), :mod:`.table` (board geometry,
table positions, seats), :mod:`.cost_card` (the cost-card layout), :mod:`.art` (component
pictures), :mod:`.scene` (a build's shared state), :mod:`.pieces` (board, pieces, flood marker
and bag, Ark and hand zones), :mod:`.dice`, :mod:`.cards`, :mod:`.preview` (thumbnail and
preview sheet) and :mod:`.assemble` (the whole build).
"""

from __future__ import annotations

from ...plugin import Game
from .art import animal_fields
from .assemble import assemble
from .checks import MAX_BOARD_PX, check
from .config import rules_config
from .cost_card import cost_card_layout
from .dice import die_labels, die_rotation_values
from .schema import FIELDS, OPTIONAL
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
    "animal_fields",
    "assemble",
    "check",
    "cost_card_layout",
    "die_labels",
    "die_rotation_values",
    "geometry",
    "rules_config",
    "table_positions",
]
