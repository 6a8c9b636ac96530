"""Ark & Noah's pure Lua rules (lua_templates/ark-and-noah/rules.lua.j2) in Lua 5.2 vs rules_ref:
the seed's examples, Hypothesis agreement on generated inputs (standard and family), the table
helpers, lint, and a planted bug that the comparison must catch."""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

import pytest
from ark_seed import (
    COLOR_OF,
    CONFIG,
    DEFINITION,
    FAMILY,
    LIONS,
    SEED_DIVIDERS,
    SEED_FOOD,
    SEED_PITCH,
    box,
    divs,
    pair,
)
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from lupa import lua52
from strict_lua import StrictRules

from rules_ref import ark_and_noah as ref
from tts_builder.emulator import from_lua
from tts_builder.lua.lint import lint
from tts_builder.lua.scripts import rules_source
from tts_builder.strategies import strategies_for
from tts_builder.verify import (
    Engines,
    check_function,
    is_refusal,
    normalize,
    python_outcome,
    refused,
)

PLAYERS = (DEFINITION["players"]["min"], DEFINITION["players"]["max"])
NOAH, SHEM, HAM, JAPHETH = (COLOR_OF[n] for n in ("Noah", "Shem", "Ham", "Japheth"))


def source(config: dict[str, Any]) -> str:
    """The rendered rules module for a config (the context the game module passes)."""
    return rules_source("ark-and-noah", {"config": config})


class LuaRules(StrictRules):
    """The rendered rules module for ``config``; calling it returns a Lua error's outcome."""

    def __init__(self, config: dict[str, Any], text: str | None = None) -> None:
        super().__init__(text or source(config))

    __call__ = StrictRules.safe  # type: ignore[assignment]


def python(config: dict[str, Any], name: str, inp: Any) -> Any:
    """rules_ref's outcome, as tts_builder.verify sees it (a refusal: ``{"rule_error": code}``)."""
    return python_outcome(ref.FUNCTIONS.get(name) or getattr(ref, name), config, inp)


RULES = LuaRules(CONFIG)
FAMILY_RULES = LuaRules(FAMILY)

# ---------------------------------------------------------------------------------------------
# The seed's examples


def load(rules: LuaRules = RULES, **changes: Any) -> Any:
    inp = {
        "rows": 3, "cols": 16, "dividers": SEED_DIVIDERS, "pitch": SEED_PITCH,
        "food": SEED_FOOD, "loaded": [], "loader": JAPHETH,
        "pair": pair("Lion", JAPHETH, JAPHETH), "square": [0, 2], "lp": 6, "deluge": False,
    }  # fmt: skip
    inp.update(changes)
    return rules("load_pair", inp)


def test_seed_lions_then_ravens_japheth_28_noah_4_ham_2() -> None:
    # Japheth: 2 food for 2 LP (2 VP), the lions for his last 6 LP, then his male raven with
    # Shem's female for free, into the same enclosure.
    lions = load()
    assert lions == {"ok": True, "cost": 6, "vp": {JAPHETH: 6 + 6 + 5 + 2, NOAH: 2, HAM: 1}}
    ravens = load(pair=pair("Raven", JAPHETH, SHEM), lp=0, loaded=[{"square": [0, 3], "size": 3}])
    assert ravens == {"ok": True, "cost": 0, "vp": {JAPHETH: 5 + 2, NOAH: 2, HAM: 1}}
    total = Counter({JAPHETH: 2}) + Counter(lions["vp"]) + Counter(ravens["vp"])
    assert total == {JAPHETH: 28, NOAH: 4, HAM: 2}  # Shem scores nothing


def test_seed_elephants_noah_17_shem_13() -> None:
    # Noah: 1 LP on food (+1 VP), 4 LP for his female elephant; Shem's male costs him nothing.
    out = load(loader=NOAH, pair=pair("Elephant", SHEM, NOAH), square=[0, 7], lp=4)
    assert out == {"ok": True, "cost": 4, "vp": {NOAH: 8 + 5 + 3, SHEM: 8 + 5}}
    assert out["vp"][NOAH] + 1 == 17 and out["vp"][SHEM] == 13
    # Shem loading first would have needed only his 4 LP and taken the pitch VP himself.
    shem = load(loader=SHEM, pair=pair("Elephant", SHEM, NOAH), square=[0, 5], lp=4)
    assert shem["vp"] == {NOAH: 8 + 5, SHEM: 8 + 5 + 3}


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"pair": pair("Lion", None, JAPHETH)}, "the male is not in play"),
        ({"pair": pair("Lion", JAPHETH, None)}, "the female is not in play"),
        ({"pair": pair("Lion", HAM, NOAH)}, "the loader owns neither animal"),
        ({"square": [1, 2]}, "the square is not in a completed enclosure"),
        ({"square": [0, 6]}, "the enclosure has 4 squares; the pair needs 3"),
        ({"loaded": [{"square": [0, 1], "size": 3}]}, "the enclosure already holds a large pair"),
        (
            {"pair": pair("Dove", JAPHETH, HAM), "loaded": [{"square": [0, 1], "size": 0}]},
            "the enclosure already holds a small pair",
        ),
        ({"food": SEED_FOOD[1:]}, "every square of the enclosure needs food"),
        ({"pitch": SEED_PITCH[1:]}, "every pitch field of the enclosure needs pitch"),
        (
            {"loader": SHEM, "pair": pair("Lion", SHEM, JAPHETH)},
            "the enclosure has no divider of the loader's colour",
        ),
        ({"lp": 5}, "the pair costs 6 loading points; 5 left"),
    ],
)
def test_load_refusals_say_why(changes: dict[str, Any], reason: str) -> None:
    assert load(**changes) == {"ok": False, "reason": reason}


def test_deluge_and_family_loading() -> None:
    deluge = load(loader=SHEM, pair=pair("Lion", SHEM, JAPHETH), lp=0, deluge=True)
    assert deluge == {"ok": True, "cost": 0, "vp": []}  # normalised: no VP
    assert load(deluge=True, food=SEED_FOOD[1:])["reason"] == (
        "every square of the enclosure needs food"
    )
    plain = {"food": [], "pitch": [], "lp": 1}
    family = load(FAMILY_RULES, pair=pair("Lion", JAPHETH, HAM), **plain)
    assert family == {"ok": True, "cost": 1, "vp": {JAPHETH: 6 + 5, NOAH: 2, HAM: 6 + 1}}
    small = load(FAMILY_RULES, pair=pair("Dove", JAPHETH, JAPHETH), **plain)
    assert small["reason"] == "small animals are not loaded in this game"


def enclosures(edges: list[str], rows: int = 3, cols: int = 8) -> Any:
    return RULES("enclosures", {"rows": rows, "cols": cols, "dividers": divs(edges, "Red")})


def test_seed_pitch_fields_along_the_hull_1x3_has_2_and_1x4_has_3() -> None:
    (three,) = enclosures(box(0, 1, 0, 3))["enclosures"]
    assert three == {
        "squares": [[0, 1], [0, 2], [0, 3]],
        "edges": ["h:0:1", "h:0:2", "h:0:3", "h:1:1", "h:1:2", "h:1:3", "v:0:1", "v:0:4"],
        "pitch_fields": ["p:0:2", "p:0:3"],
    }
    (four,) = enclosures(box(2, 2, 2, 5))["enclosures"]
    assert four["pitch_fields"] == ["p:3:3", "p:3:4", "p:3:5"]
    (corner,) = enclosures(box(0, 0, 0, 2))["enclosures"]
    assert corner["pitch_fields"] == ["p:0:0", "p:0:1", "p:0:2"]
    (inner,) = enclosures(box(1, 3, 1, 3))["enclosures"]
    assert inner["pitch_fields"] == []


def test_enclosure_sizes_and_returned_dividers() -> None:
    assert enclosures(box(0, 0, 0, 4)) == {"enclosures": [], "returned": []}  # 5 squares
    split = enclosures(box(1, 2, 2, 3) + ["h:2:2"])
    assert [e["squares"] for e in split["enclosures"]] == [[[1, 2], [1, 3], [2, 2], [2, 3]]]
    assert split["returned"] == ["h:2:2"]
    two = enclosures(box(1, 2, 2, 3) + ["h:2:2", "h:2:3"])
    assert [e["squares"] for e in two["enclosures"]] == [[[1, 2], [1, 3]], [[2, 2], [2, 3]]]
    assert two["returned"] == []
    assert enclosures(["h:4:0"]) == refused("unknown_edge")
    assert enclosures(["h:0:0", "h:0:0"]) == refused("doubled_divider")


def test_seed_building_vp_ham_8_noah_5_shem_1_japheth_5() -> None:
    # The bottom hull h:3:4..h:3:14 gets 11 dividers; the top hull already has some.
    top = divs([f"h:0:{c}" for c in range(0, 14)] + ["v:0:0"], JAPHETH)
    ark = {"rows": 3, "cols": 16, "dividers": top, "pitch": []}
    spots = RULES.raw("build_spots", ark)
    ham = [f"h:3:{c}" for c in range(4, 10)]
    assert set(ham) <= set(spots["edges"])
    assert {"p:0:1", "p:0:4", "p:0:5"} <= set(spots["pitch_fields"])
    assert "p:3:5" not in spots["pitch_fields"]  # its hull edges are still free
    ark["dividers"] = top + divs(ham, HAM)
    ark["pitch"] = ["p:0:1", "p:0:4"]
    after = RULES.raw("build_spots", ark)
    assert "p:3:5" in after["pitch_fields"] and "p:0:4" not in after["pitch_fields"]
    gained = {who: RULES.raw("building_vp", {"elements": n})["vp"]
              for who, n in (("Ham", 6 + 2), ("Noah", 5), ("Shem", 1), ("Japheth", 5))}  # fmt: skip
    assert gained == {"Ham": 8, "Noah": 5, "Shem": 1, "Japheth": 5}
    assert FAMILY_RULES.raw("building_vp", {"elements": 8}) == {"vp": 0}


def test_seed_phase_two_order() -> None:
    placements = [
        {"color": "Noah", "space": "taming"}, {"color": "Shem", "space": "trading"},
        {"color": "Ham", "space": "building"}, {"color": "Japheth", "space": "loading"},
    ]  # fmt: skip
    out = RULES.raw("phase_two_order", {"placements": placements})
    assert out["turn_order"] == ["Noah", "Shem", "Ham", "Japheth"]
    steps = [(s["space"], s["color"], s.get("amount")) for s in out["steps"]]
    assert steps[:5] == [
        ("taming", "Noah", None), ("taming", "Shem", None), ("taming", "Ham", None),
        ("taming", "Japheth", None), ("trading", "Shem", None),
    ]  # fmt: skip
    assert steps[5:] == [
        ("building", "Ham", 8), ("building", "Noah", 5), ("building", "Shem", 5),
        ("building", "Japheth", 5), ("loading", "Japheth", 8), ("loading", "Noah", 5),
        ("loading", "Shem", 5), ("loading", "Ham", 5),
    ]  # fmt: skip
    bonuses = RULES("bonus_update", {"bonuses": {}, "placements": placements})
    assert bonuses["bonuses"] == {"pitch": 1, "taming": 0, "food": 1, "trading": 0, "forest": 1,
                                  "building": 0, "loading": 0}  # fmt: skip


def test_final_scoring_hull_majority_penalties_and_ties() -> None:
    def player(color: str, vp: int, hull: int, **hand: Any) -> dict[str, Any]:
        full = {"dividers": 0, "food": 0, "pitch": 0, "animals": []} | hand
        return {"color": color, "vp": vp, "hull_dividers": hull, "hand": full}

    inp = {"players": [
        player("Green", 50, 9, dividers=2, food=1, animals=[4, 0, 1]),
        player("Yellow", 54, 9, pitch=1), player("Red", 58, 3, animals=[2]),
    ]}  # fmt: skip
    assert RULES("final_scoring", inp) == {
        "scores": {"Green": 47, "Yellow": 58, "Red": 56},
        "hull_bonus": {"Green": 5, "Yellow": 5, "Red": 0},
        "penalties": {"Green": 8, "Yellow": 1, "Red": 2},
        "winners": ["Yellow"],
    }
    assert FAMILY_RULES("final_scoring", inp)["winners"] == ["Yellow"]
    tied = {"players": [player("Green", 7, 0), player("Red", 7, 0)]}
    assert RULES("final_scoring", tied)["winners"] == ["Green", "Red"]
    assert RULES("final_scoring", tied)["hull_bonus"] == {"Green": 0, "Red": 0}


# ---------------------------------------------------------------------------------------------
# Lua == rules_ref on generated inputs

CHECKED = list(ref.FUNCTIONS)
STANDARD_STRATEGIES = strategies_for("ark-and-noah", CONFIG, PLAYERS)
FAMILY_STRATEGIES = strategies_for("ark-and-noah", FAMILY, PLAYERS)
EXAMPLES = {"enclosures": 120, "load_pair": 100, "final_scoring": 80, "bonus_update": 80,
            "phase_two_order": 60, "seating": 60, "starting_deal": 60}  # fmt: skip
EXAMPLES.update({name: 40 for name in CHECKED if name not in EXAMPLES})


@pytest.mark.parametrize("variant", ["standard", "family"])
@pytest.mark.parametrize("name", CHECKED)
def test_lua_equals_rules_ref_on_generated_inputs(name: str, variant: str) -> None:
    config, rules, gen = (
        (CONFIG, RULES, STANDARD_STRATEGIES)
        if variant == "standard"
        else (FAMILY, FAMILY_RULES, FAMILY_STRATEGIES)
    )

    @settings(max_examples=EXAMPLES[name], deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
    @given(gen[name])
    def agree(inp: Any) -> None:
        assert rules(name, copy.deepcopy(inp)) == python(config, name, inp)

    agree()


def test_generated_loads_reach_every_verdict() -> None:
    """The load generator is not vacuous: legal loads, every reason, and malformed input."""
    seen: Counter[str] = Counter()

    @seed(2)
    @settings(max_examples=150, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(STANDARD_STRATEGIES["load_pair"])
    def collect(inp: dict[str, Any]) -> None:
        out = python(CONFIG, "load_pair", inp)
        seen["error" if is_refusal(out) else re.sub(r"\d+", "n", out.get("reason", "ok"))] += 1

    collect()
    reasons = {r for r in seen if r not in ("ok", "error")}
    assert seen["ok"] >= 20 and seen["error"] >= 1, seen
    assert len(reasons) >= 8, seen  # of the 11 refusals


def test_verifier_agrees_through_the_tts_sandbox() -> None:
    """The same check `tts-builder verify` runs (Engines, check_function), in the TTS sandbox."""
    script = "Rules = (function()\n" + source(CONFIG) + "\nend)()\n"
    engines = Engines("ark-and-noah", CONFIG, script)
    assert engines.names() == list(ref.FUNCTIONS)
    for name in engines.names():
        outcome = check_function(engines, name, STANDARD_STRATEGIES[name], 40, seed=4)
        assert outcome.mismatch is None, outcome.mismatch.describe()
        assert outcome.tried >= min(20, SMALL_SPACES.get(name, 20))


SMALL_SPACES = {"ark_shape": 5, "building_vp": 15, "game_end": 15}  # few distinct inputs exist

PLANTED = [
    ("enclosures", "if on_boundary[point.a] and on_boundary[point.b] then",
     "if on_boundary[point.a] or on_boundary[point.b] then"),
    ("load_pair", "if held >= rules.capacity[kind] then", "if held > rules.capacity[kind] then"),
    ("final_scoring", "if 0 < most and most == p.hull_dividers then",
     "if most == p.hull_dividers then"),
    ("bonus_update", "math.min(bonuses[i] + 1, CONFIG.bonus_max)", "bonuses[i] + 1"),
    ("seating", "if #playing < low or", "if #playing <= low or"),
    ("starting_deal", "if not held[partner] then", "if true then"),
]  # fmt: skip


def planted(old: str, new: str) -> Engines:
    """Engines whose Lua has ``old`` replaced by ``new`` (a bug)."""
    text = source(CONFIG)
    assert text.count(old) == 1
    return Engines("ark-and-noah", CONFIG, "Rules = (function()\n" + text.replace(old, new)
                   + "\nend)()\n")  # fmt: skip


@pytest.mark.parametrize(("name", "old", "new"), PLANTED)
def test_a_planted_bug_is_found_by_the_generated_inputs(name: str, old: str, new: str) -> None:
    engines, found = planted(old, new), []

    @seed(1)
    @settings(max_examples=300, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(STANDARD_STRATEGIES[name])
    def agree(inp: Any) -> None:
        lua, python = engines.lua(name, inp), engines.python(name, inp)
        if lua != python:
            found.append(inp)
            raise AssertionError(name)

    with pytest.raises(AssertionError, match=name):
        agree()
    assert found


def test_the_verifier_reports_a_planted_bug_shrunk() -> None:
    engines = planted(*next(p for p in PLANTED if p[0] == "bonus_update")[1:])
    outcome = check_function(engines, "bonus_update", STANDARD_STRATEGIES["bonus_update"], 200, 0)
    assert outcome.mismatch is not None
    assert outcome.mismatch.lua != outcome.mismatch.python
    assert "bonus_update: Lua and rules_ref disagree on" in outcome.mismatch.describe()


# ---------------------------------------------------------------------------------------------
# Table helpers, config, lint


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ark_shape_and_players_entry_match_rules_ref(players: int) -> None:
    rows, cols = ref.ark_shape(CONFIG, players)
    assert RULES.raw("ark_shape", {"players": players}) == {"rows": rows, "cols": cols}
    inp = {"table": "taming.draws", "players": players}
    assert RULES("players_entry", inp) == python(CONFIG, "players_entry", inp)
    assert RULES("players_entry", inp)["players"] == [players]
    assert RULES("players_entry", {**inp, "players": 9}) == refused("no_entry")
    assert RULES("players_entry", {**inp, "table": "taming"}) == refused("unknown_table")


def test_every_function_of_the_table_is_a_rule_with_a_twin() -> None:
    functions = {k for k, v in RULES.module.items() if lua52.lua_type(v) == "function"}
    assert functions == set(ref.FUNCTIONS)  # geometry helpers stay local


@settings(max_examples=60, deadline=None, database=None)
@given(STANDARD_STRATEGIES["enclosures"], st.lists(st.integers(0, 200), max_size=6))
def test_hull_status_and_build_spots_match_rules_ref(inp: dict[str, Any], picks: list[int]) -> None:
    try:
        grid = ref._grid(inp["rows"], inp["cols"])
        divided = ref._dividers(grid, inp["dividers"])
    except ValueError:
        assert is_refusal(RULES("hull_status", inp)) and is_refusal(RULES("build_spots", inp))
        return
    _, inside = ref._analyse(grid, divided, CONFIG["ark"]["enclosure_max"])
    status = RULES.raw("hull_status", inp)
    free = [e for e in grid.edges if e in grid.hull and e not in divided]
    assert status["full"] == (not free) and normalize(status["free"]) == free
    hull_count = Counter(c for e, c in divided.items() if e in grid.hull)
    assert normalize(status["by_color"]) == normalize(dict(hull_count))
    cubes = sorted({grid.points[i % len(grid.points)][0] for i in picks})
    spots = RULES.raw("build_spots", {**inp, "pitch": cubes})
    assert normalize(spots["edges"]) == [
        e for e in grid.edges if e not in divided and e not in inside
    ]
    assert normalize(spots["pitch_fields"]) == [
        p for p, a, b in grid.points if p not in cubes and a in divided and b in divided
    ]


def test_load_cost_deluge_order_and_game_end() -> None:
    lion = pair("Lion", "Blue", "Red")
    assert RULES.raw("load_cost", {"loader": "Blue", "pair": lion}) == {"cost": 3}
    assert RULES.raw("load_cost", {"loader": "Blue", "pair": pair("Lion", "Blue", "Blue")}) == {
        "cost": 6
    }
    assert FAMILY_RULES.raw("load_cost", {"loader": "Blue", "pair": lion}) == {"cost": 1}
    # Fewest VP first; ties keep the round's turn order (as rules_ref's Deluge).
    order = RULES.raw(
        "deluge_order",
        {
            "vp": {"Green": 30, "Yellow": 12, "Red": 30, "Blue": 12},
            "turn_order": ["Red", "Blue", "Green", "Yellow"],
        },
    )
    assert order == {"order": ["Blue", "Yellow", "Red", "Green"]}
    assert RULES.raw("game_end", {"rounds": 9, "hull_full": True}) == {
        "over": False,
        "deluge": False,
    }
    assert RULES.raw("game_end", {"rounds": 10, "hull_full": False})["over"] is False
    assert RULES.raw("game_end", {"rounds": 10, "hull_full": True}) == {
        "over": True,
        "deluge": True,
    }
    assert FAMILY_RULES.raw("game_end", {"rounds": 8, "hull_full": True}) == {
        "over": True,
        "deluge": False,
    }


def test_config_survives_odd_names() -> None:
    definition = copy.deepcopy(DEFINITION)
    odd = ['Grü"n ]]', "Ye\nllow <&>", "Re\\d", "🐘"]
    for colour, name in zip(definition["colors"], odd, strict=True):
        colour["name"] = name
    definition["species"][17]["name"] = "Lö]]we"
    config = ref.make_config(definition)
    rules = LuaRules(config)
    assert from_lua(rules.module["CONFIG"]["colors"]) == odd
    inp = {
        "rows": 3, "cols": 16, "dividers": divs(LIONS, odd[3]), "pitch": SEED_PITCH,
        "food": SEED_FOOD, "loaded": [], "loader": odd[3], "square": [0, 2], "lp": 6,
        "pair": {"species": "Lö]]we", "size": 3, "vp": 6, "male": odd[3], "female": odd[0]},
    }  # fmt: skip
    assert rules("load_pair", inp) == python(config, "load_pair", inp)
    assert rules("load_pair", inp)["vp"] == {odd[3]: 6 + 8 + 2, odd[0]: 6}


@pytest.mark.parametrize("config", [CONFIG, FAMILY], ids=["standard", "family"])
def test_rules_module_is_lint_clean(config: dict[str, Any]) -> None:
    assert lint(source(config), "rules") == []


def test_every_reference_function_exists_in_lua() -> None:
    for name in CHECKED:
        assert lua52.lua_type(RULES.module[name]) == "function", name
