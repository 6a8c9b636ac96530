"""Honest feedback: publish warns about addresses only this computer can reach, check ends with a
summary, build names the pictures it wrote."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import seeded

from tts_builder.build import describe_outputs
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.ship.publish import local_only_reason

SAVES = Path(__file__).resolve().parent / "fixtures" / "real_saves"


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://127.0.0.1:8000/mods", "loopback"),
        ("http://[::1]/mods", "loopback"),
        ("http://localhost:8080", "only this computer or network"),
        ("http://nas.local/mods", "only this computer or network"),
        ("http://192.168.1.20/mods", "private network"),
        ("http://10.0.0.5/", "private network"),
        ("http://169.254.3.4/", "private network"),
        ("file:///home/me/mods", "a file on this computer"),
    ],
)
def test_local_only_base_urls_are_named(url: str, reason: str) -> None:
    assert reason in (local_only_reason(url) or "")


@pytest.mark.parametrize(
    "url", ["https://you.github.io/mods", "https://bucket.s3.amazonaws.com/x", "http://8.8.8.8/"]
)
def test_public_base_urls_pass(url: str) -> None:
    assert local_only_reason(url) is None


def test_check_ends_with_a_summary(capsys, tmp_path: Path) -> None:
    saves = sorted(map(str, SAVES.glob("*.json")))
    code, out, _ = cli(capsys, "check", *saves)
    assert code == EXIT_OK
    last = out.strip().splitlines()[-1]
    assert last.startswith(f"checked {len(saves)} saves: ") and ", 0 required" in last
    broken = json.loads((SAVES / "pparocza__Merchantalismo__TS_Save_2.json").read_text())
    del broken["ObjectStates"]
    bad = tmp_path / "TS_Save_3.json"
    bad.write_text(json.dumps(broken))
    code, out, _ = cli(capsys, "check", str(bad))
    assert code == EXIT_BAD_INPUT
    assert out.strip().splitlines()[-1] == "checked 1 save: 1 finding, 1 required"


def test_build_names_what_it_wrote(capsys, tmp_path: Path) -> None:
    code, _, err = cli(capsys, "build", "arche-noah", "--out", str(seeded(tmp_path / "dist")))
    assert code == EXIT_OK, err
    from tts_builder.definition import ASSETS_ROOT, shown_path

    assert f"built arche-noah from {shown_path(ASSETS_ROOT / 'arche-noah')}: " in err
    (wrote,) = [line for line in err.splitlines() if line.startswith("wrote ")]
    for part in ("arche-noah.json (save)", "arche-noah.png (thumbnail)",
                 "preview.png (every component)", "images/ (", "scripts/ ("):  # fmt: skip
        assert part in wrote


def test_describe_outputs_names_every_picture() -> None:
    names = ("g-2p.json", "g-2p.png", "preview.png", "table.png", "box.png", "images/a.png")
    files = {n: b"" for n in names}
    assert describe_outputs(files) == (
        "box.png (picture), g-2p.json (save), g-2p.png (thumbnail), "
        "preview.png (every component), table.png (the table at load), images/ (1 file)"
    )
