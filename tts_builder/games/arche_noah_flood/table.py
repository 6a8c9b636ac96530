"""What the table manifest gets from the map and the rules (:class:`TableHooks`): the board
geometry, the pictures drawn from rule data, the points the pieces and the script use."""

from __future__ import annotations

import marshal
from functools import lru_cache

from ...gamekit.table import hand_placement, rounded, xyz
from ...geometry import PORTRAIT_CARD, TABLE_TOP_Y, ScriptPosition, reader_rot_y
from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...render import ArtFiles, hexmap, render_die_texture, render_layout
from ...render.hexmap import BoardGeometry as Geo
from ...render.hexmap import (
    ark_box,
    ark_slots,
    ark_zone,
    flood_tile_scale,
    hex_name,
    hex_table,
    hex_units,
    marker_table,
    marker_units,
)
from .cost_card import cost_card_layout

CARD_Y = 1.0
BOARD_THICKNESS = 0.2
PIECE_LIFT = 0.5  # pieces and the marker stand this far above the board's top face
TILE_LIFT = 0.06
DIE_STEP = 2.0  # the dice lie in a row, this far apart


def geometry(data: Data) -> Geo:
    """The board geometry of a definition (hex -> pixel -> table position)."""
    board, rows = data["table"]["board"], data["map"]["terrain"]
    return Geo(
        rows=len(rows),
        cols=len(rows[0]),
        hex_width=float(board["hex_width"]),
        px_per_unit=float(board["pixels_per_unit"]),
        centre=(float(board["centre"][0]), float(board["centre"][1])),
        y=TABLE_TOP_Y + BOARD_THICKNESS / 2,
        thickness=BOARD_THICKNESS,
    )


def piece_count(data: Data) -> int:
    """How many animal pieces (and animal cards) the game has."""
    return data["rules"]["pieces_per_species"] * len(data["animals"])


def table_positions(data: Data) -> Data:
    """Every table position the script needs, from the board geometry (pure; a fresh copy of
    what was worked out once per geometry and piece count in this process)."""
    return marshal.loads(marshal.dumps(_positions(geometry(data), piece_count(data))))


@lru_cache(maxsize=32)
def _positions(geo: Geo, pieces: int) -> Data:
    """:func:`table_positions` of a board geometry and piece count (callers copy it)."""
    rows, cols, top = geo.rows, geo.cols, geo.top_y
    (zx, zz), (zw, zd) = ark_zone(geo)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return {
        "rows": rows,
        "cols": cols,
        "radius": rounded(geo.radius),
        "hexes": [rounded(list(hex_table(geo, r, c))) for r, c in cells],
        "names": [hex_name(r, c) for r, c in cells],
        "markers": [
            rounded(list(marker_table(geo, *divmod(n, cols)))) for n in range(rows * cols + 1)
        ],
        "ark_slots": [rounded([x, top + PIECE_LIFT, z]) for x, z in ark_slots(geo, pieces)],
        "ark_zone": rounded([zx, top + 1.0, zz, zw, 2.0, zd]),
        "piece_y": rounded(top + PIECE_LIFT),
        "tile_y": rounded(top + TILE_LIFT),
        "marker_y": rounded(top + PIECE_LIFT + 0.1),
    }


def _die(data: Data, files: ArtFiles, symbols: bool) -> Picture:
    """The texture of the symbol (junior) or number dice, faces from the rules."""
    kind = "symbol_die" if symbols else "number_die"
    spec = data["rules"]["junior"]["dice"] if symbols else data["rules"]["dice"]
    labels = tuple(str(f) for f in spec["faces"])
    style = data["components"][kind]["style"]
    return Picture(
        {"die": list(labels), "style": style},
        lambda: render_die_texture(list(labels), style, f"components.{kind}"),
        faces=labels,
    )


def pictures(data: Data, files: ArtFiles) -> dict[str, Picture]:
    """What the game draws itself: the board from the map, the cost card from the rules'
    costs, the flood tile, the dice from the rules' faces."""
    from ...render import layout_spec

    geo, style = geometry(data), data["components"]["board"]["style"]
    layout, fields = cost_card_layout(data)
    size = tuple(data["components"]["cost_card"]["size"])
    where = "components.cost_card"
    board = [
        data["map"],
        data["rules"]["terrain"],
        data["components"]["board"],
        data["table"]["board"],
        data["name"],
    ]
    return {
        "board": Picture(
            {"board": board},
            lambda: hexmap.render_board(
                data["map"], data["rules"]["terrain"], geo, style, title=data["name"]
            ),
            width=geo.side,
        ),
        "cost-card": Picture(
            {"cost": layout_spec(layout, size, fields, files, where)},
            lambda: render_layout(layout, size, fields, files, where=where).convert("RGB"),
        ),
        "flood-tile": Picture(
            {"tile": style}, lambda: hexmap.render_flood_tile(style), scale=flood_tile_scale(geo)
        ),
        "number-die": _die(data, files, symbols=False),
        "symbol-die": _die(data, files, symbols=True),
    }


def hooks(data: Data, files: ArtFiles) -> TableHooks:
    """Everything the manifest takes from the map and the rules (nothing is drawn here)."""
    geo, pos, rules = geometry(data), table_positions(data), data["rules"]
    junior = rules["mode"] == "junior"
    dx, dz = data["table"]["anchors"]["dice"]
    symbols = rules["junior"]["dice"]["count"] if junior else 0
    row = [(dx + DIE_STEP * i, dz) for i in range(symbols + rules["dice"]["count"])]
    zx, zy, zz, zw, _zh, zd = pos["ark_zone"]
    entries = [
        {"animal": a["name"], **a}
        for a in data["animals"]
        for _ in range(rules["pieces_per_species"])
    ]
    omit = {"symbol-dice"} if not junior else {"cards", "cost-cards"}
    if junior and rules["junior"]["flood_rolls_per_starting_player"] == 0:
        omit.add("dice")
    mx, mz = pos["markers"][0]
    return TableHooks(
        pictures=pictures(data, files),
        anchors={"board": geo.centre, "flood-marker": (mx, pos["marker_y"], mz)},
        tracks={
            "hexes": [(x, geo.top_y, z) for x, z in pos["hexes"]],
            "starts": [
                (x, pos["piece_y"], z)
                for x, z in (hex_table(geo, *s) for s in data["map"]["starts"])
            ],
            "symbol-dice": row[:symbols],
            "number-dice": row[symbols:],
        },
        areas={"ark": ((zx, zy - 1.0, zz), (zw, zd))},
        rosters={"pieces": entries, "cards": entries},
        omit=frozenset(omit),
    )


def seat_context(data: Data) -> list[Data]:
    """The seats as the script sees them: colour, facing, reveal spot and hand position."""
    seats = []
    for slot, seat in enumerate(data["table"]["seats"], start=1):
        hand = hand_placement(data["table"]["type"], seat["color"])
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
    geo, pos = geometry(data), table_positions(data)
    side, cols = geo.side, geo.cols
    cell = 0.8 * (geo.hex_width / 2) / side  # inside the hex's inscribed circle
    found = []
    for n, at in enumerate(pos["hexes"]):
        u, v = (k / side for k in hex_units(geo, *divmod(n, cols)))
        found.append(
            ScriptPosition(
                f"hex {hex_name(*divmod(n, cols))}",
                (at[0], pos["piece_y"], at[1]),
                board_guid,
                (u, v),
                (cell, cell),
                kind="hex",
            )
        )
    for n, at in enumerate(pos["markers"]):
        u, v = (k / side for k in marker_units(geo, *divmod(n, cols)))
        found.append(
            ScriptPosition(
                f"flood mark {n}",
                (at[0], pos["marker_y"], at[1]),
                board_guid,
                (u, v),
                (0.2 / side, 0.2 / side),
                kind="mark",
            )
        )
    x0, y0, x1, y1 = ark_box(geo)
    ark_uv = ((x0 + x1) / 2 / side, (y0 + y1) / 2 / side)
    ark_tol = ((x1 - x0) / 2 / side, (y1 - y0) / 2 / side)
    for n, at in enumerate(pos["ark_slots"]):
        found.append(
            ScriptPosition(f"Ark berth {n + 1}", tuple(at), board_guid, ark_uv, ark_tol, kind="ark")
        )
    anchors = data["table"]["anchors"]
    for name in ("deck", "set-aside"):
        found.append(
            ScriptPosition(
                name.replace("-", " "),
                tuple(xyz(anchors[name], CARD_Y)),
                size=PORTRAIT_CARD,
                rot_y=180.0,
                kind="card",
            )
        )
    for seat in seat_context(data):
        found.append(
            ScriptPosition(
                f"{seat['color']} reveal",
                tuple(seat["reveal"]),
                size=PORTRAIT_CARD,
                rot_y=seat["facing"] + 180.0,
                kind="card",
            )
        )
    return found
