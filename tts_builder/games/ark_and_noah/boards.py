"""Ark & Noah boards on the table: the Ark's sections, the action board and the two tracks,
with the snap points the pieces drop onto."""

from __future__ import annotations

from typing import Any, NamedTuple

from ...save import GuidAllocator
from ...save import objects as obj
from .table import BOARD_Y, PIECE_Y, xyz

SNAP_Y = PIECE_Y - 0.2  # snap points lie just under a dropped piece


class BoardsOnTable(NamedTuple):
    """The board objects and snap points of a table, and the tracks' cells (table [x, z])."""

    objects: list[dict[str, Any]]
    snaps: list[dict[str, Any]]
    score_cells: list[list[float]]
    round_cells: list[list[float]]


def place_boards(
    table: dict[str, Any],
    config: dict[str, Any],
    layout: list[str],
    boards: dict[str, Any],
    spots: dict[str, Any],
    guids: GuidAllocator,
) -> BoardsOnTable:
    """Every board of a table whose Ark runs ``layout`` (``spots``: its ``table_points``)."""
    from ...render import ark

    objects: list[dict[str, Any]] = []
    snaps: list[dict[str, Any]] = []
    whole, u, center = spots["geometry"], spots["units_per_px"], spots["center"]
    offsets = ark.section_offsets(layout, boards["geometry"], config["ark"]["section"]["cols"])
    for index, (kind, x0) in enumerate(offsets):
        url, size = boards["sections"][kind]
        xz = ark.px_to_table((x0 + size[0] / 2, size[1] / 2), whole.size, center, u)
        scale = ark.tile_scale(size, u)
        objects.append(_board_tile(guids, f"ark:{index}", (url,), f"Ark: {kind}", "Ark", xz, scale))
    for x, z, angle in spots["edges"].values():
        snaps.append(obj.snap_point((x, SNAP_Y, z), (0, angle, 0), ["Divider"]))
    for x, z in spots["pitch"].values():
        snaps.append(obj.snap_point((x, SNAP_Y, z), (0, 0, 0), ["Pitch"]))
    for x, z in spots["squares"].values():
        snaps.append(obj.snap_point((x, SNAP_Y, z), (0, 0, 0), ["Animal", "Food"]))

    family = config["turn_mode"] != "worker"
    bu = float(table["action_board_width"]) / ark.BOARD_SIZE[0]
    bcenter = (float(table["action_board"][0]), float(table["action_board"][1]))
    urls = (boards["board-standard"], boards.get("board-family", boards["board-standard"]))
    scale = ark.tile_scale(ark.BOARD_SIZE, bu)
    objects.append(
        _board_tile(
            guids, "action-board", urls, "Action board", "ActionBoard", bcenter, scale, family
        )
    )
    if not family:
        for entry in spots["spaces"]:
            for key in ("completed", "current"):
                snaps.append(obj.snap_point(xyz(entry[key], SNAP_Y), None, ["Worker"]))

    score_tile, score_cells = _track(
        guids,
        ("score-track", boards["score"], "Scoring track", "ScoreTrack"),
        ark.score_track_size(),
        table["score_track_width"],
        table["score_track"],
        [ark.score_cell_px(v) for v in range(ark.SCORE_CELLS)],
    )
    rounds = config["end"]["min_rounds"]
    round_tile, round_cells = _track(
        guids,
        ("round-track", boards["rounds"], "Round track", "RoundTrack"),
        ark.round_track_size(rounds),
        table["round_track_width"],
        table["round_track"],
        [ark.round_cell_px(k) for k in range(rounds + 1)],
    )
    objects += [score_tile, round_tile]
    return BoardsOnTable(objects, snaps, score_cells, round_cells)


def _track(
    guids: GuidAllocator,
    names: tuple[str, str, str, str],
    size: tuple[int, int],
    width: float,
    at: list[float],
    cells_px: list[tuple[float, float]],
) -> tuple[dict[str, Any], list[list[float]]]:
    """A track tile ``width`` units wide centred ``at`` (``names``: GUID key, URL, nickname,
    tag) and its cells' table [x, z] (from their pixel centres ``cells_px``)."""
    from ...render import ark

    key, url, nickname, tag = names
    u = float(width) / size[0]
    center = (float(at[0]), float(at[1]))
    tile = _board_tile(guids, key, (url,), nickname, tag, center, ark.tile_scale(size, u))
    return tile, [list(ark.px_to_table(px, size, center, u)) for px in cells_px]


def _board_tile(
    guids: GuidAllocator,
    key: str,
    urls: tuple[str, ...],
    nickname: str,
    tag: str,
    xz: tuple[float, float],
    scale: float,
    flipped: bool = False,
) -> dict[str, Any]:
    """A locked board tile lying at ``xz`` (``urls``: face, then any back; ``flipped``: back up)."""
    return obj.custom_tile(
        guids.guid(key),
        *urls,
        thickness=0.2,
        locked=True,
        nickname=nickname,
        tags=[tag],
        transform=obj.transform(
            (xz[0], BOARD_Y, xz[1]), (0, 0, 180 if flipped else 0), (scale,) * 3
        ),
    )
