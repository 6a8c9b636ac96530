"""Ark & Noah animal tiles on the table: every tile, double-sided (unpaired side up, paired side
below), sized to an Ark square, in its sex's bag. Setup deals the starting animals and puts away
the species a smaller player count leaves out."""

from __future__ import annotations

import json
from typing import NamedTuple

from ... import geometry as geo
from ...json_types import Data
from ...save import GuidAllocator
from ...save import objects as obj
from .table import ANIMAL_FILL, ANIMAL_THICKNESS, BAG_Y

_BAG_TINTS = {"male": (0.12, 0.12, 0.12), "female": (0.95, 0.95, 0.95)}


class AnimalsOnTable(NamedTuple):
    """The two bags, each tile's fields by GUID, the bags' GUIDs by sex, tile id -> GUID."""

    objects: list[Data]
    tiles: dict[str, Data]
    bags: dict[str, str]
    by_tile: dict[int, str]


def animal_side(square: float) -> float:
    """The side of an animal tile on the table: a little less than an Ark square."""
    return round(float(square) * ANIMAL_FILL, 4)


def animal_tile(guid: str, t: Data, urls: tuple[str, str], side: float, aspect: float) -> Data:
    """One double-sided animal tile (unpaired side up), ``side`` units wide."""
    info = {k: t[k] for k in ("species", "sex", "name", "size", "vp", "tile")}
    scale = geo.tile_transform_for((0.0, 0.0), (side, side), aspect, 0.0).scale
    return obj.custom_tile(
        guid,
        *urls,
        thickness=ANIMAL_THICKNESS,
        nickname=t["name"],
        description=f"{t['sex']}, size {t['size']}, {t['vp']} VP",
        gm_notes=json.dumps({"kind": "animal", **info}),
        tags=["Animal"],
        transform=obj.transform((0.0, geo.TABLE_TOP_Y, 0.0), (0.0, 0.0, 0.0), scale),
    )


def place_animals(
    guids: GuidAllocator,
    tiles: list[Data],
    images: dict[int, tuple[str, str]],
    bags_at: dict[str, list[float]],
    square: float,
    aspect: float,
) -> AnimalsOnTable:
    """Every tile of the game in its sex's bag (``images``: tile id -> (face, back) URLs)."""
    side = animal_side(square)
    tile_info: dict[str, Data] = {}
    by_tile: dict[int, str] = {}
    bagged: dict[str, list[Data]] = {"male": [], "female": []}
    for t in tiles:
        guid = guids.guid(f"tile:{t['tile']}")
        tile_info[guid] = {k: t[k] for k in ("species", "sex", "name", "size", "vp", "tile")}
        by_tile[t["tile"]] = guid
        bagged[t["sex"]].append(animal_tile(guid, t, images[t["tile"]], side, aspect))
    objects, bag_guids = [], {}
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
    return AnimalsOnTable(objects, tile_info, bag_guids, by_tile)
