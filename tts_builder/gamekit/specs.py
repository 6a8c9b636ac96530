"""Schema pieces more than one game's definition uses."""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import FieldError
from ..json_types import Json
from ..render import validate_layout
from ..save.tables import CUSTOM_IMAGE_TABLES, TABLE_NAMES
from ..schema import Custom, Int, ListOf, Map, Spec

#: A picture's pixel size ``[width, height]``.
SIZE = ListOf(Int(16, 4096), 2, 2)
#: The player counts a by-player-count row applies to.
PLAYER_COUNTS = ListOf(Int(1, 10), 1)
#: Tables a definition may name (custom-image tables would also need a TableURL).
TABLES = tuple(t for t in TABLE_NAMES if t not in CUSTOM_IMAGE_TABLES and t != "Table_None")
_ANY_ELEMENT = Custom(lambda value, path: None)  # elements are checked by validate_layout


def component(*sides: str, optional: frozenset[str] = frozenset()) -> Custom:
    """A component: a pixel size and one layout per side, checked against that size."""
    shape = Map({"size": SIZE, **{side: ListOf(_ANY_ELEMENT, 1) for side in sides}}, optional)

    def check_component(value: Json, path: str) -> None:
        shape.check(value, path)
        for side in sides:
            if side in value:
                validate_layout(value[side], f"{path}.{side}", tuple(value["size"]))

    return Custom(check_component)


def by_player_count(item: Mapping[str, Spec]) -> ListOf:
    """A table of rows ``{players: [counts], ...item}``, each of the definition's player counts
    (``players.min`` to ``players.max``) in exactly one row: checked with the references
    (:func:`tts_builder.schema.player_count_rows`)."""
    return ListOf(Map({"players": PLAYER_COUNTS, **item}), 1, covers="players")


def mapping_of(key: Spec, value: Spec, what: str) -> Custom:
    """A non-empty mapping whose keys fit ``key`` and whose values fit ``value``."""

    def check(data: Json, path: str) -> None:
        if not isinstance(data, dict) or not data:
            raise FieldError(path, f"expected a non-empty mapping of {what}, got {data!r}")
        for k, v in data.items():
            key.check(k, f"{path}.{k}")
            value.check(v, f"{path}.{k}")

    return Custom(check)
