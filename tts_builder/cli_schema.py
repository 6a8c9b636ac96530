"""``tts-builder schema [GAME]``: the JSON Schema of a game's ``game.yaml``, for YAML editors.

Printed on stdout (draft 2020-12): the header, the table manifest and the game's engine's keys,
from the specs the loader checks with (:func:`tts_builder.definition.definition_json_schema`).
An editor reads it through the ``# yaml-language-server: $schema=game.schema.json`` line that
``tts-builder new`` writes: ``tts-builder schema GAME > GAME/game.schema.json`` refreshes it.
"""

from __future__ import annotations

from pathlib import Path

import click

from .errors import BuildError


def schema_text(game_id: str, assets: Path | None = None) -> str:
    """The JSON Schema of ``game_id``'s definition as indented JSON text (its engine's: the
    definition is read for its ``engine`` key only, so a broken one still gets its schema)."""
    from .definition import engine_of, json_schema_text, read_definition

    return json_schema_text(engine_of(read_definition(game_id, assets), game_id))


def _only_game(assets: Path | None) -> str:
    """The game a bare ``schema`` means: the one game of the --assets or current folder."""
    from .definition import select_games

    found = select_games((), assets)
    if len(found) != 1:
        raise BuildError(f"schema: name a game (found: {', '.join(found) or 'none'})")
    return found[0]


@click.command()
@click.argument("game", required=False)
@click.pass_obj
def schema(report: object, game: str | None) -> None:
    """Print the JSON Schema of GAME's game.yaml (default: the game in the current folder)."""
    assets = getattr(report, "assets", None)
    click.echo(schema_text(game or _only_game(assets), assets), nl=False)
