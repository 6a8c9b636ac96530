"""The whole flood-race build: the table's objects, the Global script and UI, the save, files."""

from __future__ import annotations

from typing import Any

from .art import Art
from .cards import add_cards
from .config import rules_config, variant_spec
from .dice import add_game_dice
from .pieces import add_ark_zone, add_board, add_flood, add_hand_zones, add_pieces
from .preview import add_previews
from .scene import Scene
from .table import CARD_Y, geometry, script_positions, seat_context, table_positions, xyz


def assemble(definition: Any, images: Any, options: Any) -> Any:
    """The whole flood-race build (or one variant's): art, Global script and UI, save, previews."""
    from ...build import GameBuild
    from ...lua.scripts import global_script, global_ui
    from ...save import GuidAllocator, dumps, new_save
    from ...save import objects as obj

    data = definition.data
    game_id = definition.id
    vspec = variant_spec(data, options.variant)
    junior = bool(vspec.get("junior"))
    name = vspec.get("name", data["name"])
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
        "game": {"id": game_id, "name": name, "junior": junior},
        "config": rules_config(data, options.variant),
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
    save = new_save(
        save_name=name,
        game_mode=name,
        objects=scene.objects,
        lua_script=script,
        xml_ui=ui,
        tags=data.get("tags", []),
        player_counts=(data["players"]["min"], data["players"]["max"]),
        playing_time=data.get("playing_time"),
        complexity=data.get("complexity", ""),
        table=data["table"]["type"],
        sky=data["table"]["sky"],
        note=vspec.get("description", data["description"]),
        snap_points=snap_points,
    )
    add_previews(scene.art, images, name)
    files: dict[str, bytes] = {
        f"{game_id}.png": images.files.pop("images/thumbnail.png"),
        "preview.png": images.files.pop("images/preview.png"),
        f"{game_id}.json": dumps(save),
        "scripts/Global.lua": script.encode("utf-8"),
        "scripts/Global.xml": ui.encode("utf-8"),
    }
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = script_positions(data, board["GUID"])
    return build
