"""`tts-builder eval` for a designer: refusals exit 2 with each engine's reason, --variant
applies the variant's rules, and docs/eval.md is exactly what `eval-doc` generates."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from conftest import seeded

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_MISMATCH, EXIT_OK, run
from tts_builder.eval_doc import DOC_PATH, documented_examples, eval_doc

PROJECT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def eval_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A current folder whose ``dist/.cache`` (where ``eval`` builds) holds the run's renders."""
    folder = tmp_path_factory.mktemp("eval")
    seeded(folder / "dist")
    return folder


@pytest.fixture(autouse=True)
def _in_eval_folder(eval_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs ``eval`` there: it draws no art (it needs the game's Lua only), and a
    fresh clone's first run writes nothing into the checkout's ``dist``."""
    monkeypatch.chdir(eval_folder)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(["-q", *args])
    out, err = capsys.readouterr()
    return code, out, err


@cache
def generated() -> str:
    """The document regenerated around the committed one's own examples (which inputs a seed
    draws depends on the Hypothesis version; everything else must be what the code says)."""
    committed = (PROJECT / DOC_PATH).read_text(encoding="utf-8")
    return eval_doc(examples=documented_examples(committed))


def test_the_committed_doc_is_the_generated_one() -> None:
    committed = (PROJECT / DOC_PATH).read_text(encoding="utf-8")
    assert committed == generated(), "docs/eval.md is stale: run `tts-builder eval-doc --write`"


def test_the_doc_has_an_example_for_every_rule_function() -> None:
    from rules_ref import arche_noah, arche_noah_flood, ark_and_noah

    text = generated()
    for game, module in (("arche-noah", arche_noah), ("arche-noah-flood", arche_noah_flood),
                         ("ark-and-noah", ark_and_noah)):  # fmt: skip
        for name in module.FUNCTIONS:
            assert f"tts-builder eval {game} {name} '" in text, (game, name)


def test_a_malformed_payload_exits_2_with_the_reason_of_each_engine(capsys) -> None:
    code, out, err = cli(capsys, "eval", "arche-noah-flood", "dice_effect", '{"values": ["7"]}')
    assert code == EXIT_BAD_INPUT and out == ""
    assert err.count("\n") == 1 and "refused the payload" in err
    assert "lua: rule_error:not_a_face: '7' is not a face" in err
    assert "python: rule_error:not_a_face: '7' is not a face" in err


def test_a_payload_that_is_no_object_exits_2(capsys) -> None:
    code, _, err = cli(capsys, "eval", "arche-noah", "setup", "[2]")
    assert code == EXIT_BAD_INPUT and "must be a JSON object" in err


def test_variant_applies_the_variants_rules(capsys) -> None:
    payload = '{"rounds": 8, "hull_full": true}'
    code, out, _ = cli(capsys, "eval", "ark-and-noah", "game_end", payload)
    assert code == EXIT_OK and json.loads(out)["lua"]["over"] is False
    code, out, _ = cli(capsys, "eval", "ark-and-noah", "game_end", payload, "--variant", "family")
    assert code == EXIT_OK and json.loads(out)["lua"] == {"over": True, "deluge": False}


def test_the_flood_junior_variant_is_chosen_by_the_payload_key(capsys) -> None:
    sun = '{"values": ["sun", "water"]}'
    code, _, err = cli(capsys, "eval", "arche-noah-flood", "dice_effect", sun)
    assert code == EXIT_BAD_INPUT and "not_a_face" in err  # the standard dice have no sun
    code, out, _ = cli(capsys, "eval", "arche-noah-flood", "dice_effect", sun, "--variant",
                       "junior", "--engine", "lua")  # fmt: skip
    assert code == EXIT_OK and json.loads(out) == {"points": 0, "sun": 1, "water": 1}


def test_an_unknown_variant_exits_2(capsys) -> None:
    code, _, err = cli(capsys, "eval", "arche-noah", "setup", '{"players": 3}', "--variant", "x")
    assert code == EXIT_BAD_INPUT and "has no variant 'x'" in err


def test_a_crash_is_a_failure_not_an_agreement(capsys, monkeypatch) -> None:
    from rules_ref import arche_noah as ref

    def broken(config: dict, inp: dict) -> dict:
        return inp["nothing"]

    monkeypatch.setitem(ref.FUNCTIONS, "setup", broken)
    code, out, _ = cli(capsys, "eval", "arche-noah", "setup", '{"players": 3}')
    result = json.loads(out)
    assert code == EXIT_MISMATCH and result["agree"] is False
    assert result["python"] == {"crash": "KeyError: 'nothing'"}
