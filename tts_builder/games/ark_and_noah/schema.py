"""Ark & Noah definition keys: the rule numbers' shape, the variants, art, boards and table
(``schema.yaml`` beside this module, in the vocabulary of :mod:`tts_builder.schema_yaml`)."""

from __future__ import annotations

from ...schema_yaml import load_schema

SCHEMA = load_schema(__package__)
FIELDS = SCHEMA.fields
OPTIONAL = SCHEMA.optional
