"""Where the Ark & Noah script puts things, and the printed cell each place means: the squares,
edges and pitch fields of the Ark (on the section under them), the action spaces and their bonus
rings and the scoring and round tracks' cells (the display of drawn tiles is the manifest's line
``drawn``: :func:`~tts_builder.table.lines.line_positions`). The save checker maps each through
the geometry model onto the board's picture (``geometry.ScriptPosition``)."""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...table.printed import board_guid, column_positions, track_positions
from . import drawing as ark
from .drawing import Point
from .table import BOARD_TOP, ArkPlan, ark_plan

_BOARDS = (
    ("action-board", "ActionBoard"),
    ("score-track", "ScoreTrack"),
    ("round-track", "RoundTrack"),
)


def ark_positions(data: Data, plan: ArkPlan, section_guids: list[str]) -> list[geo.ScriptPosition]:
    """The Ark's squares, edges and pitch fields of ``plan``, each on the section under it
    (``section_guids`` in the plan's order)."""
    g = ark.ArkGeometry(plan.rows, plan.cols, **data["boards"]["ark"])
    points = ark.ark_points(g)
    offsets = ark.section_offsets(plan.layout, g, plan.cols // len(plan.layout))
    bounds = [
        (x0, b, guid)
        for (_kind, b), guid, (_k, x0) in zip(plan.sections, section_guids, offsets, strict=True)
    ]

    def on(
        label: str,
        xz: list[float],
        px: tuple[float, float],
        half: Point,
        kind: str,
        probe: float = 0.0,
    ) -> geo.ScriptPosition:
        """On the section under ``px`` (``probe`` px to its left: an edge on a seam belongs
        to the left section)."""
        x0, b, guid = next((s for s in reversed(bounds) if px[0] + probe >= s[0]), bounds[0])
        return b.cell(label, guid, (px[0] - x0, px[1]), half, kind, BOARD_TOP, xz)

    square, pitch = g.square / 2 - 6, g.margin * 0.34
    found = [
        on(f"square {name}", plan.squares[name], px, (square, square), "square")
        for name, px in points["squares"].items()
    ]
    for name, (x, y, angle) in points["edges"].items():
        half = (g.square / 2, 4.0) if angle == 0 else (4.0, g.square / 2)
        found.append(on(f"edge {name}", plan.edges[name][:2], (x, y), half, "edge", -1))
    return found + [
        on(f"pitch field {name}", plan.pitch[name], px, (pitch, pitch), "pitch")
        for name, px in points["pitch"].items()
    ]


def board_positions(data: Data, config: Data, guids: dict[str, str]) -> list[geo.ScriptPosition]:
    """The action spaces and bonus rings (standard game), and the tracks' cells (``guids``: the
    boards' GUIDs by ``action-board``, ``score-track``, ``round-track``)."""
    # the family side prints no worker spaces, and its script puts nothing on the board
    worker = config["turn_mode"] == "worker"
    labels = [action["id"] for action in config["actions"]] if worker else []
    board = guids["action-board"]
    found = column_positions(data, "action-board", board, labels, "space", BOARD_TOP)
    for piece, label in (("score-track", "score"), ("round-track", "round")):
        found += track_positions(data, piece, guids[piece], label, label, BOARD_TOP)
    return found


def positions_on(save: Data, data: Data, config: Data, n: int) -> list[geo.ScriptPosition]:
    """The script's positions on a table laid out for ``n`` players (a save as Setup leaves
    it, or the build's own for the most players): each Ark spot on the section object lying at
    its place, the boards' spots on the boards of ``save``."""
    plan = ark_plan(data, config, n)
    sections = [board_guid(save, "Ark", b.transform.pos) for _kind, b in plan.sections]
    boards = {key: board_guid(save, tag) for key, tag in _BOARDS}
    return ark_positions(data, plan, sections) + board_positions(data, config, boards)
