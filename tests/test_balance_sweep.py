"""Rule sweeps (issue 27): ``simulate --sweep`` plays every combination of swept rule values and
player counts with the same seeds, each combination's report is the report ``simulate`` gives
for those rules alone, the ranking follows ``--target``, the result does not depend on
``--jobs``, and bad sweeps are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tts_builder.balance.sweep import (
    TARGETS,
    combinations,
    parse_players,
    parse_sweep,
    ranks,
    with_value,
)
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.errors import BuildError

BONUS = "rules.scoring.set_of_four_bonus"


REPORT = Path("balance_reports", "arche-noah", "balance.json")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_sweep_values_players_and_paths() -> None:
    assert parse_sweep(f"{BONUS}=3..8").values == (3, 4, 5, 6, 7, 8)
    assert parse_sweep(f"{BONUS}=2..10/4").values == (2, 6, 10)
    assert parse_sweep("rules.x=0.5,1,red,true").values == (0.5, 1, "red", True)
    assert parse_sweep(f"{BONUS}=3..8").name == "set_of_four_bonus"
    assert parse_sweep("rules.chips[0].purple=9").name == "purple"
    assert parse_players("4") == (4,) and parse_players("3,5") == (3, 5)
    assert parse_players("2..4") == (2, 3, 4)
    data = {"rules": {"chips": [{"purple": 12}, {"purple": 10}], "bonus": 3}}
    swept = with_value(data, "rules.chips[1].purple", 9)
    assert swept["rules"]["chips"] == [{"purple": 12}, {"purple": 9}]
    assert data["rules"]["chips"][1] == {"purple": 10}  # the definition itself is untouched
    combos = combinations([parse_sweep("a=1,2"), parse_sweep("b=x,y")], (3, 4))
    assert [c.label([parse_sweep("a=1,2"), parse_sweep("b=x,y")]) for c in combos[:3]] == [
        "a=1 b=x players=3", "a=1 b=x players=4", "a=1 b=y players=3",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: parse_sweep(BONUS), "expected PATH=A..B"),
        (lambda: parse_sweep(f"{BONUS}=8..3"), "expected A <= B"),
        (lambda: parse_sweep(f"{BONUS}=1..1000"), "more than 100 values"),
        (lambda: parse_sweep(f"{BONUS}=3,3"), "a value is given twice"),
        (lambda: parse_sweep(f"{BONUS}=[1, 2]"), "is not a number, word or true/false"),
        (lambda: parse_players("three"), "expected N, N,M,... or A..B"),
        (lambda: with_value({"rules": {}}, "rules.nothing", 1), "the definition has no"),
        (lambda: with_value({"rules": [1]}, "rules", 1), "holds a list or mapping"),
        (lambda: with_value({"a": [1]}, "a[x]", 1), "is not a key or key[index]"),
        (lambda: combinations([parse_sweep("a=1..100"), parse_sweep("b=1..100")], (2,)),
         "more than 2000"),
    ],
)  # fmt: skip
def test_a_bad_sweep_is_a_build_error(make, message: str) -> None:
    with pytest.raises(BuildError, match=message.replace("[", r"\[").replace(".", r"\.")):
        make()


def test_ranks_share_equal_distances_and_skip_unknown() -> None:
    class Fake:
        def __init__(self, margin):
            self.margin = None if margin is None else type("M", (), {"mean": margin})()

    reports = [Fake(2.0), Fake(1.0), Fake(None), Fake(2.0)]
    assert ranks(reports, TARGETS["margin"]) == [2, 1, None, 2]


def test_each_combination_is_simulate_of_those_rules_and_jobs_change_nothing(
    capsys, tmp_path: Path
) -> None:
    """The bundled bonus (3) with 3 players is exactly ``simulate --players 3``; two --jobs
    give the same bytes; the ranking follows the target."""
    args = ["-q", "simulate", "arche-noah", "--games", "6", "--sweep", f"{BONUS}=3,7"]
    code, out, err = cli(capsys, *args, "--players", "3,4", "--out", str(tmp_path / "one"))
    assert code == EXIT_OK, err
    assert "4 combinations, 6 games each" in out and "fairest by first-player" in out
    swept = json.loads(
        (tmp_path / "one" / "balance_reports" / "arche-noah" / "balance.json").read_text()
    )
    assert [(row["values"][BONUS], row["players"]) for row in swept["combinations"]] == [
        (3, 3), (3, 4), (7, 3), (7, 4),
    ]  # fmt: skip
    code, _, err = cli(capsys, "-q", "simulate", "arche-noah", "--games", "6",
                       "--players", "3", "--out", str(tmp_path / "plain"))  # fmt: skip
    assert code == EXIT_OK, err
    plain = json.loads(
        (tmp_path / "plain" / "balance_reports" / "arche-noah" / "balance.json").read_text()
    )
    alone = swept["combinations"][0]["report"]
    assert {k: v for k, v in alone.items() if k != "rules"} == {
        k: v for k, v in plain.items() if k != "rules"
    }
    rows = swept["combinations"]
    order = sorted(rows, key=lambda row: row["distance"])
    assert order[0]["rank"] == 1 and all(
        a["rank"] <= b["rank"] for a, b in zip(order, order[1:], strict=False)
    )
    for row in rows:
        rate = row["report"]["seats"][0]["win_rate"]
        assert row["distance"] == pytest.approx(abs(rate - 1 / row["players"]), abs=1e-4)
    code, _, err = cli(capsys, *args, "--players", "3,4", "--jobs", "2",
                       "--out", str(tmp_path / "two"))  # fmt: skip
    assert code == EXIT_OK, err
    for name in ("balance.json", "balance.png"):
        one = (tmp_path / "one" / "balance_reports" / "arche-noah" / name).read_bytes()
        assert (tmp_path / "two" / "balance_reports" / "arche-noah" / name).read_bytes() == one


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sweep", "rules.no_such_rule=1..3"], "the definition has no rules.no_such_rule"),
        (["--sweep", f"{BONUS}=lots,3"], "--sweep set_of_four_bonus=lots players=4: "),
        (["--sweep", f"{BONUS}=3..4", "--against", "HEAD"], "--against with --sweep"),
        (["--sweep", f"{BONUS}=3..4", "--target", "luck"], "--target luck: expected one of"),
        (["--sweep", f"{BONUS}=3..4", "--players", "1,3"], "--players 1: arche-noah takes"),
        (["--sweep", f"{BONUS}=3..4", "--sweep", f"{BONUS}=5"], "a path is swept twice"),
    ],
)
def test_bad_sweeps_are_one_line_exit_2(capsys, tmp_path: Path, args, message) -> None:
    code, _, err = cli(
        capsys, "simulate", "arche-noah", "--games", "2", "--out", str(tmp_path), *args
    )
    assert code == EXIT_BAD_INPUT and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "balance_reports").exists()


def test_every_target_is_named_in_the_help(capsys) -> None:
    code, out, _ = cli(capsys, "simulate", "--help")
    assert code == EXIT_OK
    assert all(name in " ".join(out.split()) for name in TARGETS)
