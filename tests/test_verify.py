"""verify's contract both ways and its error kind: every Rules function has a twin and a
strategy, refusals agree only on the same code, any other exception is a failure."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import strategies as st

from rules_ref import arche_noah as ref
from rules_ref.errors import RuleError
from tts_builder.definition import load_definition
from tts_builder.games import game_module
from tts_builder.strategies import strategies_for
from tts_builder.verify import (
    Engines,
    agree,
    check_function,
    crashed,
    lua_error_outcome,
    python_outcome,
    refused,
)

DEFINITION = load_definition("arche-noah")
CONFIG = game_module("arche-noah").rules_config(DEFINITION.data)
STRATEGIES = strategies_for("arche-noah", CONFIG, DEFINITION.players)
Make = Callable[..., Engines]


@pytest.fixture
def engines(arche_noah_build: Any) -> Make:
    """Engines over the shipped arche-noah Global script; ``extra`` functions join its Rules."""

    def make(**extra: str) -> Engines:
        made = Engines("arche-noah", CONFIG, arche_noah_build.save["LuaScript"])
        for name, lua_function in extra.items():
            made.env["Rules"][name] = made.sandbox.runtime.eval(lua_function)
        return made

    return make


def test_the_shipped_table_has_no_gaps(engines: Make) -> None:
    assert engines().contract_gaps(STRATEGIES) == []


def test_a_rules_function_without_twin_or_strategy_is_named(engines: Make) -> None:
    gaps = engines(seat_order="function(inp) return {} end").contract_gaps(STRATEGIES)
    assert gaps == [
        "Rules.seat_order has no rules_ref twin (add it to rules_ref/arche_noah.py FUNCTIONS)",
        "Rules.seat_order has no input strategy "
        "(add it to tts_builder/games/arche_noah/strategies.py)",
    ]


def test_a_twin_without_lua_and_a_stray_strategy_are_named(engines: Make) -> None:
    e = engines()
    e.python_functions = {**e.python_functions, "tiebreak": ref.winners}
    gaps = e.contract_gaps({**STRATEGIES, "nothing": st.just({})})
    assert "rules_ref/arche_noah.py FUNCTIONS['tiebreak'] has no Lua Rules.tiebreak" in gaps
    assert any("strategy for 'nothing', which is no rule function" in g for g in gaps)


def test_lua_refusal_codes_survive_any_chunk_position() -> None:
    assert lua_error_outcome("Global:12: rule_error:no_entry: no chips entry") == refused(
        "no_entry"
    )
    assert lua_error_outcome("chunk_3:(7,2-30): rule_error:bad_hex: x") == refused("bad_hex")
    assert lua_error_outcome("Global:9: attempt to index a nil value") == crashed(
        "Global:9: attempt to index a nil value"
    )


def test_python_refusal_is_a_rule_error_anything_else_a_crash() -> None:
    def refuse(config: Any, inp: Any) -> Any:
        raise RuleError("no_entry", "none")

    def fail(config: Any, inp: Any) -> Any:
        return inp["missing"]

    assert python_outcome(refuse, {}, {}) == refused("no_entry")
    assert python_outcome(fail, {}, {}) == crashed("KeyError: 'missing'")


@pytest.mark.parametrize(
    ("lua", "python", "same"),
    [
        (refused("a"), refused("a"), True),
        (refused("a"), refused("b"), False),
        (refused("a"), {"x": 1}, False),
        (crashed("boom"), crashed("boom"), False),  # two failures are never an agreement
        (crashed("boom"), refused("a"), False),
        ({"x": 1}, {"x": 1}, True),
    ],
)
def test_agreement(lua: Any, python: Any, same: bool) -> None:
    assert agree(lua, python) is same


def test_both_engines_crashing_is_a_mismatch(engines: Make) -> None:
    e = engines(offer_size="function(inp) return inp.x.y end")

    def broken(config: Any, inp: Any) -> Any:
        return inp["no_such_key"]

    e.python_functions = {**e.python_functions, "offer_size": broken}
    outcome = check_function(e, "offer_size", STRATEGIES["offer_size"], 20, 0)
    assert outcome.mismatch is not None
    assert "Lua and rules_ref raised an error that is no rule_error" in outcome.mismatch.describe()


def test_refusals_with_the_same_code_agree_in_check_function(engines: Make) -> None:
    e = engines()
    bad_start = st.just({"bids": [1, 2], "start": 5})
    outcome = check_function(e, "pick_order", bad_start, 5, 0)
    assert outcome.mismatch is None
    assert e.lua("pick_order", {"bids": [1, 2], "start": 5}) == refused("bad_start_seat")


def test_malformed_payloads_drop_a_key_or_hold_a_wrong_type() -> None:
    from hypothesis import find, settings

    from tts_builder.strategies import with_malformed

    quiet = settings(database=None, max_examples=500)
    assert find(with_malformed(st.just({"a": 1, "b": 2})), lambda x: "a" not in x,
                settings=quiet) == {"b": 2}  # fmt: skip
    assert find(with_malformed(st.just({"a": 1})), lambda x: x.get("a") == "x",
                settings=quiet) == {"a": "x"}  # fmt: skip
    assert find(with_malformed(st.just({"a": 1})), lambda x: True, settings=quiet) == {"a": 1}


def test_malformed_payloads_are_refused_alike_by_both_engines(engines: Make) -> None:
    e = engines()
    generators = strategies_for("arche-noah", CONFIG, DEFINITION.players, malformed=True)
    for name in e.names():
        outcome = check_function(e, name, generators[name], 60, 3)
        assert outcome.mismatch is None, outcome.mismatch.describe()


def test_verify_variant_checks_that_variant_only(capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder.cli import EXIT_OK, run

    code = run(["verify", "arche-noah-flood", "--variant", "junior", "--examples", "3"])
    out, err = capsys.readouterr()
    assert code == EXIT_OK, out + err
    assert re.search(r"arche-noah-flood-junior: (\d+) of \1 functions cross-checked", out)
    assert "arche-noah-flood:" not in out + err and "distinct-species" not in out + err


def test_verify_unknown_variant_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder.cli import EXIT_BAD_INPUT, run

    code = run(["verify", "arche-noah-flood", "--variant", "nope", "--examples", "3"])
    err = capsys.readouterr().err.strip()
    assert code == EXIT_BAD_INPUT
    assert err == ("error: --variant: arche-noah-flood has no variant 'nope' "
                   "(variants: junior, distinct-species)")  # fmt: skip
