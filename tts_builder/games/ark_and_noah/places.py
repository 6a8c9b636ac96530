"""Rows of places on the Ark & Noah table beside its boards, handed to the table manifest as
tracks (:class:`~tts_builder.plugin.TableHooks`): the display of drawn animals (the script lays
them there), an infinite bag of bonus tokens per bonus value, and the supply bags (each seat's
dividers first, one place per seat, then food and pitch).

A piece lies at one place (``at: {track: supply, cell: 4}``), along a row, one object per place
(``at: {track: bonus-bags}``), or at its seat's own place (``at: {seat_track: supply}``: the
track ``supply:<colour>``).
"""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...table import seat_colors

Places = list[tuple[float, float]]


def _row(start: tuple[float, float], step: tuple[float, float], count: int) -> Places:
    (x, z), (dx, dz) = start, step
    return [(x + k * dx, z + k * dz) for k in range(count)]


def drawn(data: Data) -> Places:
    """The display of drawn animals: six places in a row below the Ark."""
    return _row((7.0, -13.5), (1.5, 0.0), 6)


def place_tracks(data: Data) -> dict[str, Places]:
    """The rows as tracks: ``drawn``, ``bonus-bags`` (one place per bonus value, 1..the rules'
    ``bonus_max``), ``supply`` (the most players' seats and food and pitch) and each seat's own
    supply place ``supply:<colour>`` (the first places, in seat order)."""
    supply = _row((24.5, 7.5), (0.0, -2.3), int(data["players"]["max"]) + 2)
    seats = seat_colors(data["table"])
    return {
        "drawn": drawn(data),
        "bonus-bags": _row((-11.6, -4.6), (0.0, -1.6), int(data["rules"]["bonus_max"])),
        "supply": supply,
        **{f"supply:{colour}": [place] for colour, place in zip(seats, supply, strict=False)},
    }


def drawn_positions(data: Data, side: float) -> list[geo.ScriptPosition]:
    """A checked position at each place of the display (``drawn tile <k>``, k from 1), a tile
    ``side`` across on the table top, as the script finds them (rounded to 4 places)."""
    return [
        geo.ScriptPosition(
            f"drawn tile {k}",
            (round(x, 4) + 0.0, geo.TABLE_TOP_Y, round(z, 4) + 0.0),
            size=(side, side),
            kind="drawn",
        )
        for k, (x, z) in enumerate(drawn(data), start=1)
    ]
