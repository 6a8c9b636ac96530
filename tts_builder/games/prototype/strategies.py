"""Hypothesis inputs for the prototype engine's rule functions, from the game's rule config."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ...payload import Whole
from ..arche_noah.strategies import COLOURS, SEATING

Strategies = dict[str, st.SearchStrategy[Any]]

#: Tabletop Simulator's player colours (the seats a save may list, and where people may sit).
PLAYER_COLORS = ["White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple",
                 "Pink", "Grey", "Black"]  # fmt: skip

#: What an ``eval`` payload of each function may hold (see ``tts_builder.payload``).
PAYLOADS: dict[str, Any] = {
    "seating": SEATING,
    "deals": {"players": COLOURS, "start": Whole()},
    "adjust_score": {"score": Whole(), "delta": Whole()},
}


def strategies(config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Seatings with too few, enough and too many players (some at colours no seat lists);
    deals for every player count around the range, starts in and out of range; score presses
    around and beyond the counters' bounds."""
    low, high = players
    bounds = config.get("score") or {"min": -999, "max": 999}

    @st.composite
    def seating(draw: st.DrawFn) -> dict[str, Any]:
        seats = draw(st.lists(st.sampled_from(PLAYER_COLORS), unique=True, min_size=1,
                              max_size=high + 1))  # fmt: skip
        some = st.lists(st.sampled_from(seats), unique=True, min_size=min(low, len(seats)),
                        max_size=min(high, len(seats)))  # fmt: skip
        seated = draw(some | st.lists(st.sampled_from(PLAYER_COLORS), unique=True,
                                      max_size=high + 2))  # fmt: skip
        inp: dict[str, Any] = {"seats": seats, "seated": seated, "min": low, "max": high}
        if draw(st.integers(0, 3)) > 0:
            inp["chooser"] = draw(st.sampled_from(seated or PLAYER_COLORS))
        return inp

    @st.composite
    def dealing(draw: st.DrawFn) -> dict[str, Any]:
        players = draw(st.lists(st.sampled_from(PLAYER_COLORS), unique=True,
                                min_size=max(0, low - 1), max_size=high + 1))  # fmt: skip
        start = draw(st.integers(0, max(0, len(players) - 1)) | st.integers(-1, len(players)))
        return {"players": players, "start": start}

    score = st.integers(bounds["min"] - 3, bounds["max"] + 3)
    return {
        "seating": seating(),
        "deals": dealing(),
        "adjust_score": st.fixed_dictionaries(
            {"score": score, "delta": st.sampled_from([-1, 1, -5, 5, 0]) | st.integers(-50, 50)}
        ),
    }
