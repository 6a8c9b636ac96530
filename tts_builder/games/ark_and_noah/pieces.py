"""Ark & Noah loose pieces, as Stretch Custom_Tiles at scaleY 1: the supply bags (each colour's
dividers, then food and pitch), every colour's character, workers and scoring marker, the round
marker and an infinite bag of each bonus token. The save holds the pieces of every colour; Setup
keeps the seated colours' and deals their starting pieces out of the supply bags."""

from __future__ import annotations

import json

from ... import geometry as geo
from ...json_types import Data
from ...render import Sides
from ...save import GuidAllocator
from ...save import objects as obj
from .table import BAG_Y, BOARD_TOP, DIVIDER_THICKNESS, PIECES, area_slot, line_of, marker_spot
from .table import piece_rot_y as upright

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
    """Makes the pieces, each GUID keyed by the piece's name and its GM notes carrying its
    ``kind`` (and its colour or value) for the script."""

    def __init__(self, guids: GuidAllocator, square: float) -> None:
        self.guids = guids
        self.divider_length = round(float(square) * DIVIDER_FILL, 4)

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
        """One piece of ``kind`` (see ``PIECES``) lying at ``at`` ([x, y, z])."""
        tile_type, side, thickness = PIECES[kind]
        t = geo.tile_transform_for((at[0], at[2]), (side, side), 1.0, rot_y, at[1])
        return self.tile(key, url, kind, nickname, (tile_type, thickness), t, extra)

    def divider(self, colour: str, k: int, url: str, at: list[float]) -> Data:
        """The ``k``-th divider of ``colour``: a strip one square long."""
        size = (self.divider_length, self.divider_length / DIVIDER_ASPECT)
        t = geo.tile_transform_for((at[0], at[2]), size, DIVIDER_ASPECT, 0.0, at[1])
        return self.tile(
            f"divider:{colour}:{k}",
            url,
            "divider",
            f"{colour} divider",
            (0, DIVIDER_THICKNESS),
            t,
            {"color": colour},
        )

    def tile(
        self,
        key: str,
        url: str,
        kind: str,
        nickname: str,
        shape: tuple[int, float],
        t: geo.Transform,
        extra: Data | None,
    ) -> Data:
        return obj.custom_tile(
            self.guids.guid(key),
            url,
            tile_type=shape[0],
            thickness=shape[1],
            nickname=nickname,
            gm_notes=json.dumps({"kind": kind, **(extra or {})}),
            tags=[kind.capitalize()],
            transform=t.as_save(),
        )


def place_pieces(
    guids: GuidAllocator,
    sides: Sides,
    config: Data,
    seats: list[Data],
    table: Data,
    cells: tuple[list[list[float]], list[list[float]]],
    workers: int,
) -> tuple[list[Data], Data]:
    """The objects and the GUIDs the script finds them by: supplies, then every colour's pieces
    (``workers`` each, in its area; its marker on the score track's first cell, ``cells``: the
    score and the round track's), the round marker and the bonus tokens' infinite bags (a
    token taken from one gets a fresh GUID)."""
    make = Maker(guids, float(table["square"]))
    urls = {kind: sides.png(kind, kind, "face", {}) for kind in ("food", "pitch")}
    objects, supply = _supplies(make, sides, config, seats, table, urls)
    found: Data = {"workers": {}, "score": {}, "characters": {}}
    for seat_no, seat in enumerate(seats):
        c, rot, mine, hexes = seat["color"], upright(seat), {"color": seat["color"]}, seat["hex"]
        url = sides.png(
            f"character-{seat['character'].lower()}",
            "character",
            "face",
            {"name": seat["character"], "color": hexes},
        )
        character = make.piece(
            f"character:{c}",
            url,
            "character",
            seat["character"],
            area_slot(seat, "character", 0),
            rot,
            mine,
        )
        url = sides.png(f"worker-{c.lower()}", "worker", "face", {"color": hexes})
        mans = [
            make.piece(
                f"worker:{c}:{k}",
                url,
                "worker",
                f"{c} worker",
                area_slot(seat, "workers", k),
                rot,
                mine,
            )
            for k in range(workers)
        ]
        url = sides.png(f"score-{c.lower()}", "score", "face", {"color": hexes})
        x, z = marker_spot(cells[0][0], seat_no)
        marker = make.piece(f"score:{c}", url, "score", f"{c} score", [x, BOARD_TOP, z], rot, mine)
        found["characters"][c] = character["GUID"]
        found["workers"][c] = [w["GUID"] for w in mans]
        found["score"][c] = marker["GUID"]
        objects += [character, *mans, marker]
    url = sides.png("round-marker", "round", "face", {})
    x, z = cells[1][0]
    rot = upright(seats[0])  # shared pieces read upright for the first seat
    round_marker = make.piece("round", url, "round", "Round marker", [x, BOARD_TOP, z], rot)
    objects.append(round_marker)
    found["bonus"] = {}
    for v, (x, z) in enumerate(line_of(table["bonus_bags"], config["bonus_max"]), start=1):
        url = sides.png(f"bonus-{v}", "bonus", "face", {"value": v})
        token = make.piece(
            f"bonus:{v}", url, "bonus", f"Bonus +{v}", [x, BOARD_TOP, z], rot, {"value": v}
        )
        infinite = obj.infinite_bag(
            guids.guid(f"bonus-bag:{v}"),
            token,
            nickname=f"Bonus +{v} tokens",
            tags=["BonusSupply"],
            transform=obj.transform((x, BAG_Y, z)),
        )
        found["bonus"][str(v)] = infinite["GUID"]
        objects.append(infinite)
    return objects, found | {"supply": supply, "round": round_marker["GUID"]}


def _supplies(
    make: Maker, sides: Sides, config: Data, seats: list[Data], table: Data, urls: dict[str, str]
) -> tuple[list[Data], dict[str, str]]:
    """The supply bags in a row (each colour's dividers, then food and pitch, if the game has
    them) and their GUIDs by colour or kind. Setup deals the starting pieces from them."""
    supply = config["supply"]
    spots = iter(line_of(table["supply"], len(seats) + 2))
    bags: list[Data] = []
    for seat in seats:
        c, (x, z), h = seat["color"], next(spots), seat["hex"].lstrip("#")
        url = sides.png(f"divider-{c.lower()}", "divider", "face", {"color": seat["hex"]})
        at = [x, geo.TABLE_TOP_Y, z]
        contained = [make.divider(c, k, url, at) for k in range(supply["dividers_per_color"])]
        tint = tuple(round(int(h[i : i + 2], 16) / 255, 4) for i in (0, 2, 4))
        bags.append(
            bag(make.guids, f"supply:{c}", contained, 0, f"{c} dividers", "Supply", [x, z], tint)
        )
    for kind, url in urls.items():
        if supply[kind] > 0:
            x, z = next(spots)
            at = [x, geo.TABLE_TOP_Y, z]
            contained = [
                make.piece(f"{kind}:supply:{k}", url, kind, kind.capitalize(), at)
                for k in range(supply[kind])
            ]
            bags.append(
                bag(
                    make.guids,
                    f"supply:{kind}",
                    contained,
                    0,
                    f"{kind.capitalize()} supply",
                    "Supply",
                    [x, z],
                )
            )
    names = [s["color"] for s in seats] + [k for k in urls if supply[k] > 0]
    return bags, {name: b["GUID"] for name, b in zip(names, bags, strict=True)}
