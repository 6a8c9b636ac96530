"""Where a manifest's pieces lie: anchors, seat frames and the spots Setup deals to (pure).

A seat's frame has its origin at the seat's hand zone (the table's default HandTrigger of
that colour), x to the seat's right and z towards the table's middle, so ``{seat: [0, 6]}``
is 6 units in front of every player's hand. Every position is computed here once and handed
to the scripts as data: the Lua does no layout arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .. import geometry as geo
from ..errors import FieldError
from ..plugin import TableHooks
from ..save.tables import HAND_PLACEMENTS
from .model import Anchor, Guids, Point, SeatSpot, TrackCell, at_of, guids_of, seat_colors

Vec3 = tuple[float, float, float]
#: Cards dealt to a hand lie side by side along the hand zone, this far apart (a portrait
#: card is 2.2 wide): TTS fans hand cards itself, but cards that touched on the way in would
#: join into a deck first on a strict table [guess; docs/decisions.md].
HAND_CARD_STEP = geo.PORTRAIT_CARD[0] + 0.05
#: How high a card lies above the table top when dealt to a spot (it then falls to rest).
CARD_LIFT = 0.04
#: Containers (bags) hover a little above the table, as TTS spawns them [guess].
BAG_LIFT = 0.6
#: Thickness of tokens and tiles (TTS units) [KB: "about an inch"; the builders' default].
THICKNESS = 0.2


def thickness_of(piece: Mapping[str, Any]) -> float:
    """A manifest piece's thickness: its own ``thickness``, else the default."""
    return float(piece.get("thickness", THICKNESS))


def top_of(thickness: float) -> float:
    """The top of a board of ``thickness`` lying on the table: a piece on it lies there."""
    return round(geo.TABLE_TOP_Y + thickness, 4)


#: The top of a board laid at the default thickness: a piece on such a board lies there.
BOARD_TOP = top_of(THICKNESS)


@dataclass(frozen=True)
class SeatFrame:
    """One seat: its colour, its hand zone's placement, and the rotY its pieces read at."""

    color: str
    slot: int  # 1-based, in the manifest's seat order
    hand_pos: Vec3
    hand_rot_y: float
    hand_scale: Vec3
    #: the rotY the seat faces when its entry says (``facing``), else its hand zone's
    facing: float | None = None
    #: the seat's named table points (``at: {seat: NAME}``)
    points: tuple[tuple[str, tuple[float, float]], ...] = ()

    @property
    def reader_rot_y(self) -> float:
        return geo.reader_rot_y(self.hand_rot_y if self.facing is None else self.facing)

    def world(self, offset: Any) -> tuple[float, float]:
        """Table (x, z) of a seat-frame point (dx to the seat's right, dz towards the middle)."""
        dx, dz = geo.rotate_y(float(offset[0]), float(offset[1]), self.hand_rot_y)
        return self.hand_pos[0] + dx, self.hand_pos[2] + dz

    def direction(self, step: Any) -> tuple[float, float]:
        """A seat-frame step as a table (dx, dz)."""
        return geo.rotate_y(float(step[0]), float(step[1]), self.hand_rot_y)


def seat_frames(manifest: dict[str, Any]) -> list[SeatFrame]:
    """The manifest's seats in order, each at the table's default hand zone of its colour."""
    placements = HAND_PLACEMENTS[manifest["type"]]
    frames = []
    for slot, seat in enumerate(manifest["seats"], start=1):
        entry = seat if isinstance(seat, dict) else {"color": seat}
        pos, rot, scale = placements[entry["color"]]
        facing = float(entry["facing"]) if "facing" in entry else None
        points = tuple((k, (float(v[0]), float(v[1]))) for k, v in entry.items()
                       if k not in ("color", "facing"))  # fmt: skip
        frames.append(SeatFrame(entry["color"], slot, tuple(map(float, pos)), float(rot[1]),
                                tuple(map(float, scale)), facing, points))  # fmt: skip
    return frames


def hand_capacity(frame: SeatFrame) -> int:
    """How many cards lie side by side inside the seat's hand zone."""
    room = frame.hand_scale[0] - geo.PORTRAIT_CARD[0]
    return int(room // HAND_CARD_STEP) + 1


def hand_slots(frame: SeatFrame, count: int) -> list[Vec3]:
    """``count`` card positions along the seat's hand zone, centred, at the zone's height."""
    slots = []
    for i in range(count):
        x, z = frame.world(((i - (count - 1) / 2) * HAND_CARD_STEP, 0.0))
        slots.append(_rounded((x, frame.hand_pos[1], z)))
    return slots


@dataclass(frozen=True)
class Spot:
    """Where one piece lies: table (x, z), the rotY it reads at, and whose seat it is at."""

    x: float
    z: float
    rot_y: float
    seat: SeatFrame | None = None
    #: the height the piece's bottom lies at, when the game's point says (else the table top)
    y: float | None = None


def _point(at: Any, rot_y: float) -> Spot:
    """A spot at a game's point ``(x, z)``, ``(x, y, z)`` or ``(x, y, z, rot_y)`` (a point
    with its own rotY: the piece lies turned so)."""
    if len(at) == 4:
        return Spot(float(at[0]), float(at[2]), float(at[3]), y=float(at[1]))
    if len(at) == 3:
        return Spot(float(at[0]), float(at[2]), rot_y, y=float(at[1]))
    return Spot(float(at[0]), float(at[1]), rot_y)


def spots(at: Any, manifest: dict[str, Any], hooks: TableHooks | None = None) -> list[Spot]:
    """The table spots of a place (:func:`~.model.at_of`): one for a :class:`Point` and an
    :class:`Anchor` (read by the first seat), one per point of a :class:`TrackCell` without a
    cell, one per seat for a :class:`SeatSpot` (read by that seat). Anchors, areas and tracks
    may be the game's (``hooks``)."""
    hooks = hooks or TableHooks()
    place = at_of(at)
    frames = seat_frames(manifest)
    shared = frames[0].reader_rot_y
    match place:
        case Point(x, z):
            return [Spot(x, z, shared)]
        case SeatSpot(offset, None, None):
            return [Spot(*f.world(offset), f.reader_rot_y, f) for f in frames]
        case SeatSpot(None, point, None):
            return [Spot(*dict(f.points)[point], f.reader_rot_y, f) for f in frames]
        case SeatSpot(None, None, track):
            return [seat_track(track, f, hooks)[0] for f in frames]
        case TrackCell(track, None):
            return [_point(p, shared) for p in hooks.tracks[track]]
        case TrackCell(track, cell):
            return [_point(hooks.tracks[track][cell], shared)]
        case Anchor(name, _, True):
            return [_point(hooks.areas[name][0], shared)]
        case Anchor(name, (dx, dz), False):
            own = manifest.get("anchors", {})
            base = _point(own[name] if name in own else hooks.anchors[name], shared)
            return [Spot(base.x + dx, base.z + dz, shared, y=base.y)]
    raise ValueError(f"not a place: {at!r}")


def at_players(hooks: TableHooks, players: int) -> TableHooks:
    """``hooks`` with ``players``' own tracks (``by_players``) over the shared ones."""
    own = hooks.by_players.get(players)
    return replace(hooks, tracks={**hooks.tracks, **own}) if own else hooks


def seat_track(name: str, frame: SeatFrame, hooks: TableHooks) -> list[Spot]:
    """The points of a seat's own track (the game's ``<name>:<colour>``), read by that seat."""
    return [replace(_point(p, frame.reader_rot_y), seat=frame)
            for p in hooks.tracks[f"{name}:{frame.color}"]]  # fmt: skip


def spot_for_seat(
    at: Any, manifest: dict[str, Any], frame: SeatFrame, hooks: TableHooks | None = None
) -> Spot:
    """The spot of a position for one seat: its own spot if the position is per seat."""
    found = spots(at, manifest, hooks)
    return found[frame.slot - 1] if len(found) > 1 else found[0]


def row(start: Spot, count: int, spread: Any | None, lift: float, y: float) -> list[Vec3]:
    """``count`` positions from ``start``: along ``spread`` (in the seat's frame for a seat
    spot) when given, else a pile rising ``lift`` per piece."""
    out = []
    dx, dz = (0.0, 0.0)
    if spread is not None:
        dx, dz = (
            start.seat.direction(spread) if start.seat else (float(spread[0]), float(spread[1]))
        )
    for i in range(count):
        rise = 0.0 if spread is not None else lift * i
        out.append(_rounded((start.x + dx * i, y + rise, start.z + dz * i)))
    return out


def _rounded(v: tuple[float, float, float]) -> Vec3:
    """Positions handed to the scripts, rounded to 4 places (and -0.0 written as 0.0)."""
    return tuple(round(c, 4) + 0.0 for c in v)  # type: ignore[return-value]


def in_hand_zone(frame: SeatFrame, x: float, z: float) -> bool:
    """Whether the table point (x, z) lies inside ``frame``'s hand zone (its HandTrigger)."""
    dx, dz = geo.rotate_y(x - frame.hand_pos[0], z - frame.hand_pos[2], -frame.hand_rot_y)
    return abs(dx) <= frame.hand_scale[0] / 2 and abs(dz) <= frame.hand_scale[2] / 2


def check_seat_spots(manifest: dict[str, Any]) -> None:
    """A spot ``{seat: [dx, dz]}`` of one seat must not lie in another seat's hand zone (a dz
    too large reaches across the table): FieldError at the piece's or step's position."""
    frames = seat_frames(manifest)
    places = [(f"table.pieces[{i}].at", p["at"]) for i, p in enumerate(manifest["pieces"])]
    places += [(f"table.setup[{i}].to", s["to"]) for i, s in enumerate(manifest.get("setup", []))]
    for field, at in places:
        place = None if at == "hand" else at_of(at)
        if not isinstance(place, SeatSpot) or place.offset is None:
            continue
        for frame in frames:
            x, z = frame.world(place.offset)
            other = next((f for f in frames if f is not frame and in_hand_zone(f, x, z)), None)
            if other is not None:
                raise FieldError(f"{field}.seat", f"{frame.color}'s spot ({x:.1f}, {z:.1f}) lies "
                                 f"in {other.color}'s hand zone: dz is measured from the seat's "
                                 "own hand towards the table's middle")  # fmt: skip


def seat_context(manifest: dict[str, Any], lifted: dict[str, float]) -> list[dict[str, Any]]:
    """The seats as a script sees them, in seat order: ``slot``, ``color``, ``facing`` (the
    seat's own, else its hand zone's rotY), ``upright`` (the rotY printed objects read upright
    at for it), ``hand`` (its hand zone's centre) and each seat point named in ``lifted`` as
    ``[x, y, z]`` at that height (a card shown at the seat's ``reveal`` spot)."""
    seats = []
    for frame in seat_frames(manifest):
        points = dict(frame.points)
        seats.append(
            {
                "slot": frame.slot,
                "color": frame.color,
                "facing": frame.hand_rot_y if frame.facing is None else frame.facing,
                "upright": frame.reader_rot_y,
                "hand": list(frame.hand_pos),
                **{name: [points[name][0], y, points[name][1]] for name, y in lifted.items()},
            }
        )
    return seats


def card_spots(
    manifest: dict[str, Any], positions: dict[str, Any], seat_points: dict[str, float]
) -> list[geo.ScriptPosition]:
    """The script's positions of single cards it lays itself (not Setup's deals): one at the
    anchor of each of ``positions`` (``{name: {anchor, y}}``, as the manifest's ``script``
    names them: at that height, read by the first seat, labelled with the anchor's words) and
    one at each seat's point named in ``seat_points`` (at that height, turned the seat's
    facing + 180, labelled ``<colour> <point>``), each a portrait card."""
    found = []
    rot_y = seat_frames(manifest)[0].reader_rot_y
    for at in positions.values():
        x, z = manifest["anchors"][at["anchor"]]
        label = at["anchor"].replace("-", " ")
        found.append(_card(label, (float(x), float(at["y"]), float(z)), rot_y))
    for seat in seat_context(manifest, seat_points):
        for name in seat_points:
            found.append(_card(f"{seat['color']} {name}", seat[name], seat["facing"] + 180.0))
    return found


def _card(label: str, at: Any, rot_y: float) -> geo.ScriptPosition:
    return geo.ScriptPosition(label, tuple(at), size=geo.PORTRAIT_CARD, rot_y=rot_y, kind="card")


def _guids_of(manifest: dict[str, Any], entry: Guids, guids: dict[str, list[str]]) -> Any:
    """One ``script.guids`` entry's GUIDs."""
    laid = next((guids[p] for p in entry.pieces if guids.get(p)), [])
    if entry.form == "all":
        return laid
    if entry.form == "first":
        return (laid or [""])[0]
    if entry.form == "numbered":
        return {str(k): guid for k, guid in enumerate(laid, start=1)}
    colours = seat_colors(manifest)  # a piece at every seat lays as many at each, in seat order
    per = len(laid) // len(colours)
    seats = {c: laid[i * per : (i + 1) * per] for i, c in enumerate(colours)}
    if entry.form == "first_by_seat":
        return {c: own[0] for c, own in seats.items() if own}
    return seats


def script_context(manifest: dict[str, Any], guids: dict[str, list[str]]) -> dict[str, Any]:
    """The manifest's ``script`` as the scripts' template context: ``guids`` (each name's
    GUIDs, first GUID, or the GUIDs of the first of its pieces laid; ``[]`` or ``""`` for a
    piece this build leaves off; or its GUIDs by seat or number: :class:`~.model.Guids`),
    ``positions`` (each anchor as ``[x, y, z]``) and, when it names seat points, ``seats``
    (:func:`~.layout.seat_context` with those points at their heights). ``guids`` are the
    laid table's (:attr:`Table.guids`)."""
    script = manifest.get("script", {})
    named = {
        name: _guids_of(manifest, guids_of(value), guids)
        for name, value in script.get("guids", {}).items()
    }
    anchors = manifest.get("anchors", {})
    points = {
        name: [float(anchors[at["anchor"]][0]), float(at["y"]), float(anchors[at["anchor"]][1])]
        for name, at in script.get("positions", {}).items()
    }
    found = {"guids": named, "positions": points}
    if "seats" in script:
        found["seats"] = seat_context(manifest, {k: float(y) for k, y in script["seats"].items()})
    return found
