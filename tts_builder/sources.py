"""Where games are found and where their builds go, without loading any definition.

A game is looked for in this order: the ``--assets`` folder (when given), the current folder,
then the games bundled with the package. This module imports nothing heavy (no YAML, no
schema, no dataclasses), so a no-op ``build`` finds its games before the build machinery
loads; :mod:`tts_builder.definition` re-exports every name here.
"""

from __future__ import annotations

from collections import namedtuple
from pathlib import Path

from .bundled import ASSETS_DIR

ASSETS_ROOT = ASSETS_DIR  # the bundled games
DEFINITION_FILE = "game.yaml"
#: Where a game was found, in lookup order.
ORIGINS = ("--assets", "current folder", "bundled")
#: Where builds go unless told otherwise: ``dist/`` in the current folder (cache: ``dist/.cache``).
DEFAULT_OUT = Path("dist")


class GameSource(namedtuple("GameSource", "id folder origin")):
    """Where a game's definition was found: its ``id``, the ``folder`` holding game.yaml and
    the game's art, and its ``origin`` (one of :data:`ORIGINS`)."""

    __slots__ = ()


def game_roots(assets_root: Path | None = None) -> list[tuple[str, Path]]:
    """(origin, folder holding <game>/ folders), in lookup order."""
    roots = [("--assets", assets_root)] if assets_root is not None else []
    return [*roots, ("current folder", Path.cwd()), ("bundled", ASSETS_ROOT)]


def lookup_game(game_id: str, assets_root: Path | None = None) -> GameSource | None:
    """The first ``<root>/<game_id>/`` folder in lookup order, or None."""
    for origin, root in game_roots(assets_root):
        folder = root / game_id
        if (folder / DEFINITION_FILE).is_file() or (origin != "bundled" and folder.is_dir()):
            return GameSource(game_id, folder, origin)
    return None


def find_game(game_id: str, assets_root: Path | None = None) -> GameSource:
    """The first ``<root>/<game_id>/`` folder in lookup order; a one-line error if none."""
    found = lookup_game(game_id, assets_root)
    if found is not None:
        return found
    from .errors import BuildError

    known = ", ".join(s.id for s in available_games(assets_root)) or "none"
    where = " or ".join(str(shown_path(root)) for _, root in game_roots(assets_root)[:-1])
    raise BuildError(
        f"unknown game {game_id!r}: no {game_id}/{DEFINITION_FILE} in {where}, "
        f"and no bundled game of that name (games: {known})"
    )


def available_games(assets_root: Path | None = None) -> list[GameSource]:
    """Every game found, the first of each id in lookup order; by origin, then id."""
    found: dict[str, GameSource] = {}
    for origin, root in game_roots(assets_root):
        for path in sorted(root.glob(f"*/{DEFINITION_FILE}")):
            found.setdefault(path.parent.name, GameSource(path.parent.name, path.parent, origin))
    return sorted(found.values(), key=lambda s: (ORIGINS.index(s.origin), s.id))


def select_games(games: tuple[str, ...] | list[str], assets_root: Path | None = None) -> list[str]:
    """The games a command runs on: those named (each must exist), else the games in the
    ``--assets`` or current folder if there are any, else every bundled game."""
    if games:
        for game in games:
            find_game(game, assets_root)
        return list(games)
    everything = available_games(assets_root)
    own = [s.id for s in everything if s.origin != "bundled"]
    return own or [s.id for s in everything]


def shown_path(path: Path) -> Path:
    """A path as the user should see it: relative to the working directory when possible."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError, RuntimeError):  # elsewhere, or a link loop (RuntimeError)
        return path


def output_folder(game_id: str, variant: str | None) -> str:
    """``dist/`` sub-folder of a game or one of its variants."""
    return f"{game_id}-{variant}" if variant else game_id


def folder_clash(
    variants: dict[str, list[str]], available: list[GameSource]
) -> tuple[str, str, str] | None:
    """The first variant (of ``variants``: game -> the variants it builds) that would build
    into a folder another build owns (game ``a-b`` and game ``a``'s variant ``b`` would
    replace each other), as (game, variant, owner); None if none does. Every game found
    (``available``) owns its folder, not only those built now."""
    owners = {output_folder(source.id, None): source.id for source in available}
    owners.update({output_folder(game, None): game for game in variants})
    for game, names in variants.items():
        for name in names:
            folder = output_folder(game, name)
            if folder in owners:
                return game, name, owners[folder]
            owners[folder] = f"{game} variant {name}"
    return None
