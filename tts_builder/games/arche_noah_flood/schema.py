"""The flood race's definition keys (``schema.yaml`` beside this module, in the vocabulary of
:mod:`tts_builder.schema_yaml`), its terrain names and the rule config it shares with
rules_ref."""

from __future__ import annotations

from rules_ref.arche_noah_flood import config_from_definition

from ...json_types import Json
from ...schema_yaml import load_schema
from ...variants import with_variant

SCHEMA = load_schema(__package__)
FIELDS = SCHEMA.fields
OPTIONAL = SCHEMA.optional


def terrains(data: Json) -> list[str]:
    """The terrain names of ``rules.terrain``, each once, in letter order of first use."""
    return list(dict.fromkeys(data["rules"]["terrain"].values()))


def rules_config(data: Json, variant: str | None = None) -> Json:
    """The config shared by rules_ref and the Lua: ``rules`` (the variant's merged in) plus
    ``map`` and the species names. ``mode`` says which rules apply (the rule functions take
    it as their ``"variant"`` input)."""
    return config_from_definition(with_variant(data, variant))
