"""The Ark & Noah build: the pictures once, then a save, Global script and UI per player count."""

from __future__ import annotations

from typing import Any

from ...save import GuidAllocator
from .animals import place_animals
from .art import Art, board_art, preview, thumbnail
from .boards import place_boards
from .pieces import place_pieces
from .rules import rules_config
from .table import AREA_SPOTS, BAG_Y, PIECE_Y, line_of, table_points
from .tiles import tile_list


def assemble(definition: Any, images: Any, options: Any) -> Any:
    """The whole Ark & Noah build: art, a save per player count, scripts, thumbnails."""
    from ...build import GameBuild

    data = definition.data
    config = rules_config(data, options.variant)
    art = Art(definition, images)
    boards = board_art(data, config, images)
    tiles = tile_list(data)
    sheets = art.tile_sheets(tiles)
    low, high = data["players"]["min"], data["players"]["max"]
    files: dict[str, bytes] = {}
    saves: dict[int, tuple[dict[str, Any], str, str]] = {}
    for n in range(low, high + 1):
        save, script, ui = _player_count_save(definition, config, n, art, boards, tiles, sheets)
        saves[n] = (save, script, ui)
        _add_outputs(files, definition.id, n, n == high, save, script, ui)
    thumb = thumbnail(art, tiles, data["name"], images)
    for n in range(low, high + 1):
        files[f"{definition.id}-{n}p.png"] = thumb
    files["preview.png"] = preview(art, tiles, images)
    save, script, ui = saves[high]
    return GameBuild(definition.id, definition, save, script, ui, files)


def _add_outputs(
    files: dict[str, bytes], game_id: str, n: int, main: bool, save: Any, script: str, ui: str
) -> None:
    """An ``n``-player save and its scripts (the ``main`` one's in ``scripts/`` itself)."""
    from ...save import dumps

    files[f"{game_id}-{n}p.json"] = dumps(save)
    folder = "scripts" if main else f"scripts/{n}p"
    files[f"{folder}/Global.lua"] = script.encode("utf-8")
    files[f"{folder}/Global.xml"] = ui.encode("utf-8")


def _seats(data: dict[str, Any], n: int) -> list[dict[str, Any]]:
    """The first ``n`` seats, each with its character and colour hex."""
    hexes = {c["name"]: c["hex"] for c in data["colors"]}
    return [
        {
            **data["table"]["seats"][i],
            "character": data["characters"][i],
            "hex": hexes[data["colors"][i]["name"]],
        }
        for i in range(n)
    ]


def _player_count_save(
    definition: Any,
    config: dict[str, Any],
    n: int,
    art: Art,
    boards: dict[str, Any],
    tiles: list[dict[str, Any]],
    sheets: tuple[str, str, Any],
) -> tuple[dict[str, Any], str, str]:
    """The save, Global script and UI of an ``n``-player table."""
    # _grid: the rules' own hull and pitch neighbours
    from rules_ref.ark_and_noah import _grid, for_players

    from ...lua.scripts import global_script, global_ui
    from ...save import new_save

    data = definition.data
    table = data["table"]
    guids = GuidAllocator(f"{definition.id}:{n}")
    layout = for_players(config["ark"]["sections"], n)["layout"]
    spots = table_points(data, config, n)
    seats = _seats(data, n)
    seed = f"{definition.id}:{n}:{config['variant']}"
    on_boards = place_boards(table, config, layout, boards, spots, guids)
    animals = place_animals(guids, config, tiles, seats, table["bags"], sheets, seed)
    cells = (on_boards.score_cells, on_boards.round_cells)
    pieces = place_pieces(guids, art, config, seats, table, spots["spaces"], cells)

    whole = spots["geometry"]
    grid = _grid(whole.rows, whole.cols)
    ctx = {
        "game": {"id": definition.id, "name": data["name"]},
        "config": config,
        "players": n,
        "variant": config["variant"] or "",
        "colors": [c["name"] for c in data["colors"][:n]],
        "seats": seats,
        "ark": {
            "rows": whole.rows,
            "cols": whole.cols,
            "edges": spots["edges"],
            "pitch": spots["pitch"],
            "squares": spots["squares"],
            "hull": sorted(grid.hull, key=grid.index.__getitem__),
            "pitch_near": {p: [a, b] for p, a, b in grid.points},
            "snap": round(float(table["square"]) * 0.3, 4),
        },
        "spaces": spots["spaces"],
        "score_cells": on_boards.score_cells,
        "round_cells": on_boards.round_cells,
        "drawn": [[round(x, 4), round(z, 4)] for x, z in line_of(table["drawn"], 8)],
        "area": {
            "size": list(table["area_size"]),
            "spots": {k: [list(a), list(b)] for k, (a, b) in AREA_SPOTS.items()},
        },
        "y": {"piece": PIECE_Y, "bag": BAG_Y},
        "guids": {"bags": animals.bags, **pieces.guids},
        "tiles": animals.tiles,
        "templates": {"bonus": pieces.templates},
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    family = config["turn_mode"] != "worker"
    save = new_save(
        save_name=f"{data['name']} ({n} players{', family' if family else ''})",
        game_mode=data["name"],
        objects=on_boards.objects + animals.objects + pieces.objects,
        lua_script=script,
        xml_ui=ui,
        tags=data.get("tags", []),
        player_counts=(n, n),
        playing_time=data.get("playing_time"),
        complexity=data.get("complexity", ""),
        table=table["type"],
        sky=table["sky"],
        note=data["description"],
        snap_points=on_boards.snaps,
    )
    return save, script, ui
