"""QA: the prototype engine's builds are byte-identical in any empty folder, cold or warm, and
after ``new --from prototype`` (the bundled games were checked the same way by hand)."""

from __future__ import annotations

import shutil
from pathlib import Path

from tts_builder.cli import EXIT_OK, run

BASE_URL = "https://example.org/mods"


def outputs(out: Path) -> dict[str, bytes]:
    """Every file ``build`` wrote under ``out`` (the build cache aside), by relative path."""
    return {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.relative_to(out).parts
    }


def build_in(folder: Path, *games: str) -> dict[str, bytes]:
    folder.mkdir(parents=True, exist_ok=True)
    args = ["-q", "--assets", str(folder), "build", *games, "--base-url", BASE_URL]
    assert run([*args, "--out", str(folder / "dist")]) == EXIT_OK
    return outputs(folder / "dist")


def test_two_empty_folders_cold_and_warm_give_the_same_bytes(tmp_path: Path) -> None:
    first = build_in(tmp_path / "a", "prototype")
    assert first and build_in(tmp_path / "b", "prototype") == first
    shutil.rmtree(tmp_path / "a" / "dist" / "prototype")  # the cache stays: a warm build
    assert build_in(tmp_path / "a", "prototype") == first


def test_a_new_copy_of_the_prototype_builds_the_same_in_any_folder(tmp_path: Path) -> None:
    built = []
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        assert run(["-q", "--assets", str(folder), "new", "garden", "--from", "prototype"]) == 0
        built.append(build_in(folder, "garden"))
    assert built[0] == built[1] and "garden/garden.json" in built[0]
