"""Ark & Noah (RULINGS §2, seed 002): definition keys, cross-checks, rule config and TTS tables.

One build holds a save per player count (``ark-and-noah-2p.json``, ``-3p``, ``-4p``, each with
its thumbnail beside it): the Ark, the bags and the player areas differ. ``GameBuild.save`` is
the largest (4-player) one. Pictures are rendered once and shared by every player count and
by the family variant (the action board is one double-sided tile).

The parts: ``schema`` (definition keys), ``checks`` (cross-field checks), ``rules`` (rule
numbers, action texts), ``tiles`` (animal tiles, starting deal), ``table`` (table geometry),
``art`` (pictures), ``boards`` / ``animals`` / ``pieces`` (objects on the table) and
``assemble`` (the build).
"""

from __future__ import annotations

from .assemble import assemble
from .checks import check
from .rules import action_texts, rules_config
from .schema import FIELDS, OPTIONAL
from .table import AREA_SPOTS, seat_point, table_points
from .tiles import starting_deal, tile_fields, tile_list

GAME_ID = "ark-and-noah"

__all__ = [
    "AREA_SPOTS",
    "FIELDS",
    "GAME_ID",
    "OPTIONAL",
    "action_texts",
    "assemble",
    "check",
    "rules_config",
    "seat_point",
    "starting_deal",
    "table_points",
    "tile_fields",
    "tile_list",
]
