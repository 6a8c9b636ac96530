"""Table data: table and sky names, player colours and default hand-zone placements (FORMAT §5)."""

from __future__ import annotations

Vec3 = tuple[float, float, float]
HandPlacement = tuple[Vec3, Vec3, Vec3]  # (position, rotation, scale)

#: Table names accepted by TTS (API-tables, FORMAT §5.3).
TABLE_NAMES: tuple[str, ...] = (
    "Table_Circular",
    "Table_Custom",
    "Table_Custom_Square",
    "Table_Glass",
    "Table_Hexagon",
    "Table_None",
    "Table_Octagon",
    "Table_Plastic",
    "Table_Poker",
    "Table_RPG",
    "Table_Square",
)

#: Tables that take their image from the top-level ``TableURL`` (KB-tables).
CUSTOM_IMAGE_TABLES: frozenset[str] = frozenset({"Table_Custom", "Table_Custom_Square"})

#: Sky names seen in saves and KB-SFF (FORMAT §5.4). A custom sky adds ``SkyURL`` beside one.
SKY_NAMES: tuple[str, ...] = (
    "Sky_Museum",
    "Sky_Forest",
    "Sky_Tunnel",
    "Sky_Field",
    "Sky_Regal",
    "Sky_Sunset",
    "Sky_Downtown",
    "Sky_Cathedral",
)

#: Player colours, in TTS order (API-colors, FORMAT §5.1). Names are case-sensitive.
PLAYER_COLORS: dict[str, Vec3] = {
    "White": (1.0, 1.0, 1.0),
    "Brown": (0.443, 0.231, 0.09),
    "Red": (0.856, 0.1, 0.094),
    "Orange": (0.956, 0.392, 0.113),
    "Yellow": (0.905, 0.898, 0.172),
    "Green": (0.192, 0.701, 0.168),
    "Teal": (0.129, 0.694, 0.607),
    "Blue": (0.118, 0.53, 1.0),
    "Purple": (0.627, 0.125, 0.941),
    "Pink": (0.96, 0.439, 0.807),
    "Grey": (0.5, 0.5, 0.5),
    "Black": (0.25, 0.25, 0.25),
}

#: The ten colours that can sit at the table (the first ten player colours).
SEAT_COLORS: tuple[str, ...] = tuple(PLAYER_COLORS)[:10]

#: Hand zones of a fresh v13.3 ``Table_RPG`` (S:merchantalismo; FORMAT §5.2), in seat order:
#: colour, posX, posZ, rotY, scaleX, scaleY, scaleZ. All have posY 4.81034231 and rotX = rotZ = 0.
_RPG_ROWS: tuple[tuple[str, float, float, float, float, float, float], ...] = (
    ("White", 15.1961212, -20.1400986, 0.0, 11.7719707, 9.174499, 4.871238),
    ("Red", -15.1107731, -20.1076221, 0.0, 11.7719851, 9.174497, 4.871238),
    ("Orange", -30.247818, -8.822588, 90.0, 11.6554317, 9.174497, 4.91995144),
    ("Yellow", -30.2150211, 10.17524, 90.0, 11.6554289, 9.174497, 4.91995144),
    ("Green", -15.1927719, 19.787817, 180.0, 11.7719707, 9.174497, 4.871238),
    ("Blue", 15.4749184, 19.8365288, 179.8, 11.7719746, 9.174497, 4.87124),
    ("Purple", 30.2511711, 9.59069252, 270.0, 11.6554213, 9.174497, 4.91995144),
    ("Pink", 30.1035728, -8.449126, 270.0, 11.6554184, 9.174497, 4.91995144),
)
_RPG_HAND_Y = 4.81034231

RPG_HAND_PLACEMENTS: dict[str, HandPlacement] = {
    color: ((x, _RPG_HAND_Y, z), (0.0, rot_y, 0.0), (sx, sy, sz))
    for color, x, z, rot_y, sx, sy, sz in _RPG_ROWS
}

_CUSTOM_SCALE: Vec3 = (15.33, 11.90, 6.35)

#: Hand zones of a 10-seat ``Table_Custom`` (S:boiling; rounded values from FORMAT §5.2).
CUSTOM_HAND_PLACEMENTS: dict[str, HandPlacement] = {
    "White": ((23.67, 3.29, -34.26), (0.0, 0.0, 0.0), _CUSTOM_SCALE),
    "Brown": ((0.0, 3.29, -34.43), (0.0, 0.0, 0.0), _CUSTOM_SCALE),
    "Red": ((-23.67, 3.29, -34.43), (0.0, 0.0, 0.0), _CUSTOM_SCALE),
    "Orange": ((-51.66, 3.29, -11.73), (0.0, 90.0, 0.0), _CUSTOM_SCALE),
    "Yellow": ((-51.66, 3.29, 11.73), (0.0, 90.0, 0.0), _CUSTOM_SCALE),
    "Green": ((-23.67, 3.29, 34.43), (0.0, 180.0, 0.0), _CUSTOM_SCALE),
    "Teal": ((0.0, 3.29, 34.45), (0.0, 179.8, 0.0), _CUSTOM_SCALE),
    "Blue": ((23.67, 3.29, 34.45), (0.0, 179.8, 0.0), _CUSTOM_SCALE),
    "Purple": ((51.58, 3.29, 11.73), (0.0, 270.0, 0.0), _CUSTOM_SCALE),
    "Pink": ((51.64, 3.29, -11.73), (0.0, 270.0, 0.0), _CUSTOM_SCALE),
}

#: Default hand zones per table, for the tables whose v13 defaults are known.
HAND_PLACEMENTS: dict[str, dict[str, HandPlacement]] = {
    "Table_RPG": RPG_HAND_PLACEMENTS,
    "Table_Custom": CUSTOM_HAND_PLACEMENTS,
}

#: Player counts each table seats (KB-tables, FORMAT §5.2).
TABLE_PLAYER_COUNTS: dict[str, tuple[int, int]] = {
    "Table_Square": (1, 4),
    "Table_Hexagon": (1, 6),
    "Table_Octagon": (1, 8),
    "Table_Circular": (1, 8),
    "Table_Poker": (1, 8),
    "Table_RPG": (1, 8),
    "Table_Glass": (1, 8),
    "Table_Custom_Square": (1, 8),
    "Table_Custom": (1, 10),
}
