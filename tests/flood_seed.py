"""The flood race's definition, its rules config and map, and a small map builder, shared by the
rules_ref tests and the Lua rules tests."""

from __future__ import annotations

from pathlib import Path

import yaml

from rules_ref import arche_noah_flood as F

GAME = "arche-noah-flood"
REPO = Path(__file__).resolve().parents[1]
DEFINITION = yaml.safe_load((REPO / f"assets/{GAME}/game.yaml").read_text(encoding="utf-8"))
CONFIG = F.config_from_definition(DEFINITION)
MAP = CONFIG["map"]
ROWS, COLS = len(MAP["terrain"]), len(MAP["terrain"][0])
SPECIES = F.species_names(CONFIG)


def chain(letters: str, river_after: int | None = None, ford: bool = False) -> dict:
    """A one-column map (a chain of hexes going down), the Ark below; optional river edge."""
    edge = [[[river_after, 0], [river_after + 1, 0]]] if river_after is not None else []
    return {
        "terrain": list(letters),
        "rivers": edge,
        "fords": edge if ford else [],
        "stairs": [[len(letters) - 1, 0]],
    }
