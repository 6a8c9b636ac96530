"""Ark & Noah boards on the table: the Ark's sections, the action board and the two tracks, as
Stretch Custom_Tiles at scaleY 1 (thickness from ``CustomTile.Thickness``), each upright for the
first seat; and the snap points the pieces drop onto, per player count."""

from __future__ import annotations

from ...json_types import Data
from ...save import GuidAllocator
from ...save import objects as obj
from .table import BOARD_THICKNESS, BOARD_TOP, ArkPlan, action_board, round_track, score_track


def section_keys(layout: list[str]) -> list[str]:
    """Each section's key in a layout: its kind, numbered for the middles (``middle:1``...)."""
    middles = iter(range(1, len(layout) + 1))
    return [f"middle:{next(middles)}" if kind == "middle" else kind for kind in layout]


def place_boards(
    data: Data, config: Data, biggest: ArkPlan, boards: Data, guids: GuidAllocator
) -> tuple[list[Data], dict[str, str]]:
    """Every board, the Ark laid out for the largest player count (Setup moves it), and the
    GUID of each Ark section by its key (``bow``, ``middle:1``, ..., ``stern``)."""
    # the family save shows the family side as the face: no flipped tile to read
    sides = ["board-standard", "board-family"][:: -1 if config["turn_mode"] != "worker" else 1]
    action = (boards[sides[0]], boards.get(sides[1], boards[sides[0]]))
    tiles = [
        (f"ark:{key}", (boards["sections"][kind],), f"Ark: {kind}", "Ark", b.transform)
        for key, (kind, b) in zip(section_keys(biggest.layout), biggest.sections, strict=True)
    ]
    tiles += [
        ("action-board", action, "Action board", "ActionBoard", action_board(data).transform),
        (
            "score-track",
            (boards["score"],),
            "Scoring track",
            "ScoreTrack",
            score_track(data).transform,
        ),
        (
            "round-track",
            (boards["rounds"],),
            "Round track",
            "RoundTrack",
            round_track(data, config).transform,
        ),
    ]
    objects = [
        obj.custom_tile(
            guids.guid(key),
            *urls,
            thickness=BOARD_THICKNESS,
            locked=True,
            nickname=name,
            tags=[tag],
            transform=t.as_save(),
        )
        for key, urls, name, tag, t in tiles
    ]
    sections = {
        key[4:]: o["GUID"] for (key, *_), o in zip(tiles, objects, strict=True) if key[:4] == "ark:"
    }
    return objects, sections


def snap_points(plan: ArkPlan, spaces: list[Data], family: bool) -> list[Data]:
    """The global snap points of a player count's table, on the boards' tops: dividers on the
    Ark's edges (along them), pitch on its pitch fields, animals and food on its squares,
    workers on the action spaces."""
    snaps = [
        obj.snap_point((x, BOARD_TOP, z), (0, angle, 0), ["Divider"])
        for x, z, angle in plan.edges.values()
    ]
    snaps += [obj.snap_point((x, BOARD_TOP, z), None, ["Pitch"]) for x, z in plan.pitch.values()]
    snaps += [
        obj.snap_point((x, BOARD_TOP, z), None, ["Animal", "Food"])
        for x, z in plan.squares.values()
    ]
    workers = [] if family else [entry[key] for entry in spaces for key in ("completed", "current")]
    return snaps + [obj.snap_point((x, BOARD_TOP, z), None, ["Worker"]) for x, z in workers]
