"""A top-down picture of a save as TTS lays it out, drawn through :mod:`tts_builder.geometry`.

Every object's image is drawn at its footprint, position and rotation (image (u, v) ↔ local ↔
world both ways), so a board the script reads wrongly looks wrong here too. The White side
(−z) is at the bottom, +x to the right. Seats (HandTriggers) are tinted and labelled, scripting
zones outlined, snap points dotted and the positions the scripts use marked in orange. Sizes the
sources do not establish (tokens, Custom_Board) are drawn at a guess with a dashed magenta
outline. A piece belongs to a seat when its GMNotes name the colour, when its Nickname does
(a pattern such as "<colour> worker" that only seat colours fill), or when it lies in that seat's
hand or in a zone named so: it is outlined in the seat's colour. Pawns (small compact pieces,
:data:`PAWN_UNITS`) are drawn at their footprint over a marker of at least
:data:`MIN_MARKER_PX`, in the owner's colour (else the image's), labelled, above the script
positions. After Setup, a seat nobody sits at is marked empty and what still lies there is
dimmed. Pure: a save, an image lookup and positions in, a PIL image out.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageStat

from tts_builder import geometry as geo
from tts_builder.errors import BuildError
from tts_builder.render.fonts import font
from tts_builder.save.tables import PLAYER_COLORS

ImageLookup = Callable[[str], "Image.Image | None"]

PX_PER_UNIT = 24
MARGIN = 2.0
BACKGROUND = (46, 46, 52)
TABLE = (132, 98, 66)
TABLE_EDGE = (92, 66, 44)
ZONE = (255, 255, 255)
SNAP = (20, 230, 230)
POSITION = (255, 150, 0)
GUESSED = (230, 0, 200)
INK = (250, 250, 250)
#: What covers a piece that lies at an empty seat after Setup.
DIMMED = (*BACKGROUND, 160)
#: A compact piece (its long side at most twice its short side) shorter than this (in table
#: units) is a pawn: drawn over a marker, labelled, above the script positions. A worker or
#: a chip is; a card (2.2 long) or a divider plank (8:1) is not.
PAWN_UNITS = 1.25
#: The least drawn size of a pawn's marker, whatever its footprint.
MIN_MARKER_PX = 16
#: Drawn size of a Custom_Token of scale 1 along its image's longer side (hexmap's assumption;
#: not established, GEOMETRY §2) [guess].
TOKEN_LONG_SIDE = 2.0
BAG_SIDE = 2.0
BAG_NAMES = frozenset({"Bag", "Infinite_Bag", "Custom_Model_Bag"})
#: Objects drawn from their images.
IMAGED_NAMES = (
    geo.TILE_NAMES
    | geo.TOKEN_NAMES
    | geo.CARD_NAMES
    | geo.DECK_NAMES
    | {
        "Custom_Board",
        "Custom_Dice",
    }
)


def _text(obj: Mapping[str, Any], key: str, default: str = "") -> str:
    """A string field, or ``default`` when it is missing, empty or not a string."""
    value = obj.get(key)
    return value if isinstance(value, str) and value else default


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    """``value`` if it is a list, else an empty one (malformed saves never raise)."""
    return value if isinstance(value, list) else []


@dataclass(frozen=True)
class View:
    """The part of the table drawn: world x0..x1, z0..z1, at ``k`` pixels per unit."""

    x0: float
    z0: float
    x1: float
    z1: float
    k: float = PX_PER_UNIT

    @property
    def size(self) -> tuple[int, int]:
        return round((self.x1 - self.x0) * self.k), round((self.z1 - self.z0) * self.k)

    def px(self, x: float, z: float) -> tuple[float, float]:
        """Picture pixel of world (x, z)."""
        return (x - self.x0) * self.k, (self.z1 - z) * self.k

    def world(self, px: float, py: float) -> tuple[float, float]:
        """World (x, z) of a picture pixel."""
        return self.x0 + px / self.k, self.z1 - py / self.k


def table_view(
    save: Mapping[str, Any], positions: Sequence[geo.ScriptPosition] = (), k: float = PX_PER_UNIT
) -> View:
    """The part of the table a picture shows: the table, the seats, the objects and positions."""
    half_x, half_z = geo.table_extent(save) or (27.0, 17.0)
    xs, zs = [-half_x, half_x], [-half_z, half_z]
    for obj in _list(save.get("ObjectStates")):
        try:
            t = geo.Transform.of(obj)
        except geo.GeometryError:
            continue
        if geo.name_of(obj) == "HandTrigger" or abs(t.pos[0]) < 80 and abs(t.pos[2]) < 80:
            rect = geo.zone_rect(t) if geo.name_of(obj) in geo.ZONE_NAMES else None
            corners = rect.corners() if rect else [(t.pos[0], t.pos[2])]
            xs += [c[0] for c in corners]
            zs += [c[1] for c in corners]
    xs += [p.at[0] for p in positions]
    zs += [p.at[2] for p in positions]
    return View(min(xs) - MARGIN, min(zs) - MARGIN, max(xs) + MARGIN, max(zs) + MARGIN, k)


# --- images of objects --------------------------------------------------------------------------


@dataclass(frozen=True)
class Region:
    """What an object shows: the ``box`` of the image at ``url`` (None: all of it). ``sheet``
    is that image as looked up, decoded only when its pixels are first needed."""

    url: str
    sheet: Image.Image
    box: tuple[int, int, int, int] | None = None

    @property
    def width(self) -> int:
        return self.sheet.width if self.box is None else self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.sheet.height if self.box is None else self.box[3] - self.box[1]

    def image(self) -> Image.Image:
        """The region's pixels, RGBA."""
        part = self.sheet if self.box is None else self.sheet.crop(self.box)
        return part if part.mode == "RGBA" else part.convert("RGBA")


def shrink(region: Region, size: tuple[int, int]) -> Image.Image:
    """``region`` resampled to ``size`` (Lanczos), as every picture draws an image smaller."""
    return region.image().resize(size, Image.Resampling.LANCZOS)


def _cell(sheet: Image.Image, entry: Mapping[str, Any], index: int) -> tuple[int, int, int, int]:
    across, down = int(entry.get("NumWidth", 1)), int(entry.get("NumHeight", 1))
    w, h = sheet.width / across, sheet.height / down
    col, row = index % across, index // across
    return round(col * w), round(row * h), round((col + 1) * w), round((row + 1) * h)


def _card_image(card: Mapping[str, Any], images: ImageLookup, face_down: bool) -> Region:
    """The face (or back) of a card: its cell of the sheet, or the whole back image."""
    card_id = card.get("CardID")
    decks = _dict(card.get("CustomDeck"))
    entry = decks.get(str(card_id // 100)) if isinstance(card_id, int) else None
    if not isinstance(entry, Mapping):
        raise _Missing(card, "CustomDeck entry")
    url = entry.get("BackURL" if face_down else "FaceURL", "")
    sheet = images(url)
    if sheet is None:
        raise _Missing(card, url)
    if face_down and not entry.get("UniqueBack"):
        return Region(url, sheet)
    return Region(url, sheet, _cell(sheet, entry, card_id % 100))


class _Missing(Exception):
    def __init__(self, obj: Mapping[str, Any], what: str) -> None:
        super().__init__(f"object {obj.get('GUID', '?')}: image not found: {what}")


def _face(obj: Mapping[str, Any], images: ImageLookup) -> tuple[Region, geo.Vec2, bool]:
    """The picture an object shows from above, its x × z size at scale 1, and whether that size
    is a guess."""
    name = geo.name_of(obj)
    t = geo.Transform.of(obj)
    if name in geo.CARD_NAMES or name in geo.DECK_NAMES:
        contained = [c for c in _list(obj.get("ContainedObjects")) if isinstance(c, dict)]
        top = obj if name in geo.CARD_NAMES or not contained else contained[0]
        image = _card_image(top, images, t.face_down)
        aspect = image.width / image.height
        try:
            return image, geo.card_size(aspect), False
        except geo.Unmeasured:
            side = geo.CARD_MIN_SIDE
            return image, (side * min(1.0, aspect) / min(1.0, 1 / aspect), side), True
    custom = _dict(obj.get("CustomImage"))
    url = custom.get("ImageURL", "")
    sheet = images(url) if url else None
    if sheet is None:
        raise _Missing(obj, url or "ImageURL")
    image = Region(url, sheet)
    aspect = image.width / image.height
    if name in geo.TILE_NAMES:
        return image, geo.tile_size(aspect, geo.stretch(obj)), False
    if name in geo.TOKEN_NAMES:
        long = TOKEN_LONG_SIDE
        return image, ((long, long / aspect) if aspect >= 1 else (long * aspect, long)), True
    if name == "Custom_Board":
        width = custom.get("WidthScale") or aspect
        return image, (15.0 * width, 15.0), True  # ≥15 across (S:buyn45) [inf]
    return image, (geo.D6_SIDE, geo.D6_SIDE), False


def _paste(canvas: Image.Image, view: View, image: Region, t: geo.Transform, size: geo.Vec2,
           mirrored: bool) -> list[tuple[float, float]]:  # fmt: skip
    """Draw ``image`` on the canvas as the object lays it on the table (scaled down to twice its
    drawn size first); its corner pixels."""
    w, d = size
    corners = _footprint(view, t, size)
    bx0 = max(0, math.floor(min(c[0] for c in corners)))
    by0 = max(0, math.floor(min(c[1] for c in corners)))
    bx1 = min(canvas.width, math.ceil(max(c[0] for c in corners)))
    by1 = min(canvas.height, math.ceil(max(c[1] for c in corners)))
    if bx1 <= bx0 or by1 <= by0:
        return corners
    target = max(bx1 - bx0, by1 - by0) * 2
    scale = min(1.0, target / max(image.width, image.height))
    if scale < 1.0:
        source = shrink(
            image, (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        )
    else:
        source = image.image()
    sw, sh = source.size

    def image_px(px: float, py: float) -> tuple[float, float]:
        x, z = view.world(px + bx0, py + by0)
        lx, _ly, lz = geo.local_of_world(t, (x, 0.0, z))
        u = 0.5 + lx / w if mirrored else 0.5 - lx / w
        v = 0.5 + lz / d
        return u * sw, v * sh

    o, ex, ey = image_px(0, 0), image_px(1, 0), image_px(0, 1)
    coeffs = (ex[0] - o[0], ey[0] - o[0], o[0], ex[1] - o[1], ey[1] - o[1], o[1])
    patch = source.transform((bx1 - bx0, by1 - by0), Image.Transform.AFFINE, coeffs,
                             Image.Resampling.BILINEAR)  # fmt: skip
    canvas.alpha_composite(patch, (bx0, by0))
    return corners


def _footprint(view: View, t: geo.Transform, size: geo.Vec2) -> list[tuple[float, float]]:
    """The corner pixels of an object's footprint of ``size`` (at scale 1) as it lies."""
    w, d = size
    corners_world = geo.Rect((t.pos[0], t.pos[2]), (w * abs(t.scale[0]), d * abs(t.scale[2])),
                             t.rot_y).corners()  # fmt: skip
    return [view.px(x, z) for x, z in corners_world]


# --- the picture --------------------------------------------------------------------------------


def _dashed(draw: ImageDraw.ImageDraw, corners: Sequence[tuple[float, float]], fill, width=2):
    for a, b in zip(corners, [*corners[1:], corners[0]], strict=True):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        steps = max(1, int(length // 8))
        for i in range(0, steps, 2):
            p = (a[0] + (b[0] - a[0]) * i / steps, a[1] + (b[1] - a[1]) * i / steps)
            q = (a[0] + (b[0] - a[0]) * (i + 1) / steps, a[1] + (b[1] - a[1]) * (i + 1) / steps)
            draw.line([p, q], fill=fill, width=width)


def _label(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, size: int = 12,
           fill=INK, bold: bool = False) -> None:  # fmt: skip
    draw.text(at, text, font=font(size, bold), fill=fill, anchor="mm", stroke_width=2,
              stroke_fill=(0, 0, 0))  # fmt: skip


def picture_title(data: Mapping[str, Any], variant: str | None = None) -> str:
    """The picture's title: the game's name, and the variant's where the build is one (alone
    when it holds every word of the game's: "Arche Noah Junior - Flood Race")."""
    from tts_builder.variants import variant_title

    base = _text(data, "name", "?")
    if variant is None:
        return base
    name = variant_title(dict(data), variant)[0] or variant
    return name if set(base.lower().split()) <= set(name.lower().split()) else f"{base} — {name}"


def picture_subtitle(folder: str, seated: Sequence[str] | None = None) -> str:
    """The line under the title: the build's folder, and at load or who sat down for Setup."""
    if seated is None:
        return f"{folder}: the table at load"
    return f"{folder}: after Setup, {len(seated)} players ({', '.join(seated)})"


def _note_colour(obj: Mapping[str, Any]) -> str | None:
    """The colour a piece's GMNotes (a JSON object with ``color``) say it belongs to."""
    notes = obj.get("GMNotes")
    if not isinstance(notes, str) or not notes.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(notes)
    except ValueError:
        return None
    colour = data.get("color") if isinstance(data, dict) else None
    return colour if isinstance(colour, str) else None


def _named_colour(text: str) -> tuple[str, str] | None:
    """The one player colour a name holds and the name's pattern without it ("# worker")."""
    found = sorted({w for w in re.findall(r"[A-Za-z]+", text) if w in PLAYER_COLORS})
    if len(found) != 1:
        return None
    return found[0], re.sub(rf"\b{found[0]}\b", "#", text)


def piece_owners(objects: Sequence[Mapping[str, Any]], seats: Collection[str]) -> dict[int, str]:
    """``id(obj)`` → the seat colour each piece belongs to, of those that belong to one.

    GMNotes that name a seat colour decide; else a Nickname pattern that two or more colours
    fill, all of them seats ("Red worker", "Green worker"; not "Green chip" beside "Purple
    chip"); else the seat's hand or a zone named by such a pattern ("Red collection") that
    holds the piece."""
    named = {id(o): _named_colour(_text(o, "Nickname")) for o in objects}
    filled: dict[str, set[str]] = {}
    for found in named.values():
        if found:
            filled.setdefault(found[1], set()).add(found[0])
    per_seat = {p for p, colours in filled.items() if len(colours) > 1 and colours <= set(seats)}
    zones: list[tuple[str, geo.Transform]] = []
    for obj in objects:
        found = named[id(obj)]
        try:
            if geo.name_of(obj) == "HandTrigger" and _text(obj, "FogColor") in seats:
                zones.append((_text(obj, "FogColor"), geo.Transform.of(obj)))
            elif geo.name_of(obj) == "ScriptingTrigger" and found and found[1] in per_seat:
                zones.append((found[0], geo.Transform.of(obj)))
        except geo.GeometryError:
            continue
    owners: dict[int, str] = {}
    for obj in objects:
        if geo.name_of(obj) in geo.ZONE_NAMES:
            continue
        found = named[id(obj)]
        colour = _note_colour(obj)
        if colour not in seats:
            colour = found[0] if found and found[1] in per_seat else None
        if colour is None:
            try:
                pos = geo.Transform.of(obj).pos
            except geo.GeometryError:
                continue
            colour = next((c for c, zone in zones if geo.zone_contains(zone, pos)), None)
        if colour is not None:
            owners[id(obj)] = colour
    return owners


def _circle(centre: tuple[float, float], r: float) -> list[tuple[float, float]]:
    """A circle as a 16-gon (to dim a bag's disc with the pieces' polygons)."""
    return [(centre[0] + r * math.cos(a * math.pi / 8), centre[1] + r * math.sin(a * math.pi / 8))
            for a in range(16)]  # fmt: skip


def _round(obj: Mapping[str, Any]) -> bool:
    """Whether a tile is round (``CustomTile.Type`` 2, a circle)."""
    tile = _dict(_dict(obj.get("CustomImage")).get("CustomTile"))
    return tile.get("Type") == 2


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(round(255 * c) for c in PLAYER_COLORS.get(colour, (0.5, 0.5, 0.5)))  # type: ignore[return-value]


def _mean_colour(image: Image.Image) -> tuple[int, int, int]:
    """The average colour of an image's opaque pixels (a pawn's marker when no seat owns it)."""
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A").point(lambda a: 255 if a > 127 else 0)
    if alpha.getbbox() is None:
        return INK
    mean = ImageStat.Stat(rgba.convert("RGB"), mask=alpha).mean
    return round(mean[0]), round(mean[1]), round(mean[2])


@dataclass(frozen=True)
class _Pawn:
    """A pawn to draw over the script positions: where, its image and footprint if known."""

    obj: Mapping[str, Any]
    t: geo.Transform
    image: Region | None
    size: geo.Vec2 | None
    guessed: bool
    owner: str | None
    key: str


def _is_pawn(name: str, t: geo.Transform, size: geo.Vec2) -> bool:
    if name in geo.CARD_NAMES or name in geo.DECK_NAMES or name == "Custom_Board":
        return False
    sides = sorted((size[0] * abs(t.scale[0]), size[1] * abs(t.scale[2])))
    return sides[1] < PAWN_UNITS and sides[1] <= 2 * sides[0]


def _pawn_key(obj: Mapping[str, Any], owner: str | None) -> str:
    """What a pawn's label calls it: its Nickname (or type) without its owner's colour."""
    name = _text(obj, "Nickname", geo.name_of(obj))
    if owner is not None:
        name = " ".join(re.sub(rf"\b{owner}\b", " ", name).split()) or name
    return name


def _draw_pawn(
    canvas: Image.Image, view: View, pawn: _Pawn, empty: bool,
    means: dict[tuple[str, Any], tuple[int, int, int]] | None = None,
) -> float:  # fmt: skip
    """A pawn: a marker (the owner's colour, else the image's) at least :data:`MIN_MARKER_PX`
    across and 3 px wider than the pawn all round, edged black, its image at its true footprint
    on it; the marker's radius in pixels. ``means``: the mean colours of the images drawn
    already, by URL and region (the pawns of one picture share their images)."""
    cx, cy = view.px(pawn.t.pos[0], pawn.t.pos[2])
    long_px = 0.0
    if pawn.size is not None:
        w, d = pawn.size[0] * abs(pawn.t.scale[0]), pawn.size[1] * abs(pawn.t.scale[2])
        long_px = max(w, d) * view.k if pawn.image is not None else 0.0
    r = max(MIN_MARKER_PX / 2, long_px / 2 + 3)  # a ring of 3 px round a pawn's footprint
    if pawn.owner is not None:
        fill = _rgb(pawn.owner)
    elif pawn.image is not None:
        where = (pawn.image.url, pawn.image.box)
        means = {} if means is None else means
        if where not in means:
            means[where] = _mean_colour(pawn.image.image())
        fill = means[where]
    else:
        fill = INK
    box = [cx - r, cy - r, cx + r, cy + r]
    draw = ImageDraw.Draw(canvas)
    draw.ellipse([cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1], fill=(0, 0, 0))
    draw.ellipse(box, fill=fill)
    if pawn.image is not None and pawn.size is not None:
        mirrored = pawn.t.face_down and geo.name_of(pawn.obj) in geo.CARD_NAMES
        corners = _paste(canvas, view, pawn.image, pawn.t, pawn.size, mirrored)
        draw = ImageDraw.Draw(canvas)
        if pawn.guessed:
            _dashed(draw, corners, GUESSED, 1)
    if empty:
        overlay = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
        ImageDraw.Draw(overlay).ellipse(box, fill=DIMMED)
        _composite(canvas, overlay, [(box[0], box[1]), (box[2], box[3])])
    return r


Label = tuple[tuple[float, float], str]


def _composite(canvas: Image.Image, overlay: Image.Image, points: Sequence[tuple[float, float]]):
    """``overlay`` (canvas-sized, clear but round ``points``) over the canvas: only the box
    round the points (and 4 px more) is composited; a clear pixel leaves the canvas as it was,
    so the result is that of compositing all of it."""
    x0 = max(0, math.floor(min(p[0] for p in points)) - 4)
    y0 = max(0, math.floor(min(p[1] for p in points)) - 4)
    x1 = min(canvas.width, math.ceil(max(p[0] for p in points)) + 5)
    y1 = min(canvas.height, math.ceil(max(p[1] for p in points)) + 5)
    if x1 > x0 and y1 > y0:
        canvas.alpha_composite(overlay, (x0, y0), (x0, y0, x1, y1))


def _pawn_labels(pawns: Sequence[tuple[_Pawn, float]], view: View) -> list[Label]:
    """One label under each cluster of like pawns ("score ×4" for the markers in one cell,
    "Purple chip ×12" for a stack), in the order the pawns are drawn."""
    clusters: list[tuple[str, float, float, list[float]]] = []
    reach = MIN_MARKER_PX * 1.5
    for pawn, r in pawns:
        x, y = view.px(pawn.t.pos[0], pawn.t.pos[2])
        for key, cx, cy, bottoms in clusters:
            if key == pawn.key and math.dist((x, y), (cx, cy)) <= reach:
                bottoms.append(y + r)
                break
        else:
            clusters.append((pawn.key, x, y, [y + r]))
    return [((cx, max(bottoms) + 8), key if len(bottoms) == 1 else f"{key} ×{len(bottoms)}")
            for key, cx, _cy, bottoms in clusters]  # fmt: skip


#: One drawing step of the table layer (everything under the pawns), onto the canvas.
Step = Callable[[Image.Image], None]


def _table_step(view: View, half: geo.Vec2) -> Step:
    box = [view.px(-half[0], half[1]), view.px(half[0], -half[1])]

    def draw(canvas: Image.Image) -> None:
        ImageDraw.Draw(canvas).rectangle(box, fill=TABLE, outline=TABLE_EDGE, width=4)

    return draw


def _hand_step(corners: list[tuple[float, float]], rgb: tuple[int, int, int], empty: bool) -> Step:
    def draw(canvas: Image.Image) -> None:
        overlay = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
        if empty:
            ImageDraw.Draw(overlay).polygon(corners, fill=(*rgb, 30))
            _composite(canvas, overlay, corners)
            _dashed(ImageDraw.Draw(canvas), corners, (*rgb, 255))
        else:
            ImageDraw.Draw(overlay).polygon(corners, fill=(*rgb, 90), outline=(*rgb, 255))
            _composite(canvas, overlay, corners)

    return draw


def _bag_step(centre: tuple[float, float], r: float, owner: str | None) -> Step:
    def draw(canvas: Image.Image) -> None:
        box = [centre[0] - r, centre[1] - r, centre[0] + r, centre[1] + r]
        ink, width = (_rgb(owner), 4) if owner else (INK, 2)
        ImageDraw.Draw(canvas).ellipse(box, fill=(70, 50, 40), outline=ink, width=width)

    return draw


@dataclass(frozen=True)
class _Piece:
    """An object drawn from its image into the table layer (not a pawn)."""

    image: Region
    t: geo.Transform
    size: geo.Vec2
    mirrored: bool
    guessed: bool
    outline: list[tuple[float, float]]
    owner: str | None
    snaps: list[tuple[float, float]]


def _piece_step(view: View, piece: _Piece) -> Step:
    def draw(canvas: Image.Image) -> None:
        corners = _paste(canvas, view, piece.image, piece.t, piece.size, piece.mirrored)
        drawn = ImageDraw.Draw(canvas)
        if piece.guessed:
            _dashed(drawn, corners, GUESSED)
        if piece.owner is not None:
            drawn.polygon(piece.outline, outline=_rgb(piece.owner), width=3)
        for px, py in piece.snaps:
            drawn.ellipse([px - 3, py - 3, px + 3, py + 3], fill=SNAP)

    return draw


def _dim_step(dimmed: list[list[tuple[float, float]]]) -> Step:
    def draw(canvas: Image.Image) -> None:
        overlay = Image.new("RGBA", canvas.size, (0, 0, 0, 0))
        for corners in dimmed:
            ImageDraw.Draw(overlay).polygon(corners, fill=DIMMED)
        _composite(canvas, overlay, [p for corners in dimmed for p in corners])

    return draw


def _marks_step(
    zones: list[list[tuple[float, float]]],
    snaps: list[tuple[float, float]],
    spots: list[tuple[tuple[float, float], list[tuple[float, float]] | None]],
) -> Step:
    """Scripting zones outlined, the save's snap points dotted, script positions crossed."""

    def draw(canvas: Image.Image) -> None:
        drawn = ImageDraw.Draw(canvas)
        for corners in zones:
            drawn.polygon(corners, outline=ZONE, width=2)
        for px, py in snaps:
            drawn.ellipse([px - 3, py - 3, px + 3, py + 3], fill=SNAP)
        for (px, py), rect in spots:
            if rect is not None:
                drawn.polygon(rect, outline=POSITION, width=2)
            drawn.line([(px - 5, py - 5), (px + 5, py + 5)], fill=POSITION, width=2)
            drawn.line([(px - 5, py + 5), (px + 5, py - 5)], fill=POSITION, width=2)

    return draw


def table_picture(
    save: Mapping[str, Any],
    images: ImageLookup,
    positions: Sequence[geo.ScriptPosition] = (),
    title: str = "",
    px_per_unit: float = PX_PER_UNIT,
    subtitle: str = "",
    seated: Sequence[str] | None = None,
) -> Image.Image:
    """The table seen from above (White's side at the bottom), ``title`` (the game's name,
    :func:`picture_title`) and ``subtitle`` on top. ``seated``: the colours that sit after
    Setup (None at load): the other seats are marked empty and the pieces still at them dimmed.
    A missing image or an unreadable Transform is a :class:`BuildError` naming the object's
    GUID."""
    objects = [o for o in _list(save.get("ObjectStates")) if isinstance(o, dict)]
    view = table_view(save, positions, px_per_unit)
    half = geo.table_extent(save) or (27.0, 17.0)
    steps: list[Step] = [_table_step(view, half)]
    try:
        transforms = {id(o): geo.Transform.of(o) for o in objects}
    except geo.GeometryError as err:
        raise BuildError(str(err)) from None
    hands = [o for o in objects if geo.name_of(o) == "HandTrigger"]
    seats = [c for c in dict.fromkeys(_text(h, "FogColor") for h in hands) if c]
    owners = piece_owners(objects, seats)
    empty = set() if seated is None else {c for c in seats if c not in seated}
    for hand in hands:
        rgb = _rgb(_text(hand, "FogColor"))
        corners = [view.px(x, z) for x, z in geo.zone_rect(transforms[id(hand)]).corners()]
        steps.append(_hand_step(corners, rgb, _text(hand, "FogColor") in empty))
    drawn = [o for o in objects if geo.name_of(o) not in geo.ZONE_NAMES]
    drawn.sort(key=lambda o: transforms[id(o)].pos[1])
    labels: list[Label] = []
    pawns: list[_Pawn] = []
    dimmed: list[list[tuple[float, float]]] = []
    for obj in drawn:
        t = transforms[id(obj)]
        name = geo.name_of(obj)
        owner = owners.get(id(obj))
        centre = view.px(t.pos[0], t.pos[2])
        if name in BAG_NAMES:
            r = BAG_SIDE / 2 * view.k
            steps.append(_bag_step(centre, r, owner))
            if owner in empty:
                dimmed.append(_circle(centre, r))
            below = len([1 for b in drawn[: drawn.index(obj)] if geo.name_of(b) in BAG_NAMES])
            labels.append(((centre[0], centre[1] + r + 9 + 14 * (below % 2)),
                           _text(obj, "Nickname", name)))  # fmt: skip
            continue
        if name not in IMAGED_NAMES:  # a figurine or model: its size is not established
            pawns.append(_Pawn(obj, t, None, None, True, owner, _pawn_key(obj, owner)))
            continue
        try:
            image, size, guessed = _face(obj, images)
        except _Missing as err:
            raise BuildError(str(err)) from None
        if _is_pawn(name, t, size):
            pawns.append(_Pawn(obj, t, image, size, guessed, owner, _pawn_key(obj, owner)))
            continue
        mirrored = t.face_down and name in geo.CARD_NAMES | geo.DECK_NAMES
        corners = _footprint(view, t, size)
        outline = _circle(centre, math.dist(corners[0], corners[1]) / 2) if _round(obj) else corners
        points = [geo.world_of_snap_point(t, p) for p in _list(obj.get("AttachedSnapPoints"))]
        snaps = [view.px(x, z) for x, _y, z in points]
        piece = _Piece(image, t, size, mirrored, guessed, outline, owner, snaps)
        steps.append(_piece_step(view, piece))
        if owner in empty:
            dimmed.append(outline)
            labels.append(((centre[0], centre[1]), f"{owner}: empty seat"))
        if name in geo.DECK_NAMES:
            count = len(_list(obj.get("ContainedObjects")))
            labels.append((centre, f"{_text(obj, 'Nickname', 'deck')} ×{count}"))
    if dimmed:
        steps.append(_dim_step(dimmed))
    zone_labels: set[str] = set()
    zones = []
    for obj in objects:
        if geo.name_of(obj) == "ScriptingTrigger":
            rect = geo.zone_rect(transforms[id(obj)])
            zones.append([view.px(x, z) for x, z in rect.corners()])
            labels.append((view.px(*rect.centre), _text(obj, "Nickname", "zone")))
            zone_labels.add(_text(obj, "Nickname", "zone"))
    snap_points = []
    for point in _list(save.get("SnapPoints")):
        pos = point.get("Position") or {}
        snap_points.append(view.px(float(pos.get("x", 0.0)), float(pos.get("z", 0.0))))
    spots = [(view.px(spot.at[0], spot.at[2]), _spot_rect(view, spot)) for spot in positions]
    steps.append(_marks_step(zones, snap_points, spots))
    for spot in _labelled(positions, view):
        if spot.label not in zone_labels:
            px, py = view.px(spot.at[0], spot.at[2])
            labels.append(((px, py + 14), spot.label))
    canvas = Image.new("RGBA", view.size, (*BACKGROUND, 255))
    for step in steps:
        step(canvas)
    means: dict[tuple[str, Any], tuple[int, int, int]] = {}
    drawn_pawns = []
    for pawn in pawns:
        drawn_pawns.append((pawn, _draw_pawn(canvas, view, pawn, pawn.owner in empty, means)))
    draw = ImageDraw.Draw(canvas)
    texts: list[tuple[tuple[float, float], str, int, bool]] = []
    for hand in hands:
        t = transforms[id(hand)]
        colour = _text(hand, "FogColor", "?")
        seat = f"{colour} seat: empty" if colour in empty else f"{colour} seat"
        texts.append((view.px(t.pos[0], t.pos[2]), seat, 18, True))
    for at, text in _spread([*labels, *_pawn_labels(drawn_pawns, view)], draw):
        texts.append((at, text, 12, False))
    if title:
        texts.append(((canvas.width / 2, 14), title, 20, True))
    if subtitle:
        texts.append(((canvas.width / 2, 34), subtitle, 13, False))
    for at, text, size, bold in texts:
        _label(draw, at, text, size, bold=bold)
    _legend(draw, canvas, bool(empty))
    return canvas.convert("RGB")


def _spot_rect(view: View, spot: geo.ScriptPosition) -> list[tuple[float, float]] | None:
    """The corner pixels of a script position's area, if it has one."""
    if spot.size[0] > 0 and spot.size[1] > 0:
        return [view.px(x, z) for x, z in spot.rect().corners()]
    return None


def _spread(labels: Sequence[Label], draw: ImageDraw.ImageDraw, size: int = 12) -> list[Label]:
    """The labels, each moved down a line or more (up to 5) where it would cover one placed
    before it ("Red chips" and "Red green chips" half a unit apart stay legible)."""
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for (x, y), text in labels:
        for step in range(6):
            box = draw.textbbox((x, y + 14 * step), text, font=font(size), anchor="mm",
                                stroke_width=2)  # fmt: skip
            if not any(_overlap(box, other) for other in placed):
                break
        else:
            step = 0
            box = draw.textbbox((x, y), text, font=font(size), anchor="mm", stroke_width=2)
        placed.append(box)
        out.append(((x, y + 14 * step), text))
    return out


def _overlap(a: Sequence[float], b: Sequence[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _labelled(positions: Sequence[geo.ScriptPosition], view: View) -> list[geo.ScriptPosition]:
    """The positions worth a label: none on a printed board (it prints its own), and of a
    crowded series ("offer 1", "offer 2"... closer together than a label is wide) only the
    first and the last."""
    by_kind: dict[tuple[str, str], list[geo.ScriptPosition]] = {}
    for spot in positions:
        if spot.board is None:
            series = (spot.kind, re.sub(r"\d+", "#", spot.label))
            by_kind.setdefault(series, []).append(spot)
    chosen = []
    for spots in by_kind.values():
        gaps = [math.dist((a.at[0], a.at[2]), (b.at[0], b.at[2])) * view.k
                for a, b in zip(spots, spots[1:], strict=False)]  # fmt: skip
        wide = max(font(12).getlength(s.label) for s in spots)
        crowded = bool(gaps) and min(gaps) < wide
        chosen += [spots[0], spots[-1]] if crowded and len(spots) > 1 else spots
    return chosen


def _legend(draw: ImageDraw.ImageDraw, canvas: Image.Image, empty_seats: bool = False) -> None:
    items = [(SNAP, "snap point"), (POSITION, "script position"), (ZONE, "scripting zone"),
             (GUESSED, "size not established"), (_rgb("Red"), "outline/marker: the seat's piece"),
             ((0, 0, 0), f"pawn: marker ≥{MIN_MARKER_PX} px, piece at its size")]  # fmt: skip
    if empty_seats:
        a = DIMMED[3] / 255
        dim = tuple(round(t * (1 - a) + b * a) for t, b in zip(TABLE, BACKGROUND, strict=True))
        items.append((dim, "dimmed: at an empty seat"))
    x, y = 10, canvas.height - 16
    for colour, text in items:
        draw.rectangle([x, y - 6, x + 12, y + 6], fill=colour)
        draw.text((x + 18, y), text, font=font(12), fill=INK, anchor="lm")
        x += 30 + round(draw.textlength(text, font=font(12)))


def image_name(url: str) -> str:
    """Where a build holds the image at ``url``: ``images/<its last path part>``."""
    return f"images/{url.rsplit('/', 1)[-1]}"


def images_from_files(files: Mapping[str, bytes]) -> ImageLookup:
    """An image lookup for a build in memory: a URL's ``images/<name>`` in ``files``, opened
    (its size read) but decoded only when a picture first needs its pixels."""
    from io import BytesIO

    cache: dict[str, Image.Image | None] = {}

    def lookup(url: str) -> Image.Image | None:
        name = image_name(url)
        if name not in cache:
            data = files.get(name)
            cache[name] = None if data is None else Image.open(BytesIO(data))
        return cache[name]

    return lookup


def seat_order(save: Mapping[str, Any]) -> list[str]:
    """The colours players sit at, in the save's order: HandTrigger colours the scripts name,
    else every colour the scripts name."""
    from tts_builder.save.geometry_checks import script_colors

    scripted = script_colors(save)
    hands = [_text(o, "FogColor") for o in _list(save.get("ObjectStates"))
             if isinstance(o, dict) and geo.name_of(o) == "HandTrigger"]  # fmt: skip
    seated = [c for c in dict.fromkeys(hands) if c in scripted]
    return seated or scripted


def after_setup(save: Mapping[str, Any], players: int, seed: int = 0, **table: Any) -> dict:
    """The save as it stands once ``players`` players sat down and the first pressed Setup on
    the emulated table (every bundled game has a Global UI button ``setup``)."""
    from tts_builder.emulator import EmulatedTable

    colours = seat_order(save)[:players]
    if len(colours) < players:
        raise BuildError(f"the save seats {len(colours)} players, not {players}")
    emulated = EmulatedTable(dict(save), seed=seed, **table)
    emulated.seat(colours)
    emulated.load()
    emulated.click_ui(colours[0], "setup")
    emulated.settle()
    return emulated.save_state()
