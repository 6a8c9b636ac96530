"""``tts-builder new``: a designer's own game, copied from an existing one and renamed.

:func:`game_folder_files` reads the source folder (its own files only: no link out of it is
followed); the rest is pure: :func:`new_game_files` turns those files into the files of the
copy (its ``game.yaml`` with the new id, title and engine; file names carrying the old id
renamed), plus ``game.schema.json``, the JSON Schema of its engine's definitions, which the
``game.yaml``'s first line names for YAML editors (docs/decisions.md). The command line writes
the result.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from .definition import DEFINITION_FILE, ENGINE_FIELD, SCHEMA_FILE, json_schema_text
from .errors import BuildError

#: The first line of a new game's ``game.yaml``: the schema an editor checks it with.
MODELINE = f"# yaml-language-server: $schema={SCHEMA_FILE}\n"
_MODELINE_RE = re.compile(r"\A# yaml-language-server: \$schema=[^\n]*\n?")
ID_RE = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
SKIPPED_PARTS = ("__pycache__",)


#: Words a title keeps in lower case unless they come first.
SMALL_WORDS = frozenset({"a", "an", "and", "at", "for", "in", "of", "on", "or", "the", "to"})


def title_of(game_id: str) -> str:
    """A game's title from its id: ``my-ark`` -> ``My Ark``, ``my-ark-and-noah`` -> ``My Ark
    and Noah``."""
    words = game_id.split("-")
    return " ".join(w if i and w in SMALL_WORDS else w.capitalize() for i, w in enumerate(words))


#: Names Windows keeps for devices (with or without an extension): no folder can have them.
RESERVED_NAMES = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{d}{n}" for d in ("com", "lpt") for n in range(10)}
)
#: The longest game id: a folder name every file system holds, with room for the files in it.
MAX_ID_LENGTH = 64


def check_new_id(game_id: str) -> None:
    """A one-line error unless ``game_id`` is a lower-case id like ``my-game`` that every file
    system can hold as a folder name."""
    if not ID_RE.fullmatch(game_id):
        raise BuildError(f"{game_id[:80]!r}: a game name is a lower-case id like 'my-game'")
    if len(game_id) > MAX_ID_LENGTH:
        raise BuildError(f"{game_id[:20]}...: a game name has at most {MAX_ID_LENGTH} characters")
    if game_id.split("-")[0] in RESERVED_NAMES or game_id in RESERVED_NAMES:
        raise BuildError(f"{game_id!r}: Windows keeps this name for a device; pick another")


def game_folder_files(folder: Path) -> dict[str, bytes]:
    """The files of a game folder to copy (relative path -> bytes): regular files, and links to
    files inside the folder as the file they name; a link out of the folder (or a link loop) is
    left out, so nothing outside the game is copied into the new one."""
    inside = folder.resolve()
    files: dict[str, bytes] = {}
    for top, dirs, names in os.walk(folder):  # links to folders are not followed
        for name in sorted(names):
            path = Path(top) / name
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):
                continue
            if target.is_relative_to(inside) and target.is_file():
                files[path.relative_to(folder).as_posix()] = target.read_bytes()
        dirs.sort()
    return files


def renamed_definition(text: str, old_id: str, new_id: str, engine: str) -> str:
    """``game.yaml`` text with the new ``id``, a title from it and the ``engine`` key set,
    and :data:`MODELINE` first (in place of the source's own).

    Only those lines change; comments and everything else stay as they were.
    """
    id_line = re.compile(r"^id:[^\n]*$", re.MULTILINE)
    if not id_line.search(text):
        raise BuildError(f"{old_id}/{DEFINITION_FILE}: has no top-level 'id:' line to rename")
    text = MODELINE + _MODELINE_RE.sub("", text, count=1)
    text = id_line.sub(f"id: {new_id}", text, count=1)
    text = re.sub(r"^name:[^\n]*$", f'name: "{title_of(new_id)}"', text, count=1, flags=re.M)
    engine_line = re.compile(rf"^{ENGINE_FIELD}:[^\n]*$", re.MULTILINE)
    if engine_line.search(text):
        return engine_line.sub(f"{ENGINE_FIELD}: {engine}", text, count=1)
    return id_line.sub(f"id: {new_id}\n{ENGINE_FIELD}: {engine}", text, count=1)


def new_game_files(
    files: Mapping[str, bytes], old_id: str, new_id: str, engine: str
) -> dict[str, bytes]:
    """The copy's files (relative path -> bytes) from the source game's files, with the
    JSON Schema of ``engine``'s definitions as :data:`SCHEMA_FILE` (the source's replaced)."""
    out: dict[str, bytes] = {SCHEMA_FILE: json_schema_text(engine).encode("utf-8")}
    for rel, data in sorted(files.items()):
        parts = rel.split("/")
        if rel == SCHEMA_FILE or any(p in SKIPPED_PARTS or p.startswith(".") for p in parts):
            continue
        if rel == DEFINITION_FILE:
            text = renamed_definition(data.decode("utf-8"), old_id, new_id, engine)
            out[rel] = text.encode("utf-8")
        else:
            out["/".join(p.replace(old_id, new_id) for p in parts)] = data
    return out
