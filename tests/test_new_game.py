"""A designer's own folder: ``new`` copies a game under a new name, ``build`` finds it there,
the lookup order is --assets, the current folder, then the bundled games, and ``engine`` picks
the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import seeded

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder with nothing beside it."""
    folder = tmp_path / "designer"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def test_new_then_build_in_an_empty_folder(capsys, empty: Path) -> None:
    code, out, err = cli(capsys, "new", "my-cards")
    assert code == EXIT_OK, err
    assert "wrote my-cards/" in out and "tts-builder build my-cards" in err
    text = (empty / "my-cards" / "game.yaml").read_text(encoding="utf-8")
    assert "\nid: my-cards\n" in text and '\nname: "My Cards"\n' in text
    assert "\nengine: arche-noah" in text
    assert sorted(p.name for p in (empty / "my-cards" / "art").iterdir())[:2] == [
        "LICENSE.md", "bear.png",
    ]  # fmt: skip

    code, _, err = cli(capsys, "build", "my-cards")
    assert code == EXIT_OK, err
    game = empty / "dist" / "my-cards"
    save = json.loads((game / "my-cards.json").read_text(encoding="utf-8"))
    assert save["SaveName"] == "My Cards" and save["LuaScript"]
    assert (game / "preview.png").is_file() and (empty / "dist" / ".cache").is_dir()

    code, out, _ = cli(capsys, "list")
    assert code == EXIT_OK
    mine, *bundled = out.splitlines()
    assert mine.startswith("my-cards\tMy Cards\t") and "current folder" in mine
    assert "engine arche-noah" in mine and all(line.endswith("bundled") for line in bundled)


def test_a_copy_of_a_game_with_variants_builds_each_and_verifies(capsys, empty: Path) -> None:
    assert cli(capsys, "new", "my-flood", "--from", "arche-noah-flood")[0] == EXIT_OK
    seeded(empty / "dist")  # renders other tests drew (the copy's art is the bundled one's)
    code, _, err = cli(capsys, "build")  # no names: the games in this folder only
    assert code == EXIT_OK, err
    built = sorted(p.name for p in (empty / "dist").iterdir() if not p.name.startswith("."))
    assert built == ["my-flood", "my-flood-distinct-species", "my-flood-junior"]
    code, _, err = cli(capsys, "verify", "my-flood", "--examples", "3")
    assert code == EXIT_OK, err
    assert "my-flood-junior" in err


def test_new_refuses_a_bad_or_taken_name(capsys, empty: Path) -> None:
    code, _, err = cli(capsys, "new", "My_Game")
    assert code == EXIT_BAD_INPUT and "lower-case id" in err
    (empty / "taken").mkdir()
    code, _, err = cli(capsys, "new", "taken")
    assert code == EXIT_BAD_INPUT and "taken: already exists" in err
    code, _, err = cli(capsys, "new", "mine", "--from", "no-such-game")
    assert code == EXIT_BAD_INPUT and "unknown game 'no-such-game'" in err
    assert sorted(p.name for p in empty.iterdir()) == ["taken"]  # nothing half-written


@pytest.mark.parametrize("name", ["con", "aux-game", "lpt1", "nul", "a" * 65])
def test_new_refuses_a_name_no_file_system_can_hold(capsys, empty: Path, name: str) -> None:
    code, _, err = cli(capsys, "new", name)
    assert code == EXIT_BAD_INPUT and len(err.strip().splitlines()) == 1, err
    assert not any(empty.iterdir())


def test_new_from_copies_the_games_files_never_what_a_link_out_of_it_names(
    capsys, empty: Path, tmp_path: Path
) -> None:
    """A game folder with a link to a secret outside it, a link inside it and a link loop:
    the copy has the inside link's file and neither the secret nor the loop."""
    assert cli(capsys, "new", "mine")[0] == EXIT_OK
    secret = tmp_path / "secret.txt"
    secret.write_text("password", encoding="utf-8")
    (empty / "mine" / "art" / "leak.txt").symlink_to(secret)
    (empty / "mine" / "art" / "bear-again.png").symlink_to(empty / "mine" / "art" / "bear.png")
    (empty / "mine" / "loop").symlink_to(empty / "mine" / "loop")
    (empty / "mine" / "outside").symlink_to(tmp_path, target_is_directory=True)
    code, _, err = cli(capsys, "new", "copy", "--from", "mine")
    assert code == EXIT_OK, err
    copied = {p.relative_to(empty / "copy").as_posix() for p in (empty / "copy").rglob("*")}
    assert (
        "art/bear-again.png" in copied and not (empty / "copy" / "art/bear-again.png").is_symlink()
    )
    assert not {"art/leak.txt", "loop", "outside"} & copied
    assert all("password" not in p.read_text("latin-1") for p in (empty / "copy").rglob("*.txt"))


def test_unknown_engine_is_a_located_error(capsys, empty: Path) -> None:
    assert cli(capsys, "new", "my-cards")[0] == EXIT_OK
    path = empty / "my-cards" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("engine: arche-noah", "engine: chess"), encoding="utf-8")
    line = text[: text.index("engine: arche-noah")].count("\n") + 1
    code, _, err = cli(capsys, "build", "my-cards")
    assert code == EXIT_BAD_INPUT
    assert err.startswith(f"error: my-cards/game.yaml:{line}:") and "engine" in err
    assert "unknown engine 'chess'" in err and "arche-noah" in err
    assert len(err.strip().splitlines()) == 1
    code, out, _ = cli(capsys, "list")  # the broken game is listed with its error, not hidden
    assert code == EXIT_BAD_INPUT and "arche-noah\tArche Noah\t" in out
    assert f"my-cards\tcannot load: my-cards/game.yaml:{line}:" in out
    path.write_text(text.replace("engine: arche-noah\n", ""), encoding="utf-8")
    code, _, err = cli(capsys, "build", "my-cards")
    assert code == EXIT_BAD_INPUT and "engine: missing" in err


def _own_arche_noah(root: Path, title: str) -> None:
    """``root/arche-noah/``: the bundled game under its own id, retitled."""
    from tts_builder.definition import ASSETS_ROOT

    for path in (ASSETS_ROOT / "arche-noah").rglob("*"):
        if path.is_file():
            target = root / "arche-noah" / path.relative_to(ASSETS_ROOT / "arche-noah")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    yaml = root / "arche-noah" / "game.yaml"
    yaml.write_text(yaml.read_text().replace("name: Arche Noah", f"name: {title}", 1))


def test_lookup_order_assets_then_current_folder_then_bundled(
    capsys, empty: Path, tmp_path: Path
) -> None:
    def listed(*args: str) -> str:
        code, out, err = cli(capsys, *args, "list")
        assert code == EXIT_OK, err
        return next(line for line in out.splitlines() if line.startswith("arche-noah\t"))

    assert listed().endswith("\tbundled")
    _own_arche_noah(empty, "Here")
    assert "\tHere\t" in listed() and "current folder" in listed()
    assets = tmp_path / "elsewhere"
    _own_arche_noah(assets, "There")
    line = listed("--assets", str(assets))
    assert "\tThere\t" in line and "--assets" in line
    seeded(empty / "dist")
    code, _, err = cli(capsys, "--assets", str(assets), "build", "arche-noah")
    assert code == EXIT_OK, err
    save = json.loads((empty / "dist" / "arche-noah" / "arche-noah.json").read_text())
    assert save["SaveName"] == "There"


def test_a_new_games_title_keeps_small_words_lower_case() -> None:
    from tts_builder.scaffold import title_of

    assert title_of("my-ark-and-noah") == "My Ark and Noah"
    assert title_of("the-flood-of-noah") == "The Flood of Noah"
