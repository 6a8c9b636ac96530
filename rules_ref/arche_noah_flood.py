"""Reference rules for ``arche-noah-flood``, the semi-cooperative flood race (RULINGS §3, seed 004).

Config shape
------------
``config`` is the definition's ``rules:`` mapping plus ``map`` and ``animals``
(:func:`config_from_definition` builds it from a loaded ``game.yaml``)::

    terrain:            {P: plain, F: forest, M: mountain, S: swamp}   # letter -> terrain name
    costs:              {Elephant: {plain: 1, forest: 2, mountain: 3, swamp: null, river: 3}, ...}
                        # cost of the hex entered; null = may not enter; "river" is added when the
                        # step crosses a river edge: an int, null or "fords_only"
    ford_cost:          0          # added instead of the river cost when the edge is a ford
    flies_over_animals: [Eagle]    # may pass over (not stop on) occupied hexes
    ark_entry_cost:     1          # from a stair hex into the Ark, every animal
    pieces_per_species: 2
    dice:               {count: 2, faces: [0, 1, 2, 3, 4, 5]}
    flood:              {rolls_per_starting_player: 1}
    no_retreat_rows:    3          # no step to a smaller row from any of the last N rows
    min_start_hexes:    10
    stair_hexes:        {min: 2, max: 4}
    distinct_species:   false      # variant: one card of each species is removed before dealing
    junior:             {dice: {count: 2, faces: [1, 1, 2, 2, sun, water]},
                         step_cost: 1, sun_hexes: 2, water_hexes: 4,
                         flood_rolls_per_starting_player: 0}
    map:                {terrain: ["PFMS...", ...],          # one string per row, equal lengths
                         rivers: [[[r, c], [r, c]], ...],   # edges between neighbouring hexes
                         fords: [[[r, c], [r, c]], ...],    # each also listed in rivers
                         stairs: [[r, c], ...],             # last row; boarding the Ark from here
                         starts: [[r, c], ...]}             # stone circles, upper half
    animals:            ["Elephant", "Hippo", ...]   # mappings with a "name" are accepted too

Hexes are ``[row, col]``; row 0 is the top, the Ark lies below the last row. Odd rows are shifted
right by half a hex ("odd-r"). Every step cost must be a positive integer.

Rule functions (``FUNCTIONS``) take ``(config, inp)`` and return JSON-shaped dicts, as issue 3
part 5 fixes them; an input ``map`` replaces the config's map and ``"variant": "junior"`` switches
to the junior rules (every hex costs ``junior.step_cost``, any terrain, any crossing).

Path tie-breaking (the Lua twin must return the same path): among all cheapest legal paths the
lexicographically smallest sequence of ``[row, col]`` pairs wins. It is computed by a Dijkstra
*towards* the target (distances only, so heap tie order does not matter), then a walk from the
source that always takes the smallest neighbour ``v`` with ``step(u, v) + dist(v) == dist(u)``.
A path to the Ark ends at the stair hex the animal boards from.

Details the Lua twin must copy:

- ``move_cost``: ``path`` starts with ``from``; ``from`` never counts as occupied; ``from == to``
  costs 0 with path ``[from]``; no route gives ``{"cost": null, "path": []}``. A step costs the
  entered hex plus, over a river edge, the river cost (a ford: ``ford_cost``). Every hex entered
  must be unflooded; the destination must hold no animal; fliers may pass over occupied hexes,
  others may not. No step to a smaller row from the last ``no_retreat_rows`` rows. Boarding
  costs ``ark_entry_cost`` from a stair hex. The junior variant keeps the occupancy, flood,
  no-retreat and flier rules; only costs, terrain and rivers stop mattering.
- ``reaches_ark``: ``move_cost(to="ark")`` is non-null with no animals on the board.
- ``flood_advance``: the flood floods hexes in row-major order; ``row``/``col`` give the
  marker: rows above ``row`` and the first ``col`` hexes of ``row`` are flooded. After the last
  hex of a row the marker moves at once to ``(row + 1, 0)``.
- ``arrival``: ``out`` is cumulative (every seat whose species has all its pieces aboard, the
  winners included); ``winners`` is empty until every animal is aboard.

The game (``FloodGame`` / ``FloodState``) follows OpenSpiel: explicit chance nodes for start
placement, card deal and every die; ``current_player`` is ``CHANCE`` (-1) or ``TERMINAL`` (-4) or a
seat. Actions: ``END_TURN`` (0), or a move of one animal to a destination it can reach with the
points (or with a junior sun), encoded by ``FloodGame.move_action``. ``returns``: +1 for the
winners, 0 for the others, -1 for everybody when the flood wins. Choices made here where the
rules are silent: seat 0 starts every round; a turn ends
automatically when nothing is left to spend or when the active player goes out; junior water is
resolved as soon as the dice are read; drowned and cut-off animals are checked after every move,
every junior roll and every flood roll (the game ends at once, skipping any further rolls).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from .common import as_list, colours, seat_players
from .errors import RuleError

Hex = tuple[int, int]
ARK = "ark"
CHANCE = -1
TERMINAL = -4
END_TURN = 0
POOL_POINTS = 0
POOL_SUN = 1

# --------------------------------------------------------------------------------------------
# Geometry and compiled map


def neighbours(r: int, c: int, rows: int, cols: int) -> list[Hex]:
    """The in-bounds neighbours of ``(r, c)`` in odd-r layout, sorted by (row, col)."""
    if r % 2 == 0:
        cand = [(r - 1, c - 1), (r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c - 1), (r + 1, c)]
    else:
        cand = [(r - 1, c), (r - 1, c + 1), (r, c - 1), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [(a, b) for a, b in cand if 0 <= a < rows and 0 <= b < cols]


def _int(value: Any) -> int:
    """Python's int(x), refusing what it cannot convert (Lua's to_int)."""
    try:
        return int(value)
    except (ValueError, TypeError):
        raise RuleError("not_an_integer", f"int() of {value!r}") from None


def _hex(value: Sequence[int]) -> Hex:
    if isinstance(value, dict):  # a Lua table without [1] and [2], as the Lua twin reads it
        value = []
    if not isinstance(value, list | tuple):
        raise RuleError("bad_hex", "a hex must be [row, col]")
    row, col = [*value, None, None][:2]
    return (_int(row), _int(col))


def _edge(a: Sequence[int], b: Sequence[int]) -> frozenset[Hex]:
    return frozenset((_hex(a), _hex(b)))


def _edges(items: Iterable[Any]) -> frozenset[frozenset[Hex]]:
    """A map's edge list (pairs of hexes) as a set; anything but a pair is refused."""
    out = set()
    for e in items:
        if not isinstance(e, list | tuple) or len(e) != 2:
            raise RuleError("bad_edge", "an edge must be a pair of hexes")
        out.add(_edge(e[0], e[1]))
    return frozenset(out)


class _Board:
    """A map compiled for fast look-ups (assumes the map passed validation)."""

    def __init__(self, game_map: Mapping[str, Any]) -> None:
        self.terrain: list[str] = list(game_map["terrain"])
        self.rows = len(self.terrain)
        self.cols = len(self.terrain[0]) if self.terrain else 0
        self.rivers = _edges(game_map.get("rivers") or [])
        self.fords = _edges(game_map.get("fords") or [])
        self.stairs = frozenset(_hex(s) for s in game_map.get("stairs", []))
        self.starts = [_hex(s) for s in game_map.get("starts", [])]
        self.adj = {
            (r, c): neighbours(r, c, self.rows, self.cols)
            for r in range(self.rows)
            for c in range(self.cols)
        }

    def around(self, h: Hex) -> list[Hex]:
        """The neighbours of an on-map hex; off the map is refused."""
        found = self.adj.get(h)
        if found is None:
            raise RuleError("off_the_map", f"hex {h[0]},{h[1]} is not on the map")
        return found

    def letter(self, h: Hex) -> str:
        row = self.terrain[h[0]]
        if h[1] >= len(row):
            raise RuleError("bad_map", f"map row {h[0]} is too short")
        return row[h[1]]

    def index(self, h: Hex) -> int:
        """Position of ``h`` in flood order (row-major)."""
        return h[0] * self.cols + h[1]


def _map_key(game_map: Mapping[str, Any]) -> tuple:
    def edges(key: str) -> tuple:
        return tuple(tuple(tuple(h) for h in e) for e in game_map.get(key) or [])

    return (
        tuple(game_map["terrain"]),
        edges("rivers"),
        edges("fords"),
        tuple(tuple(s) for s in game_map.get("stairs") or []),
        tuple(tuple(s) for s in game_map.get("starts") or []),
    )


@lru_cache(maxsize=64)
def _board_from_key(key: tuple) -> _Board:
    terrain, rivers, fords, stairs, starts = key
    return _Board(
        {"terrain": terrain, "rivers": rivers, "fords": fords, "stairs": stairs, "starts": starts}
    )


def _board(game_map: Mapping[str, Any]) -> _Board:
    if not isinstance(game_map, Mapping):
        raise RuleError("bad_map", "a map must be a table")
    terrain = game_map.get("terrain")
    if (
        not isinstance(terrain, list | tuple)
        or not terrain
        or not all(isinstance(row, str) for row in terrain)
        or not terrain[0]
    ):
        raise RuleError("bad_map", "map terrain must be a non-empty list of non-empty strings")
    for key in ("rivers", "fords"):  # refused in the Lua twin's order, before the cache key
        _edges(as_list(game_map.get(key), "edges"))
    for key in ("stairs", "starts"):
        for h in as_list(game_map.get(key), key):
            _hex(h)
    return _board_from_key(_map_key(game_map))


# --------------------------------------------------------------------------------------------
# Movement rules


def species_names(config: Mapping[str, Any]) -> list[str]:
    """The species in definition order (``animals`` may hold names or mappings with a name)."""
    return [a if isinstance(a, str) else str(a["name"]) for a in config["animals"]]


class _Rules:
    """Movement rules of one variant, read from config."""

    def __init__(self, config: Mapping[str, Any], variant: str = "standard") -> None:
        if variant not in ("standard", "junior"):
            raise RuleError("unknown_variant", f"unknown variant {variant!r}")
        self.junior = variant == "junior"
        self.letters: dict[str, str] = dict(config["terrain"])
        self.costs: dict[str, dict[str, Any]] = config["costs"]
        self.ford_cost = int(config["ford_cost"])
        self.fliers = frozenset(config.get("flies_over_animals", []))
        self.ark_entry = int(config["ark_entry_cost"])
        self.no_retreat = int(config["no_retreat_rows"])
        self.step_cost = int(config["junior"]["step_cost"]) if self.junior else 0

    def enter(self, animal: str, letter: str) -> int | None:
        """Cost of entering a hex of terrain ``letter``; None = may not enter."""
        if self.junior:
            return self.step_cost
        costs = self.animal_costs(animal)
        if letter not in self.letters:
            raise RuleError("unknown_terrain", f"unknown terrain letter {letter!r}")
        cost = costs.get(self.letters[letter])
        return None if cost is None else int(cost)

    def flies(self, animal: Any) -> bool:
        """Whether ``animal`` flies over other animals; an animal must be a name."""
        if isinstance(animal, dict | list):
            raise RuleError("unknown_animal", "an animal must be a name")
        return animal in self.fliers

    def animal_costs(self, animal: str) -> dict[str, Any]:
        if not isinstance(animal, str) or animal not in self.costs:
            raise RuleError("unknown_animal", f"unknown animal {animal!r}")
        return self.costs[animal]

    def cross(self, animal: str, ford: bool) -> int | None:
        """Extra cost of crossing a river edge (at a ford or not); None = may not cross."""
        if self.junior:
            return 0
        if ford:
            return self.ford_cost
        cost = self.animal_costs(animal).get("river")
        return None if cost is None or cost == "fords_only" else int(cost)

    def step(self, board: _Board, animal: str, u: Hex, v: Hex) -> int | None:
        """Cost of the single step ``u -> v`` (adjacent) ignoring pieces and flood."""
        if u[0] >= board.rows - self.no_retreat and v[0] < u[0]:
            return None
        cost = self.enter(animal, board.letter(v))
        if cost is None:
            return None
        edge = frozenset((u, v))
        if edge in board.rivers:
            extra = self.cross(animal, edge in board.fords)
            if extra is None:
                return None
            cost += extra
        return cost


def _dist_to(
    rules: _Rules,
    board: _Board,
    animal: str,
    target: Hex | str,
    flooded: frozenset[Hex],
    occupied: frozenset[Hex],
) -> dict[Hex, int]:
    """Cheapest cost from every hex to ``target`` (a hex or ARK), by Dijkstra on reversed steps.

    Hexes entered on the way must be unflooded and, unless the animal flies, unoccupied; the
    target hex itself must be free of animals (the caller checks it).
    """
    flier = rules.flies(animal)
    dist: dict[Hex, int] = {}
    heap: list[tuple[int, Hex]] = []
    if target == ARK:
        for s in sorted(board.stairs):
            if s not in flooded:
                dist[s] = rules.ark_entry
                heap.append((rules.ark_entry, s))
        heapq.heapify(heap)
    else:
        dist[target] = 0  # type: ignore[index]
        heap.append((0, target))  # type: ignore[arg-type]
    done: set[Hex] = set()
    while heap:
        d, v = heapq.heappop(heap)
        if v in done:
            continue
        done.add(v)
        if v != target and (v in flooded or (not flier and v in occupied)):
            continue  # v may not be passed through: nobody reaches the target via v
        for u in board.around(v):
            if u in done or u in flooded:
                continue
            w = rules.step(board, animal, u, v)
            if w is None:
                continue
            nd = d + w
            if nd < dist.get(u, nd + 1):
                dist[u] = nd
                heapq.heappush(heap, (nd, u))
    return dist


def _dist_from(
    rules: _Rules,
    board: _Board,
    animal: str,
    source: Hex,
    flooded: frozenset[Hex],
    occupied: frozenset[Hex],
    budget: int,
) -> tuple[dict[Hex, int], int | None]:
    """Cheapest costs from ``source`` to hexes within ``budget``, and the cost into the Ark.

    Destinations in the returned map may still be occupied (fliers pass over them): callers
    must skip occupied hexes as final destinations. A piece on a flooded hex goes nowhere
    (as in :func:`move_cost`).
    """
    flier = rules.flies(animal)
    dist = {source: 0}
    heap = [(0, source)] if source not in flooded else []
    done: set[Hex] = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for v in board.around(u):
            if v in done or v in flooded or (not flier and v in occupied):
                continue
            w = rules.step(board, animal, u, v)
            if w is None:
                continue
            nd = d + w
            if nd <= budget and nd < dist.get(v, nd + 1):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    ark = [d + rules.ark_entry for s, d in dist.items() if s in board.stairs]
    ark_cost = min(ark) if ark and min(ark) <= budget else None
    return dist, ark_cost


def _path(
    rules: _Rules,
    board: _Board,
    animal: str,
    source: Hex,
    target: Hex | str,
    flooded: frozenset[Hex],
    occupied: frozenset[Hex],
) -> tuple[int | None, list[Hex]]:
    """The cheapest legal path (ties: lexicographically smallest hex sequence)."""
    occupied = occupied - {source}
    if source in flooded:
        return None, []
    if target != ARK:
        if target == source:
            return 0, [source]
        if target in flooded or target in occupied:
            return None, []
    dist = _dist_to(rules, board, animal, target, flooded, occupied)
    if source not in dist:
        return None, []
    flier = rules.flies(animal)
    path = [source]
    u = source
    while not (u == target or (target == ARK and u in board.stairs and dist[u] == rules.ark_entry)):
        for v in board.adj[u]:
            if v not in dist or v in flooded or (v != target and not flier and v in occupied):
                continue
            w = rules.step(board, animal, u, v)
            if w is not None and w + dist[v] == dist[u]:
                break
        else:  # pragma: no cover - impossible when dist is consistent
            raise AssertionError("inconsistent distances")
        path.append(v)
        u = v
    return dist[source], path


# --------------------------------------------------------------------------------------------
# Flood


def _flood_advance(row: int, col: int, steps: int, rows: int, cols: int) -> tuple[int, int, list]:
    """Move the flood marker ``steps`` hexes; returns (row, col, newly flooded hexes)."""
    new: list[Hex] = []
    row, col = row + col // cols, col % cols
    for _ in range(max(0, steps)):
        if row >= rows:
            break
        new.append((row, col))
        col += 1
        if col == cols:
            row, col = row + 1, 0
    return row, col, new


def flooded_hexes(row: int, col: int, cols: int) -> frozenset[Hex]:
    """The flooded set of a marker at (``row``, ``col``): rows above it and ``col`` hexes of it."""
    return frozenset((r, c) for r in range(row) for c in range(cols)) | frozenset(
        (row, c) for c in range(col)
    )


# --------------------------------------------------------------------------------------------
# Scripted rule functions (JSON in, JSON out)


def _opt(inp: Mapping[str, Any], key: str, default: Any) -> Any:
    """``inp[key]``, or ``default`` when the key is absent or null (Lua cannot tell them apart)."""
    value = inp.get(key)
    return default if value is None else value


def _need(inp: Mapping[str, Any], key: str) -> Any:
    """``inp[key]``; a missing (or null) input is refused."""
    value = inp.get(key)
    if value is None:
        raise RuleError("missing_input", f"missing input {key!r}")
    return value


def _inputs(config: Mapping[str, Any], inp: Mapping[str, Any]) -> tuple[_Rules, _Board]:
    return _Rules(config, _opt(inp, "variant", "standard")), _board(_opt(inp, "map", config["map"]))


def _hexes(items: Iterable[Sequence[int]] | None) -> frozenset[Hex]:
    return frozenset(_hex(h) for h in as_list(items, "hexes"))


def _dice_spec(config: Mapping[str, Any], variant: str) -> Mapping[str, Any]:
    return config["junior"]["dice"] if variant == "junior" else config["dice"]


def dice_effect(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"values": ["3", "0"]}`` (rotation values) -> ``{"points": 3, "sun": 0, "water": 0}``."""
    faces = {str(f) for f in _dice_spec(config, _opt(inp, "variant", "standard"))["faces"]}
    out = {"points": 0, "sun": 0, "water": 0}
    for value in as_list(_need(inp, "values"), "values"):
        text = str(value)
        if text not in faces:
            raise RuleError("not_a_face", f"{text!r} is not a face of these dice")
        if text in ("sun", "water"):
            out[text] += 1
        else:
            out["points"] += int(text)
    return out


def flood_advance(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"row", "col", "rolls"}`` -> the marker after each roll, and the hexes it flooded."""
    board = _board(_opt(inp, "map", config["map"]))
    row, col = _int(_need(inp, "row")), _int(_need(inp, "col"))
    new: list[Hex] = []
    for roll in as_list(_need(inp, "rolls"), "rolls"):
        row, col, more = _flood_advance(row, col, _int(roll), board.rows, board.cols)
        new += more
    return {"row": row, "col": col, "newly_flooded": [list(h) for h in new]}


def move_cost(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """Cheapest legal route of ``animal`` from ``from`` to ``to`` (a hex or "ark")."""
    rules, board = _inputs(config, inp)
    to = _need(inp, "to")
    target = ARK if to == ARK else _hex(to)
    animal = _need(inp, "animal")
    cost, path = _path(
        rules,
        board,
        animal,
        _hex(_need(inp, "from")),
        target,
        _hexes(inp.get("flooded")),
        _hexes(inp.get("occupied")),
    )
    return {"cost": cost, "path": [list(h) for h in path]}


def reaches_ark(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """Whether ``animal`` at ``at`` has a path to the Ark through unflooded hexes (no pieces)."""
    rules, board = _inputs(config, inp)
    at, flooded = _hex(_need(inp, "at")), _hexes(inp.get("flooded"))
    if at in flooded:
        return {"reachable": False}
    dist = _dist_to(rules, board, _need(inp, "animal"), ARK, flooded, frozenset())
    return {"reachable": at in dist}


def _arrival(
    config: Mapping[str, Any], arrived: Sequence[str], cards: Sequence[str | None], junior: bool
) -> tuple[list[int], list[int]]:
    per = int(config["pieces_per_species"])
    total = per * len(species_names(config))
    if junior:
        return [], list(range(len(cards))) if len(arrived) >= total else []
    done = {s for s in set(arrived) if list(arrived).count(s) >= per}
    out = [seat for seat, card in enumerate(cards) if card in done]
    winners = []
    if len(arrived) >= total:
        winners = [seat for seat, card in enumerate(cards) if card == arrived[-1]]
    return out, winners


def arrival(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"arrived": [species in boarding order], "cards": [species by seat]}`` -> out and winners.

    ``out``: every seat holding a species whose pieces are all aboard (cumulative).
    ``winners``: when every animal is aboard, the seats holding the last one's species. Junior:
    nobody goes out and all seats (``players`` or ``len(cards)``) win when every animal is aboard.
    """
    junior = _opt(inp, "variant", "standard") == "junior"
    cards = inp.get("cards")
    cards = [None] * _int(_need(inp, "players")) if cards is None else as_list(cards, "cards")
    out, winners = _arrival(config, as_list(_need(inp, "arrived"), "arrived"), cards, junior)
    return {"out": out, "winners": winners}


def _flag(value: Any, name: str) -> bool:
    """A boolean input (absent: false); anything else is refused."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RuleError("not_a_boolean", f"{name!r} must be true or false")
    return value


def seating(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """Who plays and in which order: ``{"seats", "seated", "min", "max"}`` (colours, range)
    -> ``{"players", "slots", "unlisted", "enough", "start"}``.

    Players are the seated seat colours in seat order (``slots``: their 0-based seat indexes);
    ``unlisted``: seated colours that are no seat of this game (told they are not playing);
    ``enough``: the count fits the range; ``start``: seat 0 starts every round.
    """
    seats, seated = colours(inp, "seats"), colours(inp, "seated")
    low, high = _int(_need(inp, "min")), _int(_need(inp, "max"))
    players, slots, unlisted = seat_players(seats, seated)
    return {
        "players": players,
        "slots": slots,
        "unlisted": unlisted,
        "enough": low <= len(slots) <= high,
        "start": 0,
    }


def next_player(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"out": [bool by seat], "after": seat or -1}`` -> ``{"seat": the first seat after
    ``after`` still in, or -1 when the round is over}`` (seats move in seat order)."""
    out = list(as_list(_need(inp, "out"), "out"))
    while out and out[-1] is None:  # a trailing null is no entry in Lua
        out.pop()
    if None in out:
        raise RuleError("not_a_list", "'out' must be a list without holes")
    out = [_flag(v, "out") for v in out]
    after = _int(_need(inp, "after"))
    for seat in range(max(after + 1, 0), len(out)):
        if not out[seat]:
            return {"seat": seat}
    return {"seat": -1}


def sun_budget(config: Mapping[str, Any], variant: str) -> int:
    """Steps one sun pays for: ``sun_hexes`` junior steps (0 outside the junior variant)."""
    return int(config["junior"]["sun_hexes"]) * _Rules(config, variant).step_cost


def payment(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """How the table pays a move: ``{"cost", "points", "sun", "sun_armed", "variant"?}`` ->
    ``{"pay": "sun" | "points" | "none", "sun_budget": n}``.

    A sun the player armed pays the move if it is within the sun's budget; otherwise the
    movement points pay when they suffice, else an unarmed sun within its budget does.
    """
    budget = sun_budget(config, _opt(inp, "variant", "standard"))
    cost, points, sun = (_int(_need(inp, key)) for key in ("cost", "points", "sun"))
    if cost < 0 or points < 0 or sun < 0:
        raise RuleError("negative_amount", "cost, points and suns cannot be negative")
    fits_sun = sun > 0 and cost <= budget
    if _flag(inp.get("sun_armed"), "sun_armed") and sun > 0:
        pay = "sun" if fits_sun else "none"
    elif cost <= points:
        pay = "points"
    else:
        pay = "sun" if fits_sun else "none"
    return {"pay": pay, "sun_budget": budget}


def step_cost(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"animal", "from", "to", "variant"?, "map"?}`` -> ``{"cost": n}`` for the single step
    ``from -> to`` (pieces and flood ignored; cost null when illegal), ``{}`` when the two hexes
    are not neighbours."""
    rules, board = _inputs(config, inp)
    u, v = _hex(_need(inp, "from")), _hex(_need(inp, "to"))
    animal = _need(inp, "animal")
    if v not in board.around(u):
        return {}
    return {"cost": rules.step(board, animal, u, v)}


def destinations(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"animal", "from", "budget", "occupied"?, "flooded"?, "variant"?, "map"?}`` ->
    ``{"hexes": [{"at": [r, c], "cost": n}, ...] (row-major), "ark": n or null}``: every hex the
    animal can end a move on within the budget (not ``from``, not occupied), and boarding."""
    rules, board = _inputs(config, inp)
    source = _hex(_need(inp, "from"))
    occupied = _hexes(inp.get("occupied")) - {source}
    flooded = _hexes(inp.get("flooded"))
    animal = _need(inp, "animal")
    budget = _int(_need(inp, "budget"))
    dist, ark = _dist_from(rules, board, animal, source, flooded, occupied, budget)
    hexes = [
        {"at": list(h), "cost": d}
        for h, d in sorted(dist.items())
        if h != source and h not in occupied
    ]
    return {"hexes": hexes, "ark": ark}


def check_flood(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict:
    """``{"pieces": [{"animal", "at"}, ...], "flooded"?, "variant"?, "map"?}`` -> ``{}`` while the
    flood has caught nobody, else the first piece (in list order) on a flooded hex or without a
    path to the Ark through unflooded hexes (other animals ignored): ``{"kind": "drowned" or
    "cut off", "piece": index, "animal", "at", "message": "drowned: Camel at (3, 4)"}``."""
    rules, board = _inputs(config, inp)
    flooded = _hexes(inp.get("flooded"))
    for i, piece in enumerate(as_list(_need(inp, "pieces"), "pieces")):
        if not isinstance(piece, dict):
            raise RuleError("bad_piece", "a piece is {animal, at}")
        at = _hex(_need(piece, "at"))
        animal = _need(piece, "animal")
        kind = None
        if at in flooded:
            kind = "drowned"
        elif at not in _dist_to(rules, board, animal, ARK, flooded, frozenset()):
            kind = "cut off"
        if kind is not None:
            message = f"{kind}: {animal} at ({at[0]}, {at[1]})"
            return {"kind": kind, "piece": i, "animal": animal, "at": list(at), "message": message}
    return {}


FUNCTIONS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], dict]] = {
    "dice_effect": dice_effect,
    "flood_advance": flood_advance,
    "move_cost": move_cost,
    "reaches_ark": reaches_ark,
    "arrival": arrival,
    "seating": seating,
    "next_player": next_player,
    "payment": payment,
    "step_cost": step_cost,
    "destinations": destinations,
    "check_flood": check_flood,
}


# --------------------------------------------------------------------------------------------
# Definition and map validation


def config_from_definition(definition: Mapping[str, Any]) -> dict:
    """The rules config of a loaded ``game.yaml``: its ``rules`` plus ``map`` and ``animals``."""
    return {
        **definition["rules"],
        "map": definition["map"],
        "animals": species_names(definition),
    }


def _fmt(h: Sequence[int]) -> str:
    return f"({h[0]}, {h[1]})"


def _shown(value: Any) -> str:
    """A hex as ``(row, col)``, anything else as its repr."""
    return _fmt(value) if _is_hex(value) else repr(value)


def _is_hex(value: Any) -> bool:
    return (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    )


class MapProblem(NamedTuple):
    """One problem of a map: ``where`` is the path in the map of the field it lies in (a row
    ``terrain[3]``, an edge ``rivers[2]``, a hex ``starts[4]``, a whole list ``stairs``) and
    ``message`` names the hex (and the animal where one is involved)."""

    where: str
    message: str


def _check_edges(
    items: Any, name: str, rows: int, cols: int, problems: list[MapProblem]
) -> dict[frozenset[Hex], int]:
    """The well-formed edges of the list ``name + "s"``, each with its (first) index there."""
    edges: dict[frozenset[Hex], int] = {}
    for i, e in enumerate(items or []):
        where = f"{name}s[{i}]"
        if not (isinstance(e, list | tuple) and len(e) == 2 and all(_is_hex(h) for h in e)):
            message = f"{name} edge {e!r} is not a pair of [row, col] hexes"
            problems.append(MapProblem(where, message))
            continue
        a, b = _hex(e[0]), _hex(e[1])
        label = f"{name} edge {_fmt(a)}-{_fmt(b)}"
        if not all(0 <= h[0] < rows and 0 <= h[1] < cols for h in (a, b)):
            problems.append(MapProblem(where, f"{label} lies outside the map"))
        elif b not in neighbours(a[0], a[1], rows, cols):
            problems.append(MapProblem(where, f"{label} joins hexes that are not neighbours"))
        else:
            edges.setdefault(frozenset((a, b)), i)
    return edges


def validate_map(
    config: Mapping[str, Any], game_map: Mapping[str, Any] | None = None
) -> list[MapProblem]:
    """Problems of ``game_map`` (default: ``config["map"]``) under config's rules; [] = fine.

    Each problem is at its field of the map and names the hex (and the animal where one is
    involved): ragged rows, unknown terrain letters, bad river edges, fords off the river,
    stairs off the last row or too few or many, too few / misplaced start hexes, and start hexes
    from which a species cannot reach the Ark on an empty, unflooded board.
    """
    game_map = config["map"] if game_map is None else game_map
    problems: list[MapProblem] = []
    terrain = game_map.get("terrain")
    if not terrain or not all(isinstance(row, str) for row in terrain):
        return [MapProblem("terrain", "terrain must be a non-empty list of strings, one per row")]
    rows, cols = len(terrain), len(terrain[0])
    letters = dict(config["terrain"])
    for r, row in enumerate(terrain):
        if len(row) != cols:
            message = f"row {r} has {len(row)} hexes but row 0 has {cols} (ragged rows)"
            problems.append(MapProblem(f"terrain[{r}]", message))
        for c, ch in enumerate(row):
            if ch not in letters:
                known = ", ".join(sorted(letters))
                message = f"hex {_fmt((r, c))}: unknown terrain letter {ch!r} ({known})"
                problems.append(MapProblem(f"terrain[{r}]", message))
    rivers = _check_edges(game_map.get("rivers"), "river", rows, cols, problems)
    fords = _check_edges(game_map.get("fords"), "ford", rows, cols, problems)
    for f in sorted(fords, key=sorted):
        if f not in rivers:
            a, b = sorted(f)
            message = f"ford {_fmt(a)}-{_fmt(b)} is not on a river edge"
            problems.append(MapProblem(f"fords[{fords[f]}]", message))
    stairs = game_map.get("stairs") or []
    limits = config["stair_hexes"]
    if not limits["min"] <= len(stairs) <= limits["max"]:
        message = f"{len(stairs)} stair hexes; the Ark needs {limits['min']} to {limits['max']}"
        problems.append(MapProblem("stairs", message))
    for i, s in enumerate(stairs):
        if not _is_hex(s) or list(s) != [rows - 1, s[1]] or not 0 <= s[1] < cols:
            message = f"stair hex {_shown(s)} is not a hex of the last row (row {rows - 1})"
            problems.append(MapProblem(f"stairs[{i}]", message))
    starts = game_map.get("starts") or []
    minimum = int(config["min_start_hexes"])
    if len(starts) < minimum:
        message = f"{len(starts)} start hexes; at least {minimum} are needed"
        problems.append(MapProblem("starts", message))
    good_starts: dict[Hex, int] = {}  # each start hex at its index in the list
    for i, s in enumerate(starts):
        where = f"starts[{i}]"
        if not _is_hex(s) or not (0 <= s[0] < rows and 0 <= s[1] < cols):
            problems.append(MapProblem(where, f"start hex {_shown(s)} lies outside the map"))
        elif 2 * s[0] >= rows:
            message = f"start hex {_fmt(s)} is not in the upper half of the map"
            problems.append(MapProblem(where, message))
        elif _hex(s) in good_starts:
            problems.append(MapProblem(where, f"start hex {_fmt(s)} is listed twice"))
        else:
            good_starts[_hex(s)] = i
    if problems:
        return problems  # reachability needs a well-formed map
    board = _board(game_map)
    rules = _Rules(config)
    for animal in species_names(config):
        dist = _dist_to(rules, board, animal, ARK, frozenset(), frozenset())
        for s, i in good_starts.items():
            if s not in dist:
                message = f"start hex {_fmt(s)}: {animal} cannot reach the Ark"
                problems.append(MapProblem(f"starts[{i}]", message))
    return problems


# --------------------------------------------------------------------------------------------
# The game, OpenSpiel style


class FloodGame:
    """Static facts of one game: config, variant, player count; creates initial states."""

    def __init__(
        self,
        config: Mapping[str, Any],
        num_players: int,
        variant: str = "standard",
        distinct_species: bool | None = None,
    ) -> None:
        self.config = config
        self.variant = variant
        self.junior = variant == "junior"
        self.rules = _Rules(config, variant)
        self.board = _board(config["map"])
        self.species = species_names(config)
        self.per_species = int(config["pieces_per_species"])
        self.num_pieces = self.per_species * len(self.species)
        self.num_players = num_players
        self.distinct = bool(
            config.get("distinct_species", False) if distinct_species is None else distinct_species
        )
        dice = _dice_spec(config, variant)
        self.dice_count = int(dice["count"])
        self.faces = [str(f) for f in dice["faces"]]
        self.flood_faces = [str(f) for f in config["dice"]["faces"]]
        self.flood_dice = int(config["dice"]["count"])
        per_player = (
            config["junior"]["flood_rolls_per_starting_player"]
            if self.junior
            else config["flood"]["rolls_per_starting_player"]
        )
        self.flood_rolls = int(per_player) * num_players
        # A sun moves one animal this many hexes: a free budget of that many junior steps.
        self.sun_budget = sun_budget(config, variant)
        self.water_hexes = int(config["junior"]["water_hexes"])
        deck = 1 if self.distinct else self.per_species
        if not self.junior and not 1 <= num_players <= deck * len(self.species):
            raise ValueError(f"{num_players} players but only {deck * len(self.species)} cards")
        if len(self.board.starts) < self.num_pieces:
            raise ValueError("fewer start hexes than animals")
        self.num_hexes = self.board.rows * self.board.cols
        self._ark_maps: dict[tuple[str, int], dict[Hex, int]] = {}

    def new_initial_state(self) -> FloodState:
        return FloodState(self)

    def species_of(self, piece: int) -> str:
        return self.species[piece // self.per_species]

    def ark_map(self, animal: str, flood_count: int) -> dict[Hex, int]:
        """Cost to the Ark from every hex on an empty board with ``flood_count`` hexes flooded."""
        key = (animal, flood_count)
        if key not in self._ark_maps:
            cols = self.board.cols
            flooded = flooded_hexes(flood_count // cols, flood_count % cols, cols)
            self._ark_maps[key] = _dist_to(
                self.rules, self.board, animal, ARK, flooded, frozenset()
            )
        return self._ark_maps[key]

    # Action encoding: 0 ends the turn; 1 + (pool * pieces + piece) * (hexes + 1) + dest, where
    # dest = row * cols + col, or ``hexes`` for the Ark; pool 0 spends points, 1 uses a sun.
    def move_action(self, pool: int, piece: int, dest: Hex | str) -> int:
        d = self.num_hexes if dest == ARK else self.board.index(dest)  # type: ignore[arg-type]
        return 1 + (pool * self.num_pieces + piece) * (self.num_hexes + 1) + d

    def decode_action(self, action: int) -> tuple[int, int, Hex | str]:
        """(pool, piece, destination) of a move action."""
        rest, d = divmod(action - 1, self.num_hexes + 1)
        pool, piece = divmod(rest, self.num_pieces)
        dest: Hex | str = ARK if d == self.num_hexes else divmod(d, self.board.cols)
        return pool, piece, dest


_FIELDS = (
    "phase",
    "positions",
    "cards",
    "deck",
    "out",
    "active",
    "round",
    "rolled",
    "points",
    "sun",
    "flood_row",
    "flood_col",
    "flood_rolls_left",
    "arrived",
    "outcome",
    "winners",
)


class FloodState:
    """One position of the game; JSON-shaped fields, see ``to_dict``."""

    def __init__(self, game: FloodGame) -> None:
        self.game = game
        n = game.num_players
        self.phase = "place"
        self.positions: list[list[int] | str | None] = [None] * game.num_pieces
        self.cards: list[str | None] = [None] * n
        per = 1 if game.distinct else game.per_species
        self.deck = {s: per for s in game.species}
        self.out = [False] * n
        self.active = 0
        self.round = 1
        self.rolled: list[str] = []
        self.points = 0
        self.sun = 0
        self.flood_row = 0
        self.flood_col = 0
        self.flood_rolls_left = 0
        self.arrived: list[str] = []
        self.outcome: str | None = None
        self.winners: list[int] = []
        self._cache: dict[int, int] | None = None

    # -- serialisation ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = {f: getattr(self, f) for f in _FIELDS}
        d["positions"] = [list(p) if isinstance(p, list | tuple) else p for p in self.positions]
        d["deck"] = dict(self.deck)
        for f in ("cards", "out", "rolled", "arrived", "winners"):
            d[f] = list(d[f])
        return d

    @classmethod
    def from_dict(cls, game: FloodGame, data: Mapping[str, Any]) -> FloodState:
        state = cls(game)
        for f in _FIELDS:
            setattr(state, f, data[f])
        state.positions = [list(p) if isinstance(p, list | tuple) else p for p in data["positions"]]
        state.deck = dict(data["deck"])
        for f in ("cards", "out", "rolled", "arrived", "winners"):
            setattr(state, f, list(data[f]))
        return state

    def clone(self) -> FloodState:
        return FloodState.from_dict(self.game, self.to_dict())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FloodState) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- queries ------------------------------------------------------------------------------
    def flood_count(self) -> int:
        return self.flood_row * self.game.board.cols + self.flood_col

    def flooded(self) -> frozenset[Hex]:
        return flooded_hexes(self.flood_row, self.flood_col, self.game.board.cols)

    def occupied(self) -> frozenset[Hex]:
        return frozenset(_hex(p) for p in self.positions if isinstance(p, list))

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase in ("place", "deal", "roll", "flood")

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.is_chance_node() else self.active

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) pairs of the current chance node, sorted by outcome."""
        g = self.game
        if self.phase == "place":
            taken = self.occupied()
            free = [i for i, s in enumerate(g.board.starts) if s not in taken]
            return [(i, 1.0 / len(free)) for i in free]
        if self.phase == "deal":
            total = sum(self.deck.values())
            return [(i, self.deck[s] / total) for i, s in enumerate(g.species) if self.deck[s] > 0]
        faces = g.faces if self.phase == "roll" else g.flood_faces
        return [(i, 1.0 / len(faces)) for i in range(len(faces))]

    def move_costs(self) -> dict[int, int]:
        """Legal move actions -> cost in their pool (cached until the next action)."""
        if self._cache is not None:
            return self._cache
        g = self.game
        moves: dict[int, int] = {}
        occupied = self.occupied()
        flooded = self.flooded()
        for pool, budget in (
            (POOL_POINTS, self.points),
            (POOL_SUN, g.sun_budget if self.sun else 0),
        ):
            if budget <= 0:
                continue
            for piece, pos in enumerate(self.positions):
                if not isinstance(pos, list):
                    continue
                src = _hex(pos)
                dist, ark = _dist_from(
                    g.rules, g.board, g.species_of(piece), src, flooded, occupied - {src}, budget
                )
                for h, d in dist.items():
                    if h != src and h not in occupied:
                        moves[g.move_action(pool, piece, h)] = d
                if ark is not None:
                    moves[g.move_action(pool, piece, ARK)] = ark
        self._cache = moves
        return moves

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        return [END_TURN, *sorted(self.move_costs())]

    def returns(self) -> list[float]:
        """+1 to winners; -1 to everybody when the flood wins; otherwise 0."""
        n = self.game.num_players
        if self.outcome is None or self.outcome == "won":
            return [1.0 if seat in self.winners else 0.0 for seat in range(n)]
        return [-1.0] * n

    # -- transitions --------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        if self.is_terminal():
            raise ValueError("the game is over")
        chance = self.is_chance_node()
        moves = {} if chance else self.move_costs()
        legal = [a for a, _ in self.chance_outcomes()] if chance else [END_TURN, *moves]
        if action not in legal:
            raise ValueError(f"illegal action {action} in phase {self.phase}")
        self._cache = None
        g = self.game
        if self.phase == "place":
            piece = self.positions.index(None)
            self.positions[piece] = list(g.board.starts[action])
            if None not in self.positions:
                self.phase = "roll" if g.junior else "deal"
        elif self.phase == "deal":
            seat = self.cards.index(None)
            self.cards[seat] = g.species[action]
            self.deck[g.species[action]] -= 1
            if None not in self.cards:
                self.phase = "roll"
        elif self.phase == "roll":
            self.rolled.append(g.faces[action])
            if len(self.rolled) == g.dice_count:
                self._resolve_roll()
        elif self.phase == "flood":
            self.rolled.append(g.flood_faces[action])
            if len(self.rolled) == g.flood_dice:
                self._advance_flood(sum(int(v) for v in self.rolled))
                self.rolled = []
                self.flood_rolls_left -= 1
                self._check_flood()
                if not self.is_terminal() and self.flood_rolls_left == 0:
                    self.round += 1
                    self._start_round()
        elif action == END_TURN:
            self._end_turn()
        else:
            self._move(action, moves[action])

    def _resolve_roll(self) -> None:
        g = self.game
        effect = dice_effect(g.config, {"values": self.rolled, "variant": g.variant})
        self.rolled = []
        self.points, self.sun = effect["points"], effect["sun"]
        for _ in range(effect["water"]):
            self._advance_flood(g.water_hexes)
        self._check_flood()
        if self.is_terminal():
            return
        self.phase = "move"
        if self.points == 0 and self.sun == 0:
            self._end_turn()

    def _move(self, action: int, cost: int) -> None:
        g = self.game
        pool, piece, dest = g.decode_action(action)
        if pool == POOL_SUN:
            self.sun -= 1
        else:
            self.points -= cost
        if dest == ARK:
            self.positions[piece] = ARK
            self.arrived.append(g.species_of(piece))
            out, winners = _arrival(g.config, self.arrived, self.cards, g.junior)
            for seat in out:
                self.out[seat] = True
            if len(self.arrived) == g.num_pieces:
                self.winners = winners
                self.outcome = "won"
                self.phase = "over"
                return
        else:
            self.positions[piece] = list(dest)
        self._check_flood()
        if self.is_terminal():
            return
        if self.out[self.active] or (self.points == 0 and self.sun == 0):
            self._end_turn()

    def _advance_flood(self, steps: int) -> None:
        g = self.game
        self.flood_row, self.flood_col, _ = _flood_advance(
            self.flood_row, self.flood_col, steps, g.board.rows, g.board.cols
        )

    def _check_flood(self) -> None:
        """Everybody loses when an animal is drowned or cut off from the Ark."""
        g = self.game
        flooded = self.flooded()
        for piece, pos in enumerate(self.positions):
            if not isinstance(pos, list):
                continue
            animal = g.species_of(piece)
            if _hex(pos) in flooded:
                self.outcome = f"drowned: {animal} at {_fmt(pos)}"
            elif _hex(pos) not in g.ark_map(animal, self.flood_count()):
                self.outcome = f"cut off: {animal} at {_fmt(pos)}"
            else:
                continue
            self.phase = "over"
            return

    def _end_turn(self) -> None:
        self.points = self.sun = 0
        nxt = next_player(self.game.config, {"out": self.out, "after": self.active})["seat"]
        if nxt >= 0:
            self.active = nxt
            self.phase = "roll"
        elif self.game.flood_rolls > 0:
            self.phase = "flood"
            self.flood_rolls_left = self.game.flood_rolls
        else:
            self.round += 1
            self._start_round()

    def _start_round(self) -> None:
        first = next_player(self.game.config, {"out": self.out, "after": -1})["seat"]
        if first >= 0:
            self.active = first
            self.phase = "roll"
        elif self.game.flood_rolls > 0:  # nobody left to move the animals: the flood rises on
            self.phase = "flood"
            self.flood_rolls_left = self.game.flood_rolls
        else:
            self.outcome = "stranded: no player left to move the animals"
            self.phase = "over"


# --------------------------------------------------------------------------------------------
# A simple cooperative policy and a driver


def cooperative_policy(state: FloodState) -> int:
    """Move the animal the flood will reach first as far towards the Ark as the dice allow.

    Animals are taken in flood order (the one nearest the flood first); the first with a move
    that lowers its remaining cost to the Ark makes the move leaving the least cost (ties: the
    later flood position, then the smaller action). Boarding the last piece of a species (which
    puts its holders out) waits until no other move helps, unless it is the last animal.
    Ends the turn when nothing helps.
    """
    g = state.game
    moves = state.move_costs()
    fc = state.flood_count()
    aboard = len(state.arrived)
    by_piece: dict[int, list[int]] = {}
    for action in moves:
        by_piece.setdefault(g.decode_action(action)[1], []).append(action)
    pieces = [p for p, pos in enumerate(state.positions) if isinstance(pos, list)]
    pieces.sort(key=lambda p: (g.board.index(_hex(state.positions[p])), p))  # type: ignore[arg-type]
    for completing_ok in (False, True):
        for piece in pieces:
            animal = g.species_of(piece)
            completes = (
                not g.junior
                and state.arrived.count(animal) == g.per_species - 1
                and aboard < g.num_pieces - 1
            )
            ark = g.ark_map(animal, fc)
            here = ark.get(_hex(state.positions[piece]))  # type: ignore[arg-type]
            best: tuple | None = None
            for action in by_piece.get(piece, []):
                pool, _, dest = g.decode_action(action)
                if dest == ARK:
                    if completes and not completing_ok:
                        continue
                    key = (0, 0, pool, action)
                elif dest in ark:
                    key = (ark[dest], -g.board.index(dest), pool, action)  # type: ignore[arg-type]
                else:
                    continue
                if here is not None and key[0] < here and (best is None or key < best):
                    best = key
            if best is not None:
                return best[3]
    return END_TURN


def random_policy(rng: random.Random) -> Callable[[FloodState], int]:
    """A policy choosing uniformly among the legal actions."""
    return lambda state: rng.choice(state.legal_actions())


def play(
    game: FloodGame,
    rng: random.Random,
    policy: Callable[[FloodState], int] = cooperative_policy,
    max_actions: int = 100_000,
) -> FloodState:
    """Play one game to the end, sampling chance from ``rng``; returns the terminal state."""
    state = game.new_initial_state()
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(policy(state))
    raise RuntimeError("game did not end")
