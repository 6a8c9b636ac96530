"""Ark & Noah (worker placement, building and loading the Ark) for the bots and the report.

Greedy evaluation for one seat: the final score if the game ended now (``final_scoring`` of the
position: VP so far, hull-majority bonus, leftovers and animals in hand as penalties), plus what
the hand promises: half the VP of every pair held whole, a quarter of the VP of a tile whose
partner is still to be had. Every choice is judged by applying it to a copy of the game.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules_ref import ark_and_noah as rules

from ...balance.base import BalanceGame, State, Tracker

PAIR_SHARE, SINGLE_SHARE = 0.5, 0.25
#: action_to_string prefixes counted under one name (anything else: its first word).
_KINDS = {
    "load": "load a pair",
    "divider": "build a divider",
    "pitch": "build pitch",
    "food": "place food",
    "take": "exchange a tile",
    "bonus": "trading bonus",
    "bag": "choose a bag",
    "trade": "trade",
    "pass": "pass",
}


class Ark(BalanceGame):
    game_id: ClassVar[str] = "ark-and-noah"
    ratios: ClassVar[dict[str, tuple[str, str]]] = {
        "share of VP from loading": ("VP per seat from loading", "VP per seat (total)"),
    }

    def make_game(self) -> Any:
        return rules.Game(self.config, self.players)

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return float(state.returns()[seat])
        final = rules.final_scoring(self.config, state.final_input())
        value = float(final["scores"][state.colors[seat]])
        hand = set(state.hands[seat])
        aboard = {species for species, _ in state.loaded}
        for tile in hand:
            vp = state.species(tile)["vp"]
            if tile ^ 1 in hand:
                value += PAIR_SHARE * vp / 2  # each of the two tiles adds half
            elif tile // 2 not in aboard:
                value += SINGLE_SHARE * vp
        return value

    def labels(self, state: State, action: int) -> list[str]:
        text = state.action_to_string(action)
        first, _, rest = text.partition(" ")
        if first == "space":
            return [f"space {rest}"]
        if first == "load":
            return ["load a pair", f"load {rest.split(' at ')[0]}"]
        if first in _KINDS:
            return [_KINDS[first]]
        return ["keep a tile" if rest in rules.SEXES else first]

    def tracker(self) -> Tracker:
        return ArkTracker(self.players)


class ArkTracker(Tracker):
    """VP by source (from the game's score events) and pairs loaded."""

    def __init__(self, players: int) -> None:
        self.players = players

    def extras(self, state: State) -> dict[str, float]:
        out: dict[str, float] = {"pairs loaded per game": float(len(state.loaded))}
        total = 0.0
        for _, vp, kind in state.events:
            key = f"VP per seat from {kind.replace('_', ' ')}"
            out[key] = out.get(key, 0.0) + vp / self.players
            total += vp / self.players
        out["VP per seat (total)"] = total
        return out
