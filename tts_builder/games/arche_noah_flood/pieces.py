"""The board and what stands on it: pieces, flood marker and tile bag, Ark zone, hand zones."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ...gamekit.table import hand_zones
from ...geometry import reader_rot_y, tile_transform_for
from ...json_types import Data
from ...render.hexmap import BoardGeometry, flood_tile_scale, hex_table
from ...save import objects as obj
from .art import animal_fields, board_spec
from .scene import Scene
from .table import xyz

BAG_Y = 1.6
PIECE_SCALE = 0.55
MARKER_SCALE = 0.45


def _face_up(at: Sequence[float], scale: float) -> Data:
    """A transform for a token turned to face the table's south side, scaled flat."""
    return obj.transform(at, (0, 180, 0), (scale, 1.0, scale))


def add_board(scene: Scene, geo: BoardGeometry) -> Data:
    """The locked board tile on the table top, centred and sized from the board geometry,
    upright for the White side (rotY 180 = White's hand rotY 0 + 180)."""
    data = scene.data
    url = scene.images.png("board", board_spec(data), scene.art.draw_board)
    at = tile_transform_for(
        geo.centre, (geo.side, geo.side), 1.0, reader_rot_y(0.0), y=geo.top_y - geo.thickness
    )
    return scene.add(
        obj.custom_tile(
            scene.guids.guid("board"), url, tile_type=0, thickness=geo.thickness, locked=True,
            nickname=data["name"], tags=["Board"], transform=at.as_save(),
        )
    )


def add_pieces(scene: Scene, geo: BoardGeometry, pos: Data) -> list[str]:
    """The pieces of every species, on the first start hexes until Setup places them."""
    data = scene.data
    per = data["rules"]["pieces_per_species"]
    starts = data["map"]["starts"]
    found = []
    for k, animal in enumerate(data["animals"]):
        fields = animal_fields(animal)
        url = scene.art.sides.png(f"piece-{k + 1}", "piece", "face", fields)
        for j in range(per):
            index = k * per + j
            x, z = hex_table(geo, *starts[index])
            guid = scene.guids.guid(f"piece:{animal['name']}:{j}")
            found.append(guid)
            scene.add(
                obj.custom_token(
                    guid, url, thickness=0.15, stand_up=True, nickname=f"{animal['name']} {j + 1}",
                    gm_notes=json.dumps({"animal": animal["name"], "piece": index}),
                    tags=["Animal"],
                    transform=_face_up((x, pos["piece_y"], z), PIECE_SCALE),
                )
            )
    return found


def add_flood(scene: Scene, geo: BoardGeometry, pos: Data) -> tuple[Data, Data]:
    """The flood marker on the track's first mark, and the bag of flood tiles; both."""
    marker_url = scene.art.sides.png("flood-marker", "flood_marker", "face")
    mx, mz = pos["markers"][0]
    marker = scene.add(
        obj.custom_token(
            scene.guids.guid("flood-marker"), marker_url, thickness=0.15, stand_up=True,
            nickname="Flood marker", tags=["FloodMarker"],
            transform=_face_up((mx, pos["marker_y"], mz), MARKER_SCALE),
        )
    )
    tile_url = scene.images.png(
        "flood-tile", scene.art.flood_tile_spec(), scene.art.draw_flood_tile
    )
    bag_at = xyz(scene.data["table"]["flood_bag"], BAG_Y)
    tile = obj.custom_token(
        scene.guids.guid("flood-tile-template"), tile_url, thickness=0.08, nickname="Flood",
        tags=["FloodTile"], transform=_face_up(bag_at, flood_tile_scale(geo)),
    )
    bag = scene.add(
        obj.infinite_bag(
            scene.guids.guid("flood-bag"), tile, nickname="Flood tiles", tags=["FloodBag"],
            transform=obj.transform(bag_at),
        )
    )
    return marker, bag


def add_ark_zone(scene: Scene, pos: Data) -> Data:
    """The scripting zone over the Ark."""
    zx, zy, zz, zw, zh, zd = pos["ark_zone"]
    return scene.add(
        obj.scripting_trigger(
            scene.guids.guid("ark-zone"), obj.transform((zx, zy, zz), (0, 0, 0), (zw, zh, zd)),
            nickname="The Ark", tags=["Animal"],
        )
    )


def add_hand_zones(scene: Scene) -> None:
    """Hand zones (the dealt card is secret) for the seats of tables that place them."""
    table = scene.data["table"]
    colours = [seat["color"] for seat in table["seats"]]
    scene.objects.extend(hand_zones(scene.guids, table["type"], colours))
