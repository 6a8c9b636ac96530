"""A track of numbered cells (a scoring track, a round track): a manifest piece ``kind: track``
whose ``track`` key describes it as data, drawn as layout elements and laid as a locked board.

The cells run in rows of ``columns`` (one row by default) from the corner ``from``; with
``snake`` every other row runs back, so cell k + 1 always touches cell k. Each cell is a
``cell`` px square (its printed square ``gap`` px smaller each side) with its label: its number
(``labels.first`` for the first cell) or a word (``labels.words``). ``marked`` cells (every
Nth, the last) print in their own colour; ``decorations`` are plain layout elements at a
cell (their boxes relative to its centre); ``title`` prints in the top margin. The cell count
is a number or a definition key's number plus ``add`` (``{key: rules.end.min_rounds, add: 1}``),
so a variant's rules size the track. ``seats: D`` gives each seat its own place on the first
cell, ``D`` table units from the next (:func:`seat_places`): a marker per seat lies there
(``at: {seat_track: <id>}``).

This module is pure: the spec, the cells' pixels and the picture. Where the board and its
cells lie on the table is :mod:`.printed`'s (``laid_track``, ``track_cells``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from ..errors import FieldError
from ..plugin import Picture
from ..render import ELEMENTS
from ..render.layout import render_layout, validate_layout
from ..schema import Bool, Color, Custom, Int, ListOf, Map, Num, OneOf, Str
from .derived import either, key_number, number_or_key

Pixel = tuple[float, float]
#: The corner the first cell lies in.
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
COLOR = Color()


def _margin(value: Any, path: str) -> None:
    """Pixels around the cells: one number, or ``[left, top, right, bottom]``."""
    if isinstance(value, list):
        ListOf(Int(0, 2000), 4, 4).check(value, path)
    else:
        Int(0, 2000).check(value, path)


MARGIN = either(_margin, Int(0, 2000), ListOf(Int(0, 2000), 4, 4))
#: Layout elements (:mod:`tts_builder.render.layout`, checked there) as JSON Schema.
ELEMENTS_JSON = {
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "properties": {"type": {"enum": list(ELEMENTS)}},
        "required": ["type"],
    },
}
TEXT = {"size": Int(4, 400), "bold": Bool()}
#: The ``track`` key of a ``kind: track`` piece.
TRACK = Map(
    {
        "cells": number_or_key(1, 400),  # or {key: a.b.c, add: N}: .derived
        "columns": Int(1, 400),
        "from": OneOf(CORNERS),
        "snake": Bool(),
        "cell": Int(8, 2000),
        "gap": Int(0, 100),
        "radius": Int(0, 200),
        "margin": MARGIN,
        "frame": Map({"fill": COLOR, "radius": Int(0, 200)}, frozenset({"radius"})),
        "fill": COLOR,
        "ink": COLOR,
        "labels": Map(
            {
                **TEXT,
                "first": Int(-999, 999),
                "words": ListOf(Map({"cell": Int(0, 399), "text": Str()})),
            },
            frozenset({"size", "bold", "first", "words"}),
        ),
        "marked": Map(
            {"every": Int(1, 400), "last": Bool(), "fill": COLOR}, frozenset({"every", "last"})
        ),
        "title": Map(
            {**TEXT, "text": Str(), "top": Int(0, 2000), "bottom": Int(0, 2000)},
            frozenset({"size", "bold"}),
        ),
        "decorations": ListOf(
            Map({"cell": Int(0, 399), "elements": Custom(validate_layout, json=ELEMENTS_JSON)})
        ),
        "file": Str(pattern=r"[a-z0-9{}]+(-[a-z0-9{}]+)*", hint="a file name like 'rounds-{key}'"),
        "cell_width": Num(),
        "seats": Num(),
    },
    frozenset(
        {
            "columns",
            "from",
            "snake",
            "gap",
            "radius",
            "margin",
            "frame",
            "labels",
            "marked",
            "title",
            "decorations",
            "file",
            "cell_width",
            "seats",
        }
    ),
)


def cell_count(spec: dict[str, Any], data: dict[str, Any], path: str = "track") -> int:
    """How many cells a track has: its ``cells``, or its key's number plus ``add``."""
    return key_number(spec["cells"], data, f"{path}.cells", 1, 400)


def check_track(piece: dict[str, Any], data: dict[str, Any], path: str) -> int:
    """A track piece's cross-field checks (its cell count from the definition, the cells its
    words and decorations name): its cell count."""
    if "track" not in piece:
        raise FieldError(f"{path}.track", "missing required key (its cells: docs/tutorial.md)")
    spec = piece["track"]
    count = cell_count(spec, data, f"{path}.track")
    words = spec.get("labels", {}).get("words", [])
    named = [(f"labels.words[{i}].cell", w["cell"]) for i, w in enumerate(words)]
    named += [
        (f"decorations[{i}].cell", d["cell"]) for i, d in enumerate(spec.get("decorations", []))
    ]
    for where, k in named:
        if k >= count:
            raise FieldError(
                f"{path}.track.{where}", f"the track has {count} cells (0..{count - 1})"
            )
    if "marked" in spec and not {"every", "last"} & set(spec["marked"]):
        raise FieldError(f"{path}.track.marked", "expected every: N or last: true (which cells)")
    return count


@dataclass(frozen=True)
class Track:
    """A track's cells in its picture's pixels: ``cells`` of ``cell`` px, ``columns`` per row
    from the corner ``start`` (snaking when ``snake``), ``margin`` (left, top, right, bottom)
    px around them."""

    cells: int
    cell: int
    columns: int
    start: str = "top-left"
    snake: bool = False
    margin: tuple[int, int, int, int] = (0, 0, 0, 0)

    @classmethod
    def of(cls, spec: dict[str, Any], data: dict[str, Any], path: str = "track") -> Track:
        """The geometry of a piece's ``track`` spec (``data``: the definition it sizes from)."""
        cells = cell_count(spec, data, path)
        margin = spec.get("margin", 0)
        return cls(
            cells,
            int(spec["cell"]),
            min(int(spec.get("columns", cells)), cells),
            spec.get("from", "top-left"),
            bool(spec.get("snake", False)),
            tuple(margin) if isinstance(margin, list) else (margin,) * 4,  # type: ignore[arg-type]
        )

    @property
    def rows(self) -> int:
        return -(-self.cells // self.columns)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the picture in px."""
        left, top, right, bottom = self.margin
        return left + self.columns * self.cell + right, top + self.rows * self.cell + bottom

    def cell_px(self, k: int) -> Pixel:
        """The centre of cell ``k`` (0-based) in px."""
        row, col = divmod(k, self.columns)
        if self.snake and row % 2:
            col = self.columns - 1 - col
        if self.start.endswith("right"):
            col = self.columns - 1 - col
        if self.start.startswith("bottom"):
            row = self.rows - 1 - row
        return self.margin[0] + (col + 0.5) * self.cell, self.margin[1] + (row + 0.5) * self.cell


def _marked(spec: dict[str, Any], k: int, cells: int) -> bool:
    marked = spec.get("marked", {})
    every = marked.get("every")
    return bool((every and k % every == 0) or (marked.get("last") and k == cells - 1))


def _label(spec: dict[str, Any], k: int) -> str:
    labels = spec.get("labels", {})
    words = {w["cell"]: w["text"] for w in labels.get("words", [])}
    return words[k] if k in words else str(labels.get("first", 0) + k)


def track_layout(
    spec: dict[str, Any], data: dict[str, Any], path: str = "track"
) -> tuple[list[dict[str, Any]], tuple[int, int], dict[str, str]]:
    """The track as layout elements, its pixel size and (no) fields: the frame, the title,
    each cell's square and label, then the decorations (moved onto their cells)."""
    track = Track.of(spec, data, path)
    w, h = track.size
    frame = spec.get("frame")
    els: list[dict[str, Any]] = []
    if frame:
        els.append(
            {
                "type": "rect",
                "box": [0, 0, w, h],
                "fill": frame["fill"],
                "radius": frame.get("radius", 0),
            }
        )
    labels, ink = spec.get("labels", {}), spec["ink"]
    text = {"size": 24, "bold": True} | {k: labels[k] for k in ("size", "bold") if k in labels}
    if "title" in spec:
        title = spec["title"]
        left, _top, right, _bottom = track.margin
        els.append(
            {
                "type": "text",
                "text": title["text"],
                "box": [left, title["top"], w - right, title["bottom"]],
                "size": title.get("size", 24),
                "bold": title.get("bold", True),
                "color": ink,
            }
        )
    half = track.cell // 2 - spec.get("gap", 0)
    for k in range(track.cells):
        cx, cy = (int(v) for v in track.cell_px(k))
        box = [cx - half, cy - half, cx + half, cy + half]
        fill = spec["marked"]["fill"] if _marked(spec, k, track.cells) else spec["fill"]
        els.append({"type": "rect", "box": box, "fill": fill, "radius": spec.get("radius", 0)})
        els.append({"type": "text", "text": _label(spec, k), "box": box, **text, "color": ink})
    for decoration in spec.get("decorations", []):
        cx, cy = (int(v) for v in track.cell_px(decoration["cell"]))
        for element in decoration["elements"]:
            x0, y0, x1, y1 = element["box"]
            els.append({**element, "box": [cx + x0, cy + y0, cx + x1, cy + y1]})
    return els, (w, h), {}


def cell_half(spec: dict[str, Any]) -> float:
    """Half the side of a cell's printed square, in px (what a position on it may miss by)."""
    return float(spec["cell"] // 2 - spec.get("gap", 0))


def seat_places(count: int, spacing: float) -> list[tuple[float, float]]:
    """``count`` seats' places round a cell's centre, table (dx, dz), in seat order: a grid
    of ceil(sqrt(count)) columns ``spacing`` apart, rows from the far side (+z) to the near,
    each row from left (-x) to right (4 seats: the cell's four corners)."""
    if count == 0:
        return []
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    return [
        (((i % columns) - (columns - 1) / 2) * spacing, ((rows - 1) / 2 - i // columns) * spacing)
        for i in range(count)
    ]


def drawn_width(spec: dict[str, Any], track: Track) -> float | None:
    """The board's width on the table when the track sets it per cell (``cell_width``)."""
    if "cell_width" not in spec:
        return None
    return track.size[0] * float(spec["cell_width"]) / track.cell


def render_track(spec: dict[str, Any], data: dict[str, Any], where: str) -> Image.Image:
    """The track's picture (:func:`track_layout` drawn)."""
    return render_layout(*track_layout(spec, data, where), where=where)


def track_picture(piece: dict[str, Any], data: dict[str, Any], where: str) -> Picture:
    """A ``kind: track`` piece's picture, cached by its layout: written as ``images/<id>.png``
    or as its ``file`` (printing ``{cells}``, the cell count, and ``{key}``, the number it is
    counted from), as wide on the table as ``cell_width`` per cell says (else the piece's own
    ``width`` sizes it)."""
    spec = piece["track"]
    layout = track_layout(spec, data, f"{where}.track")
    track = Track.of(spec, data, f"{where}.track")
    file = spec.get("file", "").replace("{cells}", str(track.cells))
    if isinstance(spec["cells"], dict):
        key = track.cells - int(spec["cells"].get("add", 0))
        file = file.replace("{key}", str(key))
    return Picture(
        {"track": layout},
        lambda: render_track(spec, data, where),
        width=drawn_width(spec, track),
        file=file,
    )


def track_pieces(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The manifest's ``kind: track`` pieces, in order."""
    return [piece for piece in manifest["pieces"] if piece["kind"] == "track"]
