"""Ark & Noah animal tiles on the table: the starting deal in the seats' areas, the rest in the
male and female bags."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ...save import GuidAllocator
from ...save import objects as obj
from .table import AREA_SPOTS, BAG_Y, PIECE_Y, seat_point, xyz
from .tiles import starting_deal

_BAG_TINTS = {"male": (0.12, 0.12, 0.12), "female": (0.95, 0.95, 0.95)}


class AnimalsOnTable(NamedTuple):
    """The dealt tiles and the two bags, each tile's fields by GUID, the bags' GUIDs by sex."""

    objects: list[dict[str, Any]]
    tiles: dict[str, dict[str, Any]]
    bags: dict[str, str]


def place_animals(
    guids: GuidAllocator,
    config: dict[str, Any],
    tiles: list[dict[str, Any]],
    seats: list[dict[str, Any]],
    bags_at: dict[str, list[float]],
    sheets: tuple[str, str, Any],
    seed: str,
) -> AnimalsOnTable:
    """The tiles in play at this player count (``sheets``: face URL, back URL, sheet plan), dealt
    by ``seed``: the starting hands face up in the areas, every other tile in its sex's bag."""
    n = len(seats)
    face_url, back_url, plan = sheets
    entry = obj.custom_deck_entry(
        face_url, back_url, plan.num_width, plan.num_height, unique_back=True
    )
    in_game = [
        t for t in tiles if t["min_players"] <= n and (config["small_animals"] or t["size"] > 0)
    ]
    setup = config["setup"]
    deal = starting_deal([t["tile"] for t in in_game], n, setup["males"], setup["females"], seed)
    dealt = {tile: seat for seat, hand in enumerate(deal) for tile in hand}
    objects: list[dict[str, Any]] = []
    tile_info: dict[str, dict[str, Any]] = {}
    bagged: dict[str, list[dict[str, Any]]] = {"male": [], "female": []}
    for t in in_game:
        guid = guids.guid(f"tile:{t['tile']}")
        info = {k: t[k] for k in ("species", "sex", "name", "size", "vp", "tile")}
        tile_info[guid] = info
        seat = dealt.get(t["tile"])
        if seat is not None:
            slot = deal[seat].index(t["tile"])
            (r0, f0), (dr, df) = AREA_SPOTS["animals"]
            xz = seat_point(seats[seat], r0 + dr * slot, f0 + df * slot)
            transform = obj.transform(xyz(xz, PIECE_Y), (0, seats[seat]["facing"] + 180, 0))
        else:
            transform = obj.transform((0, PIECE_Y, 0), (0, 180, 0))
        card = obj.card(
            guid,
            obj.card_id(1, t["tile"]),
            entry,
            nickname=t["name"],
            description=f"{t['sex']}, size {t['size']}, {t['vp']} VP",
            gm_notes=json.dumps({"kind": "animal", **info}),
            tags=["Animal"],
            transform=transform,
        )
        (objects if seat is not None else bagged[t["sex"]]).append(card)
    bag_guids = {}
    for sex, tint in _BAG_TINTS.items():
        x, z = bags_at[sex]
        bag = obj.bag(
            guids.guid(f"bag:{sex}"),
            bagged[sex],
            2,
            nickname=f"{sex.capitalize()} animals",
            tags=["AnimalBag"],
            color=tint,
            transform=obj.transform((x, BAG_Y, z)),
        )
        bag_guids[sex] = bag["GUID"]
        objects.append(bag)
    return AnimalsOnTable(objects, tile_info, bag_guids)
