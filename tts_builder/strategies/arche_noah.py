"""Hypothesis inputs for Arche Noah's rule functions, built from the game's rule config."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

Strategies = dict[str, st.SearchStrategy[Any]]


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
                "bids": st.lists(st.integers(0, 3) | st.integers(0, max_purple), min_size=n,
                                 max_size=n),
                "start": st.integers(0, n - 1),
            }
        )

    counts = st.integers(low, high)
    return {
        "score_collection": collection,
        "pick_order": counts.flatmap(bids_for),
        "setup": st.fixed_dictionaries({"players": counts}),
        "offer_size": st.fixed_dictionaries(
            {"players": counts, "pile": st.integers(0, len(deck))}
        ),
        "winners": st.fixed_dictionaries(
            {"totals": st.lists(st.integers(-40, 80) | st.integers(0, 2), min_size=low,
                                max_size=high)}
        ),
        "pick_options": st.fixed_dictionaries(
            {"offer": st.integers(0, high * config["cards_per_player_in_offer"]),
             "green": st.integers(0, max_green)}
        ),
    }


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
