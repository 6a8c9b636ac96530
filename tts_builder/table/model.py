"""The manifest after validation, read the same way everywhere: its pieces by id, its seats'
colours, and where a piece lies (an ``at``, or a setup step's ``to``) as one of four typed
places, so no reader works out by hand which form of ``at`` it holds:

- :class:`Point`: ``[x, z]`` on the table;
- :class:`Anchor`: ``{anchor: NAME, offset: [dx, dz]}``, a named point (the manifest's or the
  game's) plus an offset; or ``{area: NAME}``, the centre of an area the game names (a zone
  there covers it);
- :class:`SeatSpot`: at every seat, read by that seat: ``{seat: [dx, dz]}`` in the seat's frame,
  ``{seat: NAME}`` a point every seat names, or ``{seat_track: NAME}`` the points of each seat's
  own track ``NAME:<colour>``;
- :class:`TrackCell`: ``{track: NAME, cell: K}``, one point of a track; without ``cell``, every
  point of it (one object each).

A setup step is a :class:`SetupStep` (:func:`step_of`), a snap point a :class:`Snap`
(:func:`snap_of`), a name the scripts address (``script.guids``) a :class:`Guids`
(:func:`guids_of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Point:
    """``[x, z]``: a point on the table, read by the first seat."""

    x: float
    z: float


@dataclass(frozen=True)
class Anchor:
    """A named point plus ``offset``; with ``area``, the centre of the game's area ``name``."""

    name: str
    offset: tuple[float, float] = (0.0, 0.0)
    area: bool = False


@dataclass(frozen=True)
class SeatSpot:
    """At every seat: ``offset`` in its frame, its named ``point``, or its own ``track``."""

    offset: tuple[float, float] | None = None
    point: str | None = None
    track: str | None = None


@dataclass(frozen=True)
class TrackCell:
    """The point ``cell`` of the track ``track``; ``cell`` None: every point of it."""

    track: str
    cell: int | None = None


At = Point | Anchor | SeatSpot | TrackCell


def at_of(value: Any) -> At:
    """The typed place of a validated ``at`` (or a step's ``to`` other than ``hand``)."""
    if isinstance(value, At):
        return value
    if isinstance(value, Sequence) and not isinstance(value, str):
        return Point(float(value[0]), float(value[1]))
    if "seat" in value:
        seat = value["seat"]
        if isinstance(seat, str):
            return SeatSpot(point=seat)
        return SeatSpot(offset=(float(seat[0]), float(seat[1])))
    if "seat_track" in value:
        return SeatSpot(track=value["seat_track"])
    if "track" in value:
        return TrackCell(value["track"], value.get("cell"))
    if "area" in value:
        return Anchor(value["area"], area=True)
    dx, dz = value.get("offset", (0.0, 0.0))
    return Anchor(value["anchor"], (float(dx), float(dz)))


def along_track(at: Any) -> bool:
    """Whether a piece at ``at`` lays one object per point of a track (a track, no ``cell``)."""
    place = at_of(at)
    return isinstance(place, TrackCell) and place.cell is None


@dataclass(frozen=True)
class SetupStep:
    """What Setup hands each seated player: ``count`` of the piece ``deal`` (a number, or
    ``(player counts, number)`` rows), to the hand (``to`` None) or a place, along ``spread``
    (else in a pile), face up or down (``face_up``; None: the kind's default), at the player
    counts ``players`` (None: every count)."""

    deal: str
    count: int | tuple[tuple[tuple[int, ...], int], ...]
    to: At | None
    spread: tuple[float, float] | None = None
    face_up: bool | None = None
    players: tuple[int, ...] | None = None

    def count_at(self, players: int) -> int:
        """How many each player gets at ``players`` players: 0 when ``players`` leaves that
        count out or no row of ``count`` names it."""
        if self.players is not None and players not in self.players:
            return 0
        if isinstance(self.count, int):
            return self.count
        return next((n for counts, n in self.count if players in counts), 0)

    @property
    def target(self) -> str:
        """``hand``, ``seat`` (each player's own spot) or ``shared`` (one row or pile)."""
        if self.to is None:
            return "hand"
        own = isinstance(self.to, SeatSpot) and self.to.track is None
        return "seat" if own else "shared"


def step_of(value: Any) -> SetupStep:
    """The typed form of a validated setup step (``to: hand`` is ``to`` None)."""
    if isinstance(value, SetupStep):
        return value
    count = value["count"]
    if not isinstance(count, int):
        count = tuple((tuple(row["players"]), int(row["count"])) for row in count)
    spread = value.get("spread")
    return SetupStep(
        value["deal"],
        count,
        None if value["to"] == "hand" else at_of(value["to"]),
        None if spread is None else (float(spread[0]), float(spread[1])),
        value.get("face_up"),
        tuple(value["players"]) if "players" in value else None,
    )


def step_count(step: Any, players: int) -> int:
    """How many a setup step (typed or as written) hands each player at ``players`` players."""
    return step_of(step).count_at(players)


def target_of(step: Any) -> str:
    """Where a setup step's pieces go (typed or as written): :attr:`SetupStep.target`."""
    return step_of(step).target


@dataclass(frozen=True)
class Snap:
    """A snap point at every spot of ``at``, for pieces of ``tags`` (none: any), at the
    player counts ``players`` (None: every count), while ``when`` holds (None: always)."""

    at: At
    tags: tuple[str, ...] = ()
    players: tuple[int, ...] | None = None
    when: Mapping[str, Any] | None = None


def snap_of(value: Any) -> Snap:
    """The typed form of a validated ``snap_points`` entry."""
    players = value.get("players")
    return Snap(
        at_of(value["at"]),
        tuple(value.get("tags", ())),
        None if players is None else tuple(players),
        value.get("when"),
    )


@dataclass(frozen=True)
class Guids:
    """A ``script.guids`` entry: the GUIDs of the first of ``pieces`` the build lays (``ID`` is
    one piece, ``[ID, ...]`` several: ``listed``), as ``form`` shapes them: ``all`` (a list),
    ``first`` (its first, "" for none), ``by_seat`` / ``first_by_seat`` (seat colour -> that
    seat's GUIDs / its first), ``numbered`` ("1", "2".. -> GUID)."""

    pieces: tuple[str, ...]
    form: str = "all"
    listed: bool = False


#: The dict forms of a ``script.guids`` entry.
GUID_FORMS = ("first", "by_seat", "first_by_seat", "numbered")


def guids_of(value: Any) -> Guids:
    """The typed form of a validated ``script.guids`` entry."""
    if isinstance(value, list):
        return Guids(tuple(value), listed=True)
    if isinstance(value, dict):
        ((form, piece),) = value.items()
        return Guids((str(piece),), form)
    return Guids((str(value),))


def pieces_by_id(manifest: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The manifest's pieces by id (checked unique by :func:`~.schema.check_manifest`)."""
    return {piece["id"]: piece for piece in manifest["pieces"]}


def seat_colors(manifest: Mapping[str, Any]) -> list[str]:
    """The manifest's seat colours in order (a seat is a colour or a mapping with ``color``)."""
    return [s["color"] if isinstance(s, dict) else s for s in manifest["seats"]]
