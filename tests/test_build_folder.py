"""``build`` of a folder of games builds every game it can: a broken game is reported where
it is broken, the others are built and written, and the command exits 2 at the end (issue 25,
item 6). A single named game's error still ends the build at once."""

from __future__ import annotations

import shutil
from pathlib import Path

from tts_builder.bundled import ASSETS_DIR
from tts_builder.cli import EXIT_BAD_INPUT, run


def _copy(root: Path, game: str, extra: str = "") -> None:
    shutil.copytree(ASSETS_DIR / "prototype", root / game)
    path = root / game / "game.yaml"
    lines = path.read_text("utf-8").split("\n")
    lines = [f"id: {game}" if line.startswith("id:") else line for line in lines]
    path.write_text("\n".join(lines) + extra, "utf-8")


def test_a_broken_game_does_not_stop_the_others(tmp_path: Path, capsys) -> None:
    _copy(tmp_path, "alpha")
    _copy(tmp_path, "broken", "\nbogus_key: 1\n")
    _copy(tmp_path, "gamma")
    out = tmp_path / "dist"
    code = run(["-q", "--assets", str(tmp_path), "build", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert "broken/game.yaml:" in err and "bogus_key: unknown key" in err
    assert err.strip().endswith("1 of 3 games failed to build (broken); the others are built")
    assert (out / "alpha" / "alpha.json").is_file()
    assert (out / "gamma" / "gamma.json").is_file()
    assert not (out / "broken").exists()
    # Fixed, the broken game is built and the others are up to date.
    path = tmp_path / "broken" / "game.yaml"
    path.write_text(path.read_text("utf-8").replace("bogus_key: 1\n", ""), "utf-8")
    assert run(["--assets", str(tmp_path), "build", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "nothing rebuilt" in err and "wrote " in err
    assert (out / "broken" / "broken.json").is_file()


def test_one_named_game_s_error_is_the_command_s(tmp_path: Path, capsys) -> None:
    _copy(tmp_path, "broken", "\nbogus_key: 1\n")
    code = run(["-q", "--assets", str(tmp_path), "build", "broken", "--out", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT
    assert err.count("error:") == 1 and "bogus_key: unknown key" in err
