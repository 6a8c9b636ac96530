"""The types of JSON-shaped data (definitions, rule configs and saves are made of them), and
the one deep copy of such data every module uses."""

from __future__ import annotations

import marshal
from copy import deepcopy
from typing import TypeAlias, TypeVar

#: A JSON value.
Json: TypeAlias = "None | bool | int | float | str | list[Json] | dict[str, Json]"
#: A JSON object: a parsed definition (``game.yaml``), a rule config, a save.
Data: TypeAlias = "dict[str, Json]"

T = TypeVar("T")


def copied(value: T) -> T:
    """A deep copy of JSON-shaped data: marshal's round trip (many times quicker than
    ``copy.deepcopy``; keys keep their order, tuples stay tuples), else ``deepcopy`` for what
    marshal cannot write."""
    try:
        return marshal.loads(marshal.dumps(value))  # type: ignore[no-any-return]
    except ValueError:
        return deepcopy(value)
