"""A no-op build: the CLI builds nothing when nothing a build reads changed and its output
folders are as it wrote them (the build manifest in the cache), prints that, and rebuilds
whatever else (an edited, deleted or extra output file, a changed input, a folder clash)."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run

PROJECT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
GAME = "noop-game"
NOOP = "inputs unchanged: nothing rebuilt"


def _game(root: Path, **variants: object) -> Path:
    """``root`` holding ``noop-game/``: the bundled prototype renamed (with ``variants``)."""
    data = copy.deepcopy(BASE)
    data["id"] = GAME
    if variants:
        data["variants"] = variants
    (root / GAME).mkdir(parents=True, exist_ok=True)
    (root / GAME / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    return root


def _args(root: Path, quiet: bool = True) -> list[str]:
    return [
        *(["-q"] if quiet else []),
        "--assets",
        str(root),
        "build",
        GAME,
        "--out",
        str(root / "dist"),
    ]


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _noop(root: Path, capsys) -> bool:
    """Whether a build of ``root``'s game now builds nothing (its lines say so)."""
    capsys.readouterr()
    assert run(_args(root, quiet=False)) == EXIT_OK
    return NOOP in capsys.readouterr().err


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A built game (its --assets root)."""
    root = _game(tmp_path)
    assert run(_args(root)) == EXIT_OK
    return root


def test_an_unchanged_build_builds_nothing_and_says_so(built: Path, capsys) -> None:
    capsys.readouterr()
    assert run(_args(built, quiet=False)) == EXIT_OK
    err = capsys.readouterr().err
    assert f"built {GAME}: " in err and NOOP in err and "up to date" in err
    assert run(_args(built)) == EXIT_OK and capsys.readouterr().err == ""


def test_the_console_script_builds_through_the_one_cli(built: Path, capsys, monkeypatch) -> None:
    """``python -m tts_builder``: the same files, lines and exit codes as the CLI."""
    path = built / GAME / "game.yaml"
    path.write_text(path.read_text("utf-8").replace("Meadow", "Meadov"), "utf-8")
    done = subprocess.run([sys.executable, "-m", "tts_builder", *_args(built, quiet=False)],
                          capture_output=True, text=True, cwd=built)  # fmt: skip
    assert done.returncode == EXIT_OK, done.stderr
    assert f"built {GAME}" in done.stderr and "wrote" in done.stderr
    console = _tree(built / "dist" / GAME)
    assert b"Meadov" in console[f"{GAME}.json"]
    argv = ["-q", "--assets", str(built), "build", "no-such-game"]
    bad = subprocess.run([sys.executable, "-m", "tts_builder", *argv],
                         capture_output=True, text=True, cwd=built)  # fmt: skip
    assert bad.returncode == EXIT_BAD_INPUT
    monkeypatch.chdir(built)  # where the console ran: paths are shown from there
    capsys.readouterr()
    assert run(["-q", "--assets", str(built), "build", "no-such-game"]) == EXIT_BAD_INPUT
    assert bad.stderr == capsys.readouterr().err  # the CLI's one line
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("how", ["edited", "deleted", "added", "touched-edit"])
def test_a_changed_output_is_built_again(built: Path, how: str, capsys) -> None:
    folder = built / "dist" / GAME
    before = _tree(folder)
    target = folder / f"{GAME}.json"
    if how == "edited":
        target.write_bytes(target.read_bytes().replace(b"Meadow", b"Meadov"))
    elif how == "deleted":
        (folder / "preview.png").unlink()
    elif how == "added":
        (folder / "images" / "extra.png").write_bytes(b"not built")
    else:  # the same size, its modification time put back: its bytes tell
        stat = target.stat()
        target.write_bytes(target.read_bytes().replace(b"Meadow", b"Meadov"))
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert not _noop(built, capsys)
    assert _tree(folder) == before
    assert _noop(built, capsys)


def test_a_changed_input_is_built_again(built: Path, capsys) -> None:
    path = built / GAME / "game.yaml"
    os.utime(path)  # touched, its bytes the same: still nothing to build
    assert _noop(built, capsys)
    stat = path.stat()
    path.write_text(path.read_text("utf-8").replace("Meadow", "Meadov"), "utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # its stat as before
    assert not _noop(built, capsys)
    assert b"Meadov" in (built / "dist" / GAME / f"{GAME}.json").read_bytes()
    assert _noop(built, capsys)
    (built / GAME / "art.png").write_bytes(b"a new file in the game's folder")
    assert not _noop(built, capsys)


def test_a_file_the_definition_names_outside_its_folder_is_an_input(tmp_path: Path, capsys) -> None:
    root = _game(tmp_path / "games")
    shared = tmp_path / "shared.txt"
    shared.write_text("one", "utf-8")
    path = root / GAME / "game.yaml"
    data = yaml.safe_load(path.read_text("utf-8"))
    data["description"] = "../../shared.txt"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    assert run(_args(root)) == EXIT_OK
    assert _noop(root, capsys)
    shared.write_text("two", "utf-8")
    assert not _noop(root, capsys)


def test_a_variant_s_folder_clash_is_reported_by_a_no_op_build(tmp_path: Path, capsys) -> None:
    root = _game(tmp_path, big={"name": "Big Meadow"})
    assert run(_args(root)) == EXIT_OK
    assert (root / "dist" / f"{GAME}-big").is_dir()
    assert _noop(root, capsys)
    clash = copy.deepcopy(BASE)
    clash["id"] = f"{GAME}-big"
    (root / clash["id"]).mkdir()
    (root / clash["id"] / "game.yaml").write_text(yaml.safe_dump(clash), "utf-8")
    capsys.readouterr()
    assert run(_args(root)) == EXIT_BAD_INPUT
    assert "variants.big: builds into noop-game-big/" in capsys.readouterr().err


def test_a_change_to_the_code_builds_again(built: Path, capsys, monkeypatch) -> None:
    """The code's version is part of every key: another version builds, records, and then
    builds nothing."""
    import tts_builder.cache as cache

    monkeypatch.setattr(cache, "current_code", lambda: "another version of the code")
    assert not _noop(built, capsys)
    assert _noop(built, capsys)


def test_an_input_changed_and_changed_back_while_it_is_built_is_built_again(
    built: Path, capsys, monkeypatch
) -> None:
    """A file changed during the build and changed back (an editor's undo, a sync tool) may
    have been read in between: the build that read it is not recorded, so the next one builds
    again instead of keeping what the passing bytes made."""
    import tts_builder.definition as definition

    path = built / GAME / "game.yaml"
    before = path.read_bytes()
    path.write_bytes(before.replace(b"Meadow", b"Meadov"))
    assert not _noop(built, capsys)  # now built with "Meadov"
    real = definition.load_definition

    def read_while_changed(*args, **kwargs):
        path.write_bytes(before)  # what the build reads...
        try:
            return real(*args, **kwargs)
        finally:
            path.write_bytes(before.replace(b"Meadow", b"Meadov"))  # ...and back again

    monkeypatch.setattr(definition, "load_definition", read_while_changed)
    (built / "dist" / GAME / f"{GAME}.json").unlink()  # something to build
    capsys.readouterr()
    assert run(_args(built, quiet=False)) == EXIT_OK
    assert "its files changed while it was built" in capsys.readouterr().err
    monkeypatch.setattr(definition, "load_definition", real)
    assert b"Meadov" not in (built / "dist" / GAME / f"{GAME}.json").read_bytes()
    assert not _noop(built, capsys)  # the inputs say "Meadov": built again
    assert b"Meadov" in (built / "dist" / GAME / f"{GAME}.json").read_bytes()
    assert _noop(built, capsys)
