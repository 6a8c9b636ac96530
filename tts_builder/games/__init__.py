"""The registry of bundled games: game id -> the module that validates and assembles it.

Every module in this package that sets ``GAME_ID`` is a bundled game. It provides ``FIELDS``
and ``OPTIONAL`` (its definition keys beyond the common header; a key in both replaces the
header's spec), ``check(data, root)`` (cross-field checks raising FieldError),
``rules_config(data, variant=None)`` (the JSON-shaped rule numbers shared by rules_ref and
the Lua) and ``assemble(definition, images, options) -> GameBuild``. Optional:
``positions_on(save, data, config, n)``, the script's positions once Setup has laid the table
out for ``n`` players (when they differ from the build's ``positions``).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

from ..errors import BuildError


@cache
def _registry() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        game_id = getattr(module, "GAME_ID", None)
        if game_id:
            found[game_id] = module
    return found


def game_ids() -> list[str]:
    """Every bundled game id, in build order (alphabetical)."""
    return sorted(_registry())


def game_module(game_id: str) -> ModuleType:
    """The module for ``game_id``; a one-line error for an unknown id."""
    try:
        return _registry()[game_id]
    except KeyError:
        known = ", ".join(game_ids())
        raise BuildError(f"unknown game {game_id!r} (bundled games: {known})") from None
