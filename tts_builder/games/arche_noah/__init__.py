"""Arche Noah (RULINGS §1): its definition keys, cross-checks, rule config and TTS table.

Everything the table shows or scripts comes from the definition: card faces from the layouts
and the roster, chip counts and scoring from ``rules``, positions from ``table``.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import FieldError
from ...gamekit.checks import check_art_files
from ...gamekit.output import build_files, game_save
from ...gamekit.table import xyz
from ...geometry import PORTRAIT_CARD, ScriptPosition, reader_rot_y, seat_relative
from ...json_types import Data
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, Game, GameBuild, GameDefinition, Images, TableHooks
from ...save import GuidAllocator
from ...schema_yaml import load_schema
from ...table import Art, Table, check_art, check_manifest, lay_table
from ...table import preview as previews
from ...variants import with_variant

GAME_ID = "arche-noah"

CARD_Y = 1.0
CHIP_Y = 1.2
CHIP_THICKNESS = 0.2  # a seat's chips stand in a tower, one chip thickness apart
#: Seat-relative places (right, toward the centre) of the start player card from the seat's
#: collection and of each chip colour's tower from the seat's chips point.
START_CARD_FROM_COLLECTION = (2.5, 4.0)
CHIP_TOWERS = {"purple": (0.0, 0.0), "green": (1.6, 0.0)}


#: The definition keys (``schema.yaml`` beside this module).
SCHEMA = load_schema(__package__)
FIELDS, OPTIONAL = SCHEMA.fields, SCHEMA.optional


def check(data: Data, root: Path) -> None:
    """Cross-field checks: the schema's references (every player count in one row of each
    by-player-count table), supplies, cards enough, distinct values, seats, art files."""
    SCHEMA.check_references(data)
    rules = data["rules"]
    low, high = data["players"]["min"], data["players"]["max"]
    animals = data["animals"]
    chips, removed = _rows(rules["chips"]), _rows(rules["animals_removed"])
    values = rules["card_values"]
    if len(set(values)) != len(values):
        raise FieldError("rules.card_values", "values must be distinct")
    for players in range(low, high + 1):
        entry = rules["animals_removed"][removed[players]]
        in_play = (len(animals) - entry["count"]) * len(values)
        if in_play < players:
            raise FieldError(
                f"rules.animals_removed[{removed[players]}].count",
                f"leaves {in_play} cards for {players} players",
            )
        for colour in ("purple", "green"):
            need = players * rules["chips"][chips[players]][colour]
            have = rules["supply"][colour]
            if need > have:
                raise FieldError(
                    f"rules.supply.{colour}",
                    f"{players} players need {need} {colour} chips, the supply has {have}",
                )
    hooks = TableHooks(rosters={"cards": card_roster(data)})
    check_manifest(data, hooks=hooks)  # seats enough for the most players among its checks
    check_art_files(root, ((f"animals[{i}].art", a["art"]) for i, a in enumerate(animals)))
    check_art(data, root, hooks)


def _rows(entries: list[Data]) -> dict[int, int]:
    """Each player count a by-player-count table lists mapped to the index of its row."""
    return {count: index for index, entry in enumerate(entries) for count in entry["players"]}


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The rule numbers shared by rules_ref and the Lua: ``rules`` (a variant's merged in) plus
    the animal names."""
    data = with_variant(data, variant)
    return {**data["rules"], "animals": [animal["name"] for animal in data["animals"]]}


def card_roster(data: Data) -> list[Data]:
    """The deck's cards in deck order (animals in roster order, values ascending), each with
    the fields its face prints."""
    return [{**a, "value": v} for a in data["animals"] for v in data["rules"]["card_values"]]


def script_context(data: Data, laid: Table) -> Data:
    """What the scripts are told of the laid table: GUIDs, the piles, the offer, and each seat
    with the rotY its cards read upright at and its seat-relative places turned here."""
    table, guids = data["table"], laid.guids
    anchors = table["anchors"]
    seats = []
    for index, (seat, zone) in enumerate(zip(table["seats"], guids["collections"], strict=True)):
        facing = float(seat["facing"])
        collection, chips = xyz(seat["collection"], CARD_Y), xyz(seat["chips"], CHIP_Y)
        seats.append(
            {
                "index": index,
                "color": seat["color"],
                "collection": collection,
                "chips": chips,
                "facing": facing,
                "collection_zone": zone,
                "upright": reader_rot_y(facing),
                "start_card": list(seat_relative(collection, facing, *START_CARD_FROM_COLLECTION)),
                "chip_towers": {
                    colour: list(seat_relative(chips, facing, *at))
                    for colour, at in CHIP_TOWERS.items()
                },
            }
        )
    max_offer = data["players"]["max"] * data["rules"]["cards_per_player_in_offer"]
    (x0, z0), (dx, dz) = table["offer"]["start"], table["offer"]["step"]
    set_aside = anchors["set-aside"]
    return {
        "seats": seats,
        "guids": {
            "deck": guids["cards"][0],
            "start_player": guids["start-player"][0],
            "purple_bag": guids["purple-chips"][0],
            "green_bag": guids["green-chips"][0],
        },
        "positions": {
            "draw_pile": xyz(anchors["draw-pile"], CARD_Y),
            "set_aside": xyz(set_aside, CARD_Y),
            "offer": [[float(x0 + i * dx), CARD_Y, float(z0 + i * dz)] for i in range(max_offer)],
            "removed": xyz([set_aside[0] + 6.0, set_aside[1]], CARD_Y),
            "chip_step": CHIP_THICKNESS,
        },
    }


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Arche Noah build: the manifest laid with the deck's roster, the Global script
    and UI, the save, the thumbnail and preview."""
    data = definition.data
    game_id = definition.id
    hooks = TableHooks(rosters={"cards": card_roster(data)})
    art = Art(definition.root, data["components"], images)
    laid = lay_table(data, art, GuidAllocator(game_id), hooks=hooks)
    ctx = {
        "game": {"id": game_id, "name": data["name"]},
        "config": rules_config(data),
        "players": dict(data["players"]),
        **script_context(data, laid),
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    save = game_save(
        data,
        name=data["name"],
        objects=laid.objects,
        script=script,
        ui=ui,
        note=data["description"],
    )
    cards = [f for f in laid.faces if f[1] == "card" and f[2] == "face"]
    thumbnail = previews.thumbnail(art, data["name"], [cards[0], cards[len(cards) // 2], cards[-1]])
    preview = previews.preview(laid, art, columns=10, cell_max=600)
    files = build_files(game_id, save, thumbnail, preview, script, ui)
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = script_positions(ctx)
    return build


def _card(label: str, at: list[float], rot_y: float = 180.0) -> ScriptPosition:
    """A portrait card the script lays at ``at``, turned ``rot_y``."""
    return ScriptPosition(label, tuple(at), size=PORTRAIT_CARD, rot_y=rot_y, kind="card")


def script_positions(ctx: Data) -> list[ScriptPosition]:
    """The table positions the script is given (its ``POS`` and ``SEATS``), with the footprint
    of what it puts there: portrait cards in the piles, the offer and the collections."""
    pos = ctx["positions"]
    found = [_card("draw pile", pos["draw_pile"]), _card("set aside", pos["set_aside"])]
    found += [_card(f"offer {i + 1}", at) for i, at in enumerate(pos["offer"])]
    for seat in ctx["seats"]:
        colour, turn = seat["color"], reader_rot_y(seat["facing"])
        found.append(_card(f"{colour} collection", seat["collection"], turn))
        found.append(ScriptPosition(f"{colour} chips", tuple(seat["chips"]), kind="chips"))
        found.append(_card(f"{colour} start card", seat["start_card"], turn))
        found += [
            ScriptPosition(f"{colour} {chip} chips", tuple(at), kind="chips")
            for chip, at in seat["chip_towers"].items()
            if at != seat["chips"]
        ]
    found.append(_card("removed", pos["removed"]))
    return found


#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(
    GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble,
    strategies=f"{__name__}.strategies",
    play=f"{__name__}.play:ArcheNoahAdapter",
    balance=f"{__name__}.balance:ArcheNoah",
)  # fmt: skip
