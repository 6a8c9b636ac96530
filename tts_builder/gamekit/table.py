"""Table points, the seats' hand zones and snap points in the Lua API's form, as more than one game
lays them out (or any game may)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..json_types import Data, Json
from ..save import GuidAllocator
from ..save import objects as obj
from ..save.tables import HAND_PLACEMENTS, HandPlacement


def xyz(point: Sequence[float], y: float) -> list[float]:
    """A table point ``[x, z]`` lifted to height ``y``: ``[x, y, z]``."""
    return [float(point[0]), y, float(point[1])]


def rounded(values: Json) -> Json:
    """Floats (also inside lists) rounded to 4 places, as table positions go to a script."""
    if isinstance(values, float):
        return round(values, 4)
    if isinstance(values, list | tuple):
        return [rounded(v) for v in values]
    return values


def hand_placement(table_type: str, colour: str) -> HandPlacement | None:
    """The table's default hand zone (position, rotation, scale) of a seat colour (FORMAT
    §5.2); None where the defaults are unknown (the geometry check then reports the seat)."""
    return HAND_PLACEMENTS.get(table_type, {}).get(colour)


def hand_zone(guids: GuidAllocator, table_type: str, colour: str) -> Data | None:
    """The seat's hand zone at the table's default place (GUID key ``hand:<colour>``), or None
    where the table's defaults are unknown."""
    placement = hand_placement(table_type, colour)
    if placement is None:
        return None
    return obj.hand_trigger(guids.guid(f"hand:{colour}"), colour, obj.transform(*placement))


def hand_zones(guids: GuidAllocator, table_type: str, colours: Iterable[str]) -> list[Data]:
    """The hand zones of ``colours`` (in that order) the table places."""
    return [zone for c in colours if (zone := hand_zone(guids, table_type, c)) is not None]


def lua_snap_points(snaps: list[Data]) -> list[Data]:
    """Save-form snap points ({Position, Rotation, Tags}) in the form ``setSnapPoints`` takes
    ({position, rotation, rotation_snap, tags}: the Lua API's keys are lower case)."""
    return [
        {"position": p["Position"], "tags": p.get("Tags", [])}
        | ({"rotation": p["Rotation"], "rotation_snap": True} if "Rotation" in p else {})
        for p in snaps
    ]
