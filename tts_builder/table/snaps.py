"""The table's snap points (the manifest's ``snap_points``), per player count.

Each entry ``{at: POSITION, tags: [..], players: [n, ...], when: WHEN}`` puts a snap point at
every spot of its position (every point of a track: the hexes of a board, the squares of an
Ark), tagged so only such pieces snap there, while its ``when`` holds (:mod:`.derived`); a track
point with a rotY (``(x, y, z, rot_y)``) snaps a piece to that rotation too (a divider along
an edge). A game whose points differ by player count hands each count's tracks over as
``TableHooks.by_players``: the save holds the most players' snap points, and a script that
lays the table out for the seated count sets that count's (``Global.setSnapPoints``,
:func:`~tts_builder.gamekit.table.lua_snap_points`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import geometry as geo
from ..plugin import TableHooks
from ..save import objects as obj
from .derived import holds
from .layout import at_players, spots
from .model import TrackCell, snap_of
from .printed import manifest_tracks

__all__ = ["at_players", "snap_points"]


def snap_points(
    data: dict[str, Any], hooks: TableHooks, players: int, key: str = "table"
) -> list[dict[str, Any]]:
    """The save-form snap points (``{Position, Rotation?, Tags?}``) of the manifest
    ``data[key]``'s ``snap_points`` on a table of ``players`` players (an entry's ``players``
    may leave the count out), at the game's points of that count (``hooks``) and the
    manifest's own (:func:`~.printed.manifest_tracks`: a track piece's cells)."""
    manifest = data[key]
    hooks = at_players(hooks, players)  # the game's own points of that count
    hooks = replace(hooks, tracks={**hooks.tracks, **manifest_tracks(data, key)})
    found = []
    for i, snap in enumerate(map(snap_of, manifest.get("snap_points", []))):
        if snap.players is not None and players not in snap.players:
            continue
        if snap.when is not None and not holds(snap.when, data, f"{key}.snap_points[{i}].when"):
            continue
        on_track = isinstance(snap.at, TrackCell)
        points = hooks.tracks[snap.at.track] if isinstance(snap.at, TrackCell) else []
        for k, spot in enumerate(spots(snap.at, manifest, hooks)):
            y = geo.TABLE_TOP_Y if spot.y is None else spot.y
            turned = on_track and len(points[k]) == 4
            rot = (0.0, spot.rot_y, 0.0) if turned else None
            found.append(obj.snap_point((spot.x, y, spot.z), rot, snap.tags))
    return found
