"""The state one build shares while it lays out the table."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .art import Art


@dataclass
class Scene:
    """The definition's data, its art, the build's images and GUIDs, and the objects so far."""

    data: dict[str, Any]
    art: Art
    images: Any
    guids: Any
    objects: list[dict[str, Any]] = field(default_factory=list)

    def add(self, thing: dict[str, Any]) -> dict[str, Any]:
        """Put ``thing`` on the table; ``thing``."""
        self.objects.append(thing)
        return thing
