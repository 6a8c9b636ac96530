"""A manifest piece's ``count`` read from a definition key (``{key: rules.dice.count}``, plus
``add``: tts_builder.table.derived) and a die row's ``step``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from manifest_table import lay as lay_manifest

from tts_builder.errors import FieldError
from tts_builder.table import MANIFEST, check_manifest
from tts_builder.variants import with_variant

TILE = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#aa8800"}]


def definition(**die: Any) -> dict[str, Any]:
    """Two dice as many as ``rules.dice.count`` says (``die``: their piece's other keys) and
    stones one more than ``rules.stones``; a variant rolling three dice."""
    return {
        "players": {"min": 2, "max": 2},
        "rules": {"dice": {"count": 2}, "stones": 4},
        "variants": {"big": {"name": "Big", "rules": {"dice": {"count": 3}}}},
        "components": {
            "die": {"faces": ["1", "2", "3", "4", "5", "6"]},
            "stone": {"size": [32, 32], "face": TILE},
        },
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "anchors": {"dice": [4.0, -2.0], "stones": [-4.0, 0.0]},
            "pieces": [
                {"id": "dice", "kind": "die", "component": "die", "at": {"anchor": "dice"},
                 "count": {"key": "rules.dice.count"}, **die},
                {"id": "stones", "kind": "token", "component": "stone", "at": {"anchor": "stones"},
                 "count": {"key": "rules.stones", "add": 1}},
            ],
        },
    }  # fmt: skip


def lay(data: dict[str, Any], root: Path) -> Any:
    return lay_manifest(data, root, "counts")


def placed(table: Any, piece: str) -> list[tuple[float, float]]:
    """The (x, z) of each object a piece laid."""
    mine = set(table.guids[piece])
    return [
        (o["Transform"]["posX"], o["Transform"]["posZ"]) for o in table.objects if o["GUID"] in mine
    ]


def test_a_count_is_the_number_at_its_key_plus_add(tmp_path: Path) -> None:
    table = lay(definition(), tmp_path)
    assert len(table.guids["dice"]) == 2 and len(table.guids["stones"]) == 5
    big = lay(with_variant(definition(), "big"), tmp_path)  # the variant's number
    assert len(big.guids["dice"]) == 3


def test_dice_lie_in_a_row_along_their_step_else_the_default_row(tmp_path: Path) -> None:
    assert placed(lay(definition(step=[2.0, 0.5]), tmp_path), "dice") == [(4.0, -2.0), (6.0, -1.5)]
    assert placed(lay(definition(), tmp_path), "dice") == [(4.0, -2.0), (5.2, -2.0)]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"key": "rules.dice.sides"}, "table.pieces[0].count.key", "no key 'rules.dice.sides'"),
        ({"key": "rules.dice"}, "table.pieces[0].count.key", "not a whole number"),
        ({"key": "rules.dice.count", "add": -2}, "table.pieces[0].count", "expected 1 to 200"),
    ],
)
def test_a_bad_key_is_refused_at_the_count(change: dict, field: str, message: str) -> None:
    data = definition()
    data["table"]["pieces"][0]["count"] = change
    MANIFEST.check(data["table"], "table")
    with pytest.raises(FieldError, match=message) as err:
        check_manifest(data)
    assert err.value.field == field


def test_a_count_key_is_written_as_a_dotted_key_and_a_step_is_only_a_dies() -> None:
    data = definition()
    data["table"]["pieces"][0]["count"] = {"key": "rules dice"}
    with pytest.raises(FieldError) as err:
        MANIFEST.check(data["table"], "table")
    assert err.value.field == "table.pieces[0].count.key"
    data = definition()
    data["table"]["pieces"][1]["step"] = [1.0, 0.0]
    with pytest.raises(FieldError, match="a token has no 'step'"):
        check_manifest(data)


@pytest.mark.parametrize(
    "workers",
    [
        [{"count": 2}, {"count": "3"}],  # mixed kinds: max() cannot compare them
        [{"count": 2}, {"count": True}],  # true is no number of workers
        [{"count": 2.5}],
    ],
)
def test_most_is_refused_at_the_key_unless_every_entry_s_field_is_a_whole_number(
    workers: list[dict[str, Any]],
) -> None:
    """``{key, most: FIELD}`` over entries whose ``FIELD`` is not always a whole number: one
    located error at the count's key, not a TypeError from comparing them."""
    data = definition()
    data["rules"]["workers"] = workers
    data["table"]["pieces"][0]["count"] = {"key": "rules.workers", "most": "count"}
    MANIFEST.check(data["table"], "table")
    with pytest.raises(FieldError, match=r"'rules\.workers' is not a list of entries") as err:
        check_manifest(data)
    assert err.value.field == "table.pieces[0].count.key"
    assert "whole number 'count'" in str(err.value)
