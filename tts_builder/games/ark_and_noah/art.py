"""Ark & Noah pictures: the thumbnail and the preview sheet (the boards:
``boards.board_pictures``; the animal tiles' two sides: the table manifest's animal bags).
Component sides go through the shared memoised renderer (``render.components.Sides``), so each
distinct side is drawn once per build."""

from __future__ import annotations

from ...gamekit import pictures
from ...json_types import Data
from ...plugin import Images
from ...render import Sides
from .tiles import tile_fields


def thumbnail(sides: Sides, data: Data, tiles: list[Data], images: Images) -> bytes:
    """The thumbnail PNG: a few well-known animals under the title."""
    picks = ("Lion", "Lioness", "Elephant", "Giraffe", "Dove")
    shown = [tile_fields(t, "unpaired", data["tile_colors"]) for t in tiles if t["name"] in picks]
    faces = [pictures.side(sides, "animal", "unpaired", f) for f in shown]
    return pictures.thumbnail(images, data["name"], faces)


def preview(sides: Sides, data: Data, tiles: list[Data], images: Images) -> bytes:
    """The designer's contact sheet: every tile side and every piece."""
    items = [
        (
            t["name"] if side == "unpaired" else "(paired)",
            "animal",
            side,
            tile_fields(t, side, data["tile_colors"]),
        )
        for t in tiles
        for side in ("unpaired", "paired")
    ]
    for name, colour in zip(data["characters"], data["colors"], strict=False):
        items.append((name, "character", "face", {"name": name, "color": colour["hex"]}))
        for piece in ("divider", "worker", "score"):
            items.append((f"{colour['name']} {piece}", piece, "face", {"color": colour["hex"]}))
    bonus = range(1, data["rules"]["bonus_max"] + 1)  # a token per bonus value, as laid
    items += [(f"bonus +{v}", "bonus", "face", {"value": v}) for v in bonus]
    items += [(piece, piece, "face", {}) for piece in ("food", "pitch", "round")]
    shown = [(label, pictures.side(sides, *face)) for label, *face in items]
    return pictures.preview(images, shown, columns=14, cell_max=140)
