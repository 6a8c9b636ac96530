"""Ark & Noah pictures: component sides, tile sheets, boards, thumbnail and preview sheet.

Each picture goes through the build's image cache; each distinct side is rendered once.
"""

from __future__ import annotations

import json
from typing import Any

from .rules import action_texts
from .tiles import tile_fields


class Sides:
    """Renders component sides from their layouts, each distinct side once per build."""

    def __init__(self, definition: Any) -> None:
        from ...render import load_art

        self.definition = definition
        self.memo: dict[str, Any] = {}
        root = definition.root
        loaded: dict[str, Any] = {}

        def images(src: str) -> Any:
            if src not in loaded:
                loaded[src] = load_art(root, src, "art")
            return loaded[src]

        self.images = images

    def __call__(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        from ...render import render_layout

        key = json.dumps([component, side, fields], sort_keys=True)
        if key not in self.memo:
            spec = self.definition.data["components"][component]
            self.memo[key] = render_layout(
                spec[side],
                tuple(spec["size"]),
                fields,
                self.images,
                where=f"components.{component}.{side}",
            )
        return self.memo[key]


class Art:
    """Every picture of the game, rendered lazily through the build's image cache."""

    def __init__(self, definition: Any, images: Any) -> None:
        from ...build import file_digest

        self.definition = definition
        self.data = definition.data
        self.images = images
        self.render = Sides(definition)
        self.digests = {
            rel: file_digest(definition.root / rel) for rel in self.data["art"].values()
        }
        self.urls: dict[str, str] = {}

    def piece(self, name: str, component: str, fields: dict[str, Any]) -> str:
        """URL of a one-sided piece picture."""
        if name not in self.urls:
            spec = {
                "layout": self.data["components"][component]["face"],
                "size": self.data["components"][component]["size"],
                "fields": fields,
            }
            self.urls[name] = self.images.png(
                name, spec, lambda: self.render(component, "face", fields)
            )
        return self.urls[name]

    def tile_images(self, tiles: list[dict[str, Any]]) -> dict[int, tuple[str, str]]:
        """Each tile's (unpaired side URL, paired side URL): the two faces of a double-sided
        tile, one picture per side."""
        comp = self.data["components"]["animal"]
        colors = self.data["tile_colors"]
        out = {}
        for t in tiles:
            urls = []
            for side in ("unpaired", "paired"):
                fields = tile_fields(t, side, colors)
                spec = {
                    "layout": comp[side],
                    "size": comp["size"],
                    "fields": fields,
                    "art": self.digests[t["art"]],
                }
                name = f"animal-{t['name'].lower()}-{t['sex']}-{side}"
                urls.append(
                    self.images.png(
                        name, spec, lambda side=side, f=fields: self.render("animal", side, f)
                    )
                )
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


def thumbnail(art: Art, tiles: list[dict[str, Any]], title: str, images: Any) -> bytes:
    """The thumbnail PNG: a few well-known animals under the title."""
    from ...render import render_thumbnail

    picks = [t for t in tiles if t["name"] in ("Lion", "Lioness", "Elephant", "Giraffe", "Dove")]
    colors = art.data["tile_colors"]
    spec = {
        "thumb": [tile_fields(t, "unpaired", colors) for t in picks],
        "title": title,
        "art": [art.digests[t["art"]] for t in picks],
    }
    images.png(
        "thumbnail",
        spec,
        lambda: render_thumbnail(
            title,
            [art.render("animal", "unpaired", tile_fields(t, "unpaired", colors)) for t in picks],
        ),
    )
    return images.files.pop("images/thumbnail.png")


def preview(art: Art, tiles: list[dict[str, Any]], images: Any) -> bytes:
    """The designer's contact sheet: every tile side and every piece."""
    from ...render import render_preview

    colors = art.data["tile_colors"]
    comps = art.data["components"]
    spec = {
        "preview": [[tile_fields(t, s, colors) for t in tiles] for s in ("unpaired", "paired")],
        "comps": comps,
        "art": sorted(art.digests.values()),
        "colors": art.data["colors"],
        "characters": art.data["characters"],
    }

    def make() -> Any:
        items = []
        for t in tiles:
            for side in ("unpaired", "paired"):
                label = t["name"] if side == "unpaired" else "(paired)"
                items.append((label, art.render("animal", side, tile_fields(t, side, colors))))
        for name, colour in zip(art.data["characters"], art.data["colors"], strict=False):
            items.append(
                (name, art.render("character", "face", {"name": name, "color": colour["hex"]}))
            )
            for piece in ("divider", "worker", "score"):
                items.append(
                    (
                        f"{colour['name']} {piece}",
                        art.render(piece, "face", {"color": colour["hex"]}),
                    )
                )
        for value in range(1, 5):
            items.append((f"bonus +{value}", art.render("bonus", "face", {"value": value})))
        for piece in ("food", "pitch", "round"):
            items.append((piece, art.render(piece, "face", {})))
        return render_preview(items, columns=14, cell_max=140)

    images.png("preview", spec, make)
    return images.files.pop("images/preview.png")
