"""Rows of places a manifest names (``lines``): bags or tiles side by side, a display.

::

    lines:
      supply:
        {start: [24.5, 7.5], step: [0.0, -2.3], count: {key: players.max, add: 2}, seats: true}

makes the track ``supply`` of ``count`` table points (x, z) from ``start`` on by ``step``
(``count``: a number or a definition key's number plus ``add``, :mod:`.derived`): a piece
lies at one of them (``at: {track: supply, cell: 4}``) or along them, one object per point
(``at: {track: supply}``: a bag per roster entry); with ``seats``, the first points are the
seats' own in seat order, one per seat (the track ``supply:<colour>`` of one point, ``at:
{seat_track: supply}``: read by that seat). A script finds them with the laid table's other tracks
(``Table.context["tracks"]``); where it lays things there itself (a display of drawn tiles),
:func:`line_positions` are the checked positions.
"""

from __future__ import annotations

from typing import Any

from .. import geometry as geo
from ..errors import FieldError
from ..schema import Bool, Map, MappingOf, Point, Str
from .derived import key_number, number_or_key

#: One ``lines`` entry.
LINE = Map(
    {"start": Point(2), "step": Point(2), "count": number_or_key(1, 99), "seats": Bool()},
    frozenset({"seats"}),
)
#: The manifest's ``lines``: line name -> its row of places.
LINES = MappingOf(
    Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a line id like 'supply'"),
    LINE,
    "line id -> {start, step, count, seats?}",
)


def line_points(spec: dict[str, Any], data: dict[str, Any], path: str) -> list[tuple[float, float]]:
    """The table (x, z) of each place of one line (``data``: the definition ``count`` may
    come from; FieldError at ``path``'s ``count`` on a bad key)."""
    count = key_number(spec["count"], data, f"{path}.count", 1, 99)
    (x, z), (dx, dz) = spec["start"], spec["step"]
    return [(x + k * dx, z + k * dz) for k in range(count)]


def line_tracks(
    data: dict[str, Any], key: str, seats: list[str]
) -> dict[str, list[tuple[float, float]]]:
    """The tracks of the manifest ``data[key]``'s lines: each line's points, and for a line
    with ``seats`` each of ``seats`` (the seat colours in order) its own point
    (``<line>:<colour>``; FieldError at its ``count`` when it has fewer places than seats)."""
    tracks: dict[str, list[tuple[float, float]]] = {}
    for name, spec in data[key].get("lines", {}).items():
        points = line_points(spec, data, f"{key}.lines.{name}")
        tracks[name] = points
        if spec.get("seats"):
            if len(points) < len(seats):
                raise FieldError(
                    f"{key}.lines.{name}.count",
                    f"{len(points)} places for {len(seats)} seats (a line with seats has a "
                    "place per seat)",
                )
            tracks |= {f"{name}:{c}": [p] for c, p in zip(seats, points, strict=False)}
    return tracks


def line_positions(
    data: dict[str, Any],
    name: str,
    label: str,
    size: tuple[float, float],
    kind: str,
    key: str = "table",
) -> list[geo.ScriptPosition]:
    """A script position at each place of the line ``name`` (``<label> <k>``, k from 1) on
    the table top, of ``size`` (x, z): as its scripts find them (rounded to 4 places)."""
    points = line_points(data[key]["lines"][name], data, f"{key}.lines.{name}")
    return [
        geo.ScriptPosition(
            f"{label} {k}",
            (round(x, 4) + 0.0, geo.TABLE_TOP_Y, round(z, 4) + 0.0),
            size=size,
            kind=kind,
        )
        for k, (x, z) in enumerate(points, start=1)
    ]
