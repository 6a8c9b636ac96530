"""The table as TTS lays it out: sizes, heights, orientation and local/world/image mapping.

One model, pure and typed, used by the builders (to place objects), the save checker (to check
them), the emulator and the table picture. Every fact names its source and confidence from
``shared/tts/GEOMETRY.md``: **[src]** a source says so, **[inf N]** inferred from N real objects,
**[guess]**. Where a fact is unknown the functions say so (``None`` or :class:`Unmeasured`)
instead of guessing, so callers choose the design that works either way.

Conventions (GEOMETRY.md "Notation"): ``world = pos + R_y(rotY)·(scale ⊙ local)`` with
``x' = x·cosθ + z·sinθ`` and ``z' = −x·sinθ + z·cosθ``; image ``(u, v)`` run 0..1 from the
top-left corner. Only the yaw (rotY) is modelled: flat objects lie at rotX/rotZ 0 or 180 (face
down), which flips the picture but not the footprint.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]

#: Height of the Table_RPG top: 21 global snap points of S:wskca [inf 21]; Table_Custom and
#: Table_Glass rest unlocked tiles at ≈0.96 (BUYN, CANT) [inf].
TABLE_TOP_Y = 0.96
#: Inferred table extents, half-width in x and z (GEOMETRY §6) [inf].
TABLE_EXTENTS: Mapping[str, Vec2] = {"Table_RPG": (27.0, 17.0), "Table_Custom": (50.0, 34.0)}
#: A portrait card of a 400×560 cell at scale 1, x × z (TI4 CARD_SIZE 2×3, SCED width 2.3,
#: S:wskca slots 2.37-2.47 apart, an importer's 3.03) [inf/guess].
PORTRAIT_CARD: Vec2 = (2.2, 3.05)
#: Side of a d6 at scale 1 [inf 4].
D6_SIDE = 0.66
#: A Custom_Board's top surface, as a fraction of scaleY above its origin (snap points on 3
#: boards and a PDF resting at 2.597) [inf 4].
BOARD_TOP_PER_SCALE_Y = 0.592
#: No card is narrower than this (TI4 ``CARD_SIZE`` x = 2): a lower bound for the unmeasured
#: square cards, good enough to prove that two of them overlap [guess].
CARD_MIN_SIDE = 2.0
#: A card's thickness is not in the sources; it only matters for "at the same level" [guess].
CARD_THICKNESS = 0.02
#: Rotations closer than this (degrees) count as equal (Table_RPG's Blue hand sits at 179.8).
ANGLE_TOLERANCE = 1.0

TILE_NAMES = frozenset({"Custom_Tile", "Custom_Tile_Stack"})
TOKEN_NAMES = frozenset({"Custom_Token", "Custom_Token_Stack"})
CARD_NAMES = frozenset({"Card", "CardCustom"})
DECK_NAMES = frozenset({"Deck", "DeckCustom"})
ZONE_NAMES = frozenset({"ScriptingTrigger", "HandTrigger", "FogOfWarTrigger", "RandomizeTrigger"})
D6_NAMES = frozenset({"Die_6", "Die_6_Rounded"})


def table_extent(save: Mapping[str, Any]) -> Vec2 | None:
    """The inferred half-extent (x, z) of the save's ``Table``, None where not measured."""
    table = save.get("Table")
    return TABLE_EXTENTS.get(table) if isinstance(table, str) else None


def name_of(obj: Mapping[str, Any]) -> str:
    """An object's ``Name``, or "" when it is not a string."""
    name = obj.get("Name")
    return name if isinstance(name, str) else ""


class GeometryError(ValueError):
    """An object whose geometry cannot be read; the message names its GUID and field."""


class Unmeasured(GeometryError):
    """A size the sources do not establish: choose another object type or measure it in TTS."""


# --- transforms ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Transform:
    """Position, rotation (degrees) and scale of an object, as a save's ``Transform`` holds them."""

    pos: Vec3 = (0.0, 0.0, 0.0)
    rot: Vec3 = (0.0, 0.0, 0.0)
    scale: Vec3 = (1.0, 1.0, 1.0)

    @property
    def rot_y(self) -> float:
        """The yaw in 0..360."""
        return self.rot[1] % 360.0

    @property
    def face_down(self) -> bool:
        """Flipped over (rotZ or rotX near 180): the back shows (tts-deckconverter, [inf])."""
        return _near(self.rot[2], 180.0) != _near(self.rot[0], 180.0)

    def as_save(self) -> dict[str, float]:
        """The save's ``Transform`` dict (posX..scaleZ, floats)."""
        keys = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
        return dict(zip(keys, (float(v) for v in (*self.pos, *self.rot, *self.scale)), strict=True))

    @classmethod
    def of(cls, obj: Mapping[str, Any]) -> Transform:
        """The Transform of a save object; :class:`GeometryError` naming its GUID if unreadable."""
        guid = obj.get("GUID", "?")
        raw = obj.get("Transform")
        if not isinstance(raw, Mapping):
            raise GeometryError(f"object {guid}: Transform missing")
        values = []
        for key in (
            "posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ",
        ):  # fmt: skip
            value = raw.get(key)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise GeometryError(f"object {guid}: Transform.{key} is not a number")
            if not math.isfinite(value):
                raise GeometryError(f"object {guid}: Transform.{key} is {value}")
            values.append(float(value))
        if any(v == 0.0 for v in values[6:]):
            raise GeometryError(f"object {guid}: Transform has a zero scale")
        return cls(tuple(values[0:3]), tuple(values[3:6]), tuple(values[6:9]))  # type: ignore[arg-type]


def _near(a: float, b: float, tol: float = ANGLE_TOLERANCE) -> bool:
    """Angles ``a`` and ``b`` (degrees) within ``tol`` of each other, modulo 360."""
    return abs((a - b + 180.0) % 360.0 - 180.0) <= tol


def rotate_y(x: float, z: float, rot_y: float) -> Vec2:
    """(x, z) turned by ``rot_y`` degrees the way TTS turns objects (GEOMETRY "Notation")."""
    t = math.radians(rot_y)
    c, s = math.cos(t), math.sin(t)
    return x * c + z * s, -x * s + z * c


def seat_relative(base: Sequence[float], facing: float, right: float, forward: float) -> Vec3:
    """The point ``right`` of and ``forward`` (toward the table centre) from ``base`` (x, y, z),
    for the seat whose HandTrigger has rotY ``facing``: the offset turned as TTS turns objects."""
    dx, dz = rotate_y(right, forward, facing)
    return float(base[0]) + dx, float(base[1]), float(base[2]) + dz


def world_of_local(t: Transform, local: Sequence[float]) -> Vec3:
    """World point of an object-local point: scaled, then turned, then moved [src: API
    ``positionToWorld`` "takes the Object's scale into account"; inf 20 for snap points]."""
    lx, ly, lz = (float(v) for v in local)
    sx, sy, sz = t.scale
    wx, wz = rotate_y(lx * sx, lz * sz, t.rot_y)
    return t.pos[0] + wx, t.pos[1] + ly * sy, t.pos[2] + wz


def local_of_world(t: Transform, world: Sequence[float]) -> Vec3:
    """The inverse of :func:`world_of_local` (API ``positionToLocal``)."""
    wx, wy, wz = (float(v) for v in world)
    dx, dz = rotate_y(wx - t.pos[0], wz - t.pos[2], -t.rot_y)
    sx, sy, sz = t.scale
    return dx / sx, (wy - t.pos[1]) / sy, dz / sz


def world_of_snap_point(t: Transform, point: Mapping[str, Any]) -> Vec3:
    """World position of one of an object's ``AttachedSnapPoints``: local·scale, then rotated
    (CANT: 18 points within 0.047 of the tile centres, exact y; S:buyn45) [inf 20]."""
    p = point["Position"]
    return world_of_local(t, (p["x"], p["y"], p["z"]))


def world_of_button(t: Transform, position: Sequence[float]) -> Vec3:
    """World point of a button at ``position`` (``createButton``): local x is mirrored (CANT
    "We have to invert the X-axis", SCED ``-1 *`` x) [inf 2 mods]."""
    x, y, z = (float(v) for v in position)
    return world_of_local(t, (-x, y, z))


def button_of_world(t: Transform, world: Sequence[float]) -> Vec3:
    """The ``createButton`` position that puts a button at ``world`` (the inverse of above)."""
    x, y, z = local_of_world(t, world)
    return -x, y, z


# --- orientation --------------------------------------------------------------------------------


def reader_rot_y(hand_rot_y: float) -> float:
    """The rotY at which a printed object reads upright for the seat whose HandTrigger has
    ``hand_rot_y``: hand + 180 (CANT 28 tiles, ARK 29, SCED mats; TTS lays hand cards so,
    S:lazzz) [inf many]."""
    return (float(hand_rot_y) + 180.0) % 360.0


def faces(obj_rot_y: float, hand_rot_y: float) -> bool:
    """Whether a printed object at ``obj_rot_y`` reads upright for that seat."""
    return _near(obj_rot_y, reader_rot_y(hand_rot_y))


def text_rotation(hand_rot_y: float) -> Vec3:
    """Rotation of a flat 3DText readable from that seat: (90, hand rotY, 0) (CANT, S:wskca)
    [inf 25]."""
    return 90.0, float(hand_rot_y) % 360.0, 0.0


# --- image <-> local ----------------------------------------------------------------------------


def local_of_uv(u: float, v: float, aspect: float) -> Vec2:
    """Local (x, z) at scale 1 of image point (u, v) on a Stretch Custom_Tile of aspect W/H:
    the image's top at local −z, its left at +x, so x = a(1−2u), z = 2v−1 (CANT sideboard
    ``63370c`` and punchboard print) [inf 18+]."""
    return aspect * (1.0 - 2.0 * u), 2.0 * v - 1.0


def uv_of_local(x: float, z: float, aspect: float) -> Vec2:
    """Image (u, v) of local (x, z) at scale 1: u = (a−x)/2a, v = (z+1)/2 (inverse of above)."""
    return (aspect - x) / (2.0 * aspect), (z + 1.0) / 2.0


def world_of_uv(t: Transform, aspect: float, u: float, v: float, local_y: float = 0.0) -> Vec3:
    """World point of image point (u, v) of a Stretch Custom_Tile with Transform ``t``."""
    x, z = local_of_uv(u, v, aspect)
    return world_of_local(t, (x, local_y, z))


def uv_of_world(t: Transform, aspect: float, world: Sequence[float]) -> Vec2:
    """Image (u, v) under a world point, for a Stretch Custom_Tile with Transform ``t``."""
    x, _y, z = local_of_world(t, world)
    return uv_of_local(x, z, aspect)


def tile_transform_for(
    centre: Sequence[float], size: Vec2, aspect: float, rot_y: float, y: float = TABLE_TOP_Y
) -> Transform:
    """The Transform of a Stretch Custom_Tile of image aspect W/H covering ``size`` (x × z,
    world units along the image's width and height) centred on ``centre`` (x, z)."""
    width, height = size
    return Transform(
        (float(centre[0]), float(y), float(centre[1])),
        (0.0, float(rot_y) % 360.0, 0.0),
        (width / (2.0 * aspect), 1.0, height / 2.0),
    )


# --- sizes and heights --------------------------------------------------------------------------


def square_card_size() -> Vec2:
    """Square card cells: "square or rectangular, depending on dimensions of card sheet" (KB
    ``custom-deck.md``) but the size is not established; landscape cells are bigger than a
    turned portrait card (shoggoth PR 212). Always raises :class:`Unmeasured`: use a
    Custom_Tile (size from its scale) instead."""
    raise Unmeasured("square card size is not established; use a Stretch Custom_Tile")


def card_size(cell_aspect: float | None = None) -> Vec2:
    """A card's x × z at scale 1. Portrait (cell W/H < 0.9, or unknown): :data:`PORTRAIT_CARD`
    [inf/guess]; square or landscape cells: :class:`Unmeasured` (see :func:`square_card_size`)."""
    if cell_aspect is None or cell_aspect < 0.9:
        return PORTRAIT_CARD
    return square_card_size()


def tile_size(aspect: float, stretch: bool = True) -> Vec2:
    """A Custom_Tile's x × z at scale 1: 2·(W/H) × 2 with Stretch (CANT ``player_blue_english``
    1796×596, snap points at ±2.0 ↔ printed squares at u ±0.332 ⇒ width 6.03) [inf 5];
    without Stretch probably a 2×2 square (authors compensate with scale, S:buyn1) [inf 4]."""
    return (2.0 * aspect, 2.0) if stretch else (2.0, 2.0)


def image_aspect(size: Sequence[int] | None) -> float | None:
    """W/H of an image size (width, height) in pixels; None when unknown."""
    if not size:
        return None
    width, height = size
    return float(width) / float(height) if height else None


def thickness(obj: Mapping[str, Any]) -> float | None:
    """``CustomTile``/``CustomToken`` Thickness (in-game units, "about an inch", KB [src])."""
    image = obj.get("CustomImage")
    if not isinstance(image, Mapping):
        return None
    for block in ("CustomTile", "CustomToken"):
        entry = image.get(block)
        if isinstance(entry, Mapping) and isinstance(entry.get("Thickness"), int | float):
            return float(entry["Thickness"])
    return None


def stretch(obj: Mapping[str, Any]) -> bool:
    """A Custom_Tile's ``CustomTile.Stretch`` (default true, as the builders write it)."""
    image = obj.get("CustomImage")
    tile = image.get("CustomTile") if isinstance(image, Mapping) else None
    return bool(tile.get("Stretch", True)) if isinstance(tile, Mapping) else True


def base_size(obj: Mapping[str, Any], aspect: float | None = None) -> Vec2 | None:
    """The x × z footprint at scale 1 of a save object, or None where it is not established.

    ``aspect`` is the W/H of the object's image (tile) or card cell (card, deck); the save does
    not hold pixel sizes. Custom_Token, Custom_Board, bags and models: None (not established).
    """
    name = name_of(obj)
    if name in TILE_NAMES:
        if aspect is None:
            return None
        return tile_size(aspect, stretch(obj))
    if name in CARD_NAMES or name in DECK_NAMES:
        try:
            return card_size(aspect)
        except Unmeasured:
            return None
    if name in D6_NAMES or (name == "Custom_Dice" and _die_type(obj) == 1):
        return D6_SIDE, D6_SIDE
    return None


def _die_type(obj: Mapping[str, Any]) -> int | None:
    image = obj.get("CustomImage")
    dice = image.get("CustomDice") if isinstance(image, Mapping) else None
    return dice.get("Type") if isinstance(dice, Mapping) else None


def height(obj: Mapping[str, Any]) -> float | None:
    """How tall a resting object is above its origin, or None where not established.

    Tiles and tokens: Thickness·scaleY, origin at the bottom face (stacks step by exactly the
    thickness, BUYN/CANT) [inf 30+]; boards: 0.592·scaleY [inf 4]; cards: a guessed sliver;
    a deck of n cards n slivers; d6: its side, origin at its centre (so half below).
    """
    name = name_of(obj)
    t = Transform.of(obj)
    if name in TILE_NAMES or name in TOKEN_NAMES:
        th = thickness(obj)
        number = obj.get("Number") if isinstance(obj.get("Number"), int) else 1
        return None if th is None else th * t.scale[1] * max(1, number)
    if name == "Custom_Board":
        return BOARD_TOP_PER_SCALE_Y * t.scale[1]
    if name in CARD_NAMES:
        return CARD_THICKNESS * t.scale[1]
    if name in DECK_NAMES:
        cards = obj.get("ContainedObjects")
        return CARD_THICKNESS * t.scale[1] * (len(cards) if isinstance(cards, list) else 1)
    return None


def bottom_y(obj: Mapping[str, Any]) -> float:
    """World height of an object's lowest point; dice have their origin at their centre
    [guess], everything else at its bottom face [inf 30+]."""
    t = Transform.of(obj)
    size = base_size(obj)
    if name_of(obj) in D6_NAMES or name_of(obj) == "Custom_Dice":
        side = (size or (D6_SIDE, D6_SIDE))[0] * t.scale[1]
        return t.pos[1] - side / 2.0
    return t.pos[1]


def top_y(obj: Mapping[str, Any]) -> float | None:
    """World height of an object's top surface: tile top = posY + Thickness·scaleY [inf 30+];
    board top = posY + 0.592·scaleY [inf 4]; None where not established."""
    h = height(obj)
    return None if h is None else Transform.of(obj).pos[1] + h


def snap_height(obj: Mapping[str, Any]) -> float | None:
    """The local y a tile's snap points sit at: its Thickness (CANT, S:buyn45) [inf]."""
    return thickness(obj) if name_of(obj) in TILE_NAMES else None


# --- rectangles ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rect:
    """An oriented rectangle on the table: centre (x, z), full size (x × z), yaw in degrees."""

    centre: Vec2
    size: Vec2
    rot_y: float = 0.0

    def corners(self) -> list[Vec2]:
        """The four corners in world (x, z), in order around the rectangle."""
        hx, hz = self.size[0] / 2.0, self.size[1] / 2.0
        out = []
        for lx, lz in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz)):
            dx, dz = rotate_y(lx, lz, self.rot_y)
            out.append((self.centre[0] + dx, self.centre[1] + dz))
        return out

    def contains(self, point: Sequence[float], margin: float = 0.0) -> bool:
        """Whether world (x, z) lies inside, tested in the rectangle's own frame."""
        dx, dz = rotate_y(point[0] - self.centre[0], point[1] - self.centre[1], -self.rot_y)
        return abs(dx) <= self.size[0] / 2 + margin and abs(dz) <= self.size[1] / 2 + margin


def footprint(obj: Mapping[str, Any], aspect: float | None = None) -> Rect | None:
    """The world rectangle a resting object covers (scale and yaw applied), None if unknown."""
    size = base_size(obj, aspect)
    if size is None:
        return None
    t = Transform.of(obj)
    return Rect((t.pos[0], t.pos[2]), (size[0] * abs(t.scale[0]), size[1] * abs(t.scale[2])),
                t.rot_y)  # fmt: skip


def least_footprint(obj: Mapping[str, Any], aspect: float | None = None) -> Rect | None:
    """:func:`footprint`, or for cards of unmeasured (square, landscape) cells the least square
    they surely cover (:data:`CARD_MIN_SIDE`), so overlaps can still be proved."""
    rect = footprint(obj, aspect)
    if rect is None and (name_of(obj) in CARD_NAMES or name_of(obj) in DECK_NAMES):
        t = Transform.of(obj)
        side = CARD_MIN_SIDE
        rect = Rect((t.pos[0], t.pos[2]), (side * abs(t.scale[0]), side * abs(t.scale[2])),
                    t.rot_y)  # fmt: skip
    return rect


def _axes(rect: Rect) -> list[Vec2]:
    c = rect.corners()
    return [(c[1][0] - c[0][0], c[1][1] - c[0][1]), (c[3][0] - c[0][0], c[3][1] - c[0][1])]


def overlap_depth(a: Rect, b: Rect) -> float:
    """How far two rectangles interpenetrate along their best separating axis (≤ 0: apart or
    touching). Separating-axis test over the four edge normals."""
    depth = math.inf
    for axis in _axes(a) + _axes(b):
        length = math.hypot(*axis)
        if length == 0.0:
            continue
        nx, nz = axis[0] / length, axis[1] / length
        pa = [x * nx + z * nz for x, z in a.corners()]
        pb = [x * nx + z * nz for x, z in b.corners()]
        depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
    return depth


def rects_overlap(a: Rect, b: Rect, tolerance: float = 1e-6) -> bool:
    """Whether two oriented rectangles interpenetrate by more than ``tolerance``."""
    return overlap_depth(a, b) > tolerance


def inside_extent(rect: Rect, extent: Vec2) -> bool:
    """Whether every corner of ``rect`` lies within |x| ≤ extent[0], |z| ≤ extent[1]."""
    return all(abs(x) <= extent[0] and abs(z) <= extent[1] for x, z in rect.corners())


# --- zones --------------------------------------------------------------------------------------


def zone_contains(zone: Transform, point: Sequence[float]) -> bool:
    """Whether a ScriptingTrigger/HandTrigger box holds a world point (x, y, z): the box is the
    Transform's scale about its position, tested in its own rotated frame, height included
    (zone Transforms in real saves carry rotY 90/180/270 and non-uniform scale) [inf]."""
    dx, dz = rotate_y(point[0] - zone.pos[0], point[2] - zone.pos[2], -zone.rot_y)
    dy = point[1] - zone.pos[1]
    sx, sy, sz = (abs(s) / 2.0 for s in zone.scale)
    return abs(dx) <= sx and abs(dy) <= sy and abs(dz) <= sz


def zone_rect(zone: Transform) -> Rect:
    """The zone's box seen from above."""
    return Rect((zone.pos[0], zone.pos[2]), (abs(zone.scale[0]), abs(zone.scale[2])), zone.rot_y)


# --- seats --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A seat: its colour and the Transform of its (first) HandTrigger (KB zone-tools [src])."""

    color: str
    hand: Transform

    @property
    def reader_rot_y(self) -> float:
        """The rotY printed objects take to read upright here."""
        return reader_rot_y(self.hand.rot_y)


def seats_of(objects: Iterable[Mapping[str, Any]]) -> dict[str, Seat]:
    """The seats of a save: the first HandTrigger of each colour decides where it sits [src];
    one whose Transform cannot be read is left out."""
    seats: dict[str, Seat] = {}
    for obj in objects:
        color = obj.get("FogColor")
        if name_of(obj) == "HandTrigger" and isinstance(color, str) and color not in seats:
            try:
                seats[color] = Seat(color, Transform.of(obj))
            except GeometryError:
                continue  # an unreadable hand zone seats nobody
    return seats


def seat_facing(seats: Mapping[str, Seat], rot_y: float) -> str | None:
    """The colour of a seat an object at ``rot_y`` reads upright for (first in ``seats``)."""
    for color, seat in seats.items():
        if faces(rot_y, seat.hand.rot_y):
            return color
    return None


# --- where the scripts put things ---------------------------------------------------------------


@dataclass(frozen=True)
class ScriptPosition:
    """A table position a script uses, and what it means there.

    ``at`` is the world point the script moves or spawns something to; ``size`` (x × z, at
    ``rot_y``) the footprint of what goes there, if known. On a printed board, ``board`` is the
    board's GUID and ``cell_uv`` where its picture prints the cell the script means, with
    ``tolerance_uv`` the half-size of that cell in image units: the checker maps ``at`` through
    the board's Transform and the model and expects to land inside the cell.

    A game's ``assemble`` lists them in ``GameBuild.positions``; ``build`` checks them
    (``save.geometry_checks.check_positions``) and the table picture marks them.
    """

    label: str
    at: Vec3
    board: str | None = None
    cell_uv: Vec2 | None = None
    tolerance_uv: Vec2 = (0.0, 0.0)
    size: Vec2 = (0.0, 0.0)
    rot_y: float = 0.0
    kind: str = ""

    def rect(self) -> Rect:
        """What the script puts here, seen from above."""
        return Rect((self.at[0], self.at[2]), self.size, self.rot_y)
