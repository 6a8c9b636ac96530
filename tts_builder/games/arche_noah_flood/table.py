"""What the table manifest gets from the map and the rules (:class:`TableHooks`): the board
geometry, the pictures drawn from rule data, the points the pieces and the script use."""

from __future__ import annotations

from functools import lru_cache

from ...gamekit.table import rounded
from ...geometry import ScriptPosition
from ...json_types import Data, copied
from ...plugin import Picture, TableHooks
from ...render import ArtFiles, hexmap
from ...render.hexmap import BoardGeometry as Geo
from ...render.hexmap import (
    ark_box,
    ark_slots,
    ark_zone,
    flood_tile_scale,
    marker_table,
    marker_units,
)
from ...table import hexboard, layout
from ...table.art import layout_picture, rule_die
from ...table.printed import PrintedPoint as Point
from .cost_card import cost_card_layout

PIECE_LIFT = 0.5  # pieces and the marker stand this far above the board's top face
TILE_LIFT = 0.06


def geometry(data: Data) -> Geo:
    """The board geometry of a definition (hex -> pixel -> table position)."""
    rows = data["map"]["terrain"]
    return hexboard.geometry(data["table"]["board"], len(rows), len(rows[0]))


def piece_count(data: Data) -> int:
    """How many animal pieces (and animal cards) the game has."""
    return data["rules"]["pieces_per_species"] * len(data["animals"])


def table_positions(data: Data) -> Data:
    """Every table position the script needs, from the board geometry (pure; a fresh copy of
    what was worked out once per geometry and piece count in this process)."""
    return copied(_positions(geometry(data), piece_count(data)))


@lru_cache(maxsize=32)
def _positions(geo: Geo, pieces: int) -> Data:
    """:func:`table_positions` of a board geometry and piece count (callers copy it)."""
    rows, cols, top = geo.rows, geo.cols, geo.top_y
    (zx, zz), (zw, zd) = ark_zone(geo)
    return {
        "rows": rows,
        "cols": cols,
        "radius": rounded(geo.radius),
        "hexes": hexboard.centres(geo),
        "names": hexboard.names(geo),
        "markers": [
            rounded(list(marker_table(geo, *divmod(n, cols)))) for n in range(rows * cols + 1)
        ],
        "ark_slots": [rounded([x, top + PIECE_LIFT, z]) for x, z in ark_slots(geo, pieces)],
        "ark_zone": rounded([zx, top + 1.0, zz, zw, 2.0, zd]),
        "piece_y": rounded(top + PIECE_LIFT),
        "tile_y": rounded(top + TILE_LIFT),
        "marker_y": rounded(top + PIECE_LIFT + 0.1),
    }


def pictures(data: Data, files: ArtFiles) -> dict[str, Picture]:
    """What the game draws itself: the board from the map, the cost card from the rules'
    costs, the flood tile, the dice from the rules' faces."""
    geo, style = geometry(data), data["components"]["board"]["style"]
    terrain = data["rules"]["terrain"]
    board = [
        data["map"],
        terrain,
        data["components"]["board"],
        data["table"]["board"],
        data["name"],
    ]
    layout, fields = cost_card_layout(data)
    size = tuple(data["components"]["cost_card"]["size"])
    return {
        "board": hexboard.picture(
            geo,
            {"board": board},
            lambda: hexmap.render_board(data["map"], terrain, geo, style, title=data["name"]),
        ),
        "cost-card": layout_picture(layout, size, fields, files, "components.cost_card.face"),
        "flood-tile": Picture(
            {"tile": style}, lambda: hexmap.render_flood_tile(style), scale=flood_tile_scale(geo)
        ),
        "number-die": rule_die(data, "number_die", "rules.dice.faces"),
        "symbol-die": rule_die(data, "symbol_die", "rules.junior.dice.faces"),
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
            "starts": hexboard.track(geo, data["map"]["starts"], pos["piece_y"]),
        },
        areas={"ark": ((zx, zy - 1.0, zz), (zw, zd))},
    )


def script_positions(data: Data, board_guid: str) -> list[ScriptPosition]:
    """Where the script puts things, and on the board the printed cell each position means:
    hex centres (pieces, flood tiles, snap points), flood-track marks, Ark berths; and the
    deck, set-aside and reveal spots beside the board."""
    geo, pos, script = geometry(data), table_positions(data), data["table"]["script"]
    points = hexboard.hex_points(geo, pos["piece_y"])
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
    return hexboard.printed_cells(geo, data["table"], board_guid, points) + layout.card_spots(
        data["table"], script["positions"], script["seats"]
    )
