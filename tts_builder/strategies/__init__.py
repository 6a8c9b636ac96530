"""Hypothesis input generators for each game's rule functions (used by verify and the tests).

One module per game, its ``strategies`` part (``games/arche_noah/strategies.py`` for
``arche-noah``), with
``strategies(config, players) -> {function name: SearchStrategy}`` and, where a variant is
chosen by an input key instead of the config, ``variant_input(data, variant) -> {key: value}``.
Generators are built from the game's own rule config, so a designer's change to the numbers
changes what is generated.

A module may declare ``READS = {function name: (rule-config keys its generator reads, ...)}``,
each key a top-level name or a dotted path into nested mappings (``"setup.males"``). Builds
whose configs agree on those keys (a game's variants, mostly) get the same generator object, so
``verify`` draws its inputs once per game and runs them through every variant's Lua and Python
(:func:`tts_builder.verify.check_functions`). A function without an
entry reads the whole config: shared only between equal configs.

A module also declares ``PAYLOADS = {function name: shape}``: what an ``eval`` payload of each
function may hold (types, ranges, list sizes; :mod:`tts_builder.payload`), checked before any
engine runs. Every input the generators draw is within it (a test checks).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]
Reads = Mapping[str, tuple[str, ...]]

#: Generators handed out so far, by what they are built from (see :func:`generator_key`).
_SHARED: dict[str, st.SearchStrategy[Any]] = {}


WRONG_TYPES = ("x", 1.5, [], {}, True, -1)  # what a malformed payload puts where a key was
MALFORMED_PERCENT = 5


def strategies_for(
    game_id: str, config: dict[str, Any], players: tuple[int, int], malformed: bool = False
) -> Strategies:
    """Every rule function's input generator for ``game_id``; with ``malformed``, some inputs
    lose a key or hold a value of the wrong type there (both engines must refuse them with the
    same rule_error code, or agree)."""
    module = _module(game_id)
    reads: Reads = getattr(module, "READS", {})
    found = module.strategies(config, players)
    shared = {}
    for name, strategy in found.items():
        key = generator_key(game_id, name, config, reads.get(name), players, malformed)
        if key not in _SHARED:
            _SHARED[key] = with_malformed(strategy) if malformed else strategy
        shared[name] = _SHARED[key]
    return shared


def generator_key(
    game_id: str,
    name: str,
    config: Mapping[str, Any],
    reads: tuple[str, ...] | None,
    players: tuple[int, int],
    malformed: bool,
) -> str:
    """What a function's generator is built from: the game, the function, the values of the
    config keys it reads (``None``: every key), the player counts and ``malformed``."""
    keys = sorted(config) if reads is None else sorted(reads)
    read = {key: config_value(config, key) for key in keys}
    return json.dumps([game_id, name, read, list(players), malformed], sort_keys=True, default=str)


def config_value(config: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` of ``config`` (None where a step is missing)."""
    value: Any = config
    for step in path.split("."):
        value = value.get(step) if isinstance(value, Mapping) else None
    return value


def config_reads(game_id: str) -> Reads:
    """The config keys each rule function's generator of ``game_id`` declares it reads."""
    return getattr(_module(game_id), "READS", {})


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


def payload_shape(game_id: str, function: str) -> Any:
    """The shape of an ``eval`` payload of ``function`` (the module's ``PAYLOADS``; see
    :mod:`tts_builder.payload`), or None where the module declares none."""
    return getattr(_module(game_id), "PAYLOADS", {}).get(function)


def variant_input(game_id: str, data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """Input keys a variant's glue passes to the rule functions (``{}`` for most games, whose
    variants change the config instead)."""
    choose = getattr(_module(game_id), "variant_input", None)
    return {} if choose is None else choose(data, variant)


def _module(game_id: str) -> ModuleType:
    """The game's strategies module, as its registration names it."""
    from ..games import game  # the registry imports the game's build code on first use

    module = game(game_id).part("strategies")
    assert isinstance(module, ModuleType), f"{game_id} has no strategies"
    return module
