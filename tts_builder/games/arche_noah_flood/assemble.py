"""The whole flood-race build: the manifest laid with the game's hooks, the scripts' template
context (:func:`tts_builder.table.game.build_table_game` does the rest), and the positions on
the board the script uses."""

from __future__ import annotations

from ...json_types import Data
from ...plugin import BuildOptions, GameBuild, GameDefinition, Images
from ...render import ArtFiles
from ...table import Table, script_context
from ...table.game import Sheet, build_table_game
from ...variants import variant_title
from .schema import rules_config
from .table import hooks, script_positions, table_positions

#: The preview: four faces on the thumbnail, rows of six on the sheet.
SHEET = Sheet(shown=4, columns=6, cell_max=600)


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole flood-race build (or one variant's): art, Global script and UI, save, previews."""
    data = definition.data  # the variant's overlay merged in
    name, description = variant_title(data, options.variant)

    def context(table: Table) -> Data:
        """The scripts' view: the rules; the seats, the objects' GUIDs and the card spots (the
        manifest's ``script``); every position on the board."""
        return {
            "game": {"id": definition.id, "name": name},
            "config": rules_config(data, options.variant),
            "players": dict(data["players"]),
            **script_context(data["table"], table.guids),
            "geometry": table_positions(data),
        }

    supplied = hooks(data, ArtFiles(definition.root))
    build, table = build_table_game(
        definition, images, context, title=(name, description), hooks=supplied, sheet=SHEET
    )
    build.positions += script_positions(data, table.guids["board"][0])
    return build
