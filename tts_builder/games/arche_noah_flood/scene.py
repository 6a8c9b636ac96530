"""The state one build shares while it lays out the table."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...json_types import Data
from ...plugin import Images
from ...save import GuidAllocator
from .art import Art


@dataclass
class Scene:
    """The definition's data, its art, the build's images and GUIDs, and the objects so far."""

    data: Data
    art: Art
    images: Images
    guids: GuidAllocator
    objects: list[Data] = field(default_factory=list)

    def add(self, thing: Data) -> Data:
        """Put ``thing`` on the table; ``thing``."""
        self.objects.append(thing)
        return thing
