"""The machine is bad input too (issue 24): a full disk, a file where --out's folder should be,
a refused folder: exit 2 with the path and the system's reason on one line, the old output kept."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, run


def test_an_out_folder_under_a_file_is_one_line_exit_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    out = tmp_path / "file" / "dist"
    assert run(["-q", "build", "prototype", "--out", str(out)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("error: ") and "Not a directory" in err


def test_a_full_disk_mid_build_is_exit_2_and_the_last_build_stays(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "dist"
    assert run(["-q", "build", "prototype", "--out", str(out)]) == EXIT_OK
    before = {p: p.read_bytes() for p in (out / "prototype").rglob("*") if p.is_file()}

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    assert run(
        ["-q", "build", "prototype", "--out", str(out), "--base-url", "https://x.invalid/"]
    ) == (EXIT_BAD_INPUT)
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "No space left on device" in err, err
    assert {p: p.read_bytes() for p in (out / "prototype").rglob("*") if p.is_file()} == before


def test_an_os_error_that_is_no_environment_fault_stays_an_internal_error(
    capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tts_builder.cli as cli

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EBADF, "Bad file descriptor")

    monkeypatch.setattr(cli.cli, "main", broken)
    assert run(["list"]) == EXIT_INTERNAL
    assert "internal error: OSError" in capsys.readouterr().err
