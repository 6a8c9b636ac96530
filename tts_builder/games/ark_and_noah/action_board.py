"""The Ark & Noah action board: a column per action in board order, each printing its number,
name, amounts and what it does (the game's fields, :func:`~.boards.action_fields`), with the
worker spaces (completed and current action) and the bonus ring of the standard side, or the
one choice spot of the family side; the board's own title on top.

:data:`COLUMNS` describes it: the picture's pixel ``size``, the ``margin`` left and right of
the columns, the ``board`` elements drawn once, the ``spots`` of each column (``x``: a fraction
of the column's width from its centre, ``y`` px, ``half``: half the printed spot's size) and per
side the ``column`` elements, each placed by its ``at``: ``left`` (its box's x from the column's
left edge), ``column`` (the box's left x from the column's left edge, its right x from the
column's right edge) or a spot's name (the box around that spot's centre). Where a spot lies on
the table is the laid board's (:func:`~tts_builder.table.printed.laid_board`): the manifest
piece ``action-board`` gives the board's place and width.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from ... import geometry as geo
from ...json_types import Data
from ...plugin import Picture
from ...render.layout import render_layout
from ...table import pieces_by_id
from ...table.fields import printed
from ...table.layout import thickness_of, top_of
from ...table.printed import Board, laid_board

PIECE = "action-board"
INK, SPACE, BONUS = "#2b1d0e", "#fff8e6", "#b8860b"
_COLUMN = {"at": "column", "type": "rect", "box": [6, 84, -6, 690], "fill": "#e6d2a0", "radius": 18}
_WORDS = [
    {"at": "left", "type": "text", "text": "{number}", "box": [14, 92, 60, 132], "size": 30,
     "bold": True, "color": INK, "align": "left"},
    {"at": "column", "type": "text", "text": "{name}", "box": [12, 420, -12, 480], "size": 34,
     "bold": True, "color": INK},
    {"at": "column", "type": "text", "text": "{amounts}", "box": [12, 490, -12, 560], "size": 44,
     "bold": True, "color": "#1f5f8b"},
    {"at": "column", "type": "text", "text": "{text}", "box": [16, 570, -16, 670], "size": 24,
     "color": INK},
]  # fmt: skip
_RING = [-62, -62, 62, 62]
_LABEL = [-62, 32, 62, 56]
#: The action board's columns, spots and the elements of each side.
COLUMNS: Data = {
    "size": [1600, 720],
    "margin": 30,
    "spots": {
        "completed": {"x": 0, "y": 150, "half": 62},
        "current": {"x": 0, "y": 330, "half": 62},
        "bonus": {"x": 0.3, "y": 268, "half": 26},
    },
    "board": [
        {"type": "rect", "box": [0, 0, 1600, 720], "fill": "#5b3a1a", "radius": 28},
        {"type": "rect", "box": [12, 12, 1588, 708], "fill": "#f3e6c4", "radius": 22},
        {"type": "text", "text": "{title}", "box": [40, 20, 1560, 70], "size": 38, "bold": True,
         "color": INK},
    ],
    "sides": {
        "standard": [
            _COLUMN,
            {"at": "completed", "type": "ellipse", "box": _RING, "fill": SPACE, "outline": INK,
             "width": 4},
            {"at": "completed", "type": "text", "text": "done", "box": _LABEL, "size": 18,
             "color": INK},
            {"at": "current", "type": "ellipse", "box": _RING, "fill": SPACE, "outline": INK,
             "width": 4},
            {"at": "current", "type": "text", "text": "now", "box": _LABEL, "size": 18,
             "color": INK},
            {"at": "bonus", "type": "ellipse", "box": [-26, -26, 26, 26], "outline": BONUS,
             "width": 4},
            {"at": "bonus", "type": "text", "text": "+", "box": [-26, -26, 26, 26], "size": 30,
             "bold": True, "color": BONUS},
            {"at": "completed", "type": "rect", "box": [-3, 62, 3, 118], "fill": INK},
            *_WORDS,
        ],
        "family": [
            _COLUMN,
            {"at": "current", "type": "ellipse", "box": [-80, -150, 80, 10], "fill": SPACE,
             "outline": INK, "width": 4},
            *_WORDS,
        ],
    },
}  # fmt: skip
#: The spots a worker snaps to (standard game), column by column: the track ``worker-spaces``.
WORKER_SPOTS = ("completed", "current")

Pixel = tuple[float, float]


@dataclass(frozen=True)
class Column:
    """One column: its left and right edge in px and its spots' centres by name."""

    x0: int
    x1: int
    spots: dict[str, Pixel]


def columns_of(count: int, spec: Data = COLUMNS) -> list[Column]:
    """The ``count`` columns side by side across the board inside its margins, each edge on
    a whole pixel, with their spots."""
    margin = spec.get("margin", 0)
    step = (spec["size"][0] - 2 * margin) / count
    out = []
    for i in range(count):
        x0, x1 = round(margin + i * step), round(margin + (i + 1) * step)
        centre = (x0 + x1) / 2
        spots = {
            name: (centre + (x1 - x0) * spot["x"], float(spot["y"]))
            for name, spot in spec["spots"].items()
        }
        out.append(Column(x0, x1, spots))
    return out


def _placed(element: Data, column: Column) -> Data:
    """A column element moved into ``column`` (by its ``at``), without its ``at``."""
    x0, y0, x1, y1 = element["box"]
    at = element["at"]
    if at == "left":
        box = [column.x0 + x0, y0, column.x0 + x1, y1]
    elif at == "column":
        box = [column.x0 + x0, y0, column.x1 + x1, y1]
    else:
        cx, cy = (int(v) for v in column.spots[at])
        box = [cx + x0, cy + y0, cx + x1, cy + y1]
    return {**{k: v for k, v in element.items() if k != "at"}, "box": box}


def columns_layout(
    side: str, columns: list[Data], fields: dict[str, str], spec: Data = COLUMNS
) -> tuple[list[Data], tuple[int, int], dict[str, str]]:
    """One side of the board as layout elements: the board's, then each column's printed with
    its entry of ``columns`` (its fields; ``number`` is its 1-based place); ``fields`` are
    the board's (``{title}``)."""
    els = [dict(e) for e in spec.get("board", [])]
    for i, (column, own) in enumerate(zip(columns_of(len(columns), spec), columns, strict=True)):
        values = {"number": i + 1, **own}
        for element in spec["sides"][side]:
            placed = _placed(element, column)
            if "text" in placed:
                placed["text"] = printed(placed["text"], values)
            els.append(placed)
    return els, (spec["size"][0], spec["size"][1]), dict(fields)


#: One side of a board as the game prints it: its columns' fields and the board's fields.
PrintedSide = tuple[list[Data], dict[str, str]]


def sided_pictures(
    sides: Mapping[str, PrintedSide], face: str, spec: Data = COLUMNS, piece: str = PIECE
) -> dict[str, Picture]:
    """The pictures of the board printed on each of ``sides`` (side -> its fields,
    :func:`columns_layout`): the ``face`` side as ``piece``, the first other side as
    ``<piece>-back`` (the face again when it has only one), each written as ``<piece>-<side>``;
    each picture's spec (its cache key) is the layout it is drawn from."""
    drawn = {}
    for side, (columns, fields) in sides.items():
        layout = columns_layout(side, columns, fields, spec)
        draw = partial(render_layout, *layout, where="action board")
        drawn[side] = Picture({"board": side, "layout": layout}, draw, file=f"{piece}-{side}")
    back = next((picture for side, picture in drawn.items() if side != face), drawn[face])
    return {piece: drawn[face], f"{piece}-back": back}


def _laid(data: Data) -> tuple[Board, list[Column]]:
    """The laid board (the manifest's piece at its place and width) and its columns, one per
    action of the rules (``rules.actions``)."""
    board = laid_board(data["table"], PIECE, (COLUMNS["size"][0], COLUMNS["size"][1]))
    return board, columns_of(len(data["rules"]["actions"]))


def column_spots(data: Data) -> list[dict[str, list[float]]]:
    """Each column's spots (name -> table [x, z])."""
    board, columns = _laid(data)
    return [{name: board.at(px) for name, px in column.spots.items()} for column in columns]


def worker_spaces(data: Data) -> list[tuple[float, float, float]]:
    """The track ``worker-spaces``: each column's :data:`WORKER_SPOTS` at the board's top."""
    top = top_of(thickness_of(pieces_by_id(data["table"])[PIECE]))
    return [(s[n][0], top, s[n][1]) for s in column_spots(data) for n in WORKER_SPOTS]


def column_positions(
    data: Data, guid: str, labels: list[str], kind: str, y: float
) -> list[geo.ScriptPosition]:
    """A script position at every spot of the first ``len(labels)`` columns (the board object
    ``guid``), labelled ``<label> <spot>``, at height ``y``: the geometry check expects each
    inside its printed spot."""
    board, columns = _laid(data)
    halves = {name: float(spot["half"]) for name, spot in COLUMNS["spots"].items()}
    return [
        board.cell(f"{label} {what}", guid, column.spots[what], (r, r), kind, y)
        for label, column in zip(labels, columns, strict=False)
        for what, r in halves.items()
    ]
