"""The hex-map board of the flood race: where each hex lies, and the printed board itself.

One geometry serves the picture and the table. Hexes are pointy-topped in odd-r rows (odd rows
shifted right by half a hex), row 0 at the top, the Ark in a band below the last row. A board
is a square picture (so its tile cannot be stretched out of shape), laid out in table units
from its top-left corner: the title band with the column marks, the hex field between two
margins carrying the row marks of the flood track, the Ark, and a legend. Pixels are units
times ``px_per_unit``; the table position of a board point follows from the board's centre on
the table, with the picture's top edge away from the White seat (+z).

Everything here is pure: data in, numbers or an image out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from tts_builder.errors import FieldError
from tts_builder.render.fonts import font
from tts_builder.render.layout import VALUE_CHECKS

Hex = tuple[int, int]
Point = tuple[float, float]
SQRT3 = math.sqrt(3.0)
#: Table units covered by a Custom_Tile or Custom_Token of scale 1 along its picture's longer
#: side (local -1..1: the snap points of a scale-20 board tile in S:canterbury lie within
#: ±0.96 of its centre). Unverified at pixel level: check the board once in TTS.
UNITS_PER_SCALE = 2.0
SUPERSAMPLE = 2

#: Style key -> default colour. Terrain names of the game may be added (a terrain without an
#: entry is drawn in ``unknown``).
BOARD_STYLE: dict[str, str] = {
    "paper": "#efe6cf",
    "ink": "#2b2b2b",
    "title": "#1f4e79",
    "plain": "#c5dc8e",
    "forest": "#5f9e4f",
    "mountain": "#b9ab94",
    "swamp": "#7fa79a",
    "unknown": "#d0d0d0",
    "river": "#3d7cc9",
    "ford": "#e2cf98",
    "stone": "#8a8a8a",
    "stairs": "#8a5a2b",
    "ark_hull": "#7a4a24",
    "ark_cabin": "#b9834d",
    "flood": "#2f6fa8",
    "flood_light": "#8fc1ea",
}
TERRAIN_LABELS = {"plain": "Plain", "forest": "Forest", "mountain": "Mountain", "swamp": "Swamp"}


# ------------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class BoardGeometry:
    """Sizes of one board, in table units; bands are multiples of the hex width."""

    rows: int
    cols: int
    hex_width: float = 1.8
    px_per_unit: float = 96.0
    centre: Point = (0.0, 0.0)
    y: float = 1.0  # height of the board's centre on the table
    thickness: float = 0.2

    @property
    def radius(self) -> float:
        """Centre-to-corner distance of a hex."""
        return self.hex_width / SQRT3

    @property
    def bands(self) -> dict[str, float]:
        """Heights/widths of the bands around the hex field, in units."""
        w = self.hex_width
        return {"top": 1.35 * w, "side": 0.8 * w, "ark": 2.5 * w, "legend": 1.1 * w}

    @property
    def field(self) -> Point:
        """Width and height of the hex field."""
        return (self.cols + 0.5) * self.hex_width, (1.5 * (self.rows - 1) + 2) * self.radius

    @property
    def side(self) -> float:
        """The board's side length (it is square)."""
        b = self.bands
        fw, fh = self.field
        return max(fw + 2 * b["side"], b["top"] + fh + b["ark"] + b["legend"])

    @property
    def origin(self) -> Point:
        """Top-left corner of the (centred) content inside the square."""
        b = self.bands
        fw, fh = self.field
        width, height = fw + 2 * b["side"], b["top"] + fh + b["ark"] + b["legend"]
        return (self.side - width) / 2, (self.side - height) / 2

    @property
    def image_size(self) -> int:
        """Pixels of the board picture a side."""
        return round(self.side * self.px_per_unit)

    @property
    def top_y(self) -> float:
        """Table height of the board's top face."""
        return self.y + self.thickness / 2

    @property
    def scale(self) -> float:
        """Transform scale of the board tile."""
        return self.side / UNITS_PER_SCALE


def hex_units(geo: BoardGeometry, r: int, c: int) -> Point:
    """Centre of hex (r, c) in board units from the board's top-left corner."""
    ox, oy = geo.origin
    b = geo.bands
    x = ox + b["side"] + geo.hex_width * (c + 0.5 + 0.5 * (r % 2))
    y = oy + b["top"] + geo.radius * (1 + 1.5 * r)
    return x, y


def hex_pixel(geo: BoardGeometry, r: int, c: int) -> Point:
    """Centre of hex (r, c) on the board picture, in pixels."""
    x, y = hex_units(geo, r, c)
    return x * geo.px_per_unit, y * geo.px_per_unit


def units_to_table(geo: BoardGeometry, x: float, y: float) -> Point:
    """Table (x, z) of a board point given in units from the board's top-left corner."""
    half = geo.side / 2
    return geo.centre[0] + (x - half), geo.centre[1] - (y - half)


def pixel_to_table(geo: BoardGeometry, px: float, py: float) -> Point:
    """Table (x, z) of a pixel of the board picture."""
    return units_to_table(geo, px / geo.px_per_unit, py / geo.px_per_unit)


def hex_table(geo: BoardGeometry, r: int, c: int) -> Point:
    """Table (x, z) of the centre of hex (r, c): snap points, pieces and flood tiles go here."""
    return units_to_table(geo, *hex_units(geo, r, c))


def hex_corners(geo: BoardGeometry, r: int, c: int, shrink: float = 1.0) -> list[Point]:
    """The six corners of hex (r, c) in board units, clockwise from the top."""
    cx, cy = hex_units(geo, r, c)
    rad = geo.radius * shrink
    return [
        (cx + rad * math.sin(math.radians(a)), cy - rad * math.cos(math.radians(a)))
        for a in range(0, 360, 60)
    ]


def shared_edge(geo: BoardGeometry, a: Hex, b: Hex) -> tuple[Point, Point]:
    """The two corners (board units) of the edge between neighbouring hexes a and b."""
    bx, by = hex_units(geo, *b)
    corners = sorted(hex_corners(geo, *a), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)
    return corners[0], corners[1]


def marker_units(geo: BoardGeometry, row: int, col: int) -> Point:
    """Board point of the flood marker: the left edge of the next hex to flood in its row.

    ``col`` counts the flooded hexes of the flood ``row``; past the last row the marker waits
    at the Ark's left end.
    """
    row, col = row + col // geo.cols, col % geo.cols
    if row >= geo.rows:
        x0, y0, _x1, _y1 = ark_box(geo)
        return x0, y0
    x, y = hex_units(geo, row, col)
    return x - geo.hex_width / 2, y


def marker_table(geo: BoardGeometry, row: int, col: int) -> Point:
    """Table (x, z) of the flood marker for a flood at (row, col)."""
    return units_to_table(geo, *marker_units(geo, row, col))


def ark_box(geo: BoardGeometry) -> tuple[float, float, float, float]:
    """The Ark's band below the last row, [x0, y0, x1, y1] in board units."""
    ox, oy = geo.origin
    b = geo.bands
    fw, fh = geo.field
    y0 = oy + b["top"] + fh + 0.15 * geo.hex_width
    return ox + b["side"], y0, ox + b["side"] + fw, y0 + b["ark"] - 0.3 * geo.hex_width


def ark_zone(geo: BoardGeometry) -> tuple[Point, Point]:
    """Table (x, z) centre and (width, depth) of the scripting zone over the Ark."""
    x0, y0, x1, y1 = ark_box(geo)
    return units_to_table(geo, (x0 + x1) / 2, (y0 + y1) / 2), (x1 - x0, y1 - y0)


def ark_slots(geo: BoardGeometry, count: int) -> list[Point]:
    """Table (x, z) of ``count`` berths on the Ark's deck, left to right."""
    x0, y0, x1, y1 = ark_box(geo)
    step = (x1 - x0) * 0.8 / max(1, count)
    start = (x0 + x1) / 2 - step * (count - 1) / 2
    y = y0 + (y1 - y0) * 0.62
    return [units_to_table(geo, start + i * step, y) for i in range(count)]


def flood_tile_scale(geo: BoardGeometry) -> float:
    """Transform scale of a flood tile (a hex picture, taller than wide) covering one hex."""
    return 2 * geo.radius * 0.97 / UNITS_PER_SCALE


def row_mark(row: int) -> str:
    """The flood track's mark of a row: A, B, ..., Z, AA, ..."""
    text = ""
    row += 1
    while row > 0:
        row, rest = divmod(row - 1, 26)
        text = chr(ord("A") + rest) + text
    return text


def hex_name(r: int, c: int) -> str:
    """A hex as printed on the board: its row mark and its 1-based column, e.g. ``C5``."""
    return f"{row_mark(r)}{c + 1}"


# ------------------------------------------------------------------------------- style


def board_style(
    style: Mapping[str, Any] | None, terrain_names: Iterable[str] = (), where: str = "style"
) -> dict[str, str]:
    """``style`` checked against :data:`BOARD_STYLE` (plus terrain names), defaults filled in."""
    style = style or {}
    if not isinstance(style, Mapping):
        raise FieldError(where, f"expected a mapping, got {style!r}")
    allowed = set(BOARD_STYLE) | set(terrain_names)
    for key, value in style.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise FieldError(f"{where}.{key}", f"unknown board style key (allowed: {known})")
        problem = VALUE_CHECKS["color"](value, None)
        if problem:
            raise FieldError(f"{where}.{key}", problem)
    return {**BOARD_STYLE, **dict(style)}


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _shade(color: str, k: float) -> tuple[int, int, int]:
    """``color`` darkened (k < 1) or lightened towards white (k > 1)."""
    r, g, b = _rgb(color)
    if k <= 1:
        return round(r * k), round(g * k), round(b * k)
    t = k - 1
    return round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t)


# ------------------------------------------------------------------------------- drawing


class _Pen:
    """Draws in board units on a supersampled canvas."""

    def __init__(self, geo: BoardGeometry, paper: str) -> None:
        self.k = geo.px_per_unit * SUPERSAMPLE
        size = geo.image_size * SUPERSAMPLE
        self.image = Image.new("RGB", (size, size), _rgb(paper))
        self.draw = ImageDraw.Draw(self.image)

    def pt(self, p: Point) -> tuple[float, float]:
        return p[0] * self.k, p[1] * self.k

    def px(self, units: float) -> int:
        return max(1, round(units * self.k))

    def polygon(
        self, points: Sequence[Point], fill: Any = None, outline: Any = None, width: float = 0.0
    ) -> None:
        pts = [self.pt(p) for p in points]
        self.draw.polygon(pts, fill=fill)
        if outline is not None and width > 0:
            self.draw.line([*pts, pts[0]], fill=outline, width=self.px(width), joint="curve")

    def line(self, points: Sequence[Point], fill: Any, width: float, caps: bool = True) -> None:
        pts = [self.pt(p) for p in points]
        w = self.px(width)
        self.draw.line(pts, fill=fill, width=w, joint="curve")
        if caps:
            for x, y in (pts[0], pts[-1]):
                self.draw.ellipse([x - w / 2, y - w / 2, x + w / 2, y + w / 2], fill=fill)

    def ellipse(
        self,
        centre: Point,
        rx: float,
        ry: float,
        fill: Any = None,
        outline: Any = None,
        width: float = 0.0,
    ) -> None:
        x, y = self.pt(centre)
        box = [x - rx * self.k, y - ry * self.k, x + rx * self.k, y + ry * self.k]
        self.draw.ellipse(
            box, fill=fill, outline=outline, width=self.px(width) if outline is not None else 0
        )

    def rect(
        self,
        box: Sequence[float],
        fill: Any = None,
        outline: Any = None,
        width: float = 0.0,
        radius: float = 0.0,
    ) -> None:
        x0, y0 = self.pt((box[0], box[1]))
        x1, y1 = self.pt((box[2], box[3]))
        self.draw.rounded_rectangle(
            [x0, y0, x1, y1],
            radius=radius * self.k,
            fill=fill,
            outline=outline,
            width=self.px(width) if outline is not None else 0,
        )

    def text(
        self,
        centre: Point,
        text: str,
        size: float,
        fill: Any,
        bold: bool = True,
        anchor: str = "mm",
    ) -> None:
        self.draw.text(
            self.pt(centre),
            text,
            font=font(max(1, round(size * self.k)), bold),
            fill=fill,
            anchor=anchor,
        )

    def finish(self) -> Image.Image:
        size = self.image.width // SUPERSAMPLE
        return self.image.resize((size, size), Image.Resampling.LANCZOS)


def _decorate(pen: _Pen, terrain: str, centre: Point, rad: float, color: str, seed: str) -> None:
    """Terrain symbols inside a hex: grass, trees, peaks or reeds."""
    rng = random.Random(seed)
    cx, cy = centre
    dark = _shade(color, 0.62)
    spots = [(-0.38, 0.18), (0.36, 0.22), (0.0, 0.45)]
    if terrain == "plain":
        for dx, dy in spots:
            x, y = cx + dx * rad + rng.uniform(-0.05, 0.05) * rad, cy + dy * rad
            for a in (-0.12, 0.0, 0.12):
                pen.line([(x + a * rad * 0.6, y), (x + a * rad, y - 0.16 * rad)], dark, 0.035 * rad)
    elif terrain == "forest":
        for dx, dy in [(-0.38, 0.12), (0.36, 0.14), (0.0, 0.42), (-0.02, -0.05)]:
            x, y = cx + dx * rad, cy + dy * rad
            h = rad * rng.uniform(0.34, 0.42)
            pen.rect([x - 0.035 * rad, y, x + 0.035 * rad, y + 0.1 * rad], fill=(92, 60, 30))
            pen.polygon(
                [(x, y - h), (x - 0.2 * rad, y + 0.02 * rad), (x + 0.2 * rad, y + 0.02 * rad)],
                fill=_shade(color, 0.55),
            )
    elif terrain == "mountain":
        for dx, dy, s in [(-0.22, 0.38, 0.55), (0.25, 0.42, 0.45)]:
            x, y = cx + dx * rad, cy + dy * rad
            h = s * rad
            pen.polygon([(x - 0.5 * h, y), (x, y - h), (x + 0.5 * h, y)], fill=_shade(color, 0.6))
            pen.polygon(
                [(x - 0.14 * h, y - 0.72 * h), (x, y - h), (x + 0.14 * h, y - 0.72 * h)],
                fill=(250, 250, 250),
            )
    elif terrain == "swamp":
        for dx, dy in [(-0.35, 0.3), (0.32, 0.28)]:
            x, y = cx + dx * rad, cy + dy * rad
            pen.ellipse((x, y + 0.08 * rad), 0.22 * rad, 0.06 * rad, fill=_shade(color, 0.75))
            for a in (-0.07, 0.0, 0.07):
                top = y - rad * rng.uniform(0.22, 0.32)
                pen.line(
                    [(x + a * rad, y + 0.06 * rad), (x + a * rad, top)], (70, 90, 50), 0.03 * rad
                )
                pen.ellipse((x + a * rad, top), 0.025 * rad, 0.06 * rad, fill=(110, 70, 40))
        pen.ellipse((cx, cy + 0.5 * rad), 0.28 * rad, 0.06 * rad, fill=_shade(color, 0.75))


def _stone_circle(pen: _Pen, centre: Point, rad: float, style: Mapping[str, str]) -> None:
    """A ring of standing stones: the start hexes."""
    pen.ellipse(
        centre, 0.56 * rad, 0.56 * rad, outline=_shade(style["stone"], 1.45), width=0.09 * rad
    )
    for i in range(8):
        a = math.radians(i * 45 + 22.5)
        p = (centre[0] + 0.56 * rad * math.sin(a), centre[1] - 0.56 * rad * math.cos(a))
        pen.ellipse(
            p,
            0.1 * rad,
            0.085 * rad,
            fill=_rgb(style["stone"]),
            outline=_shade(style["stone"], 0.45),
            width=0.018 * rad,
        )


def _stairs(pen: _Pen, centre: Point, rad: float, style: Mapping[str, str]) -> None:
    cx, cy = centre
    color = _rgb(style["stairs"])
    for i in range(4):
        y = cy + (0.05 + 0.16 * i) * rad
        half = (0.22 + 0.07 * i) * rad
        pen.rect(
            [cx - half, y, cx + half, y + 0.09 * rad],
            fill=color,
            outline=_shade(style["stairs"], 0.55),
            width=0.015 * rad,
        )


def _ark(pen: _Pen, geo: BoardGeometry, style: Mapping[str, str], stairs: Iterable[Hex]) -> None:
    x0, y0, x1, y1 = ark_box(geo)
    h = y1 - y0
    ink = _rgb(style["ink"])
    hull = _rgb(style["ark_hull"])
    deck = y0 + 0.35 * h
    # gangways from the stair hexes down to the deck
    for r, c in stairs:
        x, y = hex_units(geo, r, c)
        pen.polygon(
            [
                (x - 0.18 * geo.radius, y + 0.8 * geo.radius),
                (x + 0.18 * geo.radius, y + 0.8 * geo.radius),
                (x + 0.22 * geo.radius, deck),
                (x - 0.22 * geo.radius, deck),
            ],
            fill=_rgb(style["stairs"]),
            outline=ink,
            width=0.02,
        )
    cabin = [x0 + 0.3 * (x1 - x0), y0 + 0.02 * h, x1 - 0.3 * (x1 - x0), deck]
    pen.rect(cabin, fill=_rgb(style["ark_cabin"]), outline=ink, width=0.04, radius=0.1)
    for i in range(5):
        wx = cabin[0] + (i + 0.5) * (cabin[2] - cabin[0]) / 5
        pen.rect([wx - 0.2, y0 + 0.09 * h, wx + 0.2, y0 + 0.2 * h], fill=(60, 40, 20))
    pen.polygon(
        [(x0, deck), (x1, deck), (x1 - 0.07 * (x1 - x0), y1), (x0 + 0.07 * (x1 - x0), y1)],
        fill=hull,
        outline=ink,
        width=0.05,
    )
    for k in (0.55, 0.75):
        y = deck + k * (y1 - deck)
        inset = 0.07 * (x1 - x0) * (y - deck) / (y1 - deck)
        pen.line([(x0 + inset, y), (x1 - inset, y)], _shade(style["ark_hull"], 0.7), 0.03, False)
    pen.text(((x0 + x1) / 2, deck + 0.22 * (y1 - deck)), "ARK", 0.55, (250, 236, 200))
    for x, z in ark_slots(geo, 10):
        bx = x - geo.centre[0] + geo.side / 2
        by = geo.side / 2 - (z - geo.centre[1])
        pen.ellipse((bx, by + 0.25), 0.45, 0.12, fill=_shade(style["ark_hull"], 0.7))


def _legend(
    pen: _Pen, geo: BoardGeometry, style: Mapping[str, str], terrains: Sequence[str]
) -> None:
    ox, oy = geo.origin
    b = geo.bands
    fw, fh = geo.field
    y = oy + b["top"] + fh + b["ark"] + b["legend"] * 0.5
    x0 = ox + b["side"]
    items: list[tuple[str, str]] = [(t, TERRAIN_LABELS.get(t, t.capitalize())) for t in terrains]
    items += [("river", "River"), ("ford", "Ford"), ("start", "Start"), ("stairs", "Stairs")]
    step = fw / len(items)
    rad = 0.27 * geo.hex_width
    ink = _rgb(style["ink"])
    for i, (key, label) in enumerate(items):
        cx = x0 + step * i + rad + 0.1
        centre = (cx, y)
        corners = [
            (cx + rad * math.sin(math.radians(a)), y - rad * math.cos(math.radians(a)))
            for a in range(0, 360, 60)
        ]
        if key in terrains:
            color = style.get(key, style["unknown"])
            pen.polygon(corners, fill=_rgb(color), outline=ink, width=0.03)
            _decorate(pen, key, centre, rad, color, f"legend:{key}")
        else:
            pen.polygon(corners, fill=_rgb(style["plain"]), outline=ink, width=0.03)
            if key == "river":
                pen.line([(cx - rad, y + 0.1), (cx + rad, y - 0.1)], _rgb(style["river"]), 0.18)
            elif key == "ford":
                pen.line([(cx - rad, y + 0.1), (cx + rad, y - 0.1)], _rgb(style["river"]), 0.18)
                pen.ellipse(centre, 0.22, 0.12, fill=_rgb(style["ford"]), outline=ink, width=0.02)
            elif key == "start":
                _stone_circle(pen, centre, rad, style)
            else:
                _stairs(pen, (cx, y - 0.3 * rad), rad, style)
        pen.text((cx + rad + 0.12, y), label, 0.3, ink, bold=False, anchor="lm")


def render_board(
    game_map: Mapping[str, Any],
    terrain_letters: Mapping[str, str],
    geo: BoardGeometry,
    style: Mapping[str, Any] | None = None,
    title: str = "",
) -> Image.Image:
    """The printed board (RGB): terrain, river and fords, stone circles, stairs, the Ark, the
    flood track's row and column marks, the title and a legend."""
    st = board_style(style, terrain_letters.values())
    pen = _Pen(geo, st["paper"])
    ink = _rgb(st["ink"])
    rows, cols = geo.rows, geo.cols
    rad = geo.radius
    terrain = list(game_map["terrain"])
    starts = [list(s) for s in game_map.get("starts", [])]
    stairs_list = [list(s) for s in game_map.get("stairs", [])]
    ox, oy = geo.origin
    b = geo.bands
    fw, fh = geo.field
    # frame and title
    pen.rect(
        [
            ox + 0.1,
            oy + 0.1,
            ox + fw + 2 * b["side"] - 0.1,
            oy + b["top"] + fh + b["ark"] + b["legend"] - 0.1,
        ],
        outline=_rgb(st["title"]),
        width=0.08,
        radius=0.4,
    )
    if title:
        pen.text(
            (geo.side / 2, oy + 0.42 * b["top"]), title, 0.5 * geo.hex_width, _rgb(st["title"])
        )
    # hexes
    for r in range(rows):
        for c in range(cols):
            name = terrain_letters.get(terrain[r][c], "unknown")
            color = st.get(name, st["unknown"])
            pen.polygon(hex_corners(geo, r, c), fill=_rgb(color), outline=ink, width=0.035)
            marked = [r, c] in starts or [r, c] in stairs_list
            small = 0.5 if marked else 1.0
            x, y = hex_units(geo, r, c)
            _decorate(
                pen, name, (x, y - (0.08 * rad if marked else 0)), rad * small, color, f"{r},{c}"
            )
    for s in game_map.get("starts", []):
        _stone_circle(pen, hex_units(geo, s[0], s[1]), rad, st)
    stairs = [(int(s[0]), int(s[1])) for s in game_map.get("stairs", [])]
    for r, c in stairs:
        _stairs(pen, hex_units(geo, r, c), rad, st)
    # river and fords along hex edges
    river = _rgb(st["river"])
    fords = {frozenset((tuple(a), tuple(b))) for a, b in game_map.get("fords", [])}
    edges = [(tuple(a), tuple(b)) for a, b in game_map.get("rivers", [])]
    for a, b2 in edges:
        p, q = shared_edge(geo, a, b2)  # type: ignore[arg-type]
        pen.line([p, q], river, 0.11 * geo.hex_width)
    for a, b2 in edges:
        if frozenset((a, b2)) in fords:
            p, q = shared_edge(geo, a, b2)  # type: ignore[arg-type]
            mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
            pen.ellipse(
                mid,
                0.2 * geo.hex_width,
                0.12 * geo.hex_width,
                fill=_rgb(st["ford"]),
                outline=ink,
                width=0.02,
            )
            for k in (-0.09, 0.0, 0.09):
                pen.ellipse(
                    (mid[0] + k * geo.hex_width, mid[1]),
                    0.03 * geo.hex_width,
                    0.025 * geo.hex_width,
                    fill=_shade(st["ford"], 0.7),
                )
    # hex names, small, on a paper tag at the top of each hex (over rivers and fords)
    paper = _rgb(st["paper"])
    for r in range(rows):
        for c in range(cols):
            x, y = hex_units(geo, r, c)
            label = hex_name(r, c)
            half = (0.07 + 0.055 * len(label)) * rad
            pen.rect(
                [x - half, y - 0.82 * rad, x + half, y - 0.62 * rad], fill=paper, radius=0.08 * rad
            )
            pen.text((x, y - 0.72 * rad), label, 0.17 * rad, ink, bold=False)
    # the flood track: row marks on both margins, column marks above the first row
    track = _rgb(st["flood"])
    for r in range(rows):
        _x, y = hex_units(geo, r, 0)
        for x in (ox + b["side"] / 2, ox + b["side"] * 1.5 + fw):
            pen.ellipse((x, y), 0.3, 0.27, fill=track)
            pen.text((x, y), row_mark(r), 0.34, (255, 255, 255))
    for c in range(cols):
        x, y = hex_units(geo, 0, c)
        pen.text((x, y - rad - 0.3), str(c + 1), 0.36, track)
    _ark(pen, geo, st, stairs)
    names = list(dict.fromkeys(terrain_letters.values()))
    _legend(pen, geo, st, names)
    return pen.finish()


def render_flood_tile(style: Mapping[str, Any] | None = None, height: int = 256) -> Image.Image:
    """A pointy-topped water hex (RGBA, transparent corners), ``height`` px from tip to tip."""
    st = board_style(style)
    k = SUPERSAMPLE * 2
    h = height * k
    w = round(h * SQRT3 / 2)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    rad = h / 2
    cx, cy = w / 2, h / 2
    corners = [
        (cx + rad * math.sin(math.radians(a)), cy - rad * math.cos(math.radians(a)))
        for a in range(0, 360, 60)
    ]
    draw.polygon(corners, fill=_rgb(st["flood"]) + (255,))
    light = _rgb(st["flood_light"]) + (255,)
    for i, dy in enumerate((-0.45, -0.15, 0.15, 0.45)):
        y = cy + dy * rad
        x0 = cx - 0.45 * w + (i % 2) * 0.1 * w
        pts = [(x0 + j * 0.05 * w, y + (0.04 * rad if j % 2 else -0.04 * rad)) for j in range(15)]
        draw.line(pts, fill=light, width=max(1, round(0.035 * h)), joint="curve")
    draw.line(
        [*corners, corners[0]],
        fill=_shade(st["flood"], 0.55) + (255,),
        width=max(1, round(0.03 * h)),
    )
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon(corners, fill=255)
    img.putalpha(mask)
    return img.resize((w // k, h // k), Image.Resampling.LANCZOS)
