"""The Ark & Noah build: the pictures once, then one save for every player count (its Setup
builds the Ark for the seated players), its Global script and UI."""

from __future__ import annotations

from typing import Any

from rules_ref.ark_and_noah import for_players, hull_edges, pitch_fields

from ... import geometry as geo
from ...gamekit.output import build_files, game_save
from ...json_types import Data
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images
from ...save import GuidAllocator
from ...save import objects as obj
from .animals import animal_side, place_animals
from .art import Art, board_art, preview, thumbnail
from .boards import place_boards, section_keys, snap_points
from .pieces import PIECES, place_pieces
from .positions import ark_positions, board_positions, drawn_positions
from .rules import rules_config
from .table import (
    ANIMAL_THICKNESS,
    AREA_SLOTS,
    BAG_Y,
    BOARD_TOP,
    DIVIDER_THICKNESS,
    MARKER_CORNERS,
    action_spaces,
    area_slot,
    ark_plan,
    line_of,
    piece_rot_y,
    round_cells,
    score_cells,
)
from .tiles import tile_list


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Ark & Noah build: art, the save, its scripts, thumbnail and preview."""
    data = definition.data  # the variant's overlay merged in
    config = rules_config(data, options.variant)
    art = Art(definition, images)
    # The action board is printed on both sides (standard and family) whatever is built.
    boards = board_art(definition.base_data, config, images)
    tiles = tile_list(data)
    tile_images = art.tile_images(tiles)
    save, script, ui, positions = _save(definition, config, art, boards, tiles, tile_images)
    thumb = thumbnail(art, tiles, data["name"], images)
    files = build_files(definition.id, save, thumb, preview(art, tiles, images), script, ui)
    build = GameBuild(definition.id, definition, save, script, ui, files)
    build.positions = positions
    return build


def seats_of(data: Data) -> list[Data]:
    """Every seat of the table, each with its character and colour hex (seat order)."""
    hexes = {c["name"]: c["hex"] for c in data["colors"]}
    high = data["players"]["max"]
    return [
        {
            **data["table"]["seats"][i],
            "character": data["characters"][i],
            "hex": hexes[data["colors"][i]["name"]],
        }
        for i in range(high)
    ]


def _ark_context(data: dict[str, Any], config: dict[str, Any], n: int, sections: dict[str, str]):
    """What the script needs of the ``n``-player Ark: the grid, its spots, where each section
    goes (the others leave the table) and the snap points."""
    plan = ark_plan(data, config, n)
    keys = section_keys(plan.layout)
    placed = []
    for key, (_kind, b) in zip(keys, plan.sections, strict=True):
        t = b.transform
        placed.append(
            {
                "guid": sections[key],
                "pos": dict(zip("xyz", t.pos, strict=True)),
                "rot": dict(zip("xyz", t.rot, strict=True)),
            }
        )
    family = config["turn_mode"] != "worker"
    return {
        "rows": plan.rows,
        "cols": plan.cols,
        "edges": plan.edges,
        "pitch": plan.pitch,
        "squares": plan.squares,
        "hull": hull_edges(plan.rows, plan.cols),  # the rules' own hull, canonical order
        "pitch_near": {p: [a, b] for p, a, b in pitch_fields(plan.rows, plan.cols)},
        "sections": placed,
        "removed": [guid for key, guid in sections.items() if key not in keys],
        "snaps": snap_points(plan, action_spaces(data, config), family),
    }


def lua_snap_points(snaps: list[Data]) -> list[Data]:
    """Save-form snap points ({Position, Rotation, Tags}) in the form ``setSnapPoints`` takes
    ({position, rotation, rotation_snap, tags}: the Lua API's keys are lower case)."""
    out = []
    for point in snaps:
        entry: Data = {"position": point["Position"], "tags": point.get("Tags", [])}
        if "Rotation" in point:
            entry |= {"rotation": point["Rotation"], "rotation_snap": True}
        out.append(entry)
    return out


def _save(
    definition: GameDefinition,
    config: Data,
    art: Art,
    boards: Data,
    tiles: list[Data],
    tile_images: dict[int, tuple[str, str]],
) -> tuple[Data, str, str, list[geo.ScriptPosition]]:
    """The save (laid out for the most players), its Global script and UI, and the positions
    its script uses on that layout."""
    data = definition.data
    table = data["table"]
    low, high = data["players"]["min"], data["players"]["max"]
    guids = GuidAllocator(definition.id)
    seats = seats_of(data)
    colours = [s["color"] for s in seats]
    hands = obj.default_hand_triggers(lambda c: guids.guid(f"hand:{c}"), table["type"], colours)
    biggest = ark_plan(data, config, high)
    on_boards = place_boards(data, config, biggest, boards, guids)
    aspect = geo.image_aspect(data["components"]["animal"]["size"]) or 1.0
    animals = place_animals(guids, tiles, tile_images, table["bags"], table["square"], aspect)
    cells = (score_cells(data), round_cells(data, config))
    most_workers = max(for_players(config["workers"], n)["count"] for n in range(low, high + 1))
    pieces = place_pieces(guids, art, config, seats, table, cells, most_workers)
    spaces = action_spaces(data, config)
    arks = {str(n): _ark_context(data, config, n, on_boards.sections) for n in range(low, high + 1)}
    save_snaps = arks[str(high)]["snaps"]
    for ark in arks.values():
        ark["snaps"] = lua_snap_points(ark["snaps"])
    ctx = {
        "game": {"id": definition.id, "name": data["name"]},
        "config": config,
        "players": {"min": low, "max": high},
        "variant": config["variant"] or "",
        "colors": colours,
        "seats": [script_seat(seat) for seat in seats],
        "arks": arks,
        "snap_tolerance": round(float(table["square"]) * 0.3, 4),
        "spaces": spaces,
        "score_cells": cells[0],
        "marker_corners": [list(c) for c in MARKER_CORNERS],
        "round_cells": cells[1],
        "drawn": [[round(x, 4), round(z, 4)] for x, z in line_of(table["drawn"], 6)],
        "area": {
            "size": list(table["area_size"]),
            "slots": {k: s._asdict() for k, s in AREA_SLOTS.items()},
        },
        "y": {"table": geo.TABLE_TOP_Y, "board": BOARD_TOP, "bag": BAG_Y},
        "thickness": {
            **{kind: spec[2] for kind, spec in PIECES.items()},
            "animal": ANIMAL_THICKNESS,
            "divider": DIVIDER_THICKNESS,
        },
        "guids": {"bags": animals.bags, "sections": on_boards.sections, **pieces.guids},
        "tiles": animals.tiles,
        "tile_guids": [animals.by_tile[t] for t in sorted(animals.by_tile)],
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    family = config["turn_mode"] != "worker"
    save = game_save(
        data,
        name=f"{data['name']}{' (family)' if family else ''}",
        game_mode=data["name"],
        objects=hands + on_boards.objects + animals.objects + pieces.objects,
        script=script,
        ui=ui,
        note=data["description"],
        snap_points=save_snaps,
    )
    drawn = ctx["drawn"]
    keys = section_keys(biggest.layout)
    positions = ark_positions(data, biggest, [on_boards.sections[k] for k in keys])
    boards_by = {k: guids.guid(k) for k in ("action-board", "score-track", "round-track")}
    positions += board_positions(data, config, boards_by)
    positions += drawn_positions(drawn, animal_side(table["square"]))
    return save, script, ui, positions


def script_seat(seat: dict[str, Any]) -> dict[str, Any]:
    """A seat as the script sees it: beside its fields, ``upright`` (the rotY its pieces read
    upright at), ``axes`` (the table directions [x, z] of its right and forward) and
    ``places`` (each kind's places in its area, one layer, as [x, z]: the table's
    ``area_slot``), so the script does no seat-relative arithmetic of its own."""
    places = {
        kind: [area_slot(seat, kind, k)[::2] for k in range(s.per_line * s.lines)]
        for kind, s in AREA_SLOTS.items()
    }
    axes = {
        name: list(geo.rotate_y(*unit, seat["facing"]))
        for name, unit in (("right", (1.0, 0.0)), ("forward", (0.0, 1.0)))
    }
    return {**seat, "upright": piece_rot_y(seat), "axes": axes, "places": places}
