"""Hypothesis inputs for Ark & Noah's rule functions, built from the game's rule config.

Divider layouts are random edges on the Ark sizes of the player counts (3x8..3x16 by default)
plus enclosures of 1..``enclosure_max`` (+1, too large) squares made on purpose: a connected
region with dividers around it, sometimes an inner divider (to be returned) or a gap in its
outline. Loads are built around a completed enclosure found by ``rules_ref`` so that most
checks pass, then broken on purpose (one or two faults) or left legal; some are fully random.
A few inputs are malformed (unknown edge, doubled divider, square off the Ark, space taken
twice): both engines must refuse them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from rules_ref import ark_and_noah as ref

from ...payload import MAX_SEATS, MAX_SIDE, ListOf, MapOf, Whole

Strategies = dict[str, st.SearchStrategy[Any]]
Draw = Callable[[st.SearchStrategy[Any]], Any]
Shape = tuple[int, int]

MALFORMED = 4  # percent of inputs malformed on purpose

_ARK = ("colors", "ark")
#: The rule-config keys each function's generator reads (see ``tts_builder.strategies``);
#: ``players_entry`` has none: it looks for ``players`` tables in the whole config.
READS: dict[str, tuple[str, ...]] = {
    "enclosures": _ARK,
    "load_pair": (*_ARK, "species", "loading.cost", "loading.capacity"),
    "final_scoring": ("colors",),
    "bonus_update": ("colors", "actions", "bonus_max"),
    "phase_two_order": ("colors", "actions"),
    "ark_shape": (),
    "hull_status": _ARK,
    "build_spots": _ARK,
    "building_vp": (),
    "load_cost": ("colors", "species"),
    "deluge_order": ("colors",),
    "game_end": ("end.min_rounds",),
    "seating": ("colors",),
    "starting_deal": ("setup.males", "setup.females"),
    "may_act": ("colors",),
    "trade_may": ("colors", "trading.draws"),
    "exchange": ("species",),
    "taming_picks": ("colors", "actions"),
    "pair_squares": _ARK,
    "edge_text": _ARK,
}

#: What an ``eval`` payload of each function may hold (see ``tts_builder.payload``): an Ark of
#: at most MAX_SIDE x MAX_SIDE squares, squares within a side or two of it (one off the Ark is
#: the rule's to refuse), colour lists no longer than MAX_SEATS.
SIDE = Whole(0, MAX_SIDE)
SQUARE = ListOf(Whole(-MAX_SIDE, 2 * MAX_SIDE))
COLOURS = ListOf(str, most=MAX_SEATS)
ARK = {"rows": SIDE, "cols": SIDE, "dividers": ListOf({"edge": str, "color": str})}
PAIR = {"species": str, "size": Whole(), "vp": Whole(), "male": str, "female": str}
PLACEMENTS = ListOf({"color": str, "space": str})
TILES = ListOf(Whole())
PAYLOADS: dict[str, Any] = {
    "enclosures": ARK,
    "load_pair": {
        **ARK,
        "pitch": ListOf(str),
        "food": ListOf(SQUARE),
        "loaded": ListOf({"square": SQUARE, "size": Whole()}),
        "loader": str,
        "square": SQUARE,
        "lp": Whole(),
        "deluge": bool,
        "pair": PAIR,
    },
    "final_scoring": {
        "players": ListOf(
            {
                "color": str,
                "vp": Whole(),
                "hull_dividers": Whole(),
                "hand": {
                    "dividers": Whole(),
                    "food": Whole(),
                    "pitch": Whole(),
                    "animals": ListOf(Whole()),
                },
            },
            most=MAX_SEATS,
        )
    },
    "bonus_update": {"bonuses": MapOf(Whole()), "placements": PLACEMENTS},
    "phase_two_order": {"placements": PLACEMENTS},
    "players_entry": {"table": str, "players": Whole()},
    "ark_shape": {"players": Whole()},
    "hull_status": ARK,
    "build_spots": {**ARK, "pitch": ListOf(str)},
    "building_vp": {"elements": Whole()},
    "load_cost": {"loader": str, "pair": PAIR},
    "deluge_order": {"vp": MapOf(Whole()), "turn_order": COLOURS},
    "game_end": {"rounds": Whole(), "hull_full": bool},
    "seating": {"seated": COLOURS},
    "starting_deal": {"players": Whole(), "rolls": TILES},
    "may_act": {key: str for key in ("act", "phase", "kind", "turn", "color")},
    "trade_may": {
        "act": str,
        "bonus_taken": bool,
        "choice": str,
        "draws_left": Whole(),
        "exchanged": bool,
        "dragged": str,
        "onto": str,
        "can_swap": bool,
        "can_draw": bool,
        "can_exchange": bool,
    },
    "exchange": {
        "hand": TILES,
        "in_play": TILES,
        "drawn": TILES,
        "give": Whole(),
        "take": Whole(),
    },
    "taming_picks": {
        "space": str,
        "occupant": str,
        "turn_order": COLOURS,
        "draws_left": Whole(),
        "taken": Whole(),
        "left": Whole(),
        "bags": Whole(),
    },
    "pair_squares": {**ARK, "squares": ListOf(SQUARE)},
    "edge_text": {"rows": SIDE, "cols": SIDE, "edge": str},
}


def strategies(config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Inputs for every rule function of ``rules_ref.ark_and_noah``."""
    low, high = players
    colours = list(config["colors"][:high])
    shapes = _shapes(config, low, high)
    largest = config["ark"]["enclosure_max"]

    @st.composite
    def enclosures(draw: Draw) -> dict[str, Any]:
        regions = 1 if _chance(draw, 85) else 0
        rows, cols, dividers = draw(_layout(shapes, colours, largest, regions))
        return {"rows": rows, "cols": cols, "dividers": dividers}

    return {
        "enclosures": enclosures(),
        "load_pair": _load_pair(config, shapes, colours),
        "final_scoring": _final_scoring(colours, low, high),
        "bonus_update": _bonus_update(config, colours, high),
        "phase_two_order": _phase_two_order(config, colours, high),
        **_table_rules(config, shapes, colours, low, high),
        "seating": _seating(colours),
        "starting_deal": _starting_deal(config, low, high),
        **_decisions(config, shapes, colours),
    }


# ---------------------------------------------------------------------------------------------
# Geometry (written here, independent of rules_ref's)


def _shapes(config: dict[str, Any], low: int, high: int) -> list[Shape]:
    """The Ark sizes of the player counts low..high."""
    shapes = set()
    for n in range(low, high + 1):
        try:
            shapes.add(ref.ark_shape(config, n))
        except ValueError:
            continue
    return sorted(shapes) or [(3, 8)]


def _edges(rows: int, cols: int) -> list[str]:
    out = [f"h:{r}:{c}" for r in range(rows + 1) for c in range(cols)]
    return out + [f"v:{r}:{c}" for r in range(rows) for c in range(cols + 1)]


def _hull(rows: int, cols: int) -> list[str]:
    out = [f"h:{r}:{c}" for r in (0, rows) for c in range(cols)]
    return out + [f"v:{r}:{c}" for r in range(rows) for c in (0, cols)]


def _square_edges(r: int, c: int) -> list[str]:
    return [f"h:{r}:{c}", f"h:{r + 1}:{c}", f"v:{r}:{c}", f"v:{r}:{c + 1}"]


def _fields(rows: int, cols: int) -> list[str]:
    """The pitch fields: the hull's grid points."""
    return [
        f"p:{y}:{x}"
        for y in range(rows + 1)
        for x in range(cols + 1)
        if y in (0, rows) or x in (0, cols)
    ]


def _chance(draw: Draw, percent: int) -> bool:
    """True with about ``percent`` % probability; False for the simplest (shrunk) draw."""
    return bool(draw(st.integers(0, 99)) >= 100 - percent)


def _region(draw: Draw, rows: int, cols: int, size: int) -> list[tuple[int, int]]:
    """A connected region of up to ``size`` squares, grown from a random square."""
    squares = [(draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))]
    while len(squares) < size:
        around = sorted(
            {
                (r + dr, c + dc)
                for r, c in squares
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < rows and 0 <= c + dc < cols
            }
            - set(squares)
        )
        if not around:
            break
        squares.append(draw(st.sampled_from(around)))
    return squares


def _outline(squares: list[tuple[int, int]]) -> tuple[set[str], set[str]]:
    """(boundary edges, inner edges) of a set of squares."""
    count: dict[str, int] = {}
    for r, c in squares:
        for edge in _square_edges(r, c):
            count[edge] = count.get(edge, 0) + 1
    return {e for e, k in count.items() if k == 1}, {e for e, k in count.items() if k == 2}


@st.composite
def _layout(
    draw: Draw, shapes: list[Shape], colours: list[str], largest: int, regions: int = 0
) -> tuple[int, int, list[dict[str, str]]]:
    """(rows, cols, dividers): noise, at least ``regions`` enclosures made on purpose, maybe the
    whole hull. The noise edges, the colours and the order come from one seeded ``Random`` (few
    draws: fast); the amount of noise and the palette shrink."""
    rows, cols = draw(st.sampled_from(shapes))
    rng = random.Random(draw(st.integers(0, 2**16)))
    edges = _edges(rows, cols)
    density = draw(st.sampled_from([0, len(edges) // 8, len(edges) // 3, len(edges) // 2]))
    chosen = set(rng.sample(edges, draw(st.integers(0, density))))
    for _ in range(draw(st.integers(regions, 5))):
        squares = _region(draw, rows, cols, draw(st.integers(1, largest + 1)))
        boundary, inner = _outline(squares)
        chosen |= boundary
        if inner and _chance(draw, 25):
            chosen.add(draw(st.sampled_from(sorted(inner))))
        if _chance(draw, 15):
            chosen.discard(draw(st.sampled_from(sorted(boundary))))
    if _chance(draw, 35):
        chosen |= set(_hull(rows, cols))
    palette = draw(st.sampled_from([colours, colours[:1], colours[:2]]))
    items = [{"edge": e, "color": rng.choice(palette)} for e in sorted(chosen, key=edges.index)]
    rng.shuffle(items)
    if _chance(draw, MALFORMED):
        bad = draw(st.sampled_from([f"h:{rows + 1}:0", f"v:0:{cols + 1}", "x:0:0", "h:0"]))
        if items and draw(st.booleans()):
            bad = items[0]["edge"]  # a doubled divider
        items = [*items, {"edge": bad, "color": colours[0]}]
    return rows, cols, items


# ---------------------------------------------------------------------------------------------
# load_pair

# The checks a fault breaks, the later checks (reached least often) first.
FAULTS = (
    "unpitched", "colour", "poor", "full", "size", "hungry", "outside", "stranger", "male",
    "female", "deluge",
)  # fmt: skip


def _pair(spec: dict[str, Any], male: str | None, female: str | None) -> dict[str, Any]:
    return {"species": spec["name"], "size": spec["size"], "vp": spec["vp"], "male": male,
            "female": female}  # fmt: skip


def _cost(config: dict[str, Any], loader: str, pair: dict[str, Any]) -> int:
    if config["loading"]["cost"] == "pairs":
        return 1
    return sum(pair["size"] for sex in ("male", "female") if pair[sex] == loader)


def _load_pair(
    config: dict[str, Any], shapes: list[Shape], colours: list[str]
) -> st.SearchStrategy[dict[str, Any]]:
    species = list(config["species"])
    largest = config["ark"]["enclosure_max"]

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        rows, cols, dividers = draw(_layout(shapes, colours, largest, 1))
        squares = [[r, c] for r in range(rows) for c in range(cols)]
        fields = _fields(rows, cols)
        inp: dict[str, Any] = {
            "rows": rows,
            "cols": cols,
            "dividers": dividers,
            "pitch": draw(st.lists(st.sampled_from(fields), max_size=8, unique=True)),
            "food": draw(st.lists(st.sampled_from(squares), max_size=8, unique_by=tuple)),
            "loaded": [
                {"square": sq, "size": draw(st.integers(0, 4))}
                for sq in draw(st.lists(st.sampled_from(squares), max_size=3))
            ],
            "loader": draw(st.sampled_from(colours)),
            "square": draw(st.sampled_from(squares)),
            "lp": draw(st.integers(0, 9)),
            "deluge": _chance(draw, 15),
        }
        spec = draw(st.sampled_from(species))
        owners = [None if _chance(draw, 15) else draw(st.sampled_from(colours)) for _ in "mf"]
        inp["pair"] = _pair(spec, *owners)
        try:
            found = ref.enclosures(config, {"rows": rows, "cols": cols, "dividers": dividers})
        except ValueError:  # malformed layout: keep the random load, both engines refuse it
            return inp
        if found["enclosures"] and not _chance(draw, 20):
            target = _legal(draw, config, species, colours, found["enclosures"], dividers, inp)
            for _ in range(draw(st.sampled_from([0, 0, 1, 1, 1, 2]))):
                fault = draw(st.sampled_from(FAULTS))
                _break(draw, config, species, colours, squares, target, fault, inp)
        if _chance(draw, MALFORMED):
            bad = draw(st.sampled_from(["square", "pitch", "food"]))
            if bad == "square":
                inp["square"] = [rows, 0]
            elif bad == "pitch":
                inp["pitch"] = [*inp["pitch"], f"p:{rows + 1}:0"]
            else:
                inp["food"] = [*inp["food"], [0, cols]]
        return inp

    return build()


def _legal(
    draw: Draw,
    config: dict[str, Any],
    species: list[dict[str, Any]],
    colours: list[str],
    found: list[dict[str, Any]],
    dividers: list[dict[str, str]],
    inp: dict[str, Any],
) -> dict[str, Any]:
    """Rewrite ``inp`` into a load that passes every check, into one of ``found``; that
    enclosure, with the colours of its dividers under ``"colours"``."""
    colour_of = {d["edge"]: d["color"] for d in dividers}
    pitched = [e for e in found if e["pitch_fields"]]
    enclosure = dict(draw(st.sampled_from(pitched if pitched and _chance(draw, 50) else found)))
    enclosure["colours"] = sorted({colour_of[e] for e in enclosure["edges"]})
    size = len(enclosure["squares"])
    fits = [s for s in species if s["size"] == size] or species
    small = [s for s in species if s["size"] == 0 and config["loading"]["capacity"]["small"]]
    spec = draw(st.sampled_from(small if small and _chance(draw, 25) else fits))
    loader = draw(st.sampled_from(enclosure["colours"]))
    partner = draw(st.sampled_from(colours))
    male, female = (loader, partner) if draw(st.booleans()) else (partner, loader)
    inp["pair"] = _pair(spec, male, female)
    inp["loader"] = loader
    inp["square"] = draw(st.sampled_from(enclosure["squares"]))
    inp["food"] = _union(inp["food"], enclosure["squares"])
    inp["pitch"] = _union(inp["pitch"], enclosure["pitch_fields"])
    inside = {tuple(sq) for sq in enclosure["squares"]}
    inp["loaded"] = [a for a in inp["loaded"] if tuple(a["square"]) not in inside]
    if _chance(draw, 30):  # a pair of the other kind may share the enclosure
        other = 1 if spec["size"] == 0 else 0
        inp["loaded"].append({"square": draw(st.sampled_from(enclosure["squares"])),
                              "size": other})  # fmt: skip
    cost = _cost(config, loader, inp["pair"])
    inp["lp"] = draw(st.integers(cost, cost + 3))
    inp["deluge"] = _chance(draw, 15)
    return enclosure


def _break(
    draw: Draw,
    config: dict[str, Any],
    species: list[dict[str, Any]],
    colours: list[str],
    squares: list[list[int]],
    target: dict[str, Any],
    fault: str,
    inp: dict[str, Any],
) -> None:
    """Make one check of a load (into ``target``, so far legal) fail, where the input allows."""
    pair = inp["pair"]
    if fault in ("male", "female"):
        pair[fault] = None
    elif fault == "stranger":
        others = [c for c in colours if c not in (pair["male"], pair["female"])]
        if others:
            inp["loader"] = draw(st.sampled_from(others))
    elif fault == "outside":
        inp["square"] = draw(st.sampled_from([sq for sq in squares if sq not in target["squares"]]))
    elif fault == "size":
        spec = draw(st.sampled_from([s for s in species if s["size"] != pair["size"]]))
        inp["pair"] = _pair(spec, pair["male"], pair["female"])
    elif fault == "full":
        inp["loaded"] = [*inp["loaded"], {"square": inp["square"], "size": pair["size"]}]
    elif fault == "hungry" and inp["food"]:
        inp["food"] = [sq for sq in inp["food"] if sq != inp["square"]]
    elif fault == "unpitched" and target["pitch_fields"]:
        gone = draw(st.sampled_from(target["pitch_fields"]))
        inp["pitch"] = [p for p in inp["pitch"] if p != gone]
    elif fault == "colour":
        strangers = [c for c in colours if c not in target["colours"]] or colours
        inp["loader"] = pair["male"] = draw(st.sampled_from(strangers))
    elif fault == "poor":
        inp["lp"] = max(0, _cost(config, inp["loader"], pair) - 1)
    elif fault == "deluge":
        inp["deluge"] = True


def _union(have: list[Any], more: list[Any]) -> list[Any]:
    return have + [x for x in more if x not in have]


# ---------------------------------------------------------------------------------------------
# final_scoring, bonus_update, phase_two_order


def _final_scoring(colours: list[str], low: int, high: int) -> st.SearchStrategy[Any]:
    small = st.integers(0, 3)  # few values: ties in VP, hull dividers and scores

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        n = draw(st.integers(low, high))
        seats = draw(st.permutations(colours))[:n] if draw(st.booleans()) else colours[:n]
        players = []
        for colour in seats:
            hand = {k: draw(small | st.integers(0, 12)) for k in ("dividers", "food", "pitch")}
            hand["animals"] = draw(st.lists(st.integers(0, 4), max_size=5))
            if _chance(draw, 10):
                del hand[draw(st.sampled_from(sorted(hand)))]
            players.append({
                "color": colour,
                "vp": draw(st.sampled_from([20, 21, 25]) | st.integers(-5, 150)),
                "hull_dividers": draw(small | st.integers(0, 40)),
                "hand": hand,
            })  # fmt: skip
        return {"players": players}

    return build()


def _placements(draw: Draw, ids: list[str], colours: list[str], high: int) -> list[dict[str, str]]:
    """Workers on distinct spaces, in placement order."""
    spaces = draw(st.permutations(ids))[: draw(st.integers(0, min(len(ids), 2 * high)))]
    return [{"color": draw(st.sampled_from(colours)), "space": s} for s in spaces]


def _bonus_update(config: dict[str, Any], colours: list[str], high: int) -> st.SearchStrategy[Any]:
    ids = [a["id"] for a in config["actions"]]
    most = config["bonus_max"]

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        bonuses = draw(st.dictionaries(st.sampled_from(ids), st.integers(0, most)))
        placements = _placements(draw, ids, colours, high)
        if _chance(draw, MALFORMED):
            bad = placements[0]["space"] if placements else "nowhere"
            placements.append({"color": colours[0], "space": bad})
        return {"bonuses": bonuses, "placements": placements}

    return build()


def _phase_two_order(
    config: dict[str, Any], colours: list[str], high: int
) -> st.SearchStrategy[Any]:
    ids = [a["id"] for a in config["actions"]]

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        return {"placements": _placements(draw, ids, colours, high)}

    return build()


# ---------------------------------------------------------------------------------------------
# players_entry, ark_shape, hull_status, build_spots, building_vp, load_cost, deluge_order,
# game_end


def players_tables(config: Any, path: str = "") -> list[str]:
    """Dotted paths of the config's ``players: [..]`` tables (lists of entries with players)."""
    if isinstance(config, list):
        if config and all(isinstance(e, dict) and "players" in e for e in config):
            return [path]
        return []
    if isinstance(config, dict):
        found = []
        for key in sorted(config):
            found += players_tables(config[key], f"{path}.{key}" if path else str(key))
        return found
    return []


def _table_rules(
    config: dict[str, Any], shapes: list[Shape], colours: list[str], low: int, high: int
) -> Strategies:
    largest = config["ark"]["enclosure_max"]
    counts = st.integers(low, high) | st.integers(low - 1, high + 1)
    tables = players_tables(config)
    wrong = ["nowhere", "ark", "ark.section", "ark.sections.layout"]

    @st.composite
    def players_entry(draw: Draw) -> dict[str, Any]:
        table = draw(
            st.sampled_from(tables) if tables and _chance(draw, 90) else st.sampled_from(wrong)
        )
        return {"table": table, "players": draw(counts)}

    @st.composite
    def hull_status(draw: Draw) -> dict[str, Any]:
        rows, cols, dividers = draw(_layout(shapes, colours, largest, 0))
        if _chance(draw, 30):  # a closed hull, maybe one edge short
            have = {d["edge"] for d in dividers}
            hull = [e for e in _hull(rows, cols) if e not in have]
            if hull and _chance(draw, 50):
                hull.remove(draw(st.sampled_from(hull)))
            dividers = dividers + [{"edge": e, "color": draw(st.sampled_from(colours))}
                                   for e in hull]  # fmt: skip
        return {"rows": rows, "cols": cols, "dividers": dividers}

    @st.composite
    def build_spots(draw: Draw) -> dict[str, Any]:
        inp = draw(hull_status())
        fields = _fields(inp["rows"], inp["cols"])
        inp["pitch"] = draw(st.lists(st.sampled_from(fields), max_size=6, unique=True))
        return inp

    @st.composite
    def load_cost(draw: Draw) -> dict[str, Any]:
        spec = draw(st.sampled_from(list(config["species"])))
        owners = [None if _chance(draw, 15) else draw(st.sampled_from(colours)) for _ in "mf"]
        return {"loader": draw(st.sampled_from(colours)), "pair": _pair(spec, *owners)}

    @st.composite
    def deluge_order(draw: Draw) -> dict[str, Any]:
        turn = draw(st.permutations(colours))[: draw(st.integers(low, high))]
        vp = {c: draw(st.integers(0, 3) | st.integers(-5, 150)) for c in turn
              if not _chance(draw, 10)}  # fmt: skip
        return {"vp": vp, "turn_order": turn}

    rounds = config["end"]["min_rounds"]
    game_end = st.fixed_dictionaries(
        {"rounds": st.integers(0, rounds + 2)}, optional={"hull_full": st.booleans()}
    )
    return {
        "players_entry": players_entry(),
        "ark_shape": st.fixed_dictionaries({"players": counts}),
        "hull_status": hull_status(),
        "build_spots": build_spots(),
        "building_vp": st.fixed_dictionaries({"elements": st.integers(0, 20)}),
        "load_cost": load_cost(),
        "deluge_order": deluge_order(),
        "game_end": game_end,
    }


def _seating(colours: list[str]) -> st.SearchStrategy[Any]:
    """Any subset of the game's colours and a few others, in any order; rarely a colour twice."""
    others = ["White", "Orange", "Purple", "Pink", "Brown", "Teal"]

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        seated = draw(st.lists(st.sampled_from(colours + others), unique=True, max_size=8))
        if seated and _chance(draw, MALFORMED):
            seated.append(seated[0])
        return {"seated": draw(st.permutations(seated))}

    return build()


def _starting_deal(config: dict[str, Any], low: int, high: int) -> st.SearchStrategy[Any]:
    """A player count and one roll per draw (small and huge rolls); rarely a roll too few."""
    setup = config["setup"]
    per_seat = setup["males"] + setup["females"]

    @st.composite
    def build(draw: Draw) -> dict[str, Any]:
        n = draw(st.integers(low, high))
        roll = st.one_of(st.integers(0, 60), st.integers(0, 2**31 - 1))
        rolls = draw(st.lists(roll, min_size=n * per_seat, max_size=n * per_seat))
        if _chance(draw, MALFORMED):
            rolls = rolls[:-1]
        return {"players": n, "rolls": rolls}

    return build()


# ---------------------------------------------------------------------------------------------
# may_act, trade_may, exchange, taming_picks, pair_squares, edge_text

PHASES = ["idle", "dealing", "setup", "place", "choose", "resolve", "deluge", "over"]
KINDS = ["", "gain", "tame", "trade", "build", "load", "deluge_food", "deluge_pairs"]
ACT_NAMES = ["setup", "place", "choose", "done", "draw", "bonus", "swap", "exchange", "pick",
             "build", "food", "pair"]  # fmt: skip
TRADE_ACTS = ["bonus", "swap", "draw", "exchange", "done"]


def _decisions(config: dict[str, Any], shapes: list[Shape], colours: list[str]) -> Strategies:
    tiles = 2 * len(config["species"])
    tile = st.integers(0, tiles - 1)
    ids = [a["id"] for a in config["actions"]]
    largest = config["ark"]["enclosure_max"]
    colour_or_none = st.sampled_from(["", *colours])

    @st.composite
    def may_act(draw: Draw) -> dict[str, Any]:
        turn = draw(colour_or_none)
        return {
            "act": draw(st.sampled_from(ACT_NAMES) if _chance(draw, 97) else st.just("jump")),
            "phase": draw(st.sampled_from(PHASES)),
            "kind": draw(st.sampled_from(KINDS)),
            "turn": turn,
            "color": turn if _chance(draw, 50) else draw(st.sampled_from(colours)),
        }

    @st.composite
    def trade_may(draw: Draw) -> dict[str, Any]:
        dragged = draw(st.sampled_from(colours))
        return {
            "act": draw(st.sampled_from(TRADE_ACTS) if _chance(draw, 97) else st.just("pass")),
            "bonus_taken": _chance(draw, 80),
            "choice": draw(st.sampled_from(["", "swap", "draw"])),
            "draws_left": draw(st.integers(0, config["trading"]["draws"])),
            "exchanged": _chance(draw, 30),
            "dragged": dragged,
            "onto": dragged if _chance(draw, 20) else draw(colour_or_none),
            "can_swap": draw(st.booleans()),
            "can_draw": draw(st.booleans()),
            "can_exchange": draw(st.booleans()),
        }

    @st.composite
    def exchange(draw: Draw) -> dict[str, Any]:
        hand = draw(st.lists(tile, max_size=8))
        others = draw(st.lists(tile, max_size=10))
        drawn = draw(st.lists(tile, max_size=3))
        in_play = sorted(set(hand) | set(others)) if _chance(draw, 80) else others
        return {
            "hand": hand,
            "in_play": in_play,
            "drawn": drawn,
            "give": draw(st.sampled_from(hand) if hand and _chance(draw, 80) else tile),
            "take": draw(st.sampled_from(drawn) if drawn and _chance(draw, 80) else tile),
        }

    @st.composite
    def taming_picks(draw: Draw) -> dict[str, Any]:
        order = draw(st.permutations(colours))[: draw(st.integers(1, len(colours)))]
        return {
            "space": draw(st.sampled_from(ids) if _chance(draw, 97) else st.just("nowhere")),
            "occupant": draw(st.sampled_from(order)),
            "turn_order": order,
            "draws_left": draw(st.integers(0, 1) | st.just(0)),
            "taken": draw(st.integers(0, len(colours) + 1)),
            "left": draw(st.integers(0, 4)),
            "bags": draw(st.none() | st.integers(0, 2)),  # tiles in both bags (None: unknown)
        }

    @st.composite
    def pair_squares(draw: Draw) -> dict[str, Any]:
        rows, cols, dividers = draw(_layout(shapes, colours, largest, 1))
        squares = [[r, c] for r in range(rows) for c in range(cols)]
        pair = [draw(st.sampled_from(squares)) for _ in range(2)]
        try:
            found = ref.enclosures(config, {"rows": rows, "cols": cols, "dividers": dividers})
        except ValueError:
            found = {"enclosures": []}
        if found["enclosures"] and _chance(draw, 60):  # both in one enclosure, or one outside
            inside = draw(st.sampled_from(found["enclosures"]))["squares"]
            pair = [draw(st.sampled_from(inside)), draw(st.sampled_from(inside))]
            if _chance(draw, 30):
                pair[1] = draw(st.sampled_from(squares))
        if _chance(draw, MALFORMED):
            pair = draw(st.sampled_from([pair[:1], [pair[0], [rows, 0]], [*pair, pair[0]]]))
        return {"rows": rows, "cols": cols, "dividers": dividers, "squares": pair}

    @st.composite
    def edge_text(draw: Draw) -> dict[str, Any]:
        rows, cols = draw(st.sampled_from(shapes))
        edge = draw(st.sampled_from(_edges(rows, cols)))
        if _chance(draw, MALFORMED):
            edge = draw(st.sampled_from([f"h:{rows + 1}:0", f"v:0:{cols + 1}", "x:0:0", "h:0"]))
        return {"rows": rows, "cols": cols, "edge": edge}

    return {
        "may_act": may_act(),
        "trade_may": trade_may(),
        "exchange": exchange(),
        "taming_picks": taming_picks(),
        "pair_squares": pair_squares(),
        "edge_text": edge_text(),
    }
