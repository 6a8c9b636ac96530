"""Schema pieces more than one game's definition uses."""

from __future__ import annotations

from collections.abc import Mapping

from ..json_types import Json
from ..render import validate_layout
from ..save.tables import CUSTOM_IMAGE_TABLES, TABLE_NAMES
from ..schema import Custom, Int, ListOf, Map, MappingOf, Spec

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


#: A non-empty mapping of keys fitting one spec to values fitting another
#: (:class:`~tts_builder.schema.MappingOf`, every problem at once): the name it had as a
#: function, for the callers that still use it.
mapping_of = MappingOf
