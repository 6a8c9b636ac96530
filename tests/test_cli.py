"""The command line: outputs, exit codes and one-line errors; nothing half-written."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK, run
from tts_builder.definition import ASSETS_ROOT

SAVES = Path(__file__).resolve().parent / "fixtures" / "real_saves"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / "arche-noah", root / "arche-noah")
    return root


def test_build_writes_the_game(capsys, tmp_path: Path) -> None:
    from conftest import seeded

    out = seeded(tmp_path / "dist")
    code, _, err = cli(capsys, "build", "arche-noah", "--out", str(out))
    assert code == EXIT_OK, err
    game = out / "arche-noah"
    assert (game / "arche-noah.json").is_file() and (game / "preview.png").is_file()
    save = json.loads((game / "arche-noah.json").read_text())
    assert save["SaveName"] == "Arche Noah"
    code, _, err = cli(capsys, "build", "arche-noah", "--out", str(out))
    assert code == EXIT_OK and "up to date" in err and "0 images rendered" in err


def test_a_clean_build_is_byte_identical_to_one_in_memory() -> None:
    """The tree a CLI build of every game and variant wrote into an empty folder, its cache
    empty before (conftest.clean_build, once per session: every image drawn afresh there)
    equals a second build of each made in memory, its renders from the session's cache."""
    from conftest import SESSION_CACHE, clean_build

    from tts_builder.build import BuildOptions
    from tts_builder.cli import build_checked
    from tts_builder.definition import load_definition, select_games

    out = clean_build()
    written = {
        p.relative_to(out).as_posix(): p.read_bytes()
        for p in sorted(out.rglob("*"))
        if p.is_file() and ".cache" not in p.parts
    }
    in_memory = {}
    for game in select_games([]):
        for variant in [None, *load_definition(game).variants]:
            options = BuildOptions(out_dir=out.resolve(), variant=variant)
            result = build_checked(game, options, SESSION_CACHE)
            assert result.drawn == 0  # every picture from the clean build's renders
            in_memory.update({f"{result.folder}/{n}": d for n, d in result.files.items()})
    assert sorted(written) == sorted(in_memory)
    assert written == in_memory
    assert "arche-noah/arche-noah.json" in written


def test_every_game_drawn_again_from_nothing_gives_the_clean_build_s_bytes() -> None:
    """Drawing is deterministic: a second build of every game and variant, in memory through
    one cache empty before (as the clean CLI build shares its cache: every distinct picture
    drawn a second, independent time), equals the session's clean CLI build, file by file, and
    each part it drew and cached equals the clean build's, byte for byte."""
    from conftest import SESSION_CACHE, clean_build, drawn

    from tts_builder.build import BuildOptions
    from tts_builder.cli import build_checked
    from tts_builder.definition import load_definition, select_games

    out = clean_build()
    fresh: dict[str, bytes] = {}
    for game in select_games([]):
        for variant in [None, *load_definition(game).variants]:
            options = BuildOptions(out_dir=out.resolve(), variant=variant)
            result = build_checked(game, options, fresh)
            assert variant or result.drawn > 0  # a game's first build: nothing from a cache
            for name, data in result.files.items():
                assert (out / result.folder / name).read_bytes() == data, (game, variant, name)
    renders = {key: data for key, data in fresh.items() if drawn(data)}
    assert renders and all(SESSION_CACHE[key] == data for key, data in renders.items())


def test_a_no_op_build_builds_nothing_until_an_input_or_output_changes(
    capsys, assets: Path, tmp_path: Path, monkeypatch
) -> None:
    from conftest import seeded

    import tts_builder.cli_build as cli_module

    out = seeded(tmp_path / "dist")  # the clean build's renders
    args = ["--assets", str(assets), "build", "arche-noah", "--out", str(out)]
    assert cli(capsys, *args)[0] == EXIT_OK
    built = {p: p.read_bytes() for p in sorted((out / "arche-noah").rglob("*")) if p.is_file()}
    real_build = cli_module.build_checked

    def no_build(*args, **kwargs):
        raise AssertionError("built although nothing changed")

    monkeypatch.setattr(cli_module, "build_checked", no_build)
    code, _, err = cli(capsys, *args)
    assert code == EXIT_OK, err
    assert "inputs unchanged: nothing rebuilt" in err and "up to date" in err
    monkeypatch.setattr(cli_module, "build_checked", real_build)
    (out / "arche-noah" / "preview.png").write_bytes(b"edited")  # an output changed
    code, _, err = cli(capsys, *args)
    assert code == EXIT_OK and "inputs unchanged" not in err
    assert {p: p.read_bytes() for p in built} == built
    path = assets / "arche-noah" / "game.yaml"  # an input changed
    path.write_text(path.read_text().replace("name: Arche Noah", "name: Arche Noah II"))
    code, _, err = cli(capsys, *args)
    assert code == EXIT_OK and "inputs unchanged" not in err
    assert b"Arche Noah II" in (out / "arche-noah" / "arche-noah.json").read_bytes()


def test_bad_yaml_exits_2_with_one_line_and_writes_nothing(capsys, assets: Path, tmp_path) -> None:
    path = assets / "arche-noah" / "game.yaml"
    path.write_text(path.read_text().replace("purple: 10,", "purple: twelve,"))
    out = tmp_path / "dist"
    code, stdout, err = cli(
        capsys, "--assets", str(assets), "build", "arche-noah", "--out", str(out)
    )
    assert code == EXIT_BAD_INPUT
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert "game.yaml:" in lines[0] and "rules.chips[1].purple" in lines[0]
    assert not (out / "arche-noah").exists()


def test_failed_rebuild_keeps_the_previous_build(capsys, assets: Path, tmp_path: Path) -> None:
    from conftest import seeded

    out = seeded(tmp_path / "dist")
    args = ["--assets", str(assets), "-q", "build", "arche-noah", "--out", str(out)]
    assert cli(capsys, *args)[0] == EXIT_OK
    before = (out / "arche-noah" / "arche-noah.json").read_bytes()
    (assets / "arche-noah" / "art" / "bear.png").unlink()
    code, _, err = cli(capsys, "--assets", str(assets), "build", "arche-noah", "--out", str(out))
    assert code == EXIT_BAD_INPUT and "animals[8].art" in err and "bear.png" in err
    assert (out / "arche-noah" / "arche-noah.json").read_bytes() == before


def test_unknown_game_exits_2(capsys) -> None:
    code, _, err = cli(capsys, "build", "no-such-game")
    assert code == EXIT_BAD_INPUT and "unknown game 'no-such-game'" in err


def test_list(capsys) -> None:
    code, out, _ = cli(capsys, "list")
    assert code == EXIT_OK and out.startswith("arche-noah\tArche Noah\t2-5 players")


def test_eval_both_engines(capsys) -> None:
    payload = json.dumps(
        {"cards": [{"animal": "Lion", "value": 3}], "purple": 5, "green": 2, "playthrough": 2}
    )
    code, out, _ = cli(capsys, "eval", "arche-noah", "score_collection", payload)
    result = json.loads(out)
    assert code == EXIT_OK and result["agree"] is True
    assert result["lua"]["total"] == -3 + 2 + 2


def test_eval_single_engine_prints_the_output_alone(capsys) -> None:
    code, out, _ = cli(
        capsys, "eval", "arche-noah", "pick_order", '{"bids":[1,1,2],"start":1}', "--engine", "lua"
    )
    assert code == EXIT_OK
    assert json.loads(out) == {"order": [2, 1, 0], "paid": [1, 1, 2]}


def test_eval_bad_json_exits_2(capsys) -> None:
    code, _, err = cli(capsys, "eval", "arche-noah", "pick_order", "{bids")
    assert code == EXIT_BAD_INPUT and "payload: invalid JSON" in err


def test_verify_agrees(capsys) -> None:
    code, _, err = cli(capsys, "verify", "arche-noah", "--examples", "25")
    assert code == EXIT_OK, err
    assert re.search(r"score_collection: \d+ distinct inputs agree", err)


def test_verify_reports_a_mismatch(capsys, monkeypatch) -> None:
    from rules_ref import arche_noah as ref

    real = ref.pick_order

    def off_by_one(config, inp):
        out = real(config, inp)
        return {**out, "paid": [p + 1 for p in out["paid"]]}

    monkeypatch.setitem(ref.FUNCTIONS, "pick_order", off_by_one)
    code, out, _ = cli(capsys, "-q", "verify", "arche-noah", "--examples", "20")
    assert code == EXIT_MISMATCH
    assert "pick_order: Lua and rules_ref disagree on" in out


def test_check_real_saves(capsys) -> None:
    saves = sorted(SAVES.glob("*.json"))
    assert saves
    code, out, _ = cli(capsys, "check", *map(str, saves))
    assert code == EXIT_OK, out


def test_check_corrupt_save(capsys, tmp_path: Path) -> None:
    bad = tmp_path / "TS_Save_9.json"
    bad.write_text('{"SaveName": "x", "ObjectStates": [}')
    code, _, err = cli(capsys, "check", str(bad))
    assert code == EXIT_BAD_INPUT and str(bad) in err and len(err.strip().splitlines()) == 1


def test_console_script_and_module_entry_points() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tts_builder", "list"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and "arche-noah" in proc.stdout


def test_verify_table_plays_games_on_the_emulated_table(capsys) -> None:
    code, _, err = cli(capsys, "verify", "arche-noah", "--examples", "5", "--table", "2")
    assert code == EXIT_OK, err
    assert "arche-noah table (lupa): 2 games agree with rules_ref" in err


def test_verify_table_prints_the_shortest_failing_sequence(capsys, monkeypatch) -> None:
    from rules_ref import arche_noah as ref

    real = ref.turn

    def next_seat_bids(config, inp):  # the reference's game only: the Rules twin stays right
        out = real(config, inp)
        if inp["phase"] == "bid":
            return {"seat": (out["seat"] + 1) % inp["players"]}
        return out

    monkeypatch.setattr(ref, "turn", next_seat_bids)
    code, out, _ = cli(capsys, "-q", "verify", "arche-noah", "--examples", "5", "--table", "3")
    assert code == EXIT_MISMATCH
    failed = "arche-noah table (lupa): game 1 fails; shortest failing sequence, seed 0, 1 actions"
    assert failed in out
    assert "turn: table" in out
