"""Arche Noah - Flood Race (the semi-cooperative race to the Ark) for the bots and the report.

Greedy evaluation for one seat: a finished game is +1000 when the seat wins, 0 when another
does, -1000 when the flood wins. Otherwise minus the sum, over the animals still on the map, of
each one's cheapest cost to the Ark (on an empty map, as the flood stands), weighted by how
close the flood is (1 + 2 / (1 + rows between the animal and the flood)); a seat that has
gone out (its species all aboard before the last animal) loses 200. A move is judged by the
position it leaves; the turn ends when no move improves on standing still.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rules_ref import arche_noah_flood as rules

from ...balance.base import BalanceGame, State, Tracker

WIN, OUT_PENALTY = 1000.0, 200.0
WON_ROUNDS = "rounds of the games won (0 when lost)"
TURNS = "turns per game"
WON_TURNS = "turns of the games won (0 when lost)"


class Flood(BalanceGame):
    game_id: ClassVar[str] = "arche-noah-flood"
    has_margin: ClassVar[bool] = False
    ratios: ClassVar[dict[str, tuple[str, str]]] = {
        "race length when won (rounds)": (WON_ROUNDS, "all animals aboard"),
        "race length when won (turns)": (WON_TURNS, "all animals aboard"),
    }

    def make_game(self) -> Any:
        # the rules mode of the (variant's) config: the rules' own "variant" argument
        return rules.FloodGame(self.config, self.players, self.config["mode"])

    def winners(self, state: State) -> list[int]:
        return [seat for seat, value in enumerate(state.returns()) if value > 0]

    def piece_cost(self, state: State, piece: int, where: Any) -> float:
        """Weighted cost to the Ark of ``piece`` standing at ``where`` (0 once aboard)."""
        if not isinstance(where, list | tuple):
            return 0.0
        game = self.game
        hexes = game.ark_map(game.species_of(piece), state.flood_count())
        cost = hexes.get((int(where[0]), int(where[1])))
        if cost is None:
            return WIN  # cut off: as bad as it gets
        ahead = max(0, int(where[0]) - state.flood_row)
        return cost * (1 + 2 / (1 + ahead))

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return WIN * state.returns()[seat]
        value = -sum(self.piece_cost(state, p, at) for p, at in enumerate(state.positions))
        return value - (OUT_PENALTY if state.out[seat] else 0.0)

    def outcome(self, state: State, seat: int) -> float:
        return self.evaluate(state, seat)

    def action_values(self, state: State, rng: random.Random) -> list[tuple[float, int]]:
        """Moves judged without playing them: a move changes one animal's place (and, into
        the Ark, who is out or has won); the flood does not move during a turn."""
        seat, game = state.current_player(), self.game
        now = self.evaluate(state, seat)
        values = []
        for action in state.legal_actions():
            if action == rules.END_TURN:
                values.append((now, action))
                continue
            _, piece, dest = game.decode_action(action)
            if dest == rules.ARK and len(state.arrived) + 1 == game.num_pieces:
                after = state.clone()
                after.apply_action(action)
                values.append((self.evaluate(after, seat), action))
                continue
            here = self.piece_cost(state, piece, state.positions[piece])
            there = self.piece_cost(state, piece, None if dest == rules.ARK else list(dest))
            value = now + here - there
            species = game.species_of(piece)
            completes = state.arrived.count(species) + 1 == game.per_species
            if dest == rules.ARK and completes and state.cards[seat] == species and not game.junior:
                value -= OUT_PENALTY
            values.append((value, action))
        return values

    def labels(self, state: State, action: int) -> list[str]:
        if action == rules.END_TURN:
            return ["end turn"]
        pool, piece, dest = self.game.decode_action(action)
        species = self.game.species_of(piece)
        where = "board the Ark" if dest == rules.ARK else f"enter {self.terrain(dest)}"
        return [f"move {species}", where, *(["use a sun"] if pool == rules.POOL_SUN else [])]

    def terrain(self, hex_: tuple[int, int]) -> str:
        letter = self.config["map"]["terrain"][hex_[0]][hex_[1]]
        return self.config["terrain"].get(letter, letter)

    def tracker(self) -> Tracker:
        return FloodTracker(self.game.dice_count)


class FloodTracker(Tracker):
    """How each game ended: which animal the flood took, who was last into the Ark; turns
    (one per movement roll, counted when its last die is read)."""

    def __init__(self, dice: int) -> None:
        self.dice = dice
        self.turns = 0
        self.rolling = False
        self.rolled = 0

    def after(self, state: State) -> None:
        if self.rolling and self.rolled + 1 == self.dice:
            self.turns += 1
        self.rolling, self.rolled = state.phase == "roll", len(state.rolled)

    def extras(self, state: State) -> dict[str, float]:
        outcome = state.outcome or "won"
        kind, _, rest = outcome.partition(":")
        out: dict[str, float] = {
            "animals aboard per game": float(len(state.arrived)),
            TURNS: float(self.turns),
        }
        if kind == "won":
            out["all animals aboard"] = 1.0
            out[WON_ROUNDS] = float(state.round)
            out[WON_TURNS] = float(self.turns)
            if state.arrived:
                out[f"last into the Ark: {state.arrived[-1]}"] = 1.0
        else:
            out[f"flood wins: {kind}"] = 1.0
            species = rest.split(" at ")[0].strip()
            if kind in ("drowned", "cut off") and species:
                out[f"{kind}: {species}"] = 1.0
        return out
