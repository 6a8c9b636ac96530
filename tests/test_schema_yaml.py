"""Definition keys declared in YAML (tts_builder.schema_yaml): each type of the vocabulary, its
one-line errors at the field, references between fields, and mistakes in a schema file."""

from __future__ import annotations

from typing import Any

import pytest

from tts_builder.errors import FieldError
from tts_builder.games.arche_noah_flood.schema import SCHEMA as FLOOD
from tts_builder.games.ark_and_noah.schema import SCHEMA as ARK
from tts_builder.schema import Map, validate
from tts_builder.schema_yaml import SchemaError, compile_type, schema_from_text


def error(node: Any, value: Any) -> str:
    """``field: message`` of the value against the type (it must fail)."""
    with pytest.raises(FieldError) as err:
        compile_type(node).check(value, "key")
    return f"{err.value.field}: {err.value.detail}"


def fits(node: Any, value: Any) -> bool:
    try:
        compile_type(node).check(value, "key")
    except FieldError:
        return False
    return True


@pytest.mark.parametrize(
    ("node", "good", "bad", "message"),
    [
        ("int", -3, 1.5, "key: expected an integer, got 1.5"),
        ({"int": [0, 9]}, 9, 10, "key: expected an integer from 0 to 9, got 10"),
        ({"int": {"min": 1}}, 7, 0, "key: expected an integer >= 1, got 0"),
        ({"int": {"max": 5}}, -7, 6, "key: expected an integer <= 5, got 6"),
        ("int", 3, True, "key: expected an integer, got true"),
        ({"number": [0.5, 10.0]}, 2, 0.25, "key: expected a number from 0.5 to 10, got 0.25"),
        ("number", 1e9, float("nan"), "key: expected a finite number, got nan"),
        ("bool", False, 0, "key: expected true or false, got 0"),
        ("color", "#a0b1c2", "red", "key: expected a colour \"#rrggbb\", got 'red'"),
        ("string", "x", " ", "key: expected a non-empty string, got ' '"),
        (
            {"string": {"pattern": "[A-Z]", "hint": "a capital"}},
            "Q",
            "q",
            "key: expected a capital, got 'q'",
        ),
        ({"one_of": ["a", "b"]}, "b", "c", "key: expected one of a, b, got 'c'"),
        ({"one_of": "seat_colors"}, "Red", "Mauve", "key: expected one of White, Brown"),
        ({"point": 3}, [1, 2.5, 3], [1, 2], "key: expected a list of 3 finite numbers"),
        ({"range": "int"}, {"min": 2, "max": 2}, {"min": 3, "max": 2}, "key.max: expected >= "),
        (
            {"range": {"int": [1, 9]}},
            {"min": 1, "max": 9},
            {"min": 0, "max": 2},
            "key.min: expected an integer from 1 to 9",
        ),
        ({"range": "int"}, {"min": 1, "max": 5}, {"min": 1}, "key.max: missing required key"),
        ({"list": "int", "length": 2}, [1, 2], [1], "key: expected at least 2 entries, got 1"),
        (
            {"list": "int", "length": [1, 2]},
            [1],
            [1, 2, 3],
            "key: expected at most 2 entries, got 3",
        ),
        ({"list": "int", "length": [1, None]}, [1] * 50, [], "key: expected at least 1 entries"),
        ({"list": "int"}, [], [1, "x"], "key[1]: expected an integer, got 'x'"),
        (
            {"list": {"map": {"name": "string"}}, "unique": "name", "what": "animal"},
            [{"name": "Ox"}, {"name": "Yak"}],
            [{"name": "Ox"}, {"name": "Yak"}, {"name": "Ox"}],
            "key[2].name: animal 'Ox' listed twice",
        ),
        ({"map": {"a": "int", "b?": "bool"}}, {"a": 1}, {"b": True}, "key.a: missing required key"),
        (
            {"map": {"a": "int"}, "other": "bool"},
            {"a": 1, "z": True},
            {"a": 1, "z": 2},
            "key.z: expected true or false, got 2",
        ),
        ({"map": {"a": "int"}}, {"a": 1}, {"a": 1, "c": 2}, "key.c: unknown key (known keys: a)"),
        (
            {"mapping": {"keys": "string", "values": "int"}, "what": "name -> count"},
            {"x": 1},
            {},
            "key: expected a non-empty mapping of name -> count, got {}",
        ),
        (
            {"mapping": {"keys": "string", "values": "int"}, "special": {"s": "bool"}},
            {"x": 1, "s": True},
            {"s": 1},
            "key.s: expected true or false, got 1",
        ),
        (
            {"int": {"min": 1}, "or": [None]},
            None,
            0,
            "key: expected an integer >= 1 or null, got 0",
        ),
        (
            {"int": [0, 99], "or": ["sun", "water"]},
            "sun",
            "rain",
            "key: expected an integer from 0 to 99, sun or water, got 'rain'",
        ),
        (
            {"int": {"min": 0}, "or": [None, "fords_only"]},
            0,
            "ford",
            "key: expected an integer >= 0, null or fords_only, got 'ford'",
        ),
        (
            {"by_player_count": {"count": "int"}},
            [{"players": [2, 3], "count": 1}],
            [{"players": [], "count": 1}],
            "key[0].players: expected at least 1 entries, got 0",
        ),
        ("size", [400, 560], [8, 560], "key[0]: expected an integer from 16 to 4096, got 8"),
        ("mapping", {}, [], "key: expected a mapping, got list"),
        ("manifest.type", "Table_RPG", "Table_Moon", "key: expected one of "),
    ],
)
def test_each_type_takes_what_fits_and_names_what_does_not(
    node: Any, good: Any, bad: Any, message: str
) -> None:
    assert fits(node, good)
    assert error(node, bad).startswith(message)


def test_a_range_whose_type_allows_other_values_orders_only_numbers() -> None:
    """``{range: T}`` with ``T`` allowing null or a word: ``min`` <= ``max`` is checked only
    when both are numbers (null is open-ended), never a TypeError from comparing them."""
    node = {"range": {"int": {"min": 0}, "or": [None, "all"]}}
    assert fits(node, {"min": None, "max": 3}) and fits(node, {"min": 2, "max": None})
    assert fits(node, {"min": "all", "max": 3}) and fits(node, {"min": 1, "max": 1})
    assert error(node, {"min": 4, "max": 3}) == "key.max: expected >= key.min"
    assert error(node, {"min": None, "max": -1}).startswith("key.max: expected an integer >= 0")


def test_a_component_checks_its_layouts_against_its_size_and_its_extra_keys() -> None:
    node = {"component": ["face"], "extra": {"colors": {"map": {"ink": "color"}}}}
    face = [{"type": "rect", "box": [0, 0, 100, 50], "fill": "#ffffff"}]
    assert fits(node, {"size": [100, 50], "face": face, "colors": {"ink": "#000000"}})
    assert error(node, {"size": [100, 50], "face": face}) == "key.colors: missing required key"
    outside = [{"type": "rect", "box": [0, 0, 300, 50], "fill": "#ffffff"}]
    wrong = error(node, {"size": [100, 50], "face": outside, "colors": {"ink": "#000000"}})
    assert wrong.startswith("key.face[0]")
    assert error({"component": ["face"]}, {"size": [100, 50]}) == "key.face: missing required key"


def test_a_component_s_optional_extra_keys_and_their_references() -> None:
    schema = schema_from_text(
        "places: {mapping: {keys: string, values: string}}\n"
        "card:\n"
        "  component: [face]\n"
        "  extra: {inks?: {mapping: {keys: {ref: places}, values: color}}}\n"
    )
    face = [{"type": "rect", "box": [0, 0, 100, 50], "fill": "#ffffff"}]
    card = {"size": [100, 50], "face": face}
    schema.fields["card"].check(card, "card")  # left out
    data = {"places": {"sea": "blue"}, "card": {**card, "inks": {"sea": "#000000"}}}
    schema.fields["card"].check(data["card"], "card")
    schema.check_references(data)
    data["card"]["inks"] = {"lake": "#000000"}
    with pytest.raises(FieldError) as err:
        schema.check_references(data)
    assert err.value.field == "card.inks.lake" and "'lake' is not one of" in err.value.detail


def test_the_manifest_with_the_game_s_own_keys() -> None:
    spec = compile_type({"manifest": {"board": {"map": {"width": "number"}}, "extra?": "int"}})
    assert isinstance(spec, Map) and {"pieces", "seats", "board", "extra"} <= set(spec.fields)
    assert "extra" in spec.optional and "board" not in spec.optional


SCHEMA = """
players: {list: {map: {name: string}}, length: [1, null]}
rules?:
  map:
    favourite: {ref: "players[].name", what: the players}
    colours:
      mapping:
        keys: {ref: rules.palette, extra: [any], what: the palette, every: "no colour for {}"}
        values: color
    palette: {mapping: {keys: string, values: string}, what: name -> word}
    words: {list: {ref: rules.palette.*, what: the palette's words}}
"""


def data(**rules: Any) -> dict[str, Any]:
    base = {
        "favourite": "Ann",
        "colours": {"red": "#ff0000", "any": "#000000"},
        "palette": {"red": "warm"},
        "words": ["warm"],
    }
    return {"players": [{"name": "Ann"}, {"name": "Bo"}], "rules": {**base, **rules}}


def test_a_schema_text_gives_the_fields_and_which_are_optional() -> None:
    schema = schema_from_text(SCHEMA)
    assert set(schema.fields) == {"players", "rules"} and schema.optional == {"rules"}
    validate(Map(schema.fields, schema.optional), data())
    schema.check_references(data())
    schema.check_references({"players": [{"name": "Ann"}]})  # no rules: nothing to refer
    aside = schema_from_text("a?: {list: string}\nb: {list: {ref: a, what: the a list}}")
    with pytest.raises(FieldError) as err:  # the section referred to is left out: no names
        aside.check_references({"b": ["x"]})
    assert (err.value.field, err.value.detail) == ("b[0]", "'x' is not one of the a list")


def test_a_kind_needs_its_keys_and_a_reference_may_name_several_places() -> None:
    """``needs`` (a map's optional keys required by another key's value) and a ``ref`` to
    several paths (a name found at any: each entry's name or, where it has one, its alias)."""
    schema = schema_from_text(
        "actions:\n"
        "  list:\n"
        "    map: {kind: {one_of: [gain, rest]}, resource?: string, amount?: int}\n"
        "    needs: {kind: {gain: [resource, amount]}}\n"
        "    what: action\n"
        "names: {list: {map: {name: string, alias?: string}}}\n"
        "shown: {list: {ref: ['names[].name', 'names[].alias'], what: the names}}\n"
    )
    spec = Map(schema.fields, schema.optional)
    good = {
        "actions": [{"kind": "rest"}, {"kind": "gain", "resource": "wood", "amount": 2}],
        "names": [{"name": "Lion", "alias": "Lioness"}, {"name": "Dove"}],
        "shown": ["Lioness", "Dove", "Lion"],
    }
    validate(spec, good)
    schema.check_references(good)
    with pytest.raises(FieldError) as err:
        validate(spec, {**good, "actions": [{"kind": "gain", "resource": "wood"}]})
    assert (err.value.field, err.value.detail) == ("actions[0]", "a gain action needs amount")
    with pytest.raises(FieldError) as err:
        schema.check_references({**good, "shown": ["Dove", "Doe"]})
    assert (err.value.field, err.value.detail) == ("shown[1]", "'Doe' is not one of the names")


def test_a_list_holds_at_least_as_many_entries_as_a_number_of_the_definition() -> None:
    schema = schema_from_text("seats: {int: [1, 9]}\ncolours: {list: color, at_least: seats}")
    schema.check_references({"seats": 2, "colours": ["#ff0000", "#00ff00", "#0000ff"]})
    with pytest.raises(FieldError) as err:
        schema.check_references({"seats": 4, "colours": ["#ff0000", "#00ff00", "#0000ff"]})
    assert (err.value.field, err.value.detail) == (
        "colours",
        "expected at least 4 entries (seats), got 3",
    )


def test_a_by_player_count_table_covers_each_player_count_once() -> None:
    schema = schema_from_text("workers: {by_player_count: {count: {int: [1, 9]}}}")
    rows = [{"players": [2], "count": 2}, {"players": [3, 4], "count": 1}]
    schema.check_references({"players": {"min": 2, "max": 4}, "workers": rows})
    schema.check_references({"workers": rows[1:]})  # no player counts: nothing to cover
    for players, table, field, message in (
        ({"min": 2, "max": 5}, rows, "workers", "no entry for 5 players"),
        ({"min": 1, "max": 4}, rows, "workers", "no entry for 1 players"),
        (
            {"min": 2, "max": 4},
            [*rows, {"players": [5, 3], "count": 1}],
            "workers[2].players[1]",
            "3 players listed twice",
        ),
    ):
        with pytest.raises(FieldError) as err:
            schema.check_references({"players": players, "workers": table})
        assert (err.value.field, err.value.detail) == (field, message)


@pytest.mark.parametrize(
    ("rules", "field", "message"),
    [
        ({"favourite": "Cy"}, "rules.favourite", "'Cy' is not one of the players"),
        ({"words": ["warm", "cold"]}, "rules.words[1]", "'cold' is not one of the palette's words"),
        ({"colours": {"any": "#000000"}}, "rules.colours", "no colour for red"),
        (
            {"colours": {"red": "#ff0000", "any": "#000000", "blue": "#0000ff"}},
            "rules.colours.blue",
            "'blue' is not one of the palette",
        ),
    ],
)
def test_references_name_what_the_definition_has(
    rules: dict[str, Any], field: str, message: str
) -> None:
    schema = schema_from_text(SCHEMA)
    validate(Map(schema.fields, schema.optional), data(**rules))  # the shape is fine
    with pytest.raises(FieldError) as err:
        schema.check_references(data(**rules))
    assert (err.value.field, err.value.detail) == (field, message)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: integer", "schema: a: unknown type 'integer'"),
        ("a: {int: [1, 2], list: int}", "schema: a: expected one type key of"),
        ("a: {int: 3}", "schema: a: expected [low, high] or {min: N, max: N}, got 3"),
        ("a: {map: {b: {int: [0, 1], length: 2}}}", "schema: a.map.b: int takes no length"),
        ("a: {list: [int]}", "schema: a.list: expected a type name or mapping, got ['int']"),
        ("- a", "schema: the file: expected a mapping of key -> type"),
    ],
)
def test_a_mistake_in_a_schema_file_says_where(text: str, message: str) -> None:
    with pytest.raises(SchemaError) as err:
        schema_from_text(text)
    assert str(err.value).startswith(message)


def test_the_bundled_engines_declare_their_keys_in_yaml() -> None:
    assert {"rules", "animals", "map", "components", "table"} == set(FLOOD.fields)
    assert {"rules", "species", "boards", "table", "colors"} <= set(ARK.fields)
