"""Installing a build into TTS: ``Saves/TS_Save_<N>.json`` plus its thumbnail, assets on disk.

The images are copied (content-hashed, like published ones) to
``<TTS data folder>/tts-builder/<game>/images/`` and the save points at them with ``file:///``
URLs in the form TTS itself writes on that OS (FORMAT.md §1.3): ``file:///C:\\Users\\...`` on
Windows, ``file:///home/...`` (percent-encoded) elsewhere. Writes are atomic and ordered assets,
thumbnail, save, index, so an interrupted install never leaves a save pointing at missing files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePath, PureWindowsPath
from typing import Any

from ..errors import BuildError
from .publish import built_urls, content_name, rewrite_strings
from .tts_paths import (
    INDEX_FILE,
    Recorded,
    Slot,
    choose_slot,
    file_sha256,
    index_bytes,
    own_dir,
    read_index,
    sha256,
    slot_names,
    used_numbers,
)


def local_file_url(path: PurePath) -> str:
    """The URL TTS writes for a local file: backslashes kept on Windows, a file URI elsewhere."""
    if isinstance(path, PureWindowsPath):
        return "file:///" + str(path)
    return path.as_uri()


def localize(
    build: Any, options: Any, assets_dir: PurePath, save: dict[str, Any] | None = None
) -> tuple[dict[str, Any], dict[str, bytes]]:
    """``save`` (default: the build's main save) pointing at hashed copies of its images under
    ``assets_dir``.

    Returns the rewritten save and the files to put in ``assets_dir`` (relative path -> bytes).
    """
    files: dict[str, bytes] = {}
    mapping: dict[str, str] = {}
    for old_url, rel in built_urls(build, options).items():
        data = build.files[rel]
        name = content_name(rel, data)
        files[name] = data
        mapping[old_url] = local_file_url(assets_dir.joinpath(*name.split("/")))
    return rewrite_strings(build.save if save is None else save, mapping), files


@dataclass(frozen=True)
class InstallPlan:
    """Exactly what one install writes."""

    key: str
    slot: Slot
    saves_dir: Path
    save_bytes: bytes
    thumbnail: bytes
    assets_dir: Path
    assets: dict[str, bytes]
    index: dict[str, Recorded]
    index_note: str = ""  # said when the index on disk could not be used whole

    @property
    def save_path(self) -> Path:
        return self.saves_dir / slot_names(self.slot.number)[0]

    @property
    def thumbnail_path(self) -> Path:
        return self.saves_dir / slot_names(self.slot.number)[1]


def plan_install(
    key: str,
    save_bytes: bytes,
    thumbnail: bytes,
    assets: Mapping[str, bytes],
    saves_dir: Path,
    used: set[int],
    index: Mapping[str, Recorded],
    present: tuple[str | None, str | None],
) -> InstallPlan:
    """Choose the slot and the new index entry (pure: every fact about the disk is passed in)."""
    taken = used | {rec.number for other, rec in index.items() if other != key}
    slot = choose_slot(index.get(key), taken, present)
    new_index = dict(index)
    new_index[key] = Recorded(slot.number, sha256(save_bytes), sha256(thumbnail))
    return InstallPlan(
        key,
        slot,
        saves_dir,
        save_bytes,
        thumbnail,
        own_dir(saves_dir) / key,
        dict(assets),
        new_index,
    )


def install_files(
    saves_dir: Path,
    key: str,
    save_bytes: bytes,
    thumbnail: bytes,
    assets: Mapping[str, bytes] | None = None,
) -> InstallPlan:
    """Write a save (and its assets) into ``saves_dir``; the plan that was carried out."""
    from ..writer import write_file, write_tree

    if not saves_dir.is_dir():  # it was when the command started (watch: many rounds ago)
        raise BuildError(f"TTS Saves folder {saves_dir} is gone or no longer a folder")
    found = read_index(saves_dir)
    index = found.installs
    recorded = index.get(key)
    present: tuple[str | None, str | None] = (None, None)
    if recorded is not None:
        json_name, png_name = slot_names(recorded.number)
        present = (file_sha256(saves_dir / json_name), file_sha256(saves_dir / png_name))
    plan = plan_install(
        key,
        save_bytes,
        thumbnail,
        assets or {},
        saves_dir,
        used_numbers(saves_dir),
        index,
        present,
    )
    if found.problem:
        path = own_dir(saves_dir) / INDEX_FILE
        note = (
            f"tts-builder's install index {path} could not be used ({found.problem}): it is "
            "written anew; earlier installs it forgot stay, and re-installing one takes a new slot"
        )
        plan = replace(plan, index_note=note)
    try:
        write_tree(plan.assets_dir, plan.assets)
        if not plan.slot.replaces and plan.save_path.exists():
            raise BuildError(f"{plan.save_path} appeared while installing; run install again")
        write_file(plan.thumbnail_path, plan.thumbnail)
        write_file(plan.save_path, plan.save_bytes)
        write_file(own_dir(saves_dir) / INDEX_FILE, index_bytes(plan.index))
    except OSError as err:
        raise BuildError(f"cannot install into {saves_dir}: {err.strerror or err}") from None
    return plan


def install_build(build: Any, options: Any, saves_dir: Path, key: str) -> list[InstallPlan]:
    """Install the build's save (made with ``options``) with local copies of its images: one
    save per game, whatever the player count (Ark & Noah's Setup builds the table for the seated
    players). A list, so the command reports every plan it carried out."""
    from ..save import dumps

    assets_dir = Path(os.path.realpath(own_dir(saves_dir))) / key  # a link loop: writes say
    save, assets = localize(build, options, assets_dir, build.save)
    thumbnail = build.files[f"{build.main_stem}.png"]
    return [install_files(saves_dir, key, dumps(save), thumbnail, assets)]


def describe_install(plan: InstallPlan, title: str) -> str:
    """One line saying where the game went (and whether it replaced its earlier install)."""
    how = "replacing its earlier install" if plan.slot.replaces else "a new save"
    line = f"installed {title} as {plan.save_path} ({how})"
    return "; ".join(note for note in (line, plan.slot.note, plan.index_note) if note)
