"""Builders, GUIDs and the save file: shapes, key order against real saves, bytes, errors."""

from __future__ import annotations

import json
import math
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tts_builder.errors import BuildError
from tts_builder.save import (
    CARD_GREY,
    D6_ROTATIONS,
    D10_ROTATIONS,
    GuidAllocator,
    bag,
    card,
    card_id,
    check_bytes,
    check_save,
    custom_board,
    custom_deck_entry,
    custom_dice,
    custom_tile,
    custom_token,
    deck,
    default_hand_triggers,
    dumps,
    game_object,
    hand_trigger,
    infinite_bag,
    loads,
    new_save,
    scripting_trigger,
    snap_point,
    tab_state,
    transform,
)
from tts_builder.save.guids import derive_guid
from tts_builder.save.objects import OBJECT_KEY_ORDER, color
from tts_builder.save.savefile import TOP_LEVEL_DEFAULTS, component_tags
from tts_builder.save.tables import PLAYER_COLORS, RPG_HAND_PLACEMENTS, SEAT_COLORS

SAVES = Path(__file__).resolve().parent / "fixtures" / "real_saves"
HEX6 = re.compile(r"[0-9a-f]{6}")
FACE, BACK = "https://example.org/face.png", "https://example.org/back.png"


@cache
def real(name: str) -> dict:
    return json.loads((SAVES / name).read_text(encoding="utf-8"))


def ark() -> list[dict]:
    return real("cpero__TTS_Ark_Nova__TS_Save_1.json")["ObjectStates"]


def merchantalismo() -> dict:
    return real("pparocza__Merchantalismo__TS_Save_2.json")


def lazzz() -> list[dict]:
    return real("LazzzzyKitty__Table-Top-Games__TS_Save_10.json")["ObjectStates"]


def first(objects: list[dict], name: str, inside: str | None = None) -> dict:
    """The first object called ``name`` (at the top, or in the first ``inside`` holding one)."""
    for obj in objects:
        if inside is None and obj["Name"] == name:
            return obj
        for child in obj.get("ContainedObjects") or []:
            if child["Name"] == name and inside in (None, obj["Name"]):
                return child
    raise LookupError(f"no {name} in the fixture")


def sheet(w: int = 3, h: int = 2) -> dict:
    return custom_deck_entry(FACE, BACK, w, h)


def sample_cards(n: int = 3, deck_id: int = 1) -> list[dict]:
    entry = sheet()
    return [card(f"c0000{i}", card_id(deck_id, i), entry, nickname=f"C{i}") for i in range(n)]


# --- GUIDs --------------------------------------------------------------------------------------


def test_guid_is_stable_six_hex_and_cached():
    a, b = GuidAllocator("game"), GuidAllocator("game")
    assert a.guid("deck") == b.guid("deck") == derive_guid("game", "deck")
    assert HEX6.fullmatch(a.guid("deck"))
    assert a.guid("deck") == a.guid("deck")
    assert GuidAllocator("other").guid("deck") != a.guid("deck")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=12), unique=True, max_size=200))
def test_guids_unique_and_reproducible(keys):
    first, second = GuidAllocator("ns"), GuidAllocator("ns")
    guids = [first.guid(k) for k in keys]
    assert guids == [second.guid(k) for k in keys]
    assert len(set(guids)) == len(keys)
    assert all(HEX6.fullmatch(g) for g in guids)
    assert list(first.assigned.items()) == list(zip(keys, guids, strict=True))


def _colliding_keys(namespace: str) -> tuple[str, str]:
    seen: dict[str, str] = {}
    for i in range(100_000):
        key = f"k{i}"
        g = derive_guid(namespace, key)
        if g in seen:
            return seen[g], key
        seen[g] = key
    raise AssertionError("no collision found")


def test_collision_is_resolved_by_rehash_with_counter():
    first, second = _colliding_keys("ns")
    alloc = GuidAllocator("ns")
    g1, g2 = alloc.guid(first), alloc.guid(second)
    assert g1 == derive_guid("ns", first)
    assert g2 != g1 and g2 == derive_guid("ns", second, 1)
    # In the other order the other key wins the first candidate: order is part of the input.
    swapped = GuidAllocator("ns")
    assert swapped.guid(second) == g1


def test_many_keys_stay_unique_and_reserved_guids_are_avoided():
    alloc = GuidAllocator("bulk", reserved={derive_guid("bulk", "k0")})
    guids = [alloc.guid(f"k{i}") for i in range(6000)]
    assert len(set(guids)) == 6000
    assert guids[0] == derive_guid("bulk", "k0", 1)
    with pytest.raises(TypeError):
        alloc.assigned["x"] = "000000"  # type: ignore[index]


# --- small values -------------------------------------------------------------------------------


def test_transform_writes_floats_in_tts_order():
    t = transform((1, 2, 3), (0, 180, 180), (2, 1, 2))
    assert list(t) == ["posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"]
    assert all(type(v) is float for v in t.values())
    assert t["rotY"] == 180.0 and t["scaleX"] == 2.0
    with pytest.raises(ValueError, match="nonzero"):
        transform((0, 0, 0), scale=(1, 0, 1))


def test_color_floats_and_range():
    assert color((1, 0, 0)) == {"r": 1.0, "g": 0.0, "b": 0.0}
    assert all(type(v) is float for v in color((1, 0, 0, 0)).values())
    with pytest.raises(ValueError):
        color((1.2, 0, 0))
    with pytest.raises(ValueError):
        color((1, 0))


def test_snap_point_optional_fields():
    assert snap_point((1, 2, 3)) == {"Position": {"x": 1.0, "y": 2.0, "z": 3.0}}
    p = snap_point((0, 1, 0), rot=(0, 90, 0), tags=["slot"])
    assert list(p) == ["Position", "Rotation", "Tags"] and p["Tags"] == ["slot"]


def test_game_object_has_all_common_fields_and_rejects_unknown_keys():
    obj = game_object("BlockSquare", "abc123", transform((0, 1, 0)))
    assert list(obj) == [k for k in OBJECT_KEY_ORDER if k in obj]
    assert "Tags" not in obj and obj["Grid"] is True and obj["Locked"] is False
    with pytest.raises(ValueError, match="unknown object field"):
        game_object("BlockSquare", "abc123", fields={"Bogus": 1})
    with pytest.raises(ValueError, match="GUID"):
        game_object("BlockSquare", "ABC123")


# --- key order matches what TTS wrote -----------------------------------------------------------


def _key_tree(value):
    if isinstance(value, dict):
        return [(k, _key_tree(v)) for k, v in value.items() if k not in ("CustomDeck",)]
    return None


def _built_and_real():
    c1 = card("aaaaaa", 2001, sheet(10, 7), tags=["card"])
    c2 = card("aaaaab", 2002, sheet(10, 7), tags=["card"])
    one = custom_deck_entry(FACE, BACK, 1, 1)
    return {
        "Card": (first(ark(), "Card", inside="Deck"), c1),
        "Deck": (first(ark(), "Deck"), deck("aaaaac", [c1, c2], name="Deck", tags=["card"])),
        "CardCustom": (
            first(ark(), "CardCustom"),
            card("aaaaad", 2200, one, name="CardCustom", tags=["x"]),
        ),
        "Custom_Token": (first(ark(), "Custom_Token"), custom_token("aaaaae", FACE)),
        "Custom_Tile": (first(ark(), "Custom_Tile"), custom_tile("aaaaaf", FACE)),
        "ScriptingTrigger": (
            first(ark(), "ScriptingTrigger"),
            scripting_trigger("aaaab0", transform((0, 0, 0))),
        ),
        "HandTrigger": (
            first(merchantalismo()["ObjectStates"], "HandTrigger"),
            hand_trigger("aaaab1", "Red", c1["Transform"]),
        ),
        "Bag": (first(lazzz(), "Bag"), bag("aaaab2", [c1])),
        "Custom_Dice": (
            first(lazzz(), "Custom_Dice", inside="Bag"),
            custom_dice("aaaab3", FACE, D10_ROTATIONS, die_type=3),
        ),
    }  # fmt: skip


BUILT_NAMES = (
    "Card", "Deck", "CardCustom", "Custom_Token", "Custom_Tile", "ScriptingTrigger", "HandTrigger",
    "Bag", "Custom_Dice",
)  # fmt: skip


@pytest.mark.parametrize("name", BUILT_NAMES)
def test_builder_key_order_matches_real_v13_object(name):
    real_obj, built = _built_and_real()[name]
    assert real_obj["Name"] == built["Name"] == name
    assert _key_tree(built) == _key_tree(real_obj)


def test_top_level_key_order_follows_real_v13_saves():
    order = list(TOP_LEVEL_DEFAULTS)
    for path in sorted(SAVES.glob("*.json")):
        save = real(path.name)
        if not str(save.get("VersionNumber", "")).startswith("v13"):
            continue
        keys = [k for k in save if k in order and k != "Rules"]
        assert keys == sorted(keys, key=order.index), path.name


# --- cards and decks ----------------------------------------------------------------------------


def test_card_shape():
    c = card("abcdef", 205, sheet(), nickname="Lion", description="3", tags=["Animal"])
    assert c["Name"] == "Card" and c["CardID"] == 205
    assert c["CustomDeck"] == {"2": sheet()}
    assert c["HideWhenFaceDown"] is True and c["Hands"] is True
    assert c["ColorDiffuse"] == dict(zip("rgb", CARD_GREY, strict=True))
    assert (c["Transform"]["rotY"], c["Transform"]["rotZ"]) == (180.0, 180.0)
    assert c["Tags"] == ["Animal"] and c["Nickname"] == "Lion"


@pytest.mark.parametrize("bad_id", [6, 99, 106, 150])
def test_card_rejects_ids_off_the_sheet(bad_id):
    with pytest.raises(ValueError, match="sheet"):
        card("abcdef", bad_id, sheet())  # 3x2 sheet: slots 0..5, deck id >= 1


def test_card_id_and_sheet_limits():
    assert card_id(20, 1) == 2001 and card_id(578, 0) == 57800
    with pytest.raises(ValueError):
        card_id(1, 100)
    for w, h in ((11, 1), (1, 8), (0, 3)):
        with pytest.raises(ValueError, match="at most 10x7"):
            custom_deck_entry(FACE, BACK, w, h)
    with pytest.raises(ValueError):
        custom_deck_entry(FACE, BACK, 2, 2, card_type=5)


def test_deck_merges_sheets_and_lists_card_ids_in_order():
    a = sample_cards(2, deck_id=1)
    b = [card("d00001", 301, custom_deck_entry(FACE, "https://example.org/b2.png", 2, 2))]
    d = deck("dddddd", [b[0], *a], nickname="Animals", tags=["Deck"])
    assert d["Name"] == "DeckCustom"
    assert d["DeckIDs"] == [301, 100, 101] == [c["CardID"] for c in d["ContainedObjects"]]
    assert list(d["CustomDeck"]) == ["3", "1"]
    assert d["HideWhenFaceDown"] is True and d["Hands"] is False


def test_deck_copies_its_cards():
    cards = sample_cards(2)
    d = deck("dddddd", cards)
    cards[0]["Nickname"] = "changed"
    assert d["ContainedObjects"][0]["Nickname"] == "C0"


def test_deck_needs_two_cards_and_consistent_sheets():
    with pytest.raises(ValueError, match="at least 2"):
        deck("dddddd", sample_cards(1))
    a = card("a00001", 100, sheet())
    b = card("a00002", 101, custom_deck_entry(FACE, BACK, 5, 5))
    with pytest.raises(ValueError, match="disagree"):
        deck("dddddd", [a, b])


# --- other builders -----------------------------------------------------------------------------


def test_custom_dice_nests_type_in_custom_image_with_string_values():
    die = custom_dice("d6d6d6", FACE)
    assert "CustomDice" not in die
    assert die["CustomImage"]["CustomDice"] == {"Type": 1}
    assert [rv["Value"] for rv in die["RotationValues"]] == ["1", "2", "3", "4", "5", "6"]
    assert die["RotationValues"][0]["Rotation"] == {"x": -90.0, "y": 0.0, "z": 0.0}
    labelled = custom_dice(
        "d6d6d7", FACE, [(i * 10, rot) for i, (_, rot) in enumerate(D6_ROTATIONS)]
    )
    assert labelled["RotationValues"][2]["Value"] == "20"
    with pytest.raises(ValueError, match="6 faces"):
        custom_dice("d6d6d8", FACE, D6_ROTATIONS[:5])
    with pytest.raises(ValueError, match="0..5"):
        custom_dice("d6d6d9", FACE, die_type=6)


def test_d6_rotations_match_real_die():
    die = first(merchantalismo()["ObjectStates"], "Die_6")
    assert die["Name"] == "Die_6"
    built = custom_dice("aaaaaa", FACE)["RotationValues"]
    assert built == die["RotationValues"]


def test_image_objects():
    tok = custom_token("a00000", FACE, thickness=0.1, stand_up=True, tags=["chip"])
    assert tok["CustomImage"]["CustomToken"] == {
        "Thickness": 0.1,
        "MergeDistancePixels": 15.0,
        "StandUp": True,
        "Stackable": False,
    }
    tile = custom_tile("a00001", FACE, BACK, 1, 1)
    assert tile["CustomImage"]["ImageSecondaryURL"] == BACK
    assert tile["CustomImage"]["CustomTile"] == {
        "Type": 1,
        "Thickness": 1.0,
        "Stackable": False,
        "Stretch": True,
    }
    with pytest.raises(ValueError):
        custom_tile("a00002", FACE, tile_type=4)
    board = custom_board("b00000", FACE, 0.75)
    assert board["Locked"] is True
    assert board["CustomImage"] == {
        "ImageURL": FACE,
        "ImageSecondaryURL": "",
        "ImageScalar": 1.0,
        "WidthScale": 0.75,
    }


def test_bags():
    template = custom_token("a00000", FACE)
    inf = infinite_bag("b00001", template, nickname="Chips")
    assert inf["ContainedObjects"] == [template] and inf["ContainedObjects"][0] is not template
    assert (inf["MaterialIndex"], inf["MeshIndex"]) == (-1, -1) and "Bag" not in inf
    b = bag("b00002", [template, template], order=2)
    assert b["Bag"] == {"Order": 2} and len(b["ContainedObjects"]) == 2
    with pytest.raises(ValueError):
        bag("b00003", [], order=3)


def test_both_bags_are_one_container_layout() -> None:
    template = custom_token("a00000", FACE)
    inf = infinite_bag("b00001", template, locked=True, nickname="Chips")
    b = bag("b00002", [template], order=1, locked=True, nickname="Chips")
    assert inf["Locked"] is b["Locked"] is True
    assert [k for k in b if k != "Bag"] == list(inf)  # the same fields, in the same order
    assert {k: v for k, v in b.items() if k not in ("Name", "GUID", "Bag")} == {
        k: v for k, v in inf.items() if k not in ("Name", "GUID")
    }
    assert (b["Name"], inf["Name"]) == ("Bag", "Infinite_Bag")


def test_zones():
    ht = hand_trigger("e00000", "Blue", transform((0, 4, 0)))
    assert ht["FogColor"] == "Blue" and ht["ColorDiffuse"]["a"] == 0.0
    assert [ht["ColorDiffuse"][c] for c in "rgb"] == list(PLAYER_COLORS["Blue"])
    with pytest.raises(ValueError):
        hand_trigger("e00001", "Grey", transform((0, 4, 0)))
    zone = scripting_trigger("f00000", transform((0, 1, 0), scale=(4, 2, 4)), color_alpha=0.25)
    assert zone["ColorDiffuse"] == {"r": 1.0, "g": 1.0, "b": 1.0, "a": 0.25}
    assert zone["Locked"] is True and zone["Transform"]["scaleX"] == 4.0


def test_default_hand_triggers_match_fresh_rpg_table():
    real_hands = {
        o["FogColor"]: o for o in merchantalismo()["ObjectStates"] if o["Name"] == "HandTrigger"
    }
    built = default_hand_triggers(lambda c: GuidAllocator("t").guid(c))
    assert [h["FogColor"] for h in built] == list(RPG_HAND_PLACEMENTS)
    assert set(real_hands) == set(RPG_HAND_PLACEMENTS) and len(built) == 8
    for h in built:
        r = real_hands[h["FogColor"]]
        assert h["Transform"] == r["Transform"]
        assert h["Locked"] == r["Locked"] and h["Grid"] == r["Grid"]
        assert all(
            math.isclose(h["ColorDiffuse"][c], r["ColorDiffuse"][c], abs_tol=1e-6) for c in "rgba"
        )
    some = default_hand_triggers(lambda c: "abcdef", colors=["Red", "White"])
    assert [h["FogColor"] for h in some] == ["White", "Red"]
    with pytest.raises(ValueError):
        default_hand_triggers(lambda c: "abcdef", colors=["Teal"])
    assert set(SEAT_COLORS) >= set(RPG_HAND_PLACEMENTS)


# --- the save -----------------------------------------------------------------------------------


def full_save() -> dict:
    g = GuidAllocator("full")
    cards = [card(g.guid(f"c{i}"), card_id(1, i), sheet(), tags=["Animal Card"]) for i in range(5)]
    objects = [
        deck(g.guid("deck"), cards, tags=["Deck"]),
        card(g.guid("loose"), 103, sheet()),
        custom_token(g.guid("token"), FACE, tags=["chip"]),
        custom_tile(g.guid("tile"), FACE, tile_type=2),
        custom_board(g.guid("board"), FACE, 0.7),
        custom_dice(g.guid("die"), "file:///tmp/d6.png"),
        custom_dice(g.guid("d10"), FACE, D10_ROTATIONS, die_type=3),
        infinite_bag(g.guid("inf"), custom_token(g.guid("tpl"), FACE)),
        bag(g.guid("bag"), [custom_token(g.guid("in-bag"), FACE)], order=1),
        scripting_trigger(
            g.guid("zone"), transform((0, 1, 0)), tags=["Offer Zone"], lua_script="x = 1"
        ),
        *default_hand_triggers(lambda c: g.guid("hand/" + c)),
    ]
    return new_save(
        save_name="Arche Noah",
        game_mode="Arche Noah",
        objects=objects,
        lua_script="function onLoad() end",
        xml_ui="",
        tags=["Card Game"],
        player_counts=(2, 5),
        playing_time=(20, 40),
        complexity="Low Complexity",
        note="Ünïcode ✓",
        snap_points=[snap_point((0, 1, 0), tags=["Offer Slot"])],
        tab_states=[tab_state("Rules", "Bid for animals."), tab_state("Red", "", "Red")],
    )


def test_full_save_is_checker_clean():
    save = full_save()
    assert check_save(save) == []
    assert check_bytes(dumps(save)) == []


def test_new_save_top_level():
    save = full_save()
    assert list(save) == [k for k in TOP_LEVEL_DEFAULTS if k in save]
    assert save["VersionNumber"].startswith("v13.") and save["Date"] == ""
    assert isinstance(save["EpochTime"], int)
    assert save["PlayerCounts"] == [2, 5] and save["PlayingTime"] == [20, 40]
    assert "TableURL" not in save and "CameraStates" not in save
    assert save["TabStates"]["1"]["id"] == 1 and save["TabStates"]["1"]["color"] == "Red"
    assert save["SnapPoints"][0]["Tags"] == ["Offer Slot"]
    assert save["ComponentTags"]["labels"] == [
        {"displayed": "Deck", "normalized": "deck"},
        {"displayed": "Animal Card", "normalized": "animal_card"},
        {"displayed": "chip", "normalized": "chip"},
        {"displayed": "Offer Zone", "normalized": "offer_zone"},
        {"displayed": "Offer Slot", "normalized": "offer_slot"},
    ]


def test_component_tags_walk_states_children_and_attached_points():
    inner = game_object("BlockSquare", "aaaaa1", tags=["In State"])
    child = game_object("BlockSquare", "aaaaa2", tags=["child"])
    outer = game_object(
        "BlockSquare",
        "aaaaa3",
        tags=["Outer", "outer"],
        fields={
            "States": {"2": inner},
            "ChildObjects": [child],
            "AttachedSnapPoints": [snap_point((0, 0, 0), tags=["Point Tag"])],
        },
    )
    labels = component_tags([outer])["labels"]
    assert [lab["normalized"] for lab in labels] == ["outer", "point_tag", "child", "in_state"]


def test_new_save_validates_table_and_ranges():
    base = dict(save_name="x", game_mode="x", objects=[], lua_script="", xml_ui="")
    with pytest.raises(ValueError, match="unknown table"):
        new_save(**base, table="Table_Foo")
    with pytest.raises(ValueError, match="table_url"):
        new_save(**base, table="Table_Custom")
    custom = new_save(**base, table="Table_Custom", table_url=FACE)
    assert list(custom).index("TableURL") == list(custom).index("Table") + 1
    with pytest.raises(ValueError):
        new_save(**base, player_counts=(5, 2))


def test_new_save_does_not_alias_inputs():
    obj = custom_token("aaaaaa", FACE)
    save = new_save(save_name="x", game_mode="x", objects=[obj], lua_script="", xml_ui="")
    obj["Nickname"] = "changed"
    assert save["ObjectStates"][0]["Nickname"] == ""


# --- bytes --------------------------------------------------------------------------------------


def test_dumps_is_byte_stable_and_tts_shaped():
    data = dumps(full_save())
    assert data == dumps(full_save())
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data
    assert data.endswith(b"}\n")
    assert data.startswith(b'{\n  "SaveName": "Arche Noah",\n  "EpochTime": ')
    assert "Ünïcode ✓".encode() in data
    assert b'"posX": 0.0' in data and b'"scaleY": 1.0' in data
    assert loads(data, "x.json") == full_save()


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_floats_stay_floats(x):
    text = dumps({"v": x}).decode()
    token = text.split(": ", 1)[1].strip().rstrip("}").strip()
    assert re.search(r"[.eE]", token), token
    back = loads(dumps({"v": x}), "f")["v"]
    assert type(back) is float and back == x


def test_dumps_rejects_nan():
    with pytest.raises(ValueError):
        dumps({"v": float("nan")})


@pytest.mark.parametrize(
    ("data", "pattern"),
    [
        (b'\xef\xbb\xbf{"ObjectStates": []}', r"^saves/bad\.json: .*byte-order mark"),
        (b'{\n  "a": 1,\n  "b": \n}', r"^saves/bad\.json:4:1: invalid JSON"),
        (b"[1, 2]", r"^saves/bad\.json: a save is a JSON object, got array"),
        (b'{"a": "\xff"}', r"^saves/bad\.json:1:8: not valid UTF-8"),
        (b"", r"^saves/bad\.json:1:1: invalid JSON"),
    ],
)
def test_loads_corrupt_bytes_raise_build_error_naming_source(data, pattern):
    with pytest.raises(BuildError) as info:
        loads(data, "saves/bad.json")
    message = str(info.value)
    assert re.search(pattern, message), message
    assert "\n" not in message


def test_game_object_copies_its_fields_deeply_in_order():
    from collections import OrderedDict

    from tts_builder.save.objects import game_object

    nested = {"b": [1.0, {"c": -0.0}], "a": (1, 2)}
    odd = OrderedDict(x=[1])  # marshal cannot write it: deep-copied the slow way
    made = game_object(
        "Custom_Token",
        "a1b2c3",
        fields={"CustomImage": nested, "XmlUI": "", "LuaScriptState": "", "Hands": odd},
    )
    made["CustomImage"]["b"][1]["c"] = 5.0
    made["Hands"]["x"].append(2)
    made["AltLookAngle"]["x"] = 9.0
    assert nested == {"b": [1.0, {"c": -0.0}], "a": (1, 2)} and list(nested) == ["b", "a"]
    assert odd == {"x": [1]}
    assert game_object("Custom_Token", "a1b2c3")["AltLookAngle"]["x"] == 0.0
    assert list(made["CustomImage"]) == ["b", "a"]


_JSON_ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        _JSON_ATOMS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=3).map(tuple),
            st.dictionaries(st.text(max_size=5), inner, max_size=4),
        ),
        max_leaves=30,
    )
)
def test_save_text_is_json_dumps_indented_text(value) -> None:
    save = {"SaveName": value}
    assert dumps(save) == (json.dumps(save, indent=2, ensure_ascii=False) + "\n").encode()


def test_save_text_of_values_json_reports_is_json_dumps_text_or_its_error() -> None:
    class Number(float):
        pass

    odd = {"a": Number(1.5), "b": {3: True}}  # a float subclass, an int key: json's way
    assert dumps(odd) == b'{\n  "a": 1.5,\n  "b": {\n    "3": true\n  }\n}\n'
    for bad in ({"a": math.nan}, {"a": {1, 2}}):
        with pytest.raises((ValueError, TypeError)):
            dumps(bad)
