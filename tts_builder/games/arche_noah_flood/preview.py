"""The thumbnail and the designer's preview sheet of a build."""

from __future__ import annotations

from typing import Any

from .art import Art, animal_fields, board_spec
from .dice import die_texture


def preview_items(art: Art) -> list[tuple[str, Any]]:
    """Every component picture, labelled, for the designer's preview sheet."""
    from ...render.hexmap import render_flood_tile

    data = art.data
    animals = data["animals"]
    items = [("board", art.board())]
    items += [(a["name"], art.layout("card", "face", animal_fields(a))) for a in animals]
    items += [("card back", art.layout("card", "back", {}))]
    items += [(f"{a['name']} piece", art.layout("piece", "face", animal_fields(a)))
              for a in animals]
    items += [
        ("movement costs", art.cost_card()),
        ("flood marker", art.layout("flood_marker", "face", {})),
        ("flood tile", render_flood_tile(data["components"]["board"]["style"])),
        ("number die", die_texture(data, symbols=False)),
        ("symbol die", die_texture(data, symbols=True)),
    ]
    return items


def add_previews(art: Art, images: Any, name: str) -> None:
    """Add the thumbnail and the preview sheet to ``images`` (drawn only when not cached)."""
    from ...render import render_preview, render_thumbnail

    data = art.data
    animals = data["animals"]
    board = board_spec(data)
    images.png(
        "thumbnail", {"thumb": [board, [art.digests[a["art"]] for a in animals[:3]], name]},
        lambda: render_thumbnail(
            name,
            [art.board(), *[art.layout("piece", "face", animal_fields(a)) for a in animals[:3]]],
        ),
    )
    images.png(
        "preview",
        {"preview": [board, data["components"], data["rules"],
                     [art.digests[a["art"]] for a in animals]]},
        lambda: render_preview(preview_items(art), columns=6),
    )
