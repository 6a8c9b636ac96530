"""Ark & Noah (`ark-and-noah`, RULINGS §2, seed 002): rule functions and the OpenSpiel-style game.

Config
------
``config`` is :func:`make_config` of the parsed ``assets/ark-and-noah/game.yaml``: its ``rules:``
mapping (a variant's ``rules:`` deep-merged over it) plus these keys from the top level::

    species: [{"name": "Lion", "size": 3, "vp": 6, "min_players": 3?}, ...]   # roster order
    colors:  ["Red", "Yellow", "Green", "Blue"]                               # clockwise seats
    players: {"min": 2, "max": 4}
    variant: None | "family"

The ``rules:`` keys read here: ``supply`` {dividers_per_color, food, pitch}, ``bonus_max``,
``workers``, ``ark`` {section {rows, cols}, sections [{players, layout}], enclosure_max},
``turn_mode`` (worker | seats), ``first_round_spaces``, ``actions`` [{id, kind, resource?,
occupant?, others?, shared}], ``taming.draws``, ``trading`` {bonus, bonus_amount, swap, draws,
exchange, exchange_optional}, ``building.vp_per_element``, ``loading`` {food_lp, food_vp,
food_needs_own_divider, cost, food_required, pitch_required, capacity {small, large},
small_fits_any_size, divider_vp, pitch_vp}, ``small_animals``, ``setup``, ``end``
{min_rounds, full_hull, deluge}, ``final`` {hull_majority_bonus, leftover_penalty,
animal_penalty_per_size}.

Geometry (issue 4): the Ark is ``rows`` x ``cols`` squares ``[r, c]`` (0-based). ``h:r:c`` is the
horizontal edge above square (r, c) (r = rows is the bottom hull); ``v:r:c`` the vertical edge
left of square (r, c) (c = cols is the right hull). Pitch fields ``p:y:x`` are the hull's grid
points. Canonical order (every output list): edges ``h`` before ``v``, then row, then column,
numerically; pitch fields by (y, x); squares by (r, c); enclosures by their first square.

Rule functions (``FUNCTIONS``): ``fn(config, inp) -> dict``, JSON in and out, documented beside
each. Malformed input (unknown edge, square off the Ark, a space taken twice) raises ValueError.
:func:`phase_two_order` (the round's turn order and Phase II steps) has the same shape but is not
in ``FUNCTIONS``: the table shows it; the Lua ``Rules`` table need not mirror it.

The game: :class:`Game` / :class:`State`, with explicit chance (every bag draw is a chance
outcome, uniform over the tiles in the bag). Simplifications, all subsets of the legal moves:

- Forced moves (exactly one legal action, or one chance outcome) are applied automatically, so a
  state never waits on a non-choice.
- Setup: a drawn tile that would complete a pair in the drawer's hand is returned and redrawn;
  modelled as a draw uniform over the tiles that do not (the same distribution).
- Building: a divider may go on an inner edge only if enough dividers stay off the Ark (hands and
  supply of the colours in play) to fill every free hull edge, so the end condition stays
  reachable.
- Trading: "partner in play" ignores the tiles drawn by this trade; the 3p taming draw of a chosen
  sex comes after the fixed draws.
- ``returns()`` are the final VP (the winners are ``State.final["winners"]``).

Action ids (``State.action_to_string`` names them): 0 pass, 1/2 bag male/female, 3/4 trade
swap/draw, then blocks for a trading bonus, an action space, a tile (draws and picks), an edge
(build, swap), a pitch field, a square (food), a load (species x first square of the enclosure)
and an exchange (tile taken x tile given); offsets depend on the Ark size (``_layout``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from .common import as_list, entry_for
from .errors import RuleError

CHANCE = -1
TERMINAL = -4
SEXES = ("male", "female")

# ---------------------------------------------------------------------------------------------
# Definition


def _merge(base: Any, over: Any) -> Any:
    """Deep-merge ``over`` into ``base``: mappings merge, everything else is replaced."""
    if isinstance(base, Mapping) and isinstance(over, Mapping):
        out = {k: copy.deepcopy(v) for k, v in base.items()}
        for key, value in over.items():
            out[key] = _merge(base[key], value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(over)


def make_config(definition: Mapping[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The config of a parsed game definition (and optional variant); see the module docstring."""
    rules = definition["rules"]
    if variant is not None:
        rules = _merge(rules, definition["variants"][variant]["rules"])
    config = copy.deepcopy(dict(rules))
    config["species"] = copy.deepcopy(list(definition["species"]))
    config["colors"] = [c["name"] if isinstance(c, Mapping) else c for c in definition["colors"]]
    config["players"] = dict(definition["players"])
    config["variant"] = variant
    names = [s["name"] for s in config["species"]]
    if len(set(names)) != len(names):
        raise ValueError("species names must be unique")
    if len(config["colors"]) < config["players"]["max"]:
        raise ValueError("need one colour per seat")
    return config


def for_players(rows: Iterable[Mapping[str, Any]], n: int) -> Mapping[str, Any]:
    """The row of a ``players: [..]`` table that applies to ``n`` players."""
    return entry_for(rows, n, "players")


def ark_shape(config: Mapping[str, Any], n: int) -> tuple[int, int]:
    """(rows, cols) of the Ark for ``n`` players: one section per player."""
    section = config["ark"]["section"]
    layout = entry_for(config["ark"]["sections"], n, "ark.sections")["layout"]
    return section["rows"], section["cols"] * len(layout)


# ---------------------------------------------------------------------------------------------
# Geometry


class _Grid(NamedTuple):
    rows: int
    cols: int
    edges: tuple[str, ...]  # canonical order
    index: dict[str, int]
    sides: tuple[tuple[int, ...], ...]  # squares beside each edge (1 on the hull, 2 inside)
    hull: frozenset[str]
    square_edges: tuple[tuple[str, ...], ...]  # top, bottom, left, right
    neighbours: tuple[tuple[tuple[int, str], ...], ...]  # (other square, edge between)
    points: tuple[tuple[str, str, str], ...]  # (pitch field, hull edge, hull edge)


@lru_cache(maxsize=16)
def _grid(rows: int, cols: int) -> _Grid:
    """The edges, hull and pitch fields of a rows x cols Ark."""
    if rows < 1 or cols < 1:
        raise RuleError("bad_ark_size", "the Ark needs at least one square")
    edges = [f"h:{r}:{c}" for r in range(rows + 1) for c in range(cols)]
    edges += [f"v:{r}:{c}" for r in range(rows) for c in range(cols + 1)]
    sides = []
    for e in edges:
        kind, r, c = e[0], *map(int, e[2:].split(":"))
        if kind == "h":
            sq = [(r - 1) * cols + c] if r > 0 else []
            sq += [r * cols + c] if r < rows else []
        else:
            sq = [r * cols + c - 1] if c > 0 else []
            sq += [r * cols + c] if c < cols else []
        sides.append(tuple(sq))
    hull = frozenset(e for e, s in zip(edges, sides, strict=True) if len(s) == 1)
    square_edges = tuple(
        (f"h:{r}:{c}", f"h:{r + 1}:{c}", f"v:{r}:{c}", f"v:{r}:{c + 1}")
        for r in range(rows)
        for c in range(cols)
    )
    neighbours: list[list[tuple[int, str]]] = [[] for _ in range(rows * cols)]
    for e, s in zip(edges, sides, strict=True):
        if len(s) == 2:
            neighbours[s[0]].append((s[1], e))
            neighbours[s[1]].append((s[0], e))
    points = []
    for y in range(rows + 1):
        for x in range(cols + 1):
            if y not in (0, rows) and x not in (0, cols):
                continue
            near = []
            if y in (0, rows):
                near += [f"h:{y}:{x - 1}"] if x > 0 else []
                near += [f"h:{y}:{x}"] if x < cols else []
            if x in (0, cols):
                near += [f"v:{y - 1}:{x}"] if y > 0 else []
                near += [f"v:{y}:{x}"] if y < rows else []
            points.append((f"p:{y}:{x}", near[0], near[1]))
    return _Grid(
        rows,
        cols,
        tuple(edges),
        {e: i for i, e in enumerate(edges)},
        tuple(sides),
        hull,
        square_edges,
        tuple(tuple(n) for n in neighbours),
        tuple(points),
    )


def edge_names(rows: int, cols: int) -> list[str]:
    """Every edge of a rows x cols Ark, canonical order: h before v, then row, then column."""
    return list(_grid(rows, cols).edges)


def hull_edges(rows: int, cols: int) -> list[str]:
    """The edges on the Ark's outline, canonical order."""
    grid = _grid(rows, cols)
    return [e for e in grid.edges if e in grid.hull]


def pitch_fields(rows: int, cols: int) -> list[tuple[str, str, str]]:
    """``(field, hull edge, hull edge)`` for every pitch field, by (y, x)."""
    return list(_grid(rows, cols).points)


class _Enclosure(NamedTuple):
    squares: tuple[int, ...]  # sorted square indices (r * cols + c)
    edges: tuple[str, ...]  # boundary edges, canonical order
    pitch: tuple[str, ...]  # pitch fields, canonical order


def _analyse(
    grid: _Grid, divided: Mapping[str, Any], largest: int
) -> tuple[list[_Enclosure], list[str]]:
    """Completed enclosures, and the edges inside them (canonical order)."""
    region = [-1] * (grid.rows * grid.cols)
    regions: list[list[int]] = []
    for start in range(len(region)):
        if region[start] >= 0:
            continue
        region[start] = len(regions)
        members, stack = [start], [start]
        while stack:
            here = stack.pop()
            for other, edge in grid.neighbours[here]:
                if region[other] < 0 and edge not in divided:
                    region[other] = region[start]
                    members.append(other)
                    stack.append(other)
        regions.append(sorted(members))
    found, inside = [], []
    for i, members in enumerate(regions):
        if len(members) > largest:
            continue
        edges = {e for sq in members for e in grid.square_edges[sq]}
        if any(e in grid.hull and e not in divided for e in edges):
            continue
        inner = {
            e
            for e in edges
            if len(s := grid.sides[grid.index[e]]) == 2 and region[s[0]] == region[s[1]] == i
        }
        boundary = sorted(edges - inner, key=grid.index.__getitem__)
        bset = set(boundary)
        pitch = tuple(p for p, a, b in grid.points if a in bset and b in bset)
        found.append(_Enclosure(tuple(members), tuple(boundary), pitch))
        inside += inner
    return found, sorted(inside, key=grid.index.__getitem__)


def _dividers(grid: _Grid, items: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """``[{"edge", "color"}]`` as {edge: colour}, checked."""
    out: dict[str, str] = {}
    for item in as_list(_present(items, "dividers"), "dividers"):
        edge = _table(item, "a divider", "bad_divider").get("edge")
        if not isinstance(edge, str) or edge not in grid.index:
            raise RuleError("unknown_edge", f"no edge {edge} on a {grid.rows}x{grid.cols} Ark")
        if edge in out:
            raise RuleError("doubled_divider", f"two dividers on {edge}")
        out[edge] = _need(item, "color")
    return out


def _square(grid: _Grid, rc: Any) -> int:
    if not isinstance(rc, list | tuple) or len(rc) != 2:
        raise RuleError("bad_square", "a square is [r, c]")
    r, c = _need_int(rc[0], "a square's row"), _need_int(rc[1], "a square's column")
    if not (0 <= r < grid.rows and 0 <= c < grid.cols):
        raise RuleError("off_the_ark", f"no square [{r}, {c}] on a {grid.rows}x{grid.cols} Ark")
    return r * grid.cols + c


def _table(value: Any, what: str, code: str) -> Any:
    """``value``, refused with ``code`` unless it is a JSON object or list (a Lua table); a
    list reads as an object without those keys."""
    if isinstance(value, list | tuple):
        return {}
    if not isinstance(value, dict):
        raise RuleError(code, f"{what} must be a table")
    return value


def _present(value: Any, what: str) -> Any:
    """``value``; a missing (null) input is refused."""
    if value is None:
        raise RuleError("missing_input", f"missing {what}")
    return value


def _need(inp: Mapping[str, Any], key: str) -> Any:
    """``inp[key]``; a missing (or null) input is refused."""
    return _present(inp.get(key), key)


def _need_int(value: Any, what: str) -> int:
    """``value`` as an int; anything but an integral number is refused."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise RuleError("not_an_integer", f"{what} must be an integer")
    return int(value)


def _grid_of(inp: Mapping[str, Any]) -> _Grid:
    """The grid of an input's ``rows`` and ``cols``."""
    return _grid(_need_int(inp.get("rows"), "rows"), _need_int(inp.get("cols"), "cols"))


def _truthy(value: Any) -> bool:
    """Lua's test of a JSON flag: nil, false, 0 and "" are false (Lua's twin, ``truthy``)."""
    if value is None or value is False or value == "":
        return False
    return not (isinstance(value, int | float) and not isinstance(value, bool) and value == 0)


def _rc(grid: _Grid, square: int) -> list[int]:
    return [square // grid.cols, square % grid.cols]


# ---------------------------------------------------------------------------------------------
# Rule functions


def enclosures(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Completed enclosures on the Ark.

    inp: ``{"rows": 3, "cols": 8, "dividers": [{"edge": "h:0:0", "color": "Red"}, ...]}``.
    out: ``{"enclosures": [{"squares": [[r, c], ...], "edges": [...], "pitch_fields": [...]}],
    "returned": [edges]}``: regions of 1..``ark.enclosure_max`` squares (connected through edges
    without a divider) whose every boundary edge holds a divider; ``pitch_fields`` are the hull
    points whose two neighbouring hull edges are both boundary edges of the enclosure;
    ``returned`` are the dividers whose both sides lie in the same completed enclosure.
    """
    grid = _grid_of(inp)
    divided = _dividers(grid, inp.get("dividers"))
    found, inside = _analyse(grid, divided, config["ark"]["enclosure_max"])
    return {
        "enclosures": [
            {
                "squares": [_rc(grid, s) for s in e.squares],
                "edges": list(e.edges),
                "pitch_fields": list(e.pitch),
            }
            for e in found
        ],
        "returned": [e for e in inside if e in divided],
    }


def _load_cost(config: Mapping[str, Any], loader: str, pair: Mapping[str, Any]) -> int:
    """Loading points a pair costs its loader (outside the Deluge)."""
    if config["loading"]["cost"] == "pairs":
        return 1
    return sum(pair["size"] for sex in SEXES if pair[sex] == loader)


def _check_load(
    config: Mapping[str, Any],
    enclosure: _Enclosure | None,
    dividers: Mapping[str, str],
    pitch: Iterable[str],
    food: Iterable[int],
    loaded: Iterable[tuple[int, int]],
    loader: str,
    pair: Mapping[str, Any],
    lp: int,
    deluge: bool,
) -> dict[str, Any]:
    """The verdict of :func:`load_pair` on an analysed Ark (``loaded``: (square, size))."""
    rules = config["loading"]
    size = _need_int(_need(pair, "size"), "the pair's size")
    small = size == 0
    for sex in SEXES:
        if pair.get(sex) is None:
            return {"ok": False, "reason": f"the {sex} is not in play"}
    if loader not in (pair["male"], pair["female"]):
        return {"ok": False, "reason": "the loader owns neither animal"}
    if small and rules["capacity"]["small"] == 0:
        return {"ok": False, "reason": "small animals are not loaded in this game"}
    if enclosure is None:
        return {"ok": False, "reason": "the square is not in a completed enclosure"}
    squares = set(enclosure.squares)
    if not (small and rules["small_fits_any_size"]) and len(squares) != size:
        return {
            "ok": False,
            "reason": f"the enclosure has {len(squares)} squares; the pair needs {size}",
        }
    held = [s for sq, s in loaded if sq in squares]
    kind = "small" if small else "large"
    if sum(1 for s in held if (s == 0) == small) >= rules["capacity"][kind]:
        return {"ok": False, "reason": f"the enclosure already holds a {kind} pair"}
    if rules["food_required"] and not squares <= set(food):
        return {"ok": False, "reason": "every square of the enclosure needs food"}
    cubes = set(pitch) & set(enclosure.pitch)
    if rules["pitch_required"] and len(cubes) < len(enclosure.pitch):
        return {"ok": False, "reason": "every pitch field of the enclosure needs pitch"}
    colours = [dividers[e] for e in enclosure.edges]
    if deluge:
        return {"ok": True, "cost": 0, "vp": {}}
    if loader not in colours:
        return {"ok": False, "reason": "the enclosure has no divider of the loader's colour"}
    cost = _load_cost(config, loader, pair)
    if cost > lp:
        return {"ok": False, "reason": f"the pair costs {cost} loading points; {lp} left"}
    vp: dict[str, int] = {}

    def add(colour: str, n: int) -> None:
        if n:
            vp[colour] = vp.get(colour, 0) + n

    for sex in SEXES:
        add(pair[sex], 0 if small else pair["vp"])
    for colour in colours:
        add(colour, rules["divider_vp"])
    add(loader, rules["pitch_vp"] * len(cubes))
    return {"ok": True, "cost": cost, "vp": dict(sorted(vp.items()))}


def load_pair(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """May ``loader`` load ``pair`` into the enclosure holding ``square``; at what cost and VP.

    inp::

        {"rows": 3, "cols": 8,
         "dividers": [{"edge": "h:0:1", "color": "Blue"}, ...],
         "pitch": ["p:0:2", ...],                      # pitch fields holding a cube
         "food": [[r, c], ...],                        # squares holding food
         "loaded": [{"square": [r, c], "size": 3}, ...],  # pairs already on the Ark
         "loader": "Blue",
         "pair": {"species": "Lion", "size": 3, "vp": 6,
                  "male": "Blue", "female": "Blue"},   # owner colours; null = not in play
         "square": [r, c], "lp": 8, "deluge": false}

    out: ``{"ok": true, "cost": n, "vp": {"Blue": n, ...}}`` (only non-zero VP, keys sorted) or
    ``{"ok": false, "reason": "..."}``. Checks, first failure wins: both animals in play; the
    loader owns one; small pairs allowed; the square is in a completed enclosure; its size (a
    small pair fits any); the enclosure's room (``loading.capacity``); food on every square; a
    cube on every pitch field; then, outside the Deluge, a divider of the loader's colour and
    enough loading points. Cost: ``loading.cost`` size = the sizes of the loader's own animals,
    pairs = 1. VP: each animal's VP to its owner (small: 0), ``divider_vp`` per divider to its
    colour, ``pitch_vp`` per cube to the loader. Deluge: cost 0 and no VP.
    """
    grid = _grid_of(inp)
    divided = _dividers(grid, inp.get("dividers"))
    found, _ = _analyse(grid, divided, config["ark"]["enclosure_max"])
    target = _square(grid, inp.get("square"))
    enclosure = next((e for e in found if target in e.squares), None)
    fields = {p for p, _, _ in grid.points}
    pitch_in = as_list(inp.get("pitch"), "pitch")
    for field in pitch_in:
        if not isinstance(field, str) or field not in fields:
            raise RuleError("unknown_pitch_field", f"no pitch field {field}")
    pitch = set(pitch_in)
    return _check_load(
        config,
        enclosure,
        divided,
        pitch,
        {_square(grid, rc) for rc in as_list(inp.get("food"), "food")},
        [
            (_square(grid, p.get("square")), _need(p, "size"))
            for p in (
                _table(a, "a loaded pair", "bad_pair") for a in as_list(inp.get("loaded"), "loaded")
            )
        ],
        _need(inp, "loader"),
        _table(_need(inp, "pair"), "pair", "bad_pair"),
        _need_int(0 if inp.get("lp") is None else inp["lp"], "lp"),
        _truthy(inp.get("deluge")),
    )


def final_scoring(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Final scores and winners.

    inp: ``{"players": [{"color": "Red", "vp": 40, "hull_dividers": 6, "hand": {"dividers": 2,
    "food": 1, "pitch": 0, "animals": [3, 0]}}, ...]}`` (``animals``: sizes still in hand).
    out: ``{"scores": {colour: n}, "hull_bonus": {colour: n}, "penalties": {colour: n},
    "winners": [colours in input order]}``. The players with the most hull dividers (if any
    has one) get ``final.hull_majority_bonus``; penalties (subtracted) are
    ``final.leftover_penalty`` per divider, food and pitch in hand plus
    ``final.animal_penalty_per_size`` x size per animal in hand.
    """
    rules = config["final"]
    players = as_list(_need(inp, "players"), "players")
    most = max(
        (
            _need_int(_need(_table(p, "a player", "bad_player"), "hull_dividers"), "hull_dividers")
            for p in players
        ),
        default=0,
    )
    scores, bonus, penalties = {}, {}, {}
    for p in players:
        colour = _need(p, "color")
        hand = _table(_need(p, "hand"), "hand", "bad_player")
        bonus[colour] = rules["hull_majority_bonus"] if 0 < most == p["hull_dividers"] else 0
        penalties[colour] = sum(
            rules["leftover_penalty"][k] * hand.get(k, 0) for k in ("dividers", "food", "pitch")
        ) + rules["animal_penalty_per_size"] * sum(
            _need_int(size, "an animal's size") for size in as_list(hand.get("animals"), "animals")
        )
        scores[colour] = _need_int(_need(p, "vp"), "vp") + bonus[colour] - penalties[colour]
    best = max(scores.values(), default=0)
    return {
        "scores": scores,
        "hull_bonus": bonus,
        "penalties": penalties,
        "winners": [p["color"] for p in players if scores[p["color"]] == best],
    }


def _rise(bonuses: list[int], occupied: Iterable[int], most: int) -> list[int]:
    """Every empty space's bonus rises by 1, at most ``most``."""
    taken = set(occupied)
    return [b if i in taken else min(b + 1, most) for i, b in enumerate(bonuses)]


def bonus_update(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Phase I bonuses.

    inp: ``{"bonuses": {space id: n}, "placements": [{"color": "Red", "space": "taming"}, ...]}``
    (placements in placement order; a missing bonus is 0). out: ``{"collected": [n per
    placement], "bonuses": {space id: n}}``: a placement collects its space's bonus, which resets
    to 0; afterwards every empty space's bonus rises by 1, at most ``bonus_max``.
    """
    ids = [a["id"] for a in config["actions"]]
    given = _table(_need(inp, "bonuses"), "bonuses", "not_a_table")
    bonuses = [given.get(i) or 0 for i in ids]
    taken, collected = [], []
    for placement in as_list(_need(inp, "placements"), "placements"):
        space = _need(_table(placement, "a placement", "bad_placement"), "space")
        if space not in ids:
            raise RuleError("unknown_space", f"no action space {space}")
        k = ids.index(space)
        if k in taken:
            raise RuleError("space_taken_twice", f"space {space} is taken twice")
        taken.append(k)
        collected.append(bonuses[k])
        bonuses[k] = 0
    bonuses = _rise(bonuses, taken, config["bonus_max"])
    return {"collected": collected, "bonuses": dict(zip(ids, bonuses, strict=True))}


def _turn_order(current: Iterable[tuple[int, Any]]) -> list[Any]:
    """Players in the left-to-right order of their first worker on the current spaces."""
    order: list[Any] = []
    for _, who in sorted(current, key=lambda sw: sw[0]):
        if who not in order:
            order.append(who)
    return order


def _others(action: Mapping[str, Any], order: list[Any], occupant: Any) -> list[Any]:
    """The players who act after the occupant, in turn order (none unless shared)."""
    return [p for p in order if p != occupant] if action["shared"] else []


def phase_two_order(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """The round's turn order and who acts, in what order, with what amount, in Phase II.

    inp: ``{"placements": [{"color": "Green", "space": "taming"}, ...]}``. out:
    ``{"turn_order": [colours], "steps": [{"space": id, "color": c, "amount": n|null}, ...]}``:
    spaces left to right, empty ones skipped; the occupant with the larger amount, then every
    other player once in turn order with the smaller (not for an action that is not shared).
    """
    ids = [a["id"] for a in config["actions"]]
    current: list[tuple[int, Any]] = []
    for placement in as_list(_need(inp, "placements"), "placements"):
        space = _need(_table(placement, "a placement", "bad_placement"), "space")
        if space not in ids:
            raise RuleError("unknown_space", f"no action space {space}")
        if ids.index(space) in [k for k, _ in current]:
            raise RuleError("space_taken_twice", f"space {space} is taken twice")
        current.append((ids.index(space), _need(placement, "color")))
    order = _turn_order(current)
    steps = []
    for space, occupant in sorted(current, key=lambda sw: sw[0]):
        action = config["actions"][space]
        steps.append({"space": ids[space], "color": occupant, "amount": action.get("occupant")})
        steps += [
            {"space": ids[space], "color": p, "amount": action.get("others")}
            for p in _others(action, order, occupant)
        ]
    return {"turn_order": order, "steps": steps}


def players_entry(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"table": "taming.draws", "players": n}`` -> the entry of that ``players: [..]`` table
    of the config (a dotted path) that applies to ``n`` players."""
    path = _need(inp, "table")
    if not isinstance(path, str):
        raise RuleError("unknown_table", "a players table is named by a dotted path")
    rows: Any = config
    for part in (p for p in path.split(".") if p):
        rows = rows.get(part) if isinstance(rows, Mapping) else None
    if not (
        isinstance(rows, list)
        and rows
        and isinstance(rows[0], Mapping)
        and rows[0].get("players") is not None
    ):
        raise RuleError("unknown_table", f"no players table {path}")
    return dict(entry_for(rows, _need_int(_need(inp, "players"), "players"), path))


def ark_shape_rule(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"players": n}`` -> ``{"rows", "cols"}``: the Ark for n players (:func:`ark_shape`)."""
    rows, cols = ark_shape(config, _need_int(_need(inp, "players"), "players"))
    return {"rows": rows, "cols": cols}


def hull_status(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rows", "cols", "dividers"}`` -> ``{"full": bool, "free": [hull edges without a
    divider], "by_color": {colour: hull dividers}}``: whether the hull is closed (the end
    condition) and each colour's hull dividers (final scoring's ``hull_dividers``)."""
    grid = _grid_of(inp)
    divided = _dividers(grid, inp.get("dividers"))
    free = [e for e in grid.edges if e in grid.hull and e not in divided]
    by_color: dict[str, int] = {}
    for edge in grid.edges:
        if edge in grid.hull and edge in divided:
            by_color[divided[edge]] = by_color.get(divided[edge], 0) + 1
    return {"full": not free, "free": free, "by_color": by_color}


def build_spots(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rows", "cols", "dividers", "pitch": [fields holding a cube]}`` -> ``{"edges",
    "pitch_fields"}`` (canonical order): the free edges a divider may go on (none inside a
    completed enclosure) and the free pitch fields whose two hull edges both hold a divider."""
    grid = _grid_of(inp)
    divided = _dividers(grid, inp.get("dividers"))
    _, inside = _analyse(grid, divided, config["ark"]["enclosure_max"])
    closed = set(inside)
    cubes = {f for f in as_list(inp.get("pitch"), "pitch") if isinstance(f, str)}
    return {
        "edges": [e for e in grid.edges if e not in divided and e not in closed],
        "pitch_fields": [
            p for p, a, b in grid.points if p not in cubes and a in divided and b in divided
        ],
    }


def building_vp(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"elements": n}`` -> ``{"vp": n}``: the VP for dividers and cubes placed by building."""
    elements = _need_int(_need(inp, "elements"), "elements")
    return {"vp": elements * config["building"]["vp_per_element"]}


def load_cost(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"loader", "pair": {"size", "male", "female"}}`` -> ``{"cost": n}``: the loading points
    a pair costs outside the Deluge."""
    loader = _need(inp, "loader")
    pair = _table(_need(inp, "pair"), "pair", "bad_pair")
    size = _need_int(_need(pair, "size"), "the pair's size")
    if config["loading"]["cost"] == "pairs":
        return {"cost": 1}
    return {"cost": sum(size for sex in SEXES if pair.get(sex) == loader)}


def deluge_order(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"vp": {colour: n}, "turn_order": [colours]}`` -> ``{"order": [colours]}``: the Deluge
    order, fewest VP first, ties in turn order."""
    vp = _table(_need(inp, "vp"), "vp", "not_a_table")
    turn = as_list(_need(inp, "turn_order"), "turn_order")
    place = {colour: i for i, colour in enumerate(turn)}
    return {"order": sorted(turn, key=lambda c: (vp.get(c) or 0, place[c]))}


def game_end(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rounds": rounds played, "hull_full": bool}`` -> ``{"over": bool, "deluge": bool}``:
    whether the game ends after this round, and whether the Deluge comes first."""
    rules = config["end"]
    rounds = _need_int(_need(inp, "rounds"), "rounds")
    full = _truthy(inp.get("hull_full")) or not rules["full_hull"]
    over = rounds >= rules["min_rounds"] and full
    return {"over": over, "deluge": over and bool(rules["deluge"])}


def seating(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Who plays.

    ``{"seated": ["Green", "Red"]}`` (the colours seated at the table, any order) ->
    ``{"ok": bool, "colors": [playing colours in seat order], "ignored": [seated colours the
    game has no seat for, in the order given], "reason": ""}``. The game's colours that are
    seated play, in seat order (``config["colors"]``, clockwise); the first is the start player.
    ``ok`` is false (with a reason) unless players.min..players.max of them are seated. A colour
    seated twice, or one that is not a string, is malformed.
    """
    seated = list(as_list(_need(inp, "seated"), "seated"))
    if any(not isinstance(c, str) for c in seated) or len(set(seated)) != len(seated):
        raise RuleError("bad_seating", "seated colours must be distinct names")
    colours = list(config["colors"][: config["players"]["max"]])
    playing = [c for c in colours if c in seated]
    ignored = [c for c in seated if c not in colours]
    low, high = config["players"]["min"], config["players"]["max"]
    reason = ""
    if not low <= len(playing) <= high:
        reason = (
            f"{low}-{high} players must sit at {', '.join(colours)}; {len(playing)} seated there"
        )
    return {"ok": reason == "", "colors": playing, "ignored": ignored, "reason": reason}


def tiles_in_play(config: Mapping[str, Any], n: int) -> list[int]:
    """The animal tiles (``2 * species index + sex``, 0 male, 1 female) of an ``n``-player game:
    the species marked for at most ``n`` players, small ones only if the rules use them."""
    out = []
    for index, s in enumerate(config["species"]):
        if s.get("min_players", 0) <= n and (config["small_animals"] or s["size"] > 0):
            out += [2 * index, 2 * index + 1]
    return out


def starting_deal(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """The starting animals, drawn at random.

    ``{"players": 3, "rolls": [int >= 0, one per draw]}`` -> ``{"hands": [[tiles] per seat,
    each sorted], "bags": {"male": [tiles], "female": [tiles]}, "unused": [tiles]}``. Each seat
    in seat order draws ``setup.males`` males, then ``setup.females`` females; a draw picks
    ``candidates[roll mod len(candidates)]`` among the sorted tiles left in that bag that would
    not complete a pair in the drawer's hand (unless ``setup.starting_pair_allowed``; all the
    bag's tiles if none would do). ``bags`` holds what stays in the bags, ``unused`` the tiles
    this player count leaves out of the game. Tiles: ``2 * species index + sex``. Too few or too
    many rolls, a negative roll or an empty bag is malformed.
    """
    n = _need_int(_need(inp, "players"), "players")
    low, high = config["players"]["min"], config["players"]["max"]
    if not low <= n <= high:
        raise RuleError("bad_player_count", f"players must be {low}..{high}")
    setup = config["setup"]
    rolls = list(as_list(_need(inp, "rolls"), "rolls"))
    if len(rolls) != n * (setup["males"] + setup["females"]):
        raise RuleError("wrong_roll_count", "one roll per draw")
    for r in rolls:
        if _need_int(r, "a roll") < 0:
            raise RuleError("bad_roll", "rolls must be integers >= 0")
    rolls = [int(r) for r in rolls]
    in_play = tiles_in_play(config, n)
    bags = {sex: [t for t in in_play if t % 2 == k] for k, sex in enumerate(SEXES)}
    hands: list[list[int]] = [[] for _ in range(n)]
    draws = iter(rolls)
    for seat in range(n):
        for sex in SEXES:
            for _ in range(setup[sex + "s"]):
                bag = bags[sex]
                if not bag:
                    raise RuleError("empty_bag", f"the {sex} bag is empty")
                fine = bag
                if not setup["starting_pair_allowed"]:
                    fine = [t for t in bag if t ^ 1 not in hands[seat]] or bag
                pick = fine[next(draws) % len(fine)]
                bag.remove(pick)
                hands[seat].append(pick)
    unused = [t for t in range(2 * len(config["species"])) if t not in in_play]
    return {"hands": [sorted(h) for h in hands], "bags": bags, "unused": unused}


class SetupProblem(NamedTuple):
    """One reason a rule set cannot be played: ``where`` is the path of the field in the
    ``rules`` mapping (``setup.pitch``, ``first_round_spaces[1].seats[2][0]``), ``message``
    says why (and for how many players)."""

    where: str
    message: str


def setup_problems(config: Mapping[str, Any]) -> list[SetupProblem]:
    """Why the rules of ``config`` cannot be set up and played; [] = they can.

    ``config``'s by-player-count tables must cover every player count (the definition's
    schema checks that). For every player count: the Ark runs bow ... stern; with workers,
    the first round's spaces are action spaces, one seat of ``workers`` spaces per player, and
    the board has a space for every worker; the supply holds the seats' starting dividers (a
    colour's own), food and pitch; each bag holds the starting males or females of every seat
    (of :func:`tiles_in_play`).
    """
    problems: list[SetupProblem] = []
    worker = config["turn_mode"] == "worker"
    ids = [a["id"] for a in config["actions"]]
    for index, entry in enumerate(config["first_round_spaces"] if worker else []):
        for seat, spaces in enumerate(entry["seats"]):
            for j, space in (pair for pair in enumerate(spaces) if pair[1] not in ids):
                where = f"first_round_spaces[{index}].seats[{seat}][{j}]"
                message = f"no action space {space!r} (spaces: {', '.join(ids)})"
                problems.append(SetupProblem(where, message))
    setup, supply = config["setup"], config["supply"]
    low, high = config["players"]["min"], config["players"]["max"]
    for n in range(low, high + 1):
        layout = for_players(config["ark"]["sections"], n)["layout"]
        if len(layout) < 2 or layout[0] != "bow" or layout[-1] != "stern":
            problems.append(
                SetupProblem("ark.sections", f"{n} players: the Ark runs bow ... stern")
            )
        workers = for_players(config["workers"], n)["count"]
        seats = for_players(config["first_round_spaces"], n)["seats"]
        if worker and (len(seats) != n or any(len(s) != workers for s in seats)):
            message = f"{n} players need {n} seats of {workers} space(s) each"
            problems.append(SetupProblem("first_round_spaces", message))
        if worker and len(ids) < n * workers:
            problems.append(SetupProblem("actions", f"too few spaces for {n * workers} workers"))
        for key, supplied in (
            ("dividers", "dividers_per_color"),
            ("food", "food"),
            ("pitch", "pitch"),
        ):
            need, have = setup[key] * (1 if key == "dividers" else n), supply[supplied]
            if need > have:
                message = f"{n} players need {need}, the supply has {have}"
                problems.append(SetupProblem(f"setup.{key}", message))
        species = len(tiles_in_play(config, n)) // 2  # a tile of each sex per species
        for sex in ("males", "females"):
            if setup[sex] * n > species:
                message = f"more draws than tiles for {n} players"
                problems.append(SetupProblem(f"setup.{sex}", message))
    return problems


# ---------------------------------------------------------------------------------------------
# Who may act now, and with what (the decisions the table's glue asks for)


def _need_str(value: Any, what: str) -> str:
    """``value`` as a string ("" for none); a missing input or any other type is refused."""
    if not isinstance(_present(value, what), str):
        raise RuleError("not_a_string", f"{what} must be a string")
    return value


def _str_list(value: Any, what: str) -> list[str]:
    """A list of strings (null or ``{}``: empty)."""
    out = list(as_list(_present(value, what), what))
    for item in out:
        _need_str(item, f"an entry of {what}")
    return out


def _int_list(value: Any, what: str) -> list[int]:
    """A list of integers (null or ``{}``: empty)."""
    return [_need_int(v, f"an entry of {what}") for v in as_list(_present(value, what), what)]


#: The acts a player may try, and the phases (and step kinds) in which each one is made.
ACTS = {
    "setup": {"idle": None},
    "place": {"place": None},
    "choose": {"choose": None},
    "done": {"resolve": None, "deluge": None},
    "draw": {"resolve": ("tame", "trade")},
    "bonus": {"resolve": ("trade",)},
    "swap": {"resolve": ("trade",)},
    "exchange": {"resolve": ("trade",)},
    "pick": {"resolve": ("tame",)},
    "build": {"resolve": ("build",)},
    "food": {"resolve": ("load",), "deluge": ("deluge_food",)},
    "pair": {"resolve": ("load",), "deluge": ("deluge_pairs",)},
}

_NOT_NOW = {
    "setup": "The game is already set up.",
    "place": "Workers are placed in Phase I only.",
    "choose": "Actions are chosen at the start of a turn.",
    "done": "There is nothing to finish now.",
    "draw": "You may not draw now.",
    "bonus": "No trading bonus to take now.",
    "swap": "A divider on the Ark moves only by Trading's swap.",
    "exchange": "Animals are exchanged only in a Trading step, after its draws.",
    "pick": "Drawn animals are taken only while taming.",
    "build": "Dividers and pitch go on the Ark in your Building step.",
    "food": "Food is loaded in your Loading step (or in the Deluge).",
    "pair": "Pairs are loaded in your Loading step (or in the Deluge).",
}


def may_act(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Whether a player may make an act now.

    ``{"act": "done", "phase": "resolve", "kind": "build", "turn": "Red", "color": "Blue"}``
    -> ``{"ok": bool, "reason": ""}``. ``act`` is one of :data:`ACTS` (setup, place, choose,
    done, draw, bonus, swap, exchange, pick, build, food, pair); ``phase`` the table's phase
    (idle, dealing, setup, place, choose, resolve, deluge, over); ``kind`` the current step's
    kind ("" for none); ``turn`` whose turn or step it is ("" for nobody: then anyone seated
    may, as for setup). An act is made in its phases and step kinds only, then only by the
    player whose turn it is. An unknown act is malformed.
    """
    act = _need_str(inp.get("act"), "act")
    phase = _need_str(inp.get("phase"), "phase")
    kind = _need_str(inp.get("kind"), "kind")
    turn = _need_str(inp.get("turn"), "turn")
    color = _need_str(inp.get("color"), "color")
    if act not in ACTS:
        raise RuleError("unknown_act", f"no act {act}")
    if phase == "over":
        return {"ok": False, "reason": "The game is over."}
    kinds = ACTS[act].get(phase, ())
    if kinds == () or (kinds is not None and kind not in kinds):
        return {"ok": False, "reason": _NOT_NOW[act]}
    if turn != "" and color != turn:
        return {"ok": False, "reason": f"It is {turn}'s turn, not yours."}
    return {"ok": True, "reason": ""}


def trade_may(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """What the trader may do next in their Trading step.

    ``{"act": "swap", "bonus_taken": bool, "choice": "" | "swap" | "draw", "draws_left": n,
    "exchanged": bool, "dragged": colour, "onto": colour or "", "can_swap": bool, "can_draw":
    bool, "can_exchange": bool}`` -> ``{"ok": bool, "reason": ""}``. First the bonus (once);
    then one option: a swap (``trading.swap``; the dragged divider dropped onto a divider of
    another colour) or the draws (``trading.draws``), then an exchange (once, after the last
    draw, while one is possible); ``done`` once the bonus is taken, an option chosen if either
    is possible, and the exchange made if it is not optional and possible. ``can_*`` say what
    the table allows now (two colours on the Ark; a bag with tiles and an animal to give; a
    drawn tile and an animal to give). Acts: bonus, swap, draw, exchange, done.
    """
    act = _need_str(inp.get("act"), "act")
    bonus = _truthy(inp.get("bonus_taken"))
    choice = _need_str(inp.get("choice"), "choice")
    left = _need_int(_need(inp, "draws_left"), "draws_left")
    exchanged = _truthy(inp.get("exchanged"))
    dragged = _need_str(inp.get("dragged"), "dragged")
    onto = _need_str(inp.get("onto"), "onto")
    can_swap, can_draw = _truthy(inp.get("can_swap")), _truthy(inp.get("can_draw"))
    can_exchange = _truthy(inp.get("can_exchange"))
    rules = config["trading"]
    if act not in ("bonus", "swap", "draw", "exchange", "done"):
        raise RuleError("unknown_act", f"no trading act {act}")

    def no(reason: str) -> dict[str, Any]:
        return {"ok": False, "reason": reason}

    if act == "bonus":
        return no("You have taken your trading bonus.") if bonus else {"ok": True, "reason": ""}
    if not bonus:
        return no("Take your trading bonus first.")
    if act == "swap":
        if not rules["swap"]:
            return no("This game's Trading has no swap.")
        if choice != "":
            return no("Trading is one swap or the draws, not both.")
        if onto == "":
            return no("Drop the divider onto a divider of another colour on the Ark.")
        if onto == dragged:
            return no("A swap changes dividers of two different colours.")
    elif act == "draw":
        if choice == "swap":
            return no("Trading is one swap or the draws, not both.")
        if left < 1 or (choice == "" and not can_draw):
            return no("No draws left.")
    elif act == "exchange":
        if choice != "draw" or (left > 0 and can_draw):
            return no("Draw your animals first.")
        if exchanged:
            return no("You have exchanged an animal already.")
        if not can_exchange:
            return no("You have no animal to give for a drawn one.")
    else:
        if choice == "" and ((can_swap and rules["swap"]) or can_draw):
            # a game whose Trading has no swap (family) is done when no draw is possible
            return no("Swap two dividers or draw animals first." if rules["swap"]
                      else "Draw your animals first.")  # fmt: skip
        if choice == "draw" and left > 0 and can_draw:
            return no("Draw your animals first.")
        if choice == "draw" and not exchanged and can_exchange and not rules["exchange_optional"]:
            return no("Exchange one of your animals for a drawn one first.")
    return {"ok": True, "reason": ""}


def exchange(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Trading's exchange: which of the trader's animals may be given, and is this one fine.

    ``{"hand": [tiles], "in_play": [tiles in a hand or on the Ark], "drawn": [tiles],
    "give": tile or -1, "take": tile or -1}`` -> ``{"gives": [tiles, sorted], "may_draw": bool,
    "ok": bool, "reason": ""}``. ``trading.exchange`` "any": every animal in hand may be given;
    "unpaired": only one whose partner is not in play; ``may_draw``: Trading's draws are an
    option ("any", or an animal to give). ``ok``: ``give`` may be given and
    ``take`` is a drawn tile. Tiles: ``2 * species index + sex``.
    """
    hand = _int_list(inp.get("hand"), "hand")
    in_play = set(_int_list(inp.get("in_play"), "in_play"))
    drawn = _int_list(inp.get("drawn"), "drawn")
    give = _need_int(_need(inp, "give"), "give")
    take = _need_int(_need(inp, "take"), "take")
    if config["trading"]["exchange"] == "any":
        gives = sorted(set(hand))
    else:
        gives = sorted({t for t in hand if t ^ 1 not in in_play})
    reason = ""
    if take not in drawn:
        reason = "Drop your animal onto one of the drawn animals."
    elif give not in hand:
        reason = "Give one of your own animals."
    elif give not in gives:
        reason = "You may give only an animal whose partner is not in play."
    may_draw = config["trading"]["exchange"] == "any" or bool(gives)
    return {"gives": gives, "may_draw": may_draw, "ok": reason == "", "reason": reason}


def taming_picks(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """Taming's picks: who takes a drawn animal now.

    ``{"space": action id, "occupant": colour, "turn_order": [colours], "draws_left": n,
    "taken": picks made, "left": drawn tiles still on the display, "bags": tiles in both bags
    (optional: not known)}`` -> ``{"order": [colours], "picker": colour or "", "done": bool}``.
    The occupant picks first, then (a shared action only) every other player once in turn
    order; nobody picks while the occupant still has draws to make, unless both bags are empty
    (a draw from no tile is no draw: 3 players' "either" draw after the bags ran out); ``done``
    once everybody in the order has picked or no drawn tile is left (the rest go back to the
    bags).
    """
    space = _need_str(inp.get("space"), "space")
    occupant = _need_str(inp.get("occupant"), "occupant")
    order = _str_list(inp.get("turn_order"), "turn_order")
    draws = _need_int(_need(inp, "draws_left"), "draws_left")
    taken = _need_int(_need(inp, "taken"), "taken")
    left = _need_int(_need(inp, "left"), "left")
    drawable = inp.get("bags") is None or _need_int(inp["bags"], "bags") > 0
    action = next((a for a in config["actions"] if a["id"] == space), None)
    if action is None:
        raise RuleError("unknown_space", f"no action space {space}")
    pickers = [occupant, *_others(action, order, occupant)]
    if draws > 0 and drawable:
        return {"order": pickers, "picker": "", "done": False}
    if 0 <= taken < len(pickers) and left > 0:
        return {"order": pickers, "picker": pickers[taken], "done": False}
    return {"order": pickers, "picker": "", "done": True}


def pair_squares(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rows", "cols", "dividers", "squares": [[r, c], [r, c]]}`` -> ``{"same": bool}``:
    whether the two tiles of a pair lie in one completed enclosure (both squares in it)."""
    grid = _grid_of(inp)
    divided = _dividers(grid, inp.get("dividers"))
    squares = as_list(_need(inp, "squares"), "squares")
    if len(squares) != 2:
        raise RuleError("bad_square", "a pair lies on two squares")
    a, b = (_square(grid, rc) for rc in squares)
    found, _ = _analyse(grid, divided, config["ark"]["enclosure_max"])
    return {"same": any(a in e.squares and b in e.squares for e in found)}


def edge_text(config: Mapping[str, Any], inp: Mapping[str, Any]) -> dict[str, Any]:
    """``{"rows", "cols", "edge": "h:r:c"}`` -> ``{"text": ...}``: where an edge is, as a player
    finds it (rows and columns counted from 1 at the Ark's top left): "the top hull at column
    3", "the right hull at row 2", "between rows 1 and 2 at column 4", "between columns 4 and
    5 in row 3"."""
    grid = _grid_of(inp)
    edge = _need_str(inp.get("edge"), "edge")
    if edge not in grid.index:
        raise RuleError("unknown_edge", f"no edge {edge} on a {grid.rows}x{grid.cols} Ark")
    kind, r, c = edge.split(":")
    r, c = int(r), int(c)
    if kind == "h":
        if r == 0:
            return {"text": f"the top hull at column {c + 1}"}
        if r == grid.rows:
            return {"text": f"the bottom hull at column {c + 1}"}
        return {"text": f"between rows {r} and {r + 1} at column {c + 1}"}
    if c == 0:
        return {"text": f"the left hull at row {r + 1}"}
    if c == grid.cols:
        return {"text": f"the right hull at row {r + 1}"}
    return {"text": f"between columns {c} and {c + 1} in row {r + 1}"}


FUNCTIONS = {
    "enclosures": enclosures,
    "load_pair": load_pair,
    "final_scoring": final_scoring,
    "bonus_update": bonus_update,
    "phase_two_order": phase_two_order,
    "players_entry": players_entry,
    "ark_shape": ark_shape_rule,
    "hull_status": hull_status,
    "build_spots": build_spots,
    "building_vp": building_vp,
    "load_cost": load_cost,
    "deluge_order": deluge_order,
    "game_end": game_end,
    "seating": seating,
    "starting_deal": starting_deal,
    "may_act": may_act,
    "trade_may": trade_may,
    "exchange": exchange,
    "taming_picks": taming_picks,
    "pair_squares": pair_squares,
    "edge_text": edge_text,
}


# ---------------------------------------------------------------------------------------------
# The game

PASS, BAG_MALE, BAG_FEMALE, TRADE_SWAP, TRADE_DRAW = range(5)


class _Layout(NamedTuple):
    """Offsets of the action id blocks (bonus, space, tile, edge, pitch, square, load, swap)."""

    bonus: int
    space: int
    tile: int
    edge: int
    pitch: int
    square: int
    load: int
    exchange: int
    total: int


def _layout(config: Mapping[str, Any], grid: _Grid) -> _Layout:
    tiles = 2 * len(config["species"])
    squares = grid.rows * grid.cols
    bonus = 5
    space = bonus + len(config["trading"]["bonus"])
    tile = space + len(config["actions"])
    edge = tile + tiles
    pitch = edge + len(grid.edges)
    square = pitch + len(grid.points)
    load = square + squares
    exchange = load + len(config["species"]) * squares
    return _Layout(
        bonus, space, tile, edge, pitch, square, load, exchange, exchange + tiles * tiles
    )


class Game:
    """Static facts of an Ark & Noah game for a player count; ``new_initial_state()``."""

    def __init__(self, config: Mapping[str, Any], num_players: int) -> None:
        lo, hi = config["players"]["min"], config["players"]["max"]
        if not lo <= num_players <= hi:
            raise ValueError(f"{num_players} players; this game takes {lo}-{hi}")
        self.config = config
        self.num_players = num_players

    def new_initial_state(self) -> State:
        return State(self.config, self.num_players)

    def num_distinct_actions(self) -> int:
        return _layout(self.config, _grid(*ark_shape(self.config, self.num_players))).total


_STATE_KEYS = (
    "num_players", "bags", "hands", "drawn", "loaded", "dividers", "pitch", "food", "supply",
    "players", "vp", "events", "round", "bonuses", "completed", "current", "turn_order", "queue",
    "history", "final",
)  # fmt: skip


#: State lists a clone copies and whose items it shares: numbers and strings, or items never
#: changed in place once made (a score event, a loaded pair, a worker, a queued step are
#: replaced, never edited): the clone is the bots' hot path (they clone for every candidate).
_FLAT = (
    "drawn", "loaded", "pitch", "food", "vp", "events", "bonuses", "completed", "current",
    "turn_order", "queue", "history",
)  # fmt: skip


class State:
    """A game in progress. ``to_dict()`` is the whole state as JSON:

    - ``bags`` {"male": [tile], "female": [tile]}; a tile is ``2 * species index + sex`` (0 male,
      1 female, species index into ``config["species"]``); ``hands`` [[tile]] per seat;
      ``drawn`` tiles drawn and not yet taken; ``loaded`` [[species, square]] pairs on the Ark
      (square = first square of the enclosure); tiles of species not in this game stay in the box.
    - ``dividers`` {edge: colour}; ``pitch`` [field]; ``food`` [square index r * cols + c].
    - ``supply`` {"dividers": {colour: n}, "food": n, "pitch": n}; ``players`` [{"dividers",
      "food", "pitch"}] in hand; ``vp`` per seat; ``events`` [[seat, vp, kind]], one per score.
    - ``round`` rounds played; ``bonuses`` per space; ``completed`` / ``current`` [[space, seat]]
      workers; ``turn_order`` of the round; ``queue`` the steps still to do, the first one being
      the current decision ([name, *args]); ``history`` every action applied; ``final`` the
      :func:`final_scoring` result once the game is over.
    """

    def __init__(self, config: Mapping[str, Any], num_players: int) -> None:
        self.config = config
        self.num_players = n = num_players
        self._setup_static()
        ingame = tiles_in_play(config, n)
        self.bags = {sex: [t for t in ingame if t % 2 == k] for k, sex in enumerate(SEXES)}
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.drawn: list[int] = []
        self.loaded: list[list[int]] = []
        self.dividers: dict[str, str] = {}
        self.pitch: list[str] = []
        self.food: list[int] = []
        supply = config["supply"]
        self.supply = {
            "dividers": {c: supply["dividers_per_color"] for c in self.colors},
            "food": supply["food"],
            "pitch": supply["pitch"],
        }
        self.players = [{"dividers": 0, "food": 0, "pitch": 0} for _ in range(n)]
        self.vp = [0] * n
        self.events: list[list[Any]] = []
        self.round = 0
        self.bonuses = [0] * len(config["actions"])
        self.completed: list[list[int]] = []
        if config["turn_mode"] == "worker":
            ids = [a["id"] for a in config["actions"]]
            seats = for_players(config["first_round_spaces"], n)["seats"]
            self.completed = sorted([ids.index(s), p] for p in range(n) for s in seats[p])
        self.current: list[list[int]] = []
        self.turn_order = list(range(n))
        setup = config["setup"]
        self.queue: list[list[Any]] = [["setup_give"]]
        for seat in range(n):
            self.queue += [["setup_draw", seat, "male"]] * setup["males"]
            self.queue += [["setup_draw", seat, "female"]] * setup["females"]
        self.queue.append(["round_start"])
        self.history: list[int] = []
        self.final: dict[str, Any] | None = None
        self._advance()

    def _setup_static(self) -> None:
        self.colors = list(self.config["colors"][: self.num_players])
        self.seat_of = {c: i for i, c in enumerate(self.colors)}
        self.grid = _grid(*ark_shape(self.config, self.num_players))
        self.layout = _layout(self.config, self.grid)
        self._cache: tuple[list[_Enclosure], list[str]] | None = None

    # -- serialisation ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-shaped data (including the config)."""
        out = {k: copy.deepcopy(getattr(self, k)) for k in _STATE_KEYS}
        out["config"] = copy.deepcopy(self.config)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`to_dict` output."""
        state = cls.__new__(cls)
        state.config = copy.deepcopy(data["config"])
        for key in _STATE_KEYS:
            setattr(state, key, copy.deepcopy(data[key]))
        state._setup_static()
        state._advance()
        return state

    def clone(self) -> State:
        """An independent copy, sharing only what never changes (the config, the seat colours,
        the Ark's grid and the action layout): the bots clone for every candidate action."""
        state = State.__new__(State)
        state.config, state.colors, state.seat_of = self.config, self.colors, self.seat_of
        state.grid, state.layout = self.grid, self.layout
        state.num_players, state.round, state.final = self.num_players, self.round, self.final
        state.bags = {sex: list(tiles) for sex, tiles in self.bags.items()}
        state.hands = [list(hand) for hand in self.hands]
        state.players = [dict(hand) for hand in self.players]
        supply = self.supply
        state.supply = {**supply, "dividers": dict(supply["dividers"])}
        state.dividers = dict(self.dividers)
        for key in _FLAT:  # lists whose items are never changed in place
            setattr(state, key, list(getattr(self, key)))
        state._cache, state._now = self._cache, list(self._now)
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- OpenSpiel API --------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.final is not None

    def current_player(self) -> int:
        """The seat to decide, CHANCE (-1) for a bag draw, TERMINAL (-4) at the end."""
        if self.is_terminal():
            return TERMINAL
        task = self.queue[0]
        return CHANCE if task[0] in ("draw", "setup_draw") else task[1]

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) of the current draw, sorted by action."""
        actions = self.legal_actions() if self.is_chance_node() else []
        return [(a, 1.0 / len(actions)) for a in actions]

    def legal_actions(self) -> list[int]:
        """Sorted legal actions (chance outcomes at a chance node)."""
        return list(self._now)

    def apply_action(self, action: int) -> None:
        """Apply a legal action (or chance outcome) and run the game on to the next choice."""
        if action not in self._now:
            raise ValueError(f"illegal action {action} ({self.action_to_string(action)})")
        self._apply(action)
        self._advance()

    def returns(self) -> list[int]:
        """Each seat's VP (final scores once the game is over)."""
        return list(self.vp)

    def winners(self) -> list[int]:
        """The winning seats once the game is over."""
        return [self.seat_of[c] for c in self.final["winners"]] if self.final else []

    # -- views ----------------------------------------------------------------------------------

    def species(self, tile: int) -> Mapping[str, Any]:
        return self.config["species"][tile // 2]

    def tile_name(self, tile: int) -> str:
        return f"{self.species(tile)['name']} {SEXES[tile % 2]}"

    def tile_sides(self) -> dict[str, str]:
        """Every tile out of the bags: "paired" when its partner is out of the bags too."""
        out = self._out_of_bags()
        return {self.tile_name(t): "paired" if t ^ 1 in out else "unpaired" for t in sorted(out)}

    def enclosures(self) -> list[_Enclosure]:
        return self._analysis()[0]

    def action_to_string(self, action: int) -> str:
        lay, grid = self.layout, self.grid
        fixed = {
            PASS: "pass",
            BAG_MALE: "bag male",
            BAG_FEMALE: "bag female",
            TRADE_SWAP: "trade swap",
            TRADE_DRAW: "trade draw",
        }
        if action in fixed:
            return fixed[action]
        if action < lay.space:
            return f"bonus {self.config['trading']['bonus'][action - lay.bonus]}"
        if action < lay.tile:
            return f"space {self.config['actions'][action - lay.space]['id']}"
        if action < lay.edge:
            return self.tile_name(action - lay.tile)
        if action < lay.pitch:
            return f"divider {grid.edges[action - lay.edge]}"
        if action < lay.square:
            return f"pitch {grid.points[action - lay.pitch][0]}"
        if action < lay.load:
            return "food {},{}".format(*_rc(grid, action - lay.square))
        size = grid.rows * grid.cols
        if action < lay.exchange:
            s, sq = divmod(action - lay.load, size)
            return "load {} at {},{}".format(self.config["species"][s]["name"], *_rc(grid, sq))
        take, give = divmod(action - lay.exchange, 2 * len(self.config["species"]))
        return f"take {self.tile_name(take)} give {self.tile_name(give)}"

    # -- derived facts --------------------------------------------------------------------------

    def _analysis(self) -> tuple[list[_Enclosure], list[str]]:
        if self._cache is None:
            self._cache = _analyse(self.grid, self.dividers, self.config["ark"]["enclosure_max"])
        return self._cache

    def _owners(self) -> dict[int, int]:
        return {t: seat for seat, hand in enumerate(self.hands) for t in hand}

    def _on_ark(self) -> set[int]:
        return {2 * s + x for s, _ in self.loaded for x in (0, 1)}

    def _out_of_bags(self) -> set[int]:
        return set(self._owners()) | self._on_ark() | set(self.drawn)

    def _score(self, seat: int, vp: int, kind: str) -> None:
        if vp:
            self.vp[seat] += vp
            self.events.append([seat, vp, kind])

    def _pair_input(self, species: int, owners: Mapping[int, int]) -> dict[str, Any]:
        s = self.config["species"][species]
        pair = {"species": s["name"], "size": s["size"], "vp": s["vp"]}
        for x, sex in enumerate(SEXES):
            seat = owners.get(2 * species + x)
            pair[sex] = None if seat is None else self.colors[seat]
        return pair

    def _check(
        self,
        seat: int,
        species: int,
        enc: _Enclosure,
        lp: int,
        deluge: bool,
        owners: Mapping[int, int],
    ) -> dict[str, Any]:
        return _check_load(
            self.config,
            enc,
            self.dividers,
            self.pitch,
            self.food,
            self._sizes(),
            self.colors[seat],
            self._pair_input(species, owners),
            lp,
            deluge,
        )

    def _sizes(self) -> list[tuple[int, int]]:
        """(square, size) of every pair on the Ark."""
        return [(sq, self.config["species"][s]["size"]) for s, sq in self.loaded]

    def _pair_options(self, seat: int, lp: int, deluge: bool) -> list[int]:
        owners = self._owners()
        size = self.grid.rows * self.grid.cols
        sizes, out = self._sizes(), []
        for tile in self.hands[seat]:
            s = tile // 2
            if tile ^ 1 not in owners or (tile % 2 == 1 and owners[tile ^ 1] == seat):
                continue  # partner not in a hand; or the pair is listed from its male
            pair = self._pair_input(s, owners)
            for enc in self._analysis()[0]:
                if pair["size"] and len(enc.squares) != pair["size"]:
                    continue  # the size never fits (a shortcut of the check below)
                verdict = _check_load(
                    self.config,
                    enc,
                    self.dividers,
                    self.pitch,
                    self.food,
                    sizes,
                    self.colors[seat],
                    pair,
                    lp,
                    deluge,
                )
                if verdict["ok"]:
                    out.append(self.layout.load + s * size + enc.squares[0])
        return out

    def _food_options(self, seat: int, deluge: bool) -> list[int]:
        rules = self.config["loading"]
        if self.players[seat]["food"] <= 0:
            return []
        colour, food = self.colors[seat], set(self.food)
        out = []
        for enc in self._analysis()[0]:
            if (
                not deluge
                and rules["food_needs_own_divider"]
                and colour not in (self.dividers[e] for e in enc.edges)
            ):
                continue
            out += [self.layout.square + sq for sq in enc.squares if sq not in food]
        return out

    def _build_options(self, seat: int) -> list[int]:
        grid, mine, out = self.grid, self.players[seat], []
        if mine["dividers"] > 0:
            blocked = set(self._analysis()[1])
            free_hull = sum(1 for e in grid.hull if e not in self.dividers)
            off_ark = sum(self.supply["dividers"].values()) + sum(
                p["dividers"] for p in self.players
            )
            inner_ok = off_ark - 1 >= free_hull
            out += [
                self.layout.edge + i
                for i, e in enumerate(grid.edges)
                if e not in self.dividers and e not in blocked and (inner_ok or e in grid.hull)
            ]
        if mine["pitch"] > 0:
            taken = set(self.pitch)
            out += [
                self.layout.pitch + i
                for i, (p, a, b) in enumerate(grid.points)
                if p not in taken and a in self.dividers and b in self.dividers
            ]
        return out

    def _exchange_options(self, seat: int) -> list[int]:
        rules = self.config["trading"]
        if rules["exchange"] == "any":
            mine = list(self.hands[seat])
        else:
            in_play = set(self._owners()) | self._on_ark()
            mine = [t for t in self.hands[seat] if t ^ 1 not in in_play]
        width = 2 * len(self.config["species"])
        return [self.layout.exchange + d * width + o for d in self.drawn for o in mine]

    def _trade_options(self, seat: int) -> list[int]:
        rules, out = self.config["trading"], []
        if rules["swap"] and len(set(self.dividers.values())) >= 2:
            out.append(TRADE_SWAP)
        bags = self.bags["male"] or self.bags["female"]
        if bags and (rules["exchange"] == "any" or self._exchange_eligible(seat)):
            out.append(TRADE_DRAW)
        return out

    def _exchange_eligible(self, seat: int) -> bool:
        in_play = set(self._owners()) | self._on_ark()
        return any(t ^ 1 not in in_play for t in self.hands[seat])

    def _bonus_options(self, seat: int) -> list[int]:
        have = {
            "vp": 1,
            "food": self.supply["food"],
            "pitch": self.supply["pitch"],
            "divider": self.supply["dividers"][self.colors[seat]],
        }
        return [
            self.layout.bonus + i
            for i, k in enumerate(self.config["trading"]["bonus"])
            if have[k] > 0
        ]

    def _setup_outcomes(self, seat: int, sex: str) -> list[int]:
        bag = self.bags[sex]
        if not self.config["setup"]["starting_pair_allowed"]:
            hand = set(self.hands[seat])
            fine = [t for t in bag if t ^ 1 not in hand]
            bag = fine or bag
        return [self.layout.tile + t for t in bag]

    def _legal(self, task: list[Any]) -> list[int]:
        name, lay = task[0], self.layout
        if name == "setup_draw":
            return sorted(self._setup_outcomes(task[1], task[2]))
        if name == "draw":
            return sorted(lay.tile + t for t in self.bags[task[1]])
        seat = task[1]
        if name == "place":
            taken = {space for space, _ in self.current}
            return [lay.space + i for i in range(len(self.bonuses)) if i not in taken]
        if name == "family_turn":
            return [lay.space + i for i in range(len(self.config["actions"]))]
        if name == "choose_bag":
            return [a for a, sex in ((BAG_MALE, "male"), (BAG_FEMALE, "female")) if self.bags[sex]]
        if name == "keep":
            return sorted(lay.tile + t for t in self.drawn)
        if name == "trade_bonus":
            return self._bonus_options(seat)
        if name == "trade_option":
            return self._trade_options(seat)
        if name == "swap_first":
            return sorted(lay.edge + self.grid.index[e] for e in self.dividers)
        if name == "swap_second":
            mine = self.dividers[task[2]]
            return sorted(
                lay.edge + self.grid.index[e] for e, c in self.dividers.items() if c != mine
            )
        if name == "exchange":
            out = self._exchange_options(seat)
            optional = self.config["trading"]["exchange_optional"]
            return sorted(out + [PASS]) if out and optional else sorted(out)
        if name == "build":
            out = self._build_options(seat) if task[2] > 0 else []
            return sorted(out + [PASS]) if out else []
        if name == "load":
            lp = task[2]
            out = self._pair_options(seat, lp, False)
            if lp >= self.config["loading"]["food_lp"]:
                out += self._food_options(seat, False)
            return sorted(out + [PASS]) if out else []
        if name == "deluge_food":
            return sorted(self._food_options(seat, True))
        if name == "deluge_pairs":
            return sorted(self._pair_options(seat, 0, True))
        raise AssertionError(f"no decision in {name}")

    # -- the flow -------------------------------------------------------------------------------

    def _advance(self) -> None:
        """Run automatic steps and forced moves until a real choice (or the end)."""
        self._now: list[int] = []
        while self.queue:
            task = self.queue[0]
            auto = _AUTO.get(task[0])
            if auto is not None:
                self.queue.pop(0)
                auto(self, *task[1:])
                continue
            legal = self._legal(task)
            if len(legal) > 1:
                self._now = legal
                return
            if legal:
                self._apply(legal[0])
            else:
                self.queue.pop(0)

    def _apply(self, action: int) -> None:
        self.history.append(action)
        task = self.queue[0]
        getattr(self, "_do_" + task[0])(action, *task[1:])

    def _front(self, tasks: list[list[Any]]) -> None:
        self.queue[0:0] = tasks

    # automatic steps (popped before they run)

    def _setup_give(self) -> None:
        setup = self.config["setup"]
        for seat in range(self.num_players):
            self._gain(seat, "dividers", setup["dividers"])
            self._gain(seat, "pitch", setup["pitch"])
            self._gain(seat, "food", setup["food"])

    def _gain(self, seat: int, resource: str, amount: int) -> None:
        if resource == "dividers":
            colour = self.colors[seat]
            got = min(amount, self.supply["dividers"][colour])
            self.supply["dividers"][colour] -= got
        else:
            got = min(amount, self.supply[resource])
            self.supply[resource] -= got
        self.players[seat][resource] += got

    def _round_start(self) -> None:
        n = self.num_players
        if self.config["turn_mode"] == "worker":
            self._front([["place", seat] for _, seat in self.completed] + [["phase1_end"]])
        else:
            self._front([["family_turn", seat % n] for seat in range(n)] + [["round_end"]])

    def _phase1_end(self) -> None:
        self.bonuses = _rise(self.bonuses, (s for s, _ in self.current), self.config["bonus_max"])
        self.turn_order = _turn_order(self.current)
        self._front([["resolve", space, seat] for space, seat in self.current] + [["round_end"]])

    def _resolve(self, space: int, seat: int) -> None:
        action = self.config["actions"][space]
        self._front(self._action_tasks(space, seat, _others(action, self.turn_order, seat)))

    def _action_tasks(self, space: int, seat: int, others: list[int]) -> list[list[Any]]:
        action = self.config["actions"][space]
        kind = action["kind"]
        if kind == "gain":
            res = action["resource"]
            return [["gain", seat, res, action["occupant"]]] + [
                ["gain", p, res, action["others"]] for p in others
            ]
        if kind == "tame":
            draws = for_players(self.config["taming"]["draws"], self.num_players)
            return (
                [["draw", "male"]] * draws["male"]
                + [["draw", "female"]] * draws["female"]
                + [["choose_bag", seat]] * draws["either"]
                + [["keep", p] for p in [seat, *others]]
                + [["return_drawn"]]
            )
        if kind == "trade":
            return [["trade_bonus", seat], ["trade_option", seat]]
        if kind in ("build", "load"):
            return [[kind, seat, action["occupant"]]] + [
                [kind, p, action["others"]] for p in others
            ]
        raise ValueError(f"unknown action kind {kind}")

    def _return_drawn(self) -> None:
        for t in self.drawn:
            self.bags[SEXES[t % 2]].append(t)
            self.bags[SEXES[t % 2]].sort()
        self.drawn = []

    def _round_end(self) -> None:
        if self.config["turn_mode"] == "worker":
            self.completed, self.current = sorted(self.current), []
        self.round += 1
        end = self.config["end"]
        hull_full = all(e in self.dividers for e in self.grid.hull)
        if self.round >= end["min_rounds"] and (hull_full or not end["full_hull"]):
            self._front([["deluge"] if end["deluge"] else ["final"]])
        else:
            self._front([["round_start"]])

    def _deluge(self) -> None:
        order = sorted(
            range(self.num_players), key=lambda p: (self.vp[p], self.turn_order.index(p))
        )
        self._front(
            [["deluge_food", p] for p in order] + [["deluge_pairs", p] for p in order] + [["final"]]
        )

    def final_input(self) -> dict[str, Any]:
        """The :func:`final_scoring` input for the current state."""
        players = []
        owners = self.dividers
        on_hull = Counter(owners[e] for e in self.grid.hull if e in owners)
        for seat, colour in enumerate(self.colors):
            hand = dict(self.players[seat])
            hand["animals"] = [self.species(t)["size"] for t in self.hands[seat]]
            players.append(
                {"color": colour, "vp": self.vp[seat], "hull_dividers": on_hull[colour],
                 "hand": hand}
            )  # fmt: skip
        return {"players": players}

    def _final(self) -> None:
        result = final_scoring(self.config, self.final_input())
        for seat, colour in enumerate(self.colors):
            self._score(seat, result["hull_bonus"][colour], "hull_bonus")
            self._score(seat, -result["penalties"][colour], "penalty")
        self.final = result

    # decisions (the task is still at the front)

    def _do_setup_draw(self, action: int, seat: int, sex: str) -> None:
        tile = action - self.layout.tile
        self.bags[sex].remove(tile)
        self.hands[seat] = sorted(self.hands[seat] + [tile])
        self.queue.pop(0)

    def _do_draw(self, action: int, sex: str) -> None:
        tile = action - self.layout.tile
        self.bags[sex].remove(tile)
        self.drawn.append(tile)
        self.queue.pop(0)

    def _do_place(self, action: int, seat: int) -> None:
        space = action - self.layout.space
        self.current = sorted(self.current + [[space, seat]])
        self._score(seat, self.bonuses[space], "bonus")
        self.bonuses[space] = 0
        self.queue.pop(0)

    def _do_family_turn(self, action: int, seat: int) -> None:
        space = action - self.layout.space
        action_def = self.config["actions"][space]
        n = self.num_players
        following = [(seat + i) % n for i in range(1, n)] if action_def["shared"] else []
        self.queue.pop(0)
        self._front(self._action_tasks(space, seat, following))

    def _do_choose_bag(self, action: int, seat: int) -> None:
        self.queue.pop(0)
        self._front([["draw", "male" if action == BAG_MALE else "female"]])

    def _do_keep(self, action: int, seat: int) -> None:
        tile = action - self.layout.tile
        self.drawn.remove(tile)
        self.hands[seat] = sorted(self.hands[seat] + [tile])
        self.queue.pop(0)

    def _do_trade_bonus(self, action: int, seat: int) -> None:
        kind = self.config["trading"]["bonus"][action - self.layout.bonus]
        amount = self.config["trading"]["bonus_amount"]
        if kind == "vp":
            self._score(seat, amount, "trading")
        else:
            self._gain(seat, "dividers" if kind == "divider" else kind, amount)
        self.queue.pop(0)

    def _do_trade_option(self, action: int, seat: int) -> None:
        self.queue.pop(0)
        if action == TRADE_SWAP:
            self._front([["swap_first", seat]])
        else:
            draws = self.config["trading"]["draws"]
            self._front([["choose_bag", seat]] * draws + [["exchange", seat], ["return_drawn"]])

    def _do_swap_first(self, action: int, seat: int) -> None:
        self.queue.pop(0)
        self._front([["swap_second", seat, self.grid.edges[action - self.layout.edge]]])

    def _do_swap_second(self, action: int, seat: int, first: str) -> None:
        second = self.grid.edges[action - self.layout.edge]
        d = self.dividers
        d[first], d[second] = d[second], d[first]
        self.queue.pop(0)

    def _do_exchange(self, action: int, seat: int) -> None:
        self.queue.pop(0)
        if action == PASS:
            return
        take, give = divmod(action - self.layout.exchange, 2 * len(self.config["species"]))
        self.drawn.remove(take)
        self.drawn.append(give)
        self.hands[seat] = sorted([t for t in self.hands[seat] if t != give] + [take])

    def _do_build(self, action: int, seat: int, amount: int) -> None:
        if action == PASS:
            self.queue.pop(0)
            return
        lay, mine = self.layout, self.players[seat]
        if action < lay.pitch:
            mine["dividers"] -= 1
            self.dividers[self.grid.edges[action - lay.edge]] = self.colors[seat]
            self._cache = None
            for edge in self._analysis()[1]:
                colour = self.dividers.pop(edge, None)
                if colour is not None:
                    self.supply["dividers"][colour] += 1
        else:
            mine["pitch"] -= 1
            self.pitch = sorted(self.pitch + [self.grid.points[action - lay.pitch][0]])
        self._score(seat, self.config["building"]["vp_per_element"], "building")
        self.queue[0] = ["build", seat, amount - 1]

    def _place_food(self, seat: int, action: int) -> None:
        self.players[seat]["food"] -= 1
        self.food = sorted(self.food + [action - self.layout.square])

    def _load(self, seat: int, action: int, lp: int, deluge: bool) -> int:
        """Load the pair of ``action``; its cost."""
        size = self.grid.rows * self.grid.cols
        species, square = divmod(action - self.layout.load, size)
        enc = next(e for e in self._analysis()[0] if e.squares[0] == square)
        owners = self._owners()
        verdict = self._check(seat, species, enc, lp, deluge, owners)
        for colour, vp in verdict["vp"].items():
            self._score(self.seat_of[colour], vp, "loading")
        for tile in (2 * species, 2 * species + 1):
            self.hands[owners[tile]].remove(tile)
        self.loaded.append([species, square])
        return verdict["cost"]

    def _do_load(self, action: int, seat: int, lp: int) -> None:
        rules = self.config["loading"]
        if action == PASS:
            self.queue.pop(0)
        elif action < self.layout.load:
            self._place_food(seat, action)
            self._score(seat, rules["food_vp"], "food")
            self.queue[0] = ["load", seat, lp - rules["food_lp"]]
        else:
            self.queue[0] = ["load", seat, lp - self._load(seat, action, lp, False)]

    def _do_deluge_food(self, action: int, seat: int) -> None:
        self._place_food(seat, action)

    def _do_deluge_pairs(self, action: int, seat: int) -> None:
        self._load(seat, action, 0, True)


_AUTO = {
    "setup_give": State._setup_give,
    "round_start": State._round_start,
    "phase1_end": State._phase1_end,
    "resolve": State._resolve,
    "gain": State._gain,
    "return_drawn": State._return_drawn,
    "round_end": State._round_end,
    "deluge": State._deluge,
    "final": State._final,
}
