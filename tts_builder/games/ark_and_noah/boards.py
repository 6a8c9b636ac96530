"""Ark & Noah boards on the table: the Ark's sections, the action board and the two tracks, as
Stretch Custom_Tiles at scaleY 1 (thickness from ``CustomTile.Thickness``), each upright for the
first seat; and the snap points the pieces drop onto, per player count."""

from __future__ import annotations

from typing import NamedTuple

from ...json_types import Data
from ...save import GuidAllocator
from ...save import objects as obj
from .table import (
    BOARD_THICKNESS,
    BOARD_TOP,
    ArkPlan,
    Board,
    action_board,
    round_track,
    score_track,
)


class BoardsOnTable(NamedTuple):
    """The board objects, and the GUID of each Ark section by its key (``bow``, ``middle:1``,
    ..., ``stern``)."""

    objects: list[Data]
    sections: dict[str, str]


def section_keys(layout: list[str]) -> list[str]:
    """Each section's key in a layout: its kind, numbered for the middles (``middle:1``...)."""
    out, middles = [], 0
    for kind in layout:
        if kind == "middle":
            middles += 1
            out.append(f"middle:{middles}")
        else:
            out.append(kind)
    return out


def place_boards(
    data: Data,
    config: Data,
    biggest: ArkPlan,
    boards: Data,
    guids: GuidAllocator,
) -> BoardsOnTable:
    """Every board, the Ark laid out for the largest player count (Setup moves it)."""
    objects: list[Data] = []
    sections: dict[str, str] = {}
    for key, (kind, b) in zip(section_keys(biggest.layout), biggest.sections, strict=True):
        url, _size = boards["sections"][kind]
        tile = _board_tile(guids, f"ark:{key}", (url,), f"Ark: {kind}", "Ark", b)
        sections[key] = tile["GUID"]
        objects.append(tile)
    family = config["turn_mode"] != "worker"
    # the family save shows the family side as the face: no flipped tile to read
    side = "board-family" if family else "board-standard"
    other = "board-standard" if family else "board-family"
    urls = (boards[side], boards.get(other, boards[side]))
    objects.append(
        _board_tile(guids, "action-board", urls, "Action board", "ActionBoard", action_board(data))
    )
    objects.append(
        _board_tile(
            guids,
            "score-track",
            (boards["score"],),
            "Scoring track",
            "ScoreTrack",
            score_track(data),
        )
    )
    objects.append(
        _board_tile(
            guids,
            "round-track",
            (boards["rounds"],),
            "Round track",
            "RoundTrack",
            round_track(data, config),
        )
    )
    return BoardsOnTable(objects, sections)


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
    if not family:
        for entry in spaces:
            for key in ("completed", "current"):
                x, z = entry[key]
                snaps.append(obj.snap_point((x, BOARD_TOP, z), None, ["Worker"]))
    return snaps


def _board_tile(
    guids: GuidAllocator,
    key: str,
    urls: tuple[str, ...],
    nickname: str,
    tag: str,
    b: Board,
) -> Data:
    """A locked board tile lying on the table (``urls``: face, then any back)."""
    return obj.custom_tile(
        guids.guid(key),
        *urls,
        thickness=BOARD_THICKNESS,
        locked=True,
        nickname=nickname,
        tags=[tag],
        transform=b.transform.as_save(),
    )
