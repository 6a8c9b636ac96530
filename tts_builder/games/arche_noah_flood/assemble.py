"""The whole flood-race build: the table's objects, the Global script and UI, the save, files."""

from __future__ import annotations

from ...gamekit.output import build_files, game_save
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images
from ...save import GuidAllocator
from ...save import objects as obj
from ...variants import variant_title
from .art import Art
from .cards import add_cards
from .config import is_junior, rules_config
from .dice import add_game_dice
from .pieces import add_ark_zone, add_board, add_flood, add_hand_zones, add_pieces
from .preview import add_previews
from .scene import Scene
from .table import CARD_Y, geometry, script_positions, seat_context, table_positions, xyz


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole flood-race build (or one variant's): art, Global script and UI, save, previews."""
    data = definition.data  # the variant's overlay merged in
    game_id = definition.id
    config = rules_config(data, options.variant)
    junior = is_junior(config)
    name, description = variant_title(data, options.variant)
    scene = Scene(data, Art(definition, images), images, GuidAllocator(game_id))
    geo = geometry(data)
    pos = table_positions(data)

    board = add_board(scene, geo)
    snap_points = [obj.snap_point((x, geo.top_y, z), tags=["Animal"]) for x, z in pos["hexes"]]
    pieces = add_pieces(scene, geo, pos)
    marker, bag = add_flood(scene, geo, pos)
    zone = add_ark_zone(scene, pos)
    dice, flood_dice = add_game_dice(scene, junior)
    # The junior game deals no cards.
    deck, cost_cards = ("", []) if junior else add_cards(scene)
    add_hand_zones(scene)

    ctx = {
        "game": {"id": game_id, "name": name},
        "config": config,
        "players": dict(data["players"]),
        "seats": seat_context(data),
        "guids": {
            "board": board["GUID"],
            "pieces": pieces,
            "marker": marker["GUID"],
            "bag": bag["GUID"],
            "ark_zone": zone["GUID"],
            "dice": dice,
            "flood_dice": flood_dice,
            "deck": deck,
            "cost_cards": cost_cards,
        },
        "geometry": pos,
        "positions": {
            "deck": xyz(data["table"]["deck"], CARD_Y),
            "set_aside": xyz(data["table"]["set_aside"], CARD_Y),
        },
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    save = game_save(
        data,
        name=name,
        objects=scene.objects,
        script=script,
        ui=ui,
        note=description,
        snap_points=snap_points,
    )
    add_previews(scene.art, images, name)
    thumbnail, preview = (images.files.pop(f"images/{n}.png") for n in ("thumbnail", "preview"))
    files = build_files(game_id, save, thumbnail, preview, script, ui)
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = script_positions(data, board["GUID"])
    return build
