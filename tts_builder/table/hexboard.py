"""A hex-map board on the table: the geometry of :mod:`tts_builder.render.hexmap` laid where
the manifest says, and its hexes as a script and the save checker see them.

For any game whose board is a hex map drawn with ``render.hexmap`` (odd-r rows, row 0 at the
top, the picture measured in table units): the manifest key
``board: {centre: [x, z], hex_width: W, pixels_per_unit: P}`` (:data:`BOARD`, the schema type
``hex_board``) and the map's rows and columns give the board's
:class:`~tts_builder.render.hexmap.BoardGeometry` (:func:`geometry`);
:func:`cells`, :func:`centres` and :func:`names` list every hex row by row (the order of a
script's hex lists); :func:`track` lays points on listed hexes; :func:`picture` hands the
drawn board to the manifest at its size; :func:`hex_points` is a
:class:`~tts_builder.table.printed.PrintedPoint` at every hex centre, and
:func:`printed_cells` makes points measured on the board script positions, each meaning the
cell printed under it (the geometry check maps each back onto the picture).

``render.hexmap`` puts the picture's top edge away from the White seat (+z): the board must
lie that way, upright for a first seat on White's side of the table (White or Red), else
:func:`printed_cells` refuses the manifest's first seat.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from ..errors import FieldError
from ..gamekit.table import rounded
from ..geometry import TABLE_TOP_Y, ScriptPosition
from ..plugin import Picture
from ..render.hexmap import BoardGeometry, Hex, hex_name, hex_table, hex_units
from .layout import THICKNESS
from .printed import PrintedPoint, board, shared_rot_y
from .printed import printed_cells as _printed_cells
from .schema import HEX_BOARD

Point3 = tuple[float, float, float]

#: The manifest's ``board`` key a hex board is laid by (an engine's schema: ``hex_board``).
BOARD = HEX_BOARD
#: The rotY of a board whose picture's top edge lies away from the White seat (+z).
UPRIGHT_ROT_Y = 180.0


def geometry(
    spec: Mapping[str, Any], rows: int, cols: int, thickness: float = THICKNESS
) -> BoardGeometry:
    """The geometry of a ``rows`` x ``cols`` hex board laid as the manifest's ``board`` key
    ``spec`` says (its ``centre``, ``hex_width`` and ``pixels_per_unit``), on the table top."""
    return BoardGeometry(
        rows=rows,
        cols=cols,
        hex_width=float(spec["hex_width"]),
        px_per_unit=float(spec["pixels_per_unit"]),
        centre=(float(spec["centre"][0]), float(spec["centre"][1])),
        y=TABLE_TOP_Y + thickness / 2,
        thickness=thickness,
    )


def cells(geo: BoardGeometry) -> list[Hex]:
    """Every hex (row, column), row by row."""
    return [(r, c) for r in range(geo.rows) for c in range(geo.cols)]


def centres(geo: BoardGeometry) -> list[Any]:
    """Table [x, z] of every hex centre (:func:`cells` order), rounded as a script gets them."""
    return [rounded(list(hex_table(geo, r, c))) for r, c in cells(geo)]


def names(geo: BoardGeometry) -> list[str]:
    """Every hex as printed on the board (``C5``), in :func:`cells` order."""
    return [hex_name(r, c) for r, c in cells(geo)]


def track(geo: BoardGeometry, hexes: Iterable[Sequence[int]], y: float) -> list[Point3]:
    """Table (x, y, z) of the centres of ``hexes`` (each ``[row, col]``) at height ``y``: a
    manifest track (``at: {track: NAME}``: pieces on their start hexes)."""
    return [(x, y, z) for x, z in (hex_table(geo, int(r), int(c)) for r, c in hexes)]


def picture(geo: BoardGeometry, spec: Any, make: Callable[[], Image.Image]) -> Picture:
    """The board's picture (``make`` draws it, ``spec`` is its cache key) as the manifest
    takes it: drawn to scale (``geo.side`` units wide), its pixels refused at load above what
    TTS loads, at ``table.board.pixels_per_unit``."""
    return Picture(
        spec, make, width=geo.side, pixels=geo.image_size, sized_by="table.board.pixels_per_unit"
    )


def hex_points(geo: BoardGeometry, y: float, inside: float = 0.8) -> list[PrintedPoint]:
    """A point at every hex centre (:func:`centres`) at height ``y``, labelled ``hex C5``, of
    kind ``hex``: it means the hex printed under it, within ``inside`` times the radius of the
    hex's inscribed circle each way."""
    half = inside * (geo.hex_width / 2)
    return [
        PrintedPoint(f"hex {hex_name(r, c)}", "hex", (x, y, z), hex_units(geo, r, c), (half, half))
        for (r, c), (x, z) in zip(cells(geo), centres(geo), strict=True)
    ]


def printed_cells(
    geo: BoardGeometry, manifest: Mapping[str, Any], guid: str, points: Iterable[PrintedPoint]
) -> list[ScriptPosition]:
    """Script positions at ``points`` (their cells measured in table units from the board's
    top-left corner) on the board object ``guid``, laid at the geometry's centre, upright for
    the manifest's first seat: each means the cell printed under it (FieldError at the first
    seat when it would turn the board off the hex geometry's upright)."""
    rot_y = shared_rot_y(manifest)
    if rot_y != UPRIGHT_ROT_Y:
        raise FieldError(
            "table.seats[0]",
            f"a hex board lies with its top edge away from White; this first seat reads it at "
            f"rotY {rot_y:g}",
        )
    printed = board(geo.centre, (geo.side, geo.side), geo.side, rot_y)
    return _printed_cells(printed, guid, points)
