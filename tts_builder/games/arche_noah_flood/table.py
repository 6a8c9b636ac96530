"""Where things sit on the table: the board geometry, the script's positions, the seats."""

from __future__ import annotations

from typing import Any

from ...gamekit.table import hand_placement, xyz
from ...gamekit.table import rounded as _round
from ...geometry import PORTRAIT_CARD, TABLE_TOP_Y, ScriptPosition
from ...json_types import Data
from ...render.hexmap import (
    BoardGeometry,
    ark_box,
    ark_slots,
    ark_zone,
    hex_name,
    hex_table,
    hex_units,
    marker_table,
    marker_units,
)
from ...save.tables import HandPlacement

CARD_Y = 1.0
BOARD_THICKNESS = 0.2
PIECE_LIFT = 0.5  # pieces and the marker stand this far above the board's top face
TILE_LIFT = 0.06


def geometry(data: Data) -> BoardGeometry:
    """The board geometry of a definition (hex -> pixel -> table position)."""
    terrain = data["map"]["terrain"]
    board = data["table"]["board"]
    return BoardGeometry(
        rows=len(terrain),
        cols=len(terrain[0]),
        hex_width=float(board["hex_width"]),
        px_per_unit=float(board["pixels_per_unit"]),
        centre=(float(board["centre"][0]), float(board["centre"][1])),
        # The tile's origin is its bottom face, on the table top (geometry.top_y).
        y=TABLE_TOP_Y + BOARD_THICKNESS / 2,
        thickness=BOARD_THICKNESS,
    )


def piece_count(data: Data) -> int:
    """How many animal pieces (and animal cards) the game has."""
    return data["rules"]["pieces_per_species"] * len(data["animals"])


def table_positions(data: Data) -> Data:
    """Every table position the script needs, from the board geometry (pure)."""
    geo = geometry(data)
    rows, cols = geo.rows, geo.cols
    top = geo.top_y
    (zx, zz), (zw, zd) = ark_zone(geo)
    return {
        "rows": rows,
        "cols": cols,
        "radius": _round(geo.radius),
        "hexes": [_round(list(hex_table(geo, r, c))) for r in range(rows) for c in range(cols)],
        "names": [hex_name(r, c) for r in range(rows) for c in range(cols)],
        "markers": [
            _round(list(marker_table(geo, n // cols, n % cols))) for n in range(rows * cols + 1)
        ],
        "ark_slots": [
            _round([x, top + PIECE_LIFT, z]) for x, z in ark_slots(geo, piece_count(data))
        ],
        "ark_zone": _round([zx, top + 1.0, zz, zw, 2.0, zd]),
        "piece_y": _round(top + PIECE_LIFT),
        "tile_y": _round(top + TILE_LIFT),
        "marker_y": _round(top + PIECE_LIFT + 0.1),
    }


def seat_hand(data: Data, color: str) -> HandPlacement | None:
    """The table's default hand placement for a seat colour (Table_RPG, Table_Custom); None
    where the defaults are unknown (then the geometry check reports the missing seat)."""
    return hand_placement(data["table"]["type"], color)


def seat_context(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats as the script sees them: colour, facing, reveal spot and hand position."""
    seats = []
    from ...geometry import reader_rot_y  # "upright": the rotY a seat's cards read upright at

    for slot, seat in enumerate(data["table"]["seats"], start=1):
        hand = seat_hand(data, seat["color"])
        seats.append(
            {
                "slot": slot,
                "color": seat["color"],
                "facing": float(seat["facing"]),
                "upright": reader_rot_y(seat["facing"]),
                "reveal": xyz(seat["reveal"], CARD_Y + 0.2),
                "hand": [float(v) for v in hand[0]] if hand else xyz(seat["reveal"], CARD_Y + 2),
            }
        )
    return seats


def script_positions(data: Data, board_guid: str) -> list[ScriptPosition]:
    """Where the script puts things, and on the board the printed cell each position means:
    hex centres (pieces, flood tiles, snap points), flood-track marks, Ark berths; and the
    deck, set-aside and reveal spots beside the board."""
    geo = geometry(data)
    pos = table_positions(data)
    side = geo.side
    cell = 0.8 * (geo.hex_width / 2) / side  # inside the hex's inscribed circle
    found = []
    for n, at in enumerate(pos["hexes"]):
        r, c = divmod(n, geo.cols)
        u, v = (k / side for k in hex_units(geo, r, c))
        found.append(ScriptPosition(
            f"hex {hex_name(r, c)}", (at[0], pos["piece_y"], at[1]), board_guid, (u, v),
            (cell, cell), kind="hex",
        ))  # fmt: skip
    for n, at in enumerate(pos["markers"]):
        r, c = divmod(n, geo.cols)
        u, v = (k / side for k in marker_units(geo, r, c))
        found.append(ScriptPosition(
            f"flood mark {n}", (at[0], pos["marker_y"], at[1]), board_guid, (u, v),
            (0.2 / side, 0.2 / side), kind="mark",
        ))  # fmt: skip
    x0, y0, x1, y1 = ark_box(geo)
    ark_uv = ((x0 + x1) / 2 / side, (y0 + y1) / 2 / side)
    ark_tol = ((x1 - x0) / 2 / side, (y1 - y0) / 2 / side)
    for n, at in enumerate(pos["ark_slots"]):
        found.append(ScriptPosition(
            f"Ark berth {n + 1}", tuple(at), board_guid, ark_uv, ark_tol, kind="ark",
        ))  # fmt: skip
    for name in ("deck", "set_aside"):
        found.append(ScriptPosition(
            name.replace("_", " "), tuple(xyz(data["table"][name], CARD_Y)),
            size=PORTRAIT_CARD, rot_y=180.0, kind="card",
        ))  # fmt: skip
    for seat in seat_context(data):
        found.append(ScriptPosition(
            f"{seat['color']} reveal", tuple(seat["reveal"]), size=PORTRAIT_CARD,
            rot_y=seat["facing"] + 180.0, kind="card",
        ))  # fmt: skip
    return found
