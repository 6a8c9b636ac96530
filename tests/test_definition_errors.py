"""Every mistake of a ``game.yaml`` in one run: sorted by line, capped, each
``file:line:col: field: problem``, exit 2, no traceback, nothing written."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tts_builder.cli import EXIT_BAD_INPUT, run
from tts_builder.definition import ASSETS_ROOT
from tts_builder.errors import MAX_SHOWN, FieldError, FieldErrors
from tts_builder.schema import Int, ListOf, Map, Ref, Str, check_references, validate

GAME = "meadow"


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def tts_builder(args: tuple[str, ...]) -> None:
    """The console script: the CLI run as ``tts-builder`` runs it (exit codes mapped)."""
    sys.exit(run(list(args)))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A copy of the prototype named ``meadow`` to plant mistakes in."""
    shutil.copytree(ASSETS_ROOT / "prototype", tmp_path / GAME)
    path = tmp_path / GAME / "game.yaml"
    path.write_text(path.read_text("utf-8").replace("\nid: prototype\n", f"\nid: {GAME}\n"))
    return tmp_path


def plant(root: Path, *edits: tuple[str, str]) -> list[int]:
    """Replace each ``old`` by ``new`` once; the line of each ``new``."""
    path = root / GAME / "game.yaml"
    text = path.read_text("utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, "utf-8")
    lines = text.splitlines()
    return [next(i for i, line in enumerate(lines, 1) if new.strip() in line) for _, new in edits]


def build(root: Path) -> tuple[int, list[str]]:
    """``tts-builder build meadow`` in ``root``: the exit code and stderr's lines."""
    args = ["-q", "--assets", str(root), "build", GAME, "--out", str(root / "dist")]
    result = CliRunner().invoke(tts_builder, args)
    assert "Traceback" not in result.stderr, result.stderr
    assert not (root / "dist" / GAME).exists()  # nothing written
    return result.exit_code, result.stderr.splitlines()


def test_three_mistakes_in_one_run_each_located_sorted_by_line(root: Path) -> None:
    lines = plant(
        root,
        ("\ncomplexity: Low Complexity\n", "\ncomplexity: Lowish\n"),  # the header
        ("component: seed, count: 30,", "component: seed, count: 300,"),  # a piece's range
        ("- {deal: flowers, count: 5, to: hand}", "- {deal: flowers, count: 5, to: hnd}"),
    )
    code, err = build(root)
    assert code == EXIT_BAD_INPUT
    assert re.fullmatch(r"error: .*meadow/game\.yaml: 3 problems", err[0]), err
    where = r".*meadow/game\.yaml:(\d+):\d+: "
    expected = [
        rf"{where}complexity: expected one of Low Complexity, .*, got 'Lowish'",
        rf"{where}table\.pieces\[\d\]\.count: expected an integer from 1 to 200, got 300",
        rf"{where}table\.setup\[0\]\.to: expected .*",
    ]
    assert len(err) == 4, err
    for pattern, line, shown in zip(expected, lines, err[1:], strict=True):
        found = re.fullmatch(pattern, shown)
        assert found and int(found[1]) == line, (pattern, shown)


def test_the_list_is_capped(root: Path) -> None:
    path = root / GAME / "game.yaml"
    extra = "".join(f"\nmistake{i}: {i}" for i in range(MAX_SHOWN + 5))
    path.write_text(path.read_text("utf-8") + extra, "utf-8")
    code, err = build(root)
    assert code == EXIT_BAD_INPUT
    assert err[0].endswith(f"{MAX_SHOWN + 5} problems") and err[-1] == "... and 5 more", err
    assert len(err) == 1 + MAX_SHOWN + 1
    assert all(": unknown key (known keys: " in line for line in err[1:-1])


def test_variants_keys_are_strict_and_the_base_problems_are_said_once(root: Path) -> None:
    plant(root, ("score: {start: 0, min: 0, max: 99}", "score: {start: 0, min: 0, max: many}"))
    path = root / GAME / "game.yaml"
    quick = (
        "  quick:\n    name: Quick\n    nmae: typo\n    table:\n      score: {start: 5, mn: 0}\n"
    )
    path.write_text(path.read_text("utf-8") + f"variants:\n{quick}", "utf-8")
    code, err = build(root)
    assert code == EXIT_BAD_INPUT
    fields = [line.split(": ")[1] for line in err[1:]]
    # the variant inherits max: many; it is the base game's mistake, said there once
    assert fields == ["table.score.max", "variants.quick.nmae", "variants.quick.table.score.mn"]


def test_a_misspelt_required_key_is_one_mistake(root: Path) -> None:
    (line,) = plant(
        root, ("score: {start: 0, min: 0, max: 99}", "score: {start: 0, mn: 0, max: 99}")
    )
    code, err = build(root)
    assert code == EXIT_BAD_INPUT and len(err) == 1, err
    assert re.fullmatch(
        rf"error: .*:{line}:\d+: table\.score\.mn: unknown key \(did you mean 'min'\? .*", err[0]
    )


def test_the_header_checks_run_beside_the_shapes(root: Path) -> None:
    plant(
        root,
        (f"\nid: {GAME}\n", "\nid: pasture\n"),
        ("\nplaying_time: [15, 30]", "\nplaying_time: [30, 15]"),
        ("\ntags: [Card", "\ntags: 3 #[Card"),
    )
    code, err = build(root)
    assert code == EXIT_BAD_INPUT and len(err) == 4, err
    assert "id: expected 'meadow' (the folder name), got 'pasture'" in err[1]
    assert "playing_time[1]: expected >= playing_time[0] (30)" in err[2]
    assert "tags: expected a list, got 3" in err[3]


def test_cross_field_checks_run_once_the_shapes_fit(root: Path) -> None:
    plant(root, ("{deal: flowers, count: 5, to: hand}", "{deal: flower, count: 5, to: hand}"))
    code, err = build(root)
    assert code == EXIT_BAD_INPUT and len(err) == 1, err
    assert re.fullmatch(r"error: .*: table\.setup\[0\]\.deal: unknown piece 'flower' .*", err[0])


def test_validate_raises_every_problem_in_the_order_found() -> None:
    spec = Map({"a": Int(0, 9), "b": ListOf(Map({"n": Str()}), 1), "c": Int()})
    with pytest.raises(FieldErrors) as info:
        validate(spec, {"a": 10, "b": [{"n": ""}, {"m": "x"}], "d": 1})
    shown = [(e.field, e.detail) for e in info.value.errors]
    assert shown == [
        ("d", "unknown key (known keys: a, b, c)"),
        ("a", "expected an integer from 0 to 9, got 10"),
        ("b[0].n", "expected a non-empty string, got ''"),
        ("b[1].m", "unknown key (known keys: n)"),
        ("b[1].n", "missing required key"),
        ("c", "missing required key"),
    ]
    assert info.value.field == "d"  # read as one error: the first
    with pytest.raises(FieldError) as one:
        validate(spec, {"a": 1, "b": [{"n": "x"}], "c": "x"})
    assert not isinstance(one.value, FieldErrors) and one.value.field == "c"


def test_references_are_all_reported() -> None:
    spec = Map({"names": ListOf(Str()), "picks": ListOf(Ref("names[]", "the names"))})
    data = {"names": ["a", "b"], "picks": ["a", "x", "b", "y"]}
    with pytest.raises(FieldErrors) as info:
        check_references(spec, data, data)
    assert [e.field for e in info.value.errors] == ["picks[1]", "picks[3]"]
