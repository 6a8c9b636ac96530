"""A one-card change through ``tts-builder build``: the folder written equals a clean build's,
``table.png`` is drawn again when something it shows changed, the checks run again only when
what they read changed, and the writer rewrites only the files whose bytes changed."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import seeded

from tts_builder import build as build_module
from tts_builder import picture
from tts_builder.build import ImageSet, check_build
from tts_builder.cli import run
from tts_builder.definition import ASSETS_ROOT
from tts_builder.writer import write_tree

ELEPHANT = ('color: "#8e9aaf"', 'color: "#8e9ab0"')  # the first animal: on the first sheet


def _copy(tmp_path: Path, old: str, new: str) -> Path:
    """An --assets folder holding Arche Noah with ``old`` replaced by ``new`` in game.yaml."""
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / "arche-noah", root / "arche-noah")
    path = root / "arche-noah" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def _clean_build(assets: Path, out: Path) -> dict[str, bytes]:
    """The files of Arche Noah built from ``assets`` into ``out`` emptied first (no cache; the
    same folder, as the save's image URLs name it)."""
    shutil.rmtree(out)
    assert run(["-q", "--assets", str(assets), "build", "arche-noah", "--out", str(out)]) == 0
    return _files(out / "arche-noah")


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _built_once(tmp_path: Path) -> Path:
    """A build of the bundled Arche Noah into an empty folder: its --out folder (with its
    cache, seeded with the session's renders: the reference a change is compared with is
    :func:`_clean_build`). The save's image URLs name that folder, so a change is built into
    the same one."""
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", "arche-noah", "--out", str(out)]) == 0
    return out


def test_a_one_card_change_writes_what_a_clean_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _built_once(tmp_path)
    before = _files(out / "arche-noah")
    root = _copy(tmp_path, *ELEPHANT)
    checks = _counting(monkeypatch, build_module, "check_save")
    assert run(["-q", "--assets", str(root), "build", "arche-noah", "--out", str(out)]) == 0
    assert checks == []  # the save and image sizes the checks read are the same
    incremental = _files(out / "arche-noah")
    monkeypatch.undo()
    assert incremental == _clean_build(root, out)  # every file, byte for byte
    changed = {name for name in incremental if incremental[name] != before.get(name)}
    assert changed == {"images/cards-1.png", "arche-noah.png", "preview.png"}


def test_a_change_the_table_shows_redraws_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = _built_once(tmp_path)
    root = _copy(tmp_path, "name: Arche Noah", "name: Arche Noah (ours)")  # the title shown
    tables = _counting(monkeypatch, picture, "table_picture")
    assert run(["-q", "--assets", str(root), "build", "arche-noah", "--out", str(out)]) == 0
    assert len(tables) == 1
    monkeypatch.undo()
    assert _files(out / "arche-noah") == _clean_build(root, out)


def test_cached_findings_follow_the_save_bytes(arche_noah_build) -> None:
    cache: dict[str, bytes] = {}
    build = replace(arche_noah_build, files=dict(arche_noah_build.files))
    assert check_build(build, cache) == check_build(build, {}) == []
    name = f"{build.main_stem}.json"
    broken = build.files[name].replace(b'"CardID": 100', b'"CardID": "100"', 1)
    assert broken != build.files[name]
    build.files[name] = broken
    found = check_build(build, cache)  # not the clean findings remembered above
    assert found and found == check_build(build, {})
    assert check_build(build, cache) == found  # remembered, findings and all


def test_write_tree_keeps_unchanged_files_and_swaps_the_rest(tmp_path: Path) -> None:
    dest = tmp_path / "game"
    write_tree(dest, {"a.txt": b"same", "images/b.png": b"old", "gone.txt": b"x"})
    same, old = (dest / "a.txt").stat().st_ino, (dest / "images/b.png").stat().st_ino
    write_tree(dest, {"a.txt": b"same", "images/b.png": b"new", "c.txt": b"added"})
    assert _files(dest) == {"a.txt": b"same", "images/b.png": b"new", "c.txt": b"added"}
    assert (dest / "a.txt").stat().st_ino == same  # not written again
    assert (dest / "images/b.png").stat().st_ino != old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]  # no staging left behind


def test_write_tree_failing_midway_leaves_the_old_folder(tmp_path: Path, monkeypatch) -> None:
    dest = tmp_path / "game"
    write_tree(dest, {"a.txt": b"same", "b.txt": b"old"})

    def refuse(self: Path, data: bytes) -> int:
        raise OSError("disk full")

    monkeypatch.setattr(Path, "write_bytes", refuse)
    with pytest.raises(OSError, match="disk full"):
        write_tree(dest, {"a.txt": b"same", "b.txt": b"new"})
    monkeypatch.undo()
    assert _files(dest) == {"a.txt": b"same", "b.txt": b"old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


def test_a_spec_is_keyed_by_its_content_and_the_code(monkeypatch) -> None:
    import tts_builder.cache as cache

    spec = {"b": [1, 2.5, {"z": None, "a": "é"}], "a": (3, "x"), "p": Path("art/x.png")}
    same = {"a": [3, "x"], "p": "art/x.png", "b": [1, 2.5, {"a": "é", "z": None}]}
    assert ImageSet._keys(spec) == ImageSet._keys(same)
    assert len(set(ImageSet._keys(spec))) == 2  # an output image and a part: two keys
    assert ImageSet._keys(spec) != ImageSet._keys({**same, "p": "art/y.png"})
    before = set(ImageSet._keys(spec))
    monkeypatch.setattr(cache, "current_code", lambda: "other code")
    assert not before & set(ImageSet._keys(spec))


def test_write_tree_writes_over_a_link_rather_than_linking_its_target(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"same")
    dest = tmp_path / "game"
    dest.mkdir()
    (dest / "a.txt").symlink_to(outside)
    write_tree(dest, {"a.txt": b"same"})
    assert not (dest / "a.txt").is_symlink() and (dest / "a.txt").read_bytes() == b"same"
    assert (dest / "a.txt").stat().st_ino != outside.stat().st_ino


def test_a_change_to_any_code_gives_every_picture_a_new_key(tmp_path: Path) -> None:
    """A picture's cache key names its spec, not the code that draws it: the flood board's
    spec is its map and styles while ``games/arche_noah_flood/table.py`` works out the
    geometry it is drawn with, so a change there (or in ``table/``, any module, a template or
    a font) must give every key a new code version, not hand back what the old code drew."""
    from tts_builder.cache import code_version, key

    package, templates, fonts = tmp_path / "tts_builder", tmp_path / "lua", tmp_path / "fonts"
    files = ["render/layout.py", "games/g/table.py", "table/art.py", "geometry.py"]
    paths = [package / rel for rel in files] + [templates / "g/rules.lua.j2", fonts / "F.ttf"]
    for path in paths:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("X = 1\n")
    (package / "__pycache__").mkdir()
    versions = {code_version(package, templates, fonts)}
    (package / "__pycache__" / "x.pyc").write_bytes(b"compiled")  # not the code
    assert code_version(package, templates, fonts) in versions
    for path in paths:
        path.write_text("X = 2\n")
        versions.add(code_version(package, templates, fonts))
    assert len(versions) == len(paths) + 1  # each change a new version
    spec = {"board": ["the same map"]}
    assert len({key("png", spec, code=v) for v in versions}) == len(versions)
