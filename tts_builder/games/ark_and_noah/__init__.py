"""Ark & Noah (RULINGS §2, seed 002): definition keys, cross-checks, rule config and TTS tables.

One save serves 2-4 players (``ark-and-noah.json``): it holds every colour's pieces and the Ark
laid out for four; Setup reads who is seated, builds the Ark for them, deals their starting
pieces and animals at random and puts the rest away. The family variant is its own save.

The parts: ``schema`` and ``checks`` (the definition), ``rules`` and ``tiles`` (rule numbers,
action texts, the animal tiles), ``boards`` (the pictures drawn from the rule numbers, what the
table manifest lays with them and the action spaces), ``positions`` (the script's positions and
the printed cells they mean) and ``assemble`` (the build; the thumbnail and preview are the
table's, ``table.preview``).
The generic parts are :mod:`tts_builder.table`'s: the manifest, seat areas (``table.areas``),
the Ark as a grid board of sections (``table.grid``, ``table.grid_table``), printed boards
and their columns (``table.printed``, ``table.columns``), rows of places (``table.lines``),
derived counts and rosters (``table.derived``), the script context's generic part
(``table.context``) and what a script knows of a bag's tiles (``table.contents``).
"""

from __future__ import annotations

from ...plugin import Game
from .assemble import assemble
from .checks import check
from .positions import positions_on
from .rules import rules_config
from .schema import FIELDS, OPTIONAL

GAME_ID = "ark-and-noah"
#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(
    GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble, positions_on,
    strategies=f"{__name__}.strategies",
    play=f"{__name__}.play:ArkAdapter",
    balance=f"{__name__}.balance:Ark",
)  # fmt: skip

__all__ = ["GAME", "GAME_ID"]
