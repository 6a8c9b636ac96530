"""Ark & Noah definition keys: the rule numbers' shape, the variants, art, boards and table
(``schema.yaml`` beside this module, in the vocabulary of :mod:`tts_builder.schema_yaml`; the
Ark's grid, ``table.grids``, is :mod:`.grid`'s spec)."""

from __future__ import annotations

from dataclasses import replace

from ...schema import Map
from ...schema_yaml import load_schema
from .grid import GRID

SCHEMA = load_schema(__package__)
_TABLE: Map = SCHEMA.fields["table"]  # type: ignore[assignment]
#: The table's ``grids``: the Ark, ``ark`` (the name the game's code reads), as :mod:`.grid`
#: says (a spec of Python: counts read from definition keys, layout elements at frames).
GRIDS = Map({"ark": GRID})
#: The definition keys: the schema file's, with the table's ``grids``.
FIELDS = {**SCHEMA.fields, "table": replace(_TABLE, fields={**_TABLE.fields, "grids": GRIDS})}
OPTIONAL = SCHEMA.optional
