"""Hypothesis input generators for each game's rule functions (used by verify and the tests).

One module per game (``arche_noah.py`` for ``arche-noah``) with
``strategies(config, players) -> {function name: SearchStrategy}`` and, where a variant is
chosen by an input key instead of the config, ``variant_input(data, variant) -> {key: value}``.
Generators are built from the game's own rule config, so a designer's change to the numbers
changes what is generated.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]


WRONG_TYPES = ("x", 1.5, [], {}, True, -1)  # what a malformed payload puts where a key was
MALFORMED_PERCENT = 5


def strategies_for(
    game_id: str, config: dict[str, Any], players: tuple[int, int], malformed: bool = False
) -> Strategies:
    """Every rule function's input generator for ``game_id``; with ``malformed``, some inputs
    lose a key or hold a value of the wrong type there (both engines must refuse them with the
    same rule_error code, or agree)."""
    found = _module(game_id).strategies(config, players)
    return {name: with_malformed(s) for name, s in found.items()} if malformed else found


def with_malformed(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``strategy``, with one top-level key of about MALFORMED_PERCENT % of its inputs dropped
    or given a value of the wrong type (the shrunk input is never malformed)."""

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        inp = draw(strategy)
        if not isinstance(inp, dict) or not inp:
            return inp
        if draw(st.integers(0, 99)) < 100 - MALFORMED_PERCENT:
            return inp
        key = draw(st.sampled_from(sorted(inp)))
        wrong = draw(st.sampled_from([None, *WRONG_TYPES]))
        inp = {k: v for k, v in inp.items() if k != key}
        if wrong is not None:
            inp[key] = wrong
        return inp

    return build()


def variant_input(game_id: str, data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """Input keys a variant's glue passes to the rule functions (``{}`` for most games, whose
    variants change the config instead)."""
    choose = getattr(_module(game_id), "variant_input", None)
    return {} if choose is None else choose(data, variant)


def _module(game_id: str) -> ModuleType:
    """The game's strategies module, as its registration names it."""
    from ..games import game  # the registry imports the game's build code on first use

    return importlib.import_module(game(game_id).strategies)
