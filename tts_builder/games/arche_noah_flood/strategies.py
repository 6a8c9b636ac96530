"""Hypothesis inputs for the flood race's rule functions, built from the game's rule config.

Every movement query runs on the game's own map or on a small generated odd-r map (random
terrain from the config's letters, river edges, fords, stray fords off the river, stairs in the
last row), in one of four scenes (see :func:`scenes`: anywhere, just below the flood front,
stairs flooded, the no-retreat rows); occupied hexes are scattered, crowd the piece or fill a
whole row (for fliers); ``to`` is near the piece, on another piece, anywhere, the piece's own
hex or ``"ark"``; the variant is standard, junior, absent or null. Dice values are the faces as
rotation values (strings, sometimes numbers), junior symbols included, now and then a value
that is no face. Flood rolls wrap rows; columns beyond the row are normalised.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ...payload import MAX_SEATS, MAX_SIDE, Either, ListOf, Text, Whole
from ...variants import with_variant
from ..arche_noah.strategies import COLOURS, SEATING, seating_inputs

Strategies = dict[str, st.SearchStrategy[Any]]
Hex = list[int]

_SCENE = ("animals", "terrain", "map", "no_retreat_rows", "flies_over_animals")
#: The rule-config keys each function's generator reads (see ``tts_builder.strategies``). No
#: generator reads ``mode`` or ``distinct_species``: the rules mode is an input key (``variant``,
#: drawn for every build), so all three builds of the game share every generator.
READS: dict[str, tuple[str, ...]] = {
    "dice_effect": ("dice", "junior"),
    "flood_advance": ("terrain", "map", "dice", "junior"),
    "move_cost": _SCENE,
    "reaches_ark": _SCENE,
    "arrival": ("animals", "pieces_per_species"),
    "seating": (),
    "next_player": (),
    "payment": ("junior",),
    "step_cost": _SCENE,
    "destinations": _SCENE,
    "check_flood": _SCENE,
}

#: What an ``eval`` payload of each function may hold (see ``tts_builder.payload``): a map of
#: at most MAX_SIDE rows of MAX_SIDE hexes, coordinates within a side or two (a hex off the map
#: is the rule's to refuse), the flood marker at or below the map's first row and column.
COORD = Whole(-MAX_SIDE, 2 * MAX_SIDE)
HEX = ListOf(COORD)
HEXES = ListOf(HEX)
EDGES = ListOf(ListOf(HEX))
MAP = {
    "terrain": ListOf(Text(MAX_SIDE), most=MAX_SIDE),
    "rivers": EDGES,
    "fords": EDGES,
    "stairs": HEXES,
    "starts": HEXES,
}
PIECES = 64  # pieces a flood check looks at, at most (each a search of the map)
ANIMAL = {"animal": str, "map": MAP, "variant": str}
PAYLOADS: dict[str, Any] = {
    "dice_effect": {"values": ListOf(Either((str, Whole()))), "variant": str},
    "flood_advance": {
        "row": Whole(0),
        "col": Whole(0),
        "rolls": ListOf(Whole()),
        "map": MAP,
    },
    "move_cost": {
        **ANIMAL,
        "from": HEX,
        "to": Either((HEX, str)),
        "occupied": HEXES,
        "flooded": HEXES,
    },
    "reaches_ark": {**ANIMAL, "at": HEX, "flooded": HEXES},
    "arrival": {
        "arrived": ListOf(str),
        "cards": COLOURS,
        "players": Whole(0, MAX_SEATS),
        "variant": str,
    },
    "seating": SEATING,
    "next_player": {"out": ListOf(bool, most=MAX_SEATS), "after": Whole()},
    "payment": {
        "cost": Whole(),
        "points": Whole(),
        "sun": Whole(),
        "sun_armed": bool,
        "variant": str,
    },
    "step_cost": {**ANIMAL, "from": HEX, "to": HEX},
    "destinations": {
        **ANIMAL,
        "from": HEX,
        "occupied": HEXES,
        "flooded": HEXES,
        "budget": Whole(),
    },
    "check_flood": {
        **ANIMAL,
        "pieces": ListOf({"animal": str, "at": HEX}, most=PIECES),
        "flooded": HEXES,
    },
}


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
    cells = draw(st.lists(st.sampled_from(plain), min_size=rows * cols, max_size=rows * cols))
    terrain = ["".join(cells[r * cols : (r + 1) * cols]) for r in range(rows)]
    edges = sorted(
        {
            tuple(sorted(((r, c), v)))
            for r in range(rows)
            for c in range(cols)
            for v in neighbours(r, c, rows, cols)
        }
    )
    # One draw per edge: 0-2 river (0 also a ford), 7 a stray ford off the river; +8 flips
    # the edge's written order (either order means the same edge).
    marks = draw(st.lists(st.integers(0, 15), min_size=len(edges), max_size=len(edges)))
    rivers = [_edge_json(e, m) for e, m in zip(edges, marks, strict=True) if m % 8 < 3]
    fords = [_edge_json(e, m) for e, m in zip(edges, marks, strict=True) if m % 8 in (0, 7)]
    stairs = sorted(draw(st.sets(st.integers(0, cols - 1), min_size=1, max_size=cols)))
    upper = [(r, c) for r in range(max(1, rows // 2)) for c in range(cols)]
    starts = draw(st.lists(st.sampled_from(upper), unique=True, max_size=len(upper)))
    return {
        "terrain": terrain,
        "rivers": rivers,
        "fords": fords,
        "stairs": [[rows - 1, c] for c in stairs],
        "starts": [list(s) for s in starts],
    }


def _edge_json(edge: tuple, mark: int) -> list[Hex]:
    a, b = edge
    return [list(b), list(a)] if mark >= 8 else [list(a), list(b)]


def hexes(rows: int, cols: int) -> st.SearchStrategy[Hex]:
    """A hex ``[r, c]`` of a rows x cols map."""
    return st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)).map(list)


def near(h: Hex, rows: int, cols: int) -> st.SearchStrategy[Hex]:
    """A hex at most two rows and columns away from ``h`` (a typical drop after a pick-up)."""
    return st.tuples(
        st.integers(max(0, h[0] - 2), min(rows - 1, h[0] + 2)),
        st.integers(max(0, h[1] - 2), min(cols - 1, h[1] + 2)),
    ).map(list)


def prefix(count: int, rows: int, cols: int) -> list[Hex]:
    """The first ``count`` hexes in flood order (row-major): the marker's flooded set."""
    return [[i // cols, i % cols] for i in range(min(count, rows * cols))]


@st.composite
def flooded_sets(draw: st.DrawFn, rows: int, cols: int) -> list[Hex]:
    """Flooded hexes: as the marker floods them (a row-major prefix) or a random handful."""
    if draw(st.booleans()):
        return prefix(draw(st.integers(0, rows * cols) | st.integers(0, 2 * cols)), rows, cols)
    few = max(1, rows * cols // 4)
    return draw(st.lists(hexes(rows, cols), unique_by=tuple, max_size=few))


@st.composite
def scenes(
    draw: st.DrawFn, maps: st.SearchStrategy[dict | None], game_map: dict, no_retreat: int
) -> tuple[dict | None, int, int, list[Hex], Hex]:
    """(input map or None, rows, cols, flooded hexes, the hex a query is about).

    Four kinds, equally likely: anywhere; the real game's shape (a flood prefix and a hex just
    below the flood front, where cut-offs happen); the stairs flooded; the last rows before
    the Ark (mostly the first no-retreat row, where the rule's boundary lies).
    """
    chosen = draw(maps)
    the_map = game_map if chosen is None else chosen
    rows, cols = map_size(the_map)
    few = max(1, rows * cols // 4)
    handful = st.lists(hexes(rows, cols), unique_by=tuple, max_size=few)
    kind = draw(st.sampled_from(["any", "front", "stairs", "ark_end"]))
    if kind == "front":
        count = draw(st.integers(0, rows * cols - 1))
        flooded = prefix(count, rows, cols)
        i = draw(st.integers(count, min(rows * cols - 1, count + 2 * cols)))
        focus = [i // cols, i % cols]
    elif kind == "stairs":
        stairs = [list(s) for s in the_map["stairs"]]
        flooded = draw(st.lists(st.sampled_from(stairs), unique_by=tuple)) + draw(handful)
        focus = draw(hexes(rows, cols))
    elif kind == "ark_end":
        boundary = max(0, rows - no_retreat)
        row = st.just(boundary) | st.integers(max(0, boundary - 1), rows - 1)
        focus = [draw(row), draw(st.integers(0, cols - 1))]
        flooded = draw(st.lists(hexes(rows, cols), unique_by=tuple, max_size=few // 2))
    else:
        flooded = draw(flooded_sets(rows, cols))
        focus = draw(hexes(rows, cols))
    return chosen, rows, cols, flooded, focus


def strategies(config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Inputs for every rule function of ``rules_ref.arche_noah_flood``."""
    species = [a if isinstance(a, str) else str(a["name"]) for a in config["animals"]]
    letters = sorted(config["terrain"])
    game_map = config["map"]
    per = int(config["pieces_per_species"])
    low, high = players
    variants = st.sampled_from([None, "standard", "junior"])
    any_map = st.one_of(st.just(None), st.just(None), generated_maps(letters))
    scene = scenes(any_map, game_map, int(config["no_retreat_rows"]))
    fliers = [a for a in species if a in config.get("flies_over_animals", [])]
    # Fliers are the special case of movement (over pieces, never onto one): drawn more often.
    animals = st.sampled_from(species) | (st.sampled_from(fliers) if fliers else st.nothing())

    def with_extras(inp: dict[str, Any], draw: st.DrawFn, chosen: dict | None) -> dict:
        if chosen is not None:
            inp["map"] = chosen
        variant = draw(variants)
        if variant is not None:
            inp["variant"] = variant
        elif draw(st.booleans()):
            inp["variant"] = None  # null: the same as no variant
        return inp

    @st.composite
    def move_cost(draw: st.DrawFn) -> dict[str, Any]:
        chosen, rows, cols, flooded, frm = draw(scene)
        where = hexes(rows, cols)
        pieces = st.lists(where, unique_by=tuple, max_size=min(10, rows * cols // 2))
        # Fliers' cases: a crowd around the piece, or a whole row of animals to fly over.
        crowd = st.lists(near(frm, rows, cols), unique_by=tuple, max_size=8)
        wall = st.integers(0, rows - 1).map(lambda r: [[r, c] for c in range(cols)])
        occupied = draw(st.one_of(pieces, crowd, wall))
        to_kind = draw(st.sampled_from(["near", "ark", "onto", "near", "any", "same"]))
        if to_kind == "near":  # a typical drop after a pick-up
            to = draw(near(frm, rows, cols))
        elif to_kind == "onto" and occupied:  # dropped on another piece
            to = draw(st.sampled_from(occupied))
        elif to_kind == "any":
            to = draw(where)
        elif to_kind == "same":
            to = frm
        else:
            to = "ark"
        if draw(st.booleans()):
            occupied.append(frm)  # the piece's own hex never counts as occupied
        inp = {
            "animal": draw(animals),
            "from": frm,
            "to": to,
            "occupied": occupied,
            "flooded": flooded,
        }
        return with_extras(inp, draw, chosen)

    @st.composite
    def reaches_ark(draw: st.DrawFn) -> dict[str, Any]:
        chosen, _, _, flooded, at = draw(scene)
        inp = {"animal": draw(st.sampled_from(species)), "at": at, "flooded": flooded}
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
        faces = sorted({str(f) for f in spec["faces"]})  # each distinct face equally likely
        numbers = [int(f) for f in faces if f.lstrip("-").isdigit()]
        others = [str(f) for f in (*config["dice"]["faces"], *config["junior"]["dice"]["faces"])]
        value = st.one_of(
            st.sampled_from(faces),
            st.sampled_from(faces),
            st.sampled_from(numbers) if numbers else st.nothing(),
            st.sampled_from([*others, "7", "-1", "", "Sun"]),  # often no face of these dice
        )
        count = int(spec["count"])
        inp: dict[str, Any] = {
            "values": draw(
                st.lists(value, min_size=count, max_size=count) | st.lists(value, max_size=3)
            )
        }
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

    @st.composite
    def step_cost(draw: st.DrawFn) -> dict[str, Any]:
        chosen, rows, cols, _, frm = draw(scene)
        # Mostly a neighbour (a real step), sometimes any hex (not a step: {}).
        options = [list(h) for h in neighbours(frm[0], frm[1], rows, cols)]
        to = draw(
            st.sampled_from(options) if options and draw(st.integers(0, 3)) else hexes(rows, cols)
        )
        inp = {"animal": draw(animals), "from": frm, "to": to}
        return with_extras(inp, draw, chosen)

    @st.composite
    def destinations(draw: st.DrawFn) -> dict[str, Any]:
        inp = draw(move_cost())
        inp.pop("to")
        inp["budget"] = draw(st.integers(0, 10))
        return inp

    @st.composite
    def check_flood(draw: st.DrawFn) -> dict[str, Any]:
        chosen, rows, cols, flooded, focus = draw(scene)
        where = hexes(rows, cols)
        piece = st.fixed_dictionaries({"animal": st.sampled_from(species), "at": where})
        pieces = draw(st.lists(piece, max_size=8))
        if draw(st.booleans()):  # a piece where the scene's query is (below the front...)
            pieces.insert(draw(st.integers(0, len(pieces))), {"animal": draw(animals), "at": focus})
        inp = {"pieces": pieces, "flooded": flooded}
        return with_extras(inp, draw, chosen)

    return {
        "dice_effect": dice_effect(),
        "flood_advance": flood_advance(),
        "move_cost": move_cost(),
        "reaches_ark": reaches_ark(),
        "arrival": arrival(),
        "seating": seating_inputs(players, chooser=False),
        "next_player": st.fixed_dictionaries(
            {
                "out": st.lists(st.booleans(), min_size=low, max_size=high),
                "after": st.integers(-1, high - 1),
            }
        ),
        "payment": payments(config),
        "step_cost": step_cost(),
        "destinations": destinations(),
        "check_flood": check_flood(),
    }


def payments(config: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Moves to pay for: costs around the points left and the sun's budget, suns armed or not."""
    budget = int(config["junior"]["sun_hexes"]) * int(config["junior"]["step_cost"])
    small = st.integers(0, max(budget, 3) + 3)

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        inp: dict[str, Any] = {
            "cost": draw(small | st.integers(-1, 30)),
            "points": draw(small | st.integers(0, 10)),
            "sun": draw(st.integers(0, 2)),
        }
        if draw(st.booleans()):
            inp["sun_armed"] = draw(st.booleans())
        variant = draw(st.sampled_from([None, "standard", "junior", "junior"]))
        if variant is not None:
            inp["variant"] = variant
        return inp

    return build()


def variant_input(data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """Input keys the glue of a build passes to every rule function: the rules ``mode`` other
    than standard (junior) is chosen by ``"variant": <mode>``."""
    mode = with_variant(data, variant)["rules"]["mode"]
    return {} if mode == "standard" else {"variant": mode}
