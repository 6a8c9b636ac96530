"""The Ark & Noah build: the pictures once, then one save for every player count (its Setup
builds the Ark for the seated players), its Global script and UI."""

from __future__ import annotations

from rules_ref.ark_and_noah import hull_edges, pitch_fields

from ...gamekit.table import lua_snap_points
from ...json_types import Data
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images, TableHooks
from ...table import Table, pieces_by_id, snap_points
from ...table.contents import bag_entries
from ...table.game import Sheet, build_table_game
from .ark import grid_plan, keyed_sections, section_moves
from .boards import action_spaces, table_hooks
from .context import table_context
from .places import drawn_positions
from .positions import positions_on
from .rules import rules_config

#: The preview sheet: every face on the table in rows of 14 small cells.
SHEET = Sheet(columns=14, cell_max=140)

#: What the script knows of each animal tile (``tiles``: GUID -> these fields).
TILE_INFO = ("species", "sex", "name", "size", "vp", "tile")


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Ark & Noah build (:func:`~tts_builder.table.game.build_table_game`): the save
    laid out for the most players, the scripts' context, the thumbnail (the manifest's
    ``thumbnail``) and preview (:data:`SHEET`), and the positions its script uses on that
    layout."""
    data = definition.data  # the variant's overlay merged in
    config = rules_config(data, options.variant)
    # The action board is printed on both sides (standard and family) whatever is built.
    hooks = table_hooks(definition.base_data, data, config)
    high = data["players"]["max"]
    family = config["turn_mode"] != "worker"
    build, laid = build_table_game(
        definition,
        images,
        lambda laid: _context(definition, config, laid, hooks),
        title=(f"{data['name']}{' (family)' if family else ''}", data["description"]),
        game_mode=data["name"],
        hooks=hooks,
        sheet=SHEET,
    )
    build.positions += positions_on(build.save, data, config, high)
    side = float(pieces_by_id(data["table"])["male-animals"]["contents"]["width"])
    build.positions += drawn_positions(data, side)
    return build


def _ark_context(data: Data, n: int, sections: dict[str, str], hooks: TableHooks) -> Data:
    """What the script needs of the ``n``-player Ark (the manifest's grid ``ark``): its size
    and spots, the rules' own hull and the pitch fields by the grid points they join, where
    each section goes (the others leave the table) and the table's snap points."""
    plan = grid_plan(data, "ark", n)
    placed, removed = section_moves(data, "ark", plan, sections)
    return {
        "rows": plan.rows,
        "cols": plan.cols,
        "edges": plan.edges,
        "pitch": plan.hull,
        "squares": plan.cells,
        "sections": placed,
        "removed": removed,
        "hull": hull_edges(plan.rows, plan.cols),  # the rules' own hull, canonical order
        "pitch_near": {p: [a, b] for p, a, b in pitch_fields(plan.rows, plan.cols)},
        "snaps": lua_snap_points(snap_points(data, hooks, n)),  # Setup sets its count's
    }


def _context(definition: GameDefinition, config: Data, laid: Table, hooks: TableHooks) -> Data:
    """The scripts' template context of the laid table (laid out for the most players): the
    generic part (:func:`~tts_builder.table.context.table_context`, each seat with its
    character and colour hex) and the game's own."""
    data, table = definition.data, definition.data["table"]
    own = zip(data["characters"], data["colors"], strict=False)
    fields = [{"character": c, "hex": k["hex"]} for c, k in own]
    shared = table_context(definition.id, data, laid, fields)
    sections = keyed_sections(data, "ark", laid.guids)  # on the table of the most players
    bags = [f"{sex}-animals" for sex in ("male", "female")]
    tiles = bag_entries(table, laid, hooks.rosters, bags, TILE_INFO)
    supply = dict(zip(shared["colors"], laid.guids["dividers"], strict=True))  # the supply bags
    supply |= {
        k: laid.guids[f"{k}-supply"][0] for k in ("food", "pitch") if f"{k}-supply" in laid.guids
    }
    players = range(data["players"]["min"], data["players"]["max"] + 1)
    return {
        **shared,
        "config": config,
        "arks": {str(n): _ark_context(data, n, sections, hooks) for n in players},
        "snap_tolerance": round(float(table["square"]) * 0.3, 4),
        "spaces": action_spaces(data, config),
        "drawn": [list(point) for point in laid.context["tracks"]["drawn"]],  # .places
        "guids": {**shared["guids"], "sections": sections, "supply": supply},
        "tiles": tiles,
        "tile_guids": sorted(tiles, key=lambda guid: tiles[guid]["tile"]),
    }
