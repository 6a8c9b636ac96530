"""Reading the definition: the terrain names and the rule config shared with rules_ref."""

from __future__ import annotations

from rules_ref.arche_noah_flood import config_from_definition

from ...json_types import Data
from ...variants import with_variant


def terrains(data: Data) -> list[str]:
    """The terrain names of ``rules.terrain``, each once, in letter order of first use."""
    return list(dict.fromkeys(data["rules"]["terrain"].values()))


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The config shared by rules_ref and the Lua: ``rules`` (the variant's merged in) plus
    ``map`` and the species names. ``mode`` says which rules apply (the rule functions take
    it as their ``"variant"`` input)."""
    return config_from_definition(with_variant(data, variant))


def is_junior(config: Data) -> bool:
    """Whether the junior rules apply (symbol dice, no cards, everybody wins together)."""
    return config["mode"] == "junior"
