"""Ark & Noah animal tiles on the table: every tile, double-sided (unpaired side up, paired side
below), sized to an Ark square, in its sex's bag. Setup deals the starting animals and puts away
the species a smaller player count leaves out."""

from __future__ import annotations

import json

from ... import geometry as geo
from ...json_types import Data
from ...save import GuidAllocator
from ...save import objects as obj
from .table import ANIMAL_FILL, ANIMAL_THICKNESS, BAG_Y

_BAG_TINTS = {"male": (0.12, 0.12, 0.12), "female": (0.95, 0.95, 0.95)}
_INFO = ("species", "sex", "name", "size", "vp", "tile")


def bag(
    guids: GuidAllocator,
    key: str,
    contained: list[Data],
    order: int,
    nickname: str,
    tag: str,
    xz: list[float],
    tint: tuple[float, ...] | None = None,
) -> Data:
    """A bag of ``contained`` (order 0 LIFO, 2 random) dropped at ``xz``, tinted if given."""
    colour = {} if tint is None else {"color": tint}
    return obj.bag(
        guids.guid(key),
        contained,
        order,
        nickname=nickname,
        tags=[tag],
        **colour,
        transform=obj.transform((xz[0], BAG_Y, xz[1])),
    )


def animal_side(square: float) -> float:
    """The side of an animal tile on the table: a little less than an Ark square."""
    return round(float(square) * ANIMAL_FILL, 4)


def place_animals(
    guids: GuidAllocator,
    tiles: list[Data],
    images: dict[int, tuple[str, str]],
    table: Data,
    aspect: float,
) -> tuple[list[Data], Data]:
    """The two bags holding every tile (``images``: tile id -> (face, back) URLs), and what the
    script knows of them: ``bags`` (sex -> GUID), ``tiles`` (GUID -> fields), ``tile_guids``."""
    side = animal_side(table["square"])
    scale = geo.tile_transform_for((0.0, 0.0), (side, side), aspect, 0.0).scale
    tile_info: dict[str, Data] = {}
    bagged: dict[str, list[Data]] = {"male": [], "female": []}
    for t in tiles:
        guid = guids.guid(f"tile:{t['tile']}")
        tile_info[guid] = {k: t[k] for k in _INFO}
        bagged[t["sex"]].append(
            obj.custom_tile(
                guid,
                *images[t["tile"]],
                thickness=ANIMAL_THICKNESS,
                nickname=t["name"],
                description=f"{t['sex']}, size {t['size']}, {t['vp']} VP",
                gm_notes=json.dumps({"kind": "animal", **tile_info[guid]}),
                tags=["Animal"],
                transform=obj.transform((0.0, geo.TABLE_TOP_Y, 0.0), (0.0, 0.0, 0.0), scale),
            )
        )
    bags = [
        bag(
            guids,
            f"bag:{sex}",
            bagged[sex],
            2,
            f"{sex.capitalize()} animals",
            "AnimalBag",
            table["bags"][sex],
            tint,
        )
        for sex, tint in _BAG_TINTS.items()
    ]
    by_tile = sorted(tile_info, key=lambda guid: tile_info[guid]["tile"])
    return bags, {
        "bags": {sex: b["GUID"] for sex, b in zip(_BAG_TINTS, bags, strict=True)},
        "tiles": tile_info,
        "tile_guids": by_tile,
    }
