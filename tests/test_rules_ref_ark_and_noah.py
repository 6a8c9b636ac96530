"""rules_ref for Ark & Noah (RULINGS §2, seed 002): definition, rule functions, seed examples,
random divider layouts and random full games."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from ark_seed import (
    CONFIG,
    DEFINITION,
    ELEPHANTS,
    FAMILY,
    LIONS,
    SEED_DIVIDERS,
    SEED_FOOD,
    SEED_PITCH,
    box,
    divs,
    pair,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_ref import ark_and_noah as an
from rules_ref.errors import RuleError

# The seed's characters by seat (`characters` and `colors` are both in seat order), and the colour
# each one plays, so the seed's examples do not depend on the order of the colours.
SEATS = {name: seat for seat, name in enumerate(DEFINITION["characters"])}
NOAH, SHEM, HAM, JAPHETH = (SEATS[n] for n in ("Noah", "Shem", "Ham", "Japheth"))
NOAH_C, SHEM_C, HAM_C, JAPHETH_C = (CONFIG["colors"][s] for s in (NOAH, SHEM, HAM, JAPHETH))


# ---------------------------------------------------------------------------------------------
# Definition


def test_definition_holds_the_rulings_numbers():
    assert DEFINITION["id"] == "ark-and-noah"
    assert DEFINITION["players"] == {"min": 2, "max": 4}
    assert len(DEFINITION["colors"]) == 4
    assert CONFIG["supply"] == {
        "dividers_per_color": 27,
        "food": 60,
        "pitch": 36,
        "bonus_tokens": 12,
    }
    assert CONFIG["bonus_max"] == 4
    assert [a["id"] for a in CONFIG["actions"]] == [
        "pitch", "taming", "food", "trading", "forest", "building", "loading",
    ]  # fmt: skip
    amounts = {a["id"]: (a.get("occupant"), a.get("others")) for a in CONFIG["actions"]}
    assert amounts["pitch"] == amounts["food"] == (3, 1)
    assert amounts["forest"] == (4, 2)
    assert amounts["building"] == amounts["loading"] == (8, 5)
    assert [an.for_players(CONFIG["workers"], n)["count"] for n in (2, 3, 4)] == [2, 1, 1]
    assert [an.ark_shape(CONFIG, n) for n in (2, 3, 4)] == [(3, 8), (3, 12), (3, 16)]
    assert CONFIG["end"]["min_rounds"] == 10 and FAMILY["end"]["min_rounds"] == 8
    assert CONFIG["final"]["hull_majority_bonus"] == FAMILY["final"]["hull_majority_bonus"] == 5


def test_roster_has_26_species_with_vp_twice_the_size():
    species = CONFIG["species"]
    assert len(species) == 26
    assert all(s["vp"] == 2 * s["size"] and 0 <= s["size"] <= 4 for s in species)
    by_name = {s["name"]: s for s in species}
    assert by_name["Lion"]["size"] == 3 and by_name["Elephant"]["vp"] == 8
    assert by_name["Dog"]["size"] == 1 and by_name["Raven"]["size"] == 0
    counts = [sum(1 for s in species if s.get("min_players", 2) <= n) for n in (2, 3, 4)]
    assert counts == [18, 22, 26]
    assert Counter(s["size"] for s in species) == {0: 6, 1: 6, 2: 5, 3: 5, 4: 4}


def test_family_variant_merges_over_the_standard_rules():
    assert [a["id"] for a in FAMILY["actions"]] == [
        "animals", "trading", "wood", "building", "loading",
    ]  # fmt: skip
    assert FAMILY["supply"]["dividers_per_color"] == 27  # kept from the standard rules
    assert FAMILY["supply"]["food"] == FAMILY["supply"]["pitch"] == 0
    assert FAMILY["building"]["vp_per_element"] == 0
    assert FAMILY["loading"]["food_lp"] == 1 and FAMILY["loading"]["cost"] == "pairs"
    assert CONFIG["loading"]["cost"] == "size"  # the standard config is untouched


def with_rules(config: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of ``config`` with each ``a__b=value`` set at ``config["a"]["b"]``."""
    out = copy.deepcopy(config)
    for key, value in changes.items():
        *parents, last = key.split("__")
        target = out
        for part in parents:
            target = target[part]
        target[last] = value
    return out


def test_the_bundled_rules_can_be_set_up_for_every_player_count():
    assert an.setup_problems(CONFIG) == an.setup_problems(FAMILY) == []


@pytest.mark.parametrize(
    ("changes", "problems"),
    [
        (
            {"setup__pitch": 20},  # 40 cubes for two players, 36 in the supply
            [("setup.pitch", f"{n} players need {20 * n}, the supply has 36") for n in (2, 3, 4)],
        ),
        (
            {"setup__dividers": 28},
            [("setup.dividers", f"{n} players need 28, the supply has 27") for n in (2, 3, 4)],
        ),
        (
            {"first_round_spaces": [{"players": [2, 3, 4], "seats": [["pitch"], ["fishing"]]}]},
            [
                (
                    "first_round_spaces[0].seats[1][0]",
                    "no action space 'fishing' (spaces: pitch, taming, food, trading, forest, "
                    "building, loading)",
                ),
                ("first_round_spaces", "2 players need 2 seats of 2 space(s) each"),
                ("first_round_spaces", "3 players need 3 seats of 1 space(s) each"),
                ("first_round_spaces", "4 players need 4 seats of 1 space(s) each"),
            ],
        ),
        (
            {"ark__sections": [{"players": [2, 3, 4], "layout": ["bow", "middle"]}]},
            [("ark.sections", f"{n} players: the Ark runs bow ... stern") for n in (2, 3, 4)],
        ),
        (
            {"setup__males": 7},  # 18 species at 2 players, 22 at 3, 26 at 4: 14, 21, 28 draws
            [("setup.males", "more draws than tiles for 4 players")],
        ),
        (
            {"small_animals": False, "setup__females": 6},  # 14 / 17 / 20 large: 12, 18, 24
            [("setup.females", f"more draws than tiles for {n} players") for n in (3, 4)],
        ),
    ],
)
def test_a_rule_set_that_cannot_be_set_up_is_refused_at_its_fields(changes, problems):
    found = an.setup_problems(with_rules(CONFIG, **changes))
    assert [tuple(p) for p in found] == problems


def test_the_family_game_seats_no_workers_so_its_first_round_spaces_are_not_read():
    spaces = [{"players": [2, 3, 4], "seats": [["fishing"]]}]
    assert an.setup_problems(with_rules(FAMILY, first_round_spaces=spaces)) == []
    workers = with_rules(CONFIG, workers=[{"players": [2, 3, 4], "count": 3}])
    assert ("actions", "too few spaces for 9 workers") in an.setup_problems(workers)


# ---------------------------------------------------------------------------------------------
# Enclosures


def encl(dividers: list[dict[str, str]], rows: int = 3, cols: int = 8) -> dict[str, Any]:
    return an.enclosures(CONFIG, {"rows": rows, "cols": cols, "dividers": dividers})


def test_one_square_in_a_corner():
    out = encl(divs("h:0:0 v:0:0 h:1:0 v:0:1"))
    assert out == {
        "enclosures": [
            {
                "squares": [[0, 0]],
                "edges": ["h:0:0", "h:1:0", "v:0:0", "v:0:1"],
                "pitch_fields": ["p:0:0"],
            }
        ],
        "returned": [],
    }


def test_an_l_of_three_squares():
    out = encl(divs("h:0:0 h:0:1 v:0:0 v:1:0 v:0:2 h:1:1 v:1:1 h:2:0"))
    (e,) = out["enclosures"]
    assert e["squares"] == [[0, 0], [0, 1], [1, 0]]
    assert e["edges"] == ["h:0:0", "h:0:1", "h:1:1", "h:2:0", "v:0:0", "v:0:2", "v:1:0", "v:1:1"]
    assert e["pitch_fields"] == ["p:0:0", "p:0:1", "p:1:0"]


def test_five_squares_are_not_an_enclosure():
    assert encl(divs(box(0, 0, 0, 4)))["enclosures"] == []
    assert len(encl(divs(box(0, 0, 0, 3)))["enclosures"]) == 1


def test_an_open_hull_edge_leaves_the_region_open():
    edges = [e for e in box(0, 0, 0, 1) if e != "h:0:1"]
    assert encl(divs(edges))["enclosures"] == []


def test_inner_dividers_of_a_completed_enclosure_are_returned():
    out = encl(divs(box(1, 2, 2, 3) + ["h:2:2"]))
    (e,) = out["enclosures"]
    assert e["squares"] == [[1, 2], [1, 3], [2, 2], [2, 3]]
    assert "h:2:2" not in e["edges"] and len(e["edges"]) == 8
    assert e["pitch_fields"] == ["p:3:3"]
    assert out["returned"] == ["h:2:2"]
    # Two dividers across the middle make two 1x2 enclosures; nothing is returned.
    out = encl(divs(box(1, 2, 2, 3) + ["h:2:2", "h:2:3"]))
    assert [e["squares"] for e in out["enclosures"]] == [[[1, 2], [1, 3]], [[2, 2], [2, 3]]]
    assert out["returned"] == []


def test_an_inner_square_has_no_pitch_fields():
    (e,) = encl(divs(box(1, 3, 1, 3)))["enclosures"]
    assert e["squares"] == [[1, 3]] and e["pitch_fields"] == []


def test_seed_pitch_fields_of_enclosures_along_the_hull():
    # Seed check: a 1x3 enclosure along the hull has 2 pitch fields, a 1x4 has 3.
    (three,) = encl(divs(box(0, 1, 0, 3)))["enclosures"]
    assert three["pitch_fields"] == ["p:0:2", "p:0:3"]
    (four,) = encl(divs(box(2, 2, 2, 5)))["enclosures"]
    assert four["pitch_fields"] == ["p:3:3", "p:3:4", "p:3:5"]
    # In a corner the corner field counts too: a 1x3 there has 3, a 1x1 has 1.
    (corner,) = encl(divs(box(0, 0, 0, 2)))["enclosures"]
    assert corner["pitch_fields"] == ["p:0:0", "p:0:1", "p:0:2"]
    (column,) = encl(divs(box(0, 7, 2, 7)))["enclosures"]  # the whole stern column
    assert column["pitch_fields"] == ["p:0:8", "p:1:8", "p:2:8", "p:3:8"]


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="no edge"):
        encl(divs("h:4:0"))
    with pytest.raises(ValueError, match="two dividers"):
        encl(divs("h:0:0 h:0:0"))


def all_edges(rows: int, cols: int) -> list[str]:
    return [f"h:{r}:{c}" for r in range(rows + 1) for c in range(cols)] + [
        f"v:{r}:{c}" for r in range(rows) for c in range(cols + 1)
    ]


def edges_of(r: int, c: int) -> list[str]:
    return [f"h:{r}:{c}", f"h:{r + 1}:{c}", f"v:{r}:{c}", f"v:{r}:{c + 1}"]


def region_of(start: tuple[int, int], divided: set[str], rows: int, cols: int) -> set:
    """Squares reachable from ``start`` without crossing a divider (written independently)."""
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        steps = [((r - 1, c), f"h:{r}:{c}"), ((r + 1, c), f"h:{r + 1}:{c}")]
        steps += [((r, c - 1), f"v:{r}:{c}"), ((r, c + 1), f"v:{r}:{c + 1}")]
        for (rr, cc), edge in steps:
            if 0 <= rr < rows and 0 <= cc < cols and edge not in divided and (rr, cc) not in seen:
                seen.add((rr, cc))
                todo.append((rr, cc))
    return seen


def hull_open(squares: set, divided: set[str], rows: int, cols: int) -> bool:
    for r, c in squares:
        hull = [f"h:0:{c}"] * (r == 0) + [f"h:{rows}:{c}"] * (r == rows - 1)
        hull += [f"v:{r}:0"] * (c == 0) + [f"v:{r}:{cols}"] * (c == cols - 1)
        if any(e not in divided for e in hull):
            return True
    return False


def edge_key(edge: str) -> tuple[str, int, int]:
    kind, a, b = edge[0], *map(int, edge[2:].split(":"))
    return kind, a, b


def hull_neighbours(y: int, x: int, rows: int, cols: int) -> list[str]:
    """The hull edges meeting at grid point (y, x): two on the hull, none inside."""
    out = [f"h:{y}:{c}" for c in (x - 1, x) if y in (0, rows) and 0 <= c < cols]
    out += [f"v:{r}:{x}" for r in (y - 1, y) if x in (0, cols) and 0 <= r < rows]
    return out or ["inside"]


def on_hull(edge: str, rows: int, cols: int) -> bool:
    kind, a, b = edge[0], *map(int, edge[2:].split(":"))
    return a in (0, rows) if kind == "h" else b in (0, cols)


@settings(max_examples=150, deadline=None)
@given(
    cols=st.sampled_from([4, 8, 12]),
    closed_hull=st.booleans(),
    density=st.integers(2, 8),
    mask=st.lists(st.integers(0, 9), min_size=91, max_size=91),
)
def test_random_divider_layouts(cols, closed_hull, density, mask):
    rows = 3
    edges = all_edges(rows, cols)
    divided = {
        e for e, v in zip(edges, mask, strict=False)
        if v < density or (closed_hull and on_hull(e, rows, cols))
    }  # fmt: skip
    out = encl(divs(sorted(divided)), rows, cols)
    seen: set = set()
    for e in out["enclosures"]:
        squares = {tuple(s) for s in e["squares"]}
        assert 1 <= len(squares) <= 4 and not squares & seen  # sizes 1-4, disjoint
        seen |= squares
        assert e["squares"] == sorted(e["squares"])
        own = Counter(x for s in squares for x in edges_of(*s))  # inner edges count twice
        assert set(e["edges"]) == {x for x, k in own.items() if k == 1}
        assert set(e["edges"]) <= divided  # the boundary is fully divided
        assert region_of(next(iter(squares)), divided, rows, cols) == squares
        assert e["edges"] == sorted(e["edges"], key=edge_key)  # canonical order
        fields = [f"p:{y}:{x}" for y in range(rows + 1) for x in range(cols + 1)
                  if set(hull_neighbours(y, x, rows, cols)) <= set(e["edges"])]  # fmt: skip
        assert e["pitch_fields"] == fields
    assert out["returned"] == sorted(out["returned"], key=edge_key)
    for x in out["returned"]:
        assert x in divided and not any(x in e["edges"] for e in out["enclosures"])
        owners = [e for e in out["enclosures"] if any(x in edges_of(*s) for s in e["squares"])]
        assert len(owners) == 1
    # Completeness: every square outside the enclosures lies in an open or too-large region.
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in seen:
                region = region_of((r, c), divided, rows, cols)
                assert len(region) > 4 or hull_open(region, divided, rows, cols)


# ---------------------------------------------------------------------------------------------
# load_pair


def load(config=CONFIG, **changes: Any) -> dict[str, Any]:
    inp = {
        "rows": 3, "cols": 16, "dividers": SEED_DIVIDERS, "pitch": SEED_PITCH,
        "food": SEED_FOOD, "loaded": [], "loader": JAPHETH_C,
        "pair": pair("Lion", JAPHETH_C, JAPHETH_C), "square": [0, 2], "lp": 6, "deluge": False,
    }  # fmt: skip
    inp.update(changes)
    return an.load_pair(config, inp)


def test_seed_lions_then_ravens():
    # Japheth: 2 food (2 LP, 2 VP), lions for 6 LP, then Shem's female raven with his own male
    # for free: Japheth 28, Noah 4, Ham 2, Shem 0.
    lions = load()
    assert lions == {"ok": True, "cost": 6, "vp": {JAPHETH_C: 19, NOAH_C: 2, HAM_C: 1}}
    ravens = load(
        pair=pair("Raven", JAPHETH_C, SHEM_C), lp=0, loaded=[{"square": [0, 3], "size": 3}]
    )
    assert ravens == {"ok": True, "cost": 0, "vp": {JAPHETH_C: 7, NOAH_C: 2, HAM_C: 1}}
    assert list(lions["vp"]) == sorted(lions["vp"])  # keys sorted
    total = Counter({JAPHETH_C: 2}) + Counter(lions["vp"]) + Counter(ravens["vp"])
    assert total == {JAPHETH_C: 28, NOAH_C: 4, HAM_C: 2}


def test_seed_elephants():
    # Noah spent 1 LP on food (+1 VP); his female elephant costs 4, Shem's male 0.
    out = load(loader=NOAH_C, pair=pair("Elephant", SHEM_C, NOAH_C), square=[0, 7], lp=4)
    assert out == {"ok": True, "cost": 4, "vp": {NOAH_C: 16, SHEM_C: 13}}
    assert out["vp"][NOAH_C] + 1 == 17


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"pair": pair("Lion", None, JAPHETH_C)}, "the male is not in play"),
        ({"pair": pair("Lion", JAPHETH_C, None)}, "the female is not in play"),
        ({"pair": pair("Lion", HAM_C, NOAH_C)}, "the loader owns neither animal"),
        ({"square": [1, 2]}, "the square is not in a completed enclosure"),
        ({"square": [0, 6]}, "the enclosure has 4 squares; the pair needs 3"),
        (
            {"loaded": [{"square": [0, 1], "size": 3}]},
            "the enclosure already holds a large pair",
        ),
        (
            {"pair": pair("Dove", JAPHETH_C, HAM_C), "loaded": [{"square": [0, 1], "size": 0}]},
            "the enclosure already holds a small pair",
        ),
        ({"food": SEED_FOOD[1:]}, "every square of the enclosure needs food"),
        ({"pitch": SEED_PITCH[1:]}, "every pitch field of the enclosure needs pitch"),
        (
            {"loader": SHEM_C, "pair": pair("Lion", SHEM_C, JAPHETH_C)},
            "the enclosure has no divider of the loader's colour",
        ),
        ({"lp": 5}, "the pair costs 6 loading points; 5 left"),
    ],
)
def test_load_refusals(changes, reason):
    assert load(**changes) == {"ok": False, "reason": reason}


def test_load_costs_and_small_pairs():
    # The partner from another player costs nothing; a small pair fits any size, for 0 LP.
    assert load(pair=pair("Lion", JAPHETH_C, HAM_C), lp=3)["cost"] == 3
    assert load(pair=pair("Dove", NOAH_C, HAM_C), square=[0, 6], lp=0, loader=NOAH_C) == {
        "ok": True, "cost": 0, "vp": {NOAH_C: 5 + 3, SHEM_C: 5},
    }  # fmt: skip
    # A large pair may join a small one (one of each).
    assert load(loaded=[{"square": [0, 1], "size": 0}])["ok"]


def test_deluge_loading_needs_no_lp_no_colour_and_scores_nothing():
    out = load(loader=SHEM_C, pair=pair("Lion", SHEM_C, JAPHETH_C), lp=0, deluge=True)
    assert out == {"ok": True, "cost": 0, "vp": {}}
    # The other requirements still hold.
    assert load(deluge=True, food=SEED_FOOD[1:])["reason"] == (
        "every square of the enclosure needs food"
    )


def test_family_loading():
    plain = {"food": [], "pitch": [], "lp": 1}
    out = load(FAMILY, pair=pair("Lion", JAPHETH_C, HAM_C), **plain)
    assert out == {"ok": True, "cost": 1, "vp": {JAPHETH_C: 6 + 5, NOAH_C: 2, HAM_C: 6 + 1}}
    busy = load(FAMILY, loaded=[{"square": [0, 1], "size": 3}], **plain)
    assert busy["reason"] == "the enclosure already holds a large pair"
    assert load(FAMILY, **{**plain, "lp": 0})["reason"] == "the pair costs 1 loading points; 0 left"
    small = load(FAMILY, pair=pair("Dove", JAPHETH_C, JAPHETH_C), **plain)
    assert small["reason"] == "small animals are not loaded in this game"


# ---------------------------------------------------------------------------------------------
# final_scoring, bonus_update, phase_two_order


def player(color: str, vp: int, hull: int, **hand: Any) -> dict[str, Any]:
    full = {"dividers": 0, "food": 0, "pitch": 0, "animals": []} | hand
    return {"color": color, "vp": vp, "hull_dividers": hull, "hand": full}


def test_final_scoring():
    inp = {"players": [
        player("Green", 50, 9, dividers=2, food=1, animals=[4, 0, 1]),
        player("Yellow", 54, 9, pitch=1),
        player("Red", 58, 3, animals=[2]),
    ]}  # fmt: skip
    out = an.final_scoring(CONFIG, inp)
    assert out["hull_bonus"] == {"Green": 5, "Yellow": 5, "Red": 0}
    assert out["penalties"] == {"Green": 3 + 5, "Yellow": 1, "Red": 2}
    assert out["scores"] == {"Green": 47, "Yellow": 58, "Red": 56}
    assert out["winners"] == ["Yellow"]
    # Family: no penalties, so Green and Red tie.
    family = an.final_scoring(FAMILY, inp)
    assert family["scores"] == {"Green": 55, "Yellow": 59, "Red": 58}
    tied = an.final_scoring(CONFIG, {"players": [player("Green", 7, 2), player("Red", 7, 2)]})
    assert tied["winners"] == ["Green", "Red"]


def test_bonus_update():
    placements = [  # the seed's round: Noah 2, Shem 4, Ham 6, Japheth 7
        {"color": NOAH_C, "space": "taming"}, {"color": SHEM_C, "space": "trading"},
        {"color": HAM_C, "space": "building"}, {"color": JAPHETH_C, "space": "loading"},
    ]  # fmt: skip
    out = an.bonus_update(CONFIG, {"bonuses": {}, "placements": placements})
    assert out["collected"] == [0, 0, 0, 0]
    assert out["bonuses"] == {
        "pitch": 1, "taming": 0, "food": 1, "trading": 0, "forest": 1, "building": 0,
        "loading": 0,
    }  # fmt: skip
    later = an.bonus_update(
        CONFIG,
        {"bonuses": {"pitch": 4, "food": 2}, "placements": [{"color": "Red", "space": "food"}]},
    )
    assert later["collected"] == [2]
    assert later["bonuses"]["pitch"] == 4 and later["bonuses"]["food"] == 0
    assert later["bonuses"]["taming"] == 1
    with pytest.raises(ValueError, match="taken twice"):
        an.bonus_update(CONFIG, {"bonuses": {}, "placements": placements[:1] * 2})


def test_seed_phase_two_order():
    # Noah on 2, Shem on 4, Ham on 6, Japheth on 7.
    placements = [
        {"color": "Noah", "space": "taming"}, {"color": "Shem", "space": "trading"},
        {"color": "Ham", "space": "building"}, {"color": "Japheth", "space": "loading"},
    ]  # fmt: skip
    out = an.phase_two_order(CONFIG, {"placements": placements})
    assert out["turn_order"] == ["Noah", "Shem", "Ham", "Japheth"]
    steps = [(s["space"], s["color"], s["amount"]) for s in out["steps"]]
    assert steps == [
        ("taming", "Noah", None), ("taming", "Shem", None), ("taming", "Ham", None),
        ("taming", "Japheth", None),
        ("trading", "Shem", None),
        ("building", "Ham", 8), ("building", "Noah", 5), ("building", "Shem", 5),
        ("building", "Japheth", 5),
        ("loading", "Japheth", 8), ("loading", "Noah", 5), ("loading", "Shem", 5),
        ("loading", "Ham", 5),
    ]  # fmt: skip


def test_functions_table():
    assert set(an.FUNCTIONS) == {
        "enclosures", "load_pair", "final_scoring", "bonus_update", "phase_two_order",
        "players_entry", "ark_shape", "hull_status", "build_spots", "building_vp", "load_cost",
        "deluge_order", "game_end", "seating", "starting_deal", "may_act", "trade_may",
        "exchange", "taming_picks", "pair_squares", "edge_text",
    }  # fmt: skip
    out = an.FUNCTIONS["enclosures"](CONFIG, {"rows": 3, "cols": 8, "dividers": []})
    assert json.loads(json.dumps(out)) == out == {"enclosures": [], "returned": []}


def test_may_act_in_its_phase_by_the_player_in_turn():
    def may(act: str, phase: str, kind: str = "", turn: str = "Red", color: str = "Red") -> Any:
        return an.may_act(CONFIG, {"act": act, "phase": phase, "kind": kind, "turn": turn,
                                   "color": color})  # fmt: skip

    assert may("done", "resolve", "build")["ok"]
    assert may("done", "resolve", "build", color="Blue") == {
        "ok": False, "reason": "It is Red's turn, not yours."}  # fmt: skip
    assert not may("pick", "resolve", "trade")["ok"]
    assert may("swap", "resolve", "trade")["ok"] and not may("swap", "resolve", "build")["ok"]
    assert may("setup", "idle", turn="", color="Blue")["ok"]
    assert may("setup", "place")["reason"] == "The game is already set up."
    assert may("done", "over")["reason"] == "The game is over."
    with pytest.raises(RuleError):
        may("jump", "resolve")


def trade(act: str, **kw: Any) -> dict[str, Any]:
    inp = {"act": act, "bonus_taken": True, "choice": "", "draws_left": 3, "exchanged": False,
           "dragged": "Red", "onto": "Blue", "can_swap": True, "can_draw": True,
           "can_exchange": True}  # fmt: skip
    return an.trade_may(CONFIG, {**inp, **kw})


def test_trading_is_a_bonus_then_one_swap_or_the_draws_then_an_exchange():
    assert trade("swap", bonus_taken=False)["reason"] == "Take your trading bonus first."
    assert trade("swap")["ok"] and not trade("swap", onto="Red")["ok"]
    assert not trade("swap", onto="")["ok"]
    assert not trade("swap", choice="swap")["ok"]  # one swap per step
    assert not trade("draw", choice="swap")["ok"]  # a swap, or the draws: not both
    assert not trade("swap", choice="draw")["ok"]
    assert trade("exchange", choice="draw", draws_left=0)["ok"]
    assert not trade("exchange", choice="draw", draws_left=1)["ok"]
    assert not trade("done", choice="draw", draws_left=0)["ok"]  # the exchange is required
    assert trade("done", choice="draw", draws_left=0, exchanged=True)["ok"]
    assert trade("done", choice="swap")["ok"] and not trade("done")["ok"]
    assert trade("done", can_swap=False, can_draw=False)["ok"]
    assert not an.trade_may(FAMILY, {"act": "swap", "bonus_taken": True, "choice": "",
                                     "draws_left": 3, "exchanged": False, "dragged": "Red",
                                     "onto": "Blue"})["ok"]  # fmt: skip


def test_family_trading_is_done_when_no_draw_is_possible_whatever_the_dividers():
    # Seed 1012 of `verify ark-and-noah --table`: in the family game (no swap) with both bags
    # empty, two colours' dividers on the Ark made the table refuse Done forever.
    inp = {"act": "done", "bonus_taken": True, "choice": "", "draws_left": 3, "exchanged": False,
           "dragged": "", "onto": "", "can_swap": True, "can_draw": False,
           "can_exchange": False}  # fmt: skip
    assert an.trade_may(FAMILY, inp)["ok"]
    assert an.trade_may(FAMILY, {**inp, "can_draw": True})["reason"] == "Draw your animals first."
    assert not an.trade_may(CONFIG, inp)["ok"]  # the standard game may still swap


def test_exchange_gives_only_an_animal_whose_partner_is_not_in_play():
    lion_m, lion_f, dog_m = 34, 35, 12
    inp = {"hand": [lion_m, dog_m], "in_play": [lion_m, lion_f, dog_m], "drawn": [2],
           "give": lion_m, "take": 2}  # fmt: skip
    out = an.exchange(CONFIG, inp)
    assert out["gives"] == [dog_m] and not out["ok"] and out["may_draw"]
    assert an.exchange(CONFIG, {**inp, "give": dog_m})["ok"]
    assert not an.exchange(CONFIG, {**inp, "give": dog_m, "take": 3})["ok"]
    assert an.exchange(FAMILY, inp)["gives"] == [dog_m, lion_m]


def test_taming_picks_occupant_first_then_the_others_in_turn_order():
    inp = {"space": "taming", "occupant": "Blue", "turn_order": ["Red", "Blue", "Green"],
           "draws_left": 0, "taken": 0, "left": 3}  # fmt: skip
    assert an.taming_picks(CONFIG, inp) == {"order": ["Blue", "Red", "Green"], "picker": "Blue",
                                            "done": False}  # fmt: skip
    assert an.taming_picks(CONFIG, {**inp, "taken": 2, "left": 1})["picker"] == "Green"
    assert an.taming_picks(CONFIG, {**inp, "taken": 3, "left": 0})["done"]
    assert an.taming_picks(CONFIG, {**inp, "draws_left": 1})["picker"] == ""
    family = an.taming_picks(FAMILY, {**inp, "space": "animals"})
    assert family["order"] == ["Blue"]
    assert an.taming_picks(FAMILY, {**inp, "space": "animals", "taken": 1, "left": 2})["done"]


def test_a_pair_lies_in_one_enclosure_and_edges_have_player_names():
    dividers = divs(box(0, 0, 0, 0) + box(0, 2, 0, 2))
    same = {"rows": 3, "cols": 8, "dividers": dividers, "squares": [[0, 0], [0, 0]]}
    assert an.pair_squares(CONFIG, same)["same"]
    assert not an.pair_squares(CONFIG, {**same, "squares": [[0, 0], [0, 2]]})["same"]
    text = {e: an.edge_text(CONFIG, {"rows": 3, "cols": 8, "edge": e})["text"]
            for e in ("h:0:1", "h:3:0", "h:1:2", "v:0:0", "v:2:8", "v:1:4")}  # fmt: skip
    assert text == {
        "h:0:1": "the top hull at column 2", "h:3:0": "the bottom hull at column 1",
        "h:1:2": "between rows 1 and 2 at column 3", "v:0:0": "the left hull at row 1",
        "v:2:8": "the right hull at row 3", "v:1:4": "between columns 4 and 5 in row 2",
    }  # fmt: skip


# ---------------------------------------------------------------------------------------------
# The game: helpers


def names(state: an.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def act(state: an.State, *texts: str) -> None:
    """Apply actions (or chance outcomes) by their names."""
    for text in texts:
        legal = {state.action_to_string(a): a for a in state.legal_actions()}
        assert text in legal, f"{text!r} not in {sorted(legal)}"
        state.apply_action(legal[text])


def tile(state: an.State, text: str) -> int:
    return next(t for t in range(2 * len(state.config["species"])) if state.tile_name(t) == text)


def started(n: int, config: dict = CONFIG, seed: int = 0) -> an.State:
    """A game past its (random) setup draws."""
    state, rng = an.Game(config, n).new_initial_state(), random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def arrange(state: an.State, hands=None, res=None, dividers=None, pitch=(), food=(), **keys):
    """The same game with the table rearranged; the supplies are recounted so they balance."""
    d = state.to_dict()
    if hands is not None:
        ingame = sorted(d["bags"]["male"] + d["bags"]["female"] + sum(d["hands"], []))
        d["hands"] = [
            sorted(tile(state, t) for t in hands.get(seat, [])) for seat in range(len(d["hands"]))
        ]
        held = set(sum(d["hands"], []))
        d["bags"] = {sex: [t for t in ingame if t % 2 == x and t not in held]
                     for x, sex in enumerate(an.SEXES)}  # fmt: skip
    for seat, have in (res or {}).items():
        d["players"][seat] = {"dividers": 0, "food": 0, "pitch": 0} | have
    if dividers is not None:
        d["dividers"] = {x["edge"]: x["color"] for x in dividers}
    d["pitch"] = sorted(pitch)
    cols = state.grid.cols
    d["food"] = sorted(r * cols + c for r, c in food)
    d.update(keys)
    supply, players = d["config"]["supply"], d["players"]
    colors = d["config"]["colors"][: len(players)]
    d["supply"] = {
        "dividers": {
            c: supply["dividers_per_color"] - players[i]["dividers"]
            - sum(1 for v in d["dividers"].values() if v == c)
            for i, c in enumerate(colors)
        },
        "food": supply["food"] - sum(p["food"] for p in players) - len(d["food"]),
        "pitch": supply["pitch"] - sum(p["pitch"] for p in players) - len(d["pitch"]),
    }  # fmt: skip
    assert all(v >= 0 for v in d["supply"]["dividers"].values())
    return an.State.from_dict(d)


def check_invariants(state: an.State) -> None:
    """Supplies conserved, tiles conserved, VP = the sum of the scoring events."""
    config = state.config
    supply = config["supply"]
    for seat, colour in enumerate(state.colors):
        on_ark = sum(1 for c in state.dividers.values() if c == colour)
        have = state.players[seat]["dividers"] + state.supply["dividers"][colour]
        assert on_ark + have == supply["dividers_per_color"], colour
    for res in ("food", "pitch"):
        held = sum(p[res] for p in state.players)
        assert len(getattr(state, res)) + held + state.supply[res] == supply[res], res
    tiles = state.bags["male"] + state.bags["female"] + sum(state.hands, []) + state.drawn
    tiles += [2 * s + x for s, _ in state.loaded for x in (0, 1)]
    assert len(tiles) == len(set(tiles))
    ingame = {
        t for t in range(2 * len(config["species"]))
        if config["species"][t // 2].get("min_players", 2) <= state.num_players
        and (config["small_animals"] or config["species"][t // 2]["size"] > 0)
    }  # fmt: skip
    assert set(tiles) == ingame
    assert all(v >= 0 for p in state.players for v in p.values())
    totals = [0] * state.num_players
    for seat, vp, _ in state.events:
        totals[seat] += vp
    assert totals == state.vp == state.returns()
    inside = set(an._analyse(state.grid, state.dividers, config["ark"]["enclosure_max"])[1])
    assert not inside & set(state.dividers)  # no divider inside a completed enclosure


# ---------------------------------------------------------------------------------------------
# The game: the seed's round (Noah 2, Shem 4, Ham 6, Japheth 7)

TOP_HULL = [f"h:0:{c}" for c in range(16)]


def seed_table() -> an.State:
    """4 players at their first placement, the Ark and hands set for the seed's examples."""
    dividers = SEED_DIVIDERS + divs([e for e in TOP_HULL if e not in LIONS + ELEPHANTS], HAM_C)
    dividers += divs(["h:3:0"], NOAH_C) + divs(["h:3:1"], SHEM_C)
    hands = {
        NOAH: ["Elephant female", "Cat male"],
        SHEM: ["Elephant male", "Raven female", "Bear male"],
        HAM: ["Dove male", "Pig female"],
        JAPHETH: ["Lion male", "Lion female", "Raven male"],
    }
    res = {
        NOAH: {"dividers": 5, "food": 1},
        SHEM: {"dividers": 2, "pitch": 1},
        HAM: {"dividers": 6, "pitch": 2},
        JAPHETH: {"pitch": 5, "food": 2},
    }
    food = [[0, 1], [0, 5], [0, 6], [0, 7]]
    return arrange(started(4), hands, res, dividers, SEED_PITCH, food)


def through_phase_one() -> an.State:
    state = seed_table()
    assert [state.current_player()] == [NOAH]
    act(state, "space taming", "space trading", "space building", "space loading")
    return state


def through_taming() -> an.State:
    state = through_phase_one()
    act(state, "Dog male", "Giraffe male", "Dog female", "Dove female")
    return state


def test_seed_phase_one_bonuses_and_turn_order():
    state = seed_table()
    order = []
    for text in ("space taming", "space trading", "space building", "space loading"):
        order.append(state.current_player())
        act(state, text)
    assert order == [NOAH, SHEM, HAM, JAPHETH]
    assert state.bonuses == [1, 0, 1, 0, 1, 0, 0]  # tokens land on actions 1, 3 and 5
    assert state.turn_order == [NOAH, SHEM, HAM, JAPHETH]
    assert state.is_chance_node()  # Taming first: Noah draws


def test_seed_taming_flips_pairs():
    state = through_phase_one()
    before = state.tile_sides()
    assert before["Dove male"] == "unpaired" and before["Lion male"] == "paired"
    act(state, "Dog male", "Giraffe male", "Dog female", "Dove female")
    assert state.current_player() == NOAH
    assert names(state) == ["Dove female", "Dog male", "Dog female", "Giraffe male"]
    # The drawn partners are in play at once.
    sides = state.tile_sides()
    assert sides["Dove male"] == sides["Dove female"] == sides["Dog female"] == "paired"
    act(state, "Dog male")
    assert state.current_player() == SHEM
    act(state, "Dog female")
    assert state.current_player() == HAM
    act(state, "Dove female")  # Japheth takes the giraffe: the only tile left
    assert state.hands[JAPHETH] == sorted(
        tile(state, t) for t in ("Lion male", "Lion female", "Raven male", "Giraffe male")
    )
    sides = state.tile_sides()
    assert sides["Dog male"] == sides["Dog female"] == "paired"
    assert sides["Dove male"] == sides["Dove female"] == "paired"
    assert sides["Giraffe male"] == "unpaired" and sides["Bear male"] == "unpaired"
    assert state.current_player() == SHEM  # Trading
    assert names(state) == ["bonus vp", "bonus food", "bonus divider", "bonus pitch"]


def through_trading() -> an.State:
    state = through_taming()
    act(state, "Dog male", "Dog female", "Dove female")
    act(state, "bonus food")
    assert names(state) == ["trade swap", "trade draw"]
    act(state, "trade swap", "divider h:3:0", "divider h:3:1")
    return state


def test_trading_swaps_two_dividers_of_different_colours():
    state = through_taming()
    act(state, "Dog male", "Dog female", "Dove female", "bonus food", "trade swap")
    legal = names(state)
    assert "divider h:0:1" in legal and len(legal) == len(state.dividers)
    act(state, "divider h:3:0")
    assert "divider h:0:5" not in names(state)  # Noah's too
    act(state, "divider h:3:1")
    assert state.dividers["h:3:0"] == SHEM_C and state.dividers["h:3:1"] == NOAH_C
    assert state.players[SHEM]["food"] == 1 and state.vp[SHEM] == 0


def test_trading_draws_and_exchanges_an_unpaired_animal():
    state = through_taming()
    act(state, "Dog male", "Dog female", "Dove female", "bonus vp", "trade draw")
    act(state, "bag male", "Wolf male", "bag female", "Cat female", "bag female", "Deer female")
    # Only the bear may go: Shem's other animals are paired; the exchange is not optional.
    assert names(state) == [
        "take Cat female give Bear male", "take Wolf male give Bear male",
        "take Deer female give Bear male",
    ]  # fmt: skip
    act(state, "take Wolf male give Bear male")
    assert tile(state, "Wolf male") in state.hands[SHEM]
    assert tile(state, "Bear male") in state.bags["male"]
    assert tile(state, "Cat female") in state.bags["female"] and state.drawn == []
    assert state.vp[SHEM] == 1
    check_invariants(state)


def test_seed_building_vp():
    state = through_trading()
    start = list(state.vp)
    assert state.current_player() == HAM
    act(state, *[f"divider h:3:{c}" for c in range(4, 10)], "pitch p:0:1", "pitch p:0:4")
    assert state.current_player() == NOAH
    act(state, *[f"divider h:3:{c}" for c in range(10, 15)])
    assert state.current_player() == SHEM
    act(state, "pitch p:0:5", "pass")
    assert state.current_player() == JAPHETH
    act(state, *[f"pitch p:0:{x}" for x in range(9, 14)])
    gained = [v - s for v, s in zip(state.vp, start, strict=True)]
    assert gained == [5, 1, 8, 5]  # Noah 5, Shem 1, Ham 8, Japheth 5
    assert state.players[SHEM]["dividers"] == 2
    check_invariants(state)


def test_seed_loading_vp():
    state = through_trading()
    act(state, *[f"divider h:3:{c}" for c in range(4, 10)], "pitch p:0:1", "pitch p:0:4")
    act(state, *[f"divider h:3:{c}" for c in range(10, 15)])
    act(state, "pitch p:0:5", "pass", *[f"pitch p:0:{x}" for x in range(9, 14)])
    start = list(state.vp)
    assert state.current_player() == JAPHETH and state.queue[0] == ["load", JAPHETH, 8]
    act(state, "food 0,2", "food 0,3", "load Lion at 0,1")
    assert names(state) == ["pass", "load Raven at 0,1"]  # 0 LP left: the ravens are free
    act(state, "load Raven at 0,1")
    gained = [v - s for v, s in zip(state.vp, start, strict=True)]
    assert gained == [4, 0, 2, 28]  # Noah 4, Shem 0, Ham 2, Japheth 28
    assert state.current_player() == NOAH
    act(state, "food 0,8", "load Elephant at 0,5")
    gained = [v - s for v, s in zip(state.vp, start, strict=True)]
    assert gained == [4 + 17, 13, 2, 28]
    # Nobody else can load: the round ends; round 2 starts with the leftmost worker, Noah's.
    assert state.round == 1 and state.current_player() == NOAH
    assert state.completed == [[1, NOAH], [3, SHEM], [5, HAM], [6, JAPHETH]]
    assert tile(state, "Raven female") not in state.hands[SHEM]
    check_invariants(state)


# ---------------------------------------------------------------------------------------------
# The game: other rules


def test_two_player_workers_and_turn_order():
    state = started(2)
    assert state.completed == [[0, 0], [1, 1], [2, 1], [3, 0]]
    order = []
    for text in ("space loading", "space building", "space forest", "space pitch"):
        order.append(state.current_player())
        act(state, text)
    assert order == [0, 1, 1, 0]
    assert state.current == [[0, 0], [4, 1], [5, 1], [6, 0]]
    assert state.turn_order == [0, 1]
    # Pitch: 3 to the occupant, 1 to the other; Forest: 4 and 2 dividers.
    assert [p["pitch"] for p in state.players] == [2 + 3, 2 + 1]
    assert [p["dividers"] for p in state.players] == [3 + 2, 3 + 4]


def test_three_player_taming_lets_the_occupant_choose_a_bag():
    state = started(3)
    act(state, "space taming", "space pitch", "space food")
    assert state.is_chance_node()
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0 and names(state) == ["bag male", "bag female"]
    act(state, "bag female")
    assert state.is_chance_node()
    assert all(state.action_to_string(a).endswith("female") for a in state.legal_actions())


def test_building_returns_dividers_inside_a_new_enclosure():
    state = started(2)
    walls = box(0, 0, 1, 1)
    res = {0: {"dividers": 8}, 1: {}}
    state = arrange(state, res=res, dividers=divs(walls[1:] + ["h:1:0"], state.colors[0]))
    act(state, "space building", "space pitch", "space food", "space forest")
    assert state.current_player() == 0
    before = state.vp[0]
    assert "divider h:1:1" in names(state)
    act(state, f"divider {walls[0]}")  # closes the 2x2: the divider inside comes back
    assert "h:1:0" not in state.dividers
    assert "divider h:1:1" not in names(state)  # no divider inside a completed enclosure
    assert state.vp[0] == before + 1
    check_invariants(state)


def test_pitch_needs_both_hull_edges():
    state = started(2)
    hull = divs("h:0:0 h:0:1", state.colors[0])
    state = arrange(state, res={0: {"pitch": 2}, 1: {}}, dividers=hull)
    act(state, "space building", "space pitch", "space food", "space forest")
    assert [a for a in names(state) if a.startswith("pitch")] == ["pitch p:0:1"]


def hull_dividers(state: an.State, first: int) -> list[dict[str, str]]:
    hull = sorted(state.grid.hull, key=state.grid.index.__getitem__)
    return [{"edge": e, "color": state.colors[0 if i < first else 1]} for i, e in enumerate(hull)]


def at_round_end(state: an.State, **kw: Any) -> an.State:
    """The same table with Phase II just finished."""
    return arrange(state, queue=[["round_end"]], current=state.completed, completed=[], **kw)


def test_the_game_goes_on_before_round_ten_or_with_an_open_hull():
    state = started(2)
    full = hull_dividers(state, 12)
    early = at_round_end(state, dividers=full, round=8)
    assert early.round == 9 and not early.is_terminal() and early.current_player() == 0
    open_hull = at_round_end(state, dividers=full[1:], round=11)
    assert open_hull.round == 12 and not open_hull.is_terminal()


def test_the_deluge_and_final_scoring():
    state = started(2)
    corner = divs(["h:1:0", "v:0:1"], state.colors[0])
    hands = {0: ["Dog male", "Cat male"], 1: ["Dog female"]}
    res = {0: {"food": 1, "dividers": 2}, 1: {"food": 1}}
    events = [[0, 30, "bonus"], [1, 20, "bonus"]]
    state = at_round_end(
        state, hands=hands, res=res, dividers=hull_dividers(state, 12) + corner,
        pitch=["p:0:0"], round=9, vp=[30, 20], events=events,
    )  # fmt: skip
    # Round 10 ends with the hull closed: the Deluge, fewest VP first, then final scoring.
    assert state.is_terminal() and state.round == 10
    assert state.food == [0]
    assert state.players[1]["food"] == 0 and state.players[0]["food"] == 1  # seat 1 went first
    assert state.loaded == [[tile(state, "Dog male") // 2, 0]]  # loaded in the Deluge, no VP
    # Seat 0: 30 + 5 (12 hull dividers) - 1 food - 2 dividers - 1 (cat); seat 1: 20.
    assert state.returns() == [31, 20]
    assert state.final["winners"] == [state.colors[0]] and state.winners() == [0]
    check_invariants(state)


def test_family_turns_resolve_at_once():
    state = started(2, FAMILY)
    assert state.current_player() == 0
    assert names(state) == [
        "space animals", "space trading", "space wood", "space building", "space loading",
    ]  # fmt: skip
    act(state, "space wood")
    assert [p["dividers"] for p in state.players] == [3 + 4, 3 + 2]
    assert state.current_player() == 1
    act(state, "space wood")  # any action, even the one just used
    assert [p["dividers"] for p in state.players] == [3 + 4 + 2, 3 + 2 + 4]
    assert state.round == 1 and state.current_player() == 0  # the start player again
    act(state, "space building", "divider h:0:0", "pass")
    assert state.vp == [0, 0]  # no VP for building in the family game
    act(state, "divider h:0:1", "pass")  # the following player builds too
    assert state.dividers == {"h:0:0": state.colors[0], "h:0:1": state.colors[1]}


def test_family_loading_and_trading():
    state = started(2, FAMILY)
    first, second = state.colors
    walls = divs(box(0, 0, 0, 0)[:2], first) + divs(box(0, 0, 0, 0)[2:], second)
    hands = {0: ["Dog male", "Cat male"], 1: ["Dog female", "Cat female", "Bear female"]}
    walls += divs(box(0, 3, 0, 3), first)
    state = arrange(state, hands=hands, dividers=walls)
    act(state, "space loading", "load Dog at 0,0")
    assert state.vp == [2 + 2, 2 + 2]  # each dog to its owner, 2 dividers each
    act(state, "load Cat at 0,3")  # the active player may load a second pair
    assert state.vp == [4 + 2 + 4, 4 + 2]
    assert state.current_player() == 1  # seat 1's turn: nothing left for seat 1 to load
    act(state, "space trading")  # +1 VP, draws from bags of choice, may exchange any animal
    assert state.vp[1] == 7
    act(state, "bag male", "Wolf male", "bag male", "Pig male", "bag female", "Deer female")
    assert "pass" in names(state)
    act(state, "pass")
    assert state.hands[1] == [tile(state, "Bear female")] and state.drawn == []
    # Animals: the active player keeps one of the drawn tiles, the rest return to the bags.
    act(state, "space animals", "Wolf male", "Pig female")
    act(state, "Pig female")
    assert state.hands[0] == [tile(state, "Pig female")] and state.drawn == []
    check_invariants(state)


# ---------------------------------------------------------------------------------------------
# Random full games


def play(n: int, config: dict, seed: int, check: bool = True) -> an.State:
    rng = random.Random(seed)
    state = an.Game(config, n).new_initial_state()
    ends: list[tuple[int, bool]] = []
    step = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert len(legal) >= 2 and legal == sorted(set(legal))
        if state.is_chance_node():
            probs = [p for _, p in state.chance_outcomes()]
            assert abs(sum(probs) - 1) < 1e-9
        before = state.round
        state.apply_action(rng.choice(legal))
        if state.round != before:
            full = all(e in state.dividers for e in state.grid.hull)
            ends.append((state.round, full))
        if check:
            check_invariants(state)
        if check and step % 97 == 0:
            twin = state.clone()
            assert twin == state and twin.legal_actions() == state.legal_actions()
            data = json.loads(json.dumps(state.to_dict()))
            assert an.State.from_dict(data) == state
            if not state.is_terminal():  # the clone shares nothing the game changes
                action = rng.choice(state.legal_actions())
                twin.apply_action(action)
                assert state.to_dict() == data
                reloaded = an.State.from_dict(data)
                reloaded.apply_action(action)
                assert twin == reloaded
        step += 1
        assert step < 20_000
    least = config["end"]["min_rounds"]
    assert ends[-1][0] >= least and ends[-1][1]  # the game ends only when RULINGS says
    assert not any(r >= least and full for r, full in ends[:-1])
    return state


@pytest.mark.parametrize("variant", [None, "family"])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_the_invariants(variant, n):
    config = FAMILY if variant else CONFIG
    for seed in range(5):
        state = play(n, config, seed)
        assert state.current_player() == an.TERMINAL and state.legal_actions() == []
        final = state.final
        assert final["scores"] == dict(zip(state.colors, state.returns(), strict=True))
        for seat, colour in enumerate(state.colors):
            before = sum(v for p, v, kind in state.events
                         if p == seat and kind not in ("hull_bonus", "penalty"))  # fmt: skip
            after = before + final["hull_bonus"][colour] - final["penalties"][colour]
            assert final["scores"][colour] == after
        best = max(state.returns())
        assert state.winners() == [p for p, v in enumerate(state.returns()) if v == best]
        if variant is None:  # the Deluge left nothing loadable
            food_left = any(p["food"] for p in state.players)
            empty = [sq for e in state.enclosures() for sq in e.squares if sq not in state.food]
            assert not (food_left and empty)


def test_random_games_are_deterministic():
    first, second = play(3, CONFIG, 11, check=False), play(3, CONFIG, 11, check=False)
    assert first.history == second.history and first.returns() == second.returns()


# ---------------------------------------------------------------------------------------------
# Seating and the starting deal


def test_seating_plays_the_seated_colours_in_seat_order() -> None:
    out = an.seating(CONFIG, {"seated": ["Green", "White", "Red"]})
    assert out == {"ok": True, "colors": ["Red", "Green"], "ignored": ["White"], "reason": ""}
    alone = an.seating(CONFIG, {"seated": ["Blue"]})
    assert not alone["ok"] and alone["colors"] == ["Blue"]
    assert alone["reason"] == "2-4 players must sit at Red, Yellow, Green, Blue; 1 seated there"
    with pytest.raises(ValueError):
        an.seating(CONFIG, {"seated": ["Red", "Red"]})


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_starting_deal_follows_the_setup_rules(n: int) -> None:
    setup = CONFIG["setup"]
    per_seat = setup["males"] + setup["females"]
    deals = set()
    for k in range(40):
        rolls = [(k * 7919 + 31 * i * i) % 1000 for i in range(n * per_seat)]
        out = an.starting_deal(CONFIG, {"players": n, "rolls": rolls})
        in_play = an.tiles_in_play(CONFIG, n)
        dealt = [t for hand in out["hands"] for t in hand]
        assert sorted(dealt + out["bags"]["male"] + out["bags"]["female"]) == in_play
        assert sorted(in_play + out["unused"]) == list(range(2 * len(CONFIG["species"])))
        for hand in out["hands"]:
            assert sum(t % 2 == 0 for t in hand) == setup["males"]
            assert sum(t % 2 == 1 for t in hand) == setup["females"]
            assert not any(t ^ 1 in hand for t in hand)  # no starting pair
        deals.add(json.dumps(out["hands"]))
    assert len(deals) > 30  # the rolls decide: not one fixed deal
    with pytest.raises(ValueError):
        an.starting_deal(CONFIG, {"players": n, "rolls": [0] * (n * per_seat - 1)})


def test_small_player_counts_leave_their_species_out() -> None:
    names = [s["name"] for s in CONFIG["species"]]
    unused = an.starting_deal(CONFIG, {"players": 2, "rolls": [0] * 8})["unused"]
    assert {names[t // 2] for t in unused} == {
        s["name"] for s in CONFIG["species"] if s.get("min_players", 0) > 2
    }
    family = an.starting_deal(FAMILY, {"players": 4, "rolls": [0] * 16})["unused"]
    assert {CONFIG["species"][t // 2]["size"] for t in family} == {0}
