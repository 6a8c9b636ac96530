"""Ark & Noah boards: the Ark's grid geometry (edges, squares, pitch fields) in board pixels and
on the table, and the Ark's section pictures drawn from it (the action board and the tracks are
drawn from the manifest's data: ``tts_builder.table.columns`` and ``.track``).

Geometry follows the rules' names (issue 4): squares ``[r, c]``; ``h:r:c`` the horizontal edge
above square (r, c) (r = rows is the bottom hull); ``v:r:c`` the vertical edge left of square
(r, c) (c = cols is the right hull); pitch fields ``p:y:x`` at the hull's grid points. Every
board is a list of layout elements (data) drawn by :func:`render_layout`; nothing here reads
files. Where a pixel lies on the table is the geometry model's business (``tts_builder.geometry``,
used by :mod:`.table`).

It is the game's own drawing of its rule data, so it lives with the game, not in ``render/``
(which holds no game names: DESIGN.md). The image cache keys a picture by its spec and the
code of ``render/`` only, so each board's spec is its :data:`Layout` (``boards.py``): a change
here that changes a picture changes its key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from rules_ref.ark_and_noah import edge_names, pitch_fields
from tts_builder.render.layout import render_layout

Point = tuple[float, float]
#: A picture as data: its layout elements, its pixel size and the fields its texts print
#: (what :func:`render_layout` draws; a board's cache key, so a change to the drawing is one).
Layout = tuple[list[dict[str, Any]], tuple[int, int], dict[str, str]]

# ------------------------------------------------------------------------------ geometry


@dataclass(frozen=True)
class ArkGeometry:
    """Pixel geometry of an assembled Ark picture: ``square`` px squares, a ``margin`` px band
    around the hull (the pitch fields) and a ``prow`` px bow and stern at the two ends."""

    rows: int
    cols: int
    square: int = 120
    margin: int = 48
    prow: int = 150

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the whole Ark in px."""
        return 2 * self.prow + self.cols * self.square, 2 * self.margin + self.rows * self.square

    def grid_point(self, y: float, x: float) -> Point:
        """Pixel of grid point (y, x) (row line y, column line x; fractions allowed)."""
        return self.prow + x * self.square, self.margin + y * self.square

    def square_px(self, r: int, c: int) -> Point:
        """Centre of square (r, c)."""
        return self.grid_point(r + 0.5, c + 0.5)

    def edge_px(self, edge: str) -> tuple[float, float, float]:
        """(x, y, angle): the centre of an edge and the angle of its line (0 = along x)."""
        kind, r, c = edge[0], *map(int, edge[2:].split(":"))
        if kind == "h":
            return (*self.grid_point(r, c + 0.5), 0.0)
        return (*self.grid_point(r + 0.5, c), 90.0)

    def pitch_px(self, field: str) -> Point:
        """Centre of a pitch field: its hull point pushed half the margin outwards."""
        y, x = map(int, field[2:].split(":"))
        px, py = self.grid_point(y, x)
        half = self.margin / 2
        dx = -half if x == 0 else half if x == self.cols else 0.0
        dy = -half if y == 0 else half if y == self.rows else 0.0
        return px + dx, py + dy


def ark_points(geometry: ArkGeometry) -> dict[str, dict[str, Any]]:
    """Every snap target in Ark pixels: ``edges`` name -> (x, y, angle), ``pitch`` name ->
    (x, y), ``squares`` "r:c" -> (x, y)."""
    g = geometry
    return {
        "edges": {e: g.edge_px(e) for e in edge_names(g.rows, g.cols)},
        "pitch": {p: g.pitch_px(p) for p, _a, _b in pitch_fields(g.rows, g.cols)},
        "squares": {f"{r}:{c}": g.square_px(r, c) for r in range(g.rows) for c in range(g.cols)},
    }


# ------------------------------------------------------------------------- Ark sections

SECTION_KINDS = ("bow", "middle", "stern")


def section_size(kind: str, geometry: ArkGeometry, section_cols: int) -> tuple[int, int]:
    """(width, height) px of one section picture: bow and stern carry the prow and stern."""
    ends = geometry.prow if kind in ("bow", "stern") else 0
    return section_cols * geometry.square + ends, geometry.size[1]


def section_offsets(
    layout: list[str], geometry: ArkGeometry, section_cols: int
) -> list[tuple[str, int]]:
    """(kind, x px of its left side in the whole Ark) for each section of ``layout``."""
    out, x = [], 0
    for kind in layout:
        out.append((kind, x))
        x += section_size(kind, geometry, section_cols)[0]
    return out


def _ark_elements(geometry: ArkGeometry, style: Mapping[str, str]) -> list[dict[str, Any]]:
    """The whole Ark as layout elements (sections are windows onto it)."""
    g = geometry
    w, h = g.size
    s, m, p = g.square, g.margin, g.prow
    hull = [p, m, w - p, h - m]
    els: list[dict[str, Any]] = [
        # bow and stern: rounded wooden ends behind the hull
        {
            "type": "ellipse",
            "box": [4, m - m // 5, 2 * p + 40, h - m + m // 5],
            "fill": style["wood"],
            "outline": style["line"],
            "width": 4,
        },
        {
            "type": "rect",
            "box": [w - p - 40, m - m // 5, w - 40, h - m + m // 5],
            "fill": style["wood"],
            "outline": style["line"],
            "width": 4,
            "radius": 60,
        },
        {
            "type": "rect",
            "box": [w - 46, h // 2 - 70, w - 6, h // 2 + 70],
            "fill": style["plank"],
            "outline": style["line"],
            "width": 4,
            "radius": 12,
        },
        {
            "type": "rect",
            "box": [p - 6, m - m // 2, w - p + 6, h - m + m // 2],
            "fill": style["wood"],
        },
    ]
    for k in range(1, 6):  # planks on the bow and stern
        y = m + k * (h - 2 * m) // 6
        els.append({"type": "rect", "box": [30, y - 2, p - 6, y + 2], "fill": style["plank"]})
        els.append(
            {"type": "rect", "box": [w - p + 6, y - 2, w - 50, y + 2], "fill": style["plank"]}
        )
    els.append({"type": "rect", "box": hull, "fill": style["deck"]})
    for r in range(g.rows):
        for c in range(g.cols):
            x0, y0 = g.grid_point(r, c)
            box = [int(x0) + 5, int(y0) + 5, int(x0) + s - 5, int(y0) + s - 5]
            els.append({"type": "rect", "box": box, "fill": style["square"], "radius": 10})
            els.append(
                {
                    "type": "ellipse",
                    "box": [box[0] + s // 3, box[1] + s // 3, box[2] - s // 3, box[3] - s // 3],
                    "outline": style["label"],
                    "width": 2,
                }
            )
    for x in range(g.cols + 1):  # grid lines: where the dividers go
        x0 = int(g.grid_point(0, x)[0])
        els.append({"type": "rect", "box": [x0 - 3, m, x0 + 3, h - m], "fill": style["line"]})
    for y in range(g.rows + 1):
        y0 = int(g.grid_point(y, 0)[1])
        els.append({"type": "rect", "box": [p, y0 - 3, w - p, y0 + 3], "fill": style["line"]})
    half = int(m * 0.34)
    for field, _a, _b in pitch_fields(g.rows, g.cols):
        cx, cy = g.pitch_px(field)
        box = [int(cx) - half, int(cy) - half, int(cx) + half, int(cy) + half]
        els.append(
            {
                "type": "rect",
                "box": box,
                "fill": style["pitch"],
                "outline": style["line"],
                "width": 3,
                "radius": 4,
            }
        )
    return els


def render_ark_section(
    kind: str, geometry: ArkGeometry, section_cols: int, style: Mapping[str, str]
) -> Image.Image:
    """One section picture (bow, middle or stern) of ``section_cols`` columns.

    It is cut from a three-section Ark drawn whole, so sections laid side by side in any
    number continue each other's lines and pitch fields."""
    if kind not in SECTION_KINDS:
        raise ValueError(f"section kind must be one of {', '.join(SECTION_KINDS)}, got {kind!r}")
    whole = ArkGeometry(
        geometry.rows, 3 * section_cols, geometry.square, geometry.margin, geometry.prow
    )
    picture = render_layout(_ark_elements(whole, style), whole.size, {}, where="ark")
    width, height = section_size(kind, geometry, section_cols)
    x0 = {
        "bow": 0,
        "middle": geometry.prow + section_cols * geometry.square,
        "stern": whole.size[0] - width,
    }[kind]
    return picture.crop((x0, 0, x0 + width, height))


def render_ark_sections(
    geometry: ArkGeometry, section_cols: int, style: Mapping[str, str]
) -> dict[str, Image.Image]:
    """Every section picture at once (one drawing of the three-section Ark, cut in three)."""
    picture = render_layout(*sections_layout(geometry, section_cols, style), where="ark")
    return {kind: picture.crop(box) for kind, box in section_boxes(geometry, section_cols).items()}


def sections_layout(geometry: ArkGeometry, section_cols: int, style: Mapping[str, str]) -> Layout:
    """The three-section Ark the sections are cut from (:func:`section_boxes`), as a layout."""
    whole = ArkGeometry(
        geometry.rows, 3 * section_cols, geometry.square, geometry.margin, geometry.prow
    )
    return _ark_elements(whole, style), whole.size, {}


def section_boxes(geometry: ArkGeometry, section_cols: int) -> dict[str, tuple[int, int, int, int]]:
    """Each section's pixel box (left, top, right, bottom) in :func:`sections_layout`'s Ark."""
    out, x = {}, 0
    for kind in SECTION_KINDS:
        width, height = section_size(kind, geometry, section_cols)
        out[kind] = (x, 0, x + width, height)
        x += width
    return out


def render_ark(
    layout: list[str], geometry: ArkGeometry, section_cols: int, style: Mapping[str, str]
) -> Image.Image:
    """The assembled Ark for one player count (sections side by side), for previews."""
    pictures = {k: render_ark_section(k, geometry, section_cols, style) for k in set(layout)}
    out = Image.new("RGBA", geometry.size, (0, 0, 0, 0))
    for kind, x in section_offsets(layout, geometry, section_cols):
        out.alpha_composite(pictures[kind], (x, 0))
    return out
