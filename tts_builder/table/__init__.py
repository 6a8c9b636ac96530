"""The table as data: a manifest in ``game.yaml`` turned into save objects, the scripts'
template context (every position as data), and the positions the geometry checks and the
table picture use.

- :mod:`.model`: the manifest after validation, typed: where a piece lies (an ``at``: a
  ``Point``, ``Anchor``, ``SeatSpot`` or ``TrackCell``), setup steps and snap points;
- :mod:`.fields`: the ``{field}`` filling of names, notes and printed words;
- :mod:`.schema`: the manifest's keys (``MANIFEST``), checked and as JSON Schema;
- :mod:`.checks`: :func:`check_manifest`, its cross-field checks (every problem in one run);
- :mod:`.derived`: counts and rosters read from the definition's own keys;
- :mod:`.layout`: anchors, seat frames, hand slots and setup spots (pure), and
  :func:`script_context`, the names the scripts address;
- :mod:`.art`: component specs (``COMPONENT``) and their pictures, each rendered once;
- :mod:`.assemble`: :func:`lay_table`, the objects, context and positions of a manifest;
- :mod:`.track`: a track of numbered cells (``kind: track``) drawn from its data;
- :mod:`.printed`: a board printed from a picture: its pixels on the table, the positions
  meaning its printed cells, a track piece's cells as tracks;
- :mod:`.hexboard`: a hex-map board laid from the manifest's ``board`` key;
- :mod:`.game`: :func:`~.game.build_table_game`, what every manifest game's build does alike;
- :mod:`.contents`: what a script knows of the objects in a roster bag;
- :mod:`.snaps`: :func:`snap_points`, the manifest's snap points at a player count;
- :mod:`.preview`: :func:`add_previews`, a laid table's thumbnail and preview sheet (through
  :mod:`tts_builder.gamekit.pictures`).

A rules engine hands the manifest what only its code knows as one
:class:`~tts_builder.plugin.TableHooks` (pictures, anchors, tracks, areas, rosters, each seat's
fields, omitted pieces), to :func:`check_manifest` and :func:`lay_table`; what only one game
has is that game's Python (Ark & Noah's grid board and seat areas: ``games/ark_and_noah``).
"""

from .art import COMPONENT, Art, check_art
from .assemble import Table, lay_table, setup_positions
from .checks import check_manifest
from .layout import (
    SeatFrame,
    check_seat_spots,
    hand_capacity,
    hand_slots,
    script_context,
    seat_frames,
)
from .model import pieces_by_id, seat_colors, step_count, target_of
from .preview import add_previews
from .schema import MANIFEST
from .snaps import snap_points

__all__ = [
    "COMPONENT",
    "MANIFEST",
    "Art",
    "SeatFrame",
    "Table",
    "add_previews",
    "check_art",
    "check_manifest",
    "check_seat_spots",
    "hand_capacity",
    "hand_slots",
    "lay_table",
    "pieces_by_id",
    "script_context",
    "seat_frames",
    "seat_colors",
    "setup_positions",
    "snap_points",
    "step_count",
    "target_of",
]
