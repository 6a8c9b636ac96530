"""What a script knows of the objects in roster bags (``tts_builder.table.contents``): each
object's GUID mapped to fields of the roster entry it was drawn from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.plugin import TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import Art, check_manifest, lay_table
from tts_builder.table.contents import bag_entries

GEMS = [{"gem": "ruby", "vp": 3}, {"gem": "opal", "vp": 1}, {"gem": "ruby", "vp": 3}]
HOOKS = TableHooks(rosters={"loot": [{"gem": "jade", "vp": 2}, {"gem": "onyx", "vp": 5}]})


def definition() -> dict[str, Any]:
    face = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#808080"}]
    bag = {"kind": "bag", "component": "gem", "at": [0.0, 0.0]}
    contents = {"notes": {"kind": "gem", "gem": "{gem}"}, "shape": "box", "width": 0.5}
    return {
        "players": {"min": 1, "max": 1},
        "rosters": {"gems": GEMS},
        "components": {"gem": {"size": [32, 32], "face": face}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White"],
            "pieces": [
                {**bag, "id": "gem-bag", "roster": "gems", "contents": contents},
                {**bag, "id": "loot-bag", "roster": "loot", "at": [3.0, 0.0]},
            ],
        },
    }


@pytest.fixture(scope="module")
def laid(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("game")
    images = ImageSet("contents", BuildOptions(out_dir=Path(root)), {})
    data = definition()
    check_manifest(data, hooks=HOOKS)
    art = Art(root, data["components"], images)
    return data, lay_table(data, art, GuidAllocator("contents"), hooks=HOOKS)


def test_every_object_in_the_bags_is_known_by_its_guid(laid: Any) -> None:
    data, table = laid
    rosters = {**data["rosters"], **HOOKS.rosters}
    known = bag_entries(data["table"], table, rosters, ["gem-bag", "loot-bag"], ["gem"])
    inside = table.contents["gem-bag"] + table.contents["loot-bag"]
    assert list(known) == inside  # in the bags' order, then the roster's
    assert [known[g]["gem"] for g in inside] == ["ruby", "opal", "ruby", "jade", "onyx"]
    assert all(set(entry) == {"gem"} for entry in known.values())


def test_each_guid_is_the_object_made_of_that_entry(laid: Any) -> None:
    """The mapping agrees with what the objects themselves carry (their GM notes)."""
    data, table = laid
    known = bag_entries(data["table"], table, data["rosters"], ["gem-bag"], ["gem", "vp"])
    (bag,) = [o for o in table.objects if o["GUID"] in table.guids["gem-bag"]]
    for made in bag["ContainedObjects"]:
        assert json.loads(made["GMNotes"])["gem"] == known[made["GUID"]]["gem"]
    assert [entry["vp"] for entry in known.values()] == [3, 1, 3]
