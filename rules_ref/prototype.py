"""Reference rules for ``prototype``, the engine of games made from YAML alone.

A prototype has no rules of its own beyond Setup: who plays (the seated seat colours), in
which order Setup hands each step's pieces out, and the score counters' bounds. ``config`` is
the engine's rule config: the player range, the manifest's setup steps (``count`` as written,
``players`` if given, and ``target``: ``hand``, ``seat`` or ``shared``) and the score bounds.
No I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RuleError

#: Score bounds when the game sets none.
SCORE_BOUNDS = {"min": -999, "max": 999}


def _is_int(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == int(value)


def _field(inp: Any, name: str, kind: str) -> Any:
    """``inp[name]``, refused when missing or not of ``kind`` ("int" or "list"), as Lua sees
    JSON (``{}`` is an empty list)."""
    value = inp.get(name)
    if value is None:
        raise RuleError("missing_input", f"missing input {name!r}")
    if kind == "list":
        if isinstance(value, dict) and not value:
            return []
        if not isinstance(value, list | tuple) or (value and value[0] is None):
            raise RuleError("not_a_list", f"input {name!r} must be a list")
    elif not _is_int(value):
        raise RuleError("not_an_integer", f"input {name!r} must be an integer")
    return value


def _colours(inp: dict, name: str) -> list[str]:
    value = _field(inp, name, "list")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RuleError("not_a_colour", f"{name}[{i + 1}] must be a colour name")
    return list(value)


def step_count(step: dict, players: int) -> int:
    """How many pieces the step hands each player at ``players`` players."""
    if "players" in step and players not in step["players"]:
        return 0
    count = step["count"]
    if _is_int(count):
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
    seats, seated = _colours(inp, "seats"), _colours(inp, "seated")
    low, high = _field(inp, "min", "int"), _field(inp, "max", "int")
    slots = [slot for slot, colour in enumerate(seats) if colour in seated]
    players = [seats[slot] for slot in slots]
    unlisted: list[str] = []
    for colour in seated:
        if colour not in seats and colour not in unlisted:
            unlisted.append(colour)
    chooser = inp.get("chooser")
    if chooser is not None and not isinstance(chooser, str):
        raise RuleError("not_a_colour", "input 'chooser' must be a colour name")
    start = players.index(chooser) if chooser in players else 0
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
    players = _colours(inp, "players")
    start = _field(inp, "start", "int")
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
    score, delta = _field(inp, "score", "int"), _field(inp, "delta", "int")
    bounds = config.get("score") or SCORE_BOUNDS
    return {"score": int(min(bounds["max"], max(bounds["min"], score + delta)))}


FUNCTIONS: dict[str, Callable[[dict, dict], dict]] = {
    "seating": seating,
    "deals": deals,
    "adjust_score": adjust_score,
}
