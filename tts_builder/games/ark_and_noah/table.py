"""Ark & Noah table geometry: heights, seat areas, track-marker corners and the scripted spots."""

from __future__ import annotations

import math
from typing import Any

BOARD_Y = 1.0  # boards lie on the table
PIECE_Y = 1.25  # pieces dropped on boards and areas
BAG_Y = 1.8

#: Where a seat's pieces lie in its area: (right, forward) of the first one and the step.
AREA_SPOTS = {
    "character": ((-4.4, 1.6), (0.0, 0.0)),
    "animals": ((-2.4, 1.5), (1.5, 0.0)),
    "dividers": ((-4.6, -1.6), (0.3, 0.0)),
    "food": ((0.6, -1.6), (0.45, 0.0)),
    "pitch": ((3.2, -1.6), (0.35, 0.0)),
}


def seat_point(seat: dict[str, Any], right: float, forward: float) -> list[float]:
    """A table [x, z] ``right`` of and ``forward`` from a seat's area centre (toward the Ark)."""
    a = math.radians(seat["facing"])
    x = seat["area"][0] + right * math.cos(a) + forward * math.sin(a)
    z = seat["area"][1] - right * math.sin(a) + forward * math.cos(a)
    return [round(x, 4), round(z, 4)]


def area_spot(seat: dict[str, Any], what: str, k: int) -> list[float]:
    """The k-th place of a kind of piece in a seat's area (rows of 8)."""
    (r0, f0), (dr, df) = AREA_SPOTS[what]
    row, col = divmod(k, 8)
    return seat_point(seat, r0 + dr * col, f0 + df * col - 0.45 * row)


def marker_spot(cell: list[float], seat_no: int) -> list[float]:
    """A scoring marker's place in a track cell (one corner per seat)."""
    dx, dz = ((-0.18, 0.18), (0.18, 0.18), (-0.18, -0.18), (0.18, -0.18))[seat_no % 4]
    return [round(cell[0] + dx, 4), round(cell[1] + dz, 4)]


def xyz(xz: list[float], y: float) -> list[float]:
    """A table [x, z] lifted to [x, y, z]."""
    return [float(xz[0]), float(y), float(xz[1])]


def line_of(spec: dict[str, Any], count: int) -> list[list[float]]:
    """``count`` points from ``spec["start"]`` by ``spec["step"]`` (a row of bags or cards)."""
    return [
        [spec["start"][0] + k * spec["step"][0], spec["start"][1] + k * spec["step"][1]]
        for k in range(count)
    ]


def table_points(data: dict[str, Any], config: dict[str, Any], n: int) -> dict[str, Any]:
    """Where the scripted spots of an ``n``-player table lie: the Ark's ``edges`` (name ->
    [x, z, rotY]), ``pitch`` and ``squares`` (name -> [x, z]), its ``rows`` and ``cols``, and
    the action ``spaces`` ([{id, name, completed, current, bonus}] in board order)."""
    from rules_ref.ark_and_noah import for_players

    from ...render import ark

    table = data["table"]
    geometry = ark.ArkGeometry(
        config["ark"]["section"]["rows"], config["ark"]["section"]["cols"], **data["boards"]["ark"]
    )
    layout = for_players(config["ark"]["sections"], n)["layout"]
    whole = ark.ArkGeometry(
        geometry.rows, geometry.cols * len(layout), geometry.square, geometry.margin, geometry.prow
    )
    u = float(table["square"]) / geometry.square
    center = (float(table["ark"][0]), float(table["ark"][1]))
    points = ark.ark_table_points(whole, center, u)
    bu = float(table["action_board_width"]) / ark.BOARD_SIZE[0]
    bcenter = (float(table["action_board"][0]), float(table["action_board"][1]))

    def at(p: tuple[float, float]) -> list[float]:
        # a flipped tile shows its second picture the right way round: same mapping
        return list(ark.px_to_table(p, ark.BOARD_SIZE, bcenter, bu))

    spaces = [
        {
            "id": a["id"],
            "name": a["name"],
            "completed": at(spot.completed),
            "current": at(spot.current),
            "bonus": at(spot.bonus),
        }
        for a, spot in zip(config["actions"], ark.board_spots(len(config["actions"])), strict=True)
    ]
    return {
        **points,
        "rows": whole.rows,
        "cols": whole.cols,
        "spaces": spaces,
        "geometry": whole,
        "units_per_px": u,
        "center": center,
    }
