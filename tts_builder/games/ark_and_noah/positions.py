"""Where the Ark & Noah script puts things, and the printed cell each place means: the squares,
edges and pitch fields of the Ark (on the section under them), the action spaces and their bonus
rings, the scoring and round tracks' cells, and the display of drawn tiles. The save checker
maps each through the geometry model onto the board's picture (``geometry.ScriptPosition``)."""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...render import ark
from ...render.ark import Point
from .table import BOARD_TOP, ArkPlan, Board, action_board, ark_plan, round_track, score_track


def _on(
    label: str, xz: list[float], board: Board, guid: str, px: Point, half: Point, kind: str
) -> geo.ScriptPosition:
    """A position ``xz`` on ``board`` meaning the cell printed at pixel ``px`` (half-size
    ``half`` px)."""
    w, h = board.size
    return geo.ScriptPosition(
        label,
        (float(xz[0]), BOARD_TOP, float(xz[1])),
        guid,
        (px[0] / w, px[1] / h),
        (half[0] / w, half[1] / h),
        kind=kind,
    )


def ark_positions(data: Data, plan: ArkPlan, section_guids: list[str]) -> list[geo.ScriptPosition]:
    """The Ark's squares, edges and pitch fields of ``plan``, each on the section under it
    (``section_guids`` in the plan's order)."""
    g = ark.ArkGeometry(plan.rows, plan.cols, **data["boards"]["ark"])
    points = ark.ark_points(g)
    offsets = ark.section_offsets(plan.layout, g, plan.cols // len(plan.layout))
    bounds = [  # (x0 px in the whole Ark, board, guid) per section
        (x0, b, guid)
        for (_kind, b), guid, (_k, x0) in zip(plan.sections, section_guids, offsets, strict=True)
    ]

    def section_of(px: tuple[float, float]) -> tuple[Board, str, float]:
        for x0, b, guid in reversed(bounds):
            if px[0] >= x0:
                return b, guid, x0
        return bounds[0][1], bounds[0][2], bounds[0][0]

    found = []
    half_square = g.square / 2 - 6
    for name, px in points["squares"].items():
        b, guid, x0 = section_of(px)
        found.append(
            _on(f"square {name}", plan.squares[name], b, guid, (px[0] - x0, px[1]),
                (half_square, half_square), "square")
        )  # fmt: skip
    for name, (x, y, angle) in points["edges"].items():
        b, guid, x0 = section_of((x - 1, y))  # an edge on a seam belongs to the left section
        across, along = 4.0, g.square / 2
        half = (along, across) if angle == 0 else (across, along)
        found.append(_on(f"edge {name}", plan.edges[name][:2], b, guid, (x - x0, y), half, "edge"))
    half_pitch = g.margin * 0.34
    for name, px in points["pitch"].items():
        b, guid, x0 = section_of(px)
        found.append(
            _on(f"pitch field {name}", plan.pitch[name], b, guid, (px[0] - x0, px[1]),
                (half_pitch, half_pitch), "pitch")
        )  # fmt: skip
    return found


def board_positions(data: Data, config: Data, guids: dict[str, str]) -> list[geo.ScriptPosition]:
    """The action spaces and bonus rings (standard game), and the tracks' cells (``guids``: the
    boards' GUIDs by ``action-board``, ``score-track``, ``round-track``)."""
    found = []
    b = action_board(data)
    worker = config["turn_mode"] == "worker"
    # the family side prints no worker spaces, and its script puts nothing on the board
    spots = ark.board_spots(len(config["actions"])) if worker else []
    for action, spot in zip(config["actions"], spots, strict=False):
        places = [("completed", spot.completed, 62), ("current", spot.current, 62)]
        places += [("bonus", spot.bonus, 26)]
        for what, px, r in places:
            found.append(
                _on(f"{action['id']} {what}", b.at(px), b, guids["action-board"], px, (r, r),
                    "space")
            )  # fmt: skip
    track = score_track(data)
    half = ark.SCORE_CELL / 2 - 4
    for vp in range(ark.SCORE_CELLS):
        px = ark.score_cell_px(vp)
        found.append(
            _on(f"score {vp}", track.at(px), track, guids["score-track"], px, (half, half),
                "score")
        )  # fmt: skip
    rounds = round_track(data, config)
    for k in range(config["end"]["min_rounds"] + 1):
        px = ark.round_cell_px(k)
        found.append(
            _on(f"round {k}", rounds.at(px), rounds, guids["round-track"], px, (48, 48), "round")
        )
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
    objects = [o for o in save.get("ObjectStates") or [] if isinstance(o, dict)]
    sections = []
    for _kind, b in plan.sections:
        x, _y, z = b.transform.pos
        sections.append(
            next(
                o["GUID"]
                for o in objects
                if "Ark" in o.get("Tags", [])
                and abs(o["Transform"]["posX"] - x) < 1e-3
                and abs(o["Transform"]["posZ"] - z) < 1e-3
            )
        )
    boards = {
        key: next(o["GUID"] for o in objects if tag in o.get("Tags", []))
        for key, tag in (
            ("action-board", "ActionBoard"),
            ("score-track", "ScoreTrack"),
            ("round-track", "RoundTrack"),
        )
    }
    return ark_positions(data, plan, sections) + board_positions(data, config, boards)
