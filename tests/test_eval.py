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


# ---------------------------------------------------------------------------------------------
# Limits: a payload out of them exits 2 with one line naming its key path, before any engine


def refused(capsys, game: str, function: str, payload: str) -> str:
    """The one error line of a payload ``eval`` refuses (exit 2)."""
    code, out, err = cli(capsys, "eval", game, function, payload)
    assert code == EXIT_BAD_INPUT and out == "", (code, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ('{"players": NaN}', "payload: players: NaN is no number both Lua engines hold exactly"),
        ('{"players": Infinity}', "payload: players: Infinity is no number"),
        ('{"players": -1e400}', "payload: players: -1e400 is no number"),
        ('{"players": 9223372036854775808}', "payload: players: 9223372036854775808 is no"),
        ('{"players": 9007199254740993}', "payload: players: 9007199254740993 is no number"),
        ('{"players": ' + "9" * 5000 + "}", "payload: players: 99999"),
        ('{"players": 2147483648}', "payload: players: 2147483648 is outside"),
        ('{"players": 2.5}', "payload: players: 2.5 is not a whole number"),
        ('{"players": "2"}', 'payload: players: "2" is not a whole number'),
        ('{"x": [[' + "[" * 40_000 + "]" * 40_000 + "]]}", "payload: x[0][0]" + "[0]" * 13),
        ('{"x": "\\u0000"}', "payload: x: U+0000 in a string"),
        ('{"x": "\\ud800"}', "payload: x: U+D800 in a string"),
        ('{"x": [1, null]}', "payload: x[1]: null in a list"),
        ('{"x": "\udced\udca0\udc80"}', "payload: byte 0xED at column 8 is no UTF-8 text"),
        ('{"x": "' + "y" * 1001 + '"}', "payload: x: a string of 1,001 characters"),
        ('{"x": [' + ", ".join(["0"] * 2001) + "]}", "payload: x: 2,001 items, more than 2,000"),
        ("[2]", "payload: must be a JSON object"),
        ('{"players": ', "payload: invalid JSON at column 13"),
    ],
)
def test_a_payload_out_of_its_limits_exits_2_naming_its_key_path(capsys, payload, message):
    """Was: NaN, 2^63 or Infinity made an engine crash (exit 1), deep arrays RecursionError
    (exit 3), 5,000 digits ValueError (exit 3)."""
    err = refused(capsys, "arche-noah", "setup", payload)
    assert err.startswith(f"error: {message}"), err


@pytest.mark.parametrize(
    ("game", "function", "payload", "message"),
    [
        ("ark-and-noah", "build_spots", '{"rows": 3, "cols": Infinity, "dividers": []}',
         "payload: cols: Infinity is no number"),
        ("ark-and-noah", "build_spots", '{"rows": 3, "cols": 100000, "dividers": []}',
         "payload: cols: 100000 is outside 0..32"),
        ("ark-and-noah", "load_pair", '{"pair": {"species": "Dog", "size": [1]}}',
         "payload: pair.size: [1] is not a whole number"),
        ("arche-noah-flood", "check_flood", '{"pieces": [{"animal": "Camel", "at": "x"}]}',
         'payload: pieces[0].at: "x" is not a list'),
        ("arche-noah-flood", "move_cost", '{"map": {"terrain": ["' + "P" * 33 + '"]}}',
         "payload: map.terrain[0]: 33 characters, more than 32"),
        ("arche-noah-flood", "flood_advance", '{"row": -1, "col": 0, "rolls": [5]}',
         "payload: row: -1 is outside 0..2147483647"),
        ("arche-noah", "pick_order", '{"bids": [' + ", ".join(["1"] * 13) + '], "start": 0}',
         "payload: bids: 13 items, more than 12"),
        ("prototype", "deals", '{"players": ["Red", null], "start": 0}',
         "payload: players[1]: null in a list"),
    ],
)  # fmt: skip
def test_a_payload_outside_its_functions_shape_exits_2(capsys, game, function, payload, message):
    """Was: a 100,000-column Ark allocated gigabytes; a list where a number goes made both
    engines crash (exit 1); a null in a list made the Lua deal to a hole."""
    assert refused(capsys, game, function, payload).startswith(f"error: {message}")


def test_an_integral_float_is_the_whole_number_lua_sees(capsys) -> None:
    code, out, _ = cli(capsys, "eval", "arche-noah", "setup", '{"players": 2.0}')
    assert code == EXIT_OK and json.loads(out)["agree"] is True


def test_an_unusable_lua_engine_exits_2(capsys, monkeypatch) -> None:
    monkeypatch.setenv("TTS_BUILDER_LUA", "bogus")
    err = refused(capsys, "arche-noah", "setup", '{"players": 2}')
    assert "TTS_BUILDER_LUA='bogus': expected one of lupa, moonsharp" in err


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah", "prototype"])
def test_every_generated_and_documented_input_is_within_its_shape(game: str) -> None:
    """The limits refuse no input the rules are verified on: the strategies' inputs (40 a
    function) and the documented examples all pass, as the engines get them."""
    from hypothesis import HealthCheck, Phase, given, settings

    from tts_builder.definition import load_definition
    from tts_builder.games import game_module
    from tts_builder.payload import parse, shaped
    from tts_builder.strategies import payload_shape, strategies_for

    definition = load_definition(game, None)
    engine = definition.rules_engine
    config = game_module(engine).rules_config(definition.data)
    found = strategies_for(engine, config, definition.players)
    documented = documented_examples((PROJECT / DOC_PATH).read_text(encoding="utf-8"))
    for function, strategy in found.items():
        shape = payload_shape(engine, function)
        assert shape is not None, f"{game} {function}: no payload shape (PAYLOADS)"

        @settings(max_examples=40, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(strategy)
        def within(inp: dict) -> None:
            shaped(parse(json.dumps(inp)), shape)  # noqa: B023 - called in this iteration

        within()
        shaped(parse(json.dumps(documented[(game, function)])), shape)
