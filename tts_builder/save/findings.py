"""What a check of a save reports: one :class:`Finding` per problem (the FORMAT §7 checks in
:mod:`.checker`, the table's geometry in :mod:`.geometry_checks`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["req", "conv", "geo"]


@dataclass(frozen=True)
class Finding:
    """One problem: its level, a JSON-path-like location and a one-line message."""

    level: Level
    path: str
    message: str

    def __str__(self) -> str:
        return f"[{self.level}] {self.path}: {self.message}"
