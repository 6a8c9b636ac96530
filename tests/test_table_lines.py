"""A manifest's ``lines`` (tts_builder.table.lines): rows of places from a start by a step, as
many as a number or a definition key says; pieces lie at one place (``cell``) or along them,
a line with ``seats`` gives each seat its own first place, and snap points may lie on them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from manifest_table import lay as lay_manifest

from tts_builder import geometry as geo
from tts_builder.errors import FieldError
from tts_builder.plugin import TableHooks
from tts_builder.table import check_manifest, seat_frames, snap_points
from tts_builder.table.layout import BAG_LIFT
from tts_builder.table.lines import line_points, line_positions

TILE = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#887766"}]
GEM = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "{color}"}]


def definition() -> dict[str, Any]:
    """A bag of seeds per seat and a shared bowl in the line ``supply`` (a place per seat and
    one more), an infinite bag per gem value along ``gems`` (as many as the rules' values)."""
    return {
        "players": {"min": 2, "max": 3},
        "rules": {"values": 3},
        "components": {
            "stone": {"size": [32, 32], "face": TILE},
            "gem": {"size": [32, 32], "face": GEM},
        },
        "rosters": {"gems": [{"color": "#aa0000"}, {"color": "#00aa00"}, {"color": "#0000aa"}]},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red", "Blue"],
            "lines": {
                "supply": {"start": [10.0, 4.0], "step": [0.0, -2.5],
                           "count": {"key": "players.max", "add": 1}, "seats": True},
                "gems": {"start": [-6.0, 0.0], "step": [1.5, 0.0],
                         "count": {"key": "rules.values"}},
            },
            "pieces": [
                {"id": "seeds", "kind": "bag", "component": "stone", "count": 5,
                 "name": "{seat} seeds", "at": {"seat_track": "supply"}},
                {"id": "bowl", "kind": "bag", "component": "stone", "count": 9,
                 "at": {"track": "supply", "cell": 3}},
                {"id": "gem-bags", "kind": "infinite_bag", "component": "gem", "roster": "gems",
                 "at": {"track": "gems"}},
            ],
        },
    }  # fmt: skip


def lay(data: dict[str, Any], root: Path) -> Any:
    return lay_manifest(data, root, "lines")


def places(table: Any, piece: str) -> list[tuple[float, float]]:
    by_guid = {o["GUID"]: o["Transform"] for o in table.objects}
    return [(by_guid[g]["posX"], by_guid[g]["posZ"]) for g in table.guids[piece]]


def test_pieces_lie_at_a_line_s_places_in_order(tmp_path: Path) -> None:
    table = lay(definition(), tmp_path)
    supply = [(10.0, 4.0), (10.0, 1.5), (10.0, -1.0), (10.0, -3.5)]
    assert places(table, "seeds") == supply[:3]  # each seat's own place, in seat order
    assert places(table, "bowl") == supply[3:]
    assert places(table, "gem-bags") == [(-6.0, 0.0), (-4.5, 0.0), (-3.0, 0.0)]
    bags = [o for o in table.objects if o["GUID"] in table.guids["seeds"]]
    assert [b["Nickname"] for b in bags] == ["White seeds", "Red seeds", "Blue seeds"]
    assert {b["Transform"]["posY"] for b in bags} == {round(geo.TABLE_TOP_Y + BAG_LIFT, 4)}
    # read by its seat: each seat's bag turned as that seat's pieces are
    frames = seat_frames(definition()["table"])
    assert [b["Transform"]["rotY"] for b in bags] == [f.reader_rot_y for f in frames]
    # the script finds the lines with the table's other tracks
    assert table.context["tracks"]["supply"] == supply
    assert table.context["tracks"]["supply:Red"] == [supply[1]]


def test_a_line_counts_from_the_definition() -> None:
    data = definition()
    data["rules"]["values"] = 2
    spec = data["table"]["lines"]["gems"]
    assert line_points(spec, data, "table.lines.gems") == [(-6.0, 0.0), (-4.5, 0.0)]
    with pytest.raises(FieldError, match=r"table\.pieces\[2\]\.at\.track: 3 objects but"):
        check_manifest(data)  # three gem bags, two places
    data["rules"] = {}
    with pytest.raises(FieldError, match=r"table\.lines\.gems\.count\.key: .*no key"):
        check_manifest(data)


def test_a_line_is_named_once_among_the_tracks() -> None:
    data = definition()
    hooks = TableHooks(tracks={"gems": [(0.0, 0.0)]})
    with pytest.raises(FieldError, match=r"table\.lines\.gems: 'gems' is a track already"):
        check_manifest(data, hooks=hooks)
    data["table"]["pieces"][1]["at"] = {"track": "supply", "cell": 4}
    with pytest.raises(FieldError, match=r"table\.pieces\[1\]\.at\.cell: track 'supply' has 4"):
        check_manifest(data)
    data["table"]["lines"]["supply"]["seats"] = False
    data["table"]["pieces"][1]["at"] = {"track": "supply", "cell": 3}
    with pytest.raises(FieldError, match=r"table\.pieces\[0\]\.at\.seat_track: unknown"):
        check_manifest(data)  # a line without seats gives no seat its own place


def test_a_seated_line_shorter_than_the_seats_is_refused_at_its_count() -> None:
    """A line with ``seats`` gives every seat its own first place: two places for three seats
    is one error at the line's ``count``, not an unknown seat track at a piece."""
    data = definition()
    data["table"]["lines"]["supply"]["count"] = 2
    data["table"]["pieces"][1]["at"] = {"track": "supply", "cell": 1}
    with pytest.raises(FieldError) as err:
        check_manifest(data)
    assert (err.value.field, err.value.detail) == (
        "table.lines.supply.count",
        "2 places for 3 seats (a line with seats has a place per seat)",
    )
    data["table"]["lines"]["supply"]["count"] = 3  # as many places as seats: each its own
    check_manifest(data)


def test_snap_points_may_lie_on_a_line() -> None:
    data = definition()
    data["table"]["snap_points"] = [{"at": {"track": "gems"}, "tags": ["Gem"]}]
    found = snap_points(data, TableHooks(), 3)
    assert [(p["Position"]["x"], p["Position"]["z"]) for p in found] == [
        (-6.0, 0.0),
        (-4.5, 0.0),
        (-3.0, 0.0),
    ]


def test_a_script_s_own_places_on_a_line_are_checked_positions() -> None:
    data = definition()
    found = line_positions(data, "gems", "gem", (1.0, 1.0), "gem")
    assert [p.label for p in found] == ["gem 1", "gem 2", "gem 3"]
    assert [p.at for p in found] == [(x, geo.TABLE_TOP_Y, z) for x, z in [(-6.0, 0.0), (-4.5, 0.0),
                                                                          (-3.0, 0.0)]]  # fmt: skip
    assert {(p.size, p.kind) for p in found} == {((1.0, 1.0), "gem")}
