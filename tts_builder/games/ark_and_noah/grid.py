"""The Ark as a board of square cells, in sections: an entry of the definition's ``table.grids``
(Ark & Noah's own key, beside the manifest's) describes it as data, drawn as layout elements.

The cells lie in ``rows`` x ``cols`` of ``cell`` px, with a band of ``margin`` px above and
below them and ``ends`` px left and right. Its spots, named as the rules of a grid game name
them: cells ``r:c``; edges ``h:r:c`` (the horizontal edge above cell (r, c); r = rows is the
bottom side) and ``v:r:c`` (the vertical edge left of cell (r, c); c = cols is the right side),
horizontal ones first, each by row then column; hull points ``p:y:x``, the grid points on the
outline by row then column, each pushed half the margin outwards (off the cells).

With ``sections`` the board is put together from section boards of ``cols`` columns each: an
end kind at each end (its ``ends`` px on its outer side) and middles between, as the by-player-
count rows at the definition key ``layouts`` say (``{players: [n...], layout: [kind...]}``);
each kind is one picture, cut from one drawing of a first + middle + last board, so sections
laid side by side in any number continue each other's lines. ``rows`` and ``cols`` may be a
definition key's number (``{key: rules.ark.section.cols}``).

The picture is its ``elements``: layout elements (:mod:`tts_builder.render.layout`), each
placed by its ``at``, a frame of the grid: ``picture`` (the whole), ``cells`` (the box of all
the cells), ``first_end`` and ``last_end`` (the ends beside the cells, between the margins),
and, drawn once per item, ``cell`` (each cell's square), ``column_line`` and ``row_line``
(each grid line, a frame of width or height 0) and ``hull_point`` (each hull point, a frame of
size 0). An element's ``box`` is added edge by edge to its frame's (x0 to the frame's left, x1
to its right...), so ``[5, 5, -5, -5]`` on ``cell`` is each cell's square 5 px in;
``split: N`` draws it instead on each of the N - 1 lines dividing the frame's height into N
equal parts (planks, or the middle with ``split: 2``); ``parity: even`` (``odd``) on ``cell``
draws it on the cells (r, c) whose r + c is even (odd) only, as a chess board's squares (with
``sections``, only of even ``cols``: the middles must all start on the same parity).

This module is pure: the spec, the spots' pixels and the pictures. Where the sections and
spots lie on the table per player count is :mod:`.ark`'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from ...errors import FieldError
from ...render import ELEMENTS
from ...render.layout import render_layout, validate_layout
from ...schema import Custom, Int, ListOf, Map, MappingOf, Num, OneOf, Str
from ...table.derived import KEY, either, key_number, key_value, number_or_key

Pixel = tuple[float, float]
Frame = tuple[int, int, int, int]
#: A picture as data: its layout elements, its pixel size and (no) fields.
Layout = tuple[list[dict[str, Any]], tuple[int, int], dict[str, str]]
#: Where an element is placed (frames drawn once, then those drawn once per item).
FRAMES = (
    "picture",
    "cells",
    "first_end",
    "last_end",
    "cell",
    "column_line",
    "row_line",
    "hull_point",
)
#: The spot sets of a grid, and the word each one's script positions are labelled with unless
#: its ``spots`` say otherwise (with the half size of the printed spot: by default half a cell,
#: a tenth of a cell across an edge, half the margin).
SPOT_SETS = ("cells", "edges", "hull")
DEFAULT_NAMES = {"cells": "cell", "edges": "edge", "hull": "hull point"}


def _elements(value: Any, path: str) -> None:
    """Layout elements, each with an ``at`` (a frame: :data:`FRAMES`), maybe a ``split`` and
    (at ``cell``) a ``parity``."""
    ListOf(Custom(lambda v, p: None), 1).check(value, path)
    for i, element in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(element, dict) or "at" not in element:
            raise FieldError(f"{where}.at", f"missing required key (one of {', '.join(FRAMES)})")
        if element["at"] not in FRAMES:
            known = ", ".join(FRAMES)
            raise FieldError(f"{where}.at", f"unknown frame {element['at']!r} (frames: {known})")
        if "split" in element:
            Int(2, 100).check(element["split"], f"{where}.split")
        if "parity" in element:
            if element["at"] != "cell":
                raise FieldError(f"{where}.parity", "only an element at cell has a parity")
            OneOf(("even", "odd")).check(element["parity"], f"{where}.parity")
        ListOf(Int(-9999, 9999), 4, 4).check(element.get("box"), f"{where}.box")
    # each box is an offset from its frame's (checked once placed: grid_elements)
    validate_layout([{**_plain(e), "box": [0, 0, 1, 1]} for e in value], path)


def _number(value: Any, path: str) -> None:
    """A number, or ``{key: a.b.c}`` (the definition's number at that key)."""
    if isinstance(value, dict):
        Map({"key": KEY}).check(value, path)
    else:
        Num(0.001, 1000).check(value, path)


#: The grid's elements as JSON Schema: layout elements, each placed at a frame.
ELEMENTS_JSON = {
    "type": "array",
    "minItems": 1,
    "items": {
        "type": "object",
        "properties": {
            "at": {"enum": list(FRAMES)},
            "split": {"type": "integer", "minimum": 2, "maximum": 100},
            "parity": {"enum": ["even", "odd"]},
            "type": {"enum": list(ELEMENTS)},
        },
        "required": ["at", "type"],
    },
}
#: A spot set's label word and the half size of its printed spot, px (across, for an edge).
SPOT = Map({"name": Str(), "half": Num(0, 2000)}, frozenset({"name", "half"}))
#: A ``grids`` entry of the manifest.
GRID = Map(
    {
        "rows": number_or_key(1, 100),
        "cols": number_or_key(1, 100),
        "cell": Int(8, 2000),
        "margin": Int(0, 2000),
        "ends": Int(0, 2000),
        "at": ListOf(Num(), 2, 2),
        "cell_width": either(_number, Num(0.001, 1000), Map({"key": KEY})),
        "sections": Map({"layouts": KEY, "kinds": ListOf(Str(pattern=r"[a-z0-9]+"), 3, 3)}),
        "spots": Map({name: SPOT for name in SPOT_SETS}, frozenset(SPOT_SETS)),
        "elements": Custom(_elements, json=ELEMENTS_JSON),
    },
    frozenset({"margin", "ends", "sections", "spots"}),
)
GRIDS = MappingOf(
    Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a grid id like 'ark'"), GRID, "grid id -> grid"
)


@dataclass(frozen=True)
class Grid:
    """A grid's pixels: ``rows`` x ``cols`` cells of ``cell`` px, a ``margin`` px band above
    and below them and ``ends`` px at the left and right."""

    rows: int
    cols: int
    cell: int
    margin: int = 0
    ends: int = 0

    @classmethod
    def of(cls, spec: dict[str, Any], data: dict[str, Any], path: str = "grid") -> Grid:
        """The grid of a ``grids`` entry (of one section, with ``sections``)."""
        rows = key_number(spec["rows"], data, f"{path}.rows", 1, 100)
        cols = key_number(spec["cols"], data, f"{path}.cols", 1, 100)
        margin, ends = int(spec.get("margin", 0)), int(spec.get("ends", 0))
        return cls(rows, cols, int(spec["cell"]), margin, ends)

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the whole picture in px."""
        return 2 * self.ends + self.cols * self.cell, 2 * self.margin + self.rows * self.cell

    def grid_point(self, y: float, x: float) -> Pixel:
        """Pixel of grid point (y, x) (row line y, column line x; fractions allowed)."""
        return self.ends + x * self.cell, self.margin + y * self.cell

    def cell_px(self, r: int, c: int) -> Pixel:
        """Centre of cell (r, c)."""
        return self.grid_point(r + 0.5, c + 0.5)

    def edge_px(self, edge: str) -> tuple[float, float, float]:
        """(x, y, angle): the centre of an edge and the angle of its line (0 = along x)."""
        kind, r, c = edge[0], *map(int, edge[2:].split(":"))
        if kind == "h":
            return (*self.grid_point(r, c + 0.5), 0.0)
        return (*self.grid_point(r + 0.5, c), 90.0)

    def hull_px(self, point: str) -> Pixel:
        """Centre of a hull point's spot: the grid point pushed half the margin outwards."""
        y, x = map(int, point[2:].split(":"))
        px, py = self.grid_point(y, x)
        half = self.margin / 2
        dx = -half if x == 0 else half if x == self.cols else 0.0
        dy = -half if y == 0 else half if y == self.rows else 0.0
        return px + dx, py + dy

    def cells(self) -> list[str]:
        return [f"{r}:{c}" for r in range(self.rows) for c in range(self.cols)]

    def edges(self) -> list[str]:
        across = [f"h:{r}:{c}" for r in range(self.rows + 1) for c in range(self.cols)]
        return across + [f"v:{r}:{c}" for r in range(self.rows) for c in range(self.cols + 1)]

    def hull(self) -> list[str]:
        return [
            f"p:{y}:{x}"
            for y in range(self.rows + 1)
            for x in range(self.cols + 1)
            if y in (0, self.rows) or x in (0, self.cols)
        ]

    def points(self) -> dict[str, dict[str, tuple[float, ...]]]:
        """Every spot in px, by set: ``cells`` and ``hull`` name -> (x, y), ``edges`` name ->
        (x, y, angle)."""
        return {
            "cells": {name: self.cell_px(*map(int, name.split(":"))) for name in self.cells()},
            "edges": {name: self.edge_px(name) for name in self.edges()},
            "hull": {name: self.hull_px(name) for name in self.hull()},
        }

    def frames(self, at: str) -> Iterator[Frame]:
        """The boxes of frame ``at`` (:data:`FRAMES`), in drawing order."""
        w, h = self.size
        e, m, s = self.ends, self.margin, self.cell
        if at in ("picture", "cells", "first_end", "last_end"):
            boxes = {
                "picture": (0, 0, w, h),
                "cells": (e, m, w - e, h - m),
                "first_end": (0, m, e, h - m),
                "last_end": (w - e, m, w, h - m),
            }
            yield boxes[at]
        elif at == "cell":
            for r in range(self.rows):
                for c in range(self.cols):
                    x0, y0 = (int(v) for v in self.grid_point(r, c))
                    yield x0, y0, x0 + s, y0 + s
        elif at == "column_line":
            for x in range(self.cols + 1):
                x0 = int(self.grid_point(0, x)[0])
                yield x0, m, x0, h - m
        elif at == "row_line":
            for y in range(self.rows + 1):
                y0 = int(self.grid_point(y, 0)[1])
                yield e, y0, w - e, y0
        else:
            for point in self.hull():
                x0, y0 = (int(v) for v in self.hull_px(point))
                yield x0, y0, x0, y0


def _plain(element: dict[str, Any]) -> dict[str, Any]:
    """An element without its placing keys (what the layout renderer draws)."""
    return {k: v for k, v in element.items() if k not in ("at", "split", "parity")}


def _split(frame: Frame, parts: int) -> Iterator[Frame]:
    """The N - 1 lines dividing a frame's height into ``parts`` equal parts."""
    x0, y0, x1, y1 = frame
    for k in range(1, parts):
        y = y0 + k * (y1 - y0) // parts
        yield x0, y, x1, y


def grid_elements(
    grid: Grid, elements: list[dict[str, Any]], path: str = "grid.elements"
) -> list[dict[str, Any]]:
    """The spec's elements placed on ``grid``: each once per box of its frame (or of its
    split lines), checked inside the picture (FieldError at the element's path)."""
    out = []
    for i, element in enumerate(elements):
        placed = []
        frames = list(grid.frames(element["at"]))
        if "parity" in element:  # cell (r, c) is even when r + c is
            odd = element["parity"] == "odd"
            frames = [f for k, f in enumerate(frames) if sum(divmod(k, grid.cols)) % 2 == odd]
        if "split" in element:
            frames = [line for frame in frames for line in _split(frame, element["split"])]
        a, b, c, d = element["box"]
        for x0, y0, x1, y1 in frames:
            placed.append({**_plain(element), "box": [x0 + a, y0 + b, x1 + c, y1 + d]})
        validate_layout(placed, f"{path}[{i}] copy", grid.size)
        out += placed
    return out


def cell_width(spec: dict[str, Any], data: dict[str, Any], path: str = "grid") -> float:
    """A cell's side on the table (a number, or the definition's number at its key)."""
    value = spec["cell_width"]
    if isinstance(value, dict):
        value = key_value(data, value["key"], f"{path}.cell_width.key")
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise FieldError(f"{path}.cell_width", f"expected a positive number, got {value!r}")
    return float(value)


# ------------------------------------------------------------------------------- sections


def kinds_of(spec: dict[str, Any]) -> list[str]:
    """The section kinds (first end, middle, last end), or none for a board in one piece."""
    return list(spec["sections"]["kinds"]) if "sections" in spec else []


#: The definition's by-player-count rows of a sectioned grid's layouts.
LAYOUTS = ListOf(Map({"players": ListOf(Int(1, 99), 1), "layout": ListOf(Str(), 1)}), 1)


def layout_for(spec: dict[str, Any], data: dict[str, Any], players: int, path: str) -> list[str]:
    """The sections of the board for ``players`` (one board in one piece: [""]): the first
    end, any number of middles, the last end (FieldError at ``sections.layouts`` otherwise)."""
    if "sections" not in spec:
        return [""]
    key = spec["sections"]["layouts"]
    rows = key_value(data, key, f"{path}.sections.layouts")
    LAYOUTS.check(rows, f"{path}.sections.layouts")
    row = next((r for r in rows if players in r.get("players", [])), None)
    if row is None:
        raise FieldError(f"{path}.sections.layouts", f"{key} has no row for {players} players")
    kinds = kinds_of(spec)
    for kind in row["layout"]:
        if kind not in kinds:
            known = ", ".join(kinds)
            raise FieldError(
                f"{path}.sections.layouts", f"{key}: unknown section {kind!r} (kinds: {known})"
            )
    first, middle, last = kinds
    layout = list(row["layout"])
    if len(layout) < 2 or layout != [first, *[middle] * (len(layout) - 2), last]:
        raise FieldError(
            f"{path}.sections.layouts",
            f"{key}: layout {layout} for {players} players is not {first}, any number of "
            f"{middle}, {last} (the ends' px lie outside the first and last section)",
        )
    return layout


def section_width(grid: Grid, spec: dict[str, Any], kind: str) -> int:
    """The px width of a section of ``kind`` (the whole board's for a board in one piece)."""
    kinds = kinds_of(spec)
    if not kinds:
        return grid.size[0]
    return grid.cols * grid.cell + (grid.ends if kind in (kinds[0], kinds[2]) else 0)


def section_offsets(grid: Grid, spec: dict[str, Any], layout: list[str]) -> list[tuple[str, int]]:
    """(kind, x px of its left side in the whole board) for each section of ``layout``."""
    out, x = [], 0
    for kind in layout:
        out.append((kind, x))
        x += section_width(grid, spec, kind)
    return out


def whole(grid: Grid, sections: int) -> Grid:
    """The grid of a board of ``sections`` sections side by side."""
    return replace(grid, cols=grid.cols * max(sections, 1))


def pictures_layout(spec: dict[str, Any], data: dict[str, Any], path: str = "grid") -> Layout:
    """The picture the boards are cut from (a first + middle + last board, or the one
    board), as a layout."""
    grid = Grid.of(spec, data, path)
    for i, element in enumerate(spec["elements"]):
        if "parity" in element and kinds_of(spec) and grid.cols % 2:
            raise FieldError(
                f"{path}.elements[{i}].parity",
                f"sections of {grid.cols} (odd) cols: a second middle would start on the "
                "other parity (give the sections an even number of cols)",
            )
    drawn = whole(grid, len(kinds_of(spec)))
    return grid_elements(drawn, spec["elements"], f"{path}.elements"), drawn.size, {}


def picture_boxes(
    spec: dict[str, Any], data: dict[str, Any], path: str = "grid"
) -> dict[str, tuple[int, int, int, int]]:
    """Each kind's pixel box in :func:`pictures_layout`'s picture (``""``: the one board)."""
    grid = Grid.of(spec, data, path)
    kinds = kinds_of(spec) or [""]
    return {
        kind: (x, 0, x + section_width(grid, spec, kind), grid.size[1])
        for kind, x in section_offsets(grid, spec, kinds)
    }


def render_pictures(
    spec: dict[str, Any], data: dict[str, Any], path: str = "grid"
) -> dict[str, Image.Image]:
    """Every kind's picture, cut from one drawing of :func:`pictures_layout`."""
    picture = render_layout(*pictures_layout(spec, data, path), where=path)
    return {kind: picture.crop(box) for kind, box in picture_boxes(spec, data, path).items()}
