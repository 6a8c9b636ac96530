"""verify draws each rule function's inputs once per game: variants whose configs agree on the
keys a generator reads share it, a passing check's inputs are run through the next variant's
builds instead of being drawn again, and a bug in one variant's Lua is still found and shrunk."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import build
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as with_seed
from hypothesis import strategies as st

from tts_builder import verify
from tts_builder.definition import load_definition
from tts_builder.games import game_module
from tts_builder.strategies import _module, config_reads, config_value, strategies_for
from tts_builder.verify import Engines, check_functions

FLOOD = "arche-noah-flood"


def _configs(game: str) -> dict[str | None, dict[str, Any]]:
    definition = load_definition(game)
    rules = game_module(definition.rules_engine).rules_config
    return {v: rules(definition.data, v) for v in [None, *definition.variants]}


def _engines(game: str, variant: str | None) -> Engines:
    result = build(game, variant=variant)
    config = game_module(result.engine).rules_config(result.definition.data, variant)
    return Engines(result.engine, config, result.global_script)


def _with_values(config: dict[str, Any], base: dict[str, Any], paths: tuple[str, ...]) -> Any:
    """A copy of ``config`` holding ``base``'s values at each dotted path."""
    out = copy.deepcopy(config)
    for path in paths:
        *parents, last = path.split(".")
        into, source = out, base
        for step in parents:
            into, source = into[step], source[step]
        into[last] = copy.deepcopy(source[last])
    return out


def _drawn(strategy: Any, count: int, seed: int = 1) -> list[str]:
    found: list[str] = []

    @with_seed(seed)
    @settings(max_examples=count, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def collect(inp: Any) -> None:
        found.append(json.dumps(inp, sort_keys=True, default=str))

    collect()
    return found


def test_the_flood_races_variants_share_every_generator() -> None:
    players = load_definition(FLOOD).players
    made = [strategies_for(FLOOD, c, players, malformed=True) for c in _configs(FLOOD).values()]
    assert len(made) == 3
    for name, generator in made[0].items():
        assert all(other[name] is generator for other in made[1:]), name


def test_ark_and_noah_family_shares_the_generators_that_read_nothing_it_changes() -> None:
    configs = _configs("ark-and-noah")
    players = load_definition("ark-and-noah").players
    base, family = (strategies_for("ark-and-noah", c, players) for c in configs.values())
    reads = config_reads("ark-and-noah")
    shared = {name for name in base if base[name] is family[name]}
    expected = {
        name
        for name, keys in reads.items()
        if all(config_value(configs[None], k) == config_value(configs["family"], k) for k in keys)
    }
    assert shared == expected and len(shared) >= 15
    assert "players_entry" not in reads and "players_entry" not in shared  # reads everything


@pytest.mark.parametrize("game", ["arche-noah-flood", "ark-and-noah"])
def test_declared_reads_are_all_a_generator_reads(game: str) -> None:
    """A variant's config with the declared keys set back to the game's values draws exactly
    the game's inputs: the undeclared keys it changes make no difference."""
    configs = _configs(game)
    players = load_definition(game).players
    module = _module(game)
    base = configs[None]
    games = module.strategies(base, players)
    assert set(config_reads(game)) <= set(games)  # no stray name
    ours: dict[str, list[str]] = {}  # the game's inputs, drawn once for all its variants
    for variant, config in configs.items():
        if variant is None:
            continue
        for name, keys in config_reads(game).items():
            hybrid = _with_values(config, base, keys)
            if name not in ours:
                ours[name] = _drawn(games[name], 25)
            theirs = module.strategies(hybrid, players)[name]
            assert ours[name] == _drawn(theirs, 25), (variant, name)


def test_a_passing_checks_inputs_are_run_again_not_drawn_again(arche_noah_build: Any) -> None:
    script = arche_noah_build.save["LuaScript"]
    config = game_module("arche-noah").rules_config(arche_noah_build.definition.data)
    calls = []
    counted = st.fixed_dictionaries({"purple": st.integers(0, 9)}).map(
        lambda inp: calls.append(1) or inp
    )
    first = Engines("arche-noah", config, script)
    [outcome] = check_functions([first], "bid_range", counted, 30, 0)
    drawn = len(calls)
    assert outcome.mismatch is None and drawn >= outcome.tried > 5
    other = Engines("arche-noah", {**config, "unread": 1}, script)  # as another variant's
    [again] = check_functions([other], "bid_range", counted, 30, 0)
    assert len(calls) == drawn and again.tried == outcome.tried and again.mismatch is None
    [reseeded] = check_functions([other], "bid_range", counted, 30, 1)
    assert len(calls) > drawn and reseeded.mismatch is None  # another seed: drawn afresh


def _plant_bug(engines: Engines, name: str, lua_condition: str) -> None:
    """Make the variant's shipped ``Rules.<name>`` answer ``{}`` when ``lua_condition`` holds."""
    wrap = engines.sandbox.runtime.eval(
        f"function(orig) return function(inp) if {lua_condition} then return {{}} end "
        "return orig(inp) end end"
    )
    engines.env["Rules"][name] = wrap(engines.env["Rules"][name])


@pytest.mark.parametrize("buggy", [None, "junior", "distinct-species"])
def test_a_bug_planted_in_one_variants_lua_is_caught_and_shrunk(buggy: str | None) -> None:
    verify.forget_drawn_inputs()
    variants = [None, "junior", "distinct-species"]
    built = {v: _engines(FLOOD, v) for v in variants}
    _plant_bug(built[buggy], "payment", "type(inp.cost) == 'number' and inp.cost == 7")
    players = load_definition(FLOOD).players
    results = {}
    for v in variants:  # as `tts-builder verify` checks them: one variant after the other
        generators = strategies_for(FLOOD, built[v].config, players, malformed=True)
        [results[v]] = check_functions([built[v]], "payment", generators["payment"], 200, 0)
    for v in variants:
        mismatch = results[v].mismatch
        if v != buggy:
            assert mismatch is None, (v, mismatch and mismatch.describe())
            continue
        assert mismatch is not None and mismatch.lua == []
        assert mismatch.input["cost"] == 7 and mismatch.input["points"] == 0, mismatch.input
