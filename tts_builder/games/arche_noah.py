"""Arche Noah (RULINGS §1): its definition keys, cross-checks, rule config and TTS table.

Everything the table shows or scripts comes from the definition: card faces from the layouts
and the roster, chip counts and scoring from ``rules``, positions from ``table``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import FieldError
from ..gamekit import pictures
from ..gamekit.checks import check_art_files, check_seats, player_count_rows, unique_names
from ..gamekit.output import build_files, game_save
from ..gamekit.specs import PLAYER_COUNTS, TABLES, component
from ..gamekit.table import hand_zone
from ..gamekit.table import xyz as _xyz
from ..geometry import PORTRAIT_CARD, ScriptPosition, reader_rot_y
from ..json_types import Data
from ..lua.scripts import global_script, global_ui
from ..plugin import BuildOptions, Game, GameBuild, GameDefinition, Images
from ..save import GuidAllocator
from ..save import objects as obj
from ..save.tables import SEAT_COLORS
from ..schema import Color, Int, ListOf, Map, Num, OneOf, Point, Str
from ..variants import with_variant

GAME_ID = "arche-noah"
STRATEGIES = "tts_builder.strategies.arche_noah"  # its rule functions' input generators

CARD_Y = 1.0
CHIP_Y = 1.2
CHIP_THICKNESS = 0.2  # a seat's chips stand in a tower, one chip thickness apart
#: Seat-relative places (right, toward the centre) of the start player card from the seat's
#: collection and of each chip colour's tower from the seat's chips point.
START_CARD_FROM_COLLECTION = (2.5, 4.0)
CHIP_TOWERS = {"purple": (0.0, 0.0), "green": (1.6, 0.0)}
BAG_Y = 1.6


FIELDS = {
    "rules": Map(
        {
            "playthroughs": Int(1, 9),
            "card_values": ListOf(Int(0, 99), 1, 10),
            "chips": ListOf(
                Map({"players": PLAYER_COUNTS, "purple": Int(0, 99), "green": Int(0, 99)}), 1
            ),
            "animals_removed": ListOf(Map({"players": PLAYER_COUNTS, "count": Int(0)}), 1),
            "cards_per_player_in_offer": Int(1, 5),
            "only_first_picker_pays_up_to_players": Int(0, 10),
            "green_chip_takes": ListOf(Int(0, 5), 1, 5),
            "scoring": Map(
                {
                    "set_of_four_bonus": Int(-99, 99),
                    "purple_chips_per_point": Int(1, 99),
                    "green_points_per_chip": ListOf(Int(-99, 99), 1, 9),
                }
            ),
            "supply": Map({"purple": Int(0, 999), "green": Int(0, 999)}),
        }
    ),
    "animals": ListOf(Map({"name": Str(), "color": Color(), "art": Str()}), 2, 60),
    "components": Map(
        {
            "card": component("face", "back"),
            "start_player": component("face"),
            "purple_chip": component("face"),
            "green_chip": component("face"),
        }
    ),
    "table": Map(
        {
            "type": OneOf(TABLES),
            "sky": Str(),
            "draw_pile": Point(2),
            "set_aside": Point(2),
            "offer": Map({"start": Point(2), "step": Point(2)}),
            "seats": ListOf(
                Map(
                    {
                        "color": OneOf(SEAT_COLORS),
                        "collection": Point(2),
                        "chips": Point(2),
                        "facing": Num(),
                    }
                ),
                1,
                10,
            ),
        }
    ),
}
OPTIONAL: frozenset[str] = frozenset()


def check(data: Data, root: Path) -> None:
    """Cross-field checks: coverage of player counts, supplies, uniqueness, art files."""
    rules = data["rules"]
    low, high = data["players"]["min"], data["players"]["max"]
    animals = data["animals"]
    chips = player_count_rows(rules["chips"], "rules.chips", low, high)
    removed = player_count_rows(rules["animals_removed"], "rules.animals_removed", low, high)
    values = rules["card_values"]
    if len(set(values)) != len(values):
        raise FieldError("rules.card_values", "values must be distinct")
    unique_names([a["name"] for a in animals], "animals[{}].name", "animal {!r} listed twice")
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
    check_seats(data["table"]["seats"], high)
    check_art_files(root, ((f"animals[{i}].art", a["art"]) for i, a in enumerate(animals)))


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The rule numbers shared by rules_ref and the Lua: ``rules`` (a variant's merged in) plus
    the animal names."""
    data = with_variant(data, variant)
    return {**data["rules"], "animals": [animal["name"] for animal in data["animals"]]}


def card_fields(animal: Data, value: int) -> Data:
    """The fields a card layout may use."""
    return {"name": animal["name"], "value": value, "color": animal["color"], "art": animal["art"]}


def card_notes(animal: Data, value: int) -> str:
    """The GM notes a card carries: what the script reads to know the card."""
    return json.dumps({"animal": animal["name"], "value": value}, ensure_ascii=False)


# --- the table ------------------------------------------------------------------------------


def _sides(definition: GameDefinition, images: Images) -> Any:
    """The build's component sides (:class:`tts_builder.render.Sides`)."""
    from ..render import ArtFiles, Sides

    return Sides(definition.data["components"], ArtFiles(definition.root), images)


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole Arche Noah build: art, Global script and UI, save, thumbnail, preview."""
    from ..render import deck_sheets

    data = definition.data
    game_id = definition.id
    guids = GuidAllocator(game_id)
    render = _sides(definition, images)

    # Card faces, in deck order: animals in roster order, values ascending.
    cards = [(a, v) for a in data["animals"] for v in data["rules"]["card_values"]]
    faces = [card_fields(a, v) for a, v in cards]
    back_url = render.png("card-back", "card", "back")
    sheets = deck_sheets(render, "card", faces)
    deck_cards = []
    for sheet in sheets:
        plan = sheet.plan
        entry = obj.custom_deck_entry(sheet.url, back_url, plan.num_width, plan.num_height)
        for slot, index in enumerate(plan.indexes):
            animal, value = cards[index]
            deck_cards.append(
                obj.card(
                    guids.guid(f"card:{animal['name']}:{value}"),
                    obj.card_id(sheet.number, slot),
                    entry,
                    nickname=f"{animal['name']} {value}",
                    gm_notes=card_notes(animal, value),
                    tags=["AnimalCard"],
                    transform=obj.transform(
                        _xyz(data["table"]["draw_pile"], CARD_Y), (0, 180, 180)
                    ),
                )
            )
    table = data["table"]
    deck = obj.deck(
        guids.guid("deck"),
        deck_cards,
        nickname="Animal cards",
        tags=["AnimalDeck"],
        transform=obj.transform(_xyz(table["draw_pile"], CARD_Y), (0, 180, 180)),
    )

    start_url = render.png("start-player", "start_player", "face")
    start_deck_id = len(sheets) + 1
    start_card = obj.card(
        guids.guid("start-player"),
        obj.card_id(start_deck_id, 0),
        obj.custom_deck_entry(start_url, back_url, 1, 1),
        nickname="Start player",
        tags=["StartPlayer"],
        transform=obj.transform(_xyz(table["set_aside"], CARD_Y), (0, 180, 0)),
    )

    objects: list[Data] = [deck, start_card]
    bags: dict[str, str] = {}
    for offset, colour in enumerate(("purple", "green")):
        url = render.png(f"{colour}-chip", f"{colour}_chip", "face")
        tag = f"{colour.capitalize()}Chip"
        chip = obj.custom_token(
            guids.guid(f"{colour}-chip-template"),
            url,
            thickness=CHIP_THICKNESS,
            stackable=False,  # the script tracks each chip by GUID; a TTS stack would hide them
            nickname=f"{colour.capitalize()} chip",
            tags=[tag],
            transform=obj.transform((0, CHIP_Y, 0), scale=(0.35, 1.0, 0.35)),
        )
        bag_pos = (
            float(table["draw_pile"][0]) - 6.0 - 2.5 * offset,
            BAG_Y,
            float(table["draw_pile"][1]) + 6.0,
        )
        bag = obj.infinite_bag(
            guids.guid(f"{colour}-bag"),
            chip,
            nickname=f"{colour.capitalize()} chips",
            tags=[f"{tag}Bag"],
            transform=obj.transform(bag_pos),
        )
        bags[colour] = bag["GUID"]
        objects.append(bag)

    seats = []
    for index, seat in enumerate(table["seats"]):
        zone_guid = guids.guid(f"collection:{seat['color']}")
        objects.append(
            obj.scripting_trigger(
                zone_guid,
                obj.transform(
                    _xyz(seat["collection"], 1.5), (0, seat["facing"], 0), (4.0, 2.0, 5.0)
                ),
                nickname=f"{seat['color']} collection",
                tags=["AnimalCard", "Collection"],
            )
        )
        hand = hand_zone(guids, table["type"], seat["color"])
        if hand is not None:
            objects.append(hand)
        seats.append(
            {
                "index": index,
                "color": seat["color"],
                "collection": _xyz(seat["collection"], CARD_Y),
                "chips": _xyz(seat["chips"], CHIP_Y),
                "facing": float(seat["facing"]),
                "collection_zone": zone_guid,
            }
        )

    from ..geometry import reader_rot_y, seat_relative

    max_offer = data["players"]["max"] * data["rules"]["cards_per_player_in_offer"]
    start, step = table["offer"]["start"], table["offer"]["step"]
    offer = [
        [float(start[0] + i * step[0]), CARD_Y, float(start[1] + i * step[1])]
        for i in range(max_offer)
    ]
    ctx = {
        "game": {"id": game_id, "name": data["name"]},
        "config": rules_config(data),
        "players": dict(data["players"]),
        # Each seat with the rotY its cards read upright at and its seat-relative places turned
        # here, so the script does no layout arithmetic.
        "seats": [
            {
                **seat,
                "upright": reader_rot_y(seat["facing"]),
                "start_card": list(
                    seat_relative(seat["collection"], seat["facing"], *START_CARD_FROM_COLLECTION)
                ),
                "chip_towers": {
                    colour: list(seat_relative(seat["chips"], seat["facing"], *at))
                    for colour, at in CHIP_TOWERS.items()
                },
            }
            for seat in seats
        ],
        "guids": {
            "deck": deck["GUID"],
            "start_player": start_card["GUID"],
            "purple_bag": bags["purple"],
            "green_bag": bags["green"],
        },
        "positions": {
            "draw_pile": _xyz(table["draw_pile"], CARD_Y),
            "set_aside": _xyz(table["set_aside"], CARD_Y),
            "offer": offer,
            "removed": _xyz([table["set_aside"][0] + 6.0, table["set_aside"][1]], CARD_Y),
            "chip_step": CHIP_THICKNESS,
        },
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)

    save = game_save(
        data, name=data["name"], objects=objects, script=script, ui=ui, note=data["description"]
    )

    shown = [pictures.side(render, "card", "face", faces[i]) for i in (0, len(cards) // 2, -1)]
    thumbnail = pictures.thumbnail(images, data["name"], shown)
    preview_items = [("card back", "card", "back", {})]
    preview_items += [(f"{a['name']} {v}", "card", "face", card_fields(a, v)) for a, v in cards]
    preview_items += [
        ("start player", "start_player", "face", {}),
        ("purple chip", "purple_chip", "face", {}),
        ("green chip", "green_chip", "face", {}),
    ]
    items = [(label, pictures.side(render, *item)) for label, *item in preview_items]
    preview = pictures.preview(images, items, columns=10, cell_max=600)
    files = build_files(game_id, save, thumbnail, preview, script, ui)
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = script_positions(ctx)
    return build


def script_positions(ctx: Data) -> list[ScriptPosition]:
    """The table positions the script is given (its ``POS`` and ``SEATS``), with the footprint
    of what it puts there: portrait cards in the piles, the offer and the collections."""
    pos = ctx["positions"]
    found = [
        ScriptPosition("draw pile", tuple(pos["draw_pile"]), size=PORTRAIT_CARD, rot_y=180.0,
                       kind="card"),
        ScriptPosition("set aside", tuple(pos["set_aside"]), size=PORTRAIT_CARD, rot_y=180.0,
                       kind="card"),
    ]  # fmt: skip
    found += [
        ScriptPosition(f"offer {i + 1}", tuple(at), size=PORTRAIT_CARD, rot_y=180.0, kind="card")
        for i, at in enumerate(pos["offer"])
    ]
    for seat in ctx["seats"]:
        turn = reader_rot_y(seat["facing"])
        found.append(ScriptPosition(f"{seat['color']} collection", tuple(seat["collection"]),
                                    size=PORTRAIT_CARD, rot_y=turn, kind="card"))  # fmt: skip
        found.append(ScriptPosition(f"{seat['color']} chips", tuple(seat["chips"]), kind="chips"))
        found.append(ScriptPosition(f"{seat['color']} start card", tuple(seat["start_card"]),
                                    size=PORTRAIT_CARD, rot_y=turn, kind="card"))  # fmt: skip
        found += [
            ScriptPosition(f"{seat['color']} {colour} chips", tuple(at), kind="chips")
            for colour, at in seat["chip_towers"].items()
            if at != seat["chips"]
        ]
    found.append(ScriptPosition("removed", tuple(pos["removed"]), size=PORTRAIT_CARD,
                                rot_y=180.0, kind="card"))  # fmt: skip
    return found


#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble, strategies=STRATEGIES)
