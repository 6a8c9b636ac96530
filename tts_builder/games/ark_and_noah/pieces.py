"""Ark & Noah loose pieces: the supply bags, each seat's pieces, the markers, bonus templates."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ...save import GuidAllocator
from ...save import objects as obj
from .table import AREA_SPOTS, BAG_Y, PIECE_Y, area_spot, line_of, marker_spot, seat_point, xyz

#: Food and pitch pieces: scale, thickness and tile type (2 circle, 0 box).
TOKENS = {"food": (0.22, 0.15, 2), "pitch": (0.14, 0.28, 0)}
WORKER_SCALE = 0.3


class PiecesOnTable(NamedTuple):
    """The piece objects of a table, the GUIDs the script finds them by, the bonus templates."""

    objects: list[dict[str, Any]]
    guids: dict[str, Any]
    templates: dict[str, dict[str, Any]]


class Maker:
    """Makes pieces as custom tiles lying at PIECE_Y, each GUID keyed by the piece's name."""

    def __init__(self, guids: GuidAllocator, square: float) -> None:
        self.guids = guids
        self.divider_scale = square * 0.5 * 32 / 256  # 1.5 units long: height 2*scale = length/8

    def __call__(
        self,
        key: str,
        url: str,
        kind: str,
        nickname: str,
        scale: float,
        thickness: float,
        xz: list[float],
        tile_type: int = 2,
        rot_y: float = 0.0,
        extra: dict | None = None,
    ) -> dict[str, Any]:
        """One piece; its GM notes carry ``kind`` and ``extra`` for the script."""
        return obj.custom_tile(
            self.guids.guid(key),
            url,
            tile_type=tile_type,
            thickness=thickness,
            nickname=nickname,
            gm_notes=json.dumps({"kind": kind, **(extra or {})}),
            tags=[kind.capitalize()],
            transform=obj.transform(xyz(xz, PIECE_Y), (0, rot_y, 0), (scale, 1.0, scale)),
        )

    def divider(
        self, colour: str, k: int, url: str, xz: list[float], rot_y: float = 0.0
    ) -> dict[str, Any]:
        """The ``k``-th divider of ``colour``."""
        nickname = f"{colour} divider"
        extra = {"color": colour}
        key = f"divider:{colour}:{k}"
        return self(key, url, "divider", nickname, self.divider_scale, 0.25, xz, 0, rot_y, extra)

    def token(self, kind: str, key: str, url: str, xz: list[float]) -> dict[str, Any]:
        """A food or pitch piece."""
        scale, thickness, tile_type = TOKENS[kind]
        return self(key, url, kind, kind.capitalize(), scale, thickness, xz, tile_type)


def place_pieces(
    guids: GuidAllocator,
    art: Any,
    config: dict[str, Any],
    seats: list[dict[str, Any]],
    table: dict[str, Any],
    spaces: list[dict[str, Any]],
    cells: tuple[list[list[float]], list[list[float]]],
) -> PiecesOnTable:
    """Supplies, then every seat's pieces, then the round marker (``cells``: the score and the
    round track's); the bonus templates stay off the table."""
    make = Maker(guids, float(table["square"]))
    urls = {kind: art.piece(kind, kind, {}) for kind in TOKENS}
    objects, supply_guids = _supplies(make, art, config, seats, table, urls)
    starts = _worker_starts(config, seats, spaces)
    worker_guids: dict[str, list[str]] = {}
    score_guids: dict[str, str] = {}
    score_cells, round_cells = cells
    for seat_no, seat in enumerate(seats):
        c = seat["color"]
        mine = {"color": c}
        objects += _seat_pieces(make, art, config["setup"], seat, urls)
        url = art.piece(f"worker-{c.lower()}", "worker", {"color": seat["hex"]})
        workers = [
            make(f"worker:{c}:{k}", url, "worker", f"{c} worker", WORKER_SCALE, 0.3, xz, extra=mine)
            for k, xz in enumerate(starts[seat_no])
        ]
        worker_guids[c] = [w["GUID"] for w in workers]
        objects += workers
        url = art.piece(f"score-{c.lower()}", "score", {"color": seat["hex"]})
        xz = marker_spot(score_cells[0], seat_no)
        marker = make(f"score:{c}", url, "score", f"{c} score", 0.16, 0.2, xz, extra=mine)
        score_guids[c] = marker["GUID"]
        objects.append(marker)
    url = art.piece("round-marker", "round", {})
    round_marker = make("round", url, "round", "Round marker", 0.25, 0.3, round_cells[0])
    objects.append(round_marker)
    templates = {
        str(v): make(
            f"bonus-template:{v}",
            art.piece(f"bonus-{v}", "bonus", {"value": v}),
            "bonus",
            f"Bonus +{v}",
            0.28,
            0.1,
            [0.0, 0.0],
            extra={"value": v},
        )
        for v in range(1, config["bonus_max"] + 1)
    }
    found = {
        "supply": supply_guids,
        "workers": worker_guids,
        "score": score_guids,
        "round": round_marker["GUID"],
    }
    return PiecesOnTable(objects, found, templates)


def _supplies(
    make: Maker,
    art: Any,
    config: dict[str, Any],
    seats: list[dict[str, Any]],
    table: dict[str, Any],
    urls: dict[str, str],
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The supply bags in a row (each colour's spare dividers, then food and pitch, if any) and
    their GUIDs by colour or kind."""
    setup, supply = config["setup"], config["supply"]
    spots = iter(line_of(table["supply"], 12))
    bags: list[dict[str, Any]] = []
    found: dict[str, str] = {}
    for seat in seats:
        c = seat["color"]
        url = art.piece(f"divider-{c.lower()}", "divider", {"color": seat["hex"]})
        xz = next(spots)
        spare = range(setup["dividers"], supply["dividers_per_color"])
        contained = [make.divider(c, k, url, xz) for k in spare]
        bags.append(_supply_bag(make.guids, c, contained, f"{c} dividers", xz, _rgb(seat["hex"])))
        found[c] = bags[-1]["GUID"]
    for kind, url in urls.items():
        if supply[kind] <= 0:
            continue
        xz = next(spots)
        stock = range(supply[kind] - len(seats) * setup[kind])
        contained = [make.token(kind, f"{kind}:supply:{k}", url, xz) for k in stock]
        bags.append(_supply_bag(make.guids, kind, contained, f"{kind.capitalize()} supply", xz))
        found[kind] = bags[-1]["GUID"]
    return bags, found


def _supply_bag(
    guids: GuidAllocator,
    name: str,
    contained: list[dict[str, Any]],
    nickname: str,
    xz: list[float],
    colour: tuple[float, float, float] | None = None,
) -> dict[str, Any]:
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


def _seat_pieces(
    make: Maker, art: Any, setup: dict[str, Any], seat: dict[str, Any], urls: dict[str, str]
) -> list[dict[str, Any]]:
    """A seat's character and its starting dividers, food and pitch, in its area."""
    c = seat["color"]
    url = art.piece(
        f"character-{seat['character'].lower()}",
        "character",
        {"name": seat["character"], "color": seat["hex"]},
    )
    xz = seat_point(seat, *AREA_SPOTS["character"][0])
    rot_y = seat["facing"] + 180
    name = seat["character"]
    out = [make(f"character:{c}", url, "character", name, 0.7, 0.1, xz, 2, rot_y, {"color": c})]
    url = art.piece(f"divider-{c.lower()}", "divider", {"color": seat["hex"]})
    rot_y = seat["facing"] + 90
    out += [
        make.divider(c, k, url, area_spot(seat, "dividers", k), rot_y)
        for k in range(setup["dividers"])
    ]
    for kind, url in urls.items():
        out += [
            make.token(kind, f"{kind}:{c}:{k}", url, area_spot(seat, kind, k))
            for k in range(setup[kind])
        ]
    return out


def _worker_starts(
    config: dict[str, Any], seats: list[dict[str, Any]], spaces: list[dict[str, Any]]
) -> list[list[list[float]]]:
    """Where each seat's workers start: on its first-round action spaces (the ``completed``
    spots), or down the side of its area in the family game."""
    from rules_ref.ark_and_noah import for_players

    n = len(seats)
    workers = for_players(config["workers"], n)["count"]
    if config["turn_mode"] != "worker":
        return [[seat_point(seat, 4.4, 1.6 - 0.8 * k) for k in range(workers)] for seat in seats]
    ids = [a["id"] for a in config["actions"]]
    starts = for_players(config["first_round_spaces"], n)["seats"]
    return [
        [spaces[ids.index(starts[s][k])]["completed"] for k in range(workers)] for s in range(n)
    ]


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as 0..1 floats."""
    h = hex_colour.lstrip("#")
    return tuple(round(int(h[i : i + 2], 16) / 255, 4) for i in (0, 2, 4))  # type: ignore[return-value]
