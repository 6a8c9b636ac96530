"""Boards printed from a picture the game draws: where a pixel of the picture lies on the table,
the table angle of a line drawn on it, and the script positions that mean one printed cell.

A :class:`Board` is a Stretch Custom_Tile's Transform and its picture's size (in pixels, or in
whatever unit the game measures its picture's cells in: table units for a board drawn that way;
"pixel" below means that unit); the pixel
<-> table mapping is the geometry model's (:func:`tts_builder.geometry.world_of_uv`), so a
position computed here is the one the save checker maps back onto the picture
(:class:`~tts_builder.geometry.ScriptPosition` with the cell's ``cell_uv`` and tolerance).
:func:`laid_board` gives the Board of a manifest's ``board`` piece (``table.pieces``) where
:func:`~tts_builder.table.lay_table` lays it: at its table point, upright for the first seat;
:func:`printed_cells` gives the script positions of points the script computes itself, each
meaning the cell printed under it; :func:`board_guid` finds a board in a save (as Setup left it:
a board it moved lies elsewhere), so positions can name the object they are printed on;
:func:`manifest_tracks` gives the manifest's own points as the tracks its positions and snap
points use beside the game's (``TableHooks.tracks``): each ``kind: track`` piece's cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .. import geometry as geo
from .layout import seat_frames, spots, thickness_of, top_of
from .model import pieces_by_id, seat_colors
from .track import Track, cell_half, drawn_width, seat_places, track_pieces

Pixel = tuple[float, float]


class Board(NamedTuple):
    """A printed board: its Transform and its picture's size (pixels, or the game's own unit)."""

    transform: geo.Transform
    size: tuple[float, float]

    @property
    def aspect(self) -> float:
        return self.size[0] / self.size[1]

    def at(self, px: Pixel) -> list[float]:
        """Table [x, z] of a pixel of the board's picture (geometry's image <-> world)."""
        u, v = px[0] / self.size[0], px[1] / self.size[1]
        x, _y, z = geo.world_of_uv(self.transform, self.aspect, u, v)
        return [round(x, 4), round(z, 4)]

    def angle(self, image_angle: float) -> float:
        """The table rotY of a line drawn at ``image_angle`` (0 = along the picture's width)."""
        return round((image_angle + self.transform.rot_y) % 360.0, 4)

    def cell(
        self,
        label: str,
        guid: str,
        px: Pixel,
        half: Pixel,
        kind: str,
        y: float,
        xz: Sequence[float] | None = None,
    ) -> geo.ScriptPosition:
        """A script position on this board (object ``guid``) meaning the cell printed at pixel
        ``px``, ``half`` px its half-size each way: at height ``y`` over that pixel, or over
        table ``xz`` when the script computes it from a larger picture (a board cut in parts)."""
        x, z = self.at(px) if xz is None else xz
        w, h = self.size
        uv, tolerance = (px[0] / w, px[1] / h), (half[0] / w, half[1] / h)
        return geo.ScriptPosition(label, (float(x), y, float(z)), guid, uv, tolerance, kind=kind)


class PrintedPoint(NamedTuple):
    """A point the script uses and the cell printed under it: its ``label`` and ``kind``, its
    table ``at`` (x, y, z) as the script computes it, the cell's ``centre`` and ``half`` size
    (each way) in the board picture's pixels (or its own unit)."""

    label: str
    kind: str
    at: Sequence[float]
    centre: Pixel
    half: Pixel


def printed_cells(
    printed: Board, guid: str, points: Iterable[PrintedPoint]
) -> list[geo.ScriptPosition]:
    """A script position at each of ``points`` (at its own ``at``) on the board ``printed``
    (object ``guid``), each meaning the cell printed under it: the save checker maps the point
    back onto the picture and expects it inside that cell."""
    return [
        printed.cell(p.label, guid, p.centre, p.half, p.kind, p.at[1], (p.at[0], p.at[2]))
        for p in points
    ]


def board(centre: Sequence[float], size: tuple[float, float], width: float, rot_y: float) -> Board:
    """A board ``width`` units wide (its picture's width) centred on table ``centre`` (x, z),
    its picture's top edge away from a reader at ``rot_y`` - 180."""
    u = float(width) / size[0]
    centre_xz = (float(centre[0]), float(centre[1]))
    return Board(
        geo.tile_transform_for(centre_xz, (size[0] * u, size[1] * u), size[0] / size[1], rot_y),
        size,
    )


def shared_rot_y(manifest: Mapping[str, Any]) -> float:
    """The rotY of the shared boards: upright for the first seat (its hand zone's rotY + 180)."""
    return geo.reader_rot_y(seat_frames(dict(manifest))[0].hand_rot_y)


def laid_board(
    manifest: Mapping[str, Any], piece: str, size: tuple[float, float], width: float | None = None
) -> Board:
    """The Board of the manifest's piece ``piece`` (at a table point or anchor), drawn from a
    picture of pixel ``size``: the piece's own ``width``, else ``width`` (the one the game
    draws it at)."""
    laid = pieces_by_id(dict(manifest))[piece]
    (spot,) = spots(laid["at"], dict(manifest))
    return board([spot.x, spot.z], size, float(laid.get("width", width)), shared_rot_y(manifest))


def laid_track(data: Mapping[str, Any], piece: str, key: str = "table") -> tuple[Board, Track]:
    """The Board of the manifest's ``kind: track`` piece ``piece`` and its cells' geometry
    (``data``: the definition the track's cell count may come from)."""
    manifest = data[key]
    spec = pieces_by_id(dict(manifest))[piece]["track"]
    track = Track.of(spec, dict(data))
    return laid_board(manifest, piece, track.size, drawn_width(spec, track)), track


def track_cells(data: Mapping[str, Any], piece: str, key: str = "table") -> list[list[float]]:
    """Table [x, z] of each cell of the manifest's track ``piece``, in cell order."""
    board, track = laid_track(data, piece, key)
    return [board.at(track.cell_px(k)) for k in range(track.cells)]


def track_seats(
    data: Mapping[str, Any], piece: str, key: str = "table"
) -> list[tuple[float, float]]:
    """Each seat's place on the first cell of the track ``piece`` (one with ``seats``), as
    table (dx, dz) from the cell's centre, in the manifest's seat order (none without
    ``seats``)."""
    manifest = dict(data[key])
    spec = pieces_by_id(manifest)[piece]["track"]
    if "seats" not in spec:
        return []
    return seat_places(len(seat_colors(manifest)), float(spec["seats"]))


def manifest_tracks(data: Mapping[str, Any], key: str = "table") -> dict[str, list[Any]]:
    """The tracks of the manifest ``data[key]``'s own points, in its order (``data``: the
    definition the tracks' cell counts may come from): each ``kind: track`` piece's cells at
    the board's top, where a marker on it lies (``at: {track: ID, cell: K}``), and with
    ``seats`` each seat's place on the first cell (``ID:<colour>``: ``at: {seat_track: ID}``)."""
    tracks: dict[str, list[Any]] = {}
    for piece in track_pieces(dict(data[key])):
        top = top_of(thickness_of(piece))
        cells = track_cells(data, piece["id"], key)
        tracks[piece["id"]] = [(x, top, z) for x, z in cells]
        places = track_seats(data, piece["id"], key)
        for colour, (dx, dz) in zip(seat_colors(data[key]), places, strict=False):
            seat = (round(cells[0][0] + dx, 4), top, round(cells[0][1] + dz, 4))
            tracks[f"{piece['id']}:{colour}"] = [seat]
    return tracks


def track_positions(
    data: Mapping[str, Any], piece: str, guid: str, label: str, kind: str, y: float
) -> list[geo.ScriptPosition]:
    """A script position at every cell of the track ``piece`` (object ``guid``), labelled
    ``<label> <k>``, at height ``y``: the geometry check expects each inside its printed cell."""
    board, track = laid_track(data, piece)
    side = cell_half(pieces_by_id(dict(data["table"]))[piece]["track"])
    return [
        board.cell(f"{label} {k}", guid, track.cell_px(k), (side, side), kind, y)
        for k in range(track.cells)
    ]


def board_guid(save: Mapping[str, Any], tag: str, at: Sequence[float] | None = None) -> str:
    """The GUID of the save's object tagged ``tag`` (the first one; with ``at``, the one lying
    at table (x, y, z) ``at``, within 0.001 in x and z): LookupError when there is none."""
    for made in save.get("ObjectStates") or []:
        if not isinstance(made, Mapping) or tag not in made.get("Tags", []):
            continue
        t = made["Transform"]
        if at is None or (abs(t["posX"] - at[0]) < 1e-3 and abs(t["posZ"] - at[2]) < 1e-3):
            return str(made["GUID"])
    raise LookupError(f"no object tagged {tag!r}" + (f" at {tuple(at)}" if at else ""))
