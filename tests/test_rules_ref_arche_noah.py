"""Tests for rules_ref.arche_noah: seed examples, rulings, config-driven numbers, random games."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
import yaml

from rules_ref import arche_noah as an

GAME_YAML = Path(__file__).resolve().parents[1] / "assets" / "arche-noah" / "game.yaml"


@pytest.fixture(scope="module")
def base_config() -> dict:
    """The ``rules:`` mapping of game.yaml plus the animal names in YAML order."""
    data = yaml.safe_load(GAME_YAML.read_text(encoding="utf-8"))
    config = dict(data["rules"])
    config["animals"] = [animal["name"] for animal in data["animals"]]
    return config


@pytest.fixture
def config(base_config: dict) -> dict:
    """A fresh deep copy per test, so tests may change numbers freely."""
    return copy.deepcopy(base_config)


def _cards(*pairs: tuple[str, int]) -> list[dict]:
    return [{"animal": animal, "value": value} for animal, value in pairs]


# Seed 000's worked example: Jule's collection.
JULE = _cards(
    ("Elephant", 1),
    ("Elephant", 2),
    ("Elephant", 3),
    ("Elephant", 4),  # set of four: 10 (+3)
    ("Giraffe", 1),
    ("Giraffe", 4),  # pair: 5
    ("Lion", 2),
    ("Lion", 3),  # pair: 5
    ("Zebra", 2),
    ("Zebra", 4),  # pair: 6
    ("Camel", 1),  # single: -1
    ("Hippo", 4),  # single: -4
)


# ---- score_collection -------------------------------------------------------------------


@pytest.mark.parametrize("purple", [4, 5])
def test_jule_scores_26(config: dict, purple: int) -> None:
    result = an.score_collection(
        config, {"cards": JULE, "purple": purple, "green": 2, "playthrough": 1}
    )
    assert result == {"total": 26, "cards": 21, "bonus": 3, "purple": 2, "green": 0}


def test_jule_card_order_does_not_matter(config: dict) -> None:
    shuffled = list(reversed(JULE))
    inp = {"cards": shuffled, "purple": 4, "green": 0, "playthrough": 1}
    assert an.score_collection(config, inp)["total"] == 26


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([3], -3),
        ([1, 4], 5),
        ([4, 1, 2], 6 - 1),  # best pairing: 2 + 4 plus, 1 minus
        ([3, 3, 3], 3),
        ([1, 2, 3, 4], 10),
    ],
)
def test_cards_of_one_animal(config: dict, values: list[int], expected: int) -> None:
    cards = [{"animal": "Lion", "value": v} for v in values]
    result = an.score_collection(
        config, {"cards": cards, "purple": 0, "green": 0, "playthrough": 1}
    )
    assert result["cards"] == expected
    assert result["bonus"] == (3 if len(values) >= 4 else 0)


def test_green_points_by_playthrough(config: dict) -> None:
    def green(playthrough: int) -> int:
        inp = {"cards": [], "purple": 0, "green": 3, "playthrough": playthrough}
        return an.score_collection(config, inp)["green"]

    assert [green(1), green(2), green(3)] == [0, 3, 3]  # beyond the list: last entry
    with pytest.raises(ValueError):
        green(0)


def test_unknown_animals_group_by_name(config: dict) -> None:
    cards = _cards(("Unicorn", 2), ("Unicorn", 3), ("Dodo", 4))
    inp = {"cards": cards, "purple": 7, "green": 1, "playthrough": 2}
    assert an.score_collection(config, inp) == {
        "total": 5 - 4 + 3 + 1,
        "cards": 1,
        "bonus": 0,
        "purple": 3,
        "green": 1,
    }


# ---- pick_order -------------------------------------------------------------------------


def test_pick_order_corrected_rulings_example(config: dict) -> None:
    # Seats Jule 0, Emilie 1, Paul 2; Jule 1, Emilie 1, Paul 2; Emilie starts -> Paul, Emilie, Jule.
    result = an.pick_order(config, {"bids": [1, 1, 2], "start": 1})
    assert result == {"order": [2, 1, 0], "paid": [1, 1, 2]}


def test_pick_order_ties_in_every_position(config: dict) -> None:
    assert an.pick_order(config, {"bids": [0, 0, 0], "start": 1})["order"] == [1, 2, 0]
    assert an.pick_order(config, {"bids": [0, 0, 0, 0, 0], "start": 3})["order"] == [
        3,
        4,
        0,
        1,
        2,
    ]
    # Two tied pairs: each pair ordered clockwise from the start seat 3.
    result = an.pick_order(config, {"bids": [2, 2, 1, 1], "start": 3})
    assert result == {"order": [0, 1, 3, 2], "paid": [2, 2, 1, 1]}


def test_pick_order_two_players_only_first_pays(config: dict) -> None:
    assert an.pick_order(config, {"bids": [3, 5], "start": 0}) == {
        "order": [1, 0],
        "paid": [0, 5],
    }
    assert an.pick_order(config, {"bids": [4, 4], "start": 1}) == {
        "order": [1, 0],
        "paid": [0, 4],
    }
    assert an.pick_order(config, {"bids": [0, 2, 1], "start": 0})["paid"] == [0, 2, 1]


def test_pick_order_rejects_bad_start(config: dict) -> None:
    with pytest.raises(ValueError):
        an.pick_order(config, {"bids": [1, 2], "start": 2})


# ---- setup, offer_size, winners, pick_options ---------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (2, {"purple": 12, "green": 3, "animals_removed": 2, "cards_in_play": 32}),
        (3, {"purple": 12, "green": 3, "animals_removed": 1, "cards_in_play": 36}),
        (4, {"purple": 12, "green": 3, "animals_removed": 0, "cards_in_play": 40}),
        (5, {"purple": 10, "green": 2, "animals_removed": 0, "cards_in_play": 40}),
    ],
)
def test_setup(config: dict, players: int, expected: dict) -> None:
    assert an.setup(config, {"players": players}) == expected


@pytest.mark.parametrize("players", [0, 1, 6])
def test_setup_rejects_uncovered_player_count(config: dict, players: int) -> None:
    with pytest.raises(ValueError):
        an.setup(config, {"players": players})
    with pytest.raises(ValueError):
        an.ArcheNoahGame(config, players)


def test_offer_size(config: dict) -> None:
    assert an.offer_size(config, {"players": 3, "pile": 20}) == {"count": 3}
    assert an.offer_size(config, {"players": 5, "pile": 2}) == {"count": 2}
    assert an.offer_size(config, {"players": 2, "pile": 0}) == {"count": 0}


def test_winners(config: dict) -> None:
    assert an.winners(config, {"totals": [10, 14, 3]}) == {"winners": [1]}
    assert an.winners(config, {"totals": [7, -2, 7, 7]}) == {"winners": [0, 2, 3]}
    assert an.winners(config, {"totals": []}) == {"winners": []}


@pytest.mark.parametrize(
    ("offer", "green", "take"),
    [
        (3, 1, [0, 1, 2]),
        (2, 3, [0, 1, 2]),
        (1, 1, [0, 1]),  # 2 only if 2 remain
        (3, 0, [1]),
        (1, 0, [1]),
        (0, 0, [0]),  # left with no card: still pays, takes nothing
        (0, 2, [0]),
    ],
)
def test_pick_options(config: dict, offer: int, green: int, take: list[int]) -> None:
    assert an.pick_options(config, {"offer": offer, "green": green}) == {"take": take}


SEATS = ["White", "Red", "Yellow", "Green", "Blue"]


def test_seating_players_in_seat_order_chooser_starts_unlisted_told() -> None:
    out = an.seating(
        {},
        {
            "seats": SEATS,
            "seated": ["Green", "Pink", "White"],
            "chooser": "Green",
            "min": 2,
            "max": 5,
        },
    )
    assert out == {
        "players": ["White", "Green"],
        "slots": [0, 3],
        "unlisted": ["Pink"],
        "enough": True,
        "start": 1,
    }


def test_seating_one_listed_player_is_not_enough_and_a_spectator_chooser_means_seat_0() -> None:
    out = an.seating(
        {}, {"seats": SEATS, "seated": ["Red", "Purple"], "chooser": "Purple", "min": 2, "max": 5}
    )
    assert out["players"] == ["Red"] and out["unlisted"] == ["Purple"]
    assert not out["enough"] and out["start"] == 0


def test_turn_bidding_clockwise_from_start_and_picking_by_order() -> None:
    assert [
        an.turn({}, {"phase": "bid", "players": 3, "start": 2, "turn": t})["seat"] for t in range(3)
    ] == [2, 0, 1]
    assert an.turn(
        {}, {"phase": "pick", "players": 3, "start": 0, "turn": 1, "order": [2, 0, 1]}
    ) == {"seat": 0}
    with pytest.raises(ValueError):
        an.turn({}, {"phase": "bid", "players": 3, "start": 0, "turn": 3})


def test_the_start_player_card_passes_clockwise() -> None:
    assert [an.pass_start({}, {"players": 3, "start": s})["start"] for s in range(3)] == [1, 2, 0]


def test_bid_range_is_zero_to_own_purple_chips() -> None:
    assert an.bid_range({}, {"purple": 7}) == {"low": 0, "high": 7}


def test_a_chosen_start_seat_bids_first(config: dict) -> None:
    state = an.ArcheNoahGame(config, 3, start_seat=2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 2


def test_functions_table() -> None:
    assert set(an.FUNCTIONS) == {
        "score_collection",
        "pick_order",
        "setup",
        "offer_size",
        "winners",
        "pick_options",
        "seating",
        "turn",
        "bid_range",
        "pass_start",
    }
    assert all(callable(fn) for fn in an.FUNCTIONS.values())


# ---- config changes change results ---------------------------------------------------------


def test_config_numbers_drive_results(config: dict) -> None:
    jule = {"cards": JULE, "purple": 4, "green": 2, "playthrough": 2}
    assert an.score_collection(config, jule)["total"] == 26 + 2

    changed = copy.deepcopy(config)
    changed["scoring"]["set_of_four_bonus"] = 5
    changed["scoring"]["purple_chips_per_point"] = 1
    changed["scoring"]["green_points_per_chip"] = [0, 2]
    assert an.score_collection(changed, jule) == {
        "total": 21 + 5 + 4 + 4,
        "cards": 21,
        "bonus": 5,
        "purple": 4,
        "green": 4,
    }

    changed["chips"][1]["purple"] = 11
    changed["animals_removed"][1]["count"] = 2
    changed["card_values"] = [1, 2, 3, 4, 5]
    assert an.setup(changed, {"players": 5})["purple"] == 11
    assert an.setup(changed, {"players": 3})["cards_in_play"] == 8 * 5
    assert an.ArcheNoahGame(changed, 5).new_initial_state().purple == [11] * 5

    changed["only_first_picker_pays_up_to_players"] = 3
    assert an.pick_order(changed, {"bids": [1, 1, 2], "start": 1})["paid"] == [0, 0, 2]
    changed["cards_per_player_in_offer"] = 2
    assert an.offer_size(changed, {"players": 3, "pile": 20}) == {"count": 6}
    changed["green_chip_takes"] = [0, 2, 3]
    assert an.pick_options(changed, {"offer": 3, "green": 1}) == {"take": [0, 1, 2, 3]}


# ---- the game ----------------------------------------------------------------------------


def _removed_cards(game: an.ArcheNoahGame, state: an.ArcheNoahState) -> list[int]:
    removed = set(state.removed_animals)
    return [card for card in range(game.num_cards) if game.card_animal(card) in removed]


def _check_invariants(game: an.ArcheNoahGame, state: an.ArcheNoahState) -> None:
    everywhere = (
        state.pile
        + state.offer
        + state.set_aside
        + [card for cards in state.collections for card in cards]
        + _removed_cards(game, state)
    )
    assert sorted(everywhere) == list(range(game.num_cards))
    assert state.pile == sorted(state.pile) and state.offer == sorted(state.offer)
    assert min(state.purple) >= 0 and min(state.green) >= 0
    assert max(state.purple) <= game.setup["purple"]
    assert state.clone() == state
    snapshot = json.loads(json.dumps(state.to_dict()))
    assert an.ArcheNoahState.from_dict(game, snapshot) == state
    legal = state.legal_actions()
    if state.is_terminal():
        assert legal == [] and state.current_player() == an.TERMINAL
        return
    assert state.returns() == [0] * game.num_players
    assert legal and legal == sorted(set(legal))
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    else:
        assert 0 <= state.current_player() < game.num_players


def _play_random(game: an.ArcheNoahGame, rng: random.Random) -> an.ArcheNoahState:
    """Play one uniformly random game, checking the invariants at every step."""
    state = game.new_initial_state()
    removed_animals = game.setup["animals_removed"]
    while not state.is_terminal():
        _check_invariants(game, state)
        before_green, before_pt = state.green, state.playthrough
        actor = state.current_player()
        state.apply_action(rng.choice(state.legal_actions()))
        for seat, (after, old) in enumerate(zip(state.green, before_green, strict=True)):
            assert after == old or (seat == actor and after == old - 1)
        if state.playthrough != before_pt:  # play-through 2 begins: purple refilled, green not
            assert state.purple == [game.setup["purple"]] * game.num_players
            assert state.collections == [[]] * game.num_players and state.set_aside == []
            assert state.pile_size == game.setup["cards_in_play"]
        if state.phase not in ("remove", "end"):
            assert len(state.removed_animals) == removed_animals
            removed = set(state.removed_animals)
            visible = state.offer + [card for cards in state.collections for card in cards]
            assert not any(game.card_animal(card) in removed for card in visible)
    _check_invariants(game, state)
    scores = state.playthrough_scores
    assert len(scores) == game.config["playthroughs"]
    for per_seat in scores:
        for score in per_seat:
            assert score["total"] == sum(score[k] for k in ("cards", "bonus", "purple", "green"))
    totals = [
        sum(per_seat[seat]["total"] for per_seat in scores) for seat in range(game.num_players)
    ]
    assert state.returns() == totals
    best = max(totals)
    assert state.winners() == [seat for seat, total in enumerate(totals) if total == best]
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(config: dict, players: int) -> None:
    rng = random.Random(1000 + players)
    for game_no in range(40):
        game = an.ArcheNoahGame(config, players, start_seat=game_no % players)
        _play_random(game, rng)


@pytest.mark.parametrize(("players", "removed", "in_play"), [(2, 2, 32), (3, 1, 36), (4, 0, 40)])
def test_removal_chance_steps(config: dict, players: int, removed: int, in_play: int) -> None:
    game = an.ArcheNoahGame(config, players)
    state = game.new_initial_state()
    for step in range(removed):
        assert state.phase == "remove" and state.is_chance_node()
        assert state.legal_actions() == [a for a in range(10) if a not in state.removed_animals]
        assert len(state.chance_outcomes()) == 10 - step
        state.apply_action(state.legal_actions()[-1])
    assert state.phase == "deal"
    assert state.pile_size == in_play == game.setup["cards_in_play"]


def test_three_player_game_never_deals_removed_animal(config: dict) -> None:
    rng = random.Random(7)
    game = an.ArcheNoahGame(config, 3)
    for _ in range(5):
        state = game.new_initial_state()
        state.apply_action(4)  # Camel leaves the game
        seen: set[int] = set()
        while not state.is_terminal():
            if state.phase in ("deal", "offer"):
                assert all(game.card_animal(card) != 4 for card in state.legal_actions())
            action = rng.choice(state.legal_actions())
            if state.phase in ("deal", "offer"):
                seen.add(action)
            state.apply_action(action)
        assert len(seen) == 36 and all(game.card_animal(card) != 4 for card in seen)


def test_clone_is_independent(config: dict) -> None:
    state = an.ArcheNoahGame(config, 4).new_initial_state()
    for card in (0, 1, 2, 3, 4, 5, 6, 7):  # deal 4, offer 4
        state.apply_action(card)
    copy_ = state.clone()
    copy_.apply_action(3)  # start seat bids 3
    assert state.bids == [None] * 4 and copy_.bids == [3, None, None, None]
    assert copy_ != state


def test_illegal_actions_are_rejected(config: dict) -> None:
    state = an.ArcheNoahGame(config, 4).new_initial_state()
    with pytest.raises(ValueError):
        state.apply_action(40)
    for card in (0, 1, 2, 3, 4, 5, 6, 7):
        state.apply_action(card)
    with pytest.raises(ValueError):
        state.apply_action(13)  # more than 12 purple chips
    with pytest.raises(ValueError):
        state.chance_outcomes()


def test_pick_actions_and_green_chip(config: dict) -> None:
    game = an.ArcheNoahGame(config, 4, start_seat=2)
    state = game.new_initial_state()
    for card in (0, 1, 2, 3, 36, 12, 20, 28):  # deal E1..E4, offer M1 Z1 H1 P1
        state.apply_action(card)
    assert state.offer == [12, 20, 28, 36]  # Zebra 1, Hippo 1, Penguin 1, Monkey 1
    for bid in (1, 0, 0, 0):  # seat 2 bids 1, seats 3, 0, 1 bid 0
        state.apply_action(bid)
    assert state.order == [2, 3, 0, 1] and state.current_player() == 2
    masks = state.legal_actions()
    assert masks == sorted(m for m in range(16) if bin(m).count("1") in (0, 1, 2))
    assert state.action_to_string(0b0101) == "seat 2 takes Zebra 1 + Penguin 1 (green chip)"
    state.apply_action(0b0101)
    assert state.green == [3, 3, 2, 3] and state.offer == [20, 36]
    state.apply_action(0)  # seat 3 takes nothing with a green chip
    assert state.green == [3, 3, 2, 2]
    state.apply_action(0b10)  # seat 0 takes Monkey 1
    state.apply_action(0b1)  # seat 1 takes Hippo 1
    assert state.collections == [[0, 36], [1, 20], [2, 12, 28], [3]]
    assert state.purple == [12, 12, 11, 12] and state.set_aside == []
    assert state.start_seat == 3 and state.phase == "offer"


def _golden_config(config: dict) -> dict:
    """The real rules with only the first 4 animals (2 players remove 2 -> 8 cards in play)."""
    return dict(config, animals=config["animals"][:4])


# Card ids here: Elephant 1..4 = 0..3, Giraffe = 4..7, Lion 1..4 = 8..11, Zebra = 12..15.
# Pick actions are bit masks over the offer sorted by card id.
GOLDEN = [
    1,
    3,  # remove Giraffe, Zebra
    0,
    8,  # deal E1 to seat 0, L1 to seat 1
    # play-through 1, round 1 (start 0): offer E4, L4; bids 2, 2 -> order 0, 1; only seat 0 pays
    3,
    11,
    2,
    2,
    0b01,
    0b1,  # seat 0 takes E4, seat 1 takes L4; purple 10 / 12
    # round 2 (start 1): offer E2, L2; seat 1 bids 0, seat 0 bids 1 -> order 0, 1
    1,
    9,
    0,
    1,
    0b11,
    0,  # seat 0 green chip: E2 + L2; seat 1 gets nothing; purple 9 / 12
    # round 3 (start 0): offer L3, E3; seat 0 bids 0, seat 1 bids 3 -> order 1, 0
    10,
    2,
    0,
    3,
    0,
    0b10,  # seat 1 green chip: nothing; seat 0 takes L3; E3 set aside
    # scoring 1: seat 0 E1 E2 E4 (2+4-1=5) L2 L3 (5), purple 9 -> 4: 14
    #            seat 1 L1 L4 (5), purple 9 -> 4, green 2 x 0: 9
    # play-through 2: purple back to 12, green stays 2 / 2, start seat stays 1
    11,
    3,  # deal L4 to seat 0, E4 to seat 1
    # round 1 (start 1): offer L1, E1; bids 5 (seat 1), 5 (seat 0) -> order 1, 0
    8,
    0,
    5,
    5,
    0b01,
    0b1,  # seat 1 takes E1, seat 0 takes L1; purple 12 / 7
    # round 2 (start 0): offer L2, L3; seat 0 bids 12, seat 1 bids 0 -> order 0, 1
    9,
    10,
    12,
    0,
    0b11,
    0,  # seat 0 green chip: L2 + L3; purple 0 / 7; green 1 / 2
    # round 3 (start 1): offer E2, E3; seat 1 bids 7, seat 0 bids 0 -> order 1, 0
    1,
    2,
    7,
    0,
    0b10,
    0b1,  # seat 1 takes E3, seat 0 takes E2; purple 0 / 0
    # scoring 2: seat 0 L1-L4 (10 + 3 bonus), E2 (-2), green 1 x 1: 12
    #            seat 1 E1 E3 E4 (3+4-1=6), green 2 x 1: 8
]


def test_golden_two_player_replay(config: dict) -> None:
    game = an.ArcheNoahGame(_golden_config(config), 2)
    assert game.setup["cards_in_play"] == 8
    state = game.new_initial_state()
    for action in GOLDEN:
        assert not state.is_terminal()
        _check_invariants(game, state)
        state.apply_action(action)
    assert state.is_terminal()
    assert state.history == GOLDEN
    assert [[s["total"] for s in per_seat] for per_seat in state.playthrough_scores] == [
        [14, 9],
        [12, 8],
    ]
    assert state.playthrough_scores[1][0] == {
        "total": 12,
        "cards": 8,
        "bonus": 3,
        "purple": 0,
        "green": 1,
    }
    assert state.returns() == [26, 17] and state.winners() == [0]
    assert state.green == [1, 2] and state.purple == [0, 0]
    assert state.set_aside == [] and state.pile == []
    assert state.start_seat == 0  # six rounds from seat 0


def test_golden_replay_strings(config: dict) -> None:
    game = an.ArcheNoahGame(_golden_config(config), 2)
    state = game.new_initial_state()
    strings = []
    for action in GOLDEN[:10]:
        strings.append(state.action_to_string(action))
        state.apply_action(action)
    assert strings == [
        "remove Giraffe",
        "remove Zebra",
        "deal Elephant 1 to seat 0",
        "deal Lion 1 to seat 1",
        "offer Elephant 4",
        "offer Lion 4",
        "seat 0 bids 2",
        "seat 1 bids 2",
        "seat 0 takes Elephant 4",
        "seat 1 takes Lion 4",
    ]
