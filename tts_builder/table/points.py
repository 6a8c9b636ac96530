"""The points a manifest names of its own, as the tracks its positions and snap points use
beside the game's (``TableHooks.tracks``): each ``kind: track`` piece's cells, at the board's
top, where a marker on it lies (``at: {track: ID, cell: K}``), and with ``seats`` each seat's
place on the first cell (``ID:<colour>``: ``at: {seat_track: ID}``); and for a piece at
``{seat_track: KIND}`` of an ``area_slots`` kind, each seat's first places of that kind, one
per object the piece lays (``KIND:<colour>``: :func:`~.areas.area_tracks`,
:func:`~.derived.area_counts`).
"""

from __future__ import annotations

from typing import Any

from .areas import area_tracks
from .derived import area_counts
from .layout import thickness_of, top_of
from .model import seat_colors
from .printed import track_cells, track_seats
from .track import track_pieces

Points = dict[str, list[tuple[float, ...]]]


def manifest_tracks(data: dict[str, Any], key: str = "table") -> Points:
    """The tracks of the manifest ``data[key]``'s own points (``data``: the definition the
    tracks' cell counts may come from), in the manifest's order."""
    tracks: Points = {}
    for piece in track_pieces(data[key]):
        top = top_of(thickness_of(piece))
        cells = track_cells(data, piece["id"], key)
        tracks[piece["id"]] = [(x, top, z) for x, z in cells]
        places = track_seats(data, piece["id"], key)
        for colour, (dx, dz) in zip(seat_colors(data[key]), places, strict=False):
            seat = (round(cells[0][0] + dx, 4), top, round(cells[0][1] + dz, 4))
            tracks[f"{piece['id']}:{colour}"] = [seat]
    return tracks | area_tracks(data[key], area_counts(data, key, set(tracks)))
