"""Whole games of the built Arche Noah mod on the emulated table, in lockstep with rules_ref.

The table's chance (removed animals, deals, offers) is observed on the table and replayed into
``rules_ref.arche_noah.ArcheNoahGame``; the players' decisions are drawn at random from the
reference's legal actions and made on the table through the XmlUI and the card buttons. After
every play-through the scores on screen (broadcast + UI) and in the notebook must equal the
reference's, and chips and collections on the table must match it throughout.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from rules_ref.arche_noah import ArcheNoahGame, ArcheNoahState, offer_size
from tts_builder.emulator import EmulatedTable
from tts_builder.games.arche_noah import rules_config

DATA = yaml.safe_load(
    (Path(__file__).resolve().parents[1] / "assets/arche-noah/game.yaml").read_text("utf-8")
)
CONFIG = rules_config(DATA)
SEATS = DATA["table"]["seats"]
NUM_VALUES = len(CONFIG["card_values"])
SCORE_RE = re.compile(
    r"^Play-through (\d+): (\w+) scores (-?\d+) \(cards (-?\d+), sets of four ([+-]\d+), "
    r"purple ([+-]\d+), green ([+-]\d+)\)\.$"
)
LINE_RE = re.compile(
    r"^(\w+): (-?\d+) \(cards (-?\d+), sets of four ([+-]\d+), purple ([+-]\d+), "
    r"green ([+-]\d+)\)$"
)


def card_id(gm_notes: str) -> int:
    face = json.loads(gm_notes)
    animal = CONFIG["animals"].index(face["animal"])
    return animal * NUM_VALUES + CONFIG["card_values"].index(face["value"])


def near(position: tuple[float, ...], x: float, z: float, tolerance: float = 0.01) -> bool:
    return abs(position[0] - x) < tolerance and abs(position[2] - z) < tolerance


class Game:
    """One table, one reference state, and the glue between them for the test."""

    def __init__(self, build: Any, players: int, seed: int) -> None:
        self.save = build.save
        self.images = build.files  # image sizes: the strict table checks chips too
        self.n = players
        self.colors = [seat["color"] for seat in SEATS[:players]]
        self.rng = random.Random(seed)
        self.seed = seed
        self.table = self.new_table(self.save)
        self.state: ArcheNoahState = ArcheNoahGame(CONFIG, players).new_initial_state()
        self.scored = 0

    def new_table(self, save: dict[str, Any]) -> EmulatedTable:
        table = EmulatedTable(save, seed=self.seed, images=self.images)  # strict
        table.seat(self.colors)
        table.load()
        return table

    # ---- observing the table ---------------------------------------------------------------

    def cards(self) -> list[dict[str, Any]]:
        return [
            o for o in self.table.objects() if o["type"] == "Card" and "AnimalCard" in o["tags"]
        ]

    def collection(self, seat: int) -> list[dict[str, Any]]:
        x, z = SEATS[seat]["collection"]
        return [c for c in self.cards() if near(c["position"], x, z)]

    def offer(self) -> dict[int, str]:
        """Face-up, unlocked animal cards (the offer): card id -> GUID."""
        return {
            card_id(c["gm_notes"]): c["guid"]
            for c in self.cards()
            if not c["face_down"] and not c["locked"]
        }

    def replay_chance(self) -> None:
        """Apply what the table shows for every pending chance node of the reference."""
        state = self.state
        while state.is_chance_node():
            if state.phase == "remove":
                collections = [c["guid"] for s in range(self.n) for c in self.collection(s)]
                removed = sorted(
                    {
                        card_id(c["gm_notes"]) // NUM_VALUES
                        for c in self.cards()
                        if c["face_down"] and c["guid"] not in collections
                    }
                )
                assert len(removed) == state.game.setup["animals_removed"]
                for animal in removed:
                    state.apply_action(animal)
            elif state.phase == "deal":
                for seat in range(self.n):
                    (card,) = self.collection(seat)
                    state.apply_action(card_id(card["gm_notes"]))
            else:
                shown = sorted(self.offer())
                size = offer_size(CONFIG, {"players": self.n, "pile": state.pile_size})
                assert len(shown) == size["count"]
                for card in shown:
                    state.apply_action(card)

    def check_table_matches(self) -> None:
        """Chips in the UI and on the table, and collection sizes, equal the reference's."""
        objects = self.table.objects()
        for seat in range(self.n):
            slot = seat + 1
            assert self.table.ui_value(f"seat_{slot}_purple") == str(self.state.purple[seat])
            assert self.table.ui_value(f"seat_{slot}_green") == str(self.state.green[seat])
            cx, cz = SEATS[seat]["chips"]
            for tag, count in (
                ("PurpleChip", self.state.purple[seat]),
                ("GreenChip", self.state.green[seat]),
            ):
                chips = [
                    o
                    for o in objects
                    if tag in o["tags"]
                    and o["type"] != "Infinite"
                    and abs(o["position"][0] - cx) < 2.5
                    and abs(o["position"][2] - cz) < 2.5
                ]
                assert len(chips) == count, (seat, tag)
            assert len(self.collection(seat)) == len(self.state.collections[seat])

    # ---- acting ------------------------------------------------------------------------------

    def told(self, color: str, before: int) -> bool:
        return any(b["to"] == color for b in self.table.broadcasts[before:])

    def bid(self) -> None:
        seat = self.state.current_player()
        color = self.colors[seat]
        assert self.table.ui_active("bid_panel")
        assert self.table.ui_value("status").startswith(color + ":")
        legal = self.state.legal_actions()
        amount = self.rng.choice(legal[:4] + [legal[-1]])
        if self.n > 1 and self.rng.random() < 0.1:  # a wrong-turn press is refused
            other = self.colors[(seat + 1) % self.n]
            before = len(self.table.broadcasts)
            self.table.click_ui(other, "bid_confirm")
            assert self.told(other, before)
        for _ in range(amount):
            self.table.click_ui(color, "bid_plus")
        assert self.table.ui_value("bid_value") == str(amount)
        self.table.click_ui(color, "bid_confirm")
        self.state.apply_action(amount)

    def pick(self) -> None:
        seat = self.state.current_player()
        color = self.colors[seat]
        offer = self.state.offer
        mask = self.rng.choice(self.state.legal_actions())
        if offer:
            guids = self.offer()
            assert sorted(guids) == offer
            taken = [card for i, card in enumerate(offer) if mask >> i & 1]
            if len(taken) != 1:
                assert self.table.ui_active(f"green_take_{len(taken)}")
                self.table.click_ui(color, f"green_take_{len(taken)}")
            if self.rng.random() < 0.1:  # someone else grabs: refused
                other = self.colors[(seat + 1) % self.n]
                before = len(self.table.broadcasts)
                self.table.click_button(guids[offer[0]], "Take", other)
                assert self.told(other, before)
            for card in taken:
                self.table.click_button(guids[card], "Take", color)
        self.state.apply_action(mask)

    def score(self) -> None:
        """Press Score and compare every shown score with the reference's."""
        scores = self.state.playthrough_scores
        pt = self.scored + 1
        expected = scores[self.scored]
        before = len(self.table.broadcasts)
        assert self.table.ui_active("score")
        self.table.click_ui(self.colors[-1], "score")
        shown = {}
        for b in self.table.broadcasts[before:]:
            m = SCORE_RE.match(b["message"])
            if m and int(m.group(1)) == pt:
                shown[m.group(2)] = [int(v) for v in m.groups()[2:]]
        notebook = self.table.notebook
        assert len(notebook) == 1
        body = notebook[0]["body"].split("Play-through " + str(pt) + "\n")[1]
        in_notes = {
            m.group(1): [int(v) for v in m.groups()[1:]]
            for line in body.split("\n")
            if (m := LINE_RE.match(line))
        }
        for seat, score in enumerate(expected):
            color = self.colors[seat]
            want = [score["total"], score["cards"], score["bonus"], score["purple"], score["green"]]
            assert shown[color] == want
            assert in_notes[color] == want
            assert self.table.ui_value(f"seat_{seat + 1}_pt_{pt}") == str(score["total"])
            total = sum(s[seat]["total"] for s in scores)
            assert self.table.ui_value(f"seat_{seat + 1}_total") == str(total)
        self.scored += 1
        if self.table.ui_active("next_playthrough"):  # the collections lie face up until then
            for seat in range(self.n):
                assert all(not c["face_down"] for c in self.collection(seat))
            self.table.click_ui(self.colors[0], "next_playthrough")

    def play(self, reload_at_round: int | None = None) -> None:
        self.table.click_ui(self.colors[0], "setup")
        assert not self.table.ui_active("setup")
        rounds = 0
        while not self.state.is_terminal():
            self.replay_chance()
            if self.state.phase == "bid":
                if self.state.bids == [None] * self.n:
                    rounds += 1
                    self.check_table_matches()
                    if rounds == reload_at_round:
                        self.table = self.new_table(self.table.save_state())
                        self.check_table_matches()
                self.bid()
            elif self.state.phase == "pick":
                self.pick()
                if rounds == reload_at_round and self.state.phase == "pick":
                    self.table = self.new_table(self.table.save_state())
                    reload_at_round = None
            if len(self.state.playthrough_scores) > self.scored:
                self.score()
        self.check_table_matches()
        assert not self.table.errors
        # Every card, the pile's last one (the deck's remainder) too, was found where it lay.
        assert not [b for b in self.table.broadcasts if "missing from the table" in b["message"]]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_game_matches_rules_ref(players: int, arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, players, seed=100 + players)
    game.play(reload_at_round=3 if players in (3, 4) else None)
    state, table = game.state, game.table
    totals, winners = state.returns(), state.winners()
    final = [b["message"] for b in table.broadcasts if b["message"].startswith("Final scores")]
    parts = ", ".join(f"{game.colors[s]} {totals[s]}" for s in range(players))
    names = " and ".join(game.colors[s] for s in winners)
    label = "Winners" if len(winners) > 1 else "Winner"
    assert final == [f"Final scores: {parts}. {label}: {names}."]
    assert table.ui_value("status") == "Game over."
    for seat in range(players):  # collections revealed for the final scoring
        assert all(not c["face_down"] for c in game.collection(seat))
    assert "Totals" in table.notebook[0]["body"]


def test_setup_refuses_wrong_player_count(arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, 2, seed=1)
    game.table.seat(["White"])
    game.table.click_ui("White", "setup")
    assert any("needs 2-5" in b["message"] for b in game.table.broadcasts)
    assert game.table.ui_active("setup") and not game.table.ui_active("bid_panel")


def test_wrong_phase_and_wrong_player_presses_are_explained(arche_noah_build: Any) -> None:
    game = Game(arche_noah_build, 3, seed=7)
    table = game.table
    table.click_ui("White", "setup")  # White presses Setup: White is the start player
    assert not table.ui_active("setup")
    before = len(table.broadcasts)
    table.call_global("ui_setup", {"color": "White"})  # the button is hidden; still refused
    table.call_global("ui_score", {"color": "White"})
    assert [b["to"] for b in table.broadcasts[before:]] == ["White", "White"]
    game.replay_chance()
    bidder = game.colors[game.state.current_player()]
    other = next(c for c in game.colors if c != bidder)
    before = len(table.broadcasts)
    table.click_ui(other, "bid_plus")
    assert table.broadcasts[before:] and all(b["to"] == other for b in table.broadcasts[before:])
    assert table.ui_value("bid_value") == "0"
