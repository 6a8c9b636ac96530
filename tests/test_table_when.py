"""A manifest piece's ``when`` (tts_builder.table.derived): the piece is laid only while a
definition key holds a value (``is``), or does not (``not``), or one of several such holds
(``any``); a piece left off is not on the table, so no setup step may deal it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from manifest_table import lay as lay_manifest

from tts_builder.errors import FieldError
from tts_builder.table import MANIFEST, check_manifest
from tts_builder.table.derived import holds, left_off
from tts_builder.variants import with_variant

TILE = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#aa8800"}]
JUNIOR = {"key": "rules.mode", "is": "junior"}
NOT_JUNIOR = {"key": "rules.mode", "not": "junior"}
ROLLS = {"key": "rules.junior.rolls", "not": 0}


def definition() -> dict[str, Any]:
    """A bag of stones in the standard game, pebbles in the junior one, and a die unless the junior
    game rolls none; a variant that is the junior game."""
    return {
        "players": {"min": 2, "max": 2},
        "rules": {"mode": "standard", "junior": {"rolls": 0}},
        "variants": {"junior": {"name": "Junior", "rules": {"mode": "junior"}}},
        "components": {
            "die": {"faces": ["1", "2", "3", "4", "5", "6"]},
            "stone": {"size": [32, 32], "face": TILE},
        },
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "pieces": [
                {"id": "stones", "kind": "infinite_bag", "component": "stone", "at": [-4.0, 0.0],
                 "when": NOT_JUNIOR},
                {"id": "pebbles", "kind": "token", "component": "stone", "at": [4.0, 0.0],
                 "count": 2, "when": JUNIOR},
                {"id": "die", "kind": "die", "component": "die", "at": [0.0, 4.0],
                 "when": {"any": [NOT_JUNIOR, ROLLS]}},
                {"id": "bowl", "kind": "token", "component": "stone", "at": [0.0, -4.0]},
            ],
        },
    }  # fmt: skip


def lay(data: dict[str, Any], root: Path) -> Any:
    return lay_manifest(data, root, "when")


def test_a_piece_is_laid_only_while_its_condition_holds(tmp_path: Path) -> None:
    standard = lay(definition(), tmp_path)
    assert sorted(standard.guids) == ["bowl", "die", "stones"]
    assert len(standard.guids["stones"]) == 1 and len(standard.guids["die"]) == 1
    junior = with_variant(definition(), "junior")
    assert sorted(lay(junior, tmp_path).guids) == ["bowl", "pebbles"]
    junior["rules"]["junior"]["rolls"] = 2  # one of the die's conditions holds again
    assert sorted(lay(junior, tmp_path).guids) == ["bowl", "die", "pebbles"]


def test_a_value_matches_only_its_own_kind() -> None:
    data = {"rules": {"rolls": 0, "on": False, "name": "1"}}
    assert holds({"key": "rules.rolls", "is": 0}, data, "when")
    assert not holds({"key": "rules.on", "is": 0}, data, "when")  # false is not 0
    assert not holds({"key": "rules.name", "is": 1}, data, "when")
    assert holds({"key": "rules.on", "not": 0}, data, "when")
    assert not holds({"any": [{"key": "rules.on", "is": True}]}, data, "when")


def test_a_piece_left_off_cannot_be_dealt() -> None:
    data = definition()
    data["table"]["setup"] = [{"deal": "stones", "count": 1, "to": {"seat": [0.0, 5.0]}}]
    MANIFEST.check(data["table"], "table")
    check_manifest(data)  # the standard game has the bag
    data = with_variant(data, "junior")
    with pytest.raises(FieldError, match="'stones' is not on the table") as err:
        check_manifest(data)
    assert err.value.field == "table.setup[0].deal"


@pytest.mark.parametrize(
    ("when", "field", "message"),
    [
        ({"key": "rules.level", "is": 1}, "table.pieces[0].when.key", "no key 'rules.level'"),
        ({"any": [JUNIOR, {"key": "rules.x", "not": 1}]}, "table.pieces[0].when.any[1].key",
         "no key 'rules.x'"),
        ({"any": [NOT_JUNIOR, {"key": "rules.x", "not": 1}]}, "table.pieces[0].when.any[1].key",
         "no key 'rules.x'"),  # read though the first holds
    ],
)  # fmt: skip
def test_a_missing_key_is_refused_at_the_condition(when: dict, field: str, message: str) -> None:
    data = definition()
    data["table"]["pieces"][0]["when"] = when
    MANIFEST.check(data["table"], "table")
    with pytest.raises(FieldError, match=message) as err:
        left_off(data)
    assert err.value.field == field
    with pytest.raises(FieldError, match=message):
        check_manifest(data)


@pytest.mark.parametrize(
    ("when", "field"),
    [
        ({"key": "rules.mode"}, "table.pieces[0].when.is"),
        ({"key": "rules.mode", "is": "a", "not": "b"}, "table.pieces[0].when.is"),
        ({"key": "rules mode", "is": "a"}, "table.pieces[0].when.key"),
        ({"key": "rules.mode", "is": ["a"]}, "table.pieces[0].when.is"),
        ({"any": []}, "table.pieces[0].when.any"),
        ({"any": [{"key": "rules.mode", "is": "a"}, "junior"]}, "table.pieces[0].when.any[1]"),
    ],
)
def test_a_malformed_condition_is_located(when: Any, field: str) -> None:
    data = definition()
    data["table"]["pieces"][0]["when"] = when
    with pytest.raises(FieldError) as err:
        MANIFEST.check(data["table"], "table")
    assert err.value.field == field
