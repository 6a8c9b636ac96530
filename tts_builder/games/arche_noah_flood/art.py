"""The component pictures of one build, each distinct one rendered once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .cost_card import cost_card_layout
from .table import geometry


def animal_fields(animal: dict[str, Any]) -> dict[str, Any]:
    """The fields the card and piece layouts may use."""
    return {"name": animal["name"], "color": animal["color"], "art": animal["art"]}


def board_spec(data: dict[str, Any]) -> dict[str, Any]:
    """Everything the board picture is drawn from (its cache key)."""
    board = [data["map"], data["rules"]["terrain"], data["components"]["board"],
             data["table"]["board"], data["name"]]
    return {"board": board}


class Art:
    """Renders the definition's components (each distinct one once per build)."""

    def __init__(self, definition: Any) -> None:
        from ...build import file_digest
        from ...render import load_art

        self.data = definition.data
        root = definition.root
        self.images = lambda src: load_art(root, src, "art")
        self.digests = {a["art"]: file_digest(root / a["art"]) for a in self.data["animals"]}
        self.memo: dict[str, Any] = {}

    def _once(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self.memo:
            self.memo[key] = make()
        return self.memo[key]

    def layout(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        """One side of a component drawn with ``fields``."""
        from ...render import render_layout

        spec = self.data["components"][component]
        return self._once(
            json.dumps([component, side, fields], sort_keys=True),
            lambda: render_layout(
                spec[side], tuple(spec["size"]), fields, self.images,
                where=f"components.{component}.{side}",
            ),
        )

    def cost_card(self) -> Any:
        """The movement-cost card (RGB)."""
        from ...render import render_layout

        def make() -> Any:
            layout, fields = cost_card_layout(self.data)
            size = tuple(self.data["components"]["cost_card"]["size"])
            return render_layout(
                layout, size, fields, self.images, where="components.cost_card"
            ).convert("RGB")

        return self._once("cost_card", make)

    def board(self) -> Any:
        """The board picture, drawn from the map and the board style."""
        from ...render.hexmap import render_board

        data = self.data
        return self._once(
            "board",
            lambda: render_board(
                data["map"], data["rules"]["terrain"], geometry(data),
                data["components"]["board"]["style"], title=data["name"],
            ),
        )
