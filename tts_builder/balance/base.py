"""What the bots and the report need from a game, and the defaults every game shares.

A game module subclasses :class:`BalanceGame`: it builds the ``rules_ref`` game from the rule
config, says how good a position is for a seat (the greedy bot's evaluation), names the choices
it counts and keeps a :class:`Tracker` of its own numbers. Only the OpenSpiel-style state API
(``new_initial_state``, ``current_player``, ``legal_actions``, ``chance_outcomes``,
``apply_action``, ``is_terminal``, ``returns``, ``clone``) and a few documented per-game facts
are used, so additive changes to ``rules_ref`` do not break it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

State = Any


class Tracker:
    """Per-game numbers beyond the scores, fed every action of one game."""

    def before(self, state: State, action: int) -> None:
        """Called before a seat's ``action`` is applied (never for chance)."""

    def after(self, state: State) -> None:
        """Called after every action, chance included."""

    def rounds(self, state: State) -> int:
        """The game's length in rounds once it is over (``state.round`` by default)."""
        return int(getattr(state, "round", 0))

    def extras(self, state: State) -> dict[str, float]:
        """The game's numbers once it is over (a key missing in one game counts as 0)."""
        return {}


class BalanceGame:
    """One game of the three, for a rule config, a player count and a variant."""

    game_id: ClassVar[str] = ""
    #: Whether final scores are points (a margin of victory means something).
    has_margin: ClassVar[bool] = True
    #: Pooled shares in the report: name -> (numerator extra, denominator extra).
    ratios: ClassVar[dict[str, tuple[str, str]]] = {}
    #: What one unit of ``rounds`` is called in the report.
    round_name: ClassVar[str] = "rounds"

    def __init__(self, config: dict[str, Any], players: int, variant: str | None) -> None:
        self.config = config
        self.players = players
        self.variant = variant
        self.game = self.make_game()

    def make_game(self) -> Any:
        raise NotImplementedError

    def new_state(self) -> State:
        return self.game.new_initial_state()

    # -- the bots ---------------------------------------------------------------------------

    def evaluate(self, state: State, seat: int) -> float:
        """How good ``state`` is for ``seat``: the greedy bot's evaluation."""
        raise NotImplementedError

    def outcome(self, state: State, seat: int) -> float:
        """What a lookahead playout ending in ``state`` (finished or cut short) is worth to
        ``seat``: by default its evaluation minus the best evaluation of another seat (once
        the game is over, the score margin)."""
        others = [self.evaluate(state, s) for s in range(self.players) if s != seat]
        return self.evaluate(state, seat) - max(others, default=0.0)

    def action_values(self, state: State, rng: random.Random) -> list[tuple[float, int]]:
        """Every legal action with the evaluation of the position it leads to (for the seat to
        move), by applying it to a copy. A game may override this where the immediate position
        says nothing (e.g. a bid)."""
        seat = state.current_player()
        values = []
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            values.append((self.evaluate(after, seat), action))
        return values

    # -- the report -------------------------------------------------------------------------

    def scores(self, state: State) -> list[float]:
        return [float(v) for v in state.returns()]

    def winners(self, state: State) -> list[int]:
        scores = self.scores(state)
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def labels(self, state: State, action: int) -> list[str]:
        """Names under which a seat's choice is counted."""
        return []

    def tracker(self) -> Tracker:
        return Tracker()


def balance_game(game_id: str, config: dict[str, Any], players: int, variant: str | None) -> Any:
    """The balance view of ``game_id`` (its registered ``balance`` part) for a rule config; a
    one-line error for a game without one."""
    from ..errors import BuildError
    from ..games import game, game_ids

    cls = game(game_id).part("balance") if game_id in game_ids() else None
    if cls is None:
        known = ", ".join(g for g in game_ids() if game(g).balance)
        raise BuildError(f"simulate: no bots for {game_id!r} (games: {known})")
    return cls(config, players, variant)
