"""Where the Ark & Noah script puts things, and the printed cell each place means: the squares,
edges and pitch fields of the Ark (on the section under them), the action spaces and their bonus
rings, the scoring and round tracks' cells, and the display of drawn tiles. The save checker
maps each through the geometry model onto the board's picture (``geometry.ScriptPosition``)."""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...table.columns import columns_of, spot_halves
from ...table.grid_table import grid_positions
from ...table.printed import board_guid, track_positions
from .table import BOARD_TOP, action_board, action_columns, ark_plan

_BOARDS = (
    ("action-board", "ActionBoard"),
    ("score-track", "ScoreTrack"),
    ("round-track", "RoundTrack"),
)


def board_positions(data: Data, config: Data, guids: dict[str, str]) -> list[geo.ScriptPosition]:
    """The action spaces and bonus rings (standard game), and the tracks' cells (``guids``: the
    boards' GUIDs by ``action-board``, ``score-track``, ``round-track``)."""
    b, found = action_board(data), []
    spec = action_columns(data)
    # the family side prints no worker spaces, and its script puts nothing on the board
    worker = config["turn_mode"] == "worker"
    columns = columns_of(spec, len(config["actions"])) if worker else []
    for action, column in zip(config["actions"], columns, strict=False):
        for what, r in spot_halves(spec).items():
            label, guid = f"{action['id']} {what}", guids["action-board"]
            found.append(b.cell(label, guid, column.spots[what], (r, r), "space", BOARD_TOP))
    for piece, label in (("score-track", "score"), ("round-track", "round")):
        found += track_positions(data, piece, guids[piece], label, label, BOARD_TOP)
    return found


def drawn_positions(drawn: list[list[float]], side: float) -> list[geo.ScriptPosition]:
    """The display of drawn tiles beside the boards (tiles ``side`` wide)."""
    return [
        geo.ScriptPosition(
            f"drawn tile {k + 1}", (x, geo.TABLE_TOP_Y, z), size=(side, side), kind="drawn"
        )
        for k, (x, z) in enumerate(drawn)
    ]


def positions_on(save: Data, data: Data, config: Data, n: int) -> list[geo.ScriptPosition]:
    """The script's positions on a table laid out for ``n`` players (a save as Setup leaves
    it, or the build's own for the most players): each Ark spot on the section object lying at
    its place, the boards' spots on the boards of ``save``."""
    plan = ark_plan(data, config, n)
    sections = [board_guid(save, "Ark", b.transform.pos) for _kind, b in plan.sections]
    boards = {key: board_guid(save, tag) for key, tag in _BOARDS}
    return grid_positions(data, "ark", plan, sections) + board_positions(data, config, boards)
