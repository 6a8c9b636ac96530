"""Builders for TTS objects (FORMAT §3-§4): plain dicts in TTS's v13 key order.

Every builder returns a fresh dict holding all v13 common fields, floats for every transform value
and colour channel, and the type-specific fields of its object. Nothing here touches files.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypedDict, Unpack

from tts_builder.json_types import copied
from tts_builder.save.tables import HAND_PLACEMENTS, PLAYER_COLORS, SEAT_COLORS

Vec3 = tuple[float, float, float]
Color = tuple[float, float, float] | tuple[float, float, float, float]
Obj = dict[str, Any]


class Described(TypedDict, total=False):
    """Keywords every builder passes through to :func:`game_object`."""

    transform: Mapping[str, float] | None
    nickname: str
    description: str
    gm_notes: str
    tags: Iterable[str]
    lua_script: str


class Common(Described, total=False):
    """:class:`Described` plus the tint, for objects whose colour is free."""

    color: Sequence[float]


__all__ = [
    "CARD_GREY",
    "COMMON_DEFAULTS",
    "D10_ROTATIONS",
    "D6_ROTATIONS",
    "DIE_FACES",
    "OBJECT_KEY_ORDER",
    "PLAYER_COLORS",
    "SEAT_COLORS",
    "bag",
    "card",
    "card_id",
    "color",
    "custom_board",
    "custom_deck_entry",
    "custom_dice",
    "custom_image",
    "custom_tile",
    "custom_token",
    "deck",
    "default_hand_triggers",
    "game_object",
    "hand_trigger",
    "infinite_bag",
    "laid_transform",
    "scripting_trigger",
    "snap_point",
    "transform",
    "vector",
]

#: Every object key the builders may write, in the order TTS v13 writes them (FORMAT §3.1).
OBJECT_KEY_ORDER: tuple[str, ...] = (
    # common block
    "GUID", "Name", "Transform", "Nickname", "Description", "GMNotes", "AltLookAngle",
    "ColorDiffuse", "Tags", "LayoutGroupSortIndex", "Value", "Locked", "Grid", "Snap", "IgnoreFoW",
    "MeasureMovement", "DragSelectable", "Autoraise", "Sticky", "Tooltip", "GridProjection",
    "HideWhenFaceDown", "Hands",
    # type-specific block
    "AltSound", "MaterialIndex", "MeshIndex", "Number", "CardID", "SidewaysCard", "DeckIDs",
    "CustomDeck", "CustomImage", "CustomMesh", "CustomAssetbundle", "CustomPDF", "FogColor",
    "FogHidePointers", "FogReverseHiding", "FogSeethrough", "Text", "Counter", "Bag", "Clock",
    "Mp3Player", "Tablet",
    # scripts
    "LuaScript", "LuaScriptState", "XmlUI",
    # physics overrides: position in v13 not observed, v12 writes them after the scripts
    "PhysicsMaterial", "Rigidbody",
    # trailing lists
    "RotationValues", "AttachedSnapPoints", "AttachedDecals", "ContainedObjects", "States",
    "ChildObjects",
)  # fmt: skip

_TRANSFORM_KEYS: tuple[str, ...] = (
    "posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ",
)  # fmt: skip

#: Defaults of the v13 common fields and script fields every object carries (FORMAT §3.1).
COMMON_DEFAULTS: Mapping[str, Any] = {
    "Nickname": "",
    "Description": "",
    "GMNotes": "",
    "AltLookAngle": {"x": 0.0, "y": 0.0, "z": 0.0},
    "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
    "LayoutGroupSortIndex": 0,
    "Value": 0,
    "Locked": False,
    "Grid": True,
    "Snap": True,
    "IgnoreFoW": False,
    "MeasureMovement": False,
    "DragSelectable": True,
    "Autoraise": True,
    "Sticky": True,
    "Tooltip": True,
    "GridProjection": False,
    "HideWhenFaceDown": False,
    "Hands": False,
    "LuaScript": "",
    "LuaScriptState": "",
    "XmlUI": "",
}

WHITE: Color = (1.0, 1.0, 1.0)
#: The grey TTS gives every card and deck (DECKCONV ``DefaultColorDiffuse``, observed).
CARD_GREY: Color = (0.713235259, 0.713235259, 0.713235259)
#: Scripting zones in S:arknova use this alpha.
ZONE_ALPHA = 0.509803951

#: Faces per ``CustomDice.Type`` (0 = d4 … 5 = d20; API-custom, TYPED ``DieType``).
DIE_FACES: Mapping[int, int] = {0: 4, 1: 6, 2: 8, 3: 10, 4: 12, 5: 20}

#: d6 RotationValues of Die_6 and custom d6 (S:merchantalismo, S:buyn1; FORMAT §4.3).
D6_ROTATIONS: tuple[tuple[str, Vec3], ...] = (
    ("1", (-90.0, 0.0, 0.0)),
    ("2", (0.0, 0.0, 0.0)),
    ("3", (0.0, 0.0, -90.0)),
    ("4", (0.0, 0.0, 90.0)),
    ("5", (0.0, 0.0, -180.0)),
    ("6", (90.0, 0.0, 0.0)),
)

#: d10 RotationValues of Die_10 and custom d10 (S:lazzz; FORMAT §4.3).
D10_ROTATIONS: tuple[tuple[str, Vec3], ...] = (
    ("1", (-38.0, 0.0, 234.0)),
    ("2", (38.0, 180.0, -233.0)),
    ("3", (-38.0, 0.0, 20.0)),
    ("4", (38.0, 180.0, -17.0)),
    ("5", (-38.0, 0.0, 90.0)),
    ("6", (38.0, 180.0, -161.0)),
    ("7", (-38.0, 0.0, 307.0)),
    ("8", (38.0, 180.0, -304.0)),
    ("9", (-38.0, 0.0, 163.0)),
    ("10", (38.0, 180.0, -90.0)),
)

#: Sheet limits (DECKCONV; observed maximum 10×7) and card shapes 0..4 (API-custom).
MAX_SHEET_WIDTH = 10
MAX_SHEET_HEIGHT = 7
CARD_TYPES = range(5)
TILE_TYPES = range(4)  # 0 box, 1 hex, 2 circle, 3 rounded
BAG_ORDERS = range(3)  # 0 LIFO, 1 FIFO, 2 random

_GUID_RE = re.compile(r"[0-9a-f]{6}")


# --- small values -------------------------------------------------------------------------------


def vector(v: Sequence[float]) -> dict[str, float]:
    """``{x, y, z}`` with float components."""
    x, y, z = v
    return {"x": float(x), "y": float(y), "z": float(z)}


def color(c: Sequence[float]) -> dict[str, float]:
    """``{r, g, b[, a]}`` with float channels in 0..1."""
    if len(c) not in (3, 4):
        raise ValueError(f"a colour has 3 or 4 channels, got {len(c)}")
    if any(not 0.0 <= float(ch) <= 1.0 for ch in c):
        raise ValueError(f"colour channels must be in 0..1, got {tuple(c)}")
    return dict(zip("rgba", (float(ch) for ch in c), strict=False))


_color = color  # the builders below take a parameter named ``color``


def transform(
    pos: Sequence[float],
    rot: Sequence[float] = (0.0, 0.0, 0.0),
    scale: Sequence[float] = (1.0, 1.0, 1.0),
) -> dict[str, float]:
    """A ``Transform``: the nine keys posX..scaleZ, all floats, scale nonzero."""
    if any(float(s) == 0.0 for s in scale):
        raise ValueError(f"scale components must be nonzero, got {tuple(scale)}")
    values = [*pos, *rot, *scale]
    if len(values) != 9:
        raise ValueError("pos, rot and scale each need three components")
    return {key: float(v) for key, v in zip(_TRANSFORM_KEYS, values, strict=True)}


def laid_transform(
    centre: Sequence[float],
    size: Sequence[float],
    image_size: Sequence[int],
    reader_hand_rot_y: float = 0.0,
    surface_y: float | None = None,
) -> dict[str, float]:
    """The Transform of a Stretch Custom_Tile lying on ``surface_y`` (default the table top)
    centred on ``centre`` (x, z), covering ``size`` (x × z units along its image's width and
    height) and reading upright for the seat whose hand has ``reader_hand_rot_y``
    (:mod:`tts_builder.geometry`: footprint 2·(W/H) × 2, rotY = hand rotY + 180, scaleY 1)."""
    from tts_builder import geometry as geo

    width, height = image_size
    at = geo.tile_transform_for(
        centre, (float(size[0]), float(size[1])), width / height,
        geo.reader_rot_y(reader_hand_rot_y),
        geo.TABLE_TOP_Y if surface_y is None else surface_y,
    )  # fmt: skip
    return at.as_save()


def snap_point(
    pos: Sequence[float], rot: Sequence[float] | None = None, tags: Iterable[str] | None = None
) -> dict[str, Any]:
    """A snap point ``{Position, [Rotation], [Tags]}`` (global, or local to its object)."""
    point: dict[str, Any] = {"Position": vector(pos)}
    if rot is not None:
        point["Rotation"] = vector(rot)
    if tags:
        point["Tags"] = list(tags)
    return point


def _transform_or(given: Mapping[str, float] | None, pos: Vec3, rot: Vec3 = (0.0, 0.0, 0.0)):
    return dict(given) if given is not None else transform(pos, rot)


# --- the generic object -------------------------------------------------------------------------


def ordered(values: Mapping[str, Any]) -> Obj:
    """``values`` re-keyed in :data:`OBJECT_KEY_ORDER`; an unknown key is a ValueError."""
    unknown = [key for key in values if key not in OBJECT_KEY_ORDER]
    if unknown:
        raise ValueError(f"unknown object field(s): {', '.join(unknown)}")
    return {key: values[key] for key in OBJECT_KEY_ORDER if key in values}


def game_object(
    name: str,
    guid: str,
    transform: Mapping[str, float] | None = None,
    *,
    nickname: str = "",
    description: str = "",
    gm_notes: str = "",
    color: Sequence[float] = WHITE,
    tags: Iterable[str] = (),
    lua_script: str = "",
    lua_script_state: str = "",
    xml_ui: str = "",
    fields: Mapping[str, Any] | None = None,
) -> Obj:
    """Any object: the common v13 fields plus ``fields`` (TTS keys, overriding the defaults).

    ``Tags`` is written only when ``tags`` is not empty, as TTS does.
    """
    if not _GUID_RE.fullmatch(guid):
        raise ValueError(f"GUID must be 6 lower-case hex characters, got {guid!r}")
    values: dict[str, Any] = copied(dict(COMMON_DEFAULTS))
    values.update(
        GUID=guid,
        Name=name,
        Transform=_transform_or(transform, (0.0, 1.0, 0.0)),
        Nickname=nickname,
        Description=description,
        GMNotes=gm_notes,
        ColorDiffuse=_color(color),
        LuaScript=lua_script,
        LuaScriptState=lua_script_state,
        XmlUI=xml_ui,
    )
    tag_list = list(tags)
    if tag_list:
        values["Tags"] = tag_list
    values.update(copied(dict(fields or {})))
    return ordered(values)


# --- cards and decks ----------------------------------------------------------------------------


def custom_deck_entry(
    face_url: str,
    back_url: str,
    num_width: int,
    num_height: int,
    back_is_hidden: bool = True,
    unique_back: bool = False,
    card_type: int = 0,
) -> dict[str, Any]:
    """One ``CustomDeck`` value: a face sheet of ``num_width`` × ``num_height`` cards."""
    if not 1 <= num_width <= MAX_SHEET_WIDTH or not 1 <= num_height <= MAX_SHEET_HEIGHT:
        raise ValueError(
            f"a sheet is at most {MAX_SHEET_WIDTH}x{MAX_SHEET_HEIGHT}, got {num_width}x{num_height}"
        )
    if card_type not in CARD_TYPES:
        raise ValueError(f"card type must be 0..4, got {card_type}")
    if not face_url or not back_url:
        raise ValueError("FaceURL and BackURL must not be empty")
    return {
        "FaceURL": face_url,
        "BackURL": back_url,
        "NumWidth": int(num_width),
        "NumHeight": int(num_height),
        "BackIsHidden": bool(back_is_hidden),
        "UniqueBack": bool(unique_back),
        "Type": int(card_type),
    }


def card_id(deck_id: int, index: int) -> int:
    """``CardID`` of sheet slot ``index`` (row-major, 0-based) of deck ``deck_id``."""
    if deck_id < 1 or not 0 <= index < 100:
        raise ValueError(f"deck id must be >= 1 and index 0..99, got {deck_id}, {index}")
    return deck_id * 100 + index


def card(
    guid: str,
    card_id: int,
    deck_entry: Mapping[str, Any],
    *,
    sideways: bool = False,
    name: str = "Card",
    **info: Unpack[Described],
) -> Obj:
    """A custom card carrying its own one-entry ``CustomDeck`` keyed ``str(card_id // 100)``.

    The default transform lies face down (rotY 180, rotZ 180) at the origin.
    """
    slots = deck_entry["NumWidth"] * deck_entry["NumHeight"]
    if card_id < 100 or not 0 <= card_id % 100 < slots:
        raise ValueError(f"CardID {card_id} is not on a {slots}-slot sheet with deck id >= 1")
    return game_object(
        name,
        guid,
        **_face_down(info),
        color=CARD_GREY,
        fields={
            "HideWhenFaceDown": True,
            "Hands": True,
            "CardID": int(card_id),
            "SidewaysCard": bool(sideways),
            "CustomDeck": {str(card_id // 100): dict(deck_entry)},
        },
    )


def deck(
    guid: str,
    cards: Sequence[Mapping[str, Any]],
    *,
    name: str = "DeckCustom",
    **info: Unpack[Described],
) -> Obj:
    """A deck of ``cards`` (top card first): DeckIDs, merged CustomDeck, ContainedObjects."""
    if len(cards) < 2:
        raise ValueError(f"a deck holds at least 2 cards, got {len(cards)}; use a card instead")
    merged: dict[str, Any] = {}
    for c in cards:
        for key, entry in c["CustomDeck"].items():
            if merged.setdefault(key, entry) != entry:
                raise ValueError(f"cards disagree about CustomDeck entry {key!r}")
    return game_object(
        name,
        guid,
        **_face_down(info),
        color=CARD_GREY,
        fields={
            "HideWhenFaceDown": True,
            "Hands": False,
            "SidewaysCard": all(c.get("SidewaysCard", False) for c in cards),
            "DeckIDs": [c["CardID"] for c in cards],
            "CustomDeck": merged,
            "ContainedObjects": list(cards),
        },
    )


def _face_down(info: Described) -> dict[str, Any]:
    """``info`` with a face-down transform at the origin unless one was given."""
    given = dict(info)
    given["transform"] = _transform_or(given.get("transform"), (0.0, 1.0, 0.0), (0.0, 180.0, 180.0))
    return given


# --- image-based objects ------------------------------------------------------------------------


def custom_image(
    image_url: str,
    secondary_url: str = "",
    *,
    width_scale: float = 0.0,
    image_scalar: float = 1.0,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``CustomImage`` block; ``extra`` holds the CustomTile/CustomToken/CustomDice entry."""
    if not image_url:
        raise ValueError("ImageURL must not be empty")
    block: dict[str, Any] = {
        "ImageURL": image_url,
        "ImageSecondaryURL": secondary_url,
        "ImageScalar": float(image_scalar),
        "WidthScale": float(width_scale),
    }
    block.update(extra or {})
    return block


def custom_token(
    guid: str,
    image_url: str,
    *,
    thickness: float = 0.2,
    stand_up: bool = False,
    stackable: bool = False,
    merge_distance: float = 15.0,
    locked: bool = False,
    **common: Unpack[Common],
) -> Obj:
    """A ``Custom_Token``: its outline comes from the image's transparency (KB-token)."""
    token = {
        "Thickness": float(thickness),
        "MergeDistancePixels": float(merge_distance),
        "StandUp": bool(stand_up),
        "Stackable": bool(stackable),
    }
    image = custom_image(image_url, extra={"CustomToken": token})
    return game_object(
        "Custom_Token", guid, **common, fields={"Locked": locked, "CustomImage": image}
    )


def custom_tile(
    guid: str,
    image_url: str,
    secondary_url: str = "",
    tile_type: int = 0,
    thickness: float = 0.2,
    *,
    stackable: bool = False,
    stretch: bool = True,
    locked: bool = False,
    **common: Unpack[Common],
) -> Obj:
    """A ``Custom_Tile`` (type 0 box, 1 hex, 2 circle, 3 rounded); size comes from the scale."""
    if tile_type not in TILE_TYPES:
        raise ValueError(f"tile type must be 0..3, got {tile_type}")
    tile = {
        "Type": int(tile_type),
        "Thickness": float(thickness),
        "Stackable": bool(stackable),
        "Stretch": bool(stretch),
    }
    image = custom_image(image_url, secondary_url, extra={"CustomTile": tile})
    return game_object(
        "Custom_Tile", guid, **common, fields={"Locked": locked, "CustomImage": image}
    )


def custom_board(
    guid: str,
    image_url: str,
    width_scale: float = 0.0,
    *,
    locked: bool = True,
    **common: Unpack[Common],
) -> Obj:
    """A ``Custom_Board`` (locked by default, as boards spawn); dimensions come from the image.

    Its size on the table is not established (GEOMETRY §2): for a printed board whose cells a
    script uses, prefer :func:`custom_tile` (Stretch) placed with :func:`laid_transform`.
    """
    image = custom_image(image_url, width_scale=width_scale)
    return game_object(
        "Custom_Board", guid, **common, fields={"Locked": locked, "CustomImage": image}
    )


def custom_dice(
    guid: str,
    image_url: str,
    rotation_values: Sequence[tuple[object, Sequence[float]]] = D6_ROTATIONS,
    *,
    die_type: int = 1,
    **common: Unpack[Common],
) -> Obj:
    """A ``Custom_Dice``: ``CustomDice.Type`` nested in CustomImage, one RotationValue per face.

    Labels are written as strings, as v13 does.
    """
    if die_type not in DIE_FACES:
        raise ValueError(f"die type must be 0..5, got {die_type}")
    if len(rotation_values) != DIE_FACES[die_type]:
        raise ValueError(
            f"die type {die_type} has {DIE_FACES[die_type]} faces, "
            f"got {len(rotation_values)} rotation values"
        )
    return game_object(
        "Custom_Dice",
        guid,
        **common,
        fields={
            "CustomImage": custom_image(image_url, extra={"CustomDice": {"Type": int(die_type)}}),
            "RotationValues": [
                {"Value": str(label), "Rotation": vector(rot)} for label, rot in rotation_values
            ],
        },
    )


# --- containers ---------------------------------------------------------------------------------


def bag(
    guid: str,
    contained: Sequence[Mapping[str, Any]],
    order: int = 0,
    *,
    locked: bool = False,
    **common: Unpack[Common],
) -> Obj:
    """A ``Bag`` holding ``contained``; ``order`` 0 = LIFO, 1 = FIFO, 2 = random."""
    if order not in BAG_ORDERS:
        raise ValueError(f"bag order must be 0..2, got {order}")
    return _container("Bag", guid, contained, locked, common, {"Bag": {"Order": int(order)}})


def infinite_bag(
    guid: str,
    template_object: Mapping[str, Any],
    *,
    locked: bool = False,
    **common: Unpack[Common],
) -> Obj:
    """An ``Infinite_Bag`` whose single contained object is the template it copies."""
    return _container("Infinite_Bag", guid, [template_object], locked, common)


def _container(
    name: str,
    guid: str,
    contained: Sequence[Mapping[str, Any]],
    locked: bool,
    common: Common,
    extra: Mapping[str, Any] | None = None,
) -> Obj:
    """A bag of either kind (``name``) holding ``contained``, with its ``extra`` fields."""
    fields = {"Locked": locked, "MaterialIndex": -1, "MeshIndex": -1, **(extra or {})}
    return game_object(name, guid, **common, fields={**fields, "ContainedObjects": list(contained)})


# --- zones --------------------------------------------------------------------------------------


def hand_trigger(guid: str, color: str, transform: Mapping[str, float]) -> Obj:
    """A hand zone owned by seat ``color``: FogColor, the player colour with alpha 0.0, locked."""
    if color not in SEAT_COLORS:
        raise ValueError(f"hand colour must be one of {', '.join(SEAT_COLORS)}, got {color!r}")
    return game_object(
        "HandTrigger",
        guid,
        transform,
        color=(*PLAYER_COLORS[color], 0.0),
        fields={"Locked": True, "Grid": False, "FogColor": color},
    )


def default_hand_triggers(
    guid_for: Callable[[str], str],
    table: str = "Table_RPG",
    colors: Iterable[str] | None = None,
) -> list[Obj]:
    """The table's default hand zones (FORMAT §5.2), one per colour, in the table's seat order.

    ``guid_for(color)`` supplies each zone's GUID; ``colors`` keeps only those seats.
    """
    placements = HAND_PLACEMENTS.get(table)
    if placements is None:
        raise ValueError(f"no default hand zones known for {table!r}")
    wanted = set(placements if colors is None else colors)
    missing = wanted - set(placements)
    if missing:
        raise ValueError(f"{table} has no default hand zone for {', '.join(sorted(missing))}")
    return [
        hand_trigger(guid_for(name), name, transform(*placement))
        for name, placement in placements.items()
        if name in wanted
    ]


def scripting_trigger(
    guid: str,
    transform: Mapping[str, float],
    *,
    color_alpha: float = ZONE_ALPHA,
    **info: Unpack[Described],
) -> Obj:
    """A scripting zone; its box is ``Transform`` scale, its colour white with ``color_alpha``."""
    return game_object(
        "ScriptingTrigger",
        guid,
        transform,
        **info,
        color=(1.0, 1.0, 1.0, color_alpha),
        fields={"Locked": True},
    )
