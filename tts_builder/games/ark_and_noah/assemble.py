"""The Ark & Noah build: the pictures once, then one save for every player count (its Setup
builds the Ark for the seated players), its Global script and UI."""

from __future__ import annotations

from rules_ref.ark_and_noah import hull_edges, pitch_fields

from ... import geometry as geo
from ...gamekit.table import lua_snap_points
from ...json_types import Data
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images, TableHooks
from ...table import Art, Table, script_context, snap_points, thickness_by_kind
from ...table.areas import script_seat
from ...table.contents import bag_entries
from ...table.game import build_table_game
from ...table.grid_table import keyed_sections, section_moves
from ...table.printed import track_seats
from . import table as tab
from .art import preview, thumbnail
from .boards import table_hooks
from .positions import drawn_positions, positions_on
from .rules import rules_config
from .tiles import tile_list


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Ark & Noah build (:func:`~tts_builder.table.game.build_table_game`): the save
    laid out for the most players, the scripts' context, the game's
    own thumbnail and preview, and the positions its script uses on that layout."""
    data = definition.data  # the variant's overlay merged in
    config = rules_config(data, options.variant)
    # The action board is printed on both sides (standard and family) whatever is built.
    hooks = table_hooks(definition.base_data, data, config)
    tiles, high = tile_list(data), data["players"]["max"]

    def previews(_table: Table, art: Art) -> tuple[bytes, bytes]:
        return thumbnail(art.sides, data, tiles, images), preview(art.sides, data, tiles, images)

    family = config["turn_mode"] != "worker"
    build, _table = build_table_game(
        definition,
        images,
        lambda laid: _context(definition, config, laid, hooks),
        title=(f"{data['name']}{' (family)' if family else ''}", data["description"]),
        game_mode=data["name"],
        hooks=hooks,
        previews=previews,
    )
    build.positions += positions_on(build.save, data, config, high)
    build.positions += drawn_positions(_drawn(data), tab.animal_side(data))
    return build


def seats_of(data: Data) -> list[Data]:
    """Every seat of the table, each with its character and colour hex (seat order)."""
    return [
        {
            **data["table"]["seats"][i],
            "character": data["characters"][i],
            "hex": data["colors"][i]["hex"],
        }
        for i in range(data["players"]["max"])
    ]


def _ark_context(
    data: Data, config: Data, n: int, sections: dict[str, str], hooks: TableHooks
) -> Data:
    """What the script needs of the ``n``-player Ark: the grid, its spots, where each section
    goes (the others leave the table) and the table's snap points (the manifest's)."""
    points = tab.table_points(data, config, n)
    plan = points["plan"]
    placed, removed = section_moves(data, "ark", plan, sections)
    return {
        **{key: points[key] for key in ("rows", "cols", "edges", "pitch", "squares")},
        "hull": hull_edges(plan.rows, plan.cols),  # the rules' own hull, canonical order
        "pitch_near": {p: [a, b] for p, a, b in pitch_fields(plan.rows, plan.cols)},
        "sections": placed,
        "removed": removed,
        "snaps": lua_snap_points(snap_points(data, hooks, n)),  # Setup sets its count's
    }


def _drawn(data: Data) -> list[list[float]]:
    """The display of drawn tiles: six points of ``table.drawn``."""
    return [[round(x, 4), round(z, 4)] for x, z in tab.line_of(data["table"]["drawn"], 6)]


def _sections(data: Data, config: Data, laid: Table) -> dict[str, str]:
    """Each Ark section's GUID by its key (``bow``, ``middle:1``...) in the Ark of the most
    players."""
    return keyed_sections(data, "ark", laid.guids)


#: What the script knows of each animal tile (``tiles``: GUID -> these fields).
TILE_INFO = ("species", "sex", "name", "size", "vp", "tile")


def _context(definition: GameDefinition, config: Data, laid: Table, hooks: TableHooks) -> Data:
    """The scripts' template context of the laid table (laid out for the most players)."""
    data, table = definition.data, definition.data["table"]
    low, high = data["players"]["min"], data["players"]["max"]
    seats = seats_of(data)
    colours = [s["color"] for s in seats]
    sections = _sections(data, config, laid)
    bags = [f"{sex}-animals" for sex in ("male", "female")]
    tiles = bag_entries(table, laid, hooks.rosters, bags, TILE_INFO)
    cells = (tab.score_cells(data), tab.round_cells(data))
    supply = dict(zip(colours, laid.guids["dividers"], strict=True))  # the supply bags
    supply |= {
        k: laid.guids[f"{k}-supply"][0] for k in ("food", "pitch") if f"{k}-supply" in laid.guids
    }
    arks = {str(n): _ark_context(data, config, n, sections, hooks) for n in range(low, high + 1)}
    return {
        "game": {"id": definition.id, "name": data["name"]},
        "config": config,
        "players": {"min": low, "max": high},
        "variant": config["variant"] or "",
        "colors": colours,
        "seats": [script_seat(seat, tab.area_slots(data)) for seat in seats],
        "arks": arks,
        "snap_tolerance": round(float(table["square"]) * 0.3, 4),
        "spaces": tab.action_spaces(data, config),
        "score_cells": cells[0],
        "marker_corners": [list(c) for c in track_seats(data, "score-track")],
        "round_cells": cells[1],
        "drawn": _drawn(data),
        "area": {
            "size": list(table["area_size"]),
            "slots": {k: s._asdict() for k, s in tab.area_slots(data).items()},
        },
        "y": {"table": geo.TABLE_TOP_Y, "board": tab.BOARD_TOP, "bag": tab.BAG_Y},
        "thickness": thickness_by_kind(table),
        "guids": {
            **script_context(table, laid.guids)["guids"],  # the manifest's script.guids
            "sections": sections,
            "supply": supply,
        },
        "tiles": tiles,
        "tile_guids": sorted(tiles, key=lambda guid: tiles[guid]["tile"]),
    }
