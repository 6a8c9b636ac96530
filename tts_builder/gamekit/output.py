"""What every game's build writes the same way: the save's header from the definition, and the
files of a build folder."""

from __future__ import annotations

from collections.abc import Sequence

from ..json_types import Data
from ..save import dumps, new_save


def game_save(
    data: Data,
    *,
    name: str,
    objects: Sequence[Data],
    script: str,
    ui: str,
    note: str,
    game_mode: str | None = None,
    snap_points: Sequence[Data] | None = None,
) -> Data:
    """The save of a definition's table: ``name`` (and ``game_mode``, default ``name``) over
    the definition's header (tags, players, playing time, complexity) and its table and sky."""
    return new_save(
        save_name=name,
        game_mode=name if game_mode is None else game_mode,
        objects=objects,
        lua_script=script,
        xml_ui=ui,
        tags=data.get("tags", []),
        player_counts=(data["players"]["min"], data["players"]["max"]),
        playing_time=data.get("playing_time"),
        complexity=data.get("complexity", ""),
        table=data["table"]["type"],
        sky=data["table"]["sky"],
        note=note,
        snap_points=snap_points,
    )


def build_files(
    stem: str, save: Data, thumbnail: bytes, preview: bytes, script: str, ui: str
) -> dict[str, bytes]:
    """A build folder's files: the save and its thumbnail beside it (``<stem>.json`` and
    ``<stem>.png``, as TTS keeps them), ``preview.png`` and the scripts."""
    return {
        f"{stem}.json": dumps(save),
        f"{stem}.png": thumbnail,
        "preview.png": preview,
        "scripts/Global.lua": script.encode("utf-8"),
        "scripts/Global.xml": ui.encode("utf-8"),
    }
