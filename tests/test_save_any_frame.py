"""A save at any frame (LUA.md §9): TTS calls onSave for a rewind checkpoint about every 10 s and
for a player's save, also in the middle of a scripted step that spans frames. A save taken at
any frame of a step, loaded on a fresh table and settled, is the game after the step
(docs/decisions.md, "A save at any frame"): these load a save of every frame of the steps
measured to break, and compare the table with rules_ref as the play driver does."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import build

from tts_builder.emulator import EmulatedTable
from tts_builder.play import adapter_factory
from tts_builder.play.driver import Choices

SAVE = {"LuaScript": "function onSave() n = (n or 0) + 1; return tostring(n) end\n"}


def adapter(game: str, seed: int = 0) -> Any:
    built = build(game)
    return adapter_factory(game, built.save, built.files, built.definition.data)(seed)


def loaded_every_frame(game: Any, before: int) -> list[str]:
    """Every save taken after frame ``before`` loaded on a fresh table: what differs from
    rules_ref after each (empty when all agree)."""
    saves = game.saves_since(before)
    assert saves, "no save was taken during the step"
    reference = game.reference_view()
    problems = []
    for save in saves:
        game.load_save(save.save, save)
        view = game.table_view()
        diff = {
            k: (view.get(k), reference.get(k)) for k in reference if view.get(k) != reference[k]
        }
        if diff:
            problems.append(f"frame {save.frame - before}: {diff}")
    return problems


def test_a_save_during_arche_noahs_next_playthrough_loads_as_the_next_playthrough() -> None:
    game = adapter("arche-noah")
    choices = Choices(0, [0] * 400)  # the fewest players, every bid 0: a short play-through
    game.table_options = {"save_every": None}
    game.start(choices)
    moves = game.moves(choices)
    while "Next play-through" not in moves[0].text:
        moves[0].perform()
        moves = game.moves(choices)
    game.table.schedule_saves(1)
    game.table.checkpoints = type(game.table.checkpoints)(maxlen=None)
    before = game.frame()
    moves[0].perform()
    assert game.table_view() == game.reference_view()
    assert loaded_every_frame(game, before) == []


def test_a_save_during_ark_and_noahs_setup_deal_loads_as_the_game_after_setup() -> None:
    game = adapter("ark-and-noah")
    game.table_options = {"save_every": 1, "keep_saves": None}
    game.start(Choices(0, [0, 0]))
    assert loaded_every_frame(game, 0) == []


def test_the_table_saves_on_its_schedule_while_the_clock_runs() -> None:
    table = EmulatedTable(SAVE, save_every=10, keep_saves=3)
    table.load()
    table.advance(10)
    frames = [c.frame for c in table.checkpoints]
    assert len(frames) == 3 and frames == sorted(frames) and frames[-1] <= 600
    assert [c.save["LuaScriptState"] for c in table.checkpoints] == [
        str(int(table.checkpoints[0].save["LuaScriptState"]) + i) for i in range(3)
    ]  # each save called onSave once
    assert {c.kind for c in table.checkpoints} <= {"rewind", "player"}


def test_rewind_stores_are_held_off_until_allowed_but_a_players_save_is_not() -> None:
    script = SAVE["LuaScript"] + (
        "function hold() storeRewindState(function(ok, stored) done = {ok, stored} end, true) end\n"
        "function allow() allowRewindStore() end\n"
        "function result() return done end\n"
    )
    table = EmulatedTable({"LuaScript": script}, save_every=5, keep_saves=None)
    table.load()
    table.call_global("hold")
    table.advance(10)
    kinds = [c.kind for c in table.checkpoints]
    assert kinds[0] == "stored" and table.call_global("result") == [True, True]
    assert "rewind" not in kinds and "player" in kinds  # held off for 60 s; players still save
    table.call_global("allow")
    table.checkpoints.clear()
    table.advance(2)
    assert "rewind" in [c.kind for c in table.checkpoints]


@pytest.mark.parametrize("every", [None, 600])
def test_a_table_without_a_clock_running_takes_no_save(every: int | None) -> None:
    table = EmulatedTable(SAVE, save_every=every)
    table.load()
    assert list(table.checkpoints) == []
