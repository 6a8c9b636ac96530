"""Ark & Noah's seat areas: where each kind of piece lies in a seat's own area of the table,
computed once and handed to the scripts as data (a player's supply, the tiles they took, their
workers at home), and to the table manifest as each seat's own tracks (the game's hooks).

A seat entry of the table with an ``area`` point and a ``facing`` (``{color, area: [x, z],
facing}``) has an area: a frame at that point, x to the seat's right and z forward, turned by
the facing as TTS turns objects (a seat point of its own, where ``at: {seat: [dx, dz]}`` is
measured from the seat's hand zone: :class:`~tts_builder.table.SeatFrame`). The table's
``area_slots`` (the game's own key, beside the manifest's) give each kind's places in that
frame: ``origin`` (right, forward) of the first, ``step`` to the next in a line, ``per_line`` of
them, ``line`` from one line to the next, ``lines`` lines; past the last place the next layer
lies on top, lifted by the ``thickness`` of the manifest piece whose notes name that ``kind``
(:func:`thickness_by_kind`)::

    area_slots:
      workers: {kind: worker, origin: [-3.0, -2.6], step: [0.8, 0.0], per_line: 4,
                line: [0.0, 0.0], lines: 1}

:func:`area_slot` is the k-th place of a kind; :func:`seat_area_tracks` the seats' first places
of the kinds a manifest piece at every seat lies along (``at: {seat_track: KIND}``), as the
game's tracks ``KIND:<colour>``;
:func:`script_seat` is a seat as a script sees it (its places of one layer, the rotY its pieces
read upright at, its frame's axes), so the Lua does no seat-relative arithmetic of its own.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from ... import geometry as geo
from ...errors import FieldError
from ...table.derived import key_number, left_off
from ...table.model import SeatSpot, at_of


class Slots(NamedTuple):
    """Places of one kind of piece in a seat's area: ``origin`` (right, forward) of the first,
    ``step`` to the next in a line, ``per_line`` of them, ``line`` from one line to the next,
    ``lines`` lines; past that the next layer lies on top (``lift`` higher)."""

    origin: tuple[float, float]
    step: tuple[float, float]
    per_line: int
    line: tuple[float, float]
    lines: int
    lift: float = 0.0

    @property
    def count(self) -> int:
        """How many places one layer has."""
        return self.per_line * self.lines


def thickness_by_kind(manifest: Mapping[str, Any]) -> dict[str, float]:
    """The ``thickness`` of each piece (or bag's contents) whose notes mapping names its
    ``kind``: what a layer of such pieces is lifted by, and what the script stacks them by."""
    found = {}
    for piece in manifest["pieces"]:
        for made in (piece, piece.get("contents", {})):
            notes = made.get("notes")
            if isinstance(notes, dict) and "kind" in notes and "thickness" in made:
                found[str(notes["kind"])] = float(made["thickness"])
    return found


def area_slots(manifest: Mapping[str, Any]) -> dict[str, Slots]:
    """Every kind's places in a seat's area (``area_slots``, in the manifest's order), each
    layer lifted by the thickness of the manifest's piece of its ``kind`` (none: 0)."""
    thick = thickness_by_kind(manifest)
    return {
        name: Slots(
            tuple(spec["origin"]),
            tuple(spec["step"]),
            spec["per_line"],
            tuple(spec["line"]),
            spec["lines"],
            thick[spec["kind"]] if "kind" in spec else 0.0,
        )
        for name, spec in manifest.get("area_slots", {}).items()
    }


def check_area_slots(manifest: Mapping[str, Any], path: str = "table") -> None:
    """Each place's ``kind`` names a piece's notes kind with a thickness (its layers' lift), and
    every seat has an ``area`` and a ``facing``."""
    thick = thickness_by_kind(manifest)
    for name, spec in manifest.get("area_slots", {}).items():
        if "kind" in spec and spec["kind"] not in thick:
            listed = ", ".join(sorted(thick)) or "none"
            raise FieldError(
                f"{path}.area_slots.{name}.kind",
                f"no piece of kind {spec['kind']!r} with a thickness (kinds: {listed})",
            )
    for index, seat in enumerate(manifest["seats"] if "area_slots" in manifest else []):
        for key in ("area", "facing"):
            if not isinstance(seat, Mapping) or key not in seat:
                raise FieldError(f"{path}.seats[{index}]", f"a seat with area places needs {key}")


def seat_point(seat: Mapping[str, Any], right: float, forward: float) -> list[float]:
    """A table [x, z] ``right`` of and ``forward`` from a seat's area centre."""
    a = math.radians(seat["facing"])
    x = seat["area"][0] + right * math.cos(a) + forward * math.sin(a)
    z = seat["area"][1] - right * math.sin(a) + forward * math.cos(a)
    return [round(x, 4), round(z, 4)]


def area_slot(
    seat: Mapping[str, Any], what: str, k: int, slots: Mapping[str, Slots]
) -> list[float]:
    """The k-th (0-based) place of kind ``what`` in a seat's area: [x, y, z] on the table
    (``slots``: :func:`area_slots`); past a layer's places, on the layer below's."""
    s = slots[what]
    layer, rest = divmod(k, s.count)
    line, col = divmod(rest, s.per_line)
    x, z = seat_point(
        seat,
        s.origin[0] + s.step[0] * col + s.line[0] * line,
        s.origin[1] + s.step[1] * col + s.line[1] * line,
    )
    return [x, round(geo.TABLE_TOP_Y + layer * s.lift, 4), z]


def area_counts(data: Mapping[str, Any], taken: set[str], key: str = "table") -> dict[str, int]:
    """Each ``area_slots`` kind of the table ``data[key]`` a piece lies along at every seat
    (``at: {seat_track: KIND}``, unless ``taken`` names a track ``KIND``), and how many places
    it takes: the most of those pieces' ``count``s (a piece its ``when`` leaves off: none)."""
    manifest, off = data[key], left_off(dict(data), key)
    counts: dict[str, int] = {}
    for i, piece in enumerate(manifest["pieces"]):
        at = at_of(piece["at"])
        kind = at.track if isinstance(at, SeatSpot) else None
        if kind in manifest.get("area_slots", {}) and kind not in taken and piece["id"] not in off:
            where = f"{key}.pieces[{i}].count"
            count = key_number(piece.get("count", 1), dict(data), where, 1, 200)
            counts[kind] = max(counts.get(kind, 0), count)
    return counts


def seat_area_tracks(
    data: Mapping[str, Any], taken: set[str], key: str = "table"
) -> dict[str, list[tuple[float, ...]]]:
    """The game's tracks (``TableHooks.tracks``) of the seats' places that pieces lie along
    (:func:`area_counts`; none for a kind ``taken`` names): :func:`area_tracks`."""
    return area_tracks(data[key], area_counts(data, taken, key))


def area_tracks(
    manifest: Mapping[str, Any], counts: Mapping[str, int]
) -> dict[str, list[tuple[float, ...]]]:
    """Each seat's track ``<kind>:<colour>`` of its first ``counts[kind]`` places of each kind
    (as (x, y, z)): the game's tracks a piece laid at every seat's own places names with
    ``at: {seat_track: <kind>}``."""
    slots = area_slots(manifest)
    return {
        f"{kind}:{seat['color']}": [tuple(area_slot(seat, kind, k, slots)) for k in range(count)]
        for kind, count in counts.items()
        for seat in manifest["seats"]
    }


def script_seat(seat: Mapping[str, Any], slots: Mapping[str, Slots]) -> dict[str, Any]:
    """A seat as the script sees it: beside its fields, ``upright`` (the rotY its pieces read
    upright at), ``axes`` (the table directions [x, z] of its right and forward) and
    ``places`` (each kind's places in its area, one layer, as [x, z]: :func:`area_slot`)."""
    places = {
        kind: [area_slot(seat, kind, k, slots)[::2] for k in range(s.count)]
        for kind, s in slots.items()
    }
    axes = {
        name: list(geo.rotate_y(*unit, seat["facing"]))
        for name, unit in (("right", (1.0, 0.0)), ("forward", (0.0, 1.0)))
    }
    return {**seat, "upright": geo.reader_rot_y(seat["facing"]), "axes": axes, "places": places}
