"""Reading a save someone hands ``check``: any file, any bytes, a located refusal (never a
crash, a hang, or gigabytes read)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tts_builder.errors import BuildError
from tts_builder.save import savefile
from tts_builder.save.savefile import loads, read_save


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested too deep"),
        (b'{"a": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", "nested too deep"),
        (b'{"n": ' + b"9" * 5_000 + b"}", "unreadable JSON"),
        (b'{"a": 1', "invalid JSON"),
        (b"\xff{}", "not valid UTF-8"),
    ],
)
def test_a_save_python_cannot_read_is_refused_naming_the_file(data: bytes, says: str) -> None:
    with pytest.raises(BuildError, match=f"^bad.json.*{says}"):
        loads(data, "bad.json")


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "save.json"
    os.mkfifo(fifo)
    with pytest.raises(BuildError, match="not a regular file"):
        read_save(fifo)


def test_a_device_and_a_folder_are_refused_unread(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="not a regular file"):
        read_save(Path("/dev/zero"))
    with pytest.raises(BuildError, match="a folder"):
        read_save(tmp_path)
    with pytest.raises(BuildError, match="cannot read"):
        read_save(tmp_path / "missing.json")


def test_a_save_over_the_size_limit_is_refused(tmp_path: Path, monkeypatch) -> None:
    save = tmp_path / "big.json"
    save.write_bytes(b"{}" + b" " * 100)
    assert read_save(save) == save.read_bytes()
    monkeypatch.setattr(savefile, "MAX_SAVE_BYTES", 50)
    with pytest.raises(BuildError, match="102 bytes, more than the 50"):
        read_save(save)


def test_check_refuses_a_fifo_and_a_deep_save_with_one_line_and_exit_2(
    tmp_path: Path, capsys
) -> None:
    from tts_builder.cli import EXIT_BAD_INPUT, run

    fifo, deep = tmp_path / "fifo.json", tmp_path / "deep.json"
    os.mkfifo(fifo)
    deep.write_bytes(b'{"ObjectStates": ' + b"[" * 50_000 + b"]" * 50_000 + b"}")
    for path, says in [(fifo, "not a regular file"), (deep, "nested too deep")]:
        assert run(["check", str(path)]) == EXIT_BAD_INPUT
        shown = capsys.readouterr().err.strip().split("\n")
        assert len(shown) == 1 and shown[0].startswith(f"error: {path}: ") and says in shown[0]


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b'{"a": {"b\\n": [' + b"[" * 150 + b"]" * 150 + b"]}}",
         r'^s\.json: a\["b\\n"\](\[0\]){98}: nested too deep \(more than 100 levels'),
        (b'{"x": 1, "a": [2, ' + b"[" * 5_000 + b"]" * 5_000 + b"]}",
         r"^s\.json: 1:\d+: a\[1\](\[0\]){99}: nested too deep"),
        (b'{"ObjectStates": [{"Transform": {"posX": -' + b"9" * 310 + b"}}]}",
         r"^s\.json: ObjectStates\[0\]\.Transform\.posX: a whole number of 310 digits"),
    ],
)  # fmt: skip
def test_a_save_past_the_depth_or_number_limits_is_refused_at_its_json_path(
    data: bytes, says: str
) -> None:
    with pytest.raises(BuildError, match=says):
        loads(data, "s.json")


def test_the_limits_keep_what_real_saves_hold() -> None:
    nested = b'{"a": ' + b"[" * 99 + b"]" * 99 + b"}"  # 100 levels with the save itself
    biggest = str(savefile.MAX_JSON_INT).encode()
    assert loads(nested, "s.json") and loads(b'{"n": -' + biggest + b"}", "s.json")
    for save in (Path(__file__).parent / "fixtures" / "real_saves").glob("*.json"):
        assert loads(save.read_bytes(), save.name)


def test_a_finding_is_one_printable_line() -> None:
    from tts_builder.save.findings import Finding

    found = Finding("conv", 'States["a\nb"]', "got '\x1b[31m' \ud800 \u2028 é")
    assert str(found) == "[conv] States[\"a\\nb\"]: got '\\x1b[31m' \\ud800 \\u2028 é"


def test_an_image_url_naming_a_fifo_or_a_device_is_of_unknown_size(tmp_path: Path) -> None:
    from tts_builder.save.geometry_checks import image_size_from_disk

    fifo = tmp_path / "x.png"
    os.mkfifo(fifo)
    assert image_size_from_disk(fifo.as_uri()) is None  # not opened: no writer to wait for
    assert image_size_from_disk("file:///dev/zero") is None
