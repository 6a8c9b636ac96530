"""The component pictures of one build and their specs (cache keys), each drawn once."""

from __future__ import annotations

from typing import Any

from .cost_card import cost_card_layout
from .table import geometry


def animal_fields(animal: dict[str, Any]) -> dict[str, Any]:
    """The fields the card and piece layouts may use."""
    return {"name": animal["name"], "color": animal["color"], "art": animal["art"]}


def board_spec(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the board picture is drawn from (its cache key)."""
    board = [
        data["map"],
        data["rules"]["terrain"],
        data["components"]["board"],
        data["table"]["board"],
        data["name"],
    ]
    return {"board": board}


class Art:
    """The definition's pictures through the build's picture store (``images``): component
    sides (:attr:`sides`), the board, the movement-cost card and the flood tile."""

    def __init__(self, definition: Any, images: Any) -> None:
        from ...render import ArtFiles, Sides

        self.data = definition.data
        self.images = images
        self.files = ArtFiles(definition.root)
        self.sides = Sides(self.data["components"], self.files, images)

    def layout(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        """One side of a component drawn with ``fields``."""
        return self.sides(component, side, fields)

    def cost_card_spec(self) -> dict[str, Any]:
        """Everything the movement-cost card is drawn from."""
        from ...render import layout_spec

        layout, fields = cost_card_layout(self.data)
        size = tuple(self.data["components"]["cost_card"]["size"])
        return {"cost": layout_spec(layout, size, fields, self.files, "components.cost_card")}

    def draw_cost_card(self) -> Any:
        """Draw the movement-cost card (RGB)."""
        from ...render import render_layout

        layout, fields = cost_card_layout(self.data)
        size = tuple(self.data["components"]["cost_card"]["size"])
        return render_layout(
            layout, size, fields, self.files, where="components.cost_card"
        ).convert("RGB")

    def cost_card(self) -> Any:
        """The movement-cost card (RGB)."""
        return self.images.picture(self.cost_card_spec(), self.draw_cost_card)

    def draw_board(self) -> Any:
        """Draw the board picture from the map and the board style."""
        from ...render.hexmap import render_board

        data = self.data
        return render_board(
            data["map"], data["rules"]["terrain"], geometry(data),
            data["components"]["board"]["style"], title=data["name"],
        )  # fmt: skip

    def board(self) -> Any:
        """The board picture (drawn once for the game and all its variants)."""
        return self.images.picture(board_spec(self.data), self.draw_board)

    def flood_tile_spec(self) -> dict[str, Any]:
        """Everything the flood tile is drawn from."""
        return {"tile": self.data["components"]["board"]["style"]}

    def draw_flood_tile(self) -> Any:
        """Draw the flood tile."""
        from ...render.hexmap import render_flood_tile

        return render_flood_tile(self.data["components"]["board"]["style"])

    def flood_tile(self) -> Any:
        """The flood tile."""
        return self.images.picture(self.flood_tile_spec(), self.draw_flood_tile)
