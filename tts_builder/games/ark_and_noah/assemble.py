"""The Ark & Noah build: the pictures once, then one save for every player count (its Setup
builds the Ark for the seated players), its Global script and UI."""

from __future__ import annotations

from rules_ref.ark_and_noah import hull_edges, pitch_fields

from ... import geometry as geo
from ...gamekit.output import build_files, game_save
from ...gamekit.table import lua_snap_points
from ...json_types import Data
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images, TableHooks
from ...save import GuidAllocator
from ...table import Art, lay_table, thickness_by_kind
from ...table.areas import script_seat
from ...table.contents import bag_entries, seat_guids
from . import table as tab
from .art import preview, thumbnail
from .boards import section_keys, snap_points, table_hooks
from .positions import ark_positions, board_positions, drawn_positions
from .rules import rules_config
from .tiles import tile_list


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Ark & Noah build: art, the save, its scripts, thumbnail and preview."""
    data = definition.data  # the variant's overlay merged in
    config = rules_config(data, options.variant)
    # The action board is printed on both sides (standard and family) whatever is built.
    hooks = table_hooks(definition.base_data, data, config)
    art = Art(definition.root, data["components"], images, hooks.pictures)
    tiles = tile_list(data)
    save, script, ui, positions = _save(definition, config, art, hooks)
    thumb = thumbnail(art.sides, data, tiles, images)
    sheet = preview(art.sides, data, tiles, images)
    files = build_files(definition.id, save, thumb, sheet, script, ui)
    build = GameBuild(definition.id, definition, save, script, ui, files)
    build.positions = positions
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


def _ark_context(data: Data, config: Data, n: int, sections: dict[str, str]) -> Data:
    """What the script needs of the ``n``-player Ark: the grid, its spots, where each section
    goes (the others leave the table) and the snap points."""
    points = tab.table_points(data, config, n)
    plan = points["plan"]
    keys = section_keys(plan.layout)
    placed = [
        {
            "guid": sections[key],
            "pos": dict(zip("xyz", b.transform.pos, strict=True)),
            "rot": dict(zip("xyz", b.transform.rot, strict=True)),
        }
        for key, (_kind, b) in zip(keys, plan.sections, strict=True)
    ]
    return {
        **{key: points[key] for key in ("rows", "cols", "edges", "pitch", "squares")},
        "hull": hull_edges(plan.rows, plan.cols),  # the rules' own hull, canonical order
        "pitch_near": {p: [a, b] for p, a, b in pitch_fields(plan.rows, plan.cols)},
        "sections": placed,
        "removed": [guid for key, guid in sections.items() if key not in keys],
        "snaps": snap_points(plan, points["spaces"], config["turn_mode"] == "seats"),
    }


#: What the script knows of each animal tile (``tiles``: GUID -> these fields).
TILE_INFO = ("species", "sex", "name", "size", "vp", "tile")


def _save(
    definition: GameDefinition, config: Data, art: Art, hooks: TableHooks
) -> tuple[Data, str, str, list[geo.ScriptPosition]]:
    """The save (laid out for the most players), its Global script and UI, and the positions
    its script uses on that layout."""
    data, table = definition.data, definition.data["table"]
    low, high = data["players"]["min"], data["players"]["max"]
    guids = GuidAllocator(definition.id)
    seats = seats_of(data)
    colours = [s["color"] for s in seats]
    laid = lay_table(data, art, guids, hooks=hooks)  # the boards, the seats' hand zones
    biggest = tab.ark_plan(data, config, high)
    guids_of = {kind: iter(laid.guids.get(f"ark-{kind}", [])) for kind in biggest.layout}
    keys = section_keys(biggest.layout)
    sections = {key: next(guids_of[kind]) for key, kind in zip(keys, biggest.layout, strict=True)}
    bags = [f"{sex}-animals" for sex in ("male", "female")]
    tiles = bag_entries(table, laid, hooks.rosters, bags, TILE_INFO)
    cells = (tab.score_cells(data), tab.round_cells(data, config))
    supply = dict(zip(colours, laid.guids["dividers"], strict=True))  # the supply bags
    supply |= {
        k: laid.guids[f"{k}-supply"][0] for k in ("food", "pitch") if f"{k}-supply" in laid.guids
    }
    arks = {str(n): _ark_context(data, config, n, sections) for n in range(low, high + 1)}
    save_snaps = arks[str(high)]["snaps"]
    for ark in arks.values():
        ark["snaps"] = lua_snap_points(ark["snaps"])  # Setup sets its count's
    drawn = [[round(x, 4), round(z, 4)] for x, z in tab.line_of(table["drawn"], 6)]
    ctx = {
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
        "marker_corners": [list(c) for c in tab.MARKER_CORNERS],
        "round_cells": cells[1],
        "drawn": drawn,
        "area": {
            "size": list(table["area_size"]),
            "slots": {k: s._asdict() for k, s in tab.area_slots(data).items()},
        },
        "y": {"table": geo.TABLE_TOP_Y, "board": tab.BOARD_TOP, "bag": tab.BAG_Y},
        "thickness": {
            **thickness_by_kind(table),
        },
        "guids": {
            **{"sections": sections, "supply": supply},
            "bags": {sex: laid.guids[f"{sex}-animals"][0] for sex in ("male", "female")},
            "characters": dict(zip(colours, laid.guids["characters"], strict=True)),
            "workers": seat_guids(laid, "workers", colours),
            "score": dict(zip(colours, laid.guids["score-markers"], strict=True)),
            "round": laid.guids["round-marker"][0],
            "bonus": {str(v): g for v, g in enumerate(laid.guids["bonus-bags"], start=1)},
        },
        "tiles": tiles,
        "tile_guids": sorted(tiles, key=lambda guid: tiles[guid]["tile"]),
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    family = config["turn_mode"] != "worker"
    save = game_save(
        data,
        name=f"{data['name']}{' (family)' if family else ''}",
        game_mode=data["name"],
        objects=laid.objects,
        script=script,
        ui=ui,
        note=data["description"],
        snap_points=save_snaps,
    )
    positions = ark_positions(data, biggest, [sections[k] for k in keys])
    boards_by = {k: laid.guids[k][0] for k in ("action-board", "score-track", "round-track")}
    positions += board_positions(data, config, boards_by)
    positions += drawn_positions(drawn, tab.animal_side(data))
    return save, script, ui, positions
