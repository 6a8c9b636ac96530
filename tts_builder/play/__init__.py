"""Model-based tests of built tables: random complete games on the emulated table, each step
checked against rules_ref, illegal actions injected between steps (see :mod:`.driver`).

Verification code, not build code: it imports rules_ref. Each game with a driver has an adapter
module here (an :class:`.driver.Adapter`); :func:`adapter_factory` makes one for a build.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .driver import Adapter, TableRun, play_many

#: game id -> (adapter module, class name)
ADAPTERS = {
    "arche-noah": ("arche_noah", "ArcheNoahAdapter"),
    "arche-noah-flood": ("arche_noah_flood", "FloodAdapter"),
    "ark-and-noah": ("ark_and_noah", "ArkAdapter"),
}


def has_driver(game_id: str) -> bool:
    """Whether the table of ``game_id`` can be played by the driver."""
    return game_id in ADAPTERS


def adapter_factory(
    game_id: str,
    save: dict[str, Any],
    images: dict[str, bytes],
    data: dict[str, Any],
    variant: str | None = None,
) -> Callable[[int], Adapter]:
    """A maker of fresh adapters (seed -> adapter) for one table (the same save every time)."""
    module_name, class_name = ADAPTERS[game_id]
    cls = getattr(importlib.import_module(f"{__name__}.{module_name}"), class_name)

    def make(seed: int) -> Adapter:
        return cls(save, images, data, seed, variant)

    return make


def play_table(game_id: str, build: Any, variant: str | None, games: int, seed: int) -> TableRun:
    """Play ``games`` seeded games (seeds ``seed``..) on a build's table; the shortest failure."""
    make = adapter_factory(game_id, build.save, build.files, build.definition.data, variant)
    return play_many(make, range(seed, seed + games))
