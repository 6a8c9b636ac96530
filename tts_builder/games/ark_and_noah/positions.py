"""Where the Ark & Noah script puts things, and the printed cell each place means: the squares,
edges and pitch fields of the Ark (on the section under them), the action spaces and their bonus
rings and the scoring and round tracks' cells (the display of drawn tiles:
:func:`~.places.drawn_positions`). The save checker maps each through
the geometry model onto the board's picture (``geometry.ScriptPosition``)."""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...table.layout import BOARD_TOP
from ...table.printed import board_guid, track_positions
from .action_board import column_positions
from .ark import grid_plan, grid_positions

_BOARDS = (
    ("action-board", "ActionBoard"),
    ("score-track", "ScoreTrack"),
    ("round-track", "RoundTrack"),
)


def board_positions(data: Data, config: Data, guids: dict[str, str]) -> list[geo.ScriptPosition]:
    """The action spaces and bonus rings (standard game), and the tracks' cells (``guids``: the
    boards' GUIDs by ``action-board``, ``score-track``, ``round-track``)."""
    # the family side prints no worker spaces, and its script puts nothing on the board
    worker = config["turn_mode"] == "worker"
    labels = [action["id"] for action in config["actions"]] if worker else []
    board = guids["action-board"]
    found = column_positions(data, board, labels, "space", BOARD_TOP)
    for piece, label in (("score-track", "score"), ("round-track", "round")):
        found += track_positions(data, piece, guids[piece], label, label, BOARD_TOP)
    return found


def positions_on(save: Data, data: Data, config: Data, n: int) -> list[geo.ScriptPosition]:
    """The script's positions on a table laid out for ``n`` players (a save as Setup leaves
    it, or the build's own for the most players): each Ark spot on the section object lying at
    its place, the boards' spots on the boards of ``save``."""
    plan = grid_plan(data, "ark", n)
    sections = [board_guid(save, "Ark", b.transform.pos) for _kind, b in plan.sections]
    boards = {key: board_guid(save, tag) for key, tag in _BOARDS}
    return grid_positions(data, "ark", plan, sections) + board_positions(data, config, boards)
