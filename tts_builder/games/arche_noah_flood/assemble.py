"""The whole flood-race build: the manifest laid with the game's hooks, the Global script and
UI, the save, the thumbnail and preview."""

from __future__ import annotations

from ...gamekit.output import build_files, game_save
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images
from ...render import ArtFiles
from ...save import GuidAllocator
from ...table import Art, add_previews, lay_table
from ...variants import variant_title
from .schema import rules_config
from .table import CARD_Y, hooks, script_positions, seat_context, table_positions, xyz


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole flood-race build (or one variant's): art, Global script and UI, save, previews."""
    data = definition.data  # the variant's overlay merged in
    game_id = definition.id
    config = rules_config(data, options.variant)
    name, description = variant_title(data, options.variant)
    supplied = hooks(data, ArtFiles(definition.root))
    art = Art(definition.root, data["components"], images, supplied.pictures)
    table = lay_table(data, art, GuidAllocator(game_id), hooks=supplied)
    guids = table.guids
    dice = guids.get("symbol-dice") or guids["dice"]
    anchors = data["table"]["anchors"]
    ctx = {
        "game": {"id": game_id, "name": name},
        "config": config,
        "players": dict(data["players"]),
        "seats": seat_context(data),
        "guids": {
            "board": guids["board"][0],
            "pieces": guids["animals"],
            "marker": guids["flood-marker"][0],
            "bag": guids["flood-tiles"][0],
            "ark_zone": guids["ark"][0],
            "dice": dice,
            "flood_dice": guids.get("dice", []),
            "deck": guids.get("cards", [""])[0],
            "cost_cards": guids.get("cost-cards", []),
        },
        "geometry": table_positions(data),
        "positions": {
            "deck": xyz(anchors["deck"], CARD_Y),
            "set_aside": xyz(anchors["set-aside"], CARD_Y),
        },
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    save = game_save(
        data,
        name=name,
        objects=table.objects,
        script=script,
        ui=ui,
        note=description,
        snap_points=table.snap_points,
    )
    thumbnail, preview = add_previews(table, art, name, shown=4, columns=6, cell_max=600)
    files = build_files(game_id, save, thumbnail, preview, script, ui)
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = script_positions(data, guids["board"][0])
    return build
