"""Arche Noah's pure Lua rules (lua_templates/arche-noah/rules.lua.j2) in Lua 5.2 vs rules_ref."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from lupa import lua52
from strict_lua import StrictRules

from rules_ref import arche_noah as ref
from tts_builder.emulator import from_lua
from tts_builder.games.arche_noah import rules_config
from tts_builder.lua.lint import lint
from tts_builder.lua.scripts import global_script, global_ui, rules_source
from tts_builder.strategies import strategies_for

REPO = Path(__file__).resolve().parents[1]
DATA = yaml.safe_load((REPO / "assets/arche-noah/game.yaml").read_text(encoding="utf-8"))
NASTY_NAME = 'Arche "Noah" ]] [[ <b>&amp;</b>\n\\ ü 🐘'


def make_ctx(name: str | None = None, animals: list[str] | None = None) -> dict[str, Any]:
    """A template context shaped like the one tts_builder.games.arche_noah builds."""
    data = copy.deepcopy(DATA)
    for animal, new in zip(data["animals"], animals or [], strict=False):
        animal["name"] = new
    seats = [
        {
            "index": i,
            "color": s["color"],
            "collection": [s["collection"][0], 1.0, s["collection"][1]],
            "chips": [s["chips"][0], 1.2, s["chips"][1]],
            "facing": float(s["facing"]),
            "collection_zone": f"zone0{i}",
        }
        for i, s in enumerate(data["table"]["seats"])
    ]
    return {
        "game": {"id": "arche-noah", "name": name or data["name"]},
        "config": rules_config(data),
        "players": dict(data["players"]),
        "seats": seats,
        "guids": {
            "deck": "deck01",
            "start_player": "start1",
            "purple_bag": "pbag01",
            "green_bag": "gbag01",
        },
        "positions": {
            "draw_pile": [0.0, 1.0, 0.0],
            "set_aside": [0.0, 1.0, 5.5],
            "offer": [[-6.0 + 3 * i, 1.0, -5.0] for i in range(5)],
        },
    }


CTX = make_ctx()
CONFIG = CTX["config"]


class LuaRules(StrictRules):
    """The rendered rules module of a template context; calling returns plain JSON."""

    def __init__(self, ctx: dict[str, Any]) -> None:
        super().__init__(rules_source("arche-noah", ctx))

    __call__ = StrictRules.raw  # type: ignore[assignment]


RULES = LuaRules(CTX)

JULE = [("Lion", v) for v in (1, 2, 3, 4)] + [
    ("Zebra", 2),
    ("Zebra", 3),
    ("Bear", 1),
    ("Bear", 4),
    ("Hippo", 2),
    ("Hippo", 4),
    ("Camel", 1),
    ("Monkey", 4),
]


@pytest.mark.parametrize("purple", [4, 5])
def test_jules_collection_scores_26(purple: int) -> None:
    cards = [{"animal": a, "value": v} for a, v in JULE]
    inp = {"cards": cards, "purple": purple, "green": 0, "playthrough": 1}
    assert RULES("score_collection", inp) == {
        "total": 26,
        "cards": 21,
        "bonus": 3,
        "purple": 2,
        "green": 0,
    }


def test_three_of_an_animal_and_green_in_second_playthrough() -> None:
    cards = [{"animal": "Lion", "value": v} for v in (4, 1, 3)]
    inp = {"cards": cards, "purple": 1, "green": 2, "playthrough": 2}
    assert RULES("score_collection", inp) == {
        "total": 8,
        "cards": 6,
        "bonus": 0,
        "purple": 0,
        "green": 2,
    }
    inp["playthrough"] = 7  # beyond the list: the last entry
    assert RULES("score_collection", inp)["green"] == 2


def test_pick_order_example_ties_clockwise_from_start() -> None:
    assert RULES("pick_order", {"bids": [1, 1, 2], "start": 1}) == {
        "order": [2, 1, 0],
        "paid": [1, 1, 2],
    }


def test_two_players_only_the_first_picker_pays() -> None:
    assert RULES("pick_order", {"bids": [3, 2], "start": 0}) == {"order": [0, 1], "paid": [3, 0]}
    assert RULES("pick_order", {"bids": [2, 2], "start": 1}) == {"order": [1, 0], "paid": [0, 2]}


@pytest.mark.parametrize(
    ("players", "expected"),
    [(2, (12, 3, 2, 32)), (3, (12, 3, 1, 36)), (4, (12, 3, 0, 40)), (5, (10, 2, 0, 40))],
)
def test_setup(players: int, expected: tuple[int, int, int, int]) -> None:
    keys = ("purple", "green", "animals_removed", "cards_in_play")
    assert RULES("setup", {"players": players}) == dict(zip(keys, expected, strict=True))


def test_offer_winners_and_pick_options() -> None:
    assert RULES("offer_size", {"players": 4, "pile": 9}) == {"count": 4}
    assert RULES("offer_size", {"players": 4, "pile": 3}) == {"count": 3}
    assert RULES("winners", {"totals": [5, 9, 9, -1]}) == {"winners": [1, 2]}
    assert RULES("pick_options", {"offer": 3, "green": 1}) == {"take": [0, 1, 2]}
    assert RULES("pick_options", {"offer": 1, "green": 2}) == {"take": [0, 1]}
    assert RULES("pick_options", {"offer": 2, "green": 0}) == {"take": [1]}
    assert RULES("pick_options", {"offer": 0, "green": 0}) == {"take": [0]}


def normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items()} if value else []
    if isinstance(value, list):
        return [normal(v) for v in value]
    return value


STRATEGIES = strategies_for("arche-noah", CONFIG, (2, 5))


@pytest.mark.parametrize("name", list(ref.FUNCTIONS))
def test_lua_equals_rules_ref_on_generated_inputs(name: str) -> None:
    @settings(max_examples=60, deadline=None, database=None)
    @given(STRATEGIES[name])
    def agree(inp: dict[str, Any]) -> None:
        assert normal(RULES(name, inp)) == normal(ref.FUNCTIONS[name](CONFIG, inp))

    agree()


@settings(max_examples=40, deadline=None, database=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=6), st.data())
def test_pick_order_any_bids(bids: list[int], data: st.DataObject) -> None:
    inp = {"bids": bids, "start": data.draw(st.integers(0, len(bids) - 1))}
    assert RULES("pick_order", inp) == ref.pick_order(CONFIG, inp)


def test_every_reference_function_exists_in_lua() -> None:
    for name in ref.FUNCTIONS:
        assert RULES.module[name] is not None, name


def test_names_with_quotes_brackets_and_unicode_survive() -> None:
    animals = ['Lö"we ]]', "Ze\nbra <&>", "Ele\\phant", "Giraffe'", "🐘"]
    ctx = make_ctx(NASTY_NAME, animals)
    rules = LuaRules(ctx)
    lua_config = from_lua(rules.module["CONFIG"])
    assert lua_config["animals"] == ctx["config"]["animals"]
    cards = [{"animal": animals[0], "value": 2}, {"animal": animals[0], "value": 3}]
    inp = {"cards": cards, "purple": 0, "green": 0, "playthrough": 1}
    assert rules("score_collection", inp)["cards"] == 5


def test_global_script_is_lint_clean_and_sets_rules() -> None:
    ctx = make_ctx(NASTY_NAME, ['Lö"we ]]', "Ze\nbra <&>"])
    script = global_script("arche-noah", ctx)
    assert lint(script, "Global") == []
    lua = lua52.LuaRuntime()
    lua.execute(script)  # defines handlers only: no TTS call at load time
    rules = lua.globals().Rules
    assert from_lua(rules.pick_order(lua.execute("return {bids={1,1,2}, start=1}"))) == {
        "order": [2, 1, 0],
        "paid": [1, 1, 2],
    }
    for handler in (
        "onLoad",
        "onSave",
        "ui_setup",
        "ui_score",
        "ui_bid_minus",
        "ui_bid_plus",
        "ui_bid_confirm",
        "ui_green_take",
        "an_take_card",
    ):
        assert lua52.lua_type(lua.globals()[handler]) == "function", handler


def test_ui_parses_and_every_onclick_is_a_global_function() -> None:
    import xml.etree.ElementTree as ET

    ctx = make_ctx(NASTY_NAME)
    ui = global_ui("arche-noah", ctx)
    root = ET.fromstring(f"<root>{ui}</root>")
    assert root.find(".//Text[@id='title']").text == NASTY_NAME
    lua = lua52.LuaRuntime()
    lua.execute(global_script("arche-noah", ctx))
    clicks = {e.get("onClick") for e in root.iter() if e.get("onClick")}
    assert clicks and all(lua52.lua_type(lua.globals()[c]) == "function" for c in clicks)
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    for slot in range(1, len(ctx["seats"]) + 1):
        for part in ("bid", "purple", "green", "cards", "pt_1", "pt_2", "total"):
            assert f"seat_{slot}_{part}" in ids
    assert {
        "status",
        "info",
        "setup",
        "score",
        "bid_panel",
        "bid_value",
        "bid_minus",
        "bid_plus",
        "bid_confirm",
        "green_take_0",
        "green_take_2",
    } <= set(ids)


def test_built_global_script_is_lint_clean(arche_noah_build: Any) -> None:
    assert lint(arche_noah_build.global_script, "Global") == []
