"""A manifest's ``rosters`` made from a list of the definition (tts_builder.table.derived):
each item ``times`` times in a row (a number or a definition key), with ``fields`` added."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.save import GuidAllocator
from tts_builder.table import MANIFEST, Art, check_manifest, lay_table
from tts_builder.table.schema import rosters_of

FACE = [
    {"type": "rect", "box": [0, 0, 40, 56], "fill": "{color}"},
    {"type": "text", "text": "{name}", "box": [0, 0, 40, 56], "size": 10},
]
BACK = [{"type": "rect", "box": [0, 0, 40, 56], "fill": "#000000"}]
BEASTS = [{"name": "Lion", "color": "#aa8800"}, {"name": "Seal", "color": "#224466"}]


def definition(**roster: Any) -> dict[str, Any]:
    """Beasts as a list of the definition; the manifest's roster ``pairs`` (``roster``: its
    keys) lays them as cards and tokens."""
    spec = {"from": "beasts", "times": {"key": "rules.per_beast"},
            "fields": {"beast": "{name}", "label": "the {name}"}, **roster}  # fmt: skip
    return {
        "players": {"min": 2, "max": 2},
        "rules": {"per_beast": 2},
        "beasts": BEASTS,
        "components": {"beast": {"size": [40, 56], "face": FACE, "back": BACK}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "rosters": {"pairs": spec},
            "pieces": [
                {"id": "cards", "kind": "deck", "component": "beast", "roster": "pairs",
                 "at": [0, 0]},
                {"id": "tokens", "kind": "token", "component": "beast", "roster": "pairs",
                 "at": [4, 0]},
            ],
        },
    }  # fmt: skip


def test_each_item_times_in_a_row_with_the_fields_added() -> None:
    data = definition()
    MANIFEST.check(data["table"], "table")
    pairs = rosters_of(data)["pairs"]
    lion = {"beast": "Lion", "label": "the Lion", **BEASTS[0]}
    seal = {"beast": "Seal", "label": "the Seal", **BEASTS[1]}
    assert pairs == [lion, lion, seal, seal]
    assert list(pairs[0]) == ["beast", "label", "name", "color"]  # the fields first
    assert rosters_of(definition(times=1))["pairs"] == [lion, seal]
    assert rosters_of(definition(fields={"n": "{name}"}, times=3))["pairs"][2]["n"] == "Lion"


def test_pieces_lay_the_roster_like_any_other(tmp_path: Path) -> None:
    data = definition()
    check_manifest(data)
    images = ImageSet("rosters", BuildOptions(out_dir=tmp_path), {})
    table = lay_table(data, Art(tmp_path, data["components"], images), GuidAllocator("r"))
    by_guid = {o["GUID"]: o for o in table.objects}
    (deck,) = (by_guid[g] for g in table.guids["cards"])
    notes = [json.loads(card["GMNotes"]) for card in deck["ContainedObjects"]]
    assert [n["beast"] for n in notes] == ["Lion", "Lion", "Seal", "Seal"]
    tokens = [by_guid[g] for g in table.guids["tokens"]]
    assert [t["Nickname"] for t in tokens] == ["Lion", "Lion", "Seal", "Seal"]
    assert json.loads(tokens[3]["GMNotes"]) == {**rosters_of(data)["pairs"][3], "piece": 3}


@pytest.mark.parametrize(
    ("roster", "field", "message"),
    [
        ({"from": "rules"}, "table.rosters.pairs.from", "not a list of mappings"),
        ({"from": "animals"}, "table.rosters.pairs.from", "no key 'animals'"),
        ({"times": {"key": "rules.none"}}, "table.rosters.pairs.times.key", "no key"),
        ({"times": {"key": "rules.per_beast", "add": 30}}, "table.rosters.pairs.times", "1 to 20"),
        ({"fields": {"name": "x"}}, "table.rosters.pairs.fields.name", "item 0 has 'name'"),
    ],
)
def test_a_bad_roster_is_refused_where_it_is_written(
    roster: dict, field: str, message: str
) -> None:
    data = definition(**roster)
    MANIFEST.check(data["table"], "table")
    with pytest.raises(FieldError, match=message) as err:
        check_manifest(data)
    assert err.value.field == field


def test_a_roster_name_the_definition_lists_already_is_refused() -> None:
    data = {**definition(), "rosters": {"pairs": BEASTS}}
    with pytest.raises(FieldError, match="listed already") as err:
        check_manifest(data)
    assert err.value.field == "table.rosters.pairs"


def test_the_manifest_spec_checks_a_roster_entry() -> None:
    data = definition(times=0)
    with pytest.raises(FieldError) as err:
        MANIFEST.check(data["table"], "table")
    assert err.value.field == "table.rosters.pairs.times"


def test_numbered_rosters() -> None:
    """``{count: N, number: FIELD}``: N entries numbered from 1 (empty without ``number``)."""
    data = definition()
    data["rules"]["values"] = 3
    data["table"]["rosters"] |= {
        "values": {"count": {"key": "rules.values"}, "number": "value"},
        "blank": {"count": 2},
    }
    MANIFEST.check(data["table"], "table")
    made = rosters_of(data)
    assert made["values"] == [{"value": 1}, {"value": 2}, {"value": 3}]
    assert made["blank"] == [{}, {}]
    check_manifest(data)


@pytest.mark.parametrize(
    ("roster", "field", "message"),
    [
        ({"count": {"key": "rules.none"}}, "table.rosters.made.count.key", "no key"),
        ({"count": {"key": "beasts", "length": True}, "number": "n"}, None, None),
        ({"count": {"key": "rules.per_beast", "length": True}}, "table.rosters.made.count.key",
         "is not a list"),
    ],
)  # fmt: skip
def test_a_bad_numbered_roster_is_refused_where_it_is_written(
    roster: dict, field: str | None, message: str | None
) -> None:
    data = definition()
    data["table"]["rosters"]["made"] = roster
    MANIFEST.check(data["table"], "table")
    if field is None:  # a list's length counts: one entry per beast
        assert rosters_of(data)["made"] == [{"n": 1}, {"n": 2}]
        return
    with pytest.raises(FieldError, match=message) as err:
        check_manifest(data)
    assert err.value.field == field
