"""Model-based tests of built tables: random complete games on the emulated table, each step
checked against rules_ref, illegal actions injected between steps (see :mod:`.driver`).

Verification code, not build code: it imports rules_ref. Each game with a driver registers its
adapter (an :class:`.driver.Adapter`, in ``games/<engine>/play.py``) as its ``play`` part;
:func:`adapter_factory` makes one for a build. What is here serves every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .driver import Adapter, TableRun, play_many


def has_driver(game_id: str) -> bool:
    """Whether the table of ``game_id`` can be played by the driver (its game has a ``play``
    part)."""
    from ..games import game, game_ids

    return game_id in game_ids() and bool(game(game_id).play)


def adapter_factory(
    game_id: str,
    save: dict[str, Any],
    images: dict[str, bytes],
    data: dict[str, Any],
    variant: str | None = None,
) -> Callable[[int], Adapter]:
    """A maker of fresh adapters (seed -> adapter) for one table (the same save every time)."""
    from ..games import game

    cls: Any = game(game_id).part("play")

    def make(seed: int) -> Adapter:
        return cls(save, images, data, seed, variant)

    return make


def play_table(game_id: str, build: Any, variant: str | None, games: int, seed: int) -> TableRun:
    """Play ``games`` seeded games (seeds ``seed``..) on a build's table; the shortest failure."""
    make = adapter_factory(game_id, build.save, build.files, build.definition.data, variant)
    return play_many(make, range(seed, seed + games))
