"""Ark & Noah pictures: the animal tiles' two sides, the boards drawn from the rule numbers, the
thumbnail and the preview sheet. Component sides go through the shared memoised renderer
(``render.components.Sides``), so each distinct side is drawn once per build."""

from __future__ import annotations

from functools import partial

from rules_ref.ark_and_noah import make_config

from ...gamekit import pictures
from ...json_types import Data
from ...plugin import Images
from ...render import Sides, ark
from .rules import action_texts
from .tiles import tile_fields


def tile_images(sides: Sides, data: Data, tiles: list[Data]) -> dict[int, tuple[str, str]]:
    """Each tile's (unpaired side URL, paired side URL): the two faces of a double-sided tile."""
    return {
        t["tile"]: tuple(  # type: ignore[misc]
            sides.png(
                f"animal-{t['name'].lower()}-{t['sex']}-{side}",
                "animal",
                side,
                tile_fields(t, side, data["tile_colors"]),
            )
            for side in ("unpaired", "paired")
        )
        for t in tiles
    }


def board_art(data: Data, config: Data, images: Images) -> Data:
    """URLs of the boards: ``sections`` (Ark section kind -> URL), ``board-standard`` and
    ``board-family`` (the action board's sides), ``score`` and ``rounds`` (the tracks)."""
    b, section = data["boards"], config["ark"]["section"]
    geometry = ark.ArkGeometry(section["rows"], section["cols"], **b["ark"])
    whole: Data = {}

    def cut(kind: str) -> object:
        if not whole:
            whole.update(ark.render_ark_sections(geometry, section["cols"], b["ark_colors"]))
        return whole[kind]

    out: Data = {"sections": {}}
    for kind in ark.SECTION_KINDS:
        spec = {"ark": kind, "geometry": b["ark"], "section": section, "colors": b["ark_colors"]}
        out["sections"][kind] = images.png(f"ark-{kind}", spec, partial(cut, kind))
    sides = {"standard": (make_config(data), f"{data['name']}: actions", True)}
    if "family" in data.get("variants", {}):
        family = make_config(data, "family")
        sides["family"] = (family, "Family game: any action, in seat order", False)
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
            partial(ark.render_action_board, actions, title, b["board_colors"], workers, texts),
        )
    colors, rounds = b["track_colors"], config["end"]["min_rounds"]
    out["score"] = images.png(
        "score-track", {"score": colors}, partial(ark.render_score_track, colors)
    )
    out["rounds"] = images.png(
        f"round-track-{rounds}",
        {"rounds": rounds, "colors": colors},
        partial(ark.render_round_track, rounds, colors),
    )
    return out


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
    items += [(f"bonus +{v}", "bonus", "face", {"value": v}) for v in range(1, 5)]
    items += [(piece, piece, "face", {}) for piece in ("food", "pitch", "round")]
    shown = [(label, pictures.side(sides, *face)) for label, *face in items]
    return pictures.preview(images, shown, columns=14, cell_max=140)
