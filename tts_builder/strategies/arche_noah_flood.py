"""Hypothesis inputs for the flood race's rule functions, built from the game's rule config.

Every movement query runs on the game's own map or on a small generated odd-r map (random
terrain from the config's letters, river edges, fords, stray fords off the river, stairs in the
last row); hexes flooded as the marker floods them or at random, occupied hexes, ``to: "ark"``,
the junior variant. Dice values are the faces as rotation values (strings, sometimes numbers),
junior symbols included, with now and then a value that is no face. Flood rolls wrap rows.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]
Hex = list[int]


def neighbours(r: int, c: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """In-bounds odd-r neighbours of ``(r, c)`` (issue 3 part 1)."""
    if r % 2 == 0:
        cand = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r - 1, c), (r - 1, c + 1), (r, c - 1), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [(a, b) for a, b in cand if 0 <= a < rows and 0 <= b < cols]


def map_size(game_map: dict[str, Any]) -> tuple[int, int]:
    """(rows, cols) of a canonical map."""
    return len(game_map["terrain"]), len(game_map["terrain"][0])


@st.composite
def generated_maps(
    draw: st.DrawFn, letters: list[str], max_rows: int = 6, max_cols: int = 6
) -> dict[str, Any]:
    """A small odd-r map in canonical JSON: terrain, rivers, fords (a few off the river), stairs
    in the last row and start hexes in the upper half."""
    rows = draw(st.integers(2, max_rows))
    cols = draw(st.integers(1, max_cols))
    plain = letters[:1] * 3 + letters  # mostly the first letter (plain): routes exist
    terrain = [
        "".join(draw(st.lists(st.sampled_from(plain), min_size=cols, max_size=cols)))
        for _ in range(rows)
    ]
    edges = sorted(
        {
            tuple(sorted(((r, c), v)))
            for r in range(rows)
            for c in range(cols)
            for v in neighbours(r, c, rows, cols)
        }
    )
    marks = draw(st.lists(st.integers(0, 7), min_size=len(edges), max_size=len(edges)))
    rivers = [e for e, m in zip(edges, marks, strict=True) if m < 3]
    fords = [e for e, m in zip(edges, marks, strict=True) if m == 0 or m == 7]  # 7: off river
    stairs = sorted(draw(st.sets(st.integers(0, cols - 1), min_size=1, max_size=cols)))
    upper = [(r, c) for r in range(max(1, rows // 2)) for c in range(cols)]
    starts = draw(st.lists(st.sampled_from(upper), unique=True, max_size=len(upper)))

    def edge_json(e: tuple) -> list[Hex]:
        a, b = e
        return draw(st.permutations([list(a), list(b)]))  # either order means the same edge

    return {
        "terrain": terrain,
        "rivers": [edge_json(e) for e in rivers],
        "fords": [edge_json(e) for e in fords],
        "stairs": [[rows - 1, c] for c in stairs],
        "starts": [list(s) for s in starts],
    }


def hexes(rows: int, cols: int) -> st.SearchStrategy[Hex]:
    """A hex ``[r, c]`` of a rows x cols map."""
    return st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)).map(list)


@st.composite
def flooded_sets(draw: st.DrawFn, rows: int, cols: int) -> list[Hex]:
    """Flooded hexes: as the marker floods them (a row-major prefix) or a random handful."""
    if draw(st.booleans()):
        count = draw(st.integers(0, rows * cols) | st.integers(0, 2 * cols))
        return [[i // cols, i % cols] for i in range(min(count, rows * cols))]
    few = max(1, rows * cols // 4)
    return draw(st.lists(hexes(rows, cols), unique_by=tuple, max_size=few))


def strategies(config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Inputs for the five rule functions of ``rules_ref.arche_noah_flood``."""
    species = [a if isinstance(a, str) else str(a["name"]) for a in config["animals"]]
    letters = sorted(config["terrain"])
    game_map = config["map"]
    per = int(config["pieces_per_species"])
    low, high = players
    variants = st.sampled_from([None, "standard", "junior"])
    any_map = st.one_of(st.just(None), st.just(None), generated_maps(letters))

    def with_extras(inp: dict[str, Any], draw: st.DrawFn, chosen: dict | None) -> dict:
        if chosen is not None:
            inp["map"] = chosen
        variant = draw(variants)
        if variant is not None:
            inp["variant"] = variant
        return inp

    @st.composite
    def move_cost(draw: st.DrawFn) -> dict[str, Any]:
        chosen = draw(any_map)
        rows, cols = map_size(chosen or game_map)
        where = hexes(rows, cols)
        frm = draw(where)
        to = draw(st.one_of(st.just("ark"), where, st.just(frm)))
        flooded = draw(flooded_sets(rows, cols))
        occupied = draw(st.lists(where, unique_by=tuple, max_size=min(10, rows * cols)))
        if draw(st.booleans()):
            occupied.append(frm)  # the piece's own hex never counts as occupied
        inp = {
            "animal": draw(st.sampled_from(species)),
            "from": frm,
            "to": to,
            "occupied": occupied,
            "flooded": flooded,
        }
        return with_extras(inp, draw, chosen)

    @st.composite
    def reaches_ark(draw: st.DrawFn) -> dict[str, Any]:
        chosen = draw(any_map)
        rows, cols = map_size(chosen or game_map)
        inp = {
            "animal": draw(st.sampled_from(species)),
            "at": draw(hexes(rows, cols)),
            "flooded": draw(flooded_sets(rows, cols)),
        }
        return with_extras(inp, draw, chosen)

    @st.composite
    def flood_advance(draw: st.DrawFn) -> dict[str, Any]:
        chosen = draw(any_map)
        rows, cols = map_size(chosen or game_map)
        dice = config["dice"]
        top = int(dice["count"]) * max(int(f) for f in dice["faces"])
        water = int(config["junior"]["water_hexes"])
        roll = st.integers(0, top) | st.just(water) | st.integers(0, 3 * cols)
        inp = {
            "row": draw(st.integers(0, rows)),
            "col": draw(st.integers(0, cols - 1) | st.integers(0, 2 * cols)),
            "rolls": draw(st.lists(roll, max_size=5)),
        }
        if chosen is not None:
            inp["map"] = chosen
        return inp

    @st.composite
    def dice_effect(draw: st.DrawFn) -> dict[str, Any]:
        variant = draw(variants)
        spec = config["junior"]["dice"] if variant == "junior" else config["dice"]
        faces = [str(f) for f in spec["faces"]]
        numbers = [int(f) for f in faces if f.lstrip("-").isdigit()]
        others = [str(f) for f in (*config["dice"]["faces"], *config["junior"]["dice"]["faces"])]
        value = st.one_of(
            st.sampled_from(faces),
            st.sampled_from(faces),
            st.sampled_from(numbers) if numbers else st.nothing(),
            st.sampled_from([*others, "7", "-1", "", "Sun"]),  # often no face of these dice
        )
        count = int(spec["count"])
        inp: dict[str, Any] = {"values": draw(st.lists(value, min_size=count, max_size=count)
                                             | st.lists(value, max_size=3))}
        if variant is not None:
            inp["variant"] = variant
        return inp

    @st.composite
    def arrival(draw: st.DrawFn) -> dict[str, Any]:
        everyone = draw(st.permutations([s for s in species for _ in range(per)]))
        arrived = everyone[: draw(st.integers(0, len(everyone)))]
        if draw(st.integers(0, 4)) == 0:
            arrived = draw(st.lists(st.sampled_from(species), max_size=len(everyone) + 2))
        n = draw(st.integers(low, high))
        deck = [s for s in species for _ in range(per)]
        inp: dict[str, Any] = {"arrived": arrived}
        variant = draw(variants)
        if variant == "junior" and draw(st.booleans()):
            inp["players"] = n
        else:
            inp["cards"] = draw(st.permutations(deck))[:n]
        if variant is not None:
            inp["variant"] = variant
        return inp

    return {
        "dice_effect": dice_effect(),
        "flood_advance": flood_advance(),
        "move_cost": move_cost(),
        "reaches_ark": reaches_ark(),
        "arrival": arrival(),
    }
