"""The top-level save (FORMAT §2, §6): build it, write it as bytes, read it back."""

from __future__ import annotations

import json
import math
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring as _json_string  # ensure_ascii=False's
from pathlib import Path
from typing import Any

from tts_builder.errors import BuildError
from tts_builder.json_types import copied
from tts_builder.save.tables import CUSTOM_IMAGE_TABLES, PLAYER_COLORS, TABLE_NAMES

Save = dict[str, Any]

#: A real v13 version string (S:merchantalismo, the newest collected save).
VERSION_NUMBER = "v13.3"
#: A fixed EpochTime (S:merchantalismo's) so that the same input always gives the same bytes.
FIXED_EPOCH_TIME = 1727221825

#: Top-level keys in the order TTS v13 writes them (FORMAT §2). Keys whose default is ``None`` are
#: written only when given. Where TTS's order between optional keys is unknown, the comment says so.
TOP_LEVEL_DEFAULTS: Mapping[str, Any] = {
    "SaveName": "",
    "EpochTime": FIXED_EPOCH_TIME,
    "Date": "",
    "VersionNumber": VERSION_NUMBER,
    "GameMode": "",
    "GameType": "",
    "GameComplexity": "",
    "PlayingTime": None,
    "PlayerCounts": None,
    "Tags": [],
    "Gravity": 0.5,
    "PlayArea": 0.5,
    "Table": "Table_RPG",
    "TableURL": None,
    "Sky": "Sky_Museum",
    "SkyURL": None,
    "Note": "",
    "TabStates": {},
    "MusicPlayer": None,
    "Grid": {
        "Type": 0,
        "Lines": False,
        "Color": {"r": 0.0, "g": 0.0, "b": 0.0},
        "Opacity": 0.75,
        "ThickLines": False,
        "Snapping": False,
        "Offset": False,
        "BothSnapping": False,
        "xSize": 2.0,
        "ySize": 2.0,
        "PosOffset": {"x": 0.0, "y": 1.0, "z": 0.0},
    },
    "Lighting": {
        "LightIntensity": 0.54,
        "LightColor": {"r": 1.0, "g": 0.9804, "b": 0.8902},
        "AmbientIntensity": 1.3,
        "AmbientType": 0,
        "AmbientSkyColor": {"r": 0.5, "g": 0.5, "b": 0.5},
        "AmbientEquatorColor": {"r": 0.5, "g": 0.5, "b": 0.5},
        "AmbientGroundColor": {"r": 0.5, "g": 0.5, "b": 0.5},
        "ReflectionIntensity": 1.0,
        "LutIndex": 0,
        "LutContribution": 1.0,
    },
    "Hands": {"Enable": True, "DisableUnused": False, "Hiding": 0},
    "ComponentTags": {"labels": []},
    "Turns": {
        "Enable": False,
        "Type": 0,
        "TurnOrder": [],
        "Reverse": False,
        "SkipEmpty": False,
        "DisableInteractions": False,
        "PassTurns": True,
        "TurnColor": "",
    },
    "CameraStates": None,
    "DecalPallet": [],
    "LuaScript": "",
    "LuaScriptState": "",
    "XmlUI": "",
    "CustomUIAssets": None,  # order among CustomUIAssets/VectorLines not observed
    "VectorLines": None,  # S:lazzz, S:wskca: after XmlUI, before SnapPoints
    "SnapPoints": None,
    "ObjectStates": [],
}

#: Containers whose entries are objects: recursed into when collecting tags or walking.
CHILD_LISTS: tuple[str, ...] = ("ContainedObjects", "ChildObjects")


def json_kind(value: object) -> str:
    """The JSON name of a parsed value's type (``int`` and ``float`` kept apart), for messages."""
    if isinstance(value, bool):
        return "boolean"
    names = {int: "int", float: "float", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "null" if value is None else type(value).__name__)


def normalize_tag(tag: str) -> str:
    """ComponentTags' ``normalized`` form: lower case, spaces → underscores."""
    return tag.lower().replace(" ", "_")


def iter_objects(objects: Iterable[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every object, depth first: contained objects, state alternatives and children included."""
    for obj in objects:
        yield obj
        for key in CHILD_LISTS:
            yield from iter_objects(obj.get(key) or ())
        yield from iter_objects((obj.get("States") or {}).values())


def component_tags(
    objects: Iterable[Mapping[str, Any]], snap_points: Iterable[Mapping[str, Any]] = ()
) -> dict[str, list[dict[str, str]]]:
    """``ComponentTags`` listing every tag of the objects and snap points, first use first."""
    labels: dict[str, str] = {}

    def add(tags: Iterable[str]) -> None:
        for tag in tags:
            labels.setdefault(normalize_tag(tag), tag)

    for obj in iter_objects(objects):
        add(obj.get("Tags") or ())
        for point in obj.get("AttachedSnapPoints") or ():
            add(point.get("Tags") or ())
    for point in snap_points:
        add(point.get("Tags") or ())
    return {"labels": [{"displayed": d, "normalized": n} for n, d in labels.items()]}


def tab_state(title: str, body: str, color: str = "Grey") -> dict[str, Any]:
    """One notebook tab (its ``id`` is set by :func:`new_save`); ``color`` is a player colour."""
    if color not in PLAYER_COLORS:
        raise ValueError(f"tab colour must be a player colour, got {color!r}")
    r, g, b = PLAYER_COLORS[color]
    return {"title": title, "body": body, "color": color, "visibleColor": {"r": r, "g": g, "b": b}}


def new_save(
    *,
    save_name: str,
    game_mode: str,
    objects: Sequence[Mapping[str, Any]],
    lua_script: str,
    xml_ui: str,
    tags: Iterable[str] = (),
    player_counts: tuple[int, int] | None = None,
    playing_time: tuple[int, int] | None = None,
    game_type: str = "Game",
    complexity: str = "",
    table: str = "Table_RPG",
    table_url: str | None = None,
    sky: str = "Sky_Museum",
    note: str = "",
    snap_points: Sequence[Mapping[str, Any]] | None = None,
    tab_states: Sequence[Mapping[str, Any]] | None = None,
) -> Save:
    """A complete v13 save in TTS key order, deterministic for the same arguments.

    ``Date`` is empty and ``EpochTime`` fixed. ``ComponentTags`` is built from every tag used.
    ``tab_states`` are :func:`tab_state` values; they are keyed "0", "1", … with matching ids.
    """
    if table not in TABLE_NAMES:
        raise ValueError(f"unknown table {table!r}; expected one of {', '.join(TABLE_NAMES)}")
    if table in CUSTOM_IMAGE_TABLES and not table_url:
        raise ValueError(f"{table} needs a table_url")
    for label, pair in (("player_counts", player_counts), ("playing_time", playing_time)):
        if pair is not None and not 0 < pair[0] <= pair[1]:
            raise ValueError(f"{label} must be (min, max) with 0 < min <= max, got {pair}")
    object_list = copied(list(objects))  # a deep copy: the save shares nothing with its caller
    points = copied(list(snap_points or ()))
    given: dict[str, Any] = {
        "SaveName": save_name,
        "GameMode": game_mode,
        "GameType": game_type,
        "GameComplexity": complexity,
        "PlayingTime": list(playing_time) if playing_time else None,
        "PlayerCounts": list(player_counts) if player_counts else None,
        "Tags": list(tags),
        "Table": table,
        "TableURL": table_url,
        "Sky": sky,
        "Note": note,
        "TabStates": {str(i): {**tab, "id": i} for i, tab in enumerate(tab_states or ())},
        "ComponentTags": component_tags(object_list, points),
        "LuaScript": lua_script,
        "XmlUI": xml_ui,
        "SnapPoints": points or None,
        "ObjectStates": object_list,
    }
    save: Save = {}
    for key, default in TOP_LEVEL_DEFAULTS.items():
        value = given[key] if key in given else copied(default)
        if value is not None:
            save[key] = value
    return save


def dumps(save: Mapping[str, Any]) -> bytes:
    """The save as TTS writes it: UTF-8 without BOM, LF, 2-space indent, insertion key order.

    Python writes every float with a decimal point or an exponent (``1.0``, ``1e-07``), so floats
    stay floats; NaN and infinity are rejected. The text ends with a newline. The text is
    ``json.dumps(save, indent=2, ensure_ascii=False, allow_nan=False)``, written by
    :func:`_indented` (the same text, quicker than json's indenting encoder,
    which is pure Python) where the save holds only plain JSON values.
    """
    try:
        text = _indented(save)
    except (_NotPlain, RecursionError):  # anything else: json says what (or raises)
        text = json.dumps(save, indent=2, ensure_ascii=False, allow_nan=False)
    return (text + "\n").encode("utf-8")


class _NotPlain(Exception):
    """A value :func:`_indented` leaves to ``json.dumps``."""


def _indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` for a value made of dicts with str
    keys, lists, tuples, str, int, float (finite), bool and None, of exactly those types
    (subclasses, NaN, infinity and anything else raise :class:`_NotPlain`)."""
    out: list[str] = []
    _write(value, out, "\n")
    return "".join(out)


def _write(value: Any, out: list[str], newline: str) -> None:
    """Append the JSON of ``value`` to ``out``; ``newline`` ends a line at its depth."""
    kind = type(value)
    if kind is str:
        out.append(_json_string(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        lead = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out.append(lead)
            out.append(_json_string(key))
            out.append(": ")
            _write(item, out, inner)
            lead = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        lead = "[" + inner
        for item in value:
            out.append(lead)
            _write(item, out, inner)
            lead = "," + inner
        out.append(newline + "]")
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif kind is int:
        out.append(int.__repr__(value))
    elif kind is float and math.isfinite(value):
        out.append(float.__repr__(value))
    else:
        raise _NotPlain


#: The largest save ``check`` reads (bytes): well above the largest real mods' saves (tens of
#: MB), well below what would take minutes to check.
MAX_SAVE_BYTES = 256 * 2**20


def read_save(path: Path) -> bytes:
    """The bytes of the save file at ``path``: a regular file of at most
    :data:`MAX_SAVE_BYTES` (a FIFO, a device or a folder is refused, never read or waited on);
    BuildError naming ``path`` otherwise."""
    try:
        info = path.stat()
    except OSError as err:
        raise BuildError(f"{path}: cannot read: {err.strerror or err}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise BuildError(f"{path}: {kind}; a save is a .json file")
    if info.st_size > MAX_SAVE_BYTES:
        raise BuildError(
            f"{path}: {info.st_size:,} bytes, more than the {MAX_SAVE_BYTES:,} a save may have"
        )
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SAVE_BYTES + 1)
    except OSError as err:
        raise BuildError(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_SAVE_BYTES:  # it grew while read
        raise BuildError(f"{path}: more than the {MAX_SAVE_BYTES:,} bytes a save may have")
    return data


#: The deepest a save's JSON may nest (levels of objects and arrays): real saves reach 12 (a
#: bag in a bag adds 2), and every check that recurses stays far below Python's stack limit.
MAX_JSON_DEPTH = 100
#: The largest whole number a save may hold: a double's largest (about 1.8e308, 309 digits),
#: all TTS reads a number into; a bigger one only breaks the checks' arithmetic.
MAX_JSON_INT = int(sys.float_info.max)


def loads(data: bytes, source: str) -> Save:
    """Parse save bytes; a corrupt save raises BuildError naming ``source`` and where
    (line:column or the JSON path): also one nested deeper than :data:`MAX_JSON_DEPTH` or
    holding an integer past :data:`MAX_JSON_INT` (or of thousands of digits)."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise BuildError(f"{source}: starts with a UTF-8 byte-order mark; TTS saves have none")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise BuildError(f"{source}:{line}:{column}: not valid UTF-8") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BuildError(f"{source}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        where = _too_deep_in_text(text)
        raise BuildError(f"{source}: {where}: {_TOO_DEEP}") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise BuildError(f"{source}: unreadable JSON: {exc}") from None
    if not isinstance(value, dict):
        raise BuildError(f"{source}: a save is a JSON object, got {json_kind(value)}")
    problem = _past_limits(value)
    if problem is not None:
        raise BuildError(f"{source}: {problem[0]}: {problem[1]}")
    return value


_TOO_DEEP = f"nested too deep (more than {MAX_JSON_DEPTH} levels; TTS writes about 12)"


def json_path(parts: Iterable[str | int]) -> str:
    """``ObjectStates[3].CustomDeck["12"]``: keys that are identifiers after a dot, others
    quoted, indexes in brackets; "$" for the save itself. Printable, on one line."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}" if out else part
        else:
            out += "[" + json.dumps(part) + "]"
    return out or "$"


def _past_limits(save: Save) -> tuple[str, str] | None:
    """(JSON path, problem) of the first value nested deeper than :data:`MAX_JSON_DEPTH` or
    the first integer past :data:`MAX_JSON_INT`, or None."""
    stack: list[tuple[Any, int, tuple[Any, ...]]] = [(save, 1, ())]
    while stack:
        value, depth, trail = stack.pop()
        items = value.items() if type(value) is dict else enumerate(value)
        for key, item in items:
            kind = type(item)
            if kind is dict or kind is list:
                if depth >= MAX_JSON_DEPTH:
                    return json_path(_parts((trail, key))), _TOO_DEEP
                if item:
                    stack.append((item, depth + 1, (trail, key)))
            elif kind is int and not -MAX_JSON_INT <= item <= MAX_JSON_INT:
                digits = len(str(abs(item)))
                return json_path(_parts((trail, key))), (
                    f"a whole number of {digits:,} digits; TTS reads numbers as doubles "
                    "(at most 309 digits)"
                )
    return None


def _parts(trail: tuple[Any, ...]) -> list[str | int]:
    """The keys of a trail ``(((), k1), k2)``, outermost first."""
    parts: list[str | int] = []
    while trail:
        trail, key = trail
        parts.append(key)
    return parts[::-1]


_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?|[\[\]{},]')


def _too_deep_in_text(text: str) -> str:
    """The JSON path, and line:column, of the first value of ``text`` nested deeper than
    :data:`MAX_JSON_DEPTH` (JSON Python's parser could not read for its depth)."""
    stack: list[list[Any]] = []  # per open container: [key or index, is it a list]
    for match in _TOKEN_RE.finditer(text):
        token = match.group()
        if token in "[{":
            if len(stack) > MAX_JSON_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                column = match.start() - text.rfind("\n", 0, match.start())
                parts = [entry[0] for entry in stack]
                return f"{line}:{column}: {json_path(parts)}"
            stack.append([0 if token == "[" else "", token == "["])
        elif token in "]}":
            if stack:
                stack.pop()
        elif token == ",":
            if stack and stack[-1][1]:
                stack[-1][0] += 1
        elif match.group(1) and stack:  # a key
            try:
                stack[-1][0] = json.loads(token[: -len(match.group(1))])
            except ValueError:
                stack[-1][0] = "?"
    return "$"
