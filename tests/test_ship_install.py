"""`install`: TTS folders per OS, TS_Save_<N> slots, local file URLs, never someone else's save."""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath, PureWindowsPath
from urllib.parse import unquote, urlparse

import pytest
from conftest import SESSION_CACHE

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.errors import BuildError
from tts_builder.ship.install import install_build, local_file_url, localize
from tts_builder.ship.publish import url_fields
from tts_builder.ship.tts_paths import (
    SAVES_ENV,
    Recorded,
    choose_slot,
    current_system,
    default_data_dir,
    find_saves_dir,
    index_bytes,
    install_key,
    next_free_number,
    parse_index,
    read_index,
    save_numbers,
    saves_dir_choice,
)

GAME = "arche-noah"


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dist")


@pytest.fixture(scope="module")
def options(out_dir: Path) -> BuildOptions:
    return BuildOptions(out_dir=out_dir)


@pytest.fixture(scope="module")
def built(options: BuildOptions) -> GameBuild:
    return build_game(GAME, options, SESSION_CACHE)


@pytest.fixture
def saves(tmp_path: Path) -> Path:
    path = tmp_path / "Tabletop Simulator" / "Saves"
    path.mkdir(parents=True)
    return path


# --- folders per OS --------------------------------------------------------------------------


def test_default_data_folder_per_os() -> None:
    env = {"USERPROFILE": r"C:\Users\Ada"}
    assert default_data_dir("windows", r"C:\ignored", env) == PureWindowsPath(
        r"C:\Users\Ada\Documents\My Games\Tabletop Simulator"
    )
    assert default_data_dir("macos", "/Users/ada", {}) == PurePosixPath(
        "/Users/ada/Library/Tabletop Simulator"
    )
    assert default_data_dir("linux", "/home/ada", {}) == PurePosixPath(
        "/home/ada/.local/share/Tabletop Simulator"
    )
    assert current_system("win32") == "windows"
    assert current_system("darwin") == "macos"
    assert current_system("linux") == "linux"


def test_flag_beats_environment_beats_default() -> None:
    env = {SAVES_ENV: "/from/env"}
    assert saves_dir_choice("/from/flag", env, "linux", "/home/a") == (
        PurePosixPath("/from/flag"),
        "--saves-dir",
    )
    assert saves_dir_choice(None, env, "linux", "/home/a") == (
        PurePosixPath("/from/env"),
        SAVES_ENV,
    )
    path, source = saves_dir_choice(None, {}, "linux", "/home/a")
    assert path == PurePosixPath("/home/a/.local/share/Tabletop Simulator/Saves")
    assert source == "the linux default"


def test_environment_variable_finds_the_saves_folder(saves: Path) -> None:
    assert find_saves_dir(None, {SAVES_ENV: str(saves)}) == saves


def test_missing_saves_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match=r"Saves folder .*nowhere.* does not exist"):
        find_saves_dir(tmp_path / "nowhere", {})
    with pytest.raises(BuildError, match=SAVES_ENV):
        find_saves_dir(None, {SAVES_ENV: str(tmp_path / "gone")})


# --- slots ------------------------------------------------------------------------------------


def test_save_numbers_only_count_numbered_saves() -> None:
    names = [
        "TS_Save_3.json",
        "TS_Save_10.png",
        "TS_AutoSave.json",
        "SaveFileInfos.json",
        "ts_save_7.JSON",
        "TS_Save_x.json",
        "notes.txt",
    ]
    assert save_numbers(names) == {3, 7, 10}
    assert next_free_number(set()) == 1
    assert next_free_number({3, 7, 10}) == 11
    top = 2**31 - 1  # a number TTS (C#) reads; higher ones are not TTS's, and not followed
    assert next_free_number({3, 10**230}) == 4 and next_free_number({top - 1, top + 1}) == top
    with pytest.raises(BuildError, match="no free save number"):
        next_free_number({top})


def test_slot_is_reused_only_while_it_holds_what_we_wrote() -> None:
    rec = Recorded(4, "save-sha", "png-sha")
    assert choose_slot(None, {1, 2}, (None, None)).number == 3
    same = choose_slot(rec, {1, 4}, ("save-sha", "png-sha"))
    assert (same.number, same.replaces) == (4, True)
    gone = choose_slot(rec, {1}, (None, None))
    assert (gone.number, gone.replaces) == (4, False)
    resaved = choose_slot(rec, {1, 4, 5}, ("other", "png-sha"))
    assert (resaved.number, resaved.replaces) == (6, False)
    assert "TS_Save_4.json" in resaved.note
    thumb = choose_slot(rec, {4}, ("save-sha", "other"))
    assert thumb.number == 5 and "TS_Save_4.png" in thumb.note


def test_a_damaged_index_only_costs_a_fresh_slot() -> None:
    for junk in (b"", b"{", b"[]", b'{"installs": {"a": {"number": "two"}}}'):
        assert parse_index(junk) == {}
    assert parse_index(index_bytes({"a": Recorded(2, "a" * 64, "b" * 64)})) == {
        "a": Recorded(2, "a" * 64, "b" * 64)
    }


# --- file URLs --------------------------------------------------------------------------------


def test_local_urls_in_the_form_tts_writes() -> None:
    windows = PureWindowsPath(r"C:\Users\Ada\Documents\My Games\Tabletop Simulator\x\a.png")
    assert local_file_url(windows) == (
        r"file:///C:\Users\Ada\Documents\My Games\Tabletop Simulator\x\a.png"
    )
    mac = PurePosixPath("/Users/ada/Library/Tabletop Simulator/tts-builder/a.png")
    assert local_file_url(mac) == "file:///Users/ada/Library/Tabletop%20Simulator/tts-builder/a.png"


def test_localize_points_every_url_at_a_hashed_copy(built: GameBuild, options) -> None:
    folder = PureWindowsPath(r"D:\TTS\tts-builder\arche-noah")
    save, files = localize(built, options, folder)
    urls = {url for _, url in url_fields(save)}
    assert urls and all(
        url.startswith("file:///D:\\TTS\\tts-builder\\arche-noah\\images\\") for url in urls
    )
    assert {url.rsplit("\\", 1)[1] for url in urls} == {p.split("/")[1] for p in files}
    images = {rel: data for rel, data in built.files.items() if rel.startswith("images/")}
    assert sorted(files.values()) == sorted(images.values())
    assert str(options.out_dir) not in json.dumps(save)
    assert save["LuaScript"] == built.save["LuaScript"]


# --- installing -------------------------------------------------------------------------------


def _bytes_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def test_install_takes_a_free_slot_and_leaves_other_saves_alone(
    built: GameBuild, options, saves: Path
) -> None:
    for n in (1, 2, 5):
        (saves / f"TS_Save_{n}.json").write_text(f'{{"SaveName": "mine {n}"}}')
    (saves / "TS_Save_5.png").write_bytes(b"thumb")
    before = _bytes_of(saves)
    [plan] = install_build(built, options, saves, GAME)
    assert plan.save_path == saves / "TS_Save_6.json" and not plan.slot.replaces
    after = _bytes_of(saves)
    assert {k: after[k] for k in before} == before
    assert set(after) - set(before) == {"TS_Save_6.json", "TS_Save_6.png"}
    assert after["TS_Save_6.png"] == built.files[f"{GAME}.png"]
    installed = json.loads(after["TS_Save_6.json"])
    assert installed["SaveName"] == "Arche Noah"
    for where, url in url_fields(installed):
        assert url.startswith("file:///"), where
        local = Path(url.removeprefix("file://").replace("%20", " "))
        assert local.is_file() and local.read_bytes() in built.files.values()
        assert local.is_relative_to(saves.parent / "tts-builder" / GAME)
    assert not [p for p in saves.parent.rglob("*") if p.name.endswith(".tmp")]


def test_install_takes_a_number_nothing_in_the_saves_folder_holds(
    built: GameBuild, options, saves: Path
) -> None:
    """A folder named like the next save, or a broken link, is in the way: install takes the
    number after it (it said "run install again", which failed the same way)."""
    (saves / "TS_Save_1.json").write_text('{"SaveName": "mine"}')
    (saves / "TS_Save_2.json").mkdir()
    (saves / "TS_Save_3.png").symlink_to(saves / "gone.png")
    [plan] = install_build(built, options, saves, GAME)
    assert plan.save_path == saves / "TS_Save_4.json" and plan.save_path.is_file()
    assert (saves / "TS_Save_2.json").is_dir() and (saves / "TS_Save_3.png").is_symlink()


def test_reinstall_replaces_its_own_save_not_a_resaved_one(
    built: GameBuild, options, saves: Path
) -> None:
    [first] = install_build(built, options, saves, GAME)
    [again] = install_build(built, options, saves, GAME)
    assert again.save_path == first.save_path and again.slot.replaces
    assert sorted(p.name for p in saves.iterdir()) == ["TS_Save_1.json", "TS_Save_1.png"]
    # The player saves over it from TTS: that save is theirs now and is kept.
    resaved = b'{"SaveName": "Arche Noah", "Note": "my game in progress"}'
    first.save_path.write_bytes(resaved)
    [third] = install_build(built, options, saves, GAME)
    assert third.save_path == saves / "TS_Save_2.json" and "kept TS_Save_1.json" in third.slot.note
    assert first.save_path.read_bytes() == resaved
    assert read_index(saves).installs[GAME].number == 2
    # Another game (or variant) never takes the recorded slot.
    [other] = install_build(built, options, saves, install_key(GAME, "solo"))
    assert other.save_path == saves / "TS_Save_3.json"
    assert install_build(built, options, saves, GAME)[0].save_path == third.save_path


def test_a_deleted_save_slot_is_not_handed_to_another_game(
    built: GameBuild, options, saves: Path
) -> None:
    [first] = install_build(built, options, saves, GAME)
    first.save_path.unlink()
    first.thumbnail_path.unlink()
    [other] = install_build(built, options, saves, install_key(GAME, "solo"))
    assert other.save_path != first.save_path
    assert install_build(built, options, saves, GAME)[0].save_path == first.save_path


# --- the command ------------------------------------------------------------------------------


def test_install_command(capsys, cli_out: Path, saves: Path) -> None:
    code = run(["install", GAME, "--saves-dir", str(saves), "--out", str(cli_out)])
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert f"installed Arche Noah as {saves / 'TS_Save_1.json'} (a new save)" in out
    assert "Save & Load" in err
    code = run(["-q", "install", GAME, "--saves-dir", str(saves), "--out", str(cli_out)])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK and "replacing its earlier install" in out


def test_install_command_without_a_saves_folder(
    capsys, cli_out: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SAVES_ENV, str(tmp_path / "no" / "Saves"))
    code = run(["install", GAME, "--out", str(cli_out)])
    _, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT
    assert err.count("\n") == 1 and "does not exist" in err and SAVES_ENV in err
    assert not (tmp_path / "no").exists()


def test_ark_and_noah_installs_one_save_for_every_player_count(tmp_path: Path) -> None:
    """Ark & Noah ships one save for 2-4 players: one slot, every image URL of the save (in its
    fields and in its Lua) is a file that exists, and a re-install replaces that slot."""
    from tts_builder.build import BuildOptions, build_game

    saves = tmp_path / "Saves"
    saves.mkdir()
    options = BuildOptions(out_dir=tmp_path / "dist")
    ark = build_game("ark-and-noah", options, SESSION_CACHE)
    plans = install_build(ark, options, saves, "ark-and-noah")
    assert len(plans) == len(ark.saves()) == 1
    (plan,) = plans
    text = plan.save_path.read_text(encoding="utf-8")
    installed = json.loads(text)
    assert installed["SaveName"] == "Ark & Noah" and installed["PlayerCounts"] == [2, 4]
    assert installed["ObjectStates"]
    urls = set(re.findall(r"file:///[^\"'\s\\]+?\.png", text))  # in fields and in Lua
    assert len(urls) > 100  # boards, pieces and both sides of every animal tile
    for url in urls:
        path = Path(unquote(urlparse(url).path))
        assert path.is_file() and plan.assets_dir in path.parents
    again = install_build(ark, options, saves, "ark-and-noah")
    assert [p.save_path for p in again] == [plan.save_path]
    assert all(p.slot.replaces for p in again)


# --- a hostile index, hostile slots (#24) -----------------------------------------------------

GOOD = {"number": 3, "save_sha256": "a" * 64, "thumbnail_sha256": "b" * 64}


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
        (b'{"installs": {"a": {"number": ' + b"9" * 5_000 + b"}}}", "not readable JSON"),
        (b"\xff\xfe{}", "not readable JSON"),
        (b'"installs"', "not an install index"),
        (b'{"installs": [1, 2]}', "not an install index"),
        (b'{"installs": 5}', "not an install index"),
    ],
)
def test_an_unreadable_index_is_empty_and_says_why(data: bytes, problem: str) -> None:
    from tts_builder.ship.tts_paths import decode_index

    found = decode_index(data)
    assert found.installs == {} and problem in (found.problem or "")


def test_a_damaged_entry_costs_its_own_record_only() -> None:
    from tts_builder.ship.tts_paths import decode_index

    bad = [
        {**GOOD, "number": True},
        {**GOOD, "number": -1},
        {**GOOD, "number": 10**30},
        {**GOOD, "save_sha256": ["x"]},
        {**GOOD, "thumbnail_sha256": "not hex"},
        "an entry",
    ]
    installs = {"good": GOOD, **{f"bad{i}": entry for i, entry in enumerate(bad)}}
    found = decode_index(json.dumps({"installs": installs}).encode())
    assert found.installs == {"good": Recorded(3, "a" * 64, "b" * 64)}
    assert "'bad0', 'bad1', 'bad2' ... are damaged" in (found.problem or "")


def _index_path(saves: Path) -> Path:
    path = saves.parent / "tts-builder" / "installed.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def test_the_index_is_read_only_if_it_is_a_file_of_sane_size(saves: Path) -> None:
    import os

    index = _index_path(saves)
    index.mkdir()
    with pytest.raises(BuildError, match="installed.json: not a file; .* move it away"):
        read_index(saves)
    index.rmdir()
    os.mkfifo(index)  # opened for reading, it would block for ever
    with pytest.raises(BuildError, match="not a file"):
        read_index(saves)
    index.unlink()
    with index.open("wb") as handle:
        handle.truncate(9 * 2**20)  # sparse: nothing to read, a size to refuse
    assert read_index(saves).problem == "it is over 8 MB"
    index.unlink()
    index.symlink_to(index)  # a link loop
    with pytest.raises(BuildError, match="cannot read tts-builder's install index"):
        read_index(saves)


def test_a_slot_that_became_a_fifo_or_a_folder_is_not_ours(saves: Path) -> None:
    import os

    from tts_builder.ship.tts_paths import file_sha256

    os.mkfifo(saves / "fifo")
    (saves / "folder").mkdir()
    (saves / "loop").symlink_to(saves / "loop")
    for name in ("fifo", "folder", "loop"):
        digest = file_sha256(saves / name)
        assert digest is not None and not re.fullmatch(r"[0-9a-f]{64}", digest), name
    assert file_sha256(saves / "missing") is None


def test_install_rebuilds_a_deep_index_and_says_so(capsys, cli_out: Path, saves: Path) -> None:
    """A deep index was exit 3 (RecursionError): the install goes on, one line says the index
    was written anew, and the next install reads it."""
    (saves / "TS_Save_1.json").write_text('{"SaveName": "mine"}')
    _index_path(saves).write_bytes(b"[" * 100_000 + b"]" * 100_000)
    code = run(["install", GAME, "--saves-dir", str(saves), "--out", str(cli_out)])
    out, err = capsys.readouterr()
    assert code == EXIT_OK, err
    assert "(a new save); tts-builder's install index" in out and "nested too deep" in out
    assert (saves / "TS_Save_2.json").is_file() and "Traceback" not in err
    assert read_index(saves).installs[GAME].number == 2 and read_index(saves).problem is None
    code = run(["install", GAME, "--saves-dir", str(saves), "--out", str(cli_out)])
    out, _ = capsys.readouterr()
    assert code == EXIT_OK and "replacing its earlier install" in out and "index" not in out


def test_install_refuses_a_folder_for_its_index_before_writing(
    capsys, cli_out: Path, saves: Path
) -> None:
    _index_path(saves).mkdir()
    code = run(["-q", "install", GAME, "--saves-dir", str(saves), "--out", str(cli_out)])
    _, err = capsys.readouterr()
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1 and "not a file" in err
    assert list(saves.iterdir()) == []


def test_install_takes_a_new_slot_when_its_own_became_a_fifo(
    built: GameBuild, options, saves: Path
) -> None:
    import os

    [first] = install_build(built, options, saves, GAME)
    first.save_path.unlink()
    os.mkfifo(first.save_path)
    [again] = install_build(built, options, saves, GAME)
    assert again.save_path == saves / "TS_Save_2.json" and "kept TS_Save_1.json" in again.slot.note


def test_a_saves_folder_gone_since_the_start_is_one_line(
    built: GameBuild, options, saves: Path
) -> None:
    """watch --install installs many rounds after it found the Saves folder."""
    saves.rmdir()
    with pytest.raises(BuildError, match=r"TTS Saves folder .* is gone"):
        install_build(built, options, saves, GAME)
    assert not saves.exists()


def test_install_into_a_link_loop_or_past_absurd_numbers(
    built: GameBuild, options, saves: Path
) -> None:
    """A save numbered with 230 digits made the next name too long for the file system after
    the images were written; a link loop for tts-builder's folder was a RuntimeError."""
    (saves / f"TS_Save_{'9' * 230}.json").write_bytes(b"{}")
    [plan] = install_build(built, options, saves, GAME)
    assert plan.save_path.name == "TS_Save_1.json"
    own = saves.parent / "tts-builder"
    from tts_builder.writer import remove

    remove(own)
    own.symlink_to(own)
    with pytest.raises(BuildError, match="tts-builder.*(symbolic links|install index)"):
        install_build(built, options, saves, GAME)
