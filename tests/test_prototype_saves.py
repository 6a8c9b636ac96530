"""A save at any frame of the prototype's Setup (LUA.md §9, docs/decisions.md "A save at any
frame"): the deal takes cards and tokens out of decks and bags over several frames, and TTS may
save at any of them. Each save taken during the deal, loaded on a fresh table and settled, must
be the table Setup leaves when nothing interrupts it: the same pieces in each hand, zone and
spot, by name, and the same script state."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import SESSION_CACHE, build
from test_table_manifest import BASE, sampler, write

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.emulator import EmulatedTable
from tts_builder.emulator.moonsharp import available

SEED = 3


def view(table: EmulatedTable, save: dict[str, Any]) -> dict[str, Any]:
    """What lies where, by name: each hand's cards (by seat colour), every other piece by its
    spot (x, z to 0.01) with its contents, face and stack size; the script state and panel."""
    hands = {
        o["FogColor"]: geo.Transform.of(o)
        for o in save["ObjectStates"]
        if o["Name"] == "HandTrigger"
    }
    where: Counter[tuple[Any, ...]] = Counter()
    for o in table.objects():
        if o["type"] in ("Hand", "Scripting"):
            continue
        hand = next((c for c, h in hands.items() if geo.zone_contains(h, o["position"])), None)
        spot = hand or (round(o["position"][0], 2), round(o["position"][2], 2))
        contents = tuple(c.get("nickname") or c.get("name") for c in o.get("contained") or ())
        where[(spot, o["type"], o["nickname"], o.get("quantity"), o["face_down"], contents)] += 1
    state = json.loads(table.save_state()["LuaScriptState"])
    return {
        "pieces": dict(where),
        "state": {k: state.get(k) for k in ("phase", "players", "scores", "status")},
        "status": table.ui_value("status"),
        "setup shown": table.ui_active("setup"),
        "violations": list(table.violations),
    }


def set_up(built: GameBuild, colours: list[str], **options: Any) -> EmulatedTable:
    """A table with ``colours`` seated whose last colour pressed Setup (settled)."""
    table = EmulatedTable(built.save, seed=SEED, images=built.files, **options)
    table.seat(colours)
    table.load()
    table.checkpoints.clear()
    table.click_ui(colours[-1], "setup")
    return table


def loaded_during_setup(built: GameBuild, colours: list[str], lua: str | None = None) -> list[str]:
    """Every save the table took during Setup (one each frame), loaded on a fresh table: how
    each differs from the table Setup leaves uninterrupted (empty when all agree)."""
    reference = set_up(built, colours, save_every=None, lua=lua)
    expected = view(reference, built.save)
    table = set_up(built, colours, save_every=1, keep_saves=None, lua=lua)
    start = table.input_frame
    saves = list(table.checkpoints)
    assert [s.frame - start for s in saves] == list(range(1, len(saves) + 1))
    assert len(saves) >= 3, "the deal spans frames: saves land inside it"
    problems = []
    for save in saves:
        fresh = EmulatedTable(save.save, seed=SEED + 1, images=built.files, save_every=None,
                              raise_errors=False, lua=lua)  # fmt: skip
        fresh.chance_from(save)
        fresh.seat(colours)
        try:
            fresh.load()
            fresh.settle()
        except Exception as error:  # a broken table: interpenetrating pieces, a stuck step
            problems.append(f"frame {save.frame - start}: {str(error)[:300]}")
            continue
        got = view(fresh, built.save)
        diff = {k: (got[k], expected[k]) for k in expected if got[k] != expected[k]}
        if diff or fresh.errors:
            problems.append(f"frame {save.frame - start}: {diff} {fresh.errors}")
    return problems


@pytest.mark.parametrize("players", [2, 4])
def test_a_save_during_the_prototypes_setup_deal_loads_as_the_table_after_setup(
    players: int,
) -> None:
    built = build("prototype")
    colours = ["White", "Red", "Green", "Blue"][:players]
    assert loaded_during_setup(built, colours) == []


@pytest.fixture(scope="module")
def sampler_build(tmp_path_factory: pytest.TempPathFactory) -> GameBuild:
    root = write(tmp_path_factory.mktemp("sampler"), sampler())
    return build_game("sampler", BuildOptions(), SESSION_CACHE, root)


@pytest.mark.parametrize("players", [2, 5])
def test_a_save_during_a_deal_from_an_infinite_bag_a_shared_row_and_seat_spots_loads_alike(
    sampler_build: GameBuild, players: int
) -> None:
    colours = ["White", "Red", "Yellow", "Green", "Blue"][:players]
    assert loaded_during_setup(sampler_build, colours) == []


def test_a_save_while_the_deck_runs_down_to_its_last_card_loads_alike(tmp_path: Path) -> None:
    data = copy.deepcopy(BASE)
    data["id"] = "tight"
    data["rosters"]["flowers"] = data["rosters"]["flowers"][:5]
    data["table"]["pieces"][1]["copies"] = 2  # 10 cards, all dealt at 2 players
    data["table"]["setup"] = [{"deal": "flowers", "count": 5, "to": "hand"}]
    data["players"] = {"min": 2, "max": 2}
    built = build_game("tight", BuildOptions(), SESSION_CACHE, write(tmp_path, data, "tight"))
    assert loaded_during_setup(built, ["White", "Red"]) == []


@pytest.mark.skipif(available() is not None, reason=f"MoonSharp not available: {available()}")
def test_a_save_during_the_prototypes_setup_deal_loads_alike_in_moonsharp() -> None:
    assert loaded_during_setup(build("prototype"), ["White", "Red", "Green"], "moonsharp") == []
