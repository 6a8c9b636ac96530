"""The table manifest's keys (``table:`` in ``game.yaml``): each key's spec, which checks a
value (every problem in one run) and says it in JSON Schema (a YAML editor's completion);
what the specs cannot say alone is :mod:`.checks`'.

A manifest says which pieces lie on the table, how many, with which tags and notes,
and where: at a named anchor (plus an offset), at every seat (in the seat's own frame: x to
the seat's right, z towards the table's middle), or at a table point. Its ``setup`` steps say
what the Setup button deals or hands out to each seated player, by player count.
"""

from __future__ import annotations

from typing import Any

from ..errors import FieldError, Problems
from ..gamekit.specs import by_player_count
from ..plugin import TableHooks
from ..save.tables import HAND_PLACEMENTS, SEAT_COLORS
from ..schema import (
    Bool,
    Custom,
    Int,
    JsonSchema,
    ListOf,
    Map,
    MappingOf,
    Num,
    OneOf,
    Point,
    Str,
)
from .derived import (
    ROSTERS,
    WHEN,
    derived_rosters,
    either,
    number_or_key,
)
from .model import (
    GUID_FORMS,
)
from .track import TRACK

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


def _scalar(value: Any, path: str) -> None:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise FieldError(path, f"expected text or a number, got {type(value).__name__}")


def _notes(value: Any, path: str) -> None:
    """GM notes: text, or a mapping written as JSON (text values may print {fields})."""
    if isinstance(value, dict):
        problems = Problems()
        for key, item in value.items():
            problems.run(Str().check, key, f"{path}.{key}")
            problems.run(_scalar, item, f"{path}.{key}")
        problems.raise_any()
    else:
        Str().check(value, path)


_TEXT_OR_NUMBER: JsonSchema = {"anyOf": [{"type": "string", "minLength": 1}, {"type": "number"}]}
NOTES = either(
    _notes,
    Str(),
    {"type": "object", "additionalProperties": _TEXT_OR_NUMBER},
    doc="GM notes: text, or a mapping written as JSON (text values may print {fields}).",
)
#: The forms of an ``at`` (a step's ``to``, a snap point's ``at``): :mod:`.model`'s places.
AT_FORMS: dict[str, Map] = {
    "seat_point": Map({"seat": ID}),
    "seat": Map({"seat": Point(2)}),
    "track": Map({"track": ID, "cell": Int(0, 9999)}, frozenset({"cell"})),
    "seat_track": Map({"seat_track": ID}),
    "area": Map({"area": ID}),
    "anchor": Map({"anchor": ID, "offset": Point(2)}, frozenset({"offset"})),
}


def _position(value: Any, path: str) -> None:
    """``[x, z]`` on the table, ``{anchor, offset}``, ``{track: NAME}`` (``cell: K``: its
    point K only), ``{seat: [dx, dz]}`` or ``{seat: NAME}`` (a point every seat names),
    ``{seat_track: NAME}`` (each seat's own track) or ``{area: NAME}`` (a zone covering it)."""
    if isinstance(value, list):
        Point(2).check(value, path)
        return
    if not isinstance(value, dict):
        raise FieldError(path, "expected [x, z], {anchor: NAME, offset: [dx, dz]}, "
                         "{track: NAME}, {seat: [dx, dz]} or {seat: NAME}, got "
                         f"{type(value).__name__}")  # fmt: skip
    if "seat" in value:
        form = "seat_point" if isinstance(value["seat"], str) else "seat"
    else:
        form = next((k for k in ("track", "seat_track", "area") if k in value), "anchor")
    AT_FORMS[form].check(value, path)


_AT_DOC = "Where it lies: a point [x, z], an anchor, a seat spot or a track cell."
POSITION = either(_position, Point(2), *AT_FORMS.values(), doc=_AT_DOC)
#: A setup step's ``to``: ``hand`` or a place.
TO = either(
    lambda v, p: None if v == "hand" else _position(v, p),
    {"const": "hand"},
    POSITION,
    doc="hand, or a place (" + _AT_DOC[:-1].lower() + ").",
)


def _count(value: Any, path: str) -> None:
    """A count, or a list of ``{players: [n...], count: k}`` (one entry per player count)."""
    if isinstance(value, list):
        by_player_count({"count": Int(0, 99)}).check(value, path)
    else:
        Int(0, 99).check(value, path)


COUNT = either(_count, Int(0, 99), by_player_count({"count": Int(0, 99)}))
#: Sizes in TTS units a piece may have (docs/game-definition.md, the manifest reference):
#: a width (a shaped token's 0.1 to 20, a tile's, board's or track's 0.5 to 60: checked by
#: kind), a zone's size, a token's scale and a piece's thickness.
WIDTH = Num(0.1, 60)
SHAPED_WIDTH = Num(0.1, 20)
BOARD_WIDTH = Num(0.5, 60)
ZONE_SIDE = Num(0.1, 100)
SCALE = Num(0.05, 10)
THICKNESS = Num(0.01, 5)

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
        "width": WIDTH,
        "size": ListOf(ZONE_SIDE, 2, 2),
        "scale": SCALE,
        "thickness": THICKNESS,
        "stand_up": Bool(),
        "numbered": Bool(),
        "tags": TAGS,
        "notes": NOTES,
        "shape": OneOf(tuple(SHAPES)),
        "contents": Map(
            {"name": Str(), "tags": TAGS, "notes": NOTES, "shape": OneOf(tuple(SHAPES)),
             "width": SHAPED_WIDTH, "thickness": THICKNESS, "description": Str(),
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
        "to": TO,
        "spread": Point(2),
        "face_up": Bool(),
        "players": ListOf(PLAYER_COUNT, 1),
    },
    frozenset({"spread", "face_up", "players"}),
)

#: The forms of a ``script.guids`` entry besides a piece id and a list of them.
GUID_ENTRY_FORMS = {form: Map({form: ID}) for form in GUID_FORMS}


def _script_guids(value: Any, path: str) -> None:
    """A piece id (its GUIDs), ``[ID, ...]`` (the GUIDs of the first of those pieces the build
    lays), ``{<form>: ID}`` (its first GUID, its GUIDs by seat or by number:
    :data:`~.model.GUID_FORMS`)."""
    if isinstance(value, list):
        ListOf(ID, 1).check(value, path)
    elif isinstance(value, dict):
        GUID_ENTRY_FORMS[next((k for k in GUID_FORMS if k in value), "first")].check(value, path)
    else:
        ID.check(value, path)


#: A ``script.guids`` entry, and a ``script.positions`` entry (an anchor lifted to ``y``).
SCRIPT_GUIDS = either(
    _script_guids,
    ID,
    ListOf(ID, 1),
    *GUID_ENTRY_FORMS.values(),
    doc="A piece id, a list of them (the first laid), or {first|by_seat|first_by_seat|"
    "numbered: ID}.",
)
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
    problems = Problems()
    problems.run(OneOf(SEAT_COLORS).check, value["color"], f"{path}.color")
    if "facing" in value:
        problems.run(Num().check, value["facing"], f"{path}.facing")
    for key, point in value.items():
        if key not in ("color", "facing"):
            problems.run(ID.check, key, f"{path}.{key}")
            problems.run(Point(2).check, point, f"{path}.{key}")
    problems.raise_any()


SEAT = either(
    _seat,
    OneOf(SEAT_COLORS),
    {
        "type": "object",
        "properties": {"color": OneOf(SEAT_COLORS).json_schema(), "facing": {"type": "number"}},
        "required": ["color"],
        "propertyNames": ID.json_schema(),
        "additionalProperties": Point(2).json_schema(),
    },
    doc="A seat colour, or {color, facing?, <point name>: [x, z]...}.",
)


def _anchors(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, "expected a mapping of anchor name -> [x, z]")
    problems = Problems()
    for name, point in value.items():
        problems.run(ID.check, name, f"{path}.{name}")
        problems.run(Point(2).check, point, f"{path}.{name}")
    problems.raise_any()


ANCHORS = Custom(
    _anchors,
    json={
        "type": "object",
        "propertyNames": ID.json_schema(),
        "additionalProperties": Point(2).json_schema(),
        "description": "anchor name -> [x, z]",
    },
)

MANIFEST = Map(
    {
        "type": OneOf(TABLES),
        "sky": SKIES,
        "seats": ListOf(SEAT, 1, 10),
        "anchors": ANCHORS,
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
        "script": SCRIPT,
    },
    frozenset({"anchors", "setup", "score", "snap_points", "script", "rosters", "thumbnail"}),
)


def deck_entries(piece: dict[str, Any], rosters: dict[str, Any]) -> list[dict[str, Any]]:
    """A deck's distinct card faces in order: its roster's entries."""
    return list(rosters[piece["roster"]])


def deck_size(piece: dict[str, Any], rosters: dict[str, Any]) -> int:
    """How many cards a deck holds."""
    return len(deck_entries(piece, rosters)) * piece.get("copies", 1)


def rosters_of(data: dict[str, Any], hooks: TableHooks | None = None, key: str = "table"
               ) -> dict[str, Any]:  # fmt: skip
    """The definition's rosters, those the manifest ``data[key]`` makes from its lists
    (:func:`~.derived.derived_rosters`) and those the game derives (:class:`TableHooks`)."""
    made = derived_rosters(data, key) if key in data else {}
    return {**data.get("rosters", {}), **made, **(hooks.rosters if hooks else {})}
