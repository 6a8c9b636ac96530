"""Ark & Noah supply bags, their pieces as Stretch Custom_Tiles at scaleY 1: each colour's
dividers, then food and pitch (every colour's character, workers and scoring marker, the round
marker and the bonus tokens' infinite bags are the table manifest's). The save holds the pieces
of every colour; Setup keeps the seated colours' and deals their starting pieces out of the
supply bags."""

from __future__ import annotations

import json

from ... import geometry as geo
from ...json_types import Data
from ...render import Sides
from ...save import GuidAllocator
from ...save import objects as obj
from .table import BAG_Y, DIVIDER_THICKNESS, PIECES, line_of

#: A divider's picture is 8:1; it lies along one square's edge, short of the corners, so that
#: the dividers of two edges meeting at a corner do not touch.
DIVIDER_ASPECT, DIVIDER_FILL = 8.0, 0.85


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


class Maker:
    """Makes the pieces, each GUID keyed by ``key``, tagged with its kind, its GM notes
    carrying its ``kind`` (and its colour or value) for the script."""

    def __init__(self, guids: GuidAllocator, sides: Sides, square: float) -> None:
        self.guids, self.sides = guids, sides
        self.divider_length = round(float(square) * DIVIDER_FILL, 4)

    def url(self, name: str, kind: str, fields: Data | None = None) -> str:
        """The picture of a kind of piece drawn with ``fields`` (``images/<name>.png``)."""
        return self.sides.png(name, kind, "face", fields or {})

    def piece(
        self,
        key: str,
        url: str,
        kind: str,
        nickname: str,
        at: list[float],
        rot_y: float = 0.0,
        extra: Data | None = None,
    ) -> Data:
        """One piece of ``kind`` lying at ``at`` ([x, y, z]): a ``PIECES`` footprint, or a
        divider (a strip one square long, along its rotY)."""
        if kind == "divider":
            size, aspect = (
                (self.divider_length, self.divider_length / DIVIDER_ASPECT),
                DIVIDER_ASPECT,
            )
            tile_type, thickness = 0, DIVIDER_THICKNESS
        else:
            tile_type, side, thickness = PIECES[kind]
            size, aspect = (side, side), 1.0
        t = geo.tile_transform_for((at[0], at[2]), size, aspect, rot_y, at[1])
        return obj.custom_tile(
            self.guids.guid(key),
            url,
            tile_type=tile_type,
            thickness=thickness,
            nickname=nickname,
            gm_notes=json.dumps({"kind": kind, **(extra or {})}),
            tags=[kind.capitalize()],
            transform=t.as_save(),
        )


def place_supplies(
    guids: GuidAllocator, sides: Sides, config: Data, seats: list[Data], table: Data
) -> tuple[list[Data], dict[str, str]]:
    """The supply bags in a row (each colour's dividers, then food and pitch, if the game has
    them) and their GUIDs by colour or kind. Setup deals the starting pieces from them."""
    return _supplies(Maker(guids, sides, table["square"]), config, seats, table)


def _supplies(
    make: Maker, config: Data, seats: list[Data], table: Data
) -> tuple[list[Data], dict[str, str]]:
    """:func:`place_supplies` with the pieces' maker."""
    supply, spots = config["supply"], iter(line_of(table["supply"], len(seats) + 2))
    bags: list[Data] = []
    urls = {kind: make.url(kind, kind) for kind in ("food", "pitch")}  # drawn in every game
    for seat in seats:
        c, (x, z), h = seat["color"], next(spots), seat["hex"].lstrip("#")
        url = make.url(f"divider-{c.lower()}", "divider", {"color": seat["hex"]})
        at = [x, geo.TABLE_TOP_Y, z]
        contained = [
            make.piece(f"divider:{c}:{k}", url, "divider", f"{c} divider", at, extra={"color": c})
            for k in range(supply["dividers_per_color"])
        ]
        tint = tuple(round(int(h[i : i + 2], 16) / 255, 4) for i in (0, 2, 4))
        bags.append(
            bag(make.guids, f"supply:{c}", contained, 0, f"{c} dividers", "Supply", [x, z], tint)
        )
    for kind in (k for k in urls if supply[k] > 0):
        (x, z), name = next(spots), kind.capitalize()
        at = [x, geo.TABLE_TOP_Y, z]
        contained = [
            make.piece(f"{kind}:supply:{k}", urls[kind], kind, name, at)
            for k in range(supply[kind])
        ]
        bags.append(
            bag(make.guids, f"supply:{kind}", contained, 0, f"{name} supply", "Supply", [x, z])
        )
    names = [s["color"] for s in seats] + [k for k in urls if supply[k] > 0]
    return bags, {name: b["GUID"] for name, b in zip(names, bags, strict=True)}
