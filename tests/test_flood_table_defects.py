"""Regression tests for issue 10's flood table defects 14 and 15 (seen by playing as people do)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import build
from test_e2e_arche_noah_flood import GAME, Game

from tts_builder.build import GameBuild


def with_hand_zone(save: dict[str, Any], color: str) -> dict[str, Any]:
    """The save plus a hand zone (a seat in TTS) of a colour the game's seats do not list."""
    save = copy.deepcopy(save)
    hand = next(o for o in save["ObjectStates"] if o["Name"] == "HandTrigger")
    extra = {**copy.deepcopy(hand), "GUID": "ab12cd", "FogColor": color}
    extra["Transform"] = {**hand["Transform"], "posX": hand["Transform"]["posX"] + 30}
    save["ObjectStates"].append(extra)
    return save


@pytest.fixture(scope="module")
def base() -> GameBuild:
    return build(GAME)


@pytest.fixture(scope="module")
def junior() -> GameBuild:
    return build(GAME, variant="junior")


def test_14_a_player_at_a_colour_the_save_does_not_list_is_told(base: GameBuild) -> None:
    game = Game(base, 3, seed=1)
    game.table = table = game.new_table(with_hand_zone(game.build.save, "Pink"))
    table.seat(["White", "Red", "Pink"])
    table.click_ui("White", "setup")
    to_pink = [b["message"] for b in table.broadcasts if b["to"] == "Pink"]
    assert any("Pink is not a seat of this game" in m for m in to_pink)
    refusal = [b["message"] for b in table.broadcasts if "needs 3-5" in b["message"]]
    assert refusal and "2 seated" in refusal[0] and "Pink" in refusal[0]
    assert table.ui_active("setup")


def test_15_junior_panel_says_how_many_suns_are_left(junior: GameBuild) -> None:
    game = Game(junior, 3, seed=6, variant="junior")
    game.setup()
    game.table.queue_dice("sun", "sun")
    game.state.apply_action(game.game.faces.index("sun"))
    game.state.apply_action(game.game.faces.index("sun"))
    game.table.click_ui("White", "roll")
    assert "sun: 2 left" in game.table.ui_value("points")
    sun_moves = [a for a in game.state.move_costs() if game.game.decode_action(a)[0] == 1]
    game.act(sun_moves[0], lambda phase: "1")
    assert "sun: 1 left" in game.table.ui_value("points")
