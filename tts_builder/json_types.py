"""The types of JSON-shaped data: definitions, rule configs and saves are made of them."""

from __future__ import annotations

from typing import TypeAlias

#: A JSON value.
Json: TypeAlias = "None | bool | int | float | str | list[Json] | dict[str, Json]"
#: A JSON object: a parsed definition (``game.yaml``), a rule config, a save.
Data: TypeAlias = "dict[str, Json]"
