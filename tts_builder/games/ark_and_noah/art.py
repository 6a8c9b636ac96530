"""Ark & Noah pictures: component sides, tile sheets, boards, thumbnail and preview sheet.

Each picture goes through the build's image store; each distinct side is drawn once.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .rules import action_texts
from .tiles import tile_fields


class Art:
    """Every picture of the game, drawn lazily through the build's image store."""

    def __init__(self, definition: Any, images: Any) -> None:
        from ...render import ArtFiles, Sides

        self.definition = definition
        self.data = definition.data
        self.images = images
        self.render = Sides(self.data["components"], ArtFiles(definition.root), images)
        self.urls: dict[str, str] = {}

    def piece(self, name: str, component: str, fields: dict[str, Any]) -> str:
        """URL of a one-sided piece picture."""
        if name not in self.urls:
            self.urls[name] = self.render.png(name, component, "face", fields)
        return self.urls[name]

    def tile_images(self, tiles: list[dict[str, Any]]) -> dict[int, tuple[str, str]]:
        """Each tile's (unpaired side URL, paired side URL): the two faces of a double-sided
        tile, one picture per side."""
        colors = self.data["tile_colors"]
        out = {}
        for t in tiles:
            urls = [
                self.render.png(
                    f"animal-{t['name'].lower()}-{t['sex']}-{side}", "animal", side,
                    tile_fields(t, side, colors),
                )
                for side in ("unpaired", "paired")
            ]  # fmt: skip
            out[t["tile"]] = (urls[0], urls[1])
        return out


def board_art(data: dict[str, Any], config: dict[str, Any], images: Any) -> dict[str, Any]:
    """URLs and pixel sizes of the boards (Ark sections, action board sides, tracks)."""
    from rules_ref.ark_and_noah import make_config

    from ...render import ark

    b = data["boards"]
    section = config["ark"]["section"]
    geometry = ark.ArkGeometry(section["rows"], section["cols"], **b["ark"])
    out: dict[str, Any] = {"geometry": geometry, "sections": {}}
    whole: dict[str, Any] = {}

    def cut(kind: str) -> Any:
        if not whole:
            whole.update(ark.render_ark_sections(geometry, section["cols"], b["ark_colors"]))
        return whole[kind]

    for kind in ark.SECTION_KINDS:
        spec = {"ark": kind, "geometry": b["ark"], "section": section, "colors": b["ark_colors"]}
        out["sections"][kind] = (
            images.png(
                f"ark-{kind}",
                spec,
                lambda kind=kind: cut(kind),
            ),
            ark.section_size(kind, geometry, section["cols"]),
        )
    sides = {"standard": (make_config(data), f"{data['name']}: actions", True)}
    if "family" in data.get("variants", {}):
        sides["family"] = (
            make_config(data, "family"),
            "Family game: any action, in seat order",
            False,
        )
    for side, (side_config, title, workers) in sides.items():
        actions, texts = side_config["actions"], action_texts(side_config)
        spec = {
            "board": side,
            "actions": actions,
            "title": title,
            "texts": texts,
            "colors": b["board_colors"],
        }
        out[f"board-{side}"] = images.png(
            f"action-board-{side}",
            spec,
            lambda a=actions, t=title, w=workers, x=texts: ark.render_action_board(
                a, t, b["board_colors"], w, x
            ),
        )
    out["score"] = images.png(
        "score-track",
        {"score": b["track_colors"]},
        lambda: ark.render_score_track(b["track_colors"]),
    )
    rounds = config["end"]["min_rounds"]
    out["rounds"] = images.png(
        f"round-track-{rounds}",
        {"rounds": rounds, "colors": b["track_colors"]},
        lambda: ark.render_round_track(rounds, b["track_colors"]),
    )
    return out


def _thumbnail_picks(tiles: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [t for t in tiles if t["name"] in ("Lion", "Lioness", "Elephant", "Giraffe", "Dove")]


def thumbnail(art: Art, tiles: list[dict[str, Any]], title: str, images: Any) -> bytes:
    """The thumbnail PNG: a few well-known animals under the title."""
    from ...render import render_thumbnail

    colors = art.data["tile_colors"]
    shown = [tile_fields(t, "unpaired", colors) for t in _thumbnail_picks(tiles)]
    spec = {"thumb": [art.render.spec("animal", "unpaired", f) for f in shown], "title": title}
    images.png(
        "thumbnail",
        spec,
        lambda: render_thumbnail(title, [art.render("animal", "unpaired", f) for f in shown]),
    )
    return images.files.pop("images/thumbnail.png")


def _preview_items(art: Art, tiles: list[dict[str, Any]]) -> list[tuple[str, str, str, dict]]:
    """Every (label, component, side, fields) of the preview sheet, in order."""
    colors = art.data["tile_colors"]
    items = []
    for t in tiles:
        for side in ("unpaired", "paired"):
            label = t["name"] if side == "unpaired" else "(paired)"
            items.append((label, "animal", side, tile_fields(t, side, colors)))
    for name, colour in zip(art.data["characters"], art.data["colors"], strict=False):
        items.append((name, "character", "face", {"name": name, "color": colour["hex"]}))
        for piece in ("divider", "worker", "score"):
            items.append((f"{colour['name']} {piece}", piece, "face", {"color": colour["hex"]}))
    for value in range(1, 5):
        items.append((f"bonus +{value}", "bonus", "face", {"value": value}))
    for piece in ("food", "pitch", "round"):
        items.append((piece, piece, "face", {}))
    return items


def preview(art: Art, tiles: list[dict[str, Any]], images: Any) -> bytes:
    """The designer's contact sheet: every tile side and every piece."""
    from ...render import render_preview

    items = _preview_items(art, tiles)
    spec = {"preview": [[label, art.render.spec(*side)] for label, *side in items]}
    images.png(
        "preview",
        spec,
        lambda: render_preview(
            [(label, partial(art.render, *side)) for label, *side in items],
            columns=14,
            cell_max=140,
        ),
    )
    return images.files.pop("images/preview.png")
