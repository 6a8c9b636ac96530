"""The flood race's pure Lua rules (lua_templates/arche-noah-flood/rules.lua.j2) vs rules_ref."""

from __future__ import annotations

import contextlib
import copy
from typing import Any

import pytest
from flood_seed import COLS, CONFIG, DEFINITION, GAME, MAP, ROWS, SPECIES, chain
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from lupa import lua52
from strict_lua import StrictRules

from rules_ref import arche_noah_flood as F
from tts_builder.emulator import from_lua
from tts_builder.games.arche_noah_flood.strategies import generated_maps
from tts_builder.lua.lint import lint
from tts_builder.lua.scripts import rules_source
from tts_builder.strategies import strategies_for
from tts_builder.verify import Engines, check_function, normalize, python_outcome, refused

LETTERS = sorted(CONFIG["terrain"])
LuaRules = StrictRules


def python(name: str, inp: Any, config: dict[str, Any] = CONFIG) -> Any:
    """rules_ref's outcome, as the verifier sees it (a refusal as ``{"rule_error": code}``)."""
    return python_outcome(F.FUNCTIONS[name], config, inp)


SOURCE = rules_source(GAME, {"config": CONFIG})
RULES = LuaRules(SOURCE)


def cost(animal: str, frm, to, game_map=None, **extra) -> dict:
    """Lua move_cost, un-normalised back to rules_ref's shape (cost null when absent)."""
    inp = {"animal": animal, "from": list(frm), "to": to if to == "ark" else list(to), **extra}
    if game_map is not None:
        inp["map"] = game_map
    got = RULES("move_cost", inp)
    assert got == python("move_cost", inp)
    return {"cost": got.get("cost"), "path": got["path"]} if got else {"cost": None, "path": []}


# --------------------------------------------------------------------------------------------
# The module itself


def test_rules_module_is_lint_clean_and_pure() -> None:
    assert lint(SOURCE, "rules") == []
    functions = {k for k, v in RULES.module.items() if lua52.lua_type(v) == "function"}
    assert functions == set(F.FUNCTIONS)  # helpers stay local: every function is a rule
    assert RULES.module["ARK"] == "ark"
    assert from_lua(RULES.module["CONFIG"]) == normalize(CONFIG)


def test_the_config_is_read_from_the_definition() -> None:
    config = copy.deepcopy(CONFIG)
    config["ark_entry_cost"] = 4
    config["costs"]["Camel"]["mountain"] = 7
    rules = LuaRules(rules_source(GAME, {"config": config}))
    stair = MAP["stairs"][0]
    assert rules("move_cost", {"animal": "Camel", "from": stair, "to": "ark"}) == {
        "cost": 4,
        "path": [stair],
    }
    assert rules("move_cost", {"animal": "Camel", "from": [0, 4], "to": [0, 5]})["cost"] == 7


# --------------------------------------------------------------------------------------------
# Seed examples (issue 3 "Tests that must exist"), in Lua


def test_camel_onto_a_mountain_costs_3() -> None:
    assert MAP["terrain"][0][5] == "M" and MAP["terrain"][0][4] == "P"
    assert cost("Camel", (0, 4), (0, 5)) == {"cost": 3, "path": [[0, 4], [0, 5]]}
    assert cost("Giraffe", (0, 4), (0, 5))["cost"] == 2
    assert cost("Hippo", (0, 4), (0, 5)) == {"cost": None, "path": []}


def test_elephant_across_the_river_into_forest_costs_5() -> None:
    assert cost("Elephant", (0, 0), (1, 0), chain("PFP", river_after=0))["cost"] == 5
    assert cost("Elephant", (4, 2), (5, 2)) == {"cost": 3, "path": [[4, 2], [4, 3], [5, 2]]}
    blocked = cost("Elephant", (4, 2), (5, 2), occupied=[[4, 3]])
    assert blocked == {"cost": 5, "path": [[4, 2], [5, 2]]}


def test_camel_and_giraffe_cross_only_at_fords() -> None:
    river = chain("PPP", river_after=0)
    ford = chain("PPP", river_after=0, ford=True)
    for animal in ("Camel", "Giraffe"):
        assert cost(animal, (0, 0), (1, 0), river)["cost"] is None
        assert cost(animal, (0, 0), (1, 0), ford)["cost"] == 1
    assert cost("Hippo", (0, 0), (1, 0), river)["cost"] == 2
    assert cost("Eagle", (0, 0), (1, 0), river)["cost"] == 1
    rivers = {frozenset(map(tuple, e)) for e in MAP["rivers"]}
    fords = {frozenset(map(tuple, e)) for e in MAP["fords"]}
    for animal in ("Camel", "Giraffe"):
        for start in MAP["starts"]:
            path = cost(animal, start, "ark")["path"]
            steps = zip(path, path[1:], strict=False)
            crossed = {frozenset((tuple(a), tuple(b))) for a, b in steps} & rivers
            assert crossed and crossed <= fords


def test_eagle_flies_over_animals_and_never_enters_swamp() -> None:
    row = {"terrain": ["PPP"], "rivers": [], "fords": [], "stairs": [[0, 2]]}
    assert cost("Eagle", (0, 0), (0, 2), row, occupied=[[0, 1]]) == {
        "cost": 2,
        "path": [[0, 0], [0, 1], [0, 2]],
    }
    assert cost("Elephant", (0, 0), (0, 2), row, occupied=[[0, 1]])["cost"] is None
    assert cost("Eagle", (0, 0), (0, 1), row, occupied=[[0, 1]])["cost"] is None
    swamp = {"terrain": ["PSP"], "rivers": [], "fords": [], "stairs": [[0, 2]]}
    assert cost("Eagle", (0, 0), (0, 2), swamp)["cost"] is None
    assert cost("Eagle", (0, 0), (0, 1), swamp)["cost"] is None
    assert cost("Hippo", (0, 0), (0, 2), swamp)["cost"] == 2
    assert cost("Eagle", (0, 0), (0, 2), row, flooded=[[0, 1]])["cost"] is None


def test_no_step_away_from_the_ark_in_the_last_three_rows() -> None:
    line = chain("PPPPP")
    assert cost("Eagle", (1, 0), (0, 0), line)["cost"] == 1
    assert cost("Eagle", (2, 0), (1, 0), line)["cost"] is None
    assert cost("Eagle", (4, 0), (3, 0), line)["cost"] is None
    assert cost("Eagle", (3, 0), (4, 0), line)["cost"] == 1
    assert cost("Eagle", (7, 3), (6, 3))["cost"] is None
    assert cost("Eagle", (6, 3), (5, 3))["cost"] == 1
    assert cost("Eagle", (8, 5), (8, 8)) == {"cost": 3, "path": [[8, 5], [8, 6], [8, 7], [8, 8]]}
    assert cost("Eagle", (8, 2), (8, 5))["cost"] is None


def test_entering_the_ark_costs_1() -> None:
    for animal in SPECIES:
        for stair in MAP["stairs"]:
            assert cost(animal, stair, "ark") == {"cost": 1, "path": [stair]}
    assert cost("Elephant", (9, 2), "ark") == {"cost": 2, "path": [[9, 2], [9, 1]]}
    assert cost("Eagle", (9, 2), "ark", flooded=[[9, 1]]) == {
        "cost": 3,
        "path": [[9, 2], [9, 3], [9, 4]],
    }


def test_junior_every_hex_costs_1_anywhere() -> None:
    river = chain("PSMP", river_after=0)
    for animal in SPECIES:
        got = cost(animal, (0, 0), "ark", river, variant="junior")
        assert got == {"cost": 4, "path": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    assert cost("Camel", (0, 0), "ark", river)["cost"] is None


def test_issue_examples_of_the_other_functions() -> None:
    assert RULES("dice_effect", {"values": ["3", "0"]}) == {"points": 3, "sun": 0, "water": 0}
    assert RULES("dice_effect", {"values": [5, "5"]})["points"] == 10
    junior = {"variant": "junior"}
    assert RULES("dice_effect", {"values": ["sun", "water"], **junior}) == {
        "points": 0,
        "sun": 1,
        "water": 1,
    }
    assert RULES("dice_effect", {"values": ["2", "sun"], **junior}) == {
        "points": 2,
        "sun": 1,
        "water": 0,
    }
    for bad in ({"values": ["6", "1"]}, {"values": ["sun", "1"]}, {"values": [2.5]}):
        assert RULES.safe("dice_effect", bad) == refused("not_a_face") == python("dice_effect", bad)
    assert RULES.safe("dice_effect", {}) == refused("missing_input") == python("dice_effect", {})
    assert RULES("flood_advance", {"row": 0, "col": 0, "rolls": [7, 2]}) == {
        "row": 0,
        "col": 9,
        "newly_flooded": [[0, c] for c in range(9)],
    }
    assert RULES("flood_advance", {"row": 0, "col": 9, "rolls": [5]}) == {
        "row": 1,
        "col": 2,
        "newly_flooded": [[0, 9], [0, 10], [0, 11], [1, 0], [1, 1]],
    }
    north_banks = [[4, 1], [4, 3], [5, 6], [5, 7], [5, 9], [5, 11]]
    assert RULES("reaches_ark", {"animal": "Camel", "at": [3, 2], "flooded": north_banks}) == {
        "reachable": False,
    }
    assert RULES("reaches_ark", {"animal": "Hippo", "at": [3, 2], "flooded": north_banks}) == {
        "reachable": True,
    }
    cards = ["Camel", "Eagle", "Camel"]
    assert RULES("arrival", {"arrived": ["Camel", "Eagle", "Camel"], "cards": cards}) == {
        "out": [0, 2],
        "winners": [],
    }
    arrived = [
        "Camel",
        "Camel",
        "Hippo",
        "Hippo",
        "Elephant",
        "Eagle",
        "Elephant",
        "Giraffe",
        "Giraffe",
        "Eagle",
    ]
    assert RULES(
        "arrival", {"arrived": arrived, "cards": ["Camel", "Eagle", "Hippo", "Eagle"]}
    ) == {"out": [0, 1, 2, 3], "winners": [1, 3]}
    assert RULES("arrival", {"arrived": arrived, "players": 4, "variant": "junior"}) == {
        "out": [],
        "winners": [0, 1, 2, 3],
    }


def test_null_is_an_absent_key_on_both_sides() -> None:
    inp = {
        "animal": "Elephant",
        "from": [2, 1],
        "to": "ark",
        "variant": None,
        "map": None,
        "flooded": None,
        "occupied": None,
    }
    assert RULES("move_cost", inp) == python("move_cost", inp)
    assert "rule_error" not in python("move_cost", inp)
    assert python("move_cost", inp) == python("move_cost", {k: v for k, v in inp.items() if v})
    assert RULES("move_cost", {"animal": "Hippo", "from": [0, 4], "to": [0, 5]}) == {"path": []}
    assert python("move_cost", {"animal": "Hippo", "from": [0, 4], "to": [0, 5]}) == {"path": []}


@pytest.mark.parametrize(
    ("name", "inp"),
    [
        ("move_cost", {"animal": "Camel", "from": [0, 0], "to": [0, 1], "variant": "expert"}),
        ("move_cost", {"animal": "Unicorn", "from": [0, 0], "to": [0, 1]}),
        ("move_cost", {"animal": "Unicorn", "from": [0, 0], "to": [0, 0]}),  # no step: fine
        ("move_cost", {"animal": "Unicorn", "from": [0, 0], "to": [0, 1], "variant": "junior"}),
        ("move_cost", {"from": [0, 0], "to": [0, 0]}),
        ("move_cost", {"animal": "Camel", "from": [0], "to": "ark"}),
        ("move_cost", {"animal": "Camel", "from": [40, 0], "to": "ark"}),
        ("move_cost", {"animal": "Camel", "from": [0, 0], "to": [40, 0]}),
        ("move_cost", {"animal": "Camel", "from": ["2", True], "to": [2.0, "3"]}),
        ("move_cost", {"animal": "Camel", "from": [0, 0], "to": "ark", "map": {"terrain": []}}),
        (
            "move_cost",
            {
                "animal": "Camel",
                "from": [0, 0],
                "to": [0, 1],
                "map": {"terrain": ["PX"], "stairs": [[0, 0]]},
            },
        ),
        (
            "move_cost",
            {
                "animal": "Camel",
                "from": [0, 0],
                "to": [0, 1],
                "map": {"terrain": ["PX"], "stairs": [[0, 0]]},
                "variant": "junior",
            },
        ),
        (
            "move_cost",
            {
                "animal": "Camel",
                "from": [0, 0],
                "to": [1, 1],
                "map": {"terrain": ["PP", "P"], "stairs": [[1, 0]]},
            },
        ),
        (
            "move_cost",
            {
                "animal": "Camel",
                "from": [0, 0],
                "to": "ark",
                "map": {"terrain": ["PP"], "rivers": [[[0, 0]]], "stairs": [[0, 1]]},
            },
        ),
        ("reaches_ark", {"animal": "Unicorn", "at": [0, 0]}),
        ("reaches_ark", {"animal": "Unicorn", "at": [0, 0], "flooded": [[0, 0]]}),
        ("reaches_ark", {"at": [0, 0], "flooded": [[0, 0]]}),
        ("reaches_ark", {"at": [0, 0]}),
        (
            "reaches_ark",
            {"animal": "Unicorn", "at": [0, 0], "flooded": [[ROWS - 1, c] for c in range(COLS)]},
        ),
        ("flood_advance", {"row": 0, "col": -3, "rolls": [1, "2", 2.7]}),
        ("flood_advance", {"row": 0, "col": 0, "rolls": ["x"]}),
        ("flood_advance", {"row": 0, "col": 0}),
        ("flood_advance", {"row": 9, "col": 30, "rolls": []}),
        ("flood_advance", {"row": 9, "col": 30, "rolls": [-2, 40]}),
        ("arrival", {"arrived": ["Camel"]}),
        ("arrival", {"arrived": ["Camel", "Camel"], "players": 3}),
        ("arrival", {"arrived": ["Camel"], "players": 3, "variant": "junior"}),
        ("arrival", {"cards": ["Camel"]}),
        ("arrival", {"arrived": [], "cards": []}),
        ("dice_effect", {"values": [True]}),
        ("dice_effect", {"values": []}),
        ("dice_effect", {"values": ["sun"], "variant": "expert"}),
    ],
)
def test_odd_inputs_give_the_same_answer_or_both_fail(name: str, inp: dict) -> None:
    assert RULES.safe(name, inp) == python(name, inp)


# --------------------------------------------------------------------------------------------
# Hypothesis: Lua == rules_ref


PLAYERS = (DEFINITION["players"]["min"], DEFINITION["players"]["max"])
STRATEGIES = strategies_for(GAME, CONFIG, PLAYERS)
QUICK = settings(
    max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
FEW = settings(QUICK, max_examples=40)


@pytest.mark.parametrize("name", list(F.FUNCTIONS))
def test_lua_equals_rules_ref_on_generated_inputs(name: str) -> None:
    @QUICK
    @given(STRATEGIES[name])
    def agree(inp: dict[str, Any]) -> None:
        assert RULES.safe(name, inp) == python(name, inp)

    agree()


@st.composite
def game_map_queries(draw: st.DrawFn) -> dict[str, Any]:
    """move_cost on the game's own map with a realistic position: pieces on dry hexes."""
    count = draw(st.integers(0, 6 * COLS))
    flooded = [[i // COLS, i % COLS] for i in range(count)]
    dry = [[r, c] for r in range(ROWS) for c in range(COLS) if r * COLS + c >= count]
    pieces = draw(st.lists(st.sampled_from(dry), min_size=1, max_size=10, unique_by=tuple))
    frm = pieces[0]
    to = draw(st.sampled_from(["ark", "ark", *dry]))
    inp = {
        "animal": draw(st.sampled_from(SPECIES)),
        "from": frm,
        "to": to,
        "occupied": pieces,
        "flooded": flooded,
    }
    if draw(st.integers(0, 3)) == 0:
        inp["variant"] = "junior"
    return inp


@QUICK
@given(game_map_queries())
def test_move_cost_on_the_game_map(inp: dict[str, Any]) -> None:
    assert RULES("move_cost", inp) == python("move_cost", inp)


@FEW  # every hex of each map
@given(generated_maps(LETTERS), st.data())
def test_move_cost_and_reaches_ark_on_generated_maps(game_map: dict, data: st.DataObject) -> None:
    rows, cols = len(game_map["terrain"]), len(game_map["terrain"][0])
    where = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)).map(list)
    animal = data.draw(st.sampled_from(SPECIES))
    flooded = data.draw(st.lists(where, max_size=rows * cols // 3, unique_by=tuple))
    variant = data.draw(st.sampled_from(["standard", "junior"]))
    for frm in ([r, c] for r in range(rows) for c in range(cols)):
        inp = {
            "map": game_map,
            "animal": animal,
            "from": frm,
            "to": "ark",
            "flooded": flooded,
            "occupied": [],
            "variant": variant,
        }
        assert RULES("move_cost", inp) == python("move_cost", inp)
        reach = {
            "map": game_map,
            "animal": animal,
            "at": frm,
            "flooded": flooded,
            "variant": variant,
        }
        assert RULES("reaches_ark", reach) == python("reaches_ark", reach)


def test_every_start_hex_to_the_ark_on_the_game_map() -> None:
    for variant in ("standard", "junior"):
        for animal in SPECIES:
            for start in MAP["starts"]:
                inp = {"animal": animal, "from": start, "to": "ark", "variant": variant}
                assert RULES("move_cost", inp) == python("move_cost", inp)


# --------------------------------------------------------------------------------------------
# The helpers for the glue


def test_step_cost_refuses_a_hex_off_the_map_like_rules_ref() -> None:
    inp = {"animal": SPECIES[0], "from": [ROWS, 0], "to": [0, 0]}
    assert RULES.safe("step_cost", inp) == refused("off_the_map") == python("step_cost", inp)


@QUICK
@given(st.one_of(st.just(MAP), generated_maps(LETTERS)), st.data())
def test_step_cost_is_rules_ref_step(game_map: dict, data: st.DataObject) -> None:
    rows, cols = len(game_map["terrain"]), len(game_map["terrain"][0])
    u = data.draw(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)))
    v = data.draw(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)))
    animal = data.draw(st.sampled_from(SPECIES))
    variant = data.draw(st.sampled_from(["standard", "junior"]))
    got = RULES(
        "step_cost",
        {"animal": animal, "from": list(u), "to": list(v), "map": game_map, "variant": variant},
    )
    if v not in F.neighbours(u[0], u[1], rows, cols):
        assert got == []
        return
    want = F._Rules(CONFIG, variant).step(F._board(game_map), animal, u, v)
    assert got == normalize({"cost": want})


@st.composite
def destination_queries(draw: st.DrawFn) -> dict[str, Any]:
    inp = draw(STRATEGIES["move_cost"])
    inp.pop("to")
    inp["budget"] = draw(st.integers(0, 10))
    return inp


@FEW
@given(destination_queries())
def test_destinations_are_rules_ref_dist_from(inp: dict[str, Any]) -> None:
    rules, board = F._inputs(CONFIG, inp)
    src = F._hex(inp["from"])
    occupied = F._hexes(inp.get("occupied")) - {src}
    dist, ark = F._dist_from(
        rules, board, inp["animal"], src, F._hexes(inp.get("flooded")), occupied, inp["budget"]
    )
    hexes = [
        {"at": list(h), "cost": d}
        for h, d in sorted(dist.items())
        if h != src and h not in occupied
    ]
    assert RULES("destinations", inp) == normalize({"hexes": hexes, "ark": ark})
    for dest in hexes[:5]:  # every destination costs what move_cost says
        got = RULES("move_cost", {**inp, "to": dest["at"]})
        assert got["cost"] == dest["cost"]


def oracle_check_flood(pieces: list[dict], flooded: list, variant: str) -> dict:
    """rules_ref's drowned / cut-off check (FloodState._check_flood) for a list of pieces."""
    wet = F._hexes(flooded)
    for i, piece in enumerate(pieces):
        at = piece["at"]
        kind = None
        if tuple(at) in wet:
            kind = "drowned"
        elif not F.reaches_ark(CONFIG, {**piece, "flooded": flooded, "variant": variant})[
            "reachable"
        ]:
            kind = "cut off"
        if kind:
            message = f"{kind}: {piece['animal']} at {F._fmt(at)}"
            return {
                "kind": kind,
                "piece": i,
                "animal": piece["animal"],
                "at": at,
                "message": message,
            }
    return {}


@QUICK
@given(st.data())
def test_check_flood_is_rules_ref_game_end_check(data: st.DataObject) -> None:
    count = data.draw(st.integers(0, ROWS * COLS))
    flooded = [[i // COLS, i % COLS] for i in range(count)]
    if data.draw(st.booleans()):  # junior-style cut-offs: flood the stairs' row ends
        flooded += [list(s) for s in MAP["stairs"][: data.draw(st.integers(0, 4))]]
    where = st.tuples(st.integers(0, ROWS - 1), st.integers(0, COLS - 1)).map(list)
    pieces = data.draw(
        st.lists(
            st.fixed_dictionaries({"animal": st.sampled_from(SPECIES), "at": where}), max_size=10
        )
    )
    variant = data.draw(st.sampled_from(["standard", "junior"]))
    got = RULES("check_flood", {"pieces": pieces, "flooded": flooded, "variant": variant})
    assert got == normalize(oracle_check_flood(pieces, flooded, variant))


def test_check_flood_names_the_animal_like_rules_ref() -> None:
    pieces = [
        {"animal": "Hippo", "at": [3, 2]},
        {"animal": "Camel", "at": [3, 2]},
        {"animal": "Eagle", "at": [0, 3]},
    ]
    north_banks = [[4, 1], [4, 3], [5, 6], [5, 7], [5, 9], [5, 11]]
    assert RULES("check_flood", {"pieces": pieces, "flooded": north_banks}) == {
        "kind": "cut off",
        "piece": 1,
        "animal": "Camel",
        "at": [3, 2],
        "message": "cut off: Camel at (3, 2)",
    }
    got = RULES("check_flood", {"pieces": pieces, "flooded": [[0, c] for c in range(COLS)]})
    assert got["message"] == "drowned: Eagle at (0, 3)" and got["piece"] == 2
    assert RULES("check_flood", {"pieces": pieces[:1]}) == []


# --------------------------------------------------------------------------------------------
# The verifier's comparison can fail: planted bugs are found (and shrunk)


def engines_for(source: str) -> Engines:
    """The verifier's engines over a Global script holding just these rules."""
    script = "Rules = (function()\n" + source + "\nend)()\n"
    return Engines(GAME, CONFIG, script)


def test_the_verifier_accepts_the_real_rules() -> None:
    engines = engines_for(SOURCE)
    assert engines.names() == list(F.FUNCTIONS)
    for name in F.FUNCTIONS:
        result = check_function(engines, name, STRATEGIES[name], examples=25, seed=3)
        assert result.mismatch is None, result.mismatch and result.mismatch.describe()


PLANTED = [
    # Tie-break: neighbours walked in reverse order (same costs, other paths).
    (
        "move_cost",
        "  for _, v in ipairs(adjacent(board, u)) do\n      local ok",
        "  local around = adjacent(board, u)\n    for i = #around, 1, -1 do\n      local v = "
        "around[i]\n      local ok",
    ),
    # The no-retreat rule one row short.
    (
        "move_cost",
        "if u.r >= board.rows - rules.no_retreat and",
        "if u.r > board.rows - rules.no_retreat and",
    ),
    # The flood forgets to wrap a column beyond the row.
    ("flood_advance", "row, col = row + math.floor(col / cols), mod(col, cols)", "row = row"),
    # Junior symbols counted as points.
    ("dice_effect", 'if text == "sun" or text == "water" then', 'if text == "water" then'),
    # The last animal's holders win even in the junior game.
    ("arrival", "if junior then\n", "if false then\n"),
    # Only the animal's own hex counts as flooded.
    ("reaches_ark", 'need(inp, "animal"), ARK, flooded, {})', 'need(inp, "animal"), ARK, {}, {})'),
]


# Bugs in rare situations that random inputs seldom reach: the seed examples must catch them.
PLANTED_FOR_SEEDS = [
    # Fliers may not pass over other animals either.
    (
        "  local flier = is_flier(rules, animal)\n  local dist, done, open = ",
        "  local flier = false\n  local dist, done, open = ",
    ),
    # Fliers may land on occupied hexes.
    (
        "if flooded[target_key] or occ[target_key] then",
        "if flooded[target_key] or (occ[target_key] and not is_flier(rules, animal)) then",
    ),
    # A ford costs the animal's river cost.
    ("  if ford then\n    return rules.ford_cost", "  if false then\n    return 0"),
    # Boarding the Ark is free.
    ("dist[s.key] = rules.ark_entry\n", "dist[s.key] = 0\n"),
]
SEED_TESTS = [
    test_camel_onto_a_mountain_costs_3,
    test_elephant_across_the_river_into_forest_costs_5,
    test_camel_and_giraffe_cross_only_at_fords,
    test_eagle_flies_over_animals_and_never_enters_swamp,
    test_no_step_away_from_the_ark_in_the_last_three_rows,
    test_entering_the_ark_costs_1,
    test_junior_every_hex_costs_1_anywhere,
]


@pytest.mark.parametrize(("old", "new"), PLANTED_FOR_SEEDS)
def test_the_seed_examples_catch_a_planted_bug(
    old: str, new: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert SOURCE.count(old) == 1, old
    monkeypatch.setitem(globals(), "RULES", LuaRules(SOURCE.replace(old, new)))
    caught = []
    for seed_test in SEED_TESTS:
        try:
            seed_test()
        except (AssertionError, lua52.LuaError):
            caught.append(seed_test.__name__)
    assert caught


def first_mismatch(rules: LuaRules, name: str, examples: int) -> dict | None:
    """The first generated input (no shrinking: fast) on which ``rules`` and rules_ref differ."""
    found: list[dict] = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @seed(1)
    @given(STRATEGIES[name])
    def agree(inp: dict[str, Any]) -> None:
        if rules.safe(name, inp) != python(name, inp):
            found.append(inp)
            raise AssertionError(name)

    with contextlib.suppress(AssertionError):
        agree()
    return found[0] if found else None


@pytest.mark.parametrize(("name", "old", "new"), PLANTED)
def test_a_planted_bug_is_found(name: str, old: str, new: str) -> None:
    assert SOURCE.count(old) == 1, old
    buggy = LuaRules(SOURCE.replace(old, new))
    inp = first_mismatch(buggy, name, examples=200)
    assert inp is not None, f"planted bug in {name} not found"
    assert buggy.safe(name, inp) != RULES.safe(name, inp) == python(name, inp)


def test_the_verifier_finds_and_shrinks_a_planted_bug() -> None:
    name, old, new = PLANTED[2]  # the flood forgets to wrap the column
    engines = engines_for(SOURCE.replace(old, new))
    result = check_function(engines, name, STRATEGIES[name], examples=150, seed=1)
    assert result.mismatch is not None
    mismatch = result.mismatch
    assert mismatch.lua != mismatch.python
    assert mismatch.input["col"] >= len(mismatch.input.get("map", MAP)["terrain"][0])
    assert len(mismatch.input["rolls"]) == 1  # shrunk
    assert engines.lua(name, mismatch.input) == mismatch.lua
    assert "disagree" in mismatch.describe()
