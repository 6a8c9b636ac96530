"""The cards: the deck of animal cards and a movement-cost card per seat."""

from __future__ import annotations

import json

from ...geometry import TABLE_TOP_Y, reader_rot_y, tile_transform_for
from ...render import deck_sheets
from ...save import objects as obj
from .art import animal_fields
from .scene import Scene
from .table import CARD_Y, xyz


def _add_deck(scene: Scene, back_url: str) -> str:
    """The face-down deck of animal cards (each species ``pieces_per_species`` times)."""
    data, animals = scene.data, scene.data["animals"]
    # At most 20 species (the schema): one sheet.
    (sheet,) = deck_sheets(scene.art.sides, "card", [animal_fields(a) for a in animals])
    plan = sheet.plan
    entry = obj.custom_deck_entry(sheet.url, back_url, plan.num_width, plan.num_height)
    face_down = obj.transform(xyz(data["table"]["deck"], CARD_Y), (0, 180, 180))
    cards = [
        obj.card(
            scene.guids.guid(f"card:{a['name']}:{j}"), obj.card_id(1, k), entry,
            nickname=a["name"], gm_notes=json.dumps({"animal": a["name"]}),
            tags=["AnimalCard"], transform=face_down,
        )
        for k, a in enumerate(animals)
        for j in range(data["rules"]["pieces_per_species"])
    ]
    deck = obj.deck(
        scene.guids.guid("deck"), cards, nickname="Animal cards", tags=["AnimalDeck"],
        transform=face_down,
    )
    return scene.add(deck)["GUID"]


#: Table units across the movement-cost card (its picture's long side).
COST_CARD_WIDTH = 4.5


def _add_cost_cards(scene: Scene) -> list[str]:
    """A movement-cost card in front of every seat, turned to read upright for it: a Stretch
    Custom_Tile, since landscape card sizes are not established (geometry.card_size)."""
    data, art = scene.data, scene.art
    components = data["components"]
    cost_url = scene.images.png("cost-card", art.cost_card_spec(), art.draw_cost_card)
    w, h = components["cost_card"]["size"]
    size = (COST_CARD_WIDTH, COST_CARD_WIDTH * h / w)
    found = []
    for seat in data["table"]["seats"]:
        guid = scene.guids.guid(f"cost-card:{seat['color']}")
        found.append(guid)
        at = tile_transform_for(
            seat["cost_card"], size, w / h, reader_rot_y(seat["facing"]), y=TABLE_TOP_Y
        )
        scene.add(
            obj.custom_tile(
                guid, cost_url, thickness=0.05, nickname=f"{seat['color']} movement costs",
                tags=["CostCard"], transform=at.as_save(),
            )
        )
    return found


def add_cards(scene: Scene) -> tuple[str, list[str]]:
    """The deck and the cost cards, sharing one card back; (deck GUID, cost card GUIDs)."""
    back_url = scene.art.sides.png("card-back", "card", "back")
    return _add_deck(scene, back_url), _add_cost_cards(scene)
