"""rules_ref for arche-noah-flood: seed examples, rule functions, map checks, full games."""

from __future__ import annotations

import copy
import heapq
import json
import random

import pytest
from flood_seed import COLS, CONFIG, MAP, ROWS, SPECIES, chain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_ref import arche_noah_flood as F

TERRAIN = {"P": "plain", "F": "forest", "M": "mountain", "S": "swamp"}


def cost(animal: str, frm, to, game_map=None, **extra) -> dict:
    inp = {"animal": animal, "from": list(frm), "to": to if to == "ark" else list(to), **extra}
    if game_map is not None:
        inp["map"] = game_map
    return F.move_cost(CONFIG, inp)


# --------------------------------------------------------------------------------------------
# Hex geometry (odd-r, issue 3 part 1)


def test_neighbours_odd_r():
    assert F.neighbours(2, 1, ROWS, COLS) == [(1, 0), (1, 1), (2, 0), (2, 2), (3, 0), (3, 1)]
    assert F.neighbours(3, 1, ROWS, COLS) == [(2, 1), (2, 2), (3, 0), (3, 2), (4, 1), (4, 2)]
    assert F.neighbours(0, 0, ROWS, COLS) == [(0, 1), (1, 0)]
    assert F.neighbours(1, COLS - 1, ROWS, COLS) == [(0, COLS - 1), (1, COLS - 2), (2, COLS - 1)]
    for r in range(ROWS):
        for c in range(COLS):
            for a, b in F.neighbours(r, c, ROWS, COLS):
                assert (r, c) in F.neighbours(a, b, ROWS, COLS)


# --------------------------------------------------------------------------------------------
# Seed examples


def test_camel_onto_a_mountain_costs_3():
    assert MAP["terrain"][0][5] == "M" and MAP["terrain"][0][4] == "P"
    assert cost("Camel", (0, 4), (0, 5)) == {"cost": 3, "path": [[0, 4], [0, 5]]}
    assert cost("Giraffe", (0, 4), (0, 5))["cost"] == 2
    assert cost("Hippo", (0, 4), (0, 5)) == {"cost": None, "path": []}


def test_elephant_across_the_river_into_forest_costs_5():
    assert cost("Elephant", (0, 0), (1, 0), chain("PFP", river_after=0))["cost"] == 5
    # On the game's map the ford next door is cheaper (1 + 2) ...
    free = cost("Elephant", (4, 2), (5, 2))
    assert free == {"cost": 3, "path": [[4, 2], [4, 3], [5, 2]]}
    # ... unless an animal stands on the way to it: then straight across, 2 + 3.
    blocked = cost("Elephant", (4, 2), (5, 2), occupied=[[4, 3]])
    assert blocked == {"cost": 5, "path": [[4, 2], [5, 2]]}


def test_camel_and_giraffe_cross_only_at_fords():
    river = chain("PPP", river_after=0)
    ford = chain("PPP", river_after=0, ford=True)
    for animal in ("Camel", "Giraffe"):
        assert cost(animal, (0, 0), (1, 0), river)["cost"] is None
        assert cost(animal, (0, 0), (1, 0), ford)["cost"] == 1
    assert cost("Hippo", (0, 0), (1, 0), river)["cost"] == 2
    assert cost("Eagle", (0, 0), (1, 0), river)["cost"] == 1
    # On the game's map every river edge a camel's or giraffe's route crosses is a ford.
    rivers = {frozenset(map(tuple, e)) for e in MAP["rivers"]}
    fords = {frozenset(map(tuple, e)) for e in MAP["fords"]}
    for animal in ("Camel", "Giraffe"):
        for start in MAP["starts"]:
            path = cost(animal, start, "ark")["path"]
            crossed = {
                frozenset((tuple(a), tuple(b))) for a, b in zip(path, path[1:], strict=False)
            } & rivers
            assert crossed and crossed <= fords


def test_eagle_flies_over_animals_and_never_enters_swamp():
    row = {"terrain": ["PPP"], "rivers": [], "fords": [], "stairs": [[0, 2]]}
    assert cost("Eagle", (0, 0), (0, 2), row, occupied=[[0, 1]]) == {
        "cost": 2,
        "path": [[0, 0], [0, 1], [0, 2]],
    }
    assert cost("Elephant", (0, 0), (0, 2), row, occupied=[[0, 1]])["cost"] is None
    assert cost("Eagle", (0, 0), (0, 1), row, occupied=[[0, 1]])["cost"] is None  # no landing
    swamp = {"terrain": ["PSP"], "rivers": [], "fords": [], "stairs": [[0, 2]]}
    assert cost("Eagle", (0, 0), (0, 2), swamp)["cost"] is None
    assert cost("Eagle", (0, 0), (0, 1), swamp)["cost"] is None
    assert cost("Hippo", (0, 0), (0, 2), swamp)["cost"] == 2
    # Flooded hexes stop everybody, the eagle too.
    assert cost("Eagle", (0, 0), (0, 2), row, flooded=[[0, 1]])["cost"] is None


def test_no_step_away_from_the_ark_in_the_last_three_rows():
    line = chain("PPPPP")  # rows 2, 3, 4 are the last three
    assert cost("Eagle", (1, 0), (0, 0), line)["cost"] == 1
    assert cost("Eagle", (2, 0), (1, 0), line)["cost"] is None
    assert cost("Eagle", (4, 0), (3, 0), line)["cost"] is None
    assert cost("Eagle", (3, 0), (4, 0), line)["cost"] == 1
    assert cost("Eagle", (7, 3), (6, 3))["cost"] is None  # the game's map: row 7 of 10
    assert cost("Eagle", (6, 3), (5, 3))["cost"] == 1
    assert cost("Eagle", (8, 5), (8, 8)) == {"cost": 3, "path": [[8, 5], [8, 6], [8, 7], [8, 8]]}
    # Swamp at (8, 4) and no way back up: the eagle cannot get from (8, 2) to (8, 5).
    assert cost("Eagle", (8, 2), (8, 5))["cost"] is None


def test_entering_the_ark_costs_1():
    for animal in SPECIES:
        for stair in MAP["stairs"]:
            assert cost(animal, stair, "ark") == {"cost": 1, "path": [stair]}
    assert cost("Elephant", (9, 2), "ark") == {"cost": 2, "path": [[9, 2], [9, 1]]}
    assert cost("Eagle", (9, 2), "ark", flooded=[[9, 1]]) == {
        "cost": 3,
        "path": [[9, 2], [9, 3], [9, 4]],
    }


def test_junior_every_hex_costs_1_anywhere():
    river = chain("PSMP", river_after=0)
    for animal in SPECIES:
        got = cost(animal, (0, 0), "ark", river, variant="junior")
        assert got == {"cost": 4, "path": [[0, 0], [1, 0], [2, 0], [3, 0]]}
    assert cost("Camel", (0, 0), "ark", river)["cost"] is None


def test_input_map_replaces_the_config_map_and_from_equals_to():
    assert cost("Hippo", (0, 0), (0, 0), chain("PP")) == {"cost": 0, "path": [[0, 0]]}
    assert cost("Hippo", (0, 0), (1, 0), chain("PS"))["cost"] == 1
    assert cost("Elephant", (0, 0), (1, 0), chain("PS"))["cost"] is None


def test_null_inputs_mean_absent_and_empty_maps_are_refused():
    """A Lua table cannot hold nil, so a null key must mean what an absent key means."""
    plain = {"animal": "Elephant", "from": [2, 1], "to": "ark"}
    nulls = {**plain, "variant": None, "map": None, "flooded": None, "occupied": None}
    assert F.move_cost(CONFIG, nulls) == F.move_cost(CONFIG, plain)
    assert F.reaches_ark(CONFIG, {"animal": "Camel", "at": [2, 1], "variant": None})["reachable"]
    assert F.dice_effect(CONFIG, {"values": ["3"], "variant": None})["points"] == 3
    assert F.flood_advance(CONFIG, {"row": 0, "col": 0, "rolls": [2], "map": None})["col"] == 2
    line = {"terrain": ["PP"], "rivers": None, "fords": None, "stairs": [[0, 1]]}
    assert cost("Hippo", (0, 0), "ark", line) == {"cost": 2, "path": [[0, 0], [0, 1]]}
    for terrain in ([], [""], "PPP", ["PP", 5]):
        with pytest.raises(ValueError):
            cost("Hippo", (0, 0), (0, 0), {"terrain": terrain, "stairs": [[0, 0]]})


def test_a_piece_on_a_flooded_hex_goes_nowhere():
    rules, board = F._Rules(CONFIG), F._board(MAP)
    dist, ark = F._dist_from(rules, board, "Eagle", (9, 2), frozenset({(9, 2)}), frozenset(), 9)
    assert (dist, ark) == ({(9, 2): 0}, None)
    assert cost("Eagle", (9, 2), "ark", flooded=[[9, 2]]) == {"cost": None, "path": []}


# --------------------------------------------------------------------------------------------
# dice_effect, flood_advance, reaches_ark, arrival


def test_dice_effect():
    assert F.dice_effect(CONFIG, {"values": ["3", "0"]}) == {"points": 3, "sun": 0, "water": 0}
    assert F.dice_effect(CONFIG, {"values": ["5", "5"]})["points"] == 10
    junior = {"variant": "junior"}
    assert F.dice_effect(CONFIG, {"values": ["sun", "water"], **junior}) == {
        "points": 0,
        "sun": 1,
        "water": 1,
    }
    assert F.dice_effect(CONFIG, {"values": ["2", "sun"], **junior}) == {
        "points": 2,
        "sun": 1,
        "water": 0,
    }
    with pytest.raises(ValueError):
        F.dice_effect(CONFIG, {"values": ["6", "1"]})
    with pytest.raises(ValueError):
        F.dice_effect(CONFIG, {"values": ["sun", "1"]})


def test_flood_advance_floods_in_order_and_wraps_to_the_next_row():
    got = F.flood_advance(CONFIG, {"row": 0, "col": 0, "rolls": [7, 2]})
    assert got == {"row": 0, "col": 9, "newly_flooded": [[0, c] for c in range(9)]}
    wrap = F.flood_advance(CONFIG, {"row": 0, "col": 9, "rolls": [5]})
    assert wrap == {
        "row": 1,
        "col": 2,
        "newly_flooded": [[0, 9], [0, 10], [0, 11], [1, 0], [1, 1]],
    }
    exact = F.flood_advance(CONFIG, {"row": 3, "col": 10, "rolls": [0, 2]})
    assert exact == {"row": 4, "col": 0, "newly_flooded": [[3, 10], [3, 11]]}
    small = {"terrain": ["PPP", "PPP"], "rivers": [], "fords": [], "stairs": [[1, 0]]}
    two_rows = F.flood_advance(CONFIG, {"row": 0, "col": 2, "rolls": [3], "map": small})
    assert two_rows == {"row": 1, "col": 2, "newly_flooded": [[0, 2], [1, 0], [1, 1]]}


def reach(animal: str, at: list[int], flooded: list) -> bool:
    got = F.reaches_ark(CONFIG, {"animal": animal, "at": at, "flooded": flooded})
    assert set(got) == {"reachable"}
    return got["reachable"]


def test_reaches_ark():
    assert reach("Elephant", [2, 1], [])
    assert not reach("Eagle", [9, 11], [[9, c] for c in range(11)])  # only (9, 11) is dry
    assert not reach("Eagle", [0, 0], [[0, 0]])
    # Camels need a ford: flood the north banks of all six and they are cut off.
    north_banks = [[4, 1], [4, 3], [5, 6], [5, 7], [5, 9], [5, 11]]
    assert not reach("Camel", [3, 2], north_banks)
    assert not reach("Giraffe", [3, 2], north_banks)
    assert reach("Hippo", [3, 2], north_banks)


def test_arrival_second_of_a_species_puts_its_holders_out():
    cards = ["Camel", "Eagle", "Camel"]
    assert F.arrival(CONFIG, {"arrived": ["Camel"], "cards": cards}) == {"out": [], "winners": []}
    assert F.arrival(CONFIG, {"arrived": ["Camel", "Eagle", "Camel"], "cards": cards}) == {
        "out": [0, 2],
        "winners": [],
    }


def test_arrival_last_animal_names_the_winners():
    arrived = ["Camel", "Camel", "Hippo", "Hippo", "Elephant", "Eagle", "Elephant", "Giraffe"]
    arrived += ["Giraffe", "Eagle"]
    cards = ["Camel", "Eagle", "Hippo", "Eagle"]
    assert F.arrival(CONFIG, {"arrived": arrived, "cards": cards}) == {
        "out": [0, 1, 2, 3],
        "winners": [1, 3],
    }
    junior = {"arrived": arrived, "players": 4, "variant": "junior"}
    assert F.arrival(CONFIG, junior) == {"out": [], "winners": [0, 1, 2, 3]}
    assert F.arrival(CONFIG, {**junior, "arrived": arrived[:9]}) == {"out": [], "winners": []}


def test_seating_keeps_seat_order_and_names_unlisted_colours():
    seats = ["White", "Red", "Yellow", "Green", "Blue"]
    out = F.seating(CONFIG, {"seats": seats, "seated": ["Blue", "Pink", "Red"], "min": 3, "max": 5})
    assert out == {
        "players": ["Red", "Blue"],
        "slots": [1, 4],
        "unlisted": ["Pink"],
        "enough": False,
        "start": 0,
    }


def test_next_player_skips_players_who_are_out():
    out = [False, True, False, True]
    assert F.next_player(CONFIG, {"out": out, "after": -1}) == {"seat": 0}
    assert F.next_player(CONFIG, {"out": out, "after": 0}) == {"seat": 2}
    assert F.next_player(CONFIG, {"out": out, "after": 2}) == {"seat": -1}


def test_payment_armed_sun_points_then_unarmed_sun():
    budget = CONFIG["junior"]["sun_hexes"] * CONFIG["junior"]["step_cost"]
    junior = {"variant": "junior", "sun": 1}
    pay = lambda **kw: F.payment(CONFIG, {**junior, **kw})["pay"]  # noqa: E731
    assert pay(cost=1, points=3, sun_armed=True) == "sun"
    assert pay(cost=budget + 1, points=9, sun_armed=True) == "none"
    assert pay(cost=1, points=3) == "points"
    assert pay(cost=budget, points=0) == "sun"
    assert pay(cost=budget + 1, points=0) == "none"
    assert F.payment(CONFIG, {"cost": 1, "points": 0, "sun": 1})["sun_budget"] == 0


def test_functions_table():
    names = [
        "dice_effect",
        "flood_advance",
        "move_cost",
        "reaches_ark",
        "arrival",
        "seating",
        "next_player",
        "payment",
        "step_cost",
        "destinations",
        "check_flood",
    ]
    assert {name: getattr(F, name) for name in names} == F.FUNCTIONS
    json.dumps(cost("Elephant", (2, 1), "ark"))  # JSON-shaped


# --------------------------------------------------------------------------------------------
# The game's map and validate_map


def test_default_map_validates_and_every_start_reaches_the_ark():
    assert F.validate_map(CONFIG) == []
    assert ROWS == 10 and COLS == 12
    assert len(MAP["starts"]) >= CONFIG["min_start_hexes"]
    assert all(2 * r < ROWS for r, _ in MAP["starts"])
    assert 2 <= len(MAP["stairs"]) <= 4 and all(r == ROWS - 1 for r, _ in MAP["stairs"])
    for animal in SPECIES:
        for start in MAP["starts"]:
            assert F.reaches_ark(CONFIG, {"animal": animal, "at": start})["reachable"]
            assert cost(animal, start, "ark")["cost"] is not None


def test_default_river_crosses_the_map_with_six_fords():
    rivers = {frozenset(map(tuple, e)) for e in MAP["rivers"]}
    fords = {frozenset(map(tuple, e)) for e in MAP["fords"]}
    assert len(fords) == 6 and fords <= rivers
    # It touches both sides ...
    assert any(h[1] == 0 for e in rivers for h in e)
    assert any(h[1] == COLS - 1 for e in rivers for h in e)
    # ... and no walk from the top row to the last row avoids crossing it.
    seen = {(0, c) for c in range(COLS)}
    todo = list(seen)
    while todo:
        r, c = todo.pop()
        for v in F.neighbours(r, c, ROWS, COLS):
            if v not in seen and frozenset(((r, c), v)) not in rivers:
                seen.add(v)
                todo.append(v)
    assert not any(r == ROWS - 1 for r, _ in seen)
    assert all(tuple(s) in seen for s in MAP["starts"])  # every animal has to cross it


def bad_map(**changes) -> dict:
    game_map = copy.deepcopy(MAP)
    game_map.update(changes)
    return game_map


def test_validate_map_rejects_ragged_rows_and_unknown_letters():
    terrain = list(MAP["terrain"])
    terrain[3] = terrain[3][:-1]
    assert any(
        p.where == "terrain[3]" and "row 3" in p.message and "ragged" in p.message
        for p in F.validate_map(CONFIG, bad_map(terrain=terrain))
    )
    terrain = list(MAP["terrain"])
    terrain[2] = terrain[2][:5] + "X" + terrain[2][6:]
    problems = F.validate_map(CONFIG, bad_map(terrain=terrain))
    assert problems == [("terrain[2]", "hex (2, 5): unknown terrain letter 'X' (F, M, P, S)")]


def test_validate_map_rejects_a_ford_off_the_river():
    fords = [*MAP["fords"], [[0, 0], [0, 1]]]
    assert F.validate_map(CONFIG, bad_map(fords=fords)) == [
        ("fords[6]", "ford (0, 0)-(0, 1) is not on a river edge")
    ]
    rivers = [*MAP["rivers"], [[0, 0], [2, 0]]]
    assert F.validate_map(CONFIG, bad_map(rivers=rivers)) == [
        ("rivers[24]", "river edge (0, 0)-(2, 0) joins hexes that are not neighbours")
    ]


def test_validate_map_rejects_too_few_or_misplaced_start_hexes():
    problems = F.validate_map(CONFIG, bad_map(starts=MAP["starts"][:9]))
    assert problems == [("starts", "9 start hexes; at least 10 are needed")]
    problems = F.validate_map(CONFIG, bad_map(starts=[*MAP["starts"], [7, 3]]))
    assert problems == [("starts[12]", "start hex (7, 3) is not in the upper half of the map")]
    problems = F.validate_map(CONFIG, bad_map(starts=[*MAP["starts"], [0, 0], MAP["starts"][1]]))
    assert problems == [("starts[13]", f"start hex {F._fmt(MAP['starts'][1])} is listed twice")]


def test_validate_map_rejects_bad_stairs():
    assert F.validate_map(CONFIG, bad_map(stairs=[[9, 1]])) == [
        ("stairs", "1 stair hexes; the Ark needs 2 to 4")
    ]
    problems = F.validate_map(CONFIG, bad_map(stairs=[[9, 1], [8, 4]]))
    assert problems == [("stairs[1]", "stair hex (8, 4) is not a hex of the last row (row 9)")]
    problems = F.validate_map(CONFIG, bad_map(stairs=[[9, 1], "x"]))
    assert problems == [("stairs[1]", "stair hex 'x' is not a hex of the last row (row 9)")]


def test_validate_map_names_the_start_hex_and_the_animal_that_cannot_reach_the_ark():
    terrain = [list(row) for row in MAP["terrain"]]
    for r, c in F.neighbours(2, 1, ROWS, COLS):
        terrain[r][c] = "M"  # a ring of mountains: hippos cannot leave
    problems = F.validate_map(CONFIG, bad_map(terrain=["".join(row) for row in terrain]))
    assert problems == [("starts[0]", "start hex (2, 1): Hippo cannot reach the Ark")]
    for r, c in F.neighbours(2, 1, ROWS, COLS):
        terrain[r][c] = "S"  # a ring of swamp: only hippos can leave
    problems = F.validate_map(CONFIG, bad_map(terrain=["".join(row) for row in terrain]))
    assert problems == [
        ("starts[0]", f"start hex (2, 1): {animal} cannot reach the Ark")
        for animal in ("Elephant", "Camel", "Giraffe", "Eagle")
    ]
    no_fords = F.validate_map(CONFIG, bad_map(fords=[]))
    assert len(no_fords) == 2 * len(MAP["starts"])
    assert ("starts[0]", "start hex (2, 1): Camel cannot reach the Ark") in no_fords
    at = f"starts[{MAP['starts'].index([4, 11])}]"
    assert (at, "start hex (4, 11): Giraffe cannot reach the Ark") in no_fords


# --------------------------------------------------------------------------------------------
# Hypothesis: move_cost against an independent oracle


def oracle_step(variant: str, game_map: dict, animal: str, u, v) -> int | None:
    """The cost of one step, straight from the cost table (independent of the module)."""
    rows = len(game_map["terrain"])
    if u[0] >= rows - CONFIG["no_retreat_rows"] and v[0] < u[0]:
        return None
    edge = {tuple(u), tuple(v)}
    river = any({tuple(a), tuple(b)} == edge for a, b in game_map["rivers"])
    ford = any({tuple(a), tuple(b)} == edge for a, b in game_map["fords"])
    if variant == "junior":
        return CONFIG["junior"]["step_cost"]
    enter = CONFIG["costs"][animal][TERRAIN[game_map["terrain"][v[0]][v[1]]]]
    if enter is None:
        return None
    if river and ford:
        return enter + CONFIG["ford_cost"]
    if river:
        extra = CONFIG["costs"][animal]["river"]
        return None if extra in (None, "fords_only") else enter + extra
    return enter


def oracle_path(variant, game_map, animal, frm, to, flooded, occupied):
    """Label-setting search on (cost, path) pairs: the cheapest, then lexicographically least."""
    rows, cols = len(game_map["terrain"]), len(game_map["terrain"][0])
    frm = tuple(frm)
    occupied = occupied - {frm}
    flier = animal in CONFIG["flies_over_animals"]
    if frm in flooded or (to != "ark" and (tuple(to) in flooded or tuple(to) in occupied)):
        return None, []
    stairs = {tuple(s) for s in game_map["stairs"]}
    heap = [(0, [frm], frm)]
    settled = set()
    while heap:
        c, path, node = heapq.heappop(heap)
        if node == "ark" or (to != "ark" and node == tuple(to)):
            return c, [list(h) for h in path]
        if node in settled:
            continue
        settled.add(node)
        if node != frm and not flier and node in occupied:
            continue
        if to == "ark" and node in stairs:
            heapq.heappush(heap, (c + CONFIG["ark_entry_cost"], path, "ark"))
        for v in F.neighbours(node[0], node[1], rows, cols):
            if v in flooded or v in settled or (not flier and v in occupied):
                continue
            w = oracle_step(variant, game_map, animal, node, v)
            if w is not None:
                heapq.heappush(heap, (c + w, [*path, v], v))
    return None, []


@st.composite
def maps(draw) -> dict:
    rows = draw(st.integers(2, 5))
    cols = draw(st.integers(1, 5))
    terrain = [
        "".join(draw(st.lists(st.sampled_from("PPPFMS"), min_size=cols, max_size=cols)))
        for _ in range(rows)
    ]
    edges = sorted(
        {
            tuple(sorted(((r, c), v)))
            for r in range(rows)
            for c in range(cols)
            for v in F.neighbours(r, c, rows, cols)
        }
    )
    n = len(edges)
    marks = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    rivers = [e for e, m in zip(edges, marks, strict=True) if m < 2]  # a third are river edges
    fords = [e for e, m in zip(edges, marks, strict=True) if m == 0]  # half of them fords
    stairs = sorted(draw(st.sets(st.integers(0, cols - 1), min_size=1, max_size=cols)))
    return {
        "terrain": terrain,
        "rivers": [[list(a), list(b)] for a, b in rivers],
        "fords": [[list(a), list(b)] for a, b in fords],
        "stairs": [[rows - 1, c] for c in stairs],
    }


@st.composite
def queries(draw, game_maps=None):
    game_map = draw(game_maps if game_maps is not None else st.one_of(maps(), st.just(MAP)))
    rows, cols = len(game_map["terrain"]), len(game_map["terrain"][0])
    hexes = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    frm = draw(hexes)
    to = draw(st.one_of(st.just("ark"), hexes))
    few = max(1, rows * cols // 4)
    flooded = draw(st.sets(hexes, max_size=few))
    occupied = draw(st.sets(hexes, max_size=few))
    return {
        "map": game_map,
        "animal": draw(st.sampled_from(SPECIES)),
        "from": list(frm),
        "to": to if to == "ark" else list(to),
        "flooded": sorted(list(h) for h in flooded),
        "occupied": sorted(list(h) for h in occupied),
        "variant": draw(st.sampled_from(["standard", "standard", "junior"])),
    }


FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(queries())
def test_move_cost_paths_are_legal_contiguous_and_cheapest(inp):
    got = F.move_cost(CONFIG, inp)
    game_map, animal, variant = inp["map"], inp["animal"], inp["variant"]
    flooded = {tuple(h) for h in inp["flooded"]}
    occupied = {tuple(h) for h in inp["occupied"]} - {tuple(inp["from"])}
    want = oracle_path(variant, game_map, animal, inp["from"], inp["to"], flooded, occupied)
    assert (got["cost"], got["path"]) == want
    if got["cost"] is None:
        assert got["path"] == []
        return
    path = [tuple(h) for h in got["path"]]
    rows, cols = len(game_map["terrain"]), len(game_map["terrain"][0])
    assert path[0] == tuple(inp["from"])
    total = 0
    for u, v in zip(path, path[1:], strict=False):
        assert v in F.neighbours(u[0], u[1], rows, cols)
        step = oracle_step(variant, game_map, animal, u, v)
        assert step is not None
        total += step
    assert not set(path) & flooded
    if inp["to"] == "ark":
        assert path[-1] in {tuple(s) for s in game_map["stairs"]}
        total += CONFIG["ark_entry_cost"]
    else:
        assert path[-1] == tuple(inp["to"]) and path[-1] not in occupied
    if animal not in CONFIG["flies_over_animals"]:
        assert not set(path[1:]) & occupied
    assert total == got["cost"]
    assert len(set(path)) == len(path)


@FAST
@given(queries())
def test_reaches_ark_agrees_with_move_cost_on_an_empty_board(inp):
    query = {**inp, "to": "ark", "occupied": []}
    reach = F.reaches_ark(CONFIG, {**inp, "at": inp["from"]})["reachable"]
    assert reach == (F.move_cost(CONFIG, query)["cost"] is not None)


# --------------------------------------------------------------------------------------------
# The game


def check_invariants(state: F.FloodState, before: F.FloodState | None) -> None:
    game = state.game
    assert len(state.positions) == game.num_pieces == 10
    on_board = [tuple(p) for p in state.positions if isinstance(p, list)]
    assert len(on_board) == len(set(on_board))  # no two animals on one hex
    assert state.positions.count("ark") == len(state.arrived)
    if state.phase not in ("place", "over"):
        assert len(on_board) + len(state.arrived) == 10
    if before is not None:
        assert before.flooded() <= state.flooded()  # the flood only grows
        assert all(state.out[s] for s in range(game.num_players) if before.out[s])
    if not state.is_terminal():
        flooded = state.flooded()
        assert not set(on_board) & flooded
        legal = state.legal_actions()
        assert legal == sorted(legal) and legal
        if state.is_chance_node():
            assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-9
        else:
            assert not state.out[state.current_player()]  # out players never act


def play_checked(game: F.FloodGame, seed: int, explore: float) -> F.FloodState:
    """Play with the cooperative policy, a random move with probability ``explore``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    prev = None
    for _ in range(5000):
        check_invariants(state, prev)
        if state.is_terminal():
            return state
        prev = state.clone()
        assert prev == state
        assert F.FloodState.from_dict(game, json.loads(json.dumps(state.to_dict()))) == state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        if rng.random() < explore:
            action = rng.choice(state.legal_actions())
        else:
            action = F.cooperative_policy(state)
        if action != F.END_TURN:
            pool, piece, dest = game.decode_action(action)
            animal = game.species_of(piece)
            others = sorted(state.occupied() - {tuple(state.positions[piece])})
            want = F.move_cost(
                CONFIG,
                {
                    "animal": animal,
                    "from": state.positions[piece],
                    "to": dest if dest == "ark" else list(dest),
                    "occupied": [list(h) for h in others],
                    "flooded": [list(h) for h in sorted(state.flooded())],
                    "variant": game.variant,
                },
            )
            assert state.move_costs()[action] == want["cost"]
        state.apply_action(action)
    raise AssertionError("game did not end")


def check_end(state: F.FloodState) -> None:
    game = state.game
    returns = state.returns()
    if state.outcome == "won":
        assert len(state.arrived) == 10 and "ark" == state.positions[0] == state.positions[-1]
        last = state.arrived[-1]
        if game.junior:
            assert returns == [1.0] * game.num_players
        else:
            assert state.winners == [s for s, c in enumerate(state.cards) if c == last]
            assert returns == [1.0 if s in state.winners else 0.0 for s in range(game.num_players)]
    else:
        assert state.outcome.startswith(("drowned", "cut off"))
        assert returns == [-1.0] * game.num_players
        assert len(state.arrived) < 10


@pytest.mark.parametrize("variant", ["standard", "junior"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_full_games_end_and_keep_invariants(variant, players):
    outcomes = set()
    for seed in range(4):
        game = F.FloodGame(CONFIG, players, variant, distinct_species=seed % 2 == 1)
        state = play_checked(game, seed * 101 + players, explore=0.15 if seed < 2 else 0.6)
        check_end(state)
        outcomes.add(state.outcome.split(":")[0])
        if not game.junior:
            assert all(c in SPECIES for c in state.cards)
            if game.distinct:
                assert len(set(state.cards)) == players
    assert outcomes


def test_cooperative_policy_wins_and_loses_standard_games():
    results = [
        F.play(F.FloodGame(CONFIG, n), random.Random(seed)) for n in (3, 4, 5) for seed in range(12)
    ]
    for state in results:
        check_end(state)
    wins = sum(s.outcome == "won" for s in results)
    assert 0 < wins < len(results)
    junior = [F.play(F.FloodGame(CONFIG, 4, "junior"), random.Random(s)) for s in range(5)]
    assert all(s.outcome == "won" and s.returns() == [1.0] * 4 for s in junior)


def scenario(players: int = 3, variant: str = "standard", **fields) -> F.FloodState:
    """A mid-game state: every animal aboard except those given in ``positions``."""
    game = F.FloodGame(CONFIG, players, variant)
    state = game.new_initial_state()
    data = state.to_dict()
    data.update(phase="move", points=0, cards=["Camel", "Eagle", "Hippo"][:players])
    data.update(fields)
    return F.FloodState.from_dict(game, data)


def test_second_camel_boarding_puts_its_holder_out_and_ends_the_turn():
    positions = ["ark"] * 10
    positions[4], positions[5] = [9, 1], [9, 4]  # the two camels
    positions[9] = [8, 8]  # an eagle
    arrived = ["Elephant"] * 2 + ["Hippo"] * 2 + ["Giraffe"] * 2 + ["Eagle"]
    state = scenario(positions=positions, arrived=arrived, points=5, out=[False, False, True])
    game = state.game
    state.apply_action(game.move_action(F.POOL_POINTS, 4, "ark"))
    assert state.out == [False, False, True] and state.points == 4 and state.active == 0
    state.apply_action(game.move_action(F.POOL_POINTS, 5, "ark"))
    assert state.out == [True, False, True]
    assert state.phase == "roll" and state.active == 1 and state.points == 0
    # Eagle holder rolls 3 + 2, flies to the stair and boards: the last animal, seat 1 wins.
    state.apply_action(3)
    state.apply_action(2)
    assert state.points == 5 and state.current_player() == 1
    state.apply_action(game.move_action(F.POOL_POINTS, 9, "ark"))
    assert state.is_terminal() and state.outcome == "won"
    assert state.winners == [1] and state.returns() == [0.0, 1.0, 0.0]
    assert state.out == [True, True, True]


def test_flood_round_drowns_an_animal_and_everybody_loses():
    positions = ["ark"] * 10
    positions[0] = [1, 3]
    arrived = ["Hippo"] * 2 + ["Camel"] * 2 + ["Giraffe"] * 2 + ["Eagle"] * 2 + ["Elephant"]
    state = scenario(
        positions=positions,
        arrived=arrived,
        cards=["Elephant", "Camel", "Elephant"],
        out=[False, True, False],
        phase="roll",
        active=2,
        flood_row=1,
    )
    state.apply_action(0)
    state.apply_action(0)  # seat 2 rolls 0 + 0: no move, the round ends
    assert state.phase == "flood" and state.flood_rolls_left == 3
    for face in (1, 1, 0, 0, 2, 0):  # 2, 0, 2 hexes
        assert state.current_player() == F.CHANCE
        state.apply_action(face)
    assert state.is_terminal() and state.outcome == "drowned: Elephant at (1, 3)"
    assert state.flood_col == 4 and state.returns() == [-1.0] * 3


def test_junior_sun_and_water():
    positions = ["ark"] * 10
    positions[0] = [4, 2]
    arrived = ["Hippo"] * 2 + ["Camel"] * 2 + ["Giraffe"] * 2 + ["Eagle"] * 2 + ["Elephant"]
    state = scenario(
        variant="junior", positions=positions, phase="roll", cards=[None] * 3, arrived=arrived
    )
    game = state.game
    assert game.faces == ["1", "1", "2", "2", "sun", "water"]
    state.apply_action(4)
    state.apply_action(5)  # sun + water
    assert (state.points, state.sun, state.flood_count()) == (0, 1, 4)
    sun_moves = {game.decode_action(a)[2] for a in state.legal_actions() if a != F.END_TURN}
    assert (4, 2) not in sun_moves and (6, 2) in sun_moves and (7, 2) not in sun_moves
    state.apply_action(game.move_action(F.POOL_SUN, 0, (6, 2)))
    assert state.positions[0] == [6, 2] and state.phase == "roll" and state.active == 1
    with pytest.raises(ValueError):
        state.apply_action(99)  # not a face of these dice
    state.apply_action(2)
    state.apply_action(0)  # 2 + 1 points
    with pytest.raises(ValueError):
        state.apply_action(game.move_action(F.POOL_POINTS, 0, "ark"))  # 3 hexes + boarding
    state.apply_action(game.move_action(F.POOL_POINTS, 0, (9, 2)))
    assert state.positions[0] == [9, 2] and state.phase == "roll" and state.active == 2
