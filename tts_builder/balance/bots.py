"""Bots that play any game through its :class:`~tts_builder.balance.base.BalanceGame`.

- ``random``: uniform over the legal actions.
- ``greedy``: the action whose resulting position the game's evaluation likes best (ties: a
  random one of the best).
- ``lookahead``: flat Monte-Carlo. The greedy bot's ``width`` best candidates are each played
  out ``playouts`` times with every seat greedy (chance sampled), to the end or for at most
  ``horizon`` decisions; the candidate with the best mean outcome (the game's
  ``BalanceGame.outcome``: the score margin, or the evaluation's where cut short) is played.

Every bot draws only from the random generator it is given, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..errors import BuildError
from .base import BalanceGame, State

MAX_ACTIONS = 200_000
#: A game still going after this many decisions has stalled (the longest seen: about 600).
MAX_DECISIONS = 2_000


class Bot(Protocol):
    name: str

    def choose(self, game: BalanceGame, state: State, rng: random.Random) -> int: ...


def sample_chance(state: State, rng: random.Random) -> int:
    """A chance outcome drawn with its probability."""
    outcomes = state.chance_outcomes()
    actions = [a for a, _ in outcomes]
    return rng.choices(actions, [p for _, p in outcomes])[0]


@dataclass(frozen=True)
class RandomBot:
    name: str = "random"

    def choose(self, game: BalanceGame, state: State, rng: random.Random) -> int:
        return rng.choice(state.legal_actions())


def ranked(values: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """Best value first; equal values in action order."""
    return sorted(values, key=lambda va: (-va[0], va[1]))


@dataclass(frozen=True)
class GreedyBot:
    name: str = "greedy"

    def choose(self, game: BalanceGame, state: State, rng: random.Random) -> int:
        values = ranked(game.action_values(state, rng))
        best = [action for value, action in values if value == values[0][0]]
        return best[0] if len(best) == 1 else rng.choice(best)


def play_out(
    game: BalanceGame, state: State, rng: random.Random, horizon: int | None = None
) -> State:
    """Play ``state`` on in place, every seat greedy: to the end, or ``horizon`` decisions."""
    greedy = GreedyBot()
    decisions = 0
    for _ in range(MAX_ACTIONS):
        if state.is_terminal() or decisions >= (horizon or MAX_DECISIONS):
            return state
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(greedy.choose(game, state, rng))
            decisions += 1
    raise RuntimeError(f"{game.game_id}: a playout did not end in {MAX_ACTIONS} actions")


@dataclass(frozen=True)
class LookaheadBot:
    playouts: int = 8
    width: int = 4
    horizon: int | None = None
    name: str = "lookahead"

    def choose(self, game: BalanceGame, state: State, rng: random.Random) -> int:
        seat = state.current_player()
        candidates = [action for _, action in ranked(game.action_values(state, rng))]
        candidates = candidates[: self.width]
        if len(candidates) == 1:
            return candidates[0]
        best_action, best_value = candidates[0], float("-inf")
        for action in candidates:
            total = 0.0
            for _ in range(self.playouts):
                trial = state.clone()
                trial.apply_action(action)
                total += game.outcome(play_out(game, trial, rng, self.horizon), seat)
            if total > best_value:
                best_action, best_value = action, total
        return best_action


BOT_NAMES = ("random", "greedy", "lookahead")


def make_bots(
    names: Sequence[str], players: int, playouts: int = 8, horizon: int | None = None
) -> list[Bot]:
    """One bot per seat: the names in seat order, the list repeated when shorter."""
    if not names:
        raise BuildError("--bots: give at least one bot name")
    bots: list[Bot] = []
    for name in names:
        if name == "random":
            bots.append(RandomBot())
        elif name == "greedy":
            bots.append(GreedyBot())
        elif name == "lookahead":
            bots.append(LookaheadBot(playouts=playouts, horizon=horizon))
        else:
            raise BuildError(f"--bots: unknown bot {name!r} (bots: {', '.join(BOT_NAMES)})")
    return [bots[seat % len(bots)] for seat in range(players)]
