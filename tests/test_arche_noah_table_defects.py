"""Regression tests for issue 10's Arche Noah table defects 11-14 (seen by playing as people do)."""

from __future__ import annotations

import copy
import json
from typing import Any

from test_e2e_arche_noah import CONFIG, SEATS, Game

from rules_ref.arche_noah import ArcheNoahGame


def with_hand_zone(save: dict[str, Any], color: str) -> dict[str, Any]:
    """The save plus a hand zone (a seat in TTS) of a colour the game's seats do not list."""
    save = copy.deepcopy(save)
    hand = next(o for o in save["ObjectStates"] if o["Name"] == "HandTrigger")
    extra = {**copy.deepcopy(hand), "GUID": "ab12cd", "FogColor": color}
    extra["Transform"] = {**hand["Transform"], "posX": hand["Transform"]["posX"] + 30}
    save["ObjectStates"].append(extra)
    return save


def first_card_names(game: Game) -> dict[str, str]:
    """Each player's collection card as "Lion 3" (only one card lies there right after a deal)."""
    names = {}
    for seat, color in enumerate(game.colors):
        (card,) = game.collection(seat)
        face = json.loads(card["gm_notes"])
        names[color] = f"{face['animal']} {face['value']}"
    return names


def whispers(game: Game, since: int) -> dict[str, list[str]]:
    told: dict[str, list[str]] = {}
    for b in game.table.broadcasts[since:]:
        if b["to"] is not None:
            told.setdefault(b["to"], []).append(b["message"])
    return told


def play_to_scoring(game: Game) -> None:
    """Play the first play-through (bids 0, one card each) up to the Score button."""
    while not game.table.ui_active("score"):
        game.replay_chance()
        if game.state.phase == "bid":
            color = game.colors[game.state.current_player()]
            game.table.click_ui(color, "bid_confirm")
            game.state.apply_action(0)
        else:
            color = game.colors[game.state.current_player()]
            offer = game.offer()
            if offer:
                game.table.click_button(offer[min(offer)], "Take", color)
            game.state.apply_action(game.state.legal_actions()[0] if not offer else 1)


def test_11_every_player_sees_their_own_first_card_in_secret_in_both_playthroughs(
    arche_noah_build: Any,
) -> None:
    game = Game(arche_noah_build, 3, seed=5)
    game.table.click_ui("White", "setup")
    since = 0
    for playthrough in (1, 2):
        names = first_card_names(game)
        told = whispers(game, since)
        for color, name in names.items():
            mine = [m for m in told.get(color, []) if name in m]
            assert mine, (playthrough, color, told.get(color))
            others = [m for other, ms in told.items() if other != color for m in ms]
            assert not any(name in m and "first card" in m for m in others)
        assert all(c["face_down"] for s in range(3) for c in game.collection(s))
        if playthrough == 1:
            play_to_scoring(game)
            game.table.click_ui("White", "score")
            since = len(game.table.broadcasts)
            game.table.click_ui("White", "next_playthrough")


def test_12_scored_collections_stay_face_up_until_next_playthrough(arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, 2, seed=9)
    game.table.click_ui("White", "setup")
    play_to_scoring(game)
    sizes = [len(game.collection(s)) for s in range(2)]
    assert sum(sizes) > 2
    game.table.click_ui("White", "score")
    game.table.advance(30)  # however long people look: nothing is gathered
    for seat in range(2):
        cards = game.collection(seat)
        assert len(cards) == sizes[seat] and all(not c["face_down"] for c in cards)
    assert game.table.ui_active("next_playthrough")
    assert "Next play-through" in game.table.ui_value("status")
    game.table.click_ui("Red", "next_playthrough")
    assert not game.table.ui_active("next_playthrough")
    assert all(len(game.collection(s)) == 1 for s in range(2))  # a fresh deal, face down
    assert all(c["face_down"] for s in range(2) for c in game.collection(s))


def test_13_the_player_who_presses_setup_is_the_start_player(arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, 4, seed=3)
    game.state = ArcheNoahGame(CONFIG, 4, start_seat=2).new_initial_state()
    game.table.click_ui("Yellow", "setup")
    game.replay_chance()
    assert game.state.current_player() == 2
    assert game.table.ui_value("status").startswith("Yellow: bid")
    assert "start player Yellow" in game.table.ui_value("info")
    card = next(o for o in game.table.objects() if "StartPlayer" in o["tags"])
    yx, yz = SEATS[2]["collection"]
    others = [SEATS[s]["collection"] for s in (0, 1, 3)]
    dist = lambda x, z: (card["position"][0] - x) ** 2 + (card["position"][2] - z) ** 2  # noqa: E731
    assert all(dist(yx, yz) < dist(x, z) for x, z in others)


def test_14_a_player_at_a_colour_the_save_does_not_list_is_told(arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, 2, seed=1)
    game.table = table = game.new_table(with_hand_zone(game.save, "Pink"))
    table.seat(["White", "Pink"])
    table.click_ui("White", "setup")
    told = whispers(game, 0)
    assert any("Pink is not a seat of this game" in m for m in told["Pink"])
    refusal = [b["message"] for b in table.broadcasts if "needs 2-5" in b["message"]]
    assert refusal and "Pink" in refusal[0] and "1 seated" in refusal[0]
    assert table.ui_active("setup")
    table.seat(["White", "Red", "Pink"])
    before = len(table.broadcasts)
    table.click_ui("White", "setup")
    assert not table.ui_active("setup")  # two players at listed seats: the game starts
    assert any("not a seat" in m for m in whispers(game, before)["Pink"])
