"""The table manifest's keys (``table:`` in ``game.yaml``) and its cross-field checks.

A manifest says which pieces lie on the table, how many, with which tags and notes,
and where: at a named anchor (plus an offset), at every seat (in the seat's own frame: x to
the seat's right, z towards the table's middle), or at a table point. Its ``setup`` steps say
what the Setup button deals or hands out to each seated player, by player count.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..errors import FieldError
from ..gamekit.checks import unique_names
from ..gamekit.specs import by_player_count
from ..plugin import TableHooks
from ..save.tables import HAND_PLACEMENTS, SEAT_COLORS
from ..schema import Bool, Custom, Int, ListOf, Map, MappingOf, Num, OneOf, Point, Str
from .derived import (
    ROSTERS,
    WHEN,
    derived_rosters,
    holds,
    left_off,
    number_or_key,
    resolved,
)
from .layout import at_players, seat_context
from .model import (
    GUID_FORMS,
    Anchor,
    Guids,
    SeatSpot,
    TrackCell,
    at_of,
    guids_of,
    pieces_by_id,
    seat_colors,
    step_count,
    step_of,
)
from .model import Point as TablePoint
from .track import TRACK, check_track

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
    "track": "",
    "die": "die",
    "zone": "",
}
#: Kinds a setup step can take pieces from, and what it hands out.
SOURCES = ("deck", "bag", "infinite_bag")
PLAYER_COUNT = Int(1, 10)
TAGS = ListOf(Str(pattern=r"[A-Za-z][A-Za-z0-9_]*", hint="a tag like 'Flower'"))
#: How a bag hands out its objects (TTS Bag ``Order``).
BAG_ORDERS: dict[str, int] = {"lifo": 0, "fifo": 1, "random": 2}
#: The longest side of a picture a game draws that TTS loads (FORMAT §4.1, image size: 4096 px).
MAX_PICTURE_PX = 4096
#: Custom_Tile shapes a token (or a bag's tokens) may take instead of a Custom_Token's outline.
SHAPES: dict[str, int] = {"box": 0, "hex": 1, "circle": 2, "rounded": 3}


def _notes(value: Any, path: str) -> None:
    """GM notes: text, or a mapping written as JSON (text values may print {fields})."""
    if isinstance(value, dict):
        for key, item in value.items():
            Str().check(key, f"{path}.{key}")
            _scalar(item, f"{path}.{key}")
    else:
        Str().check(value, path)


NOTES = Custom(_notes)


def _position(value: Any, path: str) -> None:
    """``[x, z]`` on the table, ``{anchor, offset}``, ``{track: NAME}`` (``cell: K``: its
    point K only), ``{seat: [dx, dz]}`` or ``{seat: NAME}`` (a point every seat names)."""
    if isinstance(value, list):
        Point(2).check(value, path)
        return
    if not isinstance(value, dict):
        raise FieldError(path, "expected [x, z], {anchor: NAME, offset: [dx, dz]}, "
                         "{track: NAME}, {seat: [dx, dz]} or {seat: NAME}, got "
                         f"{type(value).__name__}")  # fmt: skip
    if "seat" in value:
        Map({"seat": ID if isinstance(value["seat"], str) else Point(2)}).check(value, path)
    elif "track" in value:
        Map({"track": ID, "cell": Int(0, 9999)}, frozenset({"cell"})).check(value, path)
    elif "seat_track" in value:
        Map({"seat_track": ID}).check(value, path)
    elif "area" in value:
        Map({"area": ID}).check(value, path)
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
        "picture": ID,
        "back": ID,
        "roster": ID,
        "copies": Int(1, 20),
        "count": number_or_key(1, 200),  # or {key: rules.dice.count}: .derived
        "when": WHEN,  # laid only while a definition key holds a value: .derived
        "at": POSITION,
        "width": Num(),
        "size": Point(2),
        "scale": Num(),
        "thickness": Num(),
        "stand_up": Bool(),
        "numbered": Bool(),
        "tags": TAGS,
        "notes": NOTES,
        "shape": OneOf(tuple(SHAPES)),
        "contents": Map(
            {"name": Str(), "tags": TAGS, "notes": NOTES, "shape": OneOf(tuple(SHAPES)),
             "width": Num(), "thickness": Num(), "description": Str(),
             "sides": ListOf(Str(), 2, 2), "file": Str()},
            frozenset({"name", "tags", "notes", "shape", "width", "thickness", "description",
                       "sides", "file"}),
        ),  # fmt: skip
        "locked": Bool(),
        "face_up": Bool(),
        "tint": Str(pattern=r"#[0-9a-fA-F]{6}|\{\w+\}", hint="'#rrggbb' or a '{field}'"),
        "order": OneOf(tuple(BAG_ORDERS)),
        "step": Point(2),  # a die row's step
        "track": TRACK,
    },
    frozenset({"name", "component", "picture", "roster", "copies", "count", "width", "size",
               "scale", "thickness", "stand_up", "numbered", "tags", "notes", "contents",
               "locked", "face_up", "back", "shape", "tint", "order", "step", "track",
               "when"}),
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
        "seats": ListOf(Custom(lambda v, p: _seat(v, p)), 1, 10),
        "anchors": Custom(lambda v, p: _anchors(v, p)),
        "pieces": ListOf(PIECE, 1),
        "setup": ListOf(STEP),
        "score": Map({"start": Int(-999, 999), "min": Int(-999, 999), "max": Int(-999, 999)}),
        "snap_points": ListOf(
            Map(
                {"at": POSITION, "tags": TAGS, "players": ListOf(PLAYER_COUNT, 1), "when": WHEN},
                frozenset({"tags", "players", "when"}),
            )
        ),
        "thumbnail": ListOf(Str(), 1, 12),  # the faces the thumbnail fans, by label: .preview
        "rosters": ROSTERS,  # rosters made from the definition's lists: .derived
        "script": Custom(lambda v, p: SCRIPT.check(v, p)),
    },
    frozenset({"anchors", "setup", "score", "snap_points", "script", "rosters", "thumbnail"}),
)


def _script_guids(value: Any, path: str) -> None:
    """A piece id (its GUIDs), ``[ID, ...]`` (the GUIDs of the first of those pieces the build
    lays), ``{<form>: ID}`` (its first GUID, its GUIDs by seat or by number:
    :data:`~.model.GUID_FORMS`)."""
    if isinstance(value, list):
        ListOf(ID, 1).check(value, path)
    elif isinstance(value, dict):
        form = next((k for k in GUID_FORMS if k in value), "first")
        Map({form: ID}).check(value, path)
    else:
        ID.check(value, path)


#: A ``script.guids`` entry, and a ``script.positions`` entry (an anchor lifted to ``y``).
SCRIPT_GUIDS = Custom(_script_guids)
SCRIPT_POSITION = Map({"anchor": ID, "y": Num()})
#: A hex-map board's manifest key (the schema type ``hex_board``; :mod:`.hexboard` reads it):
#: its centre on the table, the distance between the centres of two neighbouring hexes of a
#: row, the board picture's resolution.
HEX_BOARD = Map(
    {"centre": Point(2), "hex_width": Num(0.5, 10.0), "pixels_per_unit": Num(16.0, 160.0)}
)
#: ``script``: what the scripts address by name (their template context's ``guids``,
#: ``positions`` and ``seats``), so no game maps piece ids to script names in code.
SCRIPT = Map(
    {
        "guids": MappingOf(Str(), SCRIPT_GUIDS, "script name -> piece"),
        "positions": MappingOf(Str(), SCRIPT_POSITION, "script name -> {anchor, y}"),
        "seats": MappingOf(ID, Num(), "seat point -> height"),
    },
    frozenset({"guids", "positions", "seats"}),
)


def _seat(value: Any, path: str) -> None:
    """A seat colour, or ``{color, facing?, <point name>: [x, z]...}``: a seat with the table
    points its pieces lie at (``at: {seat: NAME}``) and maybe the rotY they read at."""
    if not isinstance(value, dict):
        OneOf(SEAT_COLORS).check(value, path)
        return
    if "color" not in value:
        raise FieldError(f"{path}.color", "missing required key")
    OneOf(SEAT_COLORS).check(value["color"], f"{path}.color")
    if "facing" in value:
        Num().check(value["facing"], f"{path}.facing")
    for key, point in value.items():
        if key not in ("color", "facing"):
            ID.check(key, f"{path}.{key}")
            Point(2).check(point, f"{path}.{key}")


def _scalar(value: Any, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise FieldError(path, f"expected text or a number, got {type(value).__name__}")


def _anchors(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, "expected a mapping of anchor name -> [x, z]")
    for name, point in value.items():
        ID.check(name, f"{path}.{name}")
        Point(2).check(point, f"{path}.{name}")


def deck_entries(piece: dict[str, Any], rosters: dict[str, Any]) -> list[dict[str, Any]]:
    """A deck's distinct card faces in order: its roster's entries."""
    return list(rosters[piece["roster"]])


def deck_size(piece: dict[str, Any], rosters: dict[str, Any]) -> int:
    """How many cards a deck holds."""
    return len(deck_entries(piece, rosters)) * piece.get("copies", 1)


@dataclass(frozen=True)
class _Known:
    """The names a manifest may use: its own and those its game hands it."""

    anchors: dict[str, Any]
    tracks: dict[str, Any]
    areas: dict[str, Any]
    pictures: dict[str, Any]
    seat_points: set[str]
    #: the game's tracks every seat has (``<name>:<colour>``), by name
    seat_tracks: set[str] = frozenset()  # type: ignore[assignment]


def rosters_of(data: dict[str, Any], hooks: TableHooks | None = None, key: str = "table"
               ) -> dict[str, Any]:  # fmt: skip
    """The definition's rosters, those the manifest ``data[key]`` makes from its lists
    (:func:`~.derived.derived_rosters`) and those the game derives (:class:`TableHooks`)."""
    made = derived_rosters(data, key) if key in data else {}
    return {**data.get("rosters", {}), **made, **(hooks.rosters if hooks else {})}


def check_manifest(data: dict[str, Any], path: str = "table", hooks: TableHooks | None = None
                   ) -> None:  # fmt: skip
    """Cross-field checks: unique ids, known anchors, tracks, pictures, components and rosters
    of the right kind, seats at the table, player counts covered, enough pieces for every deal.
    ``hooks`` are the names the game supplies (:class:`~tts_builder.plugin.TableHooks`)."""
    manifest = resolved(data, path)  # counts read from definition keys
    low, high = data["players"]["min"], data["players"]["max"]

    hooks = at_players(hooks or TableHooks(), high)  # the table laid for the most players
    hooks = replace(hooks, omit=hooks.omit | left_off(data, path))  # and each piece's ``when``
    components = data.get("components", {})
    rosters = rosters_of(data, hooks, path)
    for name in manifest.get("rosters", {}):
        if name in hooks.rosters or name in data.get("rosters", {}):
            raise FieldError(f"{path}.rosters.{name}", f"roster {name!r} is listed already")
    seats = seat_colors(manifest)
    points = [set(s) - {"color", "facing"} for s in manifest["seats"] if isinstance(s, dict)]
    own = manifest.get("anchors", {})
    for name in own:
        if name in hooks.anchors or name in hooks.tracks:
            raise FieldError(f"{path}.anchors.{name}", f"{name!r} is a point the game supplies")
    tracks = dict(hooks.tracks)
    for i, piece in enumerate(manifest["pieces"]):
        if piece["kind"] == "track":
            where = f"{path}.pieces[{i}]"
            if piece["id"] in tracks:
                raise FieldError(f"{where}.id", f"{piece['id']!r} is a track the game supplies")
            tracks[piece["id"]] = range(check_track(piece, data, where))
            if "seats" in piece["track"]:
                tracks |= {f"{piece['id']}:{colour}": range(1) for colour in seats}
    known = _Known({**hooks.anchors, **own}, tracks, dict(hooks.areas),
                   dict(hooks.pictures),
                   set.intersection(*points) if len(points) == len(seats) else set(),
                   seat_tracks(TableHooks(tracks=tracks), seats))  # fmt: skip
    unique_names(seats, f"{path}.seats[{{}}]", "seat colour {!r} listed twice")
    if len(seats) < high:
        raise FieldError(f"{path}.seats", f"expected at least {high} seats, got {len(seats)}")
    table_seats = HAND_PLACEMENTS[manifest["type"]]
    for i, colour in enumerate(seats):
        if colour not in table_seats:
            raise FieldError(f"{path}.seats[{i}]", f"{manifest['type']} has no seat {colour}")
    for i, snap in enumerate(manifest.get("snap_points", [])):
        _check_at(snap["at"], f"{path}.snap_points[{i}].at", known)
        if "when" in snap:
            holds(snap["when"], data, f"{path}.snap_points[{i}].when")
    ids = [piece["id"] for piece in manifest["pieces"]]
    unique_names(ids, f"{path}.pieces[{{}}].id", "piece id {!r} listed twice")
    for i, piece in enumerate(manifest["pieces"]):
        _check_piece(piece, f"{path}.pieces[{i}]", components, rosters, known)
    pieces = pieces_by_id(manifest)
    _check_script(manifest.get("script", {}), f"{path}.script", manifest)
    taken: dict[tuple[str, int], int] = {}  # (source, players) -> dealt by the steps so far
    for i, step in enumerate(manifest.get("setup", [])):
        _check_step(step, f"{path}.setup[{i}]", pieces, known, rosters, (low, high))
        if step["deal"] in hooks.omit:
            raise FieldError(f"{path}.setup[{i}].deal", f"{step['deal']!r} is not on the table "
                             "in this game")  # fmt: skip
        _check_supply(step, f"{path}.setup[{i}]", pieces[step["deal"]], rosters, (low, high),
                      taken)  # fmt: skip
    score = manifest.get("score")
    if score and not score["min"] <= score["start"] <= score["max"]:
        raise FieldError(f"{path}.score.start", f"expected within min..max "
                         f"({score['min']}..{score['max']}), got {score['start']}")  # fmt: skip


def _check_at(at: Any, path: str, known: _Known) -> None:
    """The names a place uses are known: its anchor, area, track (and cell), seat point or
    seat track."""
    place = at_of(at)
    match place:
        case Anchor(name, _, False):
            key, names, what = "anchor", known.anchors, "anchors"
        case Anchor(name, _, True):
            key, names, what = "area", known.areas, "areas"
        case TrackCell(name, _):
            key, names, what = "track", known.tracks, "tracks"
        case SeatSpot(None, str() as name, None):
            key, names, what = "seat", known.seat_points, "points of every seat"
        case SeatSpot(None, None, str() as name):
            key, names, what = "seat_track", known.seat_tracks, "tracks of every seat"
        case _:
            return
    if name not in names:
        listed = ", ".join(sorted(names)) or "none"
        raise FieldError(f"{path}.{key}", f"unknown {key} {name!r} ({what}: {listed})")
    if isinstance(place, TrackCell) and place.cell is not None:
        have = len(known.tracks[place.track])
        if place.cell >= have:
            raise FieldError(f"{path}.cell", f"track {name!r} has {have} points (0..{have - 1})")


def seat_tracks(hooks: TableHooks, seats: list[str]) -> set[str]:
    """The names of the game's tracks every seat has: a track ``<name>:<colour>`` per seat."""
    names = {name.rsplit(":", 1)[0] for name in hooks.tracks if ":" in name}
    return {n for n in names if all(f"{n}:{colour}" in hooks.tracks for colour in seats)}


def object_count(piece: dict[str, Any], rosters: dict[str, Any]) -> int:
    """How many objects a piece lays at each of its spots (a roster token: entries x count)."""
    count = piece.get("count", 1)
    if piece["kind"] == "token" and "roster" in piece:
        return len(rosters[piece["roster"]]) * count
    if piece["kind"] in ("bag", "infinite_bag") and "roster" in piece:
        return len(rosters[piece["roster"]])
    return count if piece["kind"] in ("token", "tile", "die", "bag") else 1


def _check_piece(
    piece: dict[str, Any], path: str, components: dict[str, Any], rosters: dict[str, Any],
    known: _Known,
) -> None:  # fmt: skip
    kind = piece["kind"]
    needs = KINDS[kind]
    _check_at(piece["at"], f"{path}.at", known)
    for key in _keys_not_for(kind):
        if key in piece:
            raise FieldError(f"{path}.{key}", f"a {kind} has no {key!r}")
    if "picture" in piece:
        _check_picture(piece, path, known)
    elif needs and "component" not in piece:
        raise FieldError(f"{path}.component", f"missing required key (a {kind} is drawn "
                         "from a component)")  # fmt: skip
    named = [("component", piece["component"])] if "component" in piece else []
    for key, name in named:
        if name not in components:
            listed = ", ".join(sorted(components)) or "none"
            raise FieldError(f"{path}.{key}", f"unknown component {name!r} (components: {listed})")
        sides = piece.get("contents", {}).get("sides", ["face"])
        has_faces = all(isinstance(components[name].get(side), list) for side in sides)
        if (needs == "die") == has_faces:
            want = "a die (faces, style)" if needs == "die" else "a layout (size, face)"
            raise FieldError(f"{path}.{key}", f"a {kind} needs {want} component; "
                             f"{name!r} is not one")  # fmt: skip
    if kind == "deck" and "roster" not in piece:
        raise FieldError(f"{path}.roster", "missing required key (a deck has one card "
                         "per roster entry)")  # fmt: skip
    if "roster" in piece and piece["roster"] not in rosters:
        listed = ", ".join(sorted(rosters)) or "none"
        raise FieldError(f"{path}.roster", f"unknown roster {piece['roster']!r} "
                         f"(rosters: {listed})")  # fmt: skip
    if kind == "deck" and deck_size(piece, rosters) < 2:
        raise FieldError(f"{path}.roster", "a deck holds at least 2 cards")
    if kind in ("deck", "card") and "back" not in components[piece["component"]]:
        raise FieldError(f"{path}.component", f"a {kind}'s component needs a back layout")
    if "back" in piece:
        _check_back(piece["back"], f"{path}.back", components, known)
    _check_shape(piece, path)
    _check_shape(piece.get("contents", {}), f"{path}.contents", piece)
    contents = piece.get("contents", {})
    if ("sides" in contents or "file" in contents) and (kind != "bag" or "shape" not in contents
                                                        or "roster" not in piece):  # fmt: skip
        raise FieldError(f"{path}.contents", "sides and file are for the shaped tiles of a "
                         "roster bag")  # fmt: skip
    if kind == "bag" and "roster" in piece and "count" in piece:
        raise FieldError(f"{path}.count", "a bag holds count tokens or one per roster entry, "
                         "not both")  # fmt: skip
    drawn_wide = "picture" in piece and known.pictures[piece["picture"]].width is not None
    drawn_wide = drawn_wide or "cell_width" in piece.get("track", {})
    if kind in ("board", "tile", "track") and "width" not in piece and not drawn_wide:
        raise FieldError(f"{path}.width", f"missing required key (the {kind}'s width on the "
                         "table, in TTS units)")  # fmt: skip
    if "width" in piece and "shape" not in piece and not 0.5 <= piece["width"] <= 60:
        raise FieldError(f"{path}.width", f"expected 0.5 to 60 units, got {piece['width']}")
    at = at_of(piece["at"])
    covers_area = isinstance(at, Anchor) and at.area
    if kind == "zone" and "size" not in piece and not covers_area:
        raise FieldError(f"{path}.size", "missing required key (the zone's [x, z] size)")
    for axis, extent in enumerate(piece.get("size", [])):
        if not 0.1 <= extent <= 100:
            raise FieldError(f"{path}.size[{axis}]", f"expected 0.1 to 100 units, got {extent}")
    if "scale" in piece and not 0.05 <= piece["scale"] <= 10:
        raise FieldError(f"{path}.scale", f"expected 0.05 to 10, got {piece['scale']}")
    if "thickness" in piece and not 0.01 <= piece["thickness"] <= 5:
        raise FieldError(f"{path}.thickness", f"expected 0.01 to 5 units, got "
                         f"{piece['thickness']}")  # fmt: skip
    if covers_area != (kind == "zone" and "size" not in piece) and not isinstance(at, TablePoint):
        raise FieldError(f"{path}.at", "a zone lies at an area or has a size; only a zone "
                         "covers an area")  # fmt: skip
    if isinstance(at, TrackCell) and at.cell is None and ("count" in piece or "roster" in piece):
        have, need = len(known.tracks[at.track]), object_count(piece, rosters)
        if need > have:
            raise FieldError(f"{path}.at.track", f"{need} objects but track {at.track!r} "
                             f"has {have} points")  # fmt: skip


def _check_shape(shaped: dict[str, Any], path: str, piece: dict[str, Any] | None = None) -> None:
    """A tile-shaped token (``shape``) is drawn from a layout component, ``width`` wide at
    rest; a plain token has no width (its ``scale`` sizes it)."""
    owner = piece or shaped
    if "shape" in shaped:
        if "component" not in owner:
            raise FieldError(f"{path}.shape", "a shaped token is drawn from a component")
        if "width" not in shaped:
            raise FieldError(f"{path}.width", "missing required key (a shaped token's side "
                             "or diameter at rest, in TTS units)")  # fmt: skip
        if not 0.1 <= shaped["width"] <= 20:
            raise FieldError(f"{path}.width", f"expected 0.1 to 20 units, got {shaped['width']}")
        if not 0.01 <= shaped.get("thickness", 0.2) <= 5:
            raise FieldError(f"{path}.thickness", "expected 0.01 to 5 units, got "
                             f"{shaped['thickness']}")  # fmt: skip
    elif "width" in shaped and owner["kind"] not in ("tile", "board", "track"):
        raise FieldError(f"{path}.width", "only a shaped token (shape) has a width")


def _check_back(name: str, path: str, components: dict[str, Any], known: _Known) -> None:
    """A tile's or board's other side: a picture the game draws, or a layout component."""
    if name in known.pictures and not known.pictures[name].faces:
        _check_pixels(name, path, known)
        return
    if name in components and "face" in components[name]:
        return
    listed = ", ".join(sorted({*known.pictures, *components})) or "none"
    raise FieldError(path, f"unknown picture or layout component {name!r} (known: {listed})")


def _check_picture(piece: dict[str, Any], path: str, known: _Known) -> None:
    """A piece drawn from a picture of the game's: known, a d6 texture for a die, no component."""
    name, kind = piece["picture"], piece["kind"]
    if "component" in piece:
        raise FieldError(f"{path}.picture", "a piece is drawn from a component or a picture, "
                         "not both")  # fmt: skip
    if name not in known.pictures:
        listed = ", ".join(sorted(known.pictures)) or "none"
        raise FieldError(f"{path}.picture", f"unknown picture {name!r} (the game draws: "
                         f"{listed})")  # fmt: skip
    if (kind == "die") != bool(known.pictures[name].faces):
        want = "a d6 texture (with faces)" if kind == "die" else "a picture, not a d6 texture"
        raise FieldError(f"{path}.picture", f"a {kind} needs {want}; {name!r} is not one")
    _check_pixels(name, f"{path}.picture", known)


def _check_pixels(name: str, path: str, known: _Known) -> None:
    """A picture the game draws is at most :data:`MAX_PICTURE_PX` a side when its size is
    known before drawing: else FieldError at the field that sizes it (or at ``path``)."""
    pixels = known.pictures[name].pixels
    if pixels is not None and pixels > MAX_PICTURE_PX:
        raise FieldError(
            known.pictures[name].sized_by or path,
            f"the {name} picture would be {pixels} px a side; at most {MAX_PICTURE_PX} load in TTS",
        )


#: Keys each kind takes beyond id, kind, at, name, tags, notes and when.
_KEYS: dict[str, frozenset[str]] = {
    "deck": frozenset({"component", "roster", "copies", "face_up", "contents"}),
    "card": frozenset({"component", "face_up", "locked"}),
    "token": frozenset(
        {
            "component",
            "picture",
            "roster",
            "count",
            "scale",
            "thickness",
            "stand_up",
            "numbered",
            "locked",
            "shape",
            "width",
        }
    ),
    "bag": frozenset(
        {
            "component",
            "picture",
            "roster",
            "count",
            "scale",
            "thickness",
            "locked",
            "contents",
            "tint",
            "order",
        }
    ),  # fmt: skip
    "infinite_bag": frozenset(
        {"component", "picture", "roster", "scale", "thickness", "locked", "contents"}
    ),
    "tile": frozenset(
        {
            "component",
            "picture",
            "count",
            "width",
            "thickness",
            "numbered",
            "locked",
            "back",
        }
    ),  # fmt: skip
    "board": frozenset({"component", "picture", "width", "thickness", "locked", "back"}),
    "track": frozenset({"track", "width", "thickness"}),
    "die": frozenset({"component", "picture", "count", "scale", "numbered", "step"}),
    "zone": frozenset({"size"}),
}
_OPTIONAL_KEYS = frozenset().union(*_KEYS.values())


def _keys_not_for(kind: str) -> Iterator[str]:
    yield from sorted(_OPTIONAL_KEYS - _KEYS[kind])


def _check_step(
    raw: dict[str, Any], path: str, pieces: dict[str, dict[str, Any]],
    known: _Known, rosters: dict[str, Any], players: tuple[int, int],
) -> None:  # fmt: skip
    low, high = players
    step = step_of(raw)
    source = pieces.get(step.deal)
    if source is None:
        raise FieldError(f"{path}.deal", f"unknown piece {step.deal!r} "
                         f"(pieces: {', '.join(sorted(pieces))})")  # fmt: skip
    if source["kind"] not in SOURCES:
        raise FieldError(f"{path}.deal", f"{step.deal!r} is a {source['kind']}; setup deals "
                         f"from a {', '.join(SOURCES)}")  # fmt: skip
    if isinstance(at_of(source["at"]), SeatSpot):
        raise FieldError(f"{path}.deal", f"{step.deal!r} lies at every seat; deal from a "
                         "shared piece")  # fmt: skip
    if "roster" in source and source["kind"] == "infinite_bag":
        raise FieldError(f"{path}.deal", f"{step.deal!r} is a bag per roster entry; deal "
                         "from one bag")  # fmt: skip
    if step.to is None and source["kind"] != "deck":
        raise FieldError(f"{path}.to", "only cards go to a hand; put tokens at a seat spot")
    if isinstance(step.to, TrackCell):
        raise FieldError(f"{path}.to.track", "setup deals to a spot, not along a track")
    if step.to is not None:
        _check_at(step.to, f"{path}.to", known)
    elif step.spread is not None:
        raise FieldError(f"{path}.spread", "a hand lays its cards out itself; spread is for spots")
    if not isinstance(step.count, int):
        seen: dict[int, int] = {}
        for i, (counts, _n) in enumerate(step.count):
            for j, n in enumerate(counts):
                if n in seen:
                    raise FieldError(f"{path}.count[{i}].players[{j}]", f"{n} players listed twice")
                seen[n] = i
        for n in range(low, high + 1):
            if n not in seen and n in (step.players or range(low, high + 1)):
                raise FieldError(f"{path}.count", f"no entry for {n} players")


def _check_supply(
    step: dict[str, Any], path: str, source: dict[str, Any], rosters: dict[str, Any],
    players: tuple[int, int], taken: dict[tuple[str, int], int],
) -> None:  # fmt: skip
    """Every player count's deals so far fit in the deck or bag (an infinite bag never ends)."""
    if source["kind"] == "infinite_bag":
        return
    have = (deck_size(source, rosters) if source["kind"] == "deck"
            else object_count(source, rosters))  # fmt: skip
    for n in range(players[0], players[1] + 1):
        need = taken.get((source["id"], n), 0) + step_count(step, n) * n
        taken[(source["id"], n)] = need
        if need > have:
            raise FieldError(f"{path}.count", f"{n} players need {need} from {source['id']!r}, "
                             f"which holds {have}")  # fmt: skip


def _check_script(script: dict[str, Any], path: str, manifest: dict[str, Any]) -> None:
    """The pieces and anchors ``script`` names are the manifest's."""
    for name, value in script.get("guids", {}).items():
        _check_guids(guids_of(value), f"{path}.guids.{name}", pieces_by_id(manifest))
    for name in script.get("seats", {}):
        if any(not isinstance(s, dict) or name not in s for s in manifest["seats"]):
            raise FieldError(f"{path}.seats.{name}", f"not a point every seat names: {name!r}")
    anchors = manifest.get("anchors", {})
    for name, point in script.get("positions", {}).items():
        if point["anchor"] not in anchors:
            listed = ", ".join(sorted(anchors)) or "none"
            raise FieldError(
                f"{path}.positions.{name}.anchor",
                f"unknown anchor {point['anchor']!r} (the manifest's anchors: {listed})",
            )


def _check_guids(entry: Guids, path: str, pieces: dict[str, dict[str, Any]]) -> None:
    """The pieces one ``script.guids`` entry names are laid, at every seat for a ``by_seat``
    form."""
    if entry.listed:
        named = [(f"{path}[{i}]", piece) for i, piece in enumerate(entry.pieces)]
    else:
        named = [(path, entry.pieces[0])]
    for where, piece in named:
        if piece not in pieces:
            listed = ", ".join(sorted(pieces))
            raise FieldError(where, f"unknown piece {piece!r} (pieces: {listed})")
    at = at_of(pieces[entry.pieces[0]]["at"])
    if entry.form in ("by_seat", "first_by_seat") and not isinstance(at, SeatSpot):
        raise FieldError(
            path,
            f"{entry.pieces[0]!r} is not laid at every seat (its at names no seat or seat_track)",
        )


def _guids_of(manifest: dict[str, Any], entry: Guids, guids: dict[str, list[str]]) -> Any:
    """One ``script.guids`` entry's GUIDs."""
    laid = next((guids[p] for p in entry.pieces if guids.get(p)), [])
    if entry.form == "all":
        return laid
    if entry.form == "first":
        return (laid or [""])[0]
    if entry.form == "numbered":
        return {str(k): guid for k, guid in enumerate(laid, start=1)}
    colours = seat_colors(manifest)  # a piece at every seat lays as many at each, in seat order
    per = len(laid) // len(colours)
    seats = {c: laid[i * per : (i + 1) * per] for i, c in enumerate(colours)}
    if entry.form == "first_by_seat":
        return {c: own[0] for c, own in seats.items() if own}
    return seats


def script_context(manifest: dict[str, Any], guids: dict[str, list[str]]) -> dict[str, Any]:
    """The manifest's ``script`` as the scripts' template context: ``guids`` (each name's
    GUIDs, first GUID, or the GUIDs of the first of its pieces laid; ``[]`` or ``""`` for a
    piece this build leaves off; or its GUIDs by seat or number: :class:`~.model.Guids`),
    ``positions`` (each anchor as ``[x, y, z]``) and, when it names seat points, ``seats``
    (:func:`~.layout.seat_context` with those points at their heights). ``guids`` are the
    laid table's (:attr:`Table.guids`)."""
    script = manifest.get("script", {})
    named = {
        name: _guids_of(manifest, guids_of(value), guids)
        for name, value in script.get("guids", {}).items()
    }
    anchors = manifest.get("anchors", {})
    points = {
        name: [float(anchors[at["anchor"]][0]), float(at["y"]), float(anchors[at["anchor"]][1])]
        for name, at in script.get("positions", {}).items()
    }
    found = {"guids": named, "positions": points}
    if "seats" in script:
        found["seats"] = seat_context(manifest, {k: float(y) for k, y in script["seats"].items()})
    return found
