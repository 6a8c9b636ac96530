"""What Ark & Noah's scripts know of its laid table, computed once and handed over as data: the
part of the script's template context read from the table (:mod:`.assemble` adds the rest).

:func:`table_context` gives ``game`` (``id``, ``name``), ``players`` (``min``, ``max``),
``colors`` (the seats' colours, as many as the most players), ``seats`` (each such seat's
table entry with the game's fields for it and its ``upright``, ``axes`` and ``places``:
:func:`~.areas.script_seat`), ``area`` (``slots``: each kind's places, and the table's
``area_size`` as ``size``), ``y`` (``table``: the table top; ``board``: a board's top at the
default thickness), ``thickness`` (by notes kind: :func:`~.areas.thickness_by_kind`), the
manifest's ``script`` (``guids``, ``positions``: :func:`~tts_builder.table.script_context`;
the Ark's own form of an entry, ``{group: {name: entry, ...}}``, a table of entries:
:func:`flat_guids`),
``cells`` (each track piece's cells, [x, z]) and ``seat_places`` (each track with ``seats``:
every seat's [dx, dz] on its first cell).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ... import geometry as geo
from ...table import Table, script_context
from ...table.layout import BOARD_TOP
from ...table.printed import track_cells, track_seats
from ...table.track import track_pieces
from .areas import area_slots, script_seat, thickness_by_kind


def table_context(
    game_id: str,
    data: dict[str, Any],
    laid: Table,
    seat_fields: Sequence[Mapping[str, Any]] = (),
    key: str = "table",
) -> dict[str, Any]:
    """The script context read from ``laid``, the table of the game ``game_id`` laid from the
    definition ``data`` (a variant's merged in); ``seat_fields`` are the game's own fields of
    each seat, in seat order (its character)."""
    manifest = data[key]
    low, high = data["players"]["min"], data["players"]["max"]
    slots = area_slots(manifest)
    seats = []
    for i, seat in enumerate(manifest["seats"][:high]):
        entry = {**(seat if isinstance(seat, dict) else {"color": seat})}
        entry |= seat_fields[i] if i < len(seat_fields) else {}
        seats.append(script_seat(entry, slots))
    area = {
        "slots": {k: s._asdict() for k, s in slots.items()},
        "size": list(manifest["area_size"]),
    }
    tracks = [piece["id"] for piece in track_pieces(manifest)]
    return {
        "game": {"id": game_id, "name": data["name"]},
        "players": {"min": low, "max": high},
        "colors": [seat["color"] for seat in seats],
        "seats": seats,
        "area": area,
        "y": {"table": geo.TABLE_TOP_Y, "board": BOARD_TOP},
        "thickness": thickness_by_kind(manifest),
        **grouped(script_context(flat_guids(manifest), laid.guids)),
        "cells": {piece: track_cells(data, piece, key) for piece in tracks},
        "seat_places": {
            piece: [list(place) for place in track_seats(data, piece, key)] for piece in tracks
        },
    }


#: How a group's entry is named among the manifest's (``bags`` -> ``bags.group.male``): where
#: the manifest's checks report a problem of it.
GROUP = ".group."


def flat_guids(table: Mapping[str, Any]) -> dict[str, Any]:
    """The table with its ``script.guids`` as the shared manifest reads them: each of the Ark's
    groups (``{group: {name: entry, ...}}``: the animal bags by sex) as its entries, named
    ``<group>.group.<name>`` in its place."""
    script = table.get("script", {})
    named: dict[str, Any] = {}
    for name, entry in script.get("guids", {}).items():
        if isinstance(entry, dict) and "group" in entry:
            named |= {f"{name}{GROUP}{inner}": one for inner, one in entry["group"].items()}
        else:
            named[name] = entry
    return {**table, "script": {**script, "guids": named}}


def grouped(context: dict[str, Any]) -> dict[str, Any]:
    """A script context of :func:`flat_guids`' table with each group's GUIDs a table again."""
    guids: dict[str, Any] = {}
    for name, found in context["guids"].items():
        outer, group, inner = name.partition(GROUP)
        if group:
            guids.setdefault(outer, {})[inner] = found
        else:
            guids[name] = found
    return {**context, "guids": guids}
