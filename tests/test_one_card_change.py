"""A one-animal change to every bundled game, rebuilt by ``tts-builder build`` in the process
that built the game (as ``watch`` does): only the pictures showing the animal (and the saves
naming them) change, and every file written is the byte of a build from nothing, after a
second change too."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import seeded
from PIL import Image

from tts_builder.build import BuildOptions
from tts_builder.cli import build_checked, run
from tts_builder.definition import ASSETS_ROOT, load_definition

NEW_COLOUR = "#123456"


def _change(game: str, root: Path) -> str:
    """Copy ``game`` under ``root`` with one animal changed: the Elephant's colour, or (Ark &
    Noah, whose animals have no colour) the middle pixel of the Raven's art; what now marks its
    faces (the colour, or the art file)."""
    shutil.copytree(ASSETS_ROOT / game, root / game)
    path = root / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    if 'color: "#8e9aaf"' in text:
        path.write_text(text.replace('color: "#8e9aaf"', f'color: "{NEW_COLOUR}"', 1))
        return NEW_COLOUR
    art = root / game / "art" / "raven.png"
    with Image.open(art) as img:
        img.load()
        img = img.convert("RGBA")
        centre = (img.width // 2, img.height // 2)  # shown on every face with the art
        img.putpixel(centre, tuple(255 - v for v in img.getpixel(centre)[:3]) + (255,))
        img.save(art)
    return "art/raven.png"


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def _change_again(game: str, root: Path, mark: str) -> None:
    """Change the animal :func:`_change` changed once more: another colour, or the pixel beside
    the one it changed in the Raven's art."""
    path = root / game / "game.yaml"
    if mark == NEW_COLOUR:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(f'color: "{NEW_COLOUR}"', 'color: "#654321"', 1))
        return
    art = root / game / "art" / "raven.png"
    with Image.open(art) as img:
        img.load()
        beside = (img.width // 2 + 1, img.height // 2)
        img.putpixel(beside, tuple(255 - v for v in img.getpixel(beside)[:3]) + (255,))
        img.save(art)


def _assert_built_from_nothing(game: str, root: Path, out: Path) -> dict[str, dict]:
    """Every file in ``out`` is the byte of a build from nothing (one cache, empty before, for
    the game and its variants); the files by folder."""
    after = {p.name: _files(p) for p in out.iterdir() if p.name != ".cache"}
    fresh: dict[str, bytes] = {}
    for variant in [None, *load_definition(game, root).variants]:
        options = BuildOptions(out_dir=out.resolve(), variant=variant)
        plain = build_checked(game, options, fresh, root)
        assert plain.files == after[plain.folder], (
            variant,
            {n for n in plain.files if plain.files[n] != after[plain.folder].get(n)},
        )
    return after


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_a_one_animal_change_changes_what_shows_it_only_and_is_a_build_from_nothing(
    game: str, tmp_path: Path
) -> None:
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", game, "--out", str(out)]) == 0  # the process keeps what it drew
    before = {p.name: _files(p) for p in out.iterdir() if p.name != ".cache"}
    root = tmp_path / "assets"
    _change(game, root)
    assert run(["-q", "--assets", str(root), "build", game, "--out", str(out)]) == 0
    after = _assert_built_from_nothing(game, root, out)
    changed = {(f, n) for f, files in after.items() for n in files if files[n] != before[f][n]}
    assert changed and {name for _f, name in changed} <= {
        "preview.png",
        "table.png",
        f"{game}.png",
        f"{game}.json",
        *(name for files in after.values() for name in files if name.startswith("images/")),
    }


@pytest.mark.parametrize("game", ["arche-noah", "ark-and-noah"])
def test_a_second_change_in_one_process_is_a_build_from_nothing(game: str, tmp_path: Path) -> None:
    """``watch`` after one edit, then another to the same animal: nothing of the first edit
    survives in what the second writes."""
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", game, "--out", str(out)]) == 0
    root = tmp_path / "assets"
    mark = _change(game, root)
    args = ["-q", "--assets", str(root), "build", game, "--out", str(out)]
    assert run(args) == 0
    _change_again(game, root, mark)
    assert run(args) == 0
    _assert_built_from_nothing(game, root, out)
