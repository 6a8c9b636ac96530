"""The build of a game whose table is its manifest: what every manifest game's ``assemble``
does the same way (art, the laid table, the Global script and UI, the save, thumbnail and
preview, the build's files), given what is the game's own: the hooks its code hands the
manifest, the scripts' template context, the save's title and the preview's size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..gamekit.output import build_files, game_save
from ..json_types import Data
from ..lua.scripts import global_script, global_ui
from ..plugin import GameBuild, GameDefinition, Images, TableHooks
from ..save import GuidAllocator
from .art import Art
from .assemble import Table, lay_table
from .preview import add_previews


@dataclass(frozen=True)
class Sheet:
    """How the build's pictures show the table's faces: the thumbnail fans the first
    ``shown`` (no card backs), the preview sheet lays every face in rows of ``columns`` cells
    of at most ``cell_max`` pixels."""

    shown: int = 5
    columns: int = 8
    cell_max: int = 240


def build_table_game(
    definition: GameDefinition,
    images: Images,
    context: Callable[[Table], Data],
    *,
    title: tuple[str, str],
    hooks: TableHooks | None = None,
    sheet: Sheet = Sheet(),
) -> tuple[GameBuild, Table]:
    """The build of ``definition`` (its variant's data): the manifest laid with ``hooks``,
    ``context(table)`` rendered into the engine's Global script and UI, the save named
    ``title`` (name, description) with the manifest's snap points, and the previews. The
    build's positions are the laid table's (Setup's spots); the laid table comes back too,
    for what the game adds (the GUIDs its own positions name)."""
    data = definition.data
    art = Art(definition.root, data["components"], images, hooks.pictures if hooks else None)
    table = lay_table(data, art, GuidAllocator(definition.id), hooks=hooks)
    ctx = context(table)
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    name, description = title
    save = game_save(
        data,
        name=name,
        objects=table.objects,
        script=script,
        ui=ui,
        note=description,
        snap_points=table.snap_points,
    )
    thumbnail, preview = add_previews(
        table, art, name, shown=sheet.shown, columns=sheet.columns, cell_max=sheet.cell_max
    )
    files = build_files(definition.id, save, thumbnail, preview, script, ui)
    build = GameBuild(definition.id, definition, save, script, ui, files)
    build.positions = list(table.positions)
    return build, table
