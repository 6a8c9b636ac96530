"""The FORMAT §7 checker: real saves pass, and each check fires on a mutation made to fire it."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from tts_builder.save import (
    GuidAllocator,
    bag,
    card,
    card_id,
    check_bytes,
    check_file_bytes,
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
    infinite_bag,
    new_save,
    scripting_trigger,
    snap_point,
    tab_state,
    transform,
)
from tts_builder.save.checker import KNOWN_NAMES, Finding

SAVES = Path(__file__).resolve().parent / "fixtures" / "real_saves"
REAL_SAVES = sorted(p.name for p in SAVES.glob("*.json"))
URL = "https://example.org/img.png"


@cache
def real_bytes(name: str) -> bytes:
    return (SAVES / name).read_bytes()


# --- real saves ---------------------------------------------------------------------------------


def test_real_saves_are_present():
    assert len(REAL_SAVES) >= 8, f"expected the real-save fixtures in {SAVES}"


@pytest.mark.parametrize("name", REAL_SAVES)
def test_real_save_has_no_req_findings(name):
    findings = check_bytes(real_bytes(name))
    assert [str(f) for f in findings if f.level == "req"] == []


def test_fresh_v13_table_written_by_tts_is_fully_clean():
    assert check_bytes(real_bytes("pparocza__Merchantalismo__TS_Save_2.json")) == []


def test_every_name_in_real_saves_is_known():
    names: set[str] = set()

    def walk(objs):
        for o in objs:
            names.add(o["Name"])
            walk(o.get("ContainedObjects") or [])
            walk((o.get("States") or {}).values())
            walk(o.get("ChildObjects") or [])

    for name in REAL_SAVES:
        walk(json.loads(real_bytes(name))["ObjectStates"])
    assert names <= KNOWN_NAMES


# --- a clean generated save and its mutations ---------------------------------------------------

DECK, LOOSE, TOKEN, TILE, BOARD, DIE, INF, BAG, ZONE, COUNTER, TEXT, STATEFUL, PARENT, HAND = range(
    14
)


@cache
def _base() -> dict:
    g = GuidAllocator("checker")
    entry = custom_deck_entry(URL, URL, 3, 2)
    cards = [card(g.guid(f"c{i}"), card_id(1, i), entry) for i in range(4)]
    objects = [
        deck(g.guid("deck"), cards, tags=["Deck"]),
        card(g.guid("loose"), 104, entry),
        custom_token(g.guid("token"), URL),
        custom_tile(g.guid("tile"), URL),
        custom_board(g.guid("board"), URL, 0.5),
        custom_dice(g.guid("die"), URL),
        infinite_bag(g.guid("inf"), custom_token(g.guid("tpl"), URL)),
        bag(g.guid("bag"), [custom_token(g.guid("in-bag"), URL)]),
        scripting_trigger(g.guid("zone"), transform((0, 1, 0)), lua_script="x = 1"),
        game_object("Counter", g.guid("counter"), fields={"Counter": {"value": 3}}),
        game_object(
            "3DText",
            g.guid("text"),
            fields={
                "Text": {"Text": "Hi", "colorstate": {"r": 1.0, "g": 1.0, "b": 1.0}, "fontSize": 64}
            },
        ),
        game_object(
            "BlockSquare",
            g.guid("stateful"),
            fields={"States": {"2": game_object("BlockRectangle", g.guid("state2"))}},
        ),
        game_object(
            "BlockSquare",
            g.guid("parent"),
            fields={
                "ChildObjects": [game_object("BlockTriangle", g.guid("child"))],
                "AttachedSnapPoints": [snap_point((0, 0, 0), tags=["Deck"])],
            },
        ),
        *default_hand_triggers(lambda c: g.guid("hand/" + c), colors=["White"]),
    ]
    return new_save(
        save_name="Checker",
        game_mode="Checker",
        objects=objects,
        lua_script="function onLoad() end",
        xml_ui="",
        snap_points=[snap_point((1, 1, 1))],
        tab_states=[tab_state("Rules", "text")],
    )


def base() -> dict:
    return copy.deepcopy(_base())


def test_base_save_is_clean():
    assert check_save(base()) == []


def obj(save: dict, i: int) -> dict:
    return save["ObjectStates"][i]


def _set(path: list, value) -> Callable[[dict], None]:
    def mutate(save: dict) -> None:
        target = save
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _del(path: list) -> Callable[[dict], None]:
    def mutate(save: dict) -> None:
        target = save
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


OS = "ObjectStates"
CD = ["CustomDeck", "1"]


def _swap_first_deck_ids(save):
    ids = obj(save, DECK)["DeckIDs"]
    ids[0], ids[1] = ids[1], ids[0]


def _one_card_deck(save):
    d = obj(save, DECK)
    d["ContainedObjects"] = d["ContainedObjects"][:1]
    d["DeckIDs"] = d["DeckIDs"][:1]


def _deck_card_off_sheet(save):
    d = obj(save, DECK)
    d["DeckIDs"][2] = d["ContainedObjects"][2]["CardID"] = 107


def _deck_card_last_slot(save):
    d = obj(save, DECK)
    d["DeckIDs"][2] = d["ContainedObjects"][2]["CardID"] = 105


def _deck_missing_sheet(save):
    d = obj(save, DECK)
    d["DeckIDs"][1] = d["ContainedObjects"][1]["CardID"] = 201


def _two_in_infinite_bag(save):
    b = obj(save, INF)
    b["ContainedObjects"].append(copy.deepcopy(b["ContainedObjects"][0]))


def _duplicate_top_guid(save):
    obj(save, TOKEN)["GUID"] = obj(save, TILE)["GUID"]


def _duplicate_nested_guid(save):
    obj(save, BAG)["ContainedObjects"][0]["GUID"] = obj(save, TILE)["GUID"]


def _drop_last_rotation(save):
    obj(save, DIE)["RotationValues"].pop()


def _global_script_empty(save):
    save["LuaScript"] = ""


# (id, mutation, level, exact path, message fragment)
MUTATIONS: list[tuple[str, Callable[[dict], None], str, str, str]] = [
    # top level
    ("no ObjectStates", _del(["ObjectStates"]), "req", "ObjectStates", "missing"),
    ("ObjectStates not array", _set(["ObjectStates"], {}), "req", "ObjectStates", "array"),
    ("object not a dict", _set([OS, TOKEN], "x"), "req", "ObjectStates[2]", "JSON object"),
    ("version", _set(["VersionNumber"], "v12.2"), "conv", "VersionNumber", "v13"),
    ("gravity int", _set(["Gravity"], 1), "conv", "Gravity", "float"),
    ("epoch string", _set(["EpochTime"], "1"), "conv", "EpochTime", "int"),
    ("date form", _set(["Date"], "2024-01-01"), "conv", "Date", "M/D/YYYY"),
    ("tab key", _set(["TabStates"], {"a": {}}), "conv", 'TabStates["a"]', "stringified"),
    ("tab id", _set(["TabStates", "0", "id"], 3), "conv", 'TabStates["0"].id', "equal its key"),
    ("tab field", _del(["TabStates", "0", "body"]), "conv", 'TabStates["0"]', "needs"),
    ("table name", _set(["Table"], "Table_Foo"), "conv", "Table", "unknown table"),
    ("table url", _set(["Table"], "Table_Custom"), "conv", "TableURL", "non-empty"),
    ("hands hiding", _set(["Hands", "Hiding"], 3), "conv", "Hands.Hiding", "one of"),
    ("grid type", _set(["Grid", "Type"], 5), "conv", "Grid.Type", "one of"),
    ("turns type", _set(["Turns", "Type"], 2), "conv", "Turns.Type", "one of"),
    (
        "tag normalized",
        _set(["ComponentTags", "labels", 0, "normalized"], "Deck"),
        "conv",
        "ComponentTags.labels[0].normalized",
        "'deck'",
    ),
    (
        "tag unlisted",
        _set([OS, TOKEN, "Tags"], ["Coin"]),
        "conv",
        "ObjectStates[2].Tags[0]",
        "not listed",
    ),
    ("global script", _global_script_empty, "conv", "LuaScript", "Global"),
    (
        "snap position",
        _del(["SnapPoints", 0, "Position"]),
        "conv",
        "SnapPoints[0].Position",
        "x, y, z",
    ),
    # every object
    (
        "unknown name",
        _set([OS, TOKEN, "Name"], "DungeonBrick"),
        "req",
        "ObjectStates[2].Name",
        "unknown",
    ),
    ("no name", _del([OS, TOKEN, "Name"]), "req", "ObjectStates[2].Name", "missing"),
    ("no transform", _del([OS, TOKEN, "Transform"]), "req", "ObjectStates[2].Transform", "missing"),
    (
        "transform key",
        _del([OS, TOKEN, "Transform", "rotY"]),
        "req",
        "ObjectStates[2].Transform",
        "rotY",
    ),
    (
        "transform str",
        _set([OS, TOKEN, "Transform", "posX"], "1"),
        "req",
        "ObjectStates[2].Transform",
        "posX",
    ),
    (
        "transform int",
        _set([OS, TOKEN, "Transform", "posY"], 1),
        "conv",
        "ObjectStates[2].Transform",
        "ints: posY",
    ),
    (
        "zero scale",
        _set([OS, TOKEN, "Transform", "scaleY"], 0.0),
        "conv",
        "ObjectStates[2].Transform",
        "zero scale",
    ),
    ("int guid", _set([OS, TOKEN, "GUID"], 123456), "conv", "ObjectStates[2].GUID", "hex"),
    ("upper guid", _set([OS, TOKEN, "GUID"], "ABCDEF"), "conv", "ObjectStates[2].GUID", "hex"),
    ("dup top guid", _duplicate_top_guid, "req", "ObjectStates[3].GUID", "repeats ObjectStates[2]"),
    (
        "dup nested guid",
        _duplicate_nested_guid,
        "conv",
        "ObjectStates[7].ContainedObjects[0].GUID",
        "repeats",
    ),
    (
        "color int",
        _set([OS, TOKEN, "ColorDiffuse", "r"], 1),
        "conv",
        "ObjectStates[2].ColorDiffuse",
        "ints",
    ),
    (
        "color range",
        _set([OS, TOKEN, "ColorDiffuse", "g"], 1.5),
        "conv",
        "ObjectStates[2].ColorDiffuse",
        "0..1",
    ),
    ("bool field", _set([OS, TOKEN, "Locked"], 0), "conv", "ObjectStates[2].Locked", "boolean"),
    (
        "lua not str",
        _set([OS, TOKEN, "LuaScript"], None),
        "conv",
        "ObjectStates[2].LuaScript",
        "str",
    ),
    ("xml not str", _set([OS, TOKEN, "XmlUI"], 1), "conv", "ObjectStates[2].XmlUI", "str"),
    ("v13 field", _del([OS, TOKEN, "Sticky"]), "conv", "ObjectStates[2]", "Sticky"),
    (
        "state key",
        _set([OS, STATEFUL, "States"], {"0": {}}),
        "conv",
        'ObjectStates[11].States["0"]',
        "from 1",
    ),
    (
        "state walked",
        _set([OS, STATEFUL, "States", "2", "Name"], "Nope"),
        "req",
        'ObjectStates[11].States["2"].Name',
        "unknown",
    ),
    (
        "child walked",
        _set([OS, PARENT, "ChildObjects", 0, "Name"], "Nope"),
        "req",
        "ObjectStates[12].ChildObjects[0].Name",
        "unknown",
    ),
    (
        "attached snap",
        _set([OS, PARENT, "AttachedSnapPoints", 0, "Position"], [0, 0, 0]),
        "conv",
        "ObjectStates[12].AttachedSnapPoints[0].Position",
        "numeric",
    ),
    # cards and decks
    (
        "loose off sheet",
        _set([OS, LOOSE, "CardID"], 106),
        "req",
        "ObjectStates[1].CardID",
        "6-slot",
    ),
    (
        "loose last slot",
        _set([OS, LOOSE, "CardID"], 105),
        "conv",
        "ObjectStates[1].CardID",
        "last slot",
    ),
    (
        "loose no sheet",
        _del([OS, LOOSE, "CustomDeck"]),
        "req",
        "ObjectStates[1]",
        "loose custom card",
    ),
    (
        "loose wrong key",
        _set([OS, LOOSE, "CardID"], 204),
        "req",
        "ObjectStates[1].CustomDeck",
        "'2'",
    ),
    ("loose no card id", _del([OS, LOOSE, "CardID"]), "req", "ObjectStates[1].CardID", "missing"),
    ("loose hands", _set([OS, LOOSE, "Hands"], False), "conv", "ObjectStates[1]", "Hands true"),
    (
        "loose grey",
        _set([OS, LOOSE, "ColorDiffuse", "r"], 1.0),
        "conv",
        "ObjectStates[1].ColorDiffuse",
        "grey",
    ),
    (
        "width limit",
        _set([OS, LOOSE, *CD, "NumWidth"], 11),
        "req",
        'ObjectStates[1].CustomDeck["1"].NumWidth',
        "1..10",
    ),
    (
        "height limit",
        _set([OS, LOOSE, *CD, "NumHeight"], 8),
        "req",
        'ObjectStates[1].CustomDeck["1"].NumHeight',
        "1..7",
    ),
    (
        "width float",
        _set([OS, LOOSE, *CD, "NumWidth"], 3.0),
        "conv",
        'ObjectStates[1].CustomDeck["1"].NumWidth',
        "int",
    ),
    (
        "card type",
        _set([OS, LOOSE, *CD, "Type"], 9),
        "conv",
        'ObjectStates[1].CustomDeck["1"].Type',
        "0..4",
    ),
    (
        "face url",
        _set([OS, LOOSE, *CD, "FaceURL"], ""),
        "conv",
        'ObjectStates[1].CustomDeck["1"].FaceURL',
        "non-empty",
    ),
    (
        "deck key zero",
        _set([OS, LOOSE, "CustomDeck"], {"01": {}}),
        "conv",
        'ObjectStates[1].CustomDeck["01"]',
        "leading",
    ),
    (
        "deck ids order",
        _swap_first_deck_ids,
        "req",
        "ObjectStates[0].DeckIDs[0]",
        "ContainedObjects[0].CardID",
    ),
    (
        "deck ids length",
        _set([OS, DECK, "DeckIDs"], [100, 101, 102]),
        "req",
        "ObjectStates[0]",
        "3 DeckIDs but 4",
    ),
    ("deck one card", _one_card_deck, "req", "ObjectStates[0].ContainedObjects", ">= 2"),
    ("deck no ids", _del([OS, DECK, "DeckIDs"]), "req", "ObjectStates[0].DeckIDs", "missing"),
    ("deck off sheet", _deck_card_off_sheet, "req", "ObjectStates[0].DeckIDs[2]", "index 7"),
    ("deck last slot", _deck_card_last_slot, "conv", "ObjectStates[0].DeckIDs[2]", "last slot"),
    (
        "deck missing sheet",
        _deck_missing_sheet,
        "req",
        "ObjectStates[0].DeckIDs[1]",
        "no entry '2'",
    ),
    (
        "deck no CustomDeck",
        _del([OS, DECK, "CustomDeck"]),
        "req",
        "ObjectStates[0].DeckIDs[0]",
        "no CustomDeck",
    ),
    (
        "card copy missing",
        _del([OS, DECK, "ContainedObjects", 1, "CustomDeck"]),
        "conv",
        "ObjectStates[0].ContainedObjects[1]",
        "lacks its own CustomDeck",
    ),
    (
        "card copy stale",
        _set([OS, DECK, "ContainedObjects", 1, "CustomDeck"], {"6": {}}),
        "conv",
        "ObjectStates[0].ContainedObjects[1].CustomDeck",
        "exactly ['1']",
    ),
    (
        "card copy differs",
        _set([OS, DECK, "ContainedObjects", 1, *CD, "BackURL"], "https://example.org/other.png"),
        "conv",
        "ObjectStates[0].ContainedObjects[1].CustomDeck",
        "differs",
    ),
    ("deck hands", _set([OS, DECK, "Hands"], True), "conv", "ObjectStates[0]", "Hands false"),
    # dice
    (
        "dice at object level",
        _set([OS, DIE, "CustomDice"], {"Type": 1}),
        "req",
        "ObjectStates[5].CustomDice",
        "inside CustomImage",
    ),
    (
        "dice type missing",
        _del([OS, DIE, "CustomImage", "CustomDice"]),
        "req",
        "ObjectStates[5].CustomImage.CustomDice",
        "missing",
    ),
    (
        "dice type range",
        _set([OS, DIE, "CustomImage", "CustomDice", "Type"], 6),
        "req",
        "ObjectStates[5].CustomImage.CustomDice.Type",
        "0..5",
    ),
    (
        "rotation count",
        _drop_last_rotation,
        "conv",
        "ObjectStates[5].RotationValues",
        "5 entries for a 6-sided",
    ),
    (
        "rotation int value",
        _set([OS, DIE, "RotationValues", 0, "Value"], 1),
        "conv",
        "ObjectStates[5].RotationValues[0].Value",
        "string",
    ),
    (
        "no rotation values",
        _del([OS, DIE, "RotationValues"]),
        "conv",
        "ObjectStates[5].RotationValues",
        "missing",
    ),
    # images
    (
        "tile block",
        _del([OS, TILE, "CustomImage", "CustomTile"]),
        "req",
        "ObjectStates[3].CustomImage.CustomTile",
        "missing",
    ),
    (
        "tile type",
        _set([OS, TILE, "CustomImage", "CustomTile", "Type"], 4),
        "req",
        "ObjectStates[3].CustomImage.CustomTile.Type",
        "0..3",
    ),
    (
        "tile thickness str",
        _set([OS, TILE, "CustomImage", "CustomTile", "Thickness"], "0.2"),
        "req",
        "ObjectStates[3].CustomImage.CustomTile.Thickness",
        "float",
    ),
    (
        "tile thickness int",
        _set([OS, TILE, "CustomImage", "CustomTile", "Thickness"], 1),
        "conv",
        "ObjectStates[3].CustomImage.CustomTile.Thickness",
        "int",
    ),
    (
        "token block",
        _del([OS, TOKEN, "CustomImage", "CustomToken"]),
        "req",
        "ObjectStates[2].CustomImage.CustomToken",
        "missing",
    ),
    (
        "board url",
        _del([OS, BOARD, "CustomImage", "ImageURL"]),
        "req",
        "ObjectStates[4].CustomImage.ImageURL",
        "string",
    ),
    (
        "board no image",
        _del([OS, BOARD, "CustomImage"]),
        "req",
        "ObjectStates[4].CustomImage",
        "missing",
    ),
    (
        "image scalar",
        _set([OS, BOARD, "CustomImage", "ImageScalar"], 2.0),
        "conv",
        "ObjectStates[4].CustomImage.ImageScalar",
        "1.0",
    ),
    (
        "secondary url",
        _del([OS, BOARD, "CustomImage", "ImageSecondaryURL"]),
        "conv",
        "ObjectStates[4].CustomImage.ImageSecondaryURL",
        "string",
    ),
    (
        "width scale int",
        _set([OS, BOARD, "CustomImage", "WidthScale"], 1),
        "conv",
        "ObjectStates[4].CustomImage.WidthScale",
        "float",
    ),
    # containers and zones
    ("infinite two", _two_in_infinite_bag, "req", "ObjectStates[6]", "exactly one object, not 2"),
    ("infinite empty", _set([OS, INF, "ContainedObjects"], []), "req", "ObjectStates[6]", "not 0"),
    ("bag order", _set([OS, BAG, "Bag", "Order"], 3), "conv", "ObjectStates[7].Bag", "Order"),
    (
        "bag mesh",
        _set([OS, BAG, "MaterialIndex"], 0),
        "conv",
        "ObjectStates[7].MaterialIndex",
        "-1",
    ),
    (
        "contained walked",
        _set([OS, BAG, "ContainedObjects", 0, "Name"], "X"),
        "req",
        "ObjectStates[7].ContainedObjects[0].Name",
        "unknown",
    ),
    (
        "hand colour",
        _set([OS, HAND, "FogColor"], "Grey"),
        "conv",
        "ObjectStates[13].FogColor",
        "seat colour",
    ),
    (
        "hand alpha",
        _set([OS, HAND, "ColorDiffuse", "a"], 0.5),
        "conv",
        "ObjectStates[13].ColorDiffuse",
        "alpha",
    ),
    (
        "counter int",
        _set([OS, COUNTER, "Counter", "value"], 3.0),
        "conv",
        "ObjectStates[9].Counter.value",
        "int",
    ),
    (
        "font int",
        _set([OS, TEXT, "Text", "fontSize"], 64.0),
        "conv",
        "ObjectStates[10].Text.fontSize",
        "int",
    ),
    # URLs
    (
        "url scheme",
        _set([OS, TOKEN, "CustomImage", "ImageURL"], "ftp://x/y.png"),
        "conv",
        "ObjectStates[2].CustomImage.ImageURL",
        "http",
    ),
    (
        "url windows path",
        _set([OS, TOKEN, "CustomImage", "ImageURL"], "C:\\a.png"),
        "conv",
        "ObjectStates[2].CustomImage.ImageURL",
        "file:///",
    ),
    (
        "url in deck",
        _set([OS, LOOSE, *CD, "BackURL"], "www.x.org/b.png"),
        "conv",
        'ObjectStates[1].CustomDeck["1"].BackURL',
        "http",
    ),
    ("top url", _set(["SkyURL"], "sky.png"), "conv", "SkyURL", "http"),
]


@pytest.mark.parametrize(
    ("mutate", "level", "path", "fragment"),
    [m[1:] for m in MUTATIONS],
    ids=[m[0] for m in MUTATIONS],
)
def test_mutation_fires_its_check(mutate, level, path, fragment):
    save = base()
    mutate(save)
    findings = check_save(save)
    hits = [f for f in findings if f.path == path and f.level == level and fragment in f.message]
    assert hits, "\n".join(map(str, findings)) or "no findings"


def test_mutation_ids_unique():
    ids = [m[0] for m in MUTATIONS]
    assert len(ids) == len(set(ids))


def test_valid_url_forms_pass():
    save = base()
    image = obj(save, TOKEN)["CustomImage"]
    for url in ("", "http://a/b.png", "file:///C:\\x\\y.png", "{en}https://a/b{fr}https://a/c"):
        image["ImageURL"], image["ImageSecondaryURL"] = URL, url
        assert check_save(save) == [], url


def test_built_in_deck_of_playing_cards_needs_no_custom_deck():
    save = base()
    d = obj(save, DECK)
    del d["CustomDeck"]
    for i, c in enumerate(d["ContainedObjects"]):
        del c["CustomDeck"]
        c["CardID"] = d["DeckIDs"][i] = i
    assert check_save(save) == []


def test_check_save_on_non_object():
    assert check_save([]) == [Finding("req", "$", "a save is a JSON object, got array")]  # type: ignore[arg-type]


def test_finding_renders_one_line():
    f = Finding("req", "ObjectStates[3].CardID", "bad")
    assert str(f) == "[req] ObjectStates[3].CardID: bad"


# --- file bytes ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "level", "fragment"),
    [
        (b'\xef\xbb\xbf{"ObjectStates": []}', "conv", "byte-order mark"),
        (b'{\r\n"ObjectStates": []}', "conv", "CRLF"),
        (b'{"ObjectStates": "\xff"}', "req", "not valid UTF-8 at byte 18"),
        (b'{"ObjectStates": [}', "req", "invalid JSON at 1:19"),
        (b"[]", "req", "JSON object, got array"),
    ],
)
def test_file_level_checks(data, level, fragment):
    findings = check_file_bytes(data)
    assert any(f.level == level and fragment in f.message for f in findings), findings


def test_generated_bytes_pass_file_and_save_checks():
    data = dumps(base())
    assert check_file_bytes(data) == []
    assert check_bytes(data) == []


def test_check_bytes_stops_at_unparseable_and_goes_deep_otherwise():
    assert [f.level for f in check_bytes(b"{")] == ["req"]
    findings = check_bytes(b'\xef\xbb\xbf{"VersionNumber": "v13.3"}')
    assert ("conv", "$") in {(f.level, f.path) for f in findings}
    assert ("req", "ObjectStates") in {(f.level, f.path) for f in findings}


def test_bytes_loads_has_read_are_not_parsed_again():
    crlf = b'{\r\n"ObjectStates": []}'
    assert check_file_bytes(crlf, parsed=True) == check_file_bytes(crlf)
    assert check_file_bytes(dumps(base()), parsed=True) == []
