"""Balance simulation: bots play legally, seeds replay, greedy beats random, known tweaks move
the numbers the known way, and the ``simulate`` command's outputs and errors."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import yaml

from tts_builder.balance.bots import GreedyBot, LookaheadBot, RandomBot, sample_chance
from tts_builder.balance.compare import compare
from tts_builder.balance.plot import render_png
from tts_builder.balance.report import render_json, render_text
from tts_builder.balance.simulate import Setup, simulate
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.games import game_module

GAMES = {"arche-noah": 4, "arche-noah-flood": 4, "ark-and-noah": 3}


def config(game: str, variant: str | None = None) -> dict:
    """The rule config of the bundled game.yaml, exactly as the build derives it."""
    definition = load_definition(game)
    return copy.deepcopy(game_module(game).rules_config(definition.data, variant))


def setup(game: str, bots: tuple[str, ...], rules: dict | None = None, **kw: object) -> Setup:
    return Setup(game, rules or config(game), kw.pop("players", GAMES[game]), None, bots, **kw)


REPORT = Path("balance_reports", "arche-noah", "balance.json")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- bots -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("arche-noah", None),
        ("arche-noah-flood", None),
        ("arche-noah-flood", "junior"),
        ("arche-noah-flood", "distinct-species"),
        ("ark-and-noah", None),
        ("ark-and-noah", "family"),
    ],
)
def test_bots_only_choose_legal_actions(game: str, variant: str | None) -> None:
    balance = Setup(game, config(game, variant), GAMES[game], variant, ("greedy",)).balance()
    rng = random.Random(7)
    bots = [RandomBot(), GreedyBot(), LookaheadBot(playouts=1, width=2, horizon=12)]
    looked = decisions = 0
    state = balance.new_state()
    for _ in range(100_000):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        legal = set(state.legal_actions())
        choices = [bots[0].choose(balance, state, rng)]
        if decisions % 3 == 0:  # greedy every third decision keeps the Ark games quick
            choices.append(bots[1].choose(balance, state, rng))
        if looked < 3 and len(legal) > 1:  # a lookahead move plays on: a few suffice
            choices.append(bots[2].choose(balance, state, rng))
            looked += 1
        assert set(choices) <= legal, (game, decisions, choices)
        state.apply_action(choices[-1] if decisions % 2 else choices[0])
        decisions += 1
    assert state.is_terminal() and looked == 3


# -- reproducibility --------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_report_bytes_in_any_number_of_processes() -> None:
    one = simulate(setup("arche-noah", ("greedy", "random"), seed=5), 24, jobs=1)
    two = simulate(setup("arche-noah", ("greedy", "random"), seed=5), 24, jobs=2)
    other = simulate(setup("arche-noah", ("greedy", "random"), seed=6), 24, jobs=1)
    source = "assets/arche-noah/game.yaml"
    assert render_json(one, source) == render_json(two, source)
    assert render_text(one, source) == render_text(two, source)
    assert render_json(one, source) != render_json(other, source)
    assert render_png(one) == render_png(two)


# -- greedy beats random ----------------------------------------------------------------------


def test_greedy_beats_random_at_arche_noah() -> None:
    report = simulate(setup("arche-noah", ("greedy", "random"), seed=1), 40)
    greedy, random_ = report.seats[0::2], report.seats[1::2]
    assert sum(s.win_rate for s in greedy) >= 0.85
    assert min(s.score.mean for s in greedy) > max(s.score.mean for s in random_) + 10


def test_greedy_beats_random_at_ark_and_noah() -> None:
    report = simulate(setup("ark-and-noah", ("greedy", "random", "random"), seed=1), 4)
    assert report.seats[0].wins >= 3
    assert report.seats[0].score.mean > max(s.score.mean for s in report.seats[1:]) + 30


def test_greedy_tables_beat_the_flood_random_tables_do_not() -> None:
    # a semi-cooperative race: the players' common opponent is the flood
    greedy = simulate(setup("arche-noah-flood", ("greedy",), seed=1), 20)
    random_ = simulate(setup("arche-noah-flood", ("random",), seed=1), 20)
    assert greedy.no_winner <= 0.5 and random_.no_winner >= 0.95
    assert greedy.extras["animals aboard per game"] > random_.extras["animals aboard per game"] + 5


# -- tweaks with a known direction ------------------------------------------------------------


def test_a_larger_set_of_four_bonus_raises_its_share_of_the_points() -> None:
    bigger = config("arche-noah")
    bigger["scoring"]["set_of_four_bonus"] = 8
    base = simulate(setup("arche-noah", ("greedy",), seed=2), 40)
    tweak = simulate(setup("arche-noah", ("greedy",), bigger, seed=2), 40)
    share = "share of points from set-of-four bonus"
    assert tweak.ratios[share] > base.ratios[share] + 0.05
    rows = {d.name: d for d in compare(tweak, base)}
    points = rows["points per seat from set-of-four bonus"]
    assert points.diff > 0 and points.p is not None and points.p < 0.01


def test_a_cheaper_river_crossing_shortens_the_flood_race() -> None:
    still = config("arche-noah-flood")
    still["flood"]["rolls_per_starting_player"] = 0  # the race alone: nobody drowns
    cheaper = copy.deepcopy(still)
    for costs in cheaper["costs"].values():
        costs["river"] = 0
    base = simulate(setup("arche-noah-flood", ("greedy",), still, seed=3), 30)
    tweak = simulate(setup("arche-noah-flood", ("greedy",), cheaper, seed=3), 30)
    assert base.no_winner == tweak.no_winner == 0
    assert tweak.extras["turns per game"] < base.extras["turns per game"] - 0.5
    assert tweak.rounds.mean < base.rounds.mean


# -- the command ------------------------------------------------------------------------------


def test_simulate_writes_the_report_the_json_and_the_plot(capsys, tmp_path: Path) -> None:
    code, out, err = cli(
        capsys, "simulate", "arche-noah", "--games", "6", "--bots", "greedy,random",
        "--players", "3", "--out", str(tmp_path),
    )  # fmt: skip
    assert code == EXIT_OK, err
    assert "3 players, 6 games" in out and "win rate" in out and "6/6 games" in err
    data = json.loads((tmp_path / "balance_reports" / "arche-noah" / "balance.json").read_text())
    assert data["games"] == 6 and data["bots"] == ["greedy", "random", "greedy"]
    assert len(data["seats"]) == 3 and "share of points from set-of-four bonus" in data["ratios"]
    png = (tmp_path / "balance_reports" / "arche-noah" / "balance.png").read_bytes()
    assert png.startswith(b"\x89PNG")


def test_simulate_against_a_tweaked_yaml_and_a_git_revision(capsys, tmp_path: Path) -> None:
    data = yaml.safe_load((ASSETS_ROOT / "arche-noah" / "game.yaml").read_text())
    data["rules"]["scoring"]["set_of_four_bonus"] = 9
    tweak = tmp_path / "tweak" / "game.yaml"
    tweak.parent.mkdir()
    tweak.write_text(yaml.safe_dump(data))
    code, out, err = cli(
        capsys, "-q", "simulate", "arche-noah", "--games", "8", "--against", str(tweak),
        "--out", str(tmp_path / "dist"),
    )  # fmt: skip
    assert code == EXIT_OK, err
    assert "difference, same seeds" in out and "points per seat from set-of-four bonus" in out
    saved = json.loads(
        (tmp_path / "dist" / "balance_reports" / "arche-noah" / "balance.json").read_text()
    )
    row = next(d for d in saved["differences"] if d["name"].endswith("set-of-four bonus"))
    assert row["diff"] < 0  # the bundled rules (bonus 3) minus the tweak (bonus 9)
    code, out, err = cli(
        capsys, "-q", "simulate", "arche-noah", "--games", "2", "--against", "HEAD",
        "--out", str(tmp_path / "dist"),
    )  # fmt: skip
    assert code == EXIT_OK, err
    assert "HEAD:assets/arche-noah/game.yaml" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "greedy,clever"], "--bots: unknown bot 'clever'"),
        (["--players", "6"], "--players 6: arche-noah takes 2-5 players"),
        (["--players", "1"], "--players 1: arche-noah takes 2-5 players"),
        (["--against", "no-such-revision-or-file"], "--against no-such-revision-or-file: no "),
        (["--variant", "giant"], "--variant 'giant' unknown"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, tmp_path: Path, args, message) -> None:
    code, out, err = cli(
        capsys, "simulate", "arche-noah", "--games", "2", "--out", str(tmp_path), *args
    )
    assert code == EXIT_BAD_INPUT and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "balance_reports").exists()


def test_against_a_broken_yaml_names_file_line_and_field(capsys, tmp_path: Path) -> None:
    text = (ASSETS_ROOT / "arche-noah" / "game.yaml").read_text()
    broken = tmp_path / "game.yaml"
    broken.write_text(text.replace("set_of_four_bonus: 3", "set_of_four_bonus: lots"))
    code, _, err = cli(
        capsys, "simulate", "arche-noah", "--games", "2", "--against", str(broken),
        "--out", str(tmp_path),
    )  # fmt: skip
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1
    line = text.splitlines().index("    set_of_four_bonus: 3") + 1
    assert f"game.yaml:{line}:" in err and "rules.scoring.set_of_four_bonus" in err
    broken.write_text("rules: [unclosed\n")
    code, _, err = cli(capsys, "simulate", "arche-noah", "--against", str(broken))
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1 and "game.yaml:" in err


def test_statistics_of_the_report() -> None:
    from tts_builder.balance import stats

    low, high = stats.wilson(5, 10)
    assert round(low, 3) == 0.237 and round(high, 3) == 0.763
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == 1.0
    assert stats.proportions_p(50, 100, 50, 100) == 1.0
    assert stats.proportions_p(70, 100, 40, 100) < 0.001
    assert stats.welch_p([1.0, 2.0, 3.0] * 20, [1.0, 2.0, 3.0] * 20) == 1.0
    assert stats.welch_p([1.0, 2.0, 3.0] * 20, [2.0, 3.0, 4.0] * 20) < 0.001
    summary = stats.summarize([float(v) for v in range(11)])
    assert (summary.mean, summary.median, summary.p10, summary.p90) == (5.0, 5.0, 1.0, 9.0)


def test_a_game_that_stalls_is_counted_not_waited_for(monkeypatch) -> None:
    from tts_builder.balance import simulate as sim

    monkeypatch.setattr(sim, "MAX_DECISIONS", 10)
    report = simulate(setup("arche-noah", ("greedy",), seed=1), 3)
    assert all(r.decisions == 10 and not r.winners for r in report.records)
    assert report.extras == {sim.STALLED: 1.0} and report.no_winner == 1.0


def test_a_copy_is_simulated_against_the_game_it_was_copied_from(capsys, tmp_path: Path) -> None:
    """``new my-ark --from arche-noah`` and then ``simulate my-ark --against`` the bundled
    game.yaml (issue 25): another id is fine, another engine is refused in one line."""
    assert cli(capsys, "--assets", str(tmp_path), "new", "my-ark", "--from", "arche-noah")[0] == 0
    bundled = str(ASSETS_ROOT / "arche-noah" / "game.yaml")
    code, out, err = cli(
        capsys, "-q", "--assets", str(tmp_path), "simulate", "my-ark", "--games", "2",
        "--against", bundled, "--out", str(tmp_path / "dist"),
    )  # fmt: skip
    assert code == EXIT_OK, err
    assert "difference, same seeds" in out
    other = str(ASSETS_ROOT / "prototype")
    code, out, err = cli(
        capsys, "--assets", str(tmp_path), "simulate", "my-ark", "--games", "2",
        "--against", other, "--out", str(tmp_path / "dist"),
    )  # fmt: skip
    assert code == EXIT_BAD_INPUT and err.count("\n") == 1
    assert "its rules are" in err and "nothing to compare" in err


def test_a_build_keeps_the_balance_report(capsys, tmp_path: Path) -> None:
    """Reports live outside the folders ``build`` replaces (issue 27: a build deleted them)."""
    out = str(tmp_path)
    assert cli(capsys, "-q", "simulate", "arche-noah", "--games", "2", "--out", out)[0] == EXIT_OK
    assert cli(capsys, "-q", "build", "arche-noah", "--out", out)[0] == EXIT_OK
    assert (tmp_path / "arche-noah" / "arche-noah.json").is_file()
    assert json.loads((tmp_path / REPORT).read_text())["games"] == 2
    assert (tmp_path / REPORT).with_suffix(".png").is_file()
