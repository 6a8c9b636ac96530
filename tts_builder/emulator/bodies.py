"""The solid body of a table object for the strict emulated table: its footprint and height.

The emulator needs object sizes to decide whether a card came to rest on a card (and joins it)
and whether two resting objects interpenetrate. Every size lives here, in this one module, until
the project's geometry model (``tts_builder/geometry.py``, branch ``geometry``) is merged; then
these functions delegate to it. Facts and their sources (``shared/tts/GEOMETRY.md``):

- Custom_Tile with Stretch: ``2·(W/H) × 2`` at scale 1, then scaled; Thickness·scaleY high,
  origin at the bottom face (§2, [inf]).
- Custom_Token: size not established; taken as the tile rule (``2·(W/H) × 2``) [guess], height
  CustomToken.Thickness.
- Portrait card: about 2.2 × 3.05 (§2, [inf/guess]); a card's thickness is not established:
  ``CARD_THICKNESS`` [guess]; a deck is that times its card count.
- d6: about 0.66 on a side (§2, [inf 4]), origin at its centre [guess].
- Anything else (bags, boards, figurines, zones) has no known size: no body, never checked.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

CARD_WIDTH = 2.2
CARD_DEPTH = 3.05
CARD_THICKNESS = 0.02  # [guess] thinner than every card step the games use (0.05)
DIE_SIDE = 0.66
TABLE_TOP = 0.96  # Table_RPG / Table_Custom (GEOMETRY.md §6)


@dataclass(frozen=True)
class Body:
    """An object's box at scale 1: local x extent, local z extent, height; origin at the bottom
    face unless ``centred``. For decks and stacks ``height`` is per card / per piece."""

    width: float
    depth: float
    height: float
    centred: bool = False


def _png_size(data: bytes) -> tuple[int, int] | None:
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
            size = _png_size(data)
            if size is not None:
                sizes[name] = size
    return sizes


def _aspect(url: str, sizes: Mapping[str, tuple[int, int]]) -> float | None:
    """W/H of the image at ``url`` if it is one of ``sizes`` (matched by its trailing path)."""
    for name, (width, height) in sizes.items():
        if height > 0 and (url == name or url.endswith("/" + name)):
            return width / height
    return None


def body_of(
    name: str, custom_image: Mapping[str, Any] | None, sizes: Mapping[str, tuple[int, int]]
) -> Body | None:
    """The body of an object named ``name`` (its save ``Name``), or None when unknown."""
    base = name.removesuffix("_Stack")
    if base in ("Card", "CardCustom", "Deck", "DeckCustom"):
        return Body(CARD_WIDTH, CARD_DEPTH, CARD_THICKNESS)
    if name in ("Die_6", "Die_6_Rounded") or (name == "Custom_Dice" and _d6(custom_image)):
        return Body(DIE_SIDE, DIE_SIDE, DIE_SIDE, centred=True)
    if base not in ("Custom_Tile", "Custom_Token") or not custom_image:
        return None
    aspect = _aspect(str(custom_image.get("ImageURL") or ""), sizes)
    if aspect is None:
        return None
    extra = custom_image.get("CustomTile") or custom_image.get("CustomToken") or {}
    if base == "Custom_Tile" and extra.get("Stretch") is False:
        return None  # probably 2 × 2, not established (GEOMETRY.md §2)
    thickness = float(extra.get("Thickness", 0.2))
    return Body(2 * aspect, 2.0, thickness)


def _d6(custom_image: Mapping[str, Any] | None) -> bool:
    dice = (custom_image or {}).get("CustomDice") or {}
    return dice.get("Type", 1) == 1
