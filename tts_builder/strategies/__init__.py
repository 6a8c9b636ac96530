"""Hypothesis input generators for each game's rule functions (used by verify and the tests).

One module per game (``arche_noah.py`` for ``arche-noah``) with
``strategies(config, players) -> {function name: SearchStrategy}``. Generators are built from
the game's own rule config, so a designer's change to the numbers changes what is generated.
"""

from __future__ import annotations

import importlib
from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]


def strategies_for(game_id: str, config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Every rule function's input generator for ``game_id``."""
    module = importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
    return module.strategies(config, players)
