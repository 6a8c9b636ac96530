"""A board of equal columns (an action board, a market row): the same elements printed in each
column with that column's fields, and named spots in every column where pieces go.

A board piece's ``columns`` key describes it (validated with the manifest, :data:`COLUMNS`):
its pixel ``size``, the ``margin`` left and right of the columns, the ``board`` elements drawn
once (absolute, printing the game's board fields such as ``{title}``), the ``spots`` of each
column (``x``: a fraction of the column's width from its centre, ``y`` px, ``half``: half the
printed spot's size) and per side of the board the ``column`` elements, each placed by its
``at``: ``left`` (its box's x from the column's left edge), ``column`` (the box's left x from
the column's left edge, its right x from the column's right edge) or a spot's name (the box
around that spot's centre). A column element's ``text`` prints the column's fields
(``{number}``, 1-based, and whatever the game hands it), so the board is drawn from data and
rule fields alone; where each spot lies on the table is :mod:`.printed`'s ``Board.at``.
``count`` (a number or a definition key: ``{key: rules.actions, length: true}``) says how many
columns the board has, so the table knows its spots without the game's code
(:func:`~.printed.column_spots`, :func:`~.printed.column_positions`), and ``tracks: {NAME:
[spot, ...]}`` makes the track ``NAME`` of those spots of every column, column by column, at
the board's top (snap points for workers: ``at: {track: NAME}``). A board printed on two sides
(one per way to play) is :func:`sided_pictures`' pair of pictures.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..errors import FieldError
from ..plugin import Picture
from ..render.layout import render_layout, validate_layout
from ..schema import Custom, Int, ListOf, Map, MappingOf, Num, Str
from .derived import key_number, number_or_key

Pixel = tuple[float, float]
#: Where a column element's box is measured from (else a spot's name).
PLACES = ("left", "column")


def _column_elements(value: Any, path: str) -> None:
    """Layout elements, each with an ``at`` (:data:`PLACES` or a spot's name)."""
    ListOf(Custom(lambda v, p: None), 1).check(value, path)
    for i, element in enumerate(value):
        if not isinstance(element, dict) or "at" not in element:
            raise FieldError(f"{path}[{i}].at", "missing required key (left, column or a spot)")
        Str().check(element["at"], f"{path}[{i}].at")


SPOT = Map({"x": Num(), "y": Num(), "half": Num()})
#: The ``columns`` key of a board piece.
COLUMNS = Map(
    {
        "size": ListOf(Int(16, 4096), 2, 2),
        "margin": Int(0, 2000),
        "board": Custom(lambda v, p: validate_layout(v, p)),
        "spots": MappingOf(Str(pattern=r"[a-z][a-z0-9_]*", hint="a spot name"), SPOT, "spot"),
        "sides": MappingOf(Str(), Custom(_column_elements), "side -> column elements"),
        "count": number_or_key(1, 64),
        "tracks": MappingOf(
            Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a track id"),
            ListOf(Str(), 1),
            "track id -> [spot, ...]",
        ),
    },
    frozenset({"margin", "board", "count", "tracks"}),
)


def _plain(element: dict[str, Any]) -> dict[str, Any]:
    """A column element without its ``at`` (what the layout renderer draws)."""
    return {k: v for k, v in element.items() if k != "at"}


def check_columns(spec: dict[str, Any], path: str) -> None:
    """Every column element's ``at`` is a place or one of the board's spots, and each element
    is one the layout renderer draws, inside the board when the board has one column."""
    for side, elements in spec["sides"].items():
        for i, element in enumerate(elements):
            if element["at"] not in (*PLACES, *spec["spots"]):
                known = ", ".join((*PLACES, *spec["spots"]))
                raise FieldError(
                    f"{path}.sides.{side}[{i}].at",
                    f"unknown place {element['at']!r} (places: {known})",
                )
        (widest,) = columns_of(spec, 1)
        placed = [_placed(element, widest) for element in elements]
        validate_layout(placed, f"{path}.sides.{side}", (spec["size"][0], spec["size"][1]))
    for name, names in spec.get("tracks", {}).items():
        for i, spot in enumerate(names):
            if spot not in spec["spots"]:
                raise FieldError(
                    f"{path}.tracks.{name}[{i}]",
                    f"unknown spot {spot!r} (spots: {', '.join(spec['spots'])})",
                )
        if "count" not in spec:
            raise FieldError(f"{path}.count", f"missing required key (the columns track {name})")


def columns_piece(
    manifest: Mapping[str, Any], piece: str, key: str = "table", what: str = ""
) -> tuple[int, dict[str, Any]]:
    """The index of the manifest's (at ``key``) board ``piece`` and its ``columns``:
    FieldError at ``<key>.pieces`` without such a piece, at its ``columns`` without them."""
    pieces = manifest["pieces"]
    index = next((i for i, p in enumerate(pieces) if p["id"] == piece), None)
    if index is None:
        raise FieldError(f"{key}.pieces", f"no piece {piece!r}")
    if "columns" not in pieces[index]:
        name = f"{what}'s" if what else f"the board {piece!r}'s"
        raise FieldError(f"{key}.pieces[{index}].columns", f"missing required key ({name} columns)")
    return index, pieces[index]["columns"]


def needed_columns(
    manifest: dict[str, Any], piece: str, spots: Sequence[str], sides: Sequence[str], what: str
) -> dict[str, Any]:
    """The ``columns`` of the manifest's board ``piece`` (``what``, as errors name it) whose
    ``spots`` a game's script uses and whose ``sides`` its code prints: FieldError at the
    manifest's pieces without that piece, at the missing key, or at ``spots`` or ``sides``
    naming what is missing."""
    index, spec = columns_piece(manifest, piece, "table", what)
    path = f"table.pieces[{index}].columns"
    for key, names in (("spots", spots), ("sides", sides)):
        missing = [name for name in names if name not in spec[key]]
        if missing:
            raise FieldError(
                f"{path}.{key}", f"{what} needs {', '.join(names)} (missing {', '.join(missing)})"
            )
    return dict(spec)


def column_count(spec: dict[str, Any], data: dict[str, Any], path: str) -> int:
    """How many columns a board has: its ``count``, or its key's number (FieldError at
    ``path``'s ``count`` without one)."""
    if "count" not in spec:
        raise FieldError(f"{path}.count", "missing required key (how many columns)")
    return key_number(spec["count"], data, f"{path}.count", 1, 64)


@dataclass(frozen=True)
class Column:
    """One column: its left and right edge in px and its spots' centres by name."""

    x0: int
    x1: int
    spots: dict[str, Pixel]


def columns_of(spec: dict[str, Any], count: int) -> list[Column]:
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


def _filled(text: str, fields: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(fields.get(m.group(1), m.group(0))), text)


def _placed(element: dict[str, Any], column: Column) -> dict[str, Any]:
    """A column element moved into ``column`` (by its ``at``)."""
    x0, y0, x1, y1 = element["box"]
    at = element["at"]
    if at == "left":
        box = [column.x0 + x0, y0, column.x0 + x1, y1]
    elif at == "column":
        box = [column.x0 + x0, y0, column.x1 + x1, y1]
    else:
        cx, cy = (int(v) for v in column.spots[at])
        box = [cx + x0, cy + y0, cx + x1, cy + y1]
    return {**_plain(element), "box": box}


def columns_layout(
    spec: dict[str, Any], side: str, columns: list[dict[str, Any]], fields: dict[str, str]
) -> tuple[list[dict[str, Any]], tuple[int, int], dict[str, str]]:
    """One side of the board as layout elements: the board's, then each column's printed with
    its entry of ``columns`` (its fields; ``number`` is its 1-based place); ``fields`` are
    the board's (``{title}``)."""
    els = [dict(e) for e in spec.get("board", [])]
    for i, (column, own) in enumerate(zip(columns_of(spec, len(columns)), columns, strict=True)):
        values = {"number": i + 1, **own}
        for element in spec["sides"][side]:
            placed = _placed(element, column)
            if "text" in placed:
                placed["text"] = _filled(placed["text"], values)
            els.append(placed)
    return els, (spec["size"][0], spec["size"][1]), dict(fields)


def spot_halves(spec: dict[str, Any]) -> dict[str, float]:
    """Half the printed size of each spot, in px (what a position on it may miss by)."""
    return {name: float(spot["half"]) for name, spot in spec["spots"].items()}


#: One side of a board as the game prints it: its columns' fields and the board's fields.
PrintedSide = tuple[list[dict[str, Any]], dict[str, str]]


def sided_pictures(
    piece: str, spec: dict[str, Any], sides: Mapping[str, PrintedSide], face: str, what: str
) -> dict[str, Picture]:
    """The pictures of the columns board ``piece`` (``what``, as errors name it) printed on
    each of ``sides`` (side -> its fields, :func:`columns_layout`): the ``face`` side as
    ``piece``, the first other side as ``<piece>-back`` (the face again when it has only one),
    each written as ``<piece>-<side>``; each picture's spec (its cache key) is the layout it is
    drawn from, so a change to what a side prints is a new picture."""
    drawn = {}
    for side, (columns, fields) in sides.items():
        layout = columns_layout(spec, side, columns, fields)
        draw = partial(render_layout, *layout, where=what)
        drawn[side] = Picture({"board": side, "layout": layout}, draw, file=f"{piece}-{side}")
    back = next((picture for side, picture in drawn.items() if side != face), drawn[face])
    return {piece: drawn[face], f"{piece}-back": back}
