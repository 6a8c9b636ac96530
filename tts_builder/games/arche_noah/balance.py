"""Arche Noah (the card-bidding game) for the bots and the balance report.

Greedy evaluation, in points for one seat: the totals of finished play-throughs, plus the
current collection scored as it stands (``score_collection``: pairs, singles, sets of four),
plus purple chips at ``purple_chips_per_point``, plus each green chip at what a kept chip still
earns (its points per chip summed over this and the remaining play-throughs).

Greedy bid: the gain of the best take now (by that evaluation) over the gain of the n-th best
single card (what is left, roughly, for the last of n pickers), converted to chips at
``purple_chips_per_point``, halved so the bid stays below break-even, and at most twice an even
share of the chips held over the rounds left in the play-through.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules_ref import arche_noah as rules

from ...balance.base import BalanceGame, State, Tracker

CARDS = "points per seat from cards"
BONUS = "points per seat from set-of-four bonus"
PURPLE = "points per seat from purple chips"
GREEN = "points per seat from green chips"
TOTAL = "points per seat (total)"
SETS = "sets of four per game"
SPENT = "green chips spent per game"
SPENT_TWO = "green chips spent to take 2 per game"
PAID = "green 2-takes that paid off per game"


def taken_cards(offer: list[int], mask: int) -> list[int]:
    """The cards of a pick action (a bit mask over the sorted offer)."""
    return [card for i, card in enumerate(offer) if mask >> i & 1]


class ArcheNoah(BalanceGame):
    game_id: ClassVar[str] = "arche-noah"
    ratios: ClassVar[dict[str, tuple[str, str]]] = {
        "share of points from set-of-four bonus": (BONUS, TOTAL),
        "share of green 2-takes that paid off": (PAID, SPENT_TWO),
    }

    def make_game(self) -> Any:
        game = rules.ArcheNoahGame(self.config, self.players)
        self.faces = [game.card(card) for card in range(game.num_cards)]
        return game

    # -- evaluation -------------------------------------------------------------------------

    def card_points(self, cards: list[int]) -> int:
        """Cards plus set-of-four bonus of a collection, scored as it stands."""
        faces = [self.faces[card] for card in cards]
        score = rules.score_collection(
            self.config, {"cards": faces, "purple": 0, "green": 0, "playthrough": 1}
        )
        return score["cards"] + score["bonus"]

    def green_value(self, playthrough: int) -> int:
        """What a green chip kept from now on still earns."""
        points = self.config["scoring"]["green_points_per_chip"]
        last = self.config["playthroughs"]
        return sum(points[min(p, len(points)) - 1] for p in range(playthrough, last + 1))

    def chips_and_earlier(self, state: State, seat: int) -> tuple[float, int]:
        """(points of finished play-throughs plus purple chips, points per green chip kept)."""
        earlier = sum(scores[seat]["total"] for scores in state.playthrough_scores)
        purple = state.purple[seat] // self.config["scoring"]["purple_chips_per_point"]
        return earlier + purple, self.green_value(state.playthrough)

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return float(state.returns()[seat])
        fixed, per_green = self.chips_and_earlier(state, seat)
        return fixed + self.card_points(state.collections[seat]) + state.green[seat] * per_green

    def pick_values(self, state: State, seat: int, masks: list[int]) -> list[tuple[float, int]]:
        """Each pick (mask) with the evaluation after it; any take but one card spends a chip."""
        offer, mine, green = state.offer, state.collections[seat], state.green[seat]
        fixed, per_green = self.chips_and_earlier(state, seat)
        out = []
        for mask in masks:
            taken = taken_cards(offer, mask)
            kept = green - (1 if len(taken) != 1 and offer else 0)
            out.append((fixed + self.card_points(mine + taken) + kept * per_green, mask))
        return out

    def greedy_bid(self, state: State, seat: int) -> int:
        offer, green = state.offer, state.green[seat]
        if not offer:
            return 0
        now = self.evaluate(state, seat)
        allowed = rules.pick_options(self.config, {"offer": len(offer), "green": green})["take"]
        masks = [m for m in range(1 << len(offer)) if m.bit_count() in allowed]
        values = self.pick_values(state, seat, masks)
        best = max(v for v, _ in values) - now
        singles = sorted((v - now for v, m in values if m.bit_count() == 1), reverse=True)
        left = singles[min(self.players, len(singles)) - 1]
        chips = (best - left) * self.config["scoring"]["purple_chips_per_point"] / 2
        per_round = self.players * self.config["cards_per_player_in_offer"]
        rounds_left = 1 + -(-state.pile_size // per_round)
        cap = 2 * state.purple[seat] // rounds_left
        return max(0, min(cap, int(chips)))

    def action_values(self, state: State, rng: random.Random) -> list[tuple[float, int]]:
        seat = state.current_player()
        if state.phase == "pick":
            return self.pick_values(state, seat, state.legal_actions())
        if state.phase == "bid":
            bid = self.greedy_bid(state, seat)
            # the greedy bid first; for lookahead, a few bids around it to try
            near = {bid: 3.0, bid // 2: 2.0, 0: 1.0, bid + 2: 0.5}
            return [(near.get(a, 0.0), a) for a in state.legal_actions()]
        return super().action_values(state, rng)

    # -- report -----------------------------------------------------------------------------

    def labels(self, state: State, action: int) -> list[str]:
        if state.phase == "bid":
            return [f"bid {action}"]
        if state.phase == "pick":
            taken = taken_cards(state.offer, action)
            values = [f"card value {self.game.card(card)['value']}" for card in taken]
            return [f"take {len(taken)}", *values]
        return []

    def tracker(self) -> Tracker:
        return ArcheNoahTracker(self)


class ArcheNoahTracker(Tracker):
    """Rounds, sets of four and green chips: what each chip bought and whether it paid off.

    A green chip spent to take 2 cards pays off when, at the end of its play-through, those
    cards add more to the collection than the chip would have earned if kept.
    """

    def __init__(self, balance: ArcheNoah) -> None:
        self.balance = balance
        self.round_count = 0
        self.playthrough = 1
        self.snapshot: list[list[int]] = []
        self.pending: list[list[int]] | None = None
        self.uses: list[tuple[int, int, list[int]]] = []  # (seat, playthrough, cards taken)
        self.sets = 0
        self.spent = 0
        self.spent_two = 0
        self.paid = 0

    def before(self, state: State, action: int) -> None:
        if state.phase == "bid" and all(bid is None for bid in state.bids):
            self.round_count += 1
        if state.phase != "pick":
            return
        seat, offer = state.current_player(), state.offer
        taken = taken_cards(offer, action)
        collections = state.collections
        collections[seat] += taken
        self.pending = collections
        if len(taken) != 1 and offer:
            self.spent += 1
            if len(taken) >= 2:
                self.spent_two += 1
                self.uses.append((seat, state.playthrough, taken))

    def after(self, state: State) -> None:
        if state.is_terminal() or state.playthrough != self.playthrough:
            final = self.pending if self.pending is not None else self.snapshot
            self.finish_playthrough(final)
            self.playthrough = state.playthrough
        if not state.is_terminal():
            self.snapshot = state.collections
        self.pending = None

    def finish_playthrough(self, collections: list[list[int]]) -> None:
        game, balance = self.balance.game, self.balance
        for cards in collections:
            animals = [game.card_animal(card) for card in cards]
            self.sets += sum(1 for a in set(animals) if animals.count(a) >= 4)
        chip = balance.green_value(self.playthrough)
        for seat, playthrough, taken in self.uses:
            if playthrough != self.playthrough:
                continue
            mine = collections[seat]
            without = [card for card in mine if card not in taken]
            if balance.card_points(mine) - balance.card_points(without) > chip:
                self.paid += 1

    def rounds(self, state: State) -> int:
        return self.round_count

    def extras(self, state: State) -> dict[str, float]:
        n = self.balance.players
        sums = dict.fromkeys(("cards", "bonus", "purple", "green", "total"), 0)
        for scores in state.playthrough_scores:
            for score in scores:
                for key in sums:
                    sums[key] += score.get(key, 0)
        return {
            CARDS: sums["cards"] / n,
            BONUS: sums["bonus"] / n,
            PURPLE: sums["purple"] / n,
            GREEN: sums["green"] / n,
            TOTAL: sums["total"] / n,
            SETS: float(self.sets),
            SPENT: float(self.spent),
            SPENT_TWO: float(self.spent_two),
            PAID: float(self.paid),
        }
