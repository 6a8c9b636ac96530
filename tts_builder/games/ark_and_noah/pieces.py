"""Ark & Noah loose pieces: the supply bags, every colour's pieces, the markers and the bonus
tokens' infinite bags. The save holds the pieces of every colour; Setup keeps the seated
colours' and deals their starting pieces out of the supply bags."""

from __future__ import annotations

import json
from typing import NamedTuple

from ... import geometry as geo
from ...json_types import Data
from ...save import GuidAllocator
from ...save import objects as obj
from .art import Art
from .table import (
    BAG_Y,
    BOARD_TOP,
    DIVIDER_THICKNESS,
    PIECES,
    area_slot,
    line_of,
    marker_spot,
    piece_rot_y,
)

#: The picture of each kind of piece is square except the divider's (256 x 32).
DIVIDER_ASPECT = 8.0
DIVIDER_FILL = 0.85


class PiecesOnTable(NamedTuple):
    """The piece objects of a table and the GUIDs the script finds them by."""

    objects: list[Data]
    guids: Data


class Maker:
    """Makes pieces as Stretch Custom_Tiles at scaleY 1, each GUID keyed by the piece's name."""

    def __init__(self, guids: GuidAllocator, square: float) -> None:
        self.guids = guids
        # a divider lies along one square's edge, short of the corners, so that the dividers
        # of two edges meeting at a corner do not touch
        self.divider_length = round(float(square) * DIVIDER_FILL, 4)

    def piece(
        self,
        key: str,
        url: str,
        kind: str,
        nickname: str,
        at: list[float],
        rot_y: float = 0.0,
        extra: dict | None = None,
    ) -> Data:
        """One piece of ``kind`` (see ``PIECES``) lying at ``at`` ([x, y, z]); its GM notes
        carry ``kind`` and ``extra`` for the script."""
        tile_type, side, thickness = PIECES[kind]
        t = geo.tile_transform_for((at[0], at[2]), (side, side), 1.0, rot_y, at[1])
        return self._tile(key, url, kind, nickname, tile_type, thickness, t, extra)

    def divider(self, colour: str, k: int, url: str, at: list[float], rot_y: float = 0.0) -> Data:
        """The ``k``-th divider of ``colour``: a strip one square long, along its rotY."""
        width = self.divider_length / DIVIDER_ASPECT
        t = geo.tile_transform_for(
            (at[0], at[2]), (self.divider_length, width), DIVIDER_ASPECT, rot_y, at[1]
        )
        nickname, extra = f"{colour} divider", {"color": colour}
        return self._tile(
            f"divider:{colour}:{k}", url, "divider", nickname, 0, DIVIDER_THICKNESS, t, extra
        )

    def _tile(
        self,
        key: str,
        url: str,
        kind: str,
        nickname: str,
        tile_type: int,
        thickness: float,
        t: geo.Transform,
        extra: dict | None,
    ) -> Data:
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


def place_pieces(
    guids: GuidAllocator,
    art: Art,
    config: Data,
    seats: list[Data],
    table: Data,
    cells: tuple[list[list[float]], list[list[float]]],
    workers: int,
) -> PiecesOnTable:
    """Supplies, then every colour's pieces (``workers`` each, in its area), the round marker
    (``cells``: the score and the round track's) and an infinite bag of each bonus token (a
    token taken from it gets a fresh GUID)."""
    make = Maker(guids, float(table["square"]))
    urls = {kind: art.piece(kind, kind, {}) for kind in ("food", "pitch")}
    objects, supply_guids = _supplies(make, art, config, seats, table, urls)
    found: Data = {"workers": {}, "score": {}, "characters": {}}
    score_cells, round_cells = cells
    for seat_no, seat in enumerate(seats):
        c = seat["color"]
        mine = {"color": c}
        url = art.piece(
            f"character-{seat['character'].lower()}",
            "character",
            {"name": seat["character"], "color": seat["hex"]},
        )
        at = area_slot(seat, "character", 0)
        character = make.piece(
            f"character:{c}", url, "character", seat["character"], at, piece_rot_y(seat), mine
        )
        found["characters"][c] = character["GUID"]
        url = art.piece(f"worker-{c.lower()}", "worker", {"color": seat["hex"]})
        mans = [
            make.piece(
                f"worker:{c}:{k}",
                url,
                "worker",
                f"{c} worker",
                area_slot(seat, "workers", k),
                piece_rot_y(seat),
                mine,
            )
            for k in range(workers)
        ]
        found["workers"][c] = [w["GUID"] for w in mans]
        url = art.piece(f"score-{c.lower()}", "score", {"color": seat["hex"]})
        x, z = marker_spot(score_cells[0], seat_no)
        at = [x, BOARD_TOP, z]
        marker = make.piece(f"score:{c}", url, "score", f"{c} score", at, piece_rot_y(seat), mine)
        found["score"][c] = marker["GUID"]
        objects += [character, *mans, marker]
    url = art.piece("round-marker", "round", {})
    x, z = round_cells[0]
    rot = piece_rot_y(seats[0])  # shared pieces read upright for the first seat
    round_marker = make.piece("round", url, "round", "Round marker", [x, BOARD_TOP, z], rot)
    objects.append(round_marker)
    found["bonus"] = {}
    for v, (x, z) in enumerate(line_of(table["bonus_bags"], config["bonus_max"]), start=1):
        url = art.piece(f"bonus-{v}", "bonus", {"value": v})
        token = make.piece(
            f"bonus:{v}", url, "bonus", f"Bonus +{v}", [x, BOARD_TOP, z], rot, {"value": v}
        )
        bag = obj.infinite_bag(
            guids.guid(f"bonus-bag:{v}"),
            token,
            nickname=f"Bonus +{v} tokens",
            tags=["BonusSupply"],
            transform=obj.transform((x, BAG_Y, z)),
        )
        found["bonus"][str(v)] = bag["GUID"]
        objects.append(bag)
    found |= {"supply": supply_guids, "round": round_marker["GUID"]}
    return PiecesOnTable(objects, found)


def _supplies(
    make: Maker,
    art: Art,
    config: Data,
    seats: list[Data],
    table: Data,
    urls: dict[str, str],
) -> tuple[list[Data], dict[str, str]]:
    """The supply bags in a row (each colour's dividers, then food and pitch, if the game has
    them) and their GUIDs by colour or kind. Setup deals the starting pieces from them."""
    supply = config["supply"]
    spots = iter(line_of(table["supply"], len(seats) + 2))
    bags: list[Data] = []
    found: dict[str, str] = {}
    for seat in seats:
        c = seat["color"]
        url = art.piece(f"divider-{c.lower()}", "divider", {"color": seat["hex"]})
        x, z = next(spots)
        at = [x, geo.TABLE_TOP_Y, z]
        contained = [make.divider(c, k, url, at) for k in range(supply["dividers_per_color"])]
        bags.append(
            _supply_bag(make.guids, c, contained, f"{c} dividers", [x, z], _rgb(seat["hex"]))
        )
        found[c] = bags[-1]["GUID"]
    for kind, url in urls.items():
        if supply[kind] <= 0:
            continue
        x, z = next(spots)
        at = [x, geo.TABLE_TOP_Y, z]
        contained = [
            make.piece(f"{kind}:supply:{k}", url, kind, kind.capitalize(), at)
            for k in range(supply[kind])
        ]
        bags.append(_supply_bag(make.guids, kind, contained, f"{kind.capitalize()} supply", [x, z]))
        found[kind] = bags[-1]["GUID"]
    return bags, found


def _supply_bag(
    guids: GuidAllocator,
    name: str,
    contained: list[Data],
    nickname: str,
    xz: list[float],
    colour: tuple[float, float, float] | None = None,
) -> Data:
    """A supply bag of ``contained`` (LIFO), tinted ``colour`` if given."""
    tint = {} if colour is None else {"color": colour}
    return obj.bag(
        guids.guid(f"supply:{name}"),
        contained,
        0,
        nickname=nickname,
        tags=["Supply"],
        **tint,
        transform=obj.transform((xz[0], BAG_Y, xz[1])),
    )


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as 0..1 floats."""
    h = hex_colour.lstrip("#")
    return tuple(round(int(h[i : i + 2], 16) / 255, 4) for i in (0, 2, 4))  # type: ignore[return-value]
