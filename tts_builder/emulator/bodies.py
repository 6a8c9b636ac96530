"""The solid body of a table object for the strict emulated table, from the geometry model.

The strict table needs an object's footprint and height to decide whether a card came to rest
on a card (and joins it) and whether two resting objects interpenetrate. Every size comes from
:mod:`tts_builder.geometry`; this module only adapts it to what the Lua side asks: the body of
one object at scale 1 (the Lua side applies the scale and a deck's or stack's count).

Where the model does not establish a footprint (Custom_Token, boards, bags) but knows a height,
the body has no footprint: such objects only count as touching when they stand at the same spot
(``SAME_SPOT``), which interpenetrates whatever their real size.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .. import geometry

#: Centres closer than this on the table (x and z) are "at the same spot" [emulator choice].
SAME_SPOT = 0.1
_UNIT = {"posX": 0.0, "posY": 0.0, "posZ": 0.0, "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0,
         "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}  # fmt: skip


@dataclass(frozen=True)
class Body:
    """An object's box at scale 1: local x and z extents (None: not established), height per
    card or piece; origin at the bottom face unless ``centred`` (dice)."""

    width: float | None
    depth: float | None
    height: float
    centred: bool = False


def _image_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except OSError:
        return None


def image_sizes(files: Mapping[str, bytes]) -> dict[str, tuple[int, int]]:
    """Pixel sizes of the images among a build's files, by file name (``images/board.png``)."""
    sizes = {}
    for name, data in files.items():
        if name.lower().endswith((".png", ".jpg", ".jpeg")):
            size = _image_size(data)
            if size is not None:
                sizes[name] = size
    return sizes


def _aspect(url: str, sizes: Mapping[str, tuple[int, int]]) -> float | None:
    """W/H of the image at ``url`` if it is one of ``sizes`` (matched by its trailing path)."""
    for name, size in sizes.items():
        if url == name or url.endswith("/" + name):
            return geometry.image_aspect(size)
    return None


def body_of(
    name: str, custom_image: Mapping[str, Any] | None, sizes: Mapping[str, tuple[int, int]]
) -> Body | None:
    """The body of an object with save ``Name`` and ``CustomImage``, or None (no height known)."""
    obj: dict[str, Any] = {"Name": name, "GUID": "body", "Transform": dict(_UNIT)}
    if custom_image:
        obj["CustomImage"] = dict(custom_image)
    aspect = _aspect(str((custom_image or {}).get("ImageURL") or ""), sizes)
    size = geometry.base_size(obj, aspect if name in geometry.TILE_NAMES else None)
    dice = name in geometry.D6_NAMES or name == "Custom_Dice"
    height = geometry.height(obj)
    if height is None and dice and size is not None:
        height = size[0]
    if height is None:
        return None
    width, depth = size if size is not None else (None, None)
    return Body(width, depth, height, centred=dice)
