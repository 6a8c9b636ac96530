"""Checks of a TTS save against FORMAT.md §7, reusable on generated and real saves.

``[req]`` findings are things the evidence says TTS needs; ``[conv]`` findings break what TTS
always writes; ``[geo]`` findings (:func:`check_geometry`) break how TTS lays out the table.
Checks are driven by the tables below (field → kind, level, allowed values).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from math import isfinite
from typing import Any

from tts_builder.save.findings import Finding, Level
from tts_builder.save.objects import CARD_GREY, DIE_FACES
from tts_builder.save.savefile import json_kind, normalize_tag
from tts_builder.save.tables import CUSTOM_IMAGE_TABLES, SEAT_COLORS, TABLE_NAMES

# --- value kinds --------------------------------------------------------------------------------


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: object) -> bool:
    return _is_int(v) or isinstance(v, float)


KINDS: Mapping[str, Callable[[object], bool]] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "int": _is_int,
    "float": lambda v: isinstance(v, float),
    "number": _is_number,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


# --- data tables --------------------------------------------------------------------------------

#: Object names TTS knows: KB-SFF "Object Name List", API-builtin, API-custom, FORMAT §4 and every
#: Name used in the collected real saves.
KNOWN_NAMES: frozenset[str] = frozenset(
    """
    3DText Bag backgammon_board backgammon_piece_brown backgammon_piece_white BlockRectangle
    BlockSquare BlockTriangle Bowl Calculator Card CardBot_Board CardCustom CheckerFacade
    CheckerStack Checker_black Checker_Board Checker_red Checker_white Chess_Bishop Chess_Board
    Chess_King Chess_Knight Chess_Pawn Chess_Queen Chess_Rook Chinese_Checkers_Board
    Chinese_Checkers_Piece ChipFacade ChipStack Chip_10 Chip_100 Chip_1000 Chip_50 Chip_500
    Counter Cup Custom_Assetbundle Custom_Board Custom_Dice Custom_Model Custom_Model_Bag
    Custom_Model_Infinite_Bag Custom_Model_Stack Custom_PDF Custom_Tile Custom_Tile_Stack
    Custom_Token Custom_Token_Stack Deck DeckCustom Deck_CardBot_Head Deck_CardBot_Main Die_10
    Die_12 Die_20 Die_4 Die_6 Die_6_Rounded Die_8 Die_Piecepack Digital_Clock Domino
    Figurine_Card_Bot Figurine_Custom Figurine_Kimi_Kat Figurine_Knil Figurine_Mara
    Figurine_Sir_Loin Figurine_Zeke Figurine_Zomblor FogOfWar FogOfWarTrigger Go_Board
    go_game_bowl_black go_game_bowl_white go_game_piece_black go_game_piece_white HandTrigger
    Infinite_Bag LayoutZone LineObject Mahjong_Coin Mahjong_Stick Mahjong_Tile MarqueeTrigger
    MP3_Player Notecard Pachisi_board PiecePack_Arms PiecePack_Crowns PiecePack_Moons
    PiecePack_Suns PlayerPawn Quarter RandomizeTrigger reversi_board reversi_chip
    ScriptingTrigger SearchSpaceHolder SearchTriggerObject Tablet Tileset_Barrel Tileset_Chair
    Tileset_Chest Tileset_Corner Tileset_Floor Tileset_Rock Tileset_Table Tileset_Tree
    Tileset_Wall
    rpg_BARGHEST rpg_BASILISK rpg_BEAR rpg_BLACK_DRAGON rpg_CENTAUR rpg_CERBERUS rpg_CHIMERA
    rpg_CRASC rpg_CYCLOP rpg_DARKNESS_WARLORD rpg_DRAGONIDE rpg_EVIL_WATCHER rpg_GHOUL
    rpg_GIANT_VIPER rpg_GOBLIN rpg_GOLEM rpg_GRIFFON rpg_HYDRA rpg_KNIGHT rpg_KOBOLD
    rpg_LIZARD_WARRIOR rpg_MAGE rpg_MANTICORA rpg_MUMMY rpg_OGRE rpg_ORC rpg_RANGER rpg_RAT
    rpg_SKELETON_KNIGHT rpg_TEMPLATE rpg_THIEF rpg_TREE_ENT rpg_TROLL rpg_VAMPIRE rpg_WARRIOR
    rpg_WEREWOLF rpg_WYVERN
    """.split()  # noqa: SIM905 - a word list reads better than 150 quoted names
) | {"Card Facade", "Metal Ball"}  # the two names with a space

CARD_NAMES = frozenset({"Card", "CardCustom"})
DECK_NAMES = frozenset({"Deck", "DeckCustom"})
BAG_NAMES = frozenset({"Bag", "Infinite_Bag", "Custom_Model_Bag", "Custom_Model_Infinite_Bag"})
INFINITE_BAG_NAMES = frozenset({"Infinite_Bag", "Custom_Model_Infinite_Bag"})
#: Objects drawn from a CustomImage, and the nested block each must carry.
CUSTOM_IMAGE_KINDS: Mapping[str, str | None] = {
    "Custom_Tile": "CustomTile",
    "Custom_Tile_Stack": "CustomTile",
    "Custom_Token": "CustomToken",
    "Custom_Token_Stack": "CustomToken",
    "Custom_Dice": "CustomDice",
    "Custom_Board": None,
    "Figurine_Custom": None,
}
#: Faces of the built-in dice (API-builtin).
BUILTIN_DIE_FACES: Mapping[str, int] = {
    "Die_4": 4, "Die_6": 6, "Die_6_Rounded": 6, "Die_8": 8, "Die_10": 10, "Die_12": 12,
    "Die_20": 20, "Die_Piecepack": 6,
}  # fmt: skip

TRANSFORM_KEYS: tuple[str, ...] = (
    "posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ",
)  # fmt: skip

_BOOL_FIELDS = (
    "Locked", "Grid", "Snap", "IgnoreFoW", "MeasureMovement", "DragSelectable", "Autoraise",
    "Sticky", "Tooltip", "GridProjection", "HideWhenFaceDown", "Hands", "AltSound", "SidewaysCard",
)  # fmt: skip
_TOP_STRINGS = (
    "SaveName", "Date", "VersionNumber", "GameMode", "GameType", "GameComplexity", "Table",
    "TableURL", "Sky", "SkyURL", "Note", "Rules", "LuaScript", "LuaScriptState", "XmlUI",
)  # fmt: skip
_TOP_LISTS = (
    "PlayingTime", "PlayerCounts", "Tags", "CameraStates", "DecalPallet", "CustomUIAssets",
    "SnapPoints", "VectorLines",
)  # fmt: skip

#: Object fields: expected kind and the level of a mismatch (FORMAT §3.1, §7).
OBJECT_FIELDS: Mapping[str, tuple[str, Level]] = {
    "Name": ("string", "req"),
    "Transform": ("object", "req"),
    "ContainedObjects": ("array", "req"),
    "ChildObjects": ("array", "req"),
    "States": ("object", "req"),
    "CardID": ("int", "req"),
    "DeckIDs": ("array", "req"),
    "CustomDeck": ("object", "req"),
    "CustomImage": ("object", "req"),
    **dict.fromkeys(("Nickname", "Description", "GMNotes", "Memo", "FogColor"), ("string", "conv")),
    **dict.fromkeys(("LuaScript", "LuaScriptState", "XmlUI"), ("string", "conv")),
    **dict.fromkeys(_BOOL_FIELDS, ("boolean", "conv")),
    **dict.fromkeys(
        ("LayoutGroupSortIndex", "Value", "MaterialIndex", "MeshIndex", "Number"), ("int", "conv")
    ),
    **dict.fromkeys(("Tags", "RotationValues", "AttachedSnapPoints"), ("array", "conv")),
}

#: Fields TTS v13 writes on 100 % of objects (FORMAT §3.1); checked on v13 saves only.
V13_COMMON_FIELDS: tuple[str, ...] = (
    "GUID", "Name", "Transform", "Nickname", "Description", "GMNotes", "ColorDiffuse",
    "LayoutGroupSortIndex", "Value", "Locked", "Grid", "Snap", "IgnoreFoW", "MeasureMovement",
    "DragSelectable", "Autoraise", "Sticky", "Tooltip", "GridProjection",
)  # fmt: skip

#: Top-level fields: expected kind and level (FORMAT §2, §7).
TOP_LEVEL_FIELDS: Mapping[str, tuple[str, Level]] = {
    "ObjectStates": ("array", "req"),
    **dict.fromkeys(_TOP_STRINGS, ("string", "conv")),
    "EpochTime": ("int", "conv"),
    "Gravity": ("float", "conv"),
    "PlayArea": ("float", "conv"),
    **dict.fromkeys(_TOP_LISTS, ("array", "conv")),
    **dict.fromkeys(
        ("TabStates", "MusicPlayer", "Grid", "Lighting", "Hands", "ComponentTags", "Turns"),
        ("object", "conv"),
    ),
}

#: Enumerations inside top-level blocks (KB-SFF): (block, field) → allowed values.
TOP_LEVEL_ENUMS: Mapping[tuple[str, str], frozenset[int]] = {
    ("Hands", "Hiding"): frozenset({0, 1, 2}),
    ("Grid", "Type"): frozenset({0, 1, 2}),
    ("Turns", "Type"): frozenset({0, 1}),
}

TAB_STATE_FIELDS: tuple[str, ...] = ("title", "body", "color", "visibleColor", "id")

_GUID_RE = re.compile(r"[0-9a-f]{6}")
_VERSION_RE = re.compile(r"v13\.\d+(\.\d+)*")
_DATE_RE = re.compile(r"\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d{2}:\d{2} (AM|PM)")
_DECK_KEY_RE = re.compile(r"0|[1-9][0-9]*")
_URL_PREFIXES = ("http://", "https://", "file:///")
_URL_KEY_RE = re.compile(r".*(URL|Url)")
_CURLY_RE = re.compile(r"\{[^}]*\}")
_GREY_TOLERANCE = 1e-6


# --- helpers ------------------------------------------------------------------------------------


class _Out:
    """Collects findings."""

    def __init__(self) -> None:
        self.findings: list[Finding] = []

    def req(self, path: str, message: str) -> None:
        self.findings.append(Finding("req", path, message))

    def conv(self, path: str, message: str) -> None:
        self.findings.append(Finding("conv", path, message))

    def add(self, level: Level, path: str, message: str) -> None:
        self.findings.append(Finding(level, path, message))


def _key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check_kinds(
    data: Mapping[str, Any], table: Mapping[str, tuple[str, Level]], path: str, out: _Out
) -> None:
    for key, (kind, level) in table.items():
        if key in data and not KINDS[kind](data[key]):
            article = "an" if kind[0] in "aeiou" else "a"
            out.add(
                level, _key_path(path, key), f"must be {article} {kind}, got {json_kind(data[key])}"
            )


def _check_vector(value: object, path: str, out: _Out, keys: str = "xyz") -> None:
    if not isinstance(value, dict) or any(not _is_number(value.get(k)) for k in keys):
        out.conv(path, f"must be an object with numeric {', '.join(keys)}")


def _check_color(value: object, path: str, out: _Out) -> None:
    """ColorDiffuse-like ``{r, g, b[, a]}``: float channels in 0..1 (conv)."""
    if not isinstance(value, dict):
        out.conv(path, f"must be an object {{r, g, b[, a]}}, got {json_kind(value)}")
        return
    channels = [c for c in "rgba" if c in value or c != "a"]
    bad = [c for c in channels if not _is_number(value.get(c))]
    if bad:
        out.conv(path, f"channel(s) {', '.join(bad)} missing or not numbers")
        return
    ints = [c for c in channels if not isinstance(value[c], float)]
    if ints:
        out.conv(path, f"channel(s) {', '.join(ints)} written as ints; TTS writes floats")
    outside = [c for c in channels if not 0.0 <= value[c] <= 1.0]
    if outside:
        out.conv(path, f"channel(s) {', '.join(outside)} outside 0..1")


def _one_of(value: object, allowed: frozenset[int]) -> bool:
    """``value in allowed``, false for an unhashable value (an array, an object)."""
    return not isinstance(value, list | dict) and value in allowed


def _url_ok(value: str) -> bool:
    parts = [part for part in _CURLY_RE.split(value) if part]
    return all(part.startswith(_URL_PREFIXES) for part in parts)


# --- objects ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Ctx:
    """Where an object sits: its parent's Name (None at top level) and the save's version."""

    parent_name: str | None
    v13: bool
    top: bool = True


def _check_common(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    _check_kinds(obj, OBJECT_FIELDS, path, out)
    name = obj.get("Name")
    if "Name" not in obj:
        out.req(_key_path(path, "Name"), "missing")
    elif isinstance(name, str) and name not in KNOWN_NAMES:
        out.req(_key_path(path, "Name"), f"unknown object name {name!r}")
    if ctx.v13:
        missing = [key for key in V13_COMMON_FIELDS if key not in obj]
        if missing:
            out.conv(path, f"missing v13 common field(s): {', '.join(missing)}")
    guid = obj.get("GUID")
    if "GUID" in obj and not (isinstance(guid, str) and _GUID_RE.fullmatch(guid)):
        out.conv(_key_path(path, "GUID"), f"should be 6 lower-case hex characters, got {guid!r}")
    if "ColorDiffuse" in obj:
        _check_color(obj["ColorDiffuse"], _key_path(path, "ColorDiffuse"), out)
    _check_transform(obj.get("Transform"), _key_path(path, "Transform"), out)
    states = obj.get("States")
    if isinstance(states, dict):
        for key in states:
            if not (key.isdigit() and int(key) >= 1):
                out.conv(f'{path}.States["{key}"]', "state ids are stringified ints from 1")


def _check_transform(value: object, path: str, out: _Out) -> None:
    if not isinstance(value, dict):
        if value is None:
            out.req(path, "missing")
        return  # a wrong kind was reported by the field table
    missing = [k for k in TRANSFORM_KEYS if not _is_number(value.get(k))]
    if missing:
        out.req(path, f"needs numeric {', '.join(missing)}")
    infinite = [k for k in TRANSFORM_KEYS if _is_number(value.get(k)) and not isfinite(value[k])]
    if infinite:
        out.req(path, f"non-finite value(s): {', '.join(infinite)}")
    ints = [k for k in TRANSFORM_KEYS if _is_int(value.get(k))]
    if ints:
        out.conv(path, f"value(s) written as ints: {', '.join(ints)}; TTS writes floats")
    zero = [k for k in TRANSFORM_KEYS[6:] if _is_number(value.get(k)) and value[k] == 0]
    if zero:
        out.conv(path, f"zero scale: {', '.join(zero)}")


def _check_custom_deck(value: Mapping[str, Any], path: str, out: _Out) -> None:
    for key, entry in value.items():
        entry_path = f'{path}["{key}"]'
        if not _DECK_KEY_RE.fullmatch(key):
            out.conv(entry_path, "CustomDeck keys are decimal deck ids without leading zeros")
        if not isinstance(entry, dict):
            out.req(entry_path, f"must be an object, got {json_kind(entry)}")
            continue
        for dim, limit in (("NumWidth", 10), ("NumHeight", 7)):
            n = entry.get(dim)
            if n is None:
                out.conv(f"{entry_path}.{dim}", "missing")
            elif not _is_int(n):
                out.conv(f"{entry_path}.{dim}", f"must be an int, got {json_kind(n)}")
            if _is_number(n) and not 1 <= n <= limit:
                out.req(f"{entry_path}.{dim}", f"must be in 1..{limit}, got {n}")
        for url in ("FaceURL", "BackURL"):
            if not (isinstance(entry.get(url), str) and entry[url]):
                out.conv(f"{entry_path}.{url}", "must be a non-empty string")
        if "Type" in entry and not (_is_int(entry["Type"]) and 0 <= entry["Type"] <= 4):
            out.conv(f"{entry_path}.Type", f"card type must be 0..4, got {entry['Type']!r}")
        for flag in ("BackIsHidden", "UniqueBack"):
            if flag in entry and not isinstance(entry[flag], bool):
                out.conv(f"{entry_path}.{flag}", "must be a boolean")


def _slots(entry: object) -> int | None:
    if not isinstance(entry, dict):
        return None
    w, h = entry.get("NumWidth"), entry.get("NumHeight")
    if not (_is_number(w) and _is_number(h) and isfinite(w * h)):
        return None
    return int(w * h)


def _check_on_sheet(card_id: int, entry: object, path: str, out: _Out) -> None:
    """The sheet rule: index ``card_id % 100`` is a slot of ``entry`` and not its last one."""
    slots = _slots(entry)
    if slots is None:
        return
    index = card_id % 100
    if index >= slots:
        out.req(path, f"CardID {card_id} is index {index} of a {slots}-slot sheet")
    elif slots > 1 and index == slots - 1:
        hidden = isinstance(entry, dict) and entry.get("BackIsHidden") is False
        why = "it is the hidden-card image (BackIsHidden false)" if hidden else "keep it unused"
        out.conv(path, f"CardID {card_id} uses the sheet's last slot; {why}")


def _is_grey(value: object) -> bool:
    return isinstance(value, dict) and all(
        _is_number(value.get(c)) and abs(value[c] - CARD_GREY[0]) < _GREY_TOLERANCE for c in "rgb"
    )


def _check_card(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    cid = obj.get("CardID")
    if cid is None:
        out.req(_key_path(path, "CardID"), "missing")
    if obj.get("HideWhenFaceDown") is not True or obj.get("Hands") is not True:
        out.conv(path, "a card has HideWhenFaceDown true and Hands true")
    if "ColorDiffuse" in obj and not _is_grey(obj["ColorDiffuse"]):
        out.conv(_key_path(path, "ColorDiffuse"), "cards are grey 0.713235259")
    own = obj.get("CustomDeck")
    if isinstance(own, dict):
        _check_custom_deck(own, _key_path(path, "CustomDeck"), out)
    if ctx.parent_name in DECK_NAMES or not _is_int(cid):
        return  # deck cards are checked against their deck's CustomDeck
    key = str(cid // 100)
    if own is None:
        if obj.get("Name") == "CardCustom" or cid >= 100:
            out.req(path, f"a loose custom card needs its own CustomDeck with key {key!r}")
        return
    if not isinstance(own, dict):
        return
    if key not in own:
        out.req(_key_path(path, "CustomDeck"), f"has no entry {key!r} for CardID {cid}")
        return
    if len(own) != 1:
        out.conv(_key_path(path, "CustomDeck"), "a card's CustomDeck has exactly one entry")
    _check_on_sheet(cid, own[key], _key_path(path, "CardID"), out)


def _check_deck(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    ids, cards = obj.get("DeckIDs"), obj.get("ContainedObjects")
    if obj.get("HideWhenFaceDown") is not True or obj.get("Hands") is not False:
        out.conv(path, "a deck has HideWhenFaceDown true and Hands false")
    custom = obj.get("CustomDeck")
    if isinstance(custom, dict):
        _check_custom_deck(custom, _key_path(path, "CustomDeck"), out)
    if not isinstance(ids, list) or not isinstance(cards, list):
        for key, value in (("DeckIDs", ids), ("ContainedObjects", cards)):
            if value is None:
                out.req(_key_path(path, key), "missing")
        return
    if len(ids) != len(cards):
        out.req(path, f"{len(ids)} DeckIDs but {len(cards)} ContainedObjects")
    if len(cards) < 2:
        out.req(_key_path(path, "ContainedObjects"), f"a deck holds >= 2 cards, not {len(cards)}")
    for i, cid in enumerate(ids):
        id_path = f"{path}.DeckIDs[{i}]"
        if not _is_int(cid):
            out.req(id_path, f"must be an int, got {json_kind(cid)}")
            continue
        card = cards[i] if i < len(cards) and isinstance(cards[i], dict) else None
        if card is not None and card.get("CardID") != cid:
            out.req(id_path, f"is {cid} but ContainedObjects[{i}].CardID is {card.get('CardID')!r}")
        key = str(cid // 100)
        if not isinstance(custom, dict):
            if cid >= 100:
                out.req(id_path, f"deck has no CustomDeck for deck id {key}")
            continue
        if key not in custom:
            out.req(id_path, f"deck CustomDeck has no entry {key!r}")
            continue
        _check_on_sheet(cid, custom[key], id_path, out)
        if card is not None:
            _check_card_copy(card, key, custom[key], f"{path}.ContainedObjects[{i}]", out)


def _check_card_copy(
    card: Mapping[str, Any], key: str, deck_entry: object, path: str, out: _Out
) -> None:
    """A deck card's own CustomDeck: exactly the deck's entry under its key (conv)."""
    own = card.get("CustomDeck")
    if not isinstance(own, dict):
        out.conv(path, f"card lacks its own CustomDeck {key!r} (needed once drawn)")
    elif list(own) != [key]:
        out.conv(_key_path(path, "CustomDeck"), f"keys {list(own)} should be exactly [{key!r}]")
    elif own[key] != deck_entry:
        out.conv(_key_path(path, "CustomDeck"), f"entry {key!r} differs from the deck's")


def _check_custom_image(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    name = obj.get("Name")
    image = obj.get("CustomImage")
    img_path = _key_path(path, "CustomImage")
    if name == "Custom_Dice" and "CustomDice" in obj:
        out.req(_key_path(path, "CustomDice"), "CustomDice belongs inside CustomImage")
    if not isinstance(image, dict):
        if image is None:
            out.req(img_path, "missing")
        return
    url = image.get("ImageURL")
    if not isinstance(url, str):
        out.req(f"{img_path}.ImageURL", f"must be a string, got {json_kind(url)}")
    elif not url:
        out.conv(f"{img_path}.ImageURL", "is empty")
    if not isinstance(image.get("ImageSecondaryURL"), str):
        out.conv(f"{img_path}.ImageSecondaryURL", 'should be a string ("" when unused)')
    if name != "Figurine_Custom" and image.get("ImageScalar", 1.0) != 1.0:
        out.conv(f"{img_path}.ImageScalar", f"should be 1.0, got {image['ImageScalar']!r}")
    if "WidthScale" in image and not isinstance(image["WidthScale"], float):
        kind = json_kind(image["WidthScale"])
        out.conv(f"{img_path}.WidthScale", f"should be a float, got {kind}")
    block_name = CUSTOM_IMAGE_KINDS.get(name)
    if block_name is None:
        return
    block = image.get(block_name)
    block_path = f"{img_path}.{block_name}"
    if not isinstance(block, dict):
        out.req(block_path, "missing" if block is None else "must be an object")
        return
    if block_name == "CustomTile":
        if not (_is_int(block.get("Type")) and 0 <= block["Type"] <= 3):
            out.req(f"{block_path}.Type", f"tile type must be 0..3, got {block.get('Type')!r}")
        thickness = block.get("Thickness")
        if not _is_number(thickness):
            out.req(f"{block_path}.Thickness", f"must be a float, got {json_kind(thickness)}")
        elif not isinstance(thickness, float):
            out.conv(f"{block_path}.Thickness", "written as an int; TTS writes floats")
    elif block_name == "CustomDice" and not (
        _is_int(block.get("Type")) and block["Type"] in DIE_FACES
    ):
        out.req(f"{block_path}.Type", f"die type must be 0..5, got {block.get('Type')!r}")


def _check_rotation_values(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    name = obj.get("Name")
    faces = BUILTIN_DIE_FACES.get(name)
    if name == "Custom_Dice":
        image = obj.get("CustomImage")
        dice = image.get("CustomDice") if isinstance(image, dict) else None
        die_type = dice.get("Type") if isinstance(dice, dict) else None
        faces = DIE_FACES.get(die_type) if _is_int(die_type) else None
    values = obj.get("RotationValues")
    rv_path = _key_path(path, "RotationValues")
    if not isinstance(values, list):
        if values is None:
            out.conv(rv_path, "missing; dice carry one RotationValue per face")
        return
    if faces is not None and len(values) != faces:
        out.conv(rv_path, f"{len(values)} entries for a {faces}-sided die")
    for i, entry in enumerate(values):
        entry_path = f"{rv_path}[{i}]"
        if not isinstance(entry, dict):
            out.conv(entry_path, "must be an object {Value, Rotation}")
            continue
        if not isinstance(entry.get("Value"), str):
            kind = json_kind(entry.get("Value"))
            out.conv(f"{entry_path}.Value", f"v13 writes a string, got {kind}")
        _check_vector(entry.get("Rotation"), f"{entry_path}.Rotation", out)


def _check_bag(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    name = obj.get("Name")
    if name in INFINITE_BAG_NAMES:
        contained = obj.get("ContainedObjects")
        count = len(contained) if isinstance(contained, list) else 0
        if count != 1:
            out.req(path, f"an infinite bag holds exactly one object, not {count}")
    bag = obj.get("Bag")
    if bag is not None and not (isinstance(bag, dict) and bag.get("Order") in (0, 1, 2)):
        out.conv(_key_path(path, "Bag"), "Bag.Order must be 0, 1 or 2")
    for key in ("MaterialIndex", "MeshIndex"):
        if key in obj and obj[key] != -1:
            out.conv(_key_path(path, key), f"bags have -1, got {obj[key]!r}")


def _check_hand_trigger(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
    fog = obj.get("FogColor")
    if fog not in SEAT_COLORS:
        out.conv(_key_path(path, "FogColor"), f"must be a seat colour, got {fog!r}")
    diffuse = obj.get("ColorDiffuse")
    if not (isinstance(diffuse, dict) and diffuse.get("a") == 0.0):
        out.conv(_key_path(path, "ColorDiffuse"), "a hand zone has alpha a = 0.0")


def _int_in_block(block: str, field: str) -> Callable[[Mapping[str, Any], str, _Ctx, _Out], None]:
    def check(obj: Mapping[str, Any], path: str, ctx: _Ctx, out: _Out) -> None:
        value = obj.get(block)
        if not (isinstance(value, dict) and _is_int(value.get(field))):
            out.conv(f"{_key_path(path, block)}.{field}", "must be an int")

    return check


ObjectCheck = Callable[[Mapping[str, Any], str, _Ctx, _Out], None]

#: Name → the checks specific to that object type.
NAME_CHECKS: Mapping[str, tuple[ObjectCheck, ...]] = {
    **dict.fromkeys(CARD_NAMES, (_check_card,)),
    **dict.fromkeys(DECK_NAMES, (_check_deck,)),
    **dict.fromkeys(CUSTOM_IMAGE_KINDS, (_check_custom_image,)),
    "Custom_Dice": (_check_custom_image, _check_rotation_values),
    **dict.fromkeys(BUILTIN_DIE_FACES, (_check_rotation_values,)),
    **dict.fromkeys(BAG_NAMES, (_check_bag,)),
    "HandTrigger": (_check_hand_trigger,),
    "Counter": (_int_in_block("Counter", "value"),),
    "3DText": (_int_in_block("Text", "fontSize"),),
}


@dataclass(frozen=True)
class _Walked:
    """An object met while walking, its path and whether it sits directly in ObjectStates."""

    path: str
    obj: Mapping[str, Any]
    top: bool


def _walk(obj: object, path: str, ctx: _Ctx, out: _Out) -> Iterator[_Walked]:
    """Check ``obj`` and the objects nested in it, yielding each for the save-wide checks."""
    if not isinstance(obj, dict):
        out.req(path, f"an object must be a JSON object, got {json_kind(obj)}")
        return
    yield _Walked(path, obj, ctx.top)
    _check_common(obj, path, ctx, out)
    name = obj.get("Name")
    for check in NAME_CHECKS.get(name, ()) if isinstance(name, str) else ():
        check(obj, path, ctx, out)
    inner = _Ctx(name if isinstance(name, str) else "", ctx.v13, top=False)
    for key in ("ContainedObjects", "ChildObjects"):
        for i, child in enumerate(obj.get(key) if isinstance(obj.get(key), list) else ()):
            yield from _walk(child, f"{path}.{key}[{i}]", inner, out)
    states = obj.get("States")
    beside = _Ctx(ctx.parent_name, ctx.v13, top=False)  # an alternative state sits where obj sits
    for key, state in states.items() if isinstance(states, dict) else ():
        yield from _walk(state, f'{path}.States["{key}"]', beside, out)


# --- save-wide checks ---------------------------------------------------------------------------


def _check_guids(walked: list[_Walked], out: _Out) -> None:
    first_top: dict[str, str] = {}
    first_any: dict[str, str] = {}
    for w in walked:
        path, guid, top = w.path, w.obj.get("GUID"), w.top
        if not isinstance(guid, str):
            continue
        if top and guid in first_top:
            out.req(_key_path(path, "GUID"), f"top-level GUID {guid!r} repeats {first_top[guid]}")
        elif guid in first_any:
            out.conv(_key_path(path, "GUID"), f"GUID {guid!r} repeats {first_any[guid]}")
        if top:
            first_top.setdefault(guid, path)
        first_any.setdefault(guid, path)


def _check_urls(value: object, path: str, out: _Out) -> None:
    """Every ``*URL``/``*Url`` string anywhere is "", http(s):// or file:/// (conv)."""
    if isinstance(value, dict):
        for key, item in value.items():
            item_path = _key_path(path, key) if _plain_key(key) else f'{path}["{key}"]'
            if isinstance(item, str) and _URL_KEY_RE.fullmatch(key) and not _url_ok(item):
                out.conv(item_path, f"should be empty, http(s):// or file:///, got {item[:60]!r}")
            elif isinstance(item, dict | list):
                _check_urls(item, item_path, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_urls(item, f"{path}[{i}]", out)


def _plain_key(key: str) -> bool:
    return key.isidentifier()


def _check_top_level(save: Mapping[str, Any], out: _Out) -> None:
    _check_kinds(save, TOP_LEVEL_FIELDS, "", out)
    if "ObjectStates" not in save:
        out.req("ObjectStates", "missing; a save needs an ObjectStates array")
    version = save.get("VersionNumber")
    if isinstance(version, str) and not _VERSION_RE.fullmatch(version):
        out.conv("VersionNumber", f"should look like v13.x[.y], got {version!r}")
    date = save.get("Date")
    if isinstance(date, str) and date and not _DATE_RE.fullmatch(date):
        out.conv("Date", f'should be "" or M/D/YYYY h:mm:ss AM|PM, got {date!r}')
    table = save.get("Table")
    if isinstance(table, str):
        if table not in TABLE_NAMES:
            out.conv("Table", f"unknown table {table!r}")
        if table in CUSTOM_IMAGE_TABLES and not save.get("TableURL"):
            out.conv("TableURL", f"{table} needs a non-empty TableURL")
    for (block, field), allowed in TOP_LEVEL_ENUMS.items():
        value = save.get(block)
        if isinstance(value, dict) and field in value and not _one_of(value[field], allowed):
            out.conv(f"{block}.{field}", f"must be one of {sorted(allowed)}, got {value[field]!r}")
    tabs = save.get("TabStates")
    if isinstance(tabs, dict):
        for key, tab in tabs.items():
            tab_path = f'TabStates["{key}"]'
            if not key.isdigit():
                out.conv(tab_path, "TabStates keys are stringified ints")
            if not isinstance(tab, dict) or any(f not in tab for f in TAB_STATE_FIELDS):
                out.conv(tab_path, f"needs {', '.join(TAB_STATE_FIELDS)}")
            elif key.isdigit() and tab["id"] != int(key):
                out.conv(f"{tab_path}.id", f"should equal its key {int(key)}, got {tab['id']!r}")


def _check_tags(save: Mapping[str, Any], walked: list[_Walked], out: _Out) -> None:
    block = save.get("ComponentTags")
    labels = block.get("labels") if isinstance(block, dict) else None
    known: set[str] = set()
    for i, label in enumerate(labels if isinstance(labels, list) else ()):
        if not isinstance(label, dict) or not isinstance(label.get("displayed"), str):
            out.conv(f"ComponentTags.labels[{i}]", "needs string displayed and normalized")
            continue
        if label.get("normalized") != normalize_tag(label["displayed"]):
            out.conv(
                f"ComponentTags.labels[{i}].normalized",
                f"should be {normalize_tag(label['displayed'])!r}, got {label.get('normalized')!r}",
            )
        known.update({label["displayed"], normalize_tag(label["displayed"])})
    tagged: list[tuple[str, object]] = [(f"{w.path}.Tags", w.obj.get("Tags")) for w in walked]
    for w in walked:
        points = w.obj.get("AttachedSnapPoints")
        for j, point in enumerate(points if isinstance(points, list) else ()):
            if isinstance(point, dict):
                tagged.append((f"{w.path}.AttachedSnapPoints[{j}].Tags", point.get("Tags")))
    for j, point in enumerate(save.get("SnapPoints") or []):
        if isinstance(point, dict):
            tagged.append((f"SnapPoints[{j}].Tags", point.get("Tags")))
    for path, tags in tagged:
        if not isinstance(tags, list):
            continue
        for k, tag in enumerate(tags):
            if not isinstance(tag, str):
                out.conv(f"{path}[{k}]", f"a tag must be a string, got {json_kind(tag)}")
            elif tag not in known and normalize_tag(tag) not in known:
                out.conv(f"{path}[{k}]", f"tag {tag!r} is not listed in ComponentTags")


def _check_snap_points(save: Mapping[str, Any], walked: list[_Walked], out: _Out) -> None:
    groups = [("SnapPoints", save.get("SnapPoints"))]
    groups += [(f"{w.path}.AttachedSnapPoints", w.obj.get("AttachedSnapPoints")) for w in walked]
    for path, points in groups:
        for j, point in enumerate(points if isinstance(points, list) else []):
            if not isinstance(point, dict):
                out.conv(f"{path}[{j}]", "a snap point is an object {Position, [Rotation], [Tags]}")
                continue
            _check_vector(point.get("Position"), f"{path}[{j}].Position", out)
            if "Rotation" in point:
                _check_vector(point["Rotation"], f"{path}[{j}].Rotation", out)


def _check_global_script(save: Mapping[str, Any], walked: list[_Walked], out: _Out) -> None:
    scripted = any(isinstance(w.obj.get("LuaScript"), str) and w.obj["LuaScript"] for w in walked)
    if scripted and not save.get("LuaScript"):
        out.conv("LuaScript", "objects carry scripts but the Global LuaScript is empty")


# --- public API ---------------------------------------------------------------------------------


def check_save(save: Mapping[str, Any]) -> list[Finding]:
    """Every FORMAT §7 check on a parsed save; findings in walk order."""
    out = _Out()
    if not isinstance(save, dict):
        return [Finding("req", "$", f"a save is a JSON object, got {json_kind(save)}")]
    _check_top_level(save, out)
    objects = save.get("ObjectStates")
    version = save.get("VersionNumber")
    ctx = _Ctx(None, isinstance(version, str) and version.startswith("v13"))
    walked = [
        w
        for i, obj in enumerate(objects if isinstance(objects, list) else ())
        for w in _walk(obj, f"ObjectStates[{i}]", ctx, out)
    ]
    _check_guids(walked, out)
    _check_tags(save, walked, out)
    _check_snap_points(save, walked, out)
    _check_global_script(save, walked, out)
    _check_urls(save, "", out)
    return out.findings


def check_geometry(
    save: Mapping[str, Any], image_size: Any = None, positions: Any = ()
) -> list[Finding]:
    """The geometry checks (``tts_builder.save.geometry_checks``): ``geo`` findings."""
    from tts_builder.save.geometry_checks import check_geometry as run

    return run(save, image_size, positions)


def check_file_bytes(data: bytes, *, parsed: bool = False) -> list[Finding]:
    """File-level checks: UTF-8 without BOM, LF line endings, a JSON object at the top.
    ``parsed``: :func:`~tts_builder.save.savefile.loads` has read these bytes already (so they
    are UTF-8 holding a JSON object): they are not decoded and parsed a second time."""
    out = _Out()
    if data.startswith(b"\xef\xbb\xbf"):
        out.conv("$", "starts with a UTF-8 byte-order mark; TTS writes none")
        data = data[3:]
    if b"\r\n" in data:
        out.conv("$", "CRLF line endings; TTS writes LF")
    if parsed:
        return out.findings
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.req("$", f"not valid UTF-8 at byte {exc.start}")
        return out.findings
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        out.req("$", f"invalid JSON at {exc.lineno}:{exc.colno}: {exc.msg}")
        return out.findings
    if not isinstance(value, dict):
        out.req("$", f"a save is a JSON object, got {json_kind(value)}")
    return out.findings


def check_bytes(data: bytes) -> list[Finding]:
    """File-level findings, then :func:`check_save` findings when the bytes parse to an object."""
    findings = check_file_bytes(data)
    if any(f.level == "req" for f in findings):
        return findings
    return findings + check_save(json.loads(data.decode("utf-8-sig")))
