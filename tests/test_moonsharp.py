"""The Lua TTS runs: MoonSharp 2.0.0.0 beside lupa, one interface (tts_builder.emulator.engines).

Every test here needs MoonSharp (``TTS_BUILDER_MOONSHARP`` naming its DLL, and Mono); without
it they are skipped with one reason. ``.ci/run`` sets it up when ``../shared/moonsharp/`` exists.
"""

from __future__ import annotations

from typing import Any

import pytest
from ark_seed import CONFIG
from hypothesis import HealthCheck, given, settings
from hypothesis import seed as with_seed

from tts_builder.emulator import EmulatedTable, LuaSandbox, LuaScriptError
from tts_builder.emulator.engines import default_engine, engine_note, new_sandbox, using
from tts_builder.emulator.moonsharp import MoonSharpSandbox, available
from tts_builder.lua.scripts import rules_source
from tts_builder.strategies import strategies_for
from tts_builder.verify import Engines, check_functions

WHY = available()
if WHY is not None:
    pytest.skip(f"MoonSharp not available: {WHY}", allow_module_level=True)

#: The Ark & Noah neighbour lists as the speed rewrite built them (LUA.md §8.1).
FIXED = """      a[#a + 1] = other
      a[#a + 1] = id
      b[#b + 1] = one
      b[#b + 1] = id
"""
OLD = """      a[#a + 1], a[#a + 2] = other, id
      b[#b + 1], b[#b + 2] = one, id
"""


@pytest.fixture(scope="module")
def moonsharp() -> MoonSharpSandbox:
    return MoonSharpSandbox(seed=3)


PLAYERS = (2, 4)


def source(config: dict[str, Any]) -> str:
    """Ark & Noah's rendered rules module."""
    return rules_source("ark-and-noah", {"config": config})


def first_input(strategy: Any) -> Any:
    """The first input a seeded strategy draws."""
    found: list[Any] = []

    @with_seed(0)
    @settings(max_examples=1, database=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(inp: Any) -> None:
        found.append(inp)

    draw()
    return found[0]


def ark_engines(text: str, lua: str) -> Engines:
    return Engines("ark-and-noah", CONFIG, "Rules = (function()\n" + text + "\nend)()\n", lua)


def test_the_engine_is_the_real_moonsharp_with_its_divergences(moonsharp: Any) -> None:
    lupa = LuaSandbox()
    trap = "local a = {} a[#a + 1], a[#a + 2] = 'x', 'y' return #a"
    assert lupa.run_chunk(trap, "trap") == 2
    assert moonsharp.run_chunk(trap, "trap") == 1  # target by target
    assert moonsharp.run_chunk("return 5 % -3", "mod") == -4
    assert moonsharp.run_chunk("return _VERSION", "v") == "MoonSharp 2.0.0.0"
    assert moonsharp.run_chunk("return io == nil and load == nil", "libs") is True


@pytest.mark.parametrize(
    "value",
    [
        {"objects": [{"GUID": "a1", "Transform": {"posX": -1.5, "rotY": 180}}], "n": -2},
        {"text": 'x[[y"\x01\\u0041 ]] --c', "name": "Löwe→𝄞", "nested": [[1, [2]], [[-3e-7]]]},
        [1, None, 3],
        {"kept": 1, "dropped": None},
        {1: "number key", "s": True},
    ],
)
def test_data_crosses_both_engines_alike(moonsharp: Any, value: Any) -> None:
    lupa = LuaSandbox()
    assert moonsharp.from_lua(moonsharp.to_lua(value)) == lupa.from_lua(lupa.to_lua(value))


def test_lua_errors_and_python_callbacks(moonsharp: Any) -> None:
    seen: list[Any] = []
    env = moonsharp.load_script(
        "function f(t) return tell(t.x, {1, 2}) end function g() error('rule_error:bad: no') end",
        "Global",
        {"tell": lambda x, t: seen.append((x, moonsharp.from_lua(t))) or (x, "two")},
    )
    assert moonsharp.call(env, "f", {"x": 7}) == 7
    assert seen == [(7, [1, 2])]
    with pytest.raises(LuaScriptError, match="rule_error:bad: no"):
        moonsharp.call(env, "g")


def test_pairs_skips_keys_set_to_nil(moonsharp: Any) -> None:
    """MoonSharp's own list of a table keeps keys set to nil; Lua's pairs does not."""
    result = moonsharp.run_chunk("local t = {1, 2, 3, 4} t[4] = nil table.remove(t) return t", "c")
    assert moonsharp.from_lua(result) == [1, 2]


def test_the_old_ark_rules_fail_in_moonsharp_and_the_fixed_ones_agree() -> None:
    """The regression: the neighbour lists built with one multiple assignment passed every
    lupa check and crashed every grid function in MoonSharp."""
    text = source(CONFIG)
    assert text.count(FIXED) == 1
    old = text.replace(FIXED, OLD)
    inp = first_input(strategies_for("ark-and-noah", CONFIG, PLAYERS)["build_spots"])
    in_lupa = ark_engines(old, "lupa")
    assert in_lupa.lua("build_spots", inp) == in_lupa.python("build_spots", inp)
    broken = ark_engines(old, "moonsharp").lua("build_spots", inp)
    assert "attempt to get length of a nil value" in broken.get("crash", ""), broken
    fixed = ark_engines(text, "moonsharp")
    assert fixed.lua("build_spots", inp) == fixed.python("build_spots", inp)


def test_check_functions_reports_a_moonsharp_only_difference() -> None:
    """With both engines, a difference between lupa and MoonSharp fails even where each
    agrees with rules_ref in lupa: the old Ark rules, shrunk to a smallest input."""
    old = source(CONFIG).replace(FIXED, OLD)
    builds = [ark_engines(old, "lupa"), ark_engines(old, "moonsharp")]
    strategy = strategies_for("ark-and-noah", CONFIG, PLAYERS)["build_spots"]
    lupa, moon = check_functions(builds, "build_spots", strategy, 20, seed=1)
    assert lupa.mismatch is None
    assert moon.mismatch is not None and moon.mismatch.engine == "moonsharp"
    assert "MoonSharp" in moon.mismatch.describe()


def test_the_engine_is_chosen_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TTS_BUILDER_LUA", raising=False)
    assert default_engine() == "lupa"
    with using("moonsharp"):
        assert new_sandbox().engine == "moonsharp"
        assert "MoonSharp 2.0.0.0" in engine_note([default_engine()])
    assert new_sandbox().engine == "lupa"


@pytest.mark.parametrize("game", ["arche-noah", "ark-and-noah"])
def test_a_table_loads_and_sets_up_alike_in_both_engines(game: str) -> None:
    from conftest import build

    built = build(game)
    seen = {}
    for lua in ("lupa", "moonsharp"):
        table = EmulatedTable(built.save, seed=2, images=built.files, lua=lua)
        table.seat(["White", "Red"] if game == "arche-noah" else ["Red", "Yellow"])
        table.load()
        table.click_ui("White" if game == "arche-noah" else "Red", "setup")
        seen[lua] = (table.engine, sorted(o["guid"] for o in table.objects()), table.errors)
    assert seen["moonsharp"][0] == "moonsharp"
    assert seen["moonsharp"][1:] == seen["lupa"][1:]


VARIANTS = [
    ("arche-noah", None),
    ("arche-noah-flood", None),
    ("arche-noah-flood", "junior"),
    ("arche-noah-flood", "distinct-species"),
    ("ark-and-noah", None),
    ("ark-and-noah", "family"),
    ("prototype", None),
]
#: Inputs per Rules function in each engine (`tts-builder verify --lua both` draws 2,000).
EXAMPLES = 200


@pytest.mark.parametrize(("game", "variant"), VARIANTS)
def test_every_rules_function_agrees_in_moonsharp_lupa_and_rules_ref(
    game: str, variant: str | None
) -> None:
    from conftest import build

    from tts_builder.games import game_module

    built = build(game, variant=variant)
    config = game_module(built.engine).rules_config(built.definition.data, variant)
    builds = [Engines(built.engine, config, built.global_script, e) for e in ("lupa", "moonsharp")]
    generators = strategies_for(built.engine, config, built.definition.players, malformed=True)
    names = builds[1].names()
    assert names and set(names) == set(builds[1].lua_names()) == set(generators)
    for name in names:
        lupa, moon = check_functions(builds, name, generators[name], EXAMPLES, seed=0)
        assert lupa.mismatch is None, lupa.mismatch.describe()
        assert moon.mismatch is None, moon.mismatch.describe()


#: One complete game per game and variant on the table in MoonSharp (the driver loads a save
#: taken mid-step one step in six, and injects forbidden moves), the seed's milestones with it:
#: short games that reach them (Ark & Noah's seed 8 in 2 s of lupa; `verify --table` plays more).
TABLE_GAMES = [
    ("arche-noah", None, 0, {"play-through 2", "phase scored"}),
    ("arche-noah-flood", None, 0, {"phase over"}),
    ("arche-noah-flood", "junior", 0, {"phase over"}),
    ("arche-noah-flood", "distinct-species", 0, {"phase over"}),
    ("ark-and-noah", None, 8, {"a completed enclosure", "a loaded pair", "phase deluge",
                               "final scoring"}),
    ("ark-and-noah", "family", 3, {"a completed enclosure", "a loaded pair", "final scoring"}),
]  # fmt: skip


@pytest.mark.parametrize(("game", "variant", "seed", "milestones"), TABLE_GAMES)
def test_a_whole_table_game_in_moonsharp_matches_rules_ref_at_every_step(
    game: str, variant: str | None, seed: int, milestones: set[str]
) -> None:
    from conftest import build

    from tts_builder.play import adapter_factory
    from tts_builder.play.driver import play_many

    built = build(game, variant=variant)
    make = adapter_factory(game, built.save, built.files, built.definition.data, variant)
    with using("moonsharp"):
        run = play_many(make, range(seed, seed + 1), budget=0)
    assert run.failure is None, run.failure.describe()
    assert milestones <= set(run.reached), run.reached
    assert any(name.startswith("Rules.") for name in run.reached)
