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
from tts_builder.ship.watch import Stamp, Watcher, changes, is_ignored, snapshot, watched_roots

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
