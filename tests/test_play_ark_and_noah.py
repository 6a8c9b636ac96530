"""The model-based driver on Ark & Noah's tables: seeded random games on the strict emulated table
agree with rules_ref step by step (illegal actions injected between steps change nothing and are
explained), for the standard game and the family variant, and a planted glue bug (Trading's
state not reset for the next Trading step) is caught with a short action sequence."""

from __future__ import annotations

import copy
import shutil
from typing import Any

import pytest
from conftest import SESSION_CACHE

from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT
from tts_builder.play import adapter_factory, has_driver
from tts_builder.play.driver import Choices, _try_illegal, play_many

RESET = 'S.trade = {bonus = false, choice = "", exchanged = false}'


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, Any]:
    """Builds whose game may end after one round (a designer's ``end.min_rounds: 1``): complete
    games in a few seconds."""
    root = tmp_path_factory.mktemp("assets")
    shutil.copytree(ASSETS_ROOT / "ark-and-noah", root / "ark-and-noah")
    path = root / "ark-and-noah" / "game.yaml"
    text = path.read_text()
    text = text.replace("min_rounds: 10", "min_rounds: 1")
    text = text.replace("min_rounds: 8,", "min_rounds: 1,")
    path.write_text(text)
    return {
        v: build_game("ark-and-noah", BuildOptions(variant=v), SESSION_CACHE, assets_root=root)
        for v in (None, "family")
    }


def maker(built: Any, save: dict[str, Any] | None = None) -> Any:
    return adapter_factory("ark-and-noah", save or built.save, built.files,
                           built.definition.data, built.variant)  # fmt: skip


def test_ark_and_noah_has_a_driver() -> None:
    assert has_driver("ark-and-noah")


@pytest.mark.parametrize("variant", [None, "family"])
def test_seeded_random_games_agree_with_rules_ref(
    short: dict[str | None, Any], variant: str | None
) -> None:
    run = play_many(maker(short[variant]), range(1))
    assert run.failure is None, run.failure.describe()
    assert run.games == 1


def test_a_planted_trading_reset_bug_is_caught_with_a_short_sequence(
    short: dict[str | None, Any],
) -> None:
    built = short[None]
    save = copy.deepcopy(built.save)
    assert save["LuaScript"].count(RESET) == 1
    save["LuaScript"] = save["LuaScript"].replace(RESET, "S.trade = S.trade or " + RESET[10:])
    run = play_many(maker(built, save), range(1), budget=4)
    assert run.failure is not None and run.games == 1
    failure = run.failure
    # setup, two rounds' placements and the steps up to the second Trading bonus
    assert len(failure.actions) <= 24, failure.describe()
    assert "'trade_" in failure.problem, failure.describe()  # the bonus is hidden: "taken"


#: The glue's check that a drawn animal goes into the picker's own area (planted bug: none).
OWN_AREA = "if ok and board.owner_of(obj) ~= color then"


def until_task(adapter: Any, choices: Choices, name: str, steps: int = 400) -> None:
    """Play legal moves (each the first one offered) until the reference waits on ``name``."""
    for _ in range(steps):
        if adapter.state.queue[0][0] == name:
            return
        adapter.moves(choices)[0].perform()
    raise AssertionError(f"no {name} task within {steps} steps")


@pytest.mark.parametrize("planted", [False, True])
def test_a_wrong_drop_is_refused_explained_and_a_planted_gap_caught(
    short: dict[str | None, Any], planted: bool
) -> None:
    """The picker drags a drawn animal into another player's area: the table refuses it and
    tells the picker; with the glue's own-area check removed the driver reports it."""
    built = short[None]
    save = copy.deepcopy(built.save)
    if planted:
        assert save["LuaScript"].count(OWN_AREA) == 1
        save["LuaScript"] = save["LuaScript"].replace(OWN_AREA, "if false then")
    adapter = maker(built, save)(3)
    choices = Choices(3, [0])  # two players
    adapter.start(choices)
    until_task(adapter, choices, "keep")
    attempt = next(a for a in adapter.attempts(choices) if "drags a drawn animal into" in a.text)
    problem = _try_illegal(adapter, attempt, adapter.table_view())
    if planted:
        assert problem is not None and "changed the table" in problem, problem
    else:
        assert problem is None
        told = adapter.told(0)[-1]
        assert told == (attempt.color, "Drag the drawn animal into your own area to take it.")


def test_dragging_another_players_animal_is_injected_refused_and_explained(
    short: dict[str | None, Any],
) -> None:
    """Issue 22, item 7: the driver drags another player's animal into the first player's
    area; the table puts it back and tells that player (it changed owners silently before)."""
    built = short[None]
    adapter = maker(built, copy.deepcopy(built.save))(3)
    choices = Choices(3, [0])  # two players
    adapter.start(choices)
    attempt = next(a for a in adapter.attempts(choices) if "animal into their own" in a.text)
    assert _try_illegal(adapter, attempt, adapter.table_view()) is None
    assert adapter.told(0)[-1][0] == attempt.color
