"""Ark & Noah (RULINGS §2, seed 002): definition keys, cross-checks, rule config and TTS tables.

One save serves 2-4 players (``ark-and-noah.json``): it holds every colour's pieces and the Ark
laid out for four; Setup reads who is seated, builds the Ark for them, deals their starting
pieces and animals at random and puts the rest away. The family variant is its own save.

The parts: ``schema`` and ``checks`` (the definition), ``rules`` and ``tiles`` (rule numbers,
action texts, the animal tiles), ``boards`` (the pictures drawn from the rule numbers and what
the table manifest lays with them: the game's ``TableHooks``), ``action_board`` (its columns),
``places`` (rows of places beside the boards), ``grid`` and ``ark`` (the Ark: a board of square
cells in sections per player count, the table's ``grids``), ``areas`` (each seat's area places,
the table's ``area_slots``), ``context`` (what the script knows of the laid table),
``positions`` (the script's positions and the printed cells they mean) and ``assemble`` (the
build; the thumbnail and preview are the table's, ``table.preview``). The keys ``grids``,
``area_slots``, ``area_size`` and ``seat_fields`` of its ``table`` are its own (``schema.yaml``),
beside the shared manifest's (:mod:`tts_builder.table`: pieces, printed boards and tracks,
derived counts and rosters, what a script knows of a bag's tiles).
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
