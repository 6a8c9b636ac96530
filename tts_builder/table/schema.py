"""The table manifest's keys (``table:`` in ``game.yaml``) and its cross-field checks.

A manifest says which pieces lie on the table, how many, with which tags, notes and states,
and where: at a named anchor (plus an offset), at every seat (in the seat's own frame: x to
the seat's right, z towards the table's middle), or at a table point. Its ``setup`` steps say
what the Setup button deals or hands out to each seated player, by player count.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import FieldError
from ..gamekit.checks import unique_names
from ..gamekit.specs import by_player_count
from ..save.tables import HAND_PLACEMENTS, SEAT_COLORS
from ..schema import Bool, Custom, Int, ListOf, Map, Num, OneOf, Point, Str

ID = Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a lower-case id like 'flower-cards'")
#: Tables whose hand zones (the seats) are known (FORMAT §5.2).
TABLES = tuple(sorted(HAND_PLACEMENTS))
SKIES = Str()
#: Piece kinds and the component kind each needs ("" none, "layout" faces, "die").
KINDS: dict[str, str] = {
    "deck": "layout",
    "card": "layout",
    "token": "layout",
    "bag": "layout",
    "infinite_bag": "layout",
    "tile": "layout",
    "board": "layout",
    "die": "die",
    "zone": "",
}
#: Kinds a setup step can take pieces from, and what it hands out.
SOURCES = ("deck", "bag", "infinite_bag")
PLAYER_COUNT = Int(1, 10)


def _position(value: Any, path: str) -> None:
    """``[x, z]`` on the table, ``{anchor, offset}`` or ``{seat: [dx, dz]}``."""
    if isinstance(value, list):
        Point(2).check(value, path)
        return
    if not isinstance(value, dict):
        raise FieldError(path, "expected [x, z], {anchor: NAME, offset: [dx, dz]} or "
                         f"{{seat: [dx, dz]}}, got {type(value).__name__}")  # fmt: skip
    if "seat" in value:
        Map({"seat": Point(2)}).check(value, path)
    else:
        Map({"anchor": ID, "offset": Point(2)}, frozenset({"offset"})).check(value, path)


POSITION = Custom(_position)


def _count(value: Any, path: str) -> None:
    """A count, or a list of ``{players: [n...], count: k}`` (one entry per player count)."""
    if isinstance(value, list):
        by_player_count({"count": Int(0, 99)}).check(value, path)
    else:
        Int(0, 99).check(value, path)


COUNT = Custom(_count)

PIECE = Map(
    {
        "id": ID,
        "kind": OneOf(tuple(KINDS)),
        "name": Str(),
        "component": ID,
        "roster": ID,
        "copies": Int(1, 20),
        "each": Custom(lambda v, p: _each(v, p)),
        "count": Int(1, 200),
        "at": POSITION,
        "width": Num(),
        "size": Point(2),
        "scale": Num(),
        "tags": ListOf(Str(pattern=r"[A-Za-z][A-Za-z0-9_]*", hint="a tag like 'Flower'")),
        "notes": Str(),
        "states": ListOf(ID, 1, 9),
        "locked": Bool(),
        "face_up": Bool(),
    },
    frozenset({"name", "component", "roster", "copies", "each", "count", "width", "size", "scale",
               "tags", "notes", "states", "locked", "face_up"}),
)  # fmt: skip

STEP = Map(
    {
        "deal": ID,
        "count": COUNT,
        "to": Custom(lambda v, p: None if v == "hand" else _position(v, p)),
        "spread": Point(2),
        "face_up": Bool(),
        "players": ListOf(PLAYER_COUNT, 1),
    },
    frozenset({"spread", "face_up", "players"}),
)

MANIFEST = Map(
    {
        "type": OneOf(TABLES),
        "sky": SKIES,
        "seats": ListOf(OneOf(SEAT_COLORS), 1, 10),
        "anchors": Custom(lambda v, p: _anchors(v, p)),
        "pieces": ListOf(PIECE, 1),
        "setup": ListOf(STEP),
        "score": Map({"start": Int(-999, 999), "min": Int(-999, 999), "max": Int(-999, 999)}),
    },
    frozenset({"anchors", "setup", "score"}),
)


def _each(value: Any, path: str) -> None:
    """``{field: [values]}``: a card per roster entry and value, with that field."""
    if not isinstance(value, dict) or len(value) != 1:
        raise FieldError(path, "expected one field and its values, e.g. {value: [1, 2, 3, 4]}")
    for key, values in value.items():
        Str().check(key, f"{path}.{key}")
        ListOf(Custom(_scalar), 1, 20).check(values, f"{path}.{key}")


def _scalar(value: Any, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise FieldError(path, f"expected text or a number, got {type(value).__name__}")


def _anchors(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, "expected a mapping of anchor name -> [x, z]")
    for name, point in value.items():
        ID.check(name, f"{path}.{name}")
        Point(2).check(point, f"{path}.{name}")


def pieces_by_id(manifest: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The manifest's pieces by id (checked unique by :func:`check_manifest`)."""
    return {piece["id"]: piece for piece in manifest["pieces"]}


def deck_entries(piece: dict[str, Any], rosters: dict[str, Any]) -> list[dict[str, Any]]:
    """A deck's distinct card faces in order: each roster entry, times each value of ``each``
    (``{value: [1, 2, 3, 4]}`` makes a card per entry and value, with that field)."""
    entries = list(rosters[piece["roster"]])
    for key, values in piece.get("each", {}).items():
        entries = [{**entry, key: value} for entry in entries for value in values]
    return entries


def deck_size(piece: dict[str, Any], rosters: dict[str, Any]) -> int:
    """How many cards a deck holds."""
    return len(deck_entries(piece, rosters)) * piece.get("copies", 1)


def step_count(step: dict[str, Any], players: int) -> int:
    """How many a setup step hands each player at ``players`` players: 0 when its ``players``
    leave that count out; a plain count is the same for every count."""
    if "players" in step and players not in step["players"]:
        return 0
    count = step["count"]
    if isinstance(count, int):
        return count
    for entry in count:
        if players in entry["players"]:
            return int(entry["count"])
    return 0


def check_manifest(data: dict[str, Any], path: str = "table") -> None:
    """Cross-field checks: unique ids, known anchors, components and rosters of the right
    kind, seats at the table, player counts covered, enough pieces for every deal."""
    manifest = data[path]
    low, high = data["players"]["min"], data["players"]["max"]
    components = data.get("components", {})
    rosters = data.get("rosters", {})
    anchors = manifest.get("anchors", {})
    seats = manifest["seats"]
    unique_names(seats, f"{path}.seats[{{}}]", "seat colour {!r} listed twice")
    if len(seats) < high:
        raise FieldError(f"{path}.seats", f"expected at least {high} seats, got {len(seats)}")
    known = HAND_PLACEMENTS[manifest["type"]]
    for i, colour in enumerate(seats):
        if colour not in known:
            raise FieldError(f"{path}.seats[{i}]", f"{manifest['type']} has no seat {colour}")
    ids = [piece["id"] for piece in manifest["pieces"]]
    unique_names(ids, f"{path}.pieces[{{}}].id", "piece id {!r} listed twice")
    for i, piece in enumerate(manifest["pieces"]):
        _check_piece(piece, f"{path}.pieces[{i}]", components, rosters, anchors)
    pieces = pieces_by_id(manifest)
    taken: dict[tuple[str, int], int] = {}  # (source, players) -> dealt by the steps so far
    for i, step in enumerate(manifest.get("setup", [])):
        _check_step(step, f"{path}.setup[{i}]", pieces, anchors, rosters, (low, high))
        _check_supply(step, f"{path}.setup[{i}]", pieces[step["deal"]], rosters, (low, high),
                      taken)  # fmt: skip
    score = manifest.get("score")
    if score and not score["min"] <= score["start"] <= score["max"]:
        raise FieldError(f"{path}.score.start", f"expected within min..max "
                         f"({score['min']}..{score['max']}), got {score['start']}")  # fmt: skip


def _check_at(at: Any, path: str, anchors: dict[str, Any]) -> None:
    if isinstance(at, dict) and "anchor" in at and at["anchor"] not in anchors:
        names = ", ".join(sorted(anchors)) or "none"
        raise FieldError(f"{path}.anchor", f"unknown anchor {at['anchor']!r} (anchors: {names})")


def _check_piece(
    piece: dict[str, Any], path: str, components: dict[str, Any], rosters: dict[str, Any],
    anchors: dict[str, Any],
) -> None:  # fmt: skip
    kind = piece["kind"]
    needs = KINDS[kind]
    _check_at(piece["at"], f"{path}.at", anchors)
    for key in _keys_not_for(kind):
        if key in piece:
            raise FieldError(f"{path}.{key}", f"a {kind} has no {key!r}")
    if needs and "component" not in piece:
        raise FieldError(f"{path}.component", f"missing required key (a {kind} is drawn "
                         "from a component)")  # fmt: skip
    named = [("component", piece["component"])] if "component" in piece else []
    named += [(f"states[{i}]", state) for i, state in enumerate(piece.get("states", []))]
    for key, name in named:
        if name not in components:
            known = ", ".join(sorted(components)) or "none"
            raise FieldError(f"{path}.{key}", f"unknown component {name!r} (components: {known})")
        has_faces = "face" in components[name]
        if (needs == "die") == has_faces:
            want = "a die (faces, style)" if needs == "die" else "a layout (size, face)"
            raise FieldError(f"{path}.{key}", f"a {kind} needs {want} component; "
                             f"{name!r} is not one")  # fmt: skip
    if kind == "deck":
        if "roster" not in piece:
            raise FieldError(f"{path}.roster", "missing required key (a deck has one card "
                             "per roster entry)")  # fmt: skip
        if piece["roster"] not in rosters:
            known = ", ".join(sorted(rosters)) or "none"
            raise FieldError(f"{path}.roster", f"unknown roster {piece['roster']!r} "
                             f"(rosters: {known})")  # fmt: skip
        if deck_size(piece, rosters) < 2:
            raise FieldError(f"{path}.roster", "a deck holds at least 2 cards")
    if kind in ("deck", "card") and "back" not in components[piece["component"]]:
        raise FieldError(f"{path}.component", f"a {kind}'s component needs a back layout")
    if kind in ("board", "tile") and "width" not in piece:
        raise FieldError(f"{path}.width", f"missing required key (the {kind}'s width on the "
                         "table, in TTS units)")  # fmt: skip
    if "width" in piece and not 0.5 <= piece["width"] <= 60:
        raise FieldError(f"{path}.width", f"expected 0.5 to 60 units, got {piece['width']}")
    if kind == "zone" and "size" not in piece:
        raise FieldError(f"{path}.size", "missing required key (the zone's [x, z] size)")
    for axis, extent in enumerate(piece.get("size", [])):
        if not 0.1 <= extent <= 100:
            raise FieldError(f"{path}.size[{axis}]", f"expected 0.1 to 100 units, got {extent}")
    if "scale" in piece and not 0.05 <= piece["scale"] <= 10:
        raise FieldError(f"{path}.scale", f"expected 0.05 to 10, got {piece['scale']}")


#: Keys each kind takes beyond id, kind, at, name, tags and notes.
_KEYS: dict[str, frozenset[str]] = {
    "deck": frozenset({"component", "roster", "copies", "each", "face_up"}),
    "card": frozenset({"component", "face_up", "locked"}),
    "token": frozenset({"component", "count", "scale", "states", "locked"}),
    "bag": frozenset({"component", "count", "scale", "locked"}),
    "infinite_bag": frozenset({"component", "scale", "locked"}),
    "tile": frozenset({"component", "count", "width", "states", "locked"}),
    "board": frozenset({"component", "width", "locked"}),
    "die": frozenset({"component", "count", "scale"}),
    "zone": frozenset({"size"}),
}
_OPTIONAL_KEYS = frozenset().union(*_KEYS.values())


def _keys_not_for(kind: str) -> Iterator[str]:
    yield from sorted(_OPTIONAL_KEYS - _KEYS[kind])


def _check_step(
    step: dict[str, Any], path: str, pieces: dict[str, dict[str, Any]],
    anchors: dict[str, Any], rosters: dict[str, Any], players: tuple[int, int],
) -> None:  # fmt: skip
    low, high = players
    source = pieces.get(step["deal"])
    if source is None:
        raise FieldError(f"{path}.deal", f"unknown piece {step['deal']!r} "
                         f"(pieces: {', '.join(sorted(pieces))})")  # fmt: skip
    if source["kind"] not in SOURCES:
        raise FieldError(f"{path}.deal", f"{step['deal']!r} is a {source['kind']}; setup deals "
                         f"from a {', '.join(SOURCES)}")  # fmt: skip
    if isinstance(source["at"], dict) and "seat" in source["at"]:
        raise FieldError(f"{path}.deal", f"{step['deal']!r} lies at every seat; deal from a "
                         "shared piece")  # fmt: skip
    if step["to"] == "hand" and source["kind"] != "deck":
        raise FieldError(f"{path}.to", "only cards go to a hand; put tokens at a seat spot")
    if step["to"] != "hand":
        _check_at(step["to"], f"{path}.to", anchors)
    elif "spread" in step:
        raise FieldError(f"{path}.spread", "a hand lays its cards out itself; spread is for spots")
    if isinstance(step["count"], list):
        seen: dict[int, int] = {}
        for i, entry in enumerate(step["count"]):
            for j, n in enumerate(entry["players"]):
                if n in seen:
                    raise FieldError(f"{path}.count[{i}].players[{j}]", f"{n} players listed twice")
                seen[n] = i
        for n in range(low, high + 1):
            if n not in seen and n in step.get("players", range(low, high + 1)):
                raise FieldError(f"{path}.count", f"no entry for {n} players")


def _check_supply(
    step: dict[str, Any], path: str, source: dict[str, Any], rosters: dict[str, Any],
    players: tuple[int, int], taken: dict[tuple[str, int], int],
) -> None:  # fmt: skip
    """Every player count's deals so far fit in the deck or bag (an infinite bag never ends)."""
    if source["kind"] == "infinite_bag":
        return
    have = (deck_size(source, rosters) if source["kind"] == "deck"
            else source.get("count", 1))  # fmt: skip
    for n in range(players[0], players[1] + 1):
        need = taken.get((source["id"], n), 0) + step_count(step, n) * n
        taken[(source["id"], n)] = need
        if need > have:
            raise FieldError(f"{path}.count", f"{n} players need {need} from {source['id']!r}, "
                             f"which holds {have}")  # fmt: skip
