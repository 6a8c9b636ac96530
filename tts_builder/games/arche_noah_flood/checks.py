"""Cross-field checks: species, the map (with rules_ref's validate_map), seats, art; the
schema's references (costs, fliers) through :mod:`tts_builder.schema_yaml`."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules_ref.arche_noah_flood import MapProblem, config_from_definition, validate_map

from ...errors import FieldError, Problems
from ...gamekit.checks import check_art_files
from ...json_types import Data
from ...render import ArtFiles
from ...render.hexmap import board_style
from ...render.layout import resolve_layout
from ...table import check_manifest
from .cost_card import cost_card_layout
from .schema import SCHEMA, terrains
from .table import hooks, piece_count


def _check_map(data: Data) -> None:
    """The map's own rules (issue 3 part 1: rules_ref's validate_map), every error at the
    field naming the hex or edge (that the track of start hexes holds every piece is the
    manifest's check)."""
    config = {**config_from_definition(data), "mode": None, "distinct_species": None}
    problems = Problems()
    for problem in _map_problems(json.dumps(config, sort_keys=True)):
        problems.add_first(f"map.{problem.where}", problem.message)
    problems.raise_any()


@lru_cache(maxsize=8)
def _map_problems(config: str) -> tuple[MapProblem, ...]:
    """validate_map of a config as JSON, once per config: it checks under the standard rules,
    so the variants that change only mode or distinct_species share one check."""
    return tuple(validate_map(json.loads(config)))


def _check_board(data: Data) -> None:
    """The board style and the map (that TTS can load the board picture is the manifest's
    check: the picture's pixels)."""
    board_style(data["components"]["board"]["style"], terrains(data), "components.board.style")
    _check_map(data)


def _check_players(data: Data, root: Path) -> None:
    """The table manifest (with the game's hooks), a card per player, species enough to deal
    one each."""
    high = data["players"]["max"]
    check_manifest(data, hooks=hooks(data, ArtFiles(root)))
    cards = piece_count(data)
    if high > cards:
        raise FieldError("players.max", f"{high} players but only {cards} animal cards")
    rules = data["rules"]  # a variant's merged: the loader checks each variant's data too
    if rules["distinct_species"] and rules["mode"] == "junior":
        raise FieldError("rules.distinct_species", "the junior variant deals no cards")
    if rules["distinct_species"] and high > len(data["animals"]):
        raise FieldError(
            "rules.distinct_species",
            f"{high} players but only {len(data['animals'])} species to deal",
        )


def check(data: Data, root: Path) -> None:
    """Cross-field checks: the names the schema's references use (costs, fliers), the map
    (hex and animal named), the cost card, seats, art."""
    SCHEMA.check_references(data)
    _check_board(data)
    size = tuple(data["components"]["cost_card"]["size"])
    resolve_layout(*cost_card_layout(data), "components.cost_card.face", size)  # every copy fits
    check_art_files(root, ((f"animals[{i}].art", a["art"]) for i, a in enumerate(data["animals"])))
    _check_players(data, root)  # the manifest's hooks read the art files
