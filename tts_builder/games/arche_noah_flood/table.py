"""What the table manifest gets from the map and the rules (:class:`TableHooks`): the board
geometry, the pictures drawn from rule data, the points the pieces and the script use."""

from __future__ import annotations

import marshal
from functools import lru_cache

from ...gamekit.table import rounded
from ...geometry import TABLE_TOP_Y, ScriptPosition
from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...render import ArtFiles, hexmap
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
from ...table import layout
from ...table.art import die_picture, layout_picture
from ...table.printed import PrintedPoint as Point
from ...table.printed import board, printed_cells, shared_rot_y
from .cost_card import cost_card_layout

BOARD_THICKNESS = 0.2
PIECE_LIFT = 0.5  # pieces and the marker stand this far above the board's top face
TILE_LIFT = 0.06


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


def _die(data: Data, symbols: bool) -> Picture:
    """The texture of the symbol (junior) or number dice, faces from the rules."""
    kind = "symbol_die" if symbols else "number_die"
    spec = data["rules"]["junior"]["dice"] if symbols else data["rules"]["dice"]
    style = data["components"][kind]["style"]
    return die_picture([str(f) for f in spec["faces"]], style, f"components.{kind}")


def pictures(data: Data, files: ArtFiles) -> dict[str, Picture]:
    """What the game draws itself: the board from the map, the cost card from the rules'
    costs, the flood tile, the dice from the rules' faces."""
    geo, style = geometry(data), data["components"]["board"]["style"]
    board = [
        data["map"],
        data["rules"]["terrain"],
        data["components"]["board"],
        data["table"]["board"],
        data["name"],
    ]
    layout, fields = cost_card_layout(data)
    size = tuple(data["components"]["cost_card"]["size"])
    return {
        "board": Picture(
            {"board": board},
            lambda: hexmap.render_board(
                data["map"], data["rules"]["terrain"], geo, style, title=data["name"]
            ),
            width=geo.side,
            pixels=geo.image_size,
            sized_by="table.board.pixels_per_unit",
        ),
        "cost-card": layout_picture(layout, size, fields, files, "components.cost_card"),
        "flood-tile": Picture(
            {"tile": style}, lambda: hexmap.render_flood_tile(style), scale=flood_tile_scale(geo)
        ),
        "number-die": _die(data, symbols=False),
        "symbol-die": _die(data, symbols=True),
    }


def hooks(data: Data, files: ArtFiles) -> TableHooks:
    """Everything the manifest takes from the map and the rules (nothing is drawn here)."""
    geo, pos = geometry(data), table_positions(data)
    zx, zy, zz, zw, _zh, zd = pos["ark_zone"]
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
        },
        areas={"ark": ((zx, zy - 1.0, zz), (zw, zd))},
    )


def script_positions(data: Data, board_guid: str) -> list[ScriptPosition]:
    """Where the script puts things, and on the board the printed cell each position means:
    hex centres (pieces, flood tiles, snap points), flood-track marks, Ark berths; and the
    deck, set-aside and reveal spots beside the board."""
    geo, pos, script = geometry(data), table_positions(data), data["table"]["script"]
    cells = [divmod(n, geo.cols) for n in range(geo.rows * geo.cols)]
    inside = 0.8 * (geo.hex_width / 2)  # inside the hex's inscribed circle
    y, half = pos["piece_y"], (inside, inside)
    points = [
        Point(f"hex {hex_name(r, c)}", "hex", (x, y, z), hex_units(geo, r, c), half)
        for (r, c), (x, z) in zip(cells, pos["hexes"], strict=True)
    ]
    y, half = pos["marker_y"], (0.2, 0.2)
    points += [
        Point(f"flood mark {n}", "mark", (x, y, z), marker_units(geo, *divmod(n, geo.cols)), half)
        for n, (x, z) in enumerate(pos["markers"])
    ]
    x0, y0, x1, y1 = ark_box(geo)
    ark = ((x0 + x1) / 2, (y0 + y1) / 2), ((x1 - x0) / 2, (y1 - y0) / 2)
    points += [
        Point(f"Ark berth {n + 1}", "ark", at, *ark) for n, at in enumerate(pos["ark_slots"])
    ]
    # the board picture measured in table units (its side): a cell's centre and half size in
    # those units from the picture's top-left corner, each point where the geometry put it
    printed = board(geo.centre, (geo.side, geo.side), geo.side, shared_rot_y(data["table"]))
    return printed_cells(printed, board_guid, points) + layout.card_spots(
        data["table"], script["positions"], script["seats"]
    )
