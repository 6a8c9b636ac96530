"""Hypothesis inputs for Arche Noah's rule functions, built from the game's rule config."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from ...payload import MAX_SEATS, ListOf, Whole

Strategies = dict[str, st.SearchStrategy[Any]]

#: The rule-config keys each function's generator reads (see ``tts_builder.strategies``).
READS: dict[str, tuple[str, ...]] = {
    "score_collection": ("animals", "card_values", "chips", "playthroughs"),
    "pick_order": ("chips",),
    "setup": (),
    "offer_size": ("animals", "card_values"),
    "winners": (),
    "pick_options": ("cards_per_player_in_offer", "chips"),
    "seating": (),
    "turn": (),
    "bid_range": ("chips",),
    "pass_start": (),
}

#: What an ``eval`` payload of each function may hold (see ``tts_builder.payload``): a list
#: with an entry per seat, or of colours, holds at most MAX_SEATS.
PER_SEAT = ListOf(Whole(), most=MAX_SEATS)
COLOURS = ListOf(str, most=MAX_SEATS)
SEATING = {"seats": COLOURS, "seated": COLOURS, "min": Whole(), "max": Whole(), "chooser": str}
PAYLOADS: dict[str, Any] = {
    "score_collection": {
        "cards": ListOf({"animal": str, "value": Whole()}),
        "purple": Whole(),
        "green": Whole(),
        "playthrough": Whole(),
    },
    "pick_order": {"bids": PER_SEAT, "start": Whole()},
    "setup": {"players": Whole()},
    "offer_size": {"players": Whole(), "pile": Whole()},
    "winners": {"totals": PER_SEAT},
    "pick_options": {"offer": Whole(), "green": Whole()},
    "seating": SEATING,
    "turn": {
        "phase": str,
        "players": Whole(),
        "start": Whole(),
        "turn": Whole(),
        "order": PER_SEAT,
    },
    "bid_range": {"purple": Whole()},
    "pass_start": {"players": Whole(), "start": Whole()},
}


def strategies(config: dict[str, Any], players: tuple[int, int]) -> Strategies:
    """Inputs for Arche Noah's rule functions: realistic collections, bids full of ties."""
    animals = config["animals"]
    values = config["card_values"]
    deck = [{"animal": a, "value": v} for a in animals for v in values]
    low, high = players
    max_purple = max(entry["purple"] for entry in config["chips"])
    max_green = max(entry["green"] for entry in config["chips"])

    # Collections: a few animals, each with 0..all of its cards (k = 1..4 all likely).
    per_animal = st.sampled_from(animals).flatmap(
        lambda a: st.lists(st.sampled_from(values), unique=True, max_size=len(values)).map(
            lambda vs, a=a: [{"animal": a, "value": v} for v in vs]
        )
    )
    grouped = st.lists(per_animal, max_size=6).map(_unique_cards)
    scattered = st.lists(st.sampled_from(deck), unique_by=_card_key, max_size=len(deck))
    collection = st.fixed_dictionaries(
        {
            "cards": st.one_of(grouped, scattered),
            "purple": st.integers(0, max_purple * 2),
            "green": st.integers(0, max_green),
            "playthrough": st.integers(1, config["playthroughs"]),
        }
    )

    def bids_for(n: int) -> st.SearchStrategy[dict[str, Any]]:
        return st.fixed_dictionaries(
            {
                "bids": st.lists(
                    st.integers(0, 3) | st.integers(0, max_purple), min_size=n, max_size=n
                ),
                "start": st.integers(0, n - 1),
            }
        )

    counts = st.integers(low, high)
    turns = counts.flatmap(
        lambda n: st.fixed_dictionaries(
            {
                "phase": st.sampled_from(["bid", "pick"]),
                "players": st.just(n),
                "start": st.integers(0, n - 1),
                "turn": st.integers(0, n - 1),
                "order": st.permutations(list(range(n))),
            }
        )
    )
    return {
        "score_collection": collection,
        "pick_order": counts.flatmap(bids_for),
        "setup": st.fixed_dictionaries({"players": counts}),
        "offer_size": st.fixed_dictionaries({"players": counts, "pile": st.integers(0, len(deck))}),
        "winners": st.fixed_dictionaries(
            {
                "totals": st.lists(
                    st.integers(-40, 80) | st.integers(0, 2), min_size=low, max_size=high
                )
            }
        ),
        "pick_options": st.fixed_dictionaries(
            {
                "offer": st.integers(0, high * config["cards_per_player_in_offer"]),
                "green": st.integers(0, max_green),
            }
        ),
        "seating": seating_inputs(players, chooser=True),
        "turn": turns,
        "bid_range": st.fixed_dictionaries({"purple": st.integers(0, max_purple)}),
        "pass_start": counts.flatmap(
            lambda n: st.fixed_dictionaries({"players": st.just(n), "start": st.integers(0, n - 1)})
        ),
    }


#: Tabletop Simulator's player colours (the seats a save may list, and where people may sit).
PLAYER_COLORS = [
    "White",
    "Brown",
    "Red",
    "Orange",
    "Yellow",
    "Green",
    "Teal",
    "Blue",
    "Purple",
    "Pink",
    "Grey",
    "Black",
]


def seating_inputs(players: tuple[int, int], chooser: bool) -> st.SearchStrategy[Any]:
    """Seat lists, the people at the table (some at colours no seat lists), who pressed Setup."""
    low, high = players

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        seats = draw(
            st.lists(st.sampled_from(PLAYER_COLORS), unique=True, min_size=1, max_size=high + 1)
        )
        seated = draw(st.lists(st.sampled_from(PLAYER_COLORS), unique=True, max_size=high + 2))
        inp: dict[str, Any] = {"seats": seats, "seated": seated, "min": low, "max": high}
        if chooser and draw(st.integers(0, 3)) > 0:
            inp["chooser"] = draw(st.sampled_from(seated or PLAYER_COLORS))
        return inp

    return build()


def _card_key(card: dict[str, Any]) -> tuple[str, int]:
    return card["animal"], card["value"]


def _unique_cards(groups: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    seen: set[tuple[str, int]] = set()
    cards = []
    for group in groups:
        for card in group:
            if _card_key(card) not in seen:
                seen.add(_card_key(card))
                cards.append(card)
    return cards
