"""The part of Ark & Noah's script context read from its laid table
(tts_builder.games.ark_and_noah.context), here of a small table of its kind: the seats with
the game's fields and their area places, the area, heights, thickness by kind, the
manifest's script names, each track's cells and its seats' places on the first one."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.games.ark_and_noah.areas import seat_area_tracks
from tts_builder.games.ark_and_noah.context import flat_guids, grouped, table_context
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table, script_context
from tts_builder.table.layout import BOARD_TOP

FACE = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#aa8800"}]
SEATS = [
    {"color": "Red", "area": [-10.0, -8.0], "facing": 0},
    {"color": "Blue", "area": [10.0, 8.0], "facing": 180},
    {"color": "Green", "area": [10.0, -8.0], "facing": 0},
]


def definition() -> dict[str, Any]:
    """Two players (of three seats), each with a pawn in their area; a score track with a
    place on its first cell for each of the manifest's seats."""
    return {
        "name": "Pawns",
        "players": {"min": 2, "max": 2},
        "components": {"pawn": {"size": [32, 32], "face": FACE}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": SEATS,
            "area_size": [6.0, 4.0],
            "area_slots": {
                "pawns": {"kind": "pawn", "origin": [-1.0, 0.0], "step": [0.5, 0.0],
                          "per_line": 2, "line": [0.0, 0.5], "lines": 1},
            },  # fmt: skip
            "script": {"guids": {"pawns": {"by_seat": "pawns"}, "track": {"first": "score"}}},
            "pieces": [
                {"id": "score", "kind": "track", "width": 6.0, "at": [0.0, 0.0],
                 "track": {"cells": 5, "cell": 40, "fill": "#eeeeee", "ink": "#111111",
                           "seats": 0.3}},
                {"id": "pawns", "kind": "token", "component": "pawn", "thickness": 0.3,
                 "notes": {"kind": "pawn"}, "at": {"seat_track": "pawns"}},
            ],
        },
    }  # fmt: skip


def test_the_generic_context_of_a_laid_table(tmp_path: Path) -> None:
    data = definition()
    own = ("area_size", "area_slots")  # the game's keys, beside the manifest's
    MANIFEST.check({k: v for k, v in data["table"].items() if k not in own}, "table")
    hooks = TableHooks(tracks=seat_area_tracks(data, {"score"}))  # the seats' area places
    check_manifest(data, hooks=hooks)
    images = ImageSet("context", BuildOptions(out_dir=tmp_path), {})
    art = Art(tmp_path, data["components"], images)
    laid = lay_table(data, art, GuidAllocator("ctx"), hooks=hooks)
    fields = [{"hero": "Ann"}, {"hero": "Bo"}, {"hero": "Cy"}]
    ctx = table_context("pawns", data, laid, fields)
    assert ctx["game"] == {"id": "pawns", "name": "Pawns"}
    assert ctx["players"] == {"min": 2, "max": 2}
    assert ctx["colors"] == ["Red", "Blue"]  # the seats of the most players
    red, blue = ctx["seats"]  # each seat's fields beside its area's own places
    assert red == {**SEATS[0], "hero": "Ann", "upright": 180.0,
                   "axes": {"right": [1.0, 0.0], "forward": [0.0, 1.0]},
                   "places": {"pawns": [[-11.0, -8.0], [-10.5, -8.0]]}}  # fmt: skip
    assert blue["hero"] == "Bo" and blue["upright"] == 0.0
    assert blue["axes"]["right"] == pytest.approx([-1.0, 0.0])  # facing 180: right is -x
    assert blue["places"] == {"pawns": [[11.0, 8.0], [10.5, 8.0]]}
    assert ctx["area"] == {
        "slots": {"pawns": {"origin": (-1.0, 0.0), "step": (0.5, 0.0), "per_line": 2,
                            "line": (0.0, 0.5), "lines": 1, "lift": 0.3}},
        "size": [6.0, 4.0],
    }  # fmt: skip
    assert ctx["y"] == {"table": geo.TABLE_TOP_Y, "board": round(geo.TABLE_TOP_Y + 0.2, 4)}
    assert ctx["y"]["board"] == BOARD_TOP  # a piece on a board of the default thickness
    assert ctx["thickness"] == {"pawn": 0.3}
    assert ctx["guids"]["track"] == laid.guids["score"][0]
    assert ctx["guids"]["pawns"]["Blue"] == [laid.guids["pawns"][1]]
    # five cells 1.2 apart across the 6-wide track at the table's centre
    assert ctx["cells"] == {"score": [[-2.4, 0.0], [-1.2, 0.0], [0.0, 0.0], [1.2, 0.0], [2.4, 0.0]]}
    # the manifest's three seats on the first cell, 0.3 apart
    assert ctx["seat_places"] == {"score": [[-0.15, 0.15], [0.15, 0.15], [-0.15, -0.15]]}


def test_a_group_of_script_names_is_a_table_of_their_guids() -> None:
    """The Ark's own form of a ``script.guids`` entry, ``{group: {name: entry}}`` (its animal
    bags by sex): the manifest reads its entries as ``<group>.group.<name>`` (where a problem
    is reported), the script gets a table of their GUIDs in the group's place."""
    guids = {
        "pawns": {"by_seat": "pawns"},
        "bags": {"group": {"hero": {"first": "heroes"}, "all": ["ghosts", "pawns"]}},
        "round": {"first": "marker"},
    }
    table = {"seats": ["White", "Red"], "script": {"guids": guids}}
    flat = flat_guids(table)["script"]["guids"]
    assert list(flat) == ["pawns", "bags.group.hero", "bags.group.all", "round"]
    laid = {"pawns": ["a1", "b1"], "heroes": ["h1", "h2"], "marker": ["m"]}
    found = grouped(script_context(flat_guids(table), laid))["guids"]
    assert found == {
        "pawns": {"White": ["a1"], "Red": ["b1"]},
        "bags": {"hero": "h1", "all": ["a1", "b1"]},
        "round": "m",
    }
    assert list(found) == ["pawns", "bags", "round"]  # in the group's place


def test_a_groups_unknown_piece_is_reported_at_its_entry() -> None:
    from tts_builder.definition import load_definition
    from tts_builder.errors import FieldError
    from tts_builder.games.ark_and_noah import GAME

    definition = load_definition("ark-and-noah")
    data = copy.deepcopy(definition.data)
    data["table"]["script"]["guids"]["bags"]["group"]["male"] = {"first": "boars"}
    with pytest.raises(FieldError) as err:
        GAME.check(data, definition.root)
    assert err.value.field == "table.script.guids.bags.group.male"
    assert "unknown piece 'boars'" in err.value.detail
