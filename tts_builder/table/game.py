"""The build of a game whose table is its manifest: what every manifest game's ``assemble``
does the same way (art, the laid table, the Global script and UI, the save, thumbnail and
preview, the build's files), given what is the game's own: the hooks its code hands the
manifest, the scripts' template context, the save's title and the preview's size, and the
save's snap points the game computes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    ``shown`` (no card backs; the manifest's ``thumbnail`` names them instead), the preview
    sheet lays every face in rows of ``columns`` cells of at most ``cell_max`` pixels."""

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
    game_mode: str | None = None,
    snap_points: Sequence[Data] = (),
) -> tuple[GameBuild, Table]:
    """The build of ``definition`` (its variant's data): the manifest laid with ``hooks``,
    ``context(table)`` rendered into the engine's Global script and UI, the save named
    ``title`` (name, description; its game mode ``game_mode``, default the name) with the
    manifest's snap points and then ``snap_points`` (ones the game computes), and the
    thumbnail and preview of the laid table's faces by ``sheet`` (the thumbnail fans the faces
    the manifest's ``thumbnail`` names, if it names any). The build's positions are the laid
    table's (Setup's spots); the laid table comes back too, for what the game adds (the GUIDs
    its own positions name)."""
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
        game_mode=game_mode,
        snap_points=[*table.snap_points, *snap_points],
    )
    thumbnail, preview = add_previews(
        table,
        art,
        name,
        shown=sheet.shown,
        columns=sheet.columns,
        cell_max=sheet.cell_max,
        labels=data["table"].get("thumbnail", ()),
    )
    files = build_files(definition.id, save, thumbnail, preview, script, ui)
    build = GameBuild(definition.id, definition, save, script, ui, files)
    build.positions = list(table.positions)
    return build, table
