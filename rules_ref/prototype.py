"""Reference rules for ``prototype``, the engine of games made from YAML alone.

A prototype has no rules of its own beyond Setup: who plays (the seated seat colours), in
which order Setup hands each step's pieces out, and the score counters' bounds. ``config`` is
the engine's rule config: the player range, the manifest's setup steps (``count`` as written,
``players`` if given, and ``target``: ``hand``, ``seat`` or ``shared``) and the score bounds.
No I/O.
"""

from __future__ import annotations

from collections.abc import Callable

from .common import chooser_start, colours, field, is_int, seat_players
from .errors import RuleError

#: Score bounds when the game sets none.
SCORE_BOUNDS = {"min": -999, "max": 999}


def step_count(step: dict, players: int) -> int:
    """How many pieces the step hands each player at ``players`` players."""
    if "players" in step and players not in step["players"]:
        return 0
    count = step["count"]
    if is_int(count):
        return int(count)
    for entry in count:
        if players in entry["players"]:
            return int(entry["count"])
    return 0


def seating(config: dict, inp: dict) -> dict:
    """Who plays: the seated seat colours, in seat order.

    ``seats``: the seat colours in seat order; ``seated``: the colours of the people at the
    table; ``chooser``: who pressed Setup; ``min``/``max``: the player range. ``players`` are
    the seated seat colours in seat order, ``slots`` their 0-based seat indexes, ``unlisted``
    the seated colours that are no seat (in ``seated`` order), ``enough`` whether the count is
    within the range, ``start`` the chooser's player index if they play (else 0).
    """
    seats, seated = colours(inp, "seats"), colours(inp, "seated")
    low, high = field(inp, "min", "int"), field(inp, "max", "int")
    players, slots, unlisted = seat_players(seats, seated)
    start = chooser_start(inp.get("chooser"), players)
    return {"players": players, "slots": slots, "unlisted": unlisted,
            "enough": low <= len(players) <= high, "start": start}  # fmt: skip


def deals(config: dict, inp: dict) -> dict:
    """What Setup hands out, in dealing order.

    ``players``: the players' colours in seat order; ``start``: the 0-based player who starts.
    One ``{step, color, slot}`` per piece: step by step, round by round, each round from the
    start player on in seat order. ``slot`` is the piece's 1-based spot: in the player's hand
    (counting across hand steps), at the player's own seat spot (per step), or at a shared spot
    (per step, counting every player's pieces).
    """
    players = colours(inp, "players")
    start = field(inp, "start", "int")
    n = len(players)
    if n > 0 and not 0 <= start < n:
        raise RuleError("bad_start", f"start {start} outside 0..{n - 1}")
    order = players[int(start) :] + players[: int(start)]
    hand = {colour: 0 for colour in players}
    found = []
    for index, step in enumerate(config["steps"], start=1):
        own = {colour: 0 for colour in players}
        shared = 0
        for _round in range(step_count(step, n)):
            for colour in order:
                if step["target"] == "hand":
                    hand[colour] += 1
                    slot = hand[colour]
                elif step["target"] == "seat":
                    own[colour] += 1
                    slot = own[colour]
                else:
                    shared += 1
                    slot = shared
                found.append({"step": index, "color": colour, "slot": slot})
    return {"deals": found}


def adjust_score(config: dict, inp: dict) -> dict:
    """A score counter after a press: ``score + delta``, kept within the game's bounds."""
    score, delta = field(inp, "score", "int"), field(inp, "delta", "int")
    bounds = config.get("score") or SCORE_BOUNDS
    return {"score": int(min(bounds["max"], max(bounds["min"], score + delta)))}


FUNCTIONS: dict[str, Callable[[dict, dict], dict]] = {
    "seating": seating,
    "deals": deals,
    "adjust_score": adjust_score,
}
