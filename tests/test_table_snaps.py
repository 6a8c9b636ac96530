"""The manifest's ``snap_points`` at the game's point sets (``table.snap_points``): tags, a
point's own rotY, the points of each player count (``TableHooks.by_players``), the table laid
with the most players' and the entries left out at a count (``players``)."""

from __future__ import annotations

from typing import Any

import pytest

from tts_builder import geometry as geo
from tts_builder.errors import FieldError
from tts_builder.gamekit.table import lua_snap_points
from tts_builder.plugin import TableHooks
from tts_builder.table import check_manifest, snap_points
from tts_builder.table.layout import spots

TOP = 1.16
#: Edges that turn (a point's 4th value is its rotY), squares that do not; 2 and 3 players
#: have grids of their own, a worker row is the same for both.
HOOKS = TableHooks(
    tracks={"workers": [(5.0, -5.0), (6.0, -5.0)]},
    by_players={
        2: {
            "edges": [(0.0, TOP, 0.5, 0.0), (0.5, TOP, 0.0, 90.0)],
            "squares": [(0.0, TOP, 0.0)],
        },
        3: {
            "edges": [(0.0, TOP, 0.5, 180.0), (0.5, TOP, 0.0, 90.0), (1.5, TOP, 0.0, 270.0)],
            "squares": [(0.0, TOP, 0.0), (1.0, TOP, 0.0)],
        },
    },
)


def definition() -> dict[str, Any]:
    return {
        "players": {"min": 2, "max": 3},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Museum",
            "seats": ["Red", "Blue", "Green"],
            "pieces": [{"id": "marker", "kind": "zone", "size": [1, 1], "at": [9, 9]}],
            "snap_points": [
                {"at": {"track": "edges"}, "tags": ["Divider"]},
                {"at": {"track": "squares"}, "tags": ["Animal", "Food"]},
                {"at": {"track": "workers"}, "tags": ["Worker"], "players": [3]},
                {"at": [7, 7]},
            ],
        },
    }


def _shown(points: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (p["Position"]["x"], p["Position"]["z"], p.get("Rotation", {}).get("y"), p.get("Tags"))
        for p in points
    ]


def test_each_player_count_snaps_at_its_own_points_turned_and_tagged() -> None:
    data = definition()  # snap_points reads the manifest's own points from the definition
    two = snap_points(data, HOOKS, 2)
    assert _shown(two) == [
        (0.0, 0.5, 0.0, ["Divider"]),
        (0.5, 0.0, 90.0, ["Divider"]),
        (0.0, 0.0, None, ["Animal", "Food"]),
        (7.0, 7.0, None, None),  # the workers' entry is for 3 players only
    ]
    assert {p["Position"]["y"] for p in two[:3]} == {TOP}
    assert two[-1]["Position"]["y"] == geo.TABLE_TOP_Y
    three = _shown(snap_points(data, HOOKS, 3))
    assert three[:3] == [(0.0, 0.5, 180.0, ["Divider"]), (0.5, 0.0, 90.0, ["Divider"]),
                         (1.5, 0.0, 270.0, ["Divider"])]  # fmt: skip
    assert three[5:7] == [(5.0, -5.0, None, ["Worker"]), (6.0, -5.0, None, ["Worker"])]
    # the Lua API's form (Global.setSnapPoints): a turned point snaps its piece's rotation too
    lua = lua_snap_points(snap_points(data, HOOKS, 2))
    assert lua[1]["rotation"] == {"x": 0.0, "y": 90.0, "z": 0.0} and lua[1]["rotation_snap"]
    assert "rotation" not in lua[2]


def test_the_table_is_laid_with_the_most_players_points() -> None:
    """The save's snap points are the most players' (the table as built); a piece along a
    track with turned points lies at each point's rotY."""
    from tts_builder.table.assemble import _Layer

    data = definition()
    layer = _Layer(data, "table", None, None, HOOKS)  # type: ignore[arg-type]
    assert len(layer.hooks.tracks["edges"]) == 3
    assert [s.rot_y for s in spots({"track": "edges"}, data["table"], layer.hooks)] == [
        180.0, 90.0, 270.0]  # fmt: skip
    check_manifest(data, hooks=HOOKS)  # a count's own track is a name the manifest may use


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda t: t["snap_points"].append({"at": {"track": "hull"}}),
            "table.snap_points[4].at.track",
            "unknown track 'hull' (tracks: edges, squares, workers)",
        ),
        (
            lambda t: t["snap_points"][2].update(players=[]),
            "table.snap_points[2].players",
            "at least 1",
        ),
    ],
)
def test_bad_snap_points_are_located(change: Any, field: str, message: str) -> None:
    from tts_builder.schema import validate
    from tts_builder.table import MANIFEST

    data = definition()
    change(data["table"])
    with pytest.raises(FieldError) as err:
        validate(MANIFEST, data["table"], "table")
        check_manifest(data, hooks=HOOKS)
    assert err.value.field == field and message in err.value.message, err.value
