"""The no-op build answered before the CLI loads (tts_builder.cli_noop): it answers exactly
when the CLI would build nothing, prints what the CLI prints, loads neither click nor the
build machinery, and leaves every other case (an edited, deleted or extra output file, a
changed input, a folder clash, any other command) to the CLI, which rebuilds."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.cli_noop import answer_noop, parse_build
from tts_builder.fingerprint import FINE_MARGIN_NS, FileHashes

PROJECT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
GAME = "noop-game"


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


def _settled(root: Path) -> None:
    """Wait out the file system's clock, then answer a no-op: its file hashes are remembered
    by stats taken long enough after every change to be trusted (what a later change must
    then show in its stat)."""
    time.sleep(2 * FINE_MARGIN_NS / 1e9)
    assert answer_noop(_args(root))


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A built game (its --assets root), its files' hashes remembered by settled stats."""
    root = _game(tmp_path)
    assert run(_args(root)) == EXIT_OK
    _settled(root)
    return root


def test_an_unchanged_build_is_answered_with_what_the_cli_prints(built: Path, capsys) -> None:
    capsys.readouterr()
    assert run(_args(built, quiet=False)) == EXIT_OK
    from_cli = capsys.readouterr().err
    assert "inputs unchanged: nothing rebuilt" in from_cli
    assert answer_noop(_args(built, quiet=False))
    assert capsys.readouterr().err == from_cli
    assert answer_noop(_args(built)) and capsys.readouterr().err == ""


def test_the_answer_loads_neither_click_nor_the_build(built: Path) -> None:
    script = (
        "import sys\nfrom tts_builder.cli_noop import answer_noop\n"
        f"assert answer_noop({_args(built)!r})\n"
        "heavy = {'click', 'PIL', 'yaml', 'jinja2', 'lupa', 'dataclasses', 'tts_builder.build'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=built, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def _console(root: Path, argv: list[str]) -> subprocess.CompletedProcess:
    """The console script (``cli_noop.main``) run with ``argv``; prints whether click loaded."""
    script = (
        "import sys\nfrom tts_builder.cli_noop import main\n"
        f"sys.argv = ['tts-builder', *{argv!r}]\n"
        "try:\n    main()\nexcept SystemExit as exc:\n    code = exc.code\nelse:\n    code = 0\n"
        "print(code, 'click' in sys.modules)\n"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=root)


def test_a_plain_build_with_something_to_do_runs_without_click(
    built: Path, capsys, monkeypatch
) -> None:
    """A rebuild after an edit, from the console script: built as the CLI builds it (the same
    files, lines and exit codes), with neither click nor the other commands loaded."""
    path = built / GAME / "game.yaml"
    path.write_text(path.read_text("utf-8").replace("Meadow", "Meadov"), "utf-8")
    done = _console(built, _args(built, quiet=False))
    assert done.stdout.split() == ["0", "False"], done.stdout + done.stderr
    assert f"built {GAME}" in done.stderr and "wrote" in done.stderr
    console = _tree(built / "dist" / GAME)
    assert b"Meadov" in console[f"{GAME}.json"]
    assert run([*_args(built)[:-1], str(built / "again")]) == EXIT_OK
    assert _tree(built / "again" / GAME).keys() == console.keys()
    bad = _console(built, ["-q", "--assets", str(built), "build", "no-such-game"])
    assert bad.stdout.split() == [str(EXIT_BAD_INPUT), "False"]
    monkeypatch.chdir(built)  # where the console ran: paths are shown from there
    assert run(["-q", "--assets", str(built), "build", "no-such-game"]) == EXIT_BAD_INPUT
    assert bad.stderr == capsys.readouterr().err  # the CLI's one line
    assert bad.stderr.startswith("error: ") and bad.stderr.count("\n") == 1


@pytest.mark.parametrize("how", ["edited", "deleted", "added", "touched-edit"])
def test_a_changed_output_goes_to_the_cli_which_rebuilds_it(built: Path, how: str) -> None:
    folder = built / "dist" / GAME
    before = _tree(folder)
    target = folder / f"{GAME}.json"
    if how == "edited":
        target.write_bytes(target.read_bytes().replace(b"Meadow", b"Meadov"))
    elif how == "deleted":
        (folder / "preview.png").unlink()
    elif how == "added":
        (folder / "images" / "extra.png").write_bytes(b"not built")
    else:  # the same size, its modification time put back: its change time still tells
        stat = target.stat()
        target.write_bytes(target.read_bytes().replace(b"Meadow", b"Meadov"))
        os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert not answer_noop(_args(built))
    assert run(_args(built)) == EXIT_OK
    assert _tree(folder) == before
    _settled(built)


def test_a_changed_input_goes_to_the_cli(built: Path) -> None:
    path = built / GAME / "game.yaml"
    os.utime(path)  # touched, its bytes the same: still nothing to build
    _settled(built)
    stat = path.stat()
    path.write_text(path.read_text("utf-8").replace("Meadow", "Meadov"), "utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert not answer_noop(_args(built))
    assert run(_args(built)) == EXIT_OK
    assert b"Meadov" in (built / "dist" / GAME / f"{GAME}.json").read_bytes()
    _settled(built)
    (built / GAME / "art.png").write_bytes(b"a new file in the game's folder")
    assert not answer_noop(_args(built))


def test_a_variant_s_folder_clash_goes_to_the_cli(tmp_path: Path, capsys) -> None:
    root = _game(tmp_path, big={"name": "Big Meadow"})
    assert run(_args(root)) == EXIT_OK
    assert (root / "dist" / f"{GAME}-big").is_dir()
    assert answer_noop(_args(root))
    clash = copy.deepcopy(BASE)
    clash["id"] = f"{GAME}-big"
    (root / clash["id"]).mkdir()
    (root / clash["id"] / "game.yaml").write_text(yaml.safe_dump(clash), "utf-8")
    assert not answer_noop(_args(root))
    capsys.readouterr()
    assert run(_args(root)) == EXIT_BAD_INPUT
    assert "variants.big: builds into noop-game-big/" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["build"], (False, [], None, None, None, None)),
        (["-q", "--assets", "a", "build", "g", "--out", "o"], (True, ["g"], "a", "o", None, None)),
        (
            ["--assets=a", "build", "--variant=v", "g", "h", "--base-url", "u"],
            (False, ["g", "h"], "a", None, "v", "u"),
        ),
    ],
)
def test_the_build_s_plain_arguments_are_read(argv: list[str], expected: tuple) -> None:
    quiet, options = parse_build(argv)  # type: ignore[misc]
    games, assets, out, variant, base_url = expected[1:]
    assert quiet is expected[0] and options["games"] == games
    assert options["assets"] == (Path(assets) if assets else None)
    assert options["out_dir"] == (Path(out) if out else None)
    assert (options["variant"], options["base_url"]) == (variant, base_url)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["list"],
        ["--help"],
        ["build", "--help"],
        ["build", "-h"],
        ["--version"],
        ["build", "--out"],
        ["build", "--out", "a", "--out", "b"],
        ["build", "--out="],
        ["build", "--out", "--variant"],
        ["build", "-q"],
        ["build", "--assets", "a"],
        ["-q", "-q", "build"],
        ["build", "--", "g"],
        ["build", "--watch"],
        ["table", "g"],
    ],
)
def test_anything_else_is_the_cli_s(argv: list[str]) -> None:
    assert parse_build(argv) is None
    assert not answer_noop(argv)


def test_a_digest_is_reused_only_for_a_file_settled_before_its_stat(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"one")
    hashes = FileHashes(tmp_path / "hashes.json")
    first = hashes.digest(path)
    entry = hashes.files[str(path)]
    entry[6] = "00" * 32  # were the file changed since, keeping its stat, this is stale
    assert hashes.digest(path) == first  # its stat was taken as it changed: hashed again
    hashes.files[str(path)][5] += 10**10  # its stat taken 10 s after the change: trusted
    hashes.files[str(path)][6] = "00" * 32
    assert hashes.digest(path) == bytes(32)
    hashes.save()
    assert FileHashes(tmp_path / "hashes.json").digest(path) == bytes(32)
    path.write_bytes(b"three")  # a new stat: hashed
    assert FileHashes(tmp_path / "hashes.json").digest(path) != first
    (tmp_path / "hashes.json").write_bytes(b'{"format": "fingerprint 2", "files": [')
    assert FileHashes(tmp_path / "hashes.json").files == {}  # damaged: nothing remembered


def test_a_damaged_record_of_hashes_only_costs_hashing(built: Path, capsys) -> None:
    record = built / "dist" / ".cache" / "file-hashes.json"
    text = record.read_text()
    damaged = text.replace('"files": {"', '"files": {"x": [1, 2], "', 1)
    assert damaged != text
    for data in (damaged, text.replace('"names": {', '"names": {"y": 3, ', 1), "[]", "{"):
        record.write_text(data)
        capsys.readouterr()
        assert run(_args(built, quiet=False)) == EXIT_OK  # hashed again, nothing rebuilt
        assert "inputs unchanged: nothing rebuilt" in capsys.readouterr().err
        assert answer_noop(_args(built))
