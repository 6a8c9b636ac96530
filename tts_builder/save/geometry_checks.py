"""Geometry checks of a save: the table as TTS lays it out (GEOMETRY.md "Checks"), via
:mod:`tts_builder.geometry` (longer than 500 lines: one check per rule of GEOMETRY.md's list,
read together over the same boxes, seats and spatial index).

Findings have level ``geo``: the save loads, but would not play as the script means it. A check
that needs a fact the save does not hold (an image's pixel size, where the script puts things)
takes it as an argument: ``image_size(url)`` gives (width, height) or None when unknown, and
raises ``FileNotFoundError`` for a local image that is missing; ``positions`` lists the table
positions the scripts use (:class:`~tts_builder.geometry.ScriptPosition`).
"""

from __future__ import annotations

import math
import os
import re
import stat
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tts_builder import geometry as geo
from tts_builder.save.findings import Finding
from tts_builder.save.spatial import BoxGrid, overlapping_pairs
from tts_builder.save.tables import SEAT_COLORS

ImageSize = Callable[[str], "tuple[int, int] | None"]

#: Objects with a printed face whose rotation decides who reads it.
PRINTED_NAMES = (
    geo.TILE_NAMES | geo.TOKEN_NAMES | geo.CARD_NAMES | geo.DECK_NAMES | {"Custom_Board"}
)
#: Objects whose thickness must come from ``Thickness``, not from scaleY (GEOMETRY §2, §9).
FLAT_NAMES = geo.TILE_NAMES | geo.TOKEN_NAMES | {"Custom_Board"}
#: What the model knows the shape of: the checks of placement look at these only.
MODELLED_NAMES = PRINTED_NAMES | geo.D6_NAMES | {"Custom_Dice"}
HEIGHT_TOLERANCE = 0.01
_COLOR_RE = re.compile(r"[\"'](" + "|".join(SEAT_COLORS) + r")[\"']")
_URL_RE = re.compile(r"(?:file:///|https?://)[^\"'\s\]\)]+")
#: URLs in a script that name an image: a picture file or a Steam Cloud upload.
_IMAGE_URL_RE = re.compile(
    r"(?:file:///|https?://)[^\"'\s\]\)]+?(?:\.(?:png|jpe?g|gif|webp|bmp)|/ugc/[^\"'\s]+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Placed:
    """A top-level object that stands on the table, with what the model knows of it."""

    index: int
    obj: Mapping[str, Any]
    t: geo.Transform
    rect: geo.Rect | None
    bottom: float
    top: float | None

    @property
    def path(self) -> str:
        return f"ObjectStates[{self.index}]"

    @property
    def who(self) -> str:
        nick = self.obj.get("Nickname")
        return f"{self.obj.get('GUID', '?')}" + (f" ({nick})" if nick else "")


class _Out:
    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def __call__(self, path: str, message: str) -> None:
        self.findings.append(Finding("geo", path, message))


# --- facts about the save -----------------------------------------------------------------------


def script_texts(save: Mapping[str, Any]) -> list[str]:
    """Every Lua script of the save: Global, then the objects' (contained ones included)."""
    texts = [save.get("LuaScript") or ""]
    stack = deque(_list(save.get("ObjectStates")))
    while stack:
        obj = stack.popleft()
        if isinstance(obj, dict):
            texts.append(obj.get("LuaScript") or "")
            stack.extend(_list(obj.get("ContainedObjects")))
    return [t for t in texts if isinstance(t, str) and t]


@lru_cache(maxsize=64)
def _colors_in(text: str) -> frozenset[str]:
    return frozenset(m.group(1) for m in _COLOR_RE.finditer(text))


@lru_cache(maxsize=64)
def _image_urls_in(text: str) -> tuple[str, ...]:
    return tuple(sorted(set(_IMAGE_URL_RE.findall(text))))


def script_colors(save: Mapping[str, Any]) -> list[str]:
    """Seat colours the scripts name as string literals, in TTS colour order."""
    named = frozenset().union(*(_colors_in(text) for text in script_texts(save)))
    return [c for c in SEAT_COLORS if c in named]


def aspect_of(obj: Mapping[str, Any], image_size: ImageSize | None) -> float | None:
    """W/H of a tile's image or of a card's (deck's) cell, when ``image_size`` knows it."""
    if image_size is None:
        return None
    name = geo.name_of(obj)
    if name in geo.TILE_NAMES:
        image = obj.get("CustomImage")
        url = image.get("ImageURL") if isinstance(image, dict) else None
        return geo.image_aspect(image_size(url)) if isinstance(url, str) and url else None
    if name in geo.CARD_NAMES or name in geo.DECK_NAMES:
        card = obj
        if name in geo.DECK_NAMES:
            cards = obj.get("ContainedObjects")
            card = (
                cards[0] if isinstance(cards, list) and cards and isinstance(cards[0], dict) else {}
            )
        decks, card_id = obj.get("CustomDeck"), card.get("CardID")
        entry = None
        if isinstance(decks, dict) and isinstance(card_id, int):
            entry = decks.get(str(card_id // 100))
        if not isinstance(entry, dict) or not isinstance(entry.get("FaceURL"), str):
            return None
        size = image_size(entry["FaceURL"])
        across, down = entry.get("NumWidth"), entry.get("NumHeight")
        if size is None or not isinstance(across, int) or not isinstance(down, int):
            return None
        return (size[0] / max(across, 1)) / (size[1] / max(down, 1))
    return None


def _card_measured(aspect: float | None) -> bool:
    try:
        geo.card_size(aspect)
    except geo.Unmeasured:
        return False
    return True


def _placed(save: Mapping[str, Any], image_size: ImageSize | None, out: _Out) -> list[_Placed]:
    found = []
    for i, obj in enumerate(_list(save.get("ObjectStates"))):
        if not isinstance(obj, dict) or geo.name_of(obj) not in MODELLED_NAMES:
            continue
        path = f"ObjectStates[{i}]"
        try:
            t = geo.Transform.of(obj)
        except geo.GeometryError as err:
            out(path, str(err))
            continue
        try:
            aspect = aspect_of(obj, image_size)
        except FileNotFoundError as err:
            out(path, f"object {obj.get('GUID', '?')}: image not found: {err}")
            aspect = None
        if geo.name_of(obj) in geo.CARD_NAMES | geo.DECK_NAMES and not _card_measured(aspect):
            out(path, f"object {obj.get('GUID')}: square or landscape card cells have no "
                "established size (GEOMETRY §2); use a Stretch Custom_Tile")  # fmt: skip
        found.append(_Placed(i, obj, t, geo.least_footprint(obj, aspect), geo.bottom_y(obj),
                             geo.top_y(obj)))  # fmt: skip
    return found


# --- the checks ---------------------------------------------------------------------------------


def check_seats(save: Mapping[str, Any], out: _Out) -> None:
    """A HandTrigger for every colour a script seats (KB zone-tools: hand zones are the seats)."""
    objects = [o for o in _list(save.get("ObjectStates")) if isinstance(o, dict)]
    for i, obj in enumerate(_list(save.get("ObjectStates"))):
        if isinstance(obj, dict) and geo.name_of(obj) == "HandTrigger":
            try:
                geo.Transform.of(obj)
            except geo.GeometryError as err:
                out(f"ObjectStates[{i}]", f"{err}: this hand zone seats nobody")
    hands = set(geo.seats_of(objects))
    missing = [c for c in script_colors(save) if c not in hands]
    if missing:
        out("ObjectStates", f"the scripts seat {', '.join(missing)} but the save has no "
            "HandTrigger for them (no seat, so no player can sit there)")  # fmt: skip


#: How much nearer than a rule's tolerance two bounding boxes' overlap must be for
#: :func:`_pairs_that_may_overlap` to skip the pair (rounding of the exact test aside).
_BOX_MARGIN = 1e-9
#: The most pairs of boxes a check compares (about a second): far more than a real table
#: needs (5,000 cards in 50 stacks: about 250,000), far fewer than a save with every object
#: on one spot would (13,000 objects: 84 million); past it the check says it did not run.
MAX_PAIR_TESTS = 1_000_000
#: The most interpenetrating pairs listed (13,000 tiles each touching the next list 13,000);
#: past it one finding says the rest are not.
MAX_INTERPENETRATIONS = 100_000


def _box(rect: geo.Rect) -> list[tuple[float, float]]:
    """The (x, z) bounding box of a rectangle: an interval per axis."""
    corners = rect.corners()
    xs, zs = [c[0] for c in corners], [c[1] for c in corners]
    return [(min(xs), max(xs)), (min(zs), max(zs))]


def _pairs_that_may_overlap(
    items: Sequence[Any], rect: Callable[[Any], geo.Rect], tolerance: float
) -> Iterator[tuple[Any, Any]]:
    """The pairs of ``items`` (in ``combinations`` order) whose rectangles' bounding boxes
    overlap by more than ``tolerance`` on both axes: any other pair cannot have
    ``rects_overlap(a, b, tolerance)``, since how deep two convex shapes interpenetrate (the
    least overlap along any direction, which the separating-axis test finds) is at most their
    overlap along x or z. Skipping them saves the exact test for most pairs of a table."""
    boxes = [_box(rect(item)) for item in items]
    for i, j in overlapping_pairs(boxes, tolerance - _BOX_MARGIN) or ():
        yield items[i], items[j]


def check_interpenetration(placed: Sequence[_Placed], out: _Out) -> None:
    """No two resting objects overlap in plan and in height at load (stacks and decks are one
    object each; containers and zones aside)."""
    footed = [p for p in placed if p.rect is not None]
    # plan boxes, and heights widened so that "at the same level" overlaps too
    boxes = [
        [*_box(p.rect), (p.bottom - HEIGHT_TOLERANCE, _top(p) + HEIGHT_TOLERANCE)]
        for p in footed
        if p.rect is not None
    ]
    pairs = overlapping_pairs(boxes, 1e-3 - _BOX_MARGIN, MAX_PAIR_TESTS)
    if pairs is None:
        out("ObjectStates", f"objects crowd one another on every axis (more than "
            f"{MAX_PAIR_TESTS:,} pairs to compare): interpenetration not checked")  # fmt: skip
        return
    listed = 0
    for i, j in pairs:
        a, b = footed[i], footed[j]
        assert a.rect is not None and b.rect is not None
        vertical = min(_top(a), _top(b)) - max(a.bottom, b.bottom)
        same_level = abs(a.bottom - b.bottom) < HEIGHT_TOLERANCE
        if (vertical > 1e-3 or same_level) and geo.rects_overlap(a.rect, b.rect, 1e-3):
            if listed == MAX_INTERPENETRATIONS:
                out("ObjectStates", f"more than {MAX_INTERPENETRATIONS:,} pairs of objects "
                    "interpenetrate; the others are not listed")  # fmt: skip
                return
            listed += 1
            depth = geo.overlap_depth(a.rect, b.rect)
            out(a.path, f"object {a.who} interpenetrates {b.who} at load "
                f"(footprints overlap by {depth:.2f})")  # fmt: skip


def _top(p: _Placed) -> float:
    """The object's top, or its bottom where its height is not known."""
    return p.top if p.top is not None else p.bottom


def _hand_zones(save: Mapping[str, Any]) -> list[geo.Transform]:
    """The readable HandTrigger boxes of a save."""
    zones = []
    for obj in _list(save.get("ObjectStates")):
        if isinstance(obj, dict) and geo.name_of(obj) == "HandTrigger":
            try:
                zones.append(geo.Transform.of(obj))
            except geo.GeometryError:
                continue  # check_seats reports it
    return zones


def check_on_table(save: Mapping[str, Any], placed: Sequence[_Placed], out: _Out) -> None:
    """Everything rests on or above the table top, and inside the table's extent (§6); what
    lies in a hand zone is held in that hand (the zones stand off the table's edge), not on it."""
    extent = geo.table_extent(save)
    hands = _hand_zones(save)
    zones = BoxGrid([_box(geo.zone_rect(hand)) for hand in hands], budget=MAX_PAIR_TESTS)
    for p in placed:
        near = zones.holding(p.t.pos[0], p.t.pos[2])
        if near is None:
            out("ObjectStates", f"too many hand zones over too many objects (more than "
                f"{MAX_PAIR_TESTS:,} pairs to compare): the table's edge not checked")  # fmt: skip
            return
        if any(geo.zone_contains(hands[k], p.t.pos) for k in near):
            continue
        if p.bottom < geo.TABLE_TOP_Y - HEIGHT_TOLERANCE:
            out(p.path, f"object {p.who} lies below the table top "
                f"(bottom {p.bottom:.3f} < {geo.TABLE_TOP_Y})")  # fmt: skip
        if extent is None:
            continue
        rect = p.rect or geo.Rect((p.t.pos[0], p.t.pos[2]), (0.0, 0.0))
        if not geo.inside_extent(rect, extent):
            out(p.path, f"object {p.who} reaches off the table (|x| ≤ {extent[0]:g}, "
                f"|z| ≤ {extent[1]:g})")  # fmt: skip


def check_scale_y(placed: Sequence[_Placed], out: _Out) -> None:
    """Tiles, tokens and boards at scaleY 1: their thickness is ``Thickness`` (GEOMETRY §9)."""
    for p in placed:
        if geo.name_of(p.obj) in FLAT_NAMES and abs(p.t.scale[1] - 1.0) > 1e-6:
            out(p.path, f"object {p.who} has scaleY {p.t.scale[1]:g}; keep 1 and set the "
                "thickness through Thickness")  # fmt: skip


def owner_of(obj: Mapping[str, Any]) -> str | None:
    """The seat colour an object belongs to: a colour named in its Nickname or Tags."""
    words = set(re.findall(r"[A-Za-z]+", str(obj.get("Nickname") or "")))
    words |= {t for t in _list(obj.get("Tags")) if isinstance(t, str)}
    owners = [c for c in SEAT_COLORS if c in words]
    return owners[0] if len(owners) == 1 else None


def check_orientation(save: Mapping[str, Any], placed: Sequence[_Placed], out: _Out) -> None:
    """Printed objects read upright for a seat (rotY = hand rotY + 180): a seat's own pieces
    for that seat, shared ones for any seat. Face-down cards and decks show no print."""
    seats = geo.seats_of(o for o in _list(save.get("ObjectStates")) if isinstance(o, dict))
    if not seats:
        return  # check_seats reports the missing seats
    wanted = ", ".join(map(str, sorted({round(s.reader_rot_y) % 360 for s in seats.values()})))
    read_at = _SeatAngles(seats)
    for p in placed:
        if geo.name_of(p.obj) not in PRINTED_NAMES or p.t.face_down:
            continue
        owner = owner_of(p.obj)
        if owner in seats:
            if not geo.faces(p.t.rot_y, seats[owner].hand.rot_y):
                want = seats[owner].reader_rot_y
                out(p.path, f"object {p.who} belongs to {owner} but lies at rotY "
                    f"{p.t.rot_y:g}; {owner} reads it upright at {want:g}")  # fmt: skip
            continue
        if not read_at.any_reads(p.t.rot_y):
            out(p.path, f"object {p.who} at rotY {p.t.rot_y:g} reads upright for no seat "
                f"(seats read at {wanted})")  # fmt: skip


class _SeatAngles:
    """Whether any seat reads a printed object upright (``geo.seat_facing`` is not None),
    asked through the seats' reading angles sorted: a save of thousands of seats costs the
    few near the object's angle, not all of them."""

    #: Wider than ``geo.ANGLE_TOLERANCE``: the exact test decides on the seats in the window.
    WINDOW = geo.ANGLE_TOLERANCE + 1e-6

    def __init__(self, seats: Mapping[str, geo.Seat]) -> None:
        self.seats = sorted((seat.reader_rot_y % 360.0, seat.hand.rot_y) for seat in seats.values())
        self.angles = [angle for angle, _ in self.seats]
        self.known: dict[float, bool] = {}

    def any_reads(self, rot_y: float) -> bool:
        if rot_y not in self.known:
            self.known[rot_y] = any(
                geo.faces(rot_y, self.seats[k][1])
                for centre in (rot_y - 360.0, rot_y, rot_y + 360.0)
                for k in range(bisect_left(self.angles, centre - self.WINDOW),
                               bisect_right(self.angles, centre + self.WINDOW))
            )  # fmt: skip
        return self.known[rot_y]


def check_snap_points(save: Mapping[str, Any], placed: Sequence[_Placed], out: _Out) -> None:
    """Snap points sit on a surface: attached ones at y = Thickness inside their tile, global
    ones on the table top or on a tile's top beneath them (GEOMETRY "Checks" 5)."""
    tiles = [p for p in placed if geo.name_of(p.obj) in geo.TILE_NAMES]
    for p in tiles:
        th = geo.snap_height(p.obj)
        for j, point in enumerate(_list(p.obj.get("AttachedSnapPoints"))):
            local = _point(point)
            if local is None or th is None:
                continue  # check_save reports a malformed snap point
            where = f"{p.path}.AttachedSnapPoints[{j}]"
            if abs(local[1] - th) > HEIGHT_TOLERANCE:
                out(where, f"object {p.who}: snap point at local y {local[1]:g}, not at the "
                    f"tile's Thickness {th:g}")  # fmt: skip
            world = geo.world_of_local(p.t, local)
            if p.rect is not None and not p.rect.contains((world[0], world[2]), 1e-3):
                out(where, f"object {p.who}: snap point lies off the tile")
    tops = [p for p in tiles if p.top is not None and p.rect is not None]
    grid = BoxGrid([_box(p.rect) for p in tops if p.rect is not None], budget=MAX_PAIR_TESTS)
    for j, point in enumerate(_list(save.get("SnapPoints"))):
        found = _point(point)
        if found is None:
            continue
        x, y, z = found
        under = grid.holding(x, z)
        if under is None:
            out("SnapPoints", f"too many tiles under too many snap points (more than "
                f"{MAX_PAIR_TESTS:,} pairs to compare): the rest not checked")  # fmt: skip
            return
        surfaces = [geo.TABLE_TOP_Y] + [
            top for k in under if (top := tops[k].top) is not None
            and (rect := tops[k].rect) is not None and rect.contains((x, z))
        ]  # fmt: skip
        if all(abs(y - s) > HEIGHT_TOLERANCE for s in surfaces):
            out(f"SnapPoints[{j}]", f"snap point at y {y:g} sits on no surface "
                f"(surfaces here: {', '.join(f'{s:.3f}' for s in surfaces)})")  # fmt: skip


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _point(point: object) -> geo.Vec3 | None:
    """A snap point's finite Position (x, y, z), or None when malformed."""
    pos = point.get("Position") if isinstance(point, dict) else None
    if not isinstance(pos, dict):
        return None
    values = [pos.get(k) for k in "xyz"]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    x, y, z = (float(v) for v in values)  # type: ignore[arg-type]
    return (x, y, z) if all(map(math.isfinite, (x, y, z))) else None


def check_script_images(save: Mapping[str, Any], out: _Out) -> None:
    """Images a script spawns also appear outside the scripts, where TTS's asset tools (Cloud
    Manager upload, Workshop) and ``publish`` find them."""
    listed = set(_urls_outside_scripts(save))
    for text in script_texts(save):
        for url in _image_urls_in(text):
            if url not in listed:
                out("LuaScript", f"a script spawns image {url} that no object or "
                    "CustomUIAssets lists; asset tools will not see it")  # fmt: skip


def _urls_outside_scripts(value: object) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("LuaScript", "LuaScriptState", "XmlUI"):
                continue
            if isinstance(item, str) and _URL_RE.fullmatch(item):
                yield item
            else:
                yield from _urls_outside_scripts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _urls_outside_scripts(item)


def check_positions(
    save: Mapping[str, Any],
    positions: Sequence[geo.ScriptPosition],
    image_size: ImageSize | None,
    out: _Out,
) -> None:
    """Every position a script uses lies on the table, and on a printed board maps through the
    model onto the printed cell it means (and not inside the board)."""
    sized = [p for p in positions if p.size[0] > 0 and p.size[1] > 0]
    rects = {id(p): p.rect() for p in sized}
    for a, b in _pairs_that_may_overlap(sized, lambda p: rects[id(p)], 1e-3):
        if geo.rects_overlap(rects[id(a)], rects[id(b)], 1e-3):
            out("LuaScript", f"positions {a.label!r} and {b.label!r} overlap: what the script "
                "puts there interpenetrates")  # fmt: skip
    by_guid = {o["GUID"]: o for o in _list(save.get("ObjectStates"))
               if isinstance(o, dict) and isinstance(o.get("GUID"), str)}  # fmt: skip
    boards: dict[str, tuple[geo.Transform, float | None, float | None] | str] = {}
    for guid in {p.board for p in positions if p.board is not None}:
        board = by_guid.get(guid)
        if board is None:
            boards[guid] = f"board {guid} is not on the table"
            continue
        try:
            boards[guid] = (geo.Transform.of(board), aspect_of(board, image_size),
                            geo.top_y(board))  # fmt: skip
        except (geo.GeometryError, FileNotFoundError) as err:
            boards[guid] = f"board {guid}: {err}"
    extent = geo.table_extent(save)
    for spot in positions:
        where = f"position {spot.label!r}"
        if extent is not None and not geo.inside_extent(spot.rect(), extent):
            out("LuaScript", f"{where} at ({spot.at[0]:g}, {spot.at[2]:g}) is off the table")
        if spot.board is None or spot.cell_uv is None:
            continue
        board = boards[spot.board]
        if isinstance(board, str):
            out("LuaScript", f"{where}: {board}")
            continue
        t, aspect, top = board
        if aspect is None:
            continue  # the image's size is unknown here
        u, v = geo.uv_of_world(t, aspect, spot.at)
        eu, ev = spot.cell_uv
        du, dv = spot.tolerance_uv
        if abs(u - eu) > du or abs(v - ev) > dv:
            out("LuaScript", f"{where} maps to image ({u:.3f}, {v:.3f}) of board {spot.board}, "
                f"but its printed cell is at ({eu:.3f}, {ev:.3f})")  # fmt: skip
        if top is not None and spot.at[1] < top - HEIGHT_TOLERANCE:
            out("LuaScript", f"{where} at y {spot.at[1]:g} lies inside board {spot.board} "
                f"(its top is {top:.3f})")  # fmt: skip


def check_geometry(
    save: Mapping[str, Any],
    image_size: ImageSize | None = None,
    positions: Sequence[geo.ScriptPosition] = (),
) -> list[Finding]:
    """Every geometry check on a parsed save; ``geo`` findings, one line each."""
    out = _Out()
    if not isinstance(save, dict) or not isinstance(save.get("ObjectStates"), list):
        return out.findings  # check_save reports the broken structure
    placed = _placed(save, _remembered(image_size), out)
    check_seats(save, out)
    check_interpenetration(placed, out)
    check_on_table(save, placed, out)
    check_scale_y(placed, out)
    check_orientation(save, placed, out)
    check_snap_points(save, placed, out)
    check_script_images(save, out)
    check_positions(save, positions, image_size, out)
    return out.findings


def _remembered(image_size: ImageSize | None) -> ImageSize | None:
    """``image_size`` asked once per URL (13,000 cards of one sheet open it once); a missing
    image is missing every time it is asked."""
    if image_size is None:
        return None
    known: dict[str, tuple[int, int] | None | FileNotFoundError] = {}

    def size(url: str) -> tuple[int, int] | None:
        if url not in known:
            try:
                known[url] = image_size(url)
            except FileNotFoundError as err:
                known[url] = err
        found = known[url]
        if isinstance(found, FileNotFoundError):
            raise FileNotFoundError(*found.args)
        return found

    return size


def image_size_from_files(files: Mapping[str, bytes]) -> ImageSize:
    """``image_size`` for a build in memory: a URL's ``images/<name>`` looked up in ``files``."""
    from io import BytesIO

    from PIL import Image

    known: dict[str, tuple[int, int] | None] = {}

    def size(url: str) -> tuple[int, int] | None:
        name = url.rsplit("/", 1)[-1]
        if name not in known:
            data = files.get(f"images/{name}")
            if data is None:
                known[name] = None
            else:
                with Image.open(BytesIO(data)) as image:
                    known[name] = image.size
        return known[name]

    return size


def image_size_from_disk(url: str) -> tuple[int, int] | None:
    """``image_size`` for a save on disk: ``file:///`` images are read (FileNotFoundError when
    missing); remote ones, and anything but a regular file, are unknown."""
    from urllib.parse import unquote, urlparse

    from PIL import Image, UnidentifiedImageError

    if not url.startswith("file:///"):
        return None
    path = unquote(urlparse(url).path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a FIFO would block, a device never end: never opened
        with Image.open(path) as image:  # reads the header: the size, not the pixels
            return image.size
    except FileNotFoundError:
        raise FileNotFoundError(path) from None
    except (OSError, UnidentifiedImageError, ValueError, Image.DecompressionBombError):
        return None  # unreadable, a path with NUL, or past Pillow's pixel limit: size unknown
