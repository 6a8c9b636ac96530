"""The model-based driver: seeded random games on the emulated (strict) table agree with
rules_ref step by step, illegal actions change nothing and are explained, and planted glue
bugs are caught with a short action sequence."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import build

from tts_builder.play import adapter_factory, has_driver
from tts_builder.play.driver import Choices, play_game, play_many, shrink

#: The glue line that passes the start-player card on (planted bug: it forgets to).
PASS_START = "S.start = Rules.pass_start({players = n_players(), start = S.start}).start"

TABLES = [
    ("arche-noah", None),
    ("arche-noah-flood", None),
    ("arche-noah-flood", "junior"),
    ("arche-noah-flood", "distinct-species"),
]


def maker(game: str, variant: str | None, save: dict[str, Any] | None = None) -> Any:
    built = build(game, variant=variant)
    return adapter_factory(game, save or built.save, built.files, built.definition.data, variant)


def planted(game: str, old: str, new: str) -> Any:
    """A maker for ``game`` whose glue has one line changed (a planted bug)."""
    built = build(game)
    save = copy.deepcopy(built.save)
    assert save["LuaScript"].count(old) == 1
    save["LuaScript"] = save["LuaScript"].replace(old, new)
    return maker(game, None, save)


@pytest.mark.parametrize(("game", "variant"), TABLES)
def test_seeded_random_games_agree_with_rules_ref(game: str, variant: str | None) -> None:
    run = play_many(maker(game, variant), range(3))
    assert run.failure is None, run.failure.describe()
    assert run.games == 3


def test_choices_take_the_given_values_then_seeded_draws() -> None:
    given = Choices(5, [3, 10])
    assert [given.pick(4), given.pick(4)] == [3, 2]
    tail = [given.pick(1000) for _ in range(3)]
    again = Choices(5, [0, 0])
    again.pick(2), again.pick(2)
    assert [again.pick(1000) for _ in range(3)] == tail  # draws depend on seed and position
    assert given.used[:2] == [3, 10]


def test_a_failure_replays_from_its_choices() -> None:
    make = planted("arche-noah", PASS_START, "S.start = S.start")
    failure = play_game(make, 2)
    assert failure is not None
    again = play_game(make, 2, failure.choices)
    assert again is not None and again.actions == failure.actions


def test_a_planted_start_player_bug_is_caught_with_a_short_sequence() -> None:
    make = planted("arche-noah", PASS_START, "S.start = S.start")
    run = play_many(make, range(5))
    assert run.failure is not None and run.games == 1
    failure = run.failure
    assert len(failure.actions) <= 6, failure.describe()  # setup, 2 bids, 2 picks
    assert "start: table 0, rules_ref 1" in failure.problem
    assert "presses Setup" in failure.actions[0]


def test_a_planted_turn_check_bug_is_caught_as_an_illegal_action_that_acted() -> None:
    make = planted("arche-noah", "  if color_of(p) ~= color then\n", "  if false then\n")
    failure = play_game(make, 0)
    assert failure is not None
    short = shrink(make, failure)
    assert len(short.actions) <= len(failure.actions)
    assert any(a.startswith("(illegal)") for a in short.actions), short.describe()
    assert (
        "illegal action changed the table" in short.problem or "was not told why" in short.problem
    )


def test_a_planted_flood_points_bug_is_caught_with_a_short_sequence() -> None:
    make = planted(
        "arche-noah-flood",
        "S.points, S.spent = S.points - cost, S.spent + cost",
        "S.points, S.spent = S.points - cost + 1, S.spent + cost",
    )
    run = play_many(make, range(5))
    assert run.failure is not None
    assert len(run.failure.actions) <= 4, run.failure.describe()  # setup, roll, one move
    assert "points" in run.failure.problem


def test_every_bundled_game_has_a_driver() -> None:
    assert has_driver("arche-noah") and has_driver("arche-noah-flood")
    assert has_driver("ark-and-noah")
