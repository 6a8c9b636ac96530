"""`watch`: change detection, cached rebuilds that re-render only what changed, re-verify, push."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SESSION_CACHE
from fake_tts import FakeTTSServer, free_port
from PIL import Image

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import EXIT_OK, run
from tts_builder.definition import ASSETS_ROOT
from tts_builder.ship.watch import (
    Stamp,
    Watcher,
    changes,
    file_digest,
    is_ignored,
    snapshot,
    watched_roots,
)

GAME = "arche-noah"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> GameBuild:
    """The stock build (fills the shared render cache once)."""
    return build_game(GAME, BuildOptions(out_dir=tmp_path_factory.mktemp("dist")), SESSION_CACHE)


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / GAME, root / GAME)
    return root


def edit(path: Path, data: bytes | str) -> None:
    """Change a file as an editor would, with an mtime that surely moved."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    os.utime(path, ns=(before + 10**9, before + 10**9))


def art_of(build: GameBuild) -> dict[str, bytes]:
    """Every output but the save (whose local URLs depend on the output folder)."""
    return {rel: data for rel, data in build.files.items() if rel != f"{GAME}.json"}


def _watcher(
    assets: Path, tmp_path: Path, **kwargs: Any
) -> tuple[Watcher, list[GameBuild], list[str]]:
    handed: list[GameBuild] = []
    log: list[str] = []
    watcher = Watcher(
        GAME,
        BuildOptions(out_dir=tmp_path / "dist"),
        dict(SESSION_CACHE),
        assets_root=assets,
        examples=kwargs.pop("examples", 5),
        on_build=handed.append,
        report=log.append,
        roots=[assets / GAME],
        **kwargs,
    )
    return watcher, handed, log


# --- change detection (pure + files) ----------------------------------------------------------


def test_changes_compare_content() -> None:
    old = {"a": Stamp(1, 1, "x"), "b": Stamp(1, 1, "y")}
    new = {"a": Stamp(2, 1, "x"), "c": Stamp(1, 1, "z")}
    assert changes(old, new) == ["b", "c"]
    assert changes(old, old) == []


def test_ignored_names() -> None:
    assert is_ignored(".game.yaml.swp") and is_ignored("game.yaml~") and is_ignored("#x#")
    assert is_ignored(".game.yaml.abc.tmp") and not is_ignored("game.yaml")


def test_snapshot_sees_content_changes_only(tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    art = tmp_path / "art" / "a.png"
    art.write_bytes(b"one")
    first = snapshot([tmp_path])
    os.utime(art, ns=(10**18, 10**18))  # touched, same bytes
    touched = snapshot([tmp_path])
    assert changes(first, touched) == []
    edit(art, b"two")
    (tmp_path / ".a.png.swp").write_bytes(b"junk")
    assert changes(touched, snapshot([tmp_path])) == [str(art)]
    stat = art.stat()
    edit(art, b"six")  # the same size, its times put back: its bytes tell
    os.utime(art, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert changes(touched, snapshot([tmp_path])) == [str(art)]


def test_watched_roots_cover_definition_and_templates(assets: Path) -> None:
    roots = watched_roots(GAME, assets)
    assert roots[0] == assets / GAME
    assert any(r.parts[-2:] == ("lua_templates", GAME) for r in roots)


# --- rebuilding -------------------------------------------------------------------------------


def test_art_change_rerenders_only_what_shows_it(built, assets: Path, tmp_path: Path) -> None:
    watcher, handed, log = _watcher(assets, tmp_path)
    watcher.rebuild([])
    assert handed[0].rendered == 0 and art_of(handed[0]) == art_of(built)
    art = assets / GAME / "art" / "elephant.png"
    with Image.open(art) as image:
        image.convert("RGBA").rotate(90).save(art)
    os.utime(art, ns=(art.stat().st_mtime_ns + 10**9,) * 2)
    changed = watcher.poll()
    assert changed == [str(art)]
    result = watcher.rebuild(changed)
    assert result.ok and result.mismatches is None  # the script did not change: not re-verified
    rebuilt = handed[-1]
    assert 0 < rebuilt.rendered < 7
    assert rebuilt.files["images/cards-1.png"] != built.files["images/cards-1.png"]
    chips = ("images/purple-chip-face.png", "images/green-chip-face.png")
    for unchanged in ("images/card-back.png", *chips):
        assert rebuilt.files[unchanged] == built.files[unchanged]
    assert watcher.poll() == []


def test_rule_change_is_reverified_and_bad_edits_keep_watching(
    built, assets: Path, tmp_path: Path
) -> None:
    watcher, handed, log = _watcher(assets, tmp_path)
    definition = assets / GAME / "game.yaml"
    text = definition.read_text()
    edit(definition, text.replace("set_of_four_bonus: 3", "set_of_four_bonus: 4"))
    result = watcher.rebuild(watcher.poll())
    assert result.ok and result.mismatches == [] and result.build.rendered == 0
    assert "Rules" in result.build.global_script and result.build.global_script != (
        built.global_script
    )
    assert any("rule functions agree" in line for line in log)
    edit(definition, text.replace("purple: 12", "purple: twelve"))
    broken = watcher.rebuild(watcher.poll())
    assert broken.build is None and "game.yaml" in broken.error and ":" in broken.error
    assert len(handed) == 1  # nothing handed on from a failed build
    edit(definition, text)
    fixed = watcher.rebuild(watcher.poll())
    assert fixed.ok and art_of(fixed.build) == art_of(built) and len(handed) == 2
    assert fixed.build.global_script == built.global_script


def test_run_loop_is_bounded_and_rebuilds_on_change(assets: Path, tmp_path: Path) -> None:
    watcher, handed, log = _watcher(assets, tmp_path, examples=0)
    definition = assets / GAME / "game.yaml"
    text = definition.read_text()
    waits: list[float] = []

    def designer_edits(seconds: float) -> None:  # stands in for time.sleep between polls
        waits.append(seconds)
        if len(waits) == 2:
            edit(definition, text.replace("Two play-throughs.", "Two rounds."))

    watcher.run(interval=0.01, rounds=3, wait=designer_edits)
    assert waits == [0.01] * 3
    assert [len(r.changed) for r in watcher.rounds] == [0, 1]
    assert "Two rounds." in handed[-1].save["Note"]
    assert any(line.startswith("changed: game.yaml") for line in log)


# --- the command, pushing to a fake TTS -------------------------------------------------------


class _TinyTTS(FakeTTSServer):
    """Just enough TTS: Save & Play reloads, and the game loaded is always the right one."""

    def __init__(self, editor_port: int) -> None:
        super().__init__(editor_port)
        self.start()

    def handle(self, message: dict[str, Any]) -> None:
        if message["messageID"] == 3:  # Execute Lua (is the game loaded?): "yes, 1 object"
            self.tell({"messageID": 5, "returnID": message["returnID"], "returnValue": 1})
        else:
            self.tell({"messageID": 1, "scriptStates": message.get("scriptStates", [])})


@pytest.fixture
def tiny_tts() -> Iterator[_TinyTTS]:
    tts = _TinyTTS(free_port())
    yield tts
    tts.close()


def test_watch_command_writes_installs_and_pushes(
    capsys, assets: Path, cli_out: Path, tiny_tts: _TinyTTS, tmp_path: Path
) -> None:
    saves = tmp_path / "TTS" / "Saves"
    saves.mkdir(parents=True)
    code = run(
        [
            "--assets",
            str(assets),
            "watch",
            GAME,
            "--out",
            str(cli_out),
            "--push",
            "--install",
            "--saves-dir",
            str(saves),
            "--rounds",
            "1",
            "--interval",
            "0.05",
            "--examples",
            "0",
            "--timeout",
            "5",
            "--tts-port",
            str(tiny_tts.port),
            "--editor-port",
            str(tiny_tts.editor_port),
        ]
    )
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert (cli_out / GAME / f"{GAME}.json").is_file()
    assert (saves / "TS_Save_1.json").is_file()
    assert [m["messageID"] for m in tiny_tts.received] == [3, 1]
    assert "[loaded]" in out and "pushed" in err


def test_watch_command_goes_on_when_tts_is_not_running(capsys, assets: Path, cli_out: Path) -> None:
    code = run(
        [
            "--assets",
            str(assets),
            "watch",
            GAME,
            "--out",
            str(cli_out),
            "--push",
            "--rounds",
            "1",
            "--interval",
            "0.05",
            "--examples",
            "0",
            "--tts-port",
            str(free_port()),
            "--editor-port",
            str(free_port()),
        ]
    )
    _, err = capsys.readouterr()
    assert code == EXIT_OK
    assert "error: TTS is not running (nothing listens on localhost:" in err


# --- any failure is one line, and the watch goes on (#24) -------------------------------------


def test_any_failure_of_a_round_is_one_line_and_the_watch_goes_on(
    assets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk, a bug of the project's own and a failed hand-over each end their round only:
    one line as the command line prints it, then the next change builds and is handed on."""
    import errno

    from tts_builder import build as build_module

    real = build_module.build_game
    failures = iter(
        [
            OSError(errno.ENOSPC, "No space left on device", "/full/disk"),
            RuntimeError("a bug of our own"),
            OSError(errno.EIO, "Input/output error"),
        ]
    )

    def failing(*args: Any, **kwargs: Any) -> GameBuild:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return real(*args, **kwargs)

    monkeypatch.setattr(build_module, "build_game", failing)
    watcher, handed, log = _watcher(assets, tmp_path, examples=0)
    definition = assets / GAME / "game.yaml"
    text = definition.read_text()
    steps = iter(["Two rounds.", "Three rounds.", "Four rounds.", "Five rounds."])

    def designer_edits(seconds: float) -> None:
        edit(definition, text.replace("Two play-throughs.", next(steps)))

    watcher.run(interval=0.01, rounds=4, wait=designer_edits)
    assert len(watcher.rounds) == 5 and [r.ok for r in watcher.rounds] == [False] * 3 + [True] * 2
    assert "error: /full/disk: No space left on device" in log
    assert "internal error: RuntimeError: a bug of our own" in log
    assert "internal error: OSError: [Errno 5] Input/output error" in log
    assert not any("Traceback" in line for line in log)
    assert "Five rounds." in handed[-1].save["Note"] and len(handed) == 2


def test_a_failed_hand_over_is_reported_and_the_next_round_runs(
    assets: Path, tmp_path: Path
) -> None:
    log: list[str] = []
    calls: list[GameBuild] = []

    def flaky(build: GameBuild) -> None:
        calls.append(build)
        if len(calls) == 1:
            raise ValueError("the push broke")

    watcher = Watcher(
        GAME,
        BuildOptions(out_dir=tmp_path / "dist"),
        dict(SESSION_CACHE),
        assets_root=assets,
        examples=0,
        on_build=flaky,
        report=log.append,
        roots=[assets / GAME],
        debug=True,
    )
    first = watcher.rebuild([])
    assert first.build is not None and not first.ok and first.error == "the push broke"
    failed = next(line for line in log if line.startswith("internal error: ValueError"))
    assert "Traceback (most recent call last)" in failed and "flaky" in failed  # --debug
    assert watcher.rebuild([]).ok and len(calls) == 2


def test_a_failing_poll_is_reported_once_and_polling_goes_on(
    assets: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    watcher, handed, log = _watcher(assets, tmp_path, examples=0)
    outcomes = iter([RecursionError("deep"), RecursionError("deep"), [], ["x"]])

    def poll() -> list[str]:
        outcome = next(outcomes)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(watcher, "poll", poll)
    watcher.run(interval=0, rounds=4, wait=lambda seconds: None, initial=False)
    assert log.count("internal error: RecursionError: deep") == 1
    assert [r.changed for r in watcher.rounds] == [["x"]] and watcher.rounds[0].ok


def test_snapshot_copes_with_deep_folders_fifos_and_hidden_folders(tmp_path: Path) -> None:
    """Folders deeper than Python's recursion limit (rglob died there), a FIFO (never opened
    for reading: that blocks), a .git folder (never a trigger)."""
    from tts_builder.writer import remove

    deep = tmp_path
    for _ in range(1_100):
        deep = deep / "d"
        deep.mkdir()  # one at a time: mkdir(parents=True) recurses too
    try:
        (deep / "bottom.png").write_bytes(b"one")
        (tmp_path / ".git" / "objects").mkdir(parents=True)
        (tmp_path / ".git" / "objects" / "ab").write_bytes(b"x")
        os.mkfifo(tmp_path / "pipe.png")
        stamps = snapshot([tmp_path])
        assert list(stamps) == [str(deep / "bottom.png")]
        with pytest.raises(OSError, match="not a regular file"):
            file_digest(tmp_path / "pipe.png")
    finally:
        remove(tmp_path / "d")  # too deep for pytest's own clean-up


def test_watch_starts_on_a_broken_definition_and_builds_once_it_is_fixed(
    capsys, assets: Path, cli_out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first build's failure is shown (with -q too) and the fix, made while watching, builds;
    an internal error is one line, its traceback only with --debug."""
    import time

    definition = assets / GAME / "game.yaml"
    text = definition.read_text()
    edit(definition, "name: [unclosed\n")
    sleeps = iter([lambda: edit(definition, text), lambda: None])
    real_sleep = time.sleep

    def sleep(seconds: float) -> None:
        next(sleeps, lambda: None)()
        real_sleep(min(seconds, 0.01))

    monkeypatch.setattr(time, "sleep", sleep)
    args = ["-q", "--assets", str(assets), "watch", GAME, "--out", str(cli_out)]
    code = run([*args, "--rounds", "2", "--interval", "0.05", "--examples", "0"])
    _, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert err.startswith("error: ") and "game.yaml:" in err.splitlines()[0]
    assert (cli_out / GAME / f"{GAME}.json").is_file()  # the fixed definition was built


def test_watch_command_shows_an_internal_error_on_one_line(
    capsys, assets: Path, cli_out: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tts_builder import build as build_module

    def broken(*args: Any, **kwargs: Any) -> GameBuild:
        raise KeyError("oops")

    monkeypatch.setattr(build_module, "build_game", broken)
    args = ["-q", "--assets", str(assets), "watch", GAME, "--out", str(cli_out), "--rounds", "1"]
    assert run([*args, "--interval", "0.05"]) == EXIT_OK
    _, err = capsys.readouterr()
    assert err == "internal error: KeyError: 'oops'\n"
    assert run([*args, "--interval", "0.05", "--debug"]) == EXIT_OK
    _, err = capsys.readouterr()
    assert err.startswith("internal error: KeyError: 'oops'\nTraceback (most recent call last)")


def test_a_fifo_or_a_link_loop_for_the_definition_is_one_line(assets: Path, tmp_path: Path) -> None:
    """Reading a FIFO blocks until someone writes to it: the round would never end."""
    watcher, handed, log = _watcher(assets, tmp_path, examples=0)
    definition = assets / GAME / "game.yaml"
    definition.unlink()
    os.mkfifo(definition)
    assert "not a file (a FIFO" in (watcher.rebuild([]).error or "")
    definition.unlink()
    definition.symlink_to(definition)
    assert "a symbolic link loop" in (watcher.rebuild([]).error or "")
    assert all(line.startswith("error: ") for line in log) and len(log) == 2 and not handed


def test_a_file_past_the_hash_limit_is_stamped_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tts_builder.ship import watch

    monkeypatch.setattr(watch, "HASH_LIMIT", 10)
    (tmp_path / "big.bin").write_bytes(b"x" * 11)
    (tmp_path / "small.png").write_bytes(b"x" * 10)
    read: list[Path] = []
    real = watch.file_digest
    monkeypatch.setattr(watch, "file_digest", lambda path: read.append(path) or real(path))
    first = snapshot([tmp_path])
    assert read == [tmp_path / "small.png"]
    edit(tmp_path / "big.bin", b"y" * 12)
    assert changes(first, snapshot([tmp_path])) == [str(tmp_path / "big.bin")]
