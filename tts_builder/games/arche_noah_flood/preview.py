"""The thumbnail and the designer's preview sheet of a build."""

from __future__ import annotations

from typing import Any

from .art import Art, animal_fields, board_spec
from .dice import die_spec, die_texture


def _die(art: Art, symbols: bool) -> Any:
    """The texture of the symbol (junior) or number dice, drawn once."""
    return art.images.picture(die_spec(art.data, symbols), lambda: die_texture(art.data, symbols))


def preview_items(art: Art) -> list[tuple[str, Any]]:
    """Every component picture, labelled, for the designer's preview sheet (each a function
    making it, so the sheet takes them one at a time)."""
    animals = art.data["animals"]
    sides = art.sides
    items = [("board", art.board)]
    items += [(a["name"], lambda a=a: sides("card", "face", animal_fields(a))) for a in animals]
    items += [("card back", lambda: sides("card", "back", {}))]
    items += [
        (f"{a['name']} piece", lambda a=a: sides("piece", "face", animal_fields(a)))
        for a in animals
    ]
    items += [
        ("movement costs", art.cost_card),
        ("flood marker", lambda: sides("flood_marker", "face", {})),
        ("flood tile", art.flood_tile),
        ("number die", lambda: _die(art, symbols=False)),
        ("symbol die", lambda: _die(art, symbols=True)),
    ]
    return items


def _preview_spec(art: Art) -> dict[str, Any]:
    """Everything the preview sheet is drawn from."""
    data, sides = art.data, art.sides
    animals = data["animals"]
    return {
        "preview": [
            board_spec(data),
            [sides.spec("card", "face", animal_fields(a)) for a in animals],
            sides.spec("card", "back", {}),
            [sides.spec("piece", "face", animal_fields(a)) for a in animals],
            art.cost_card_spec(),
            sides.spec("flood_marker", "face", {}),
            art.flood_tile_spec(),
            die_spec(data, symbols=False),
            die_spec(data, symbols=True),
        ]
    }


def add_previews(art: Art, images: Any, name: str) -> None:
    """Add the thumbnail and the preview sheet to ``images`` (drawn only when not cached)."""
    from ...render import render_preview, render_thumbnail

    data, sides = art.data, art.sides
    shown = data["animals"][:3]
    pieces = [sides.spec("piece", "face", animal_fields(a)) for a in shown]
    images.png(
        "thumbnail",
        {"thumb": [board_spec(data), pieces, name]},
        lambda: render_thumbnail(
            name, [art.board(), *[sides("piece", "face", animal_fields(a)) for a in shown]]
        ),
    )
    images.png("preview", _preview_spec(art), lambda: render_preview(preview_items(art), columns=6))
