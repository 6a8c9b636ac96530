"""Hypothesis input generators for each game's rule functions (used by verify and the tests).

One module per game (``arche_noah.py`` for ``arche-noah``) with
``strategies(config, players) -> {function name: SearchStrategy}`` and, where a variant is
chosen by an input key instead of the config, ``variant_input(data, variant) -> {key: value}``.
Generators are built from the game's own rule config, so a designer's change to the numbers
changes what is generated.
"""

from __future__ import annotations

import importlib
from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]


def strategies_for(game_id: str, config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Every rule function's input generator for ``game_id``."""
    return _module(game_id).strategies(config, players)


def variant_input(game_id: str, data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """Input keys a variant's glue passes to the rule functions (``{}`` for most games, whose
    variants change the config instead)."""
    choose = getattr(_module(game_id), "variant_input", None)
    return {} if choose is None else choose(data, variant)


def _module(game_id: str) -> Any:
    return importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
