"""Ark & Noah animal tiles: the tile list, a tile side's layout fields and the starting deal."""

from __future__ import annotations

import random
from typing import Any


def tile_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every animal tile (male then female of each species, roster order) with its fields."""
    out = []
    for index, s in enumerate(data["species"]):
        for sex, symbol in (("male", "\u2642"), ("female", "\u2640")):
            shown = s.get("female_name", s["name"]) if sex == "female" else s["name"]
            mark = {3: "3+", 4: "4"}.get(s.get("min_players", 0), "")
            out.append(
                {
                    "tile": 2 * index + (sex == "female"),
                    "species": s["name"],
                    "sex": sex,
                    "name": shown,
                    "symbol": symbol,
                    "size": s["size"],
                    "vp": s["vp"],
                    "art": data["art"][shown],
                    "mark": mark,
                    "min_players": s.get("min_players", 0),
                }
            )
    return out


def tile_fields(tile: dict[str, Any], side: str, colors: dict[str, str]) -> dict[str, Any]:
    """The fields an animal-tile layout may use on ``side`` (unpaired or paired)."""
    bg = colors["paired"] if side == "paired" else colors[tile["sex"]]
    return {k: tile[k] for k in ("name", "symbol", "size", "vp", "art", "mark")} | {"bg": bg}


def starting_deal(
    tiles: list[int], players: int, males: int, females: int, seed: str
) -> list[list[int]]:
    """A seeded starting deal: per seat ``males`` male and ``females`` female tiles, drawn in
    seat order, never giving a seat both tiles of a species (tile ids: 2 * species + sex)."""
    rng = random.Random(seed)
    bags = {sex: sorted(t for t in tiles if t % 2 == sex) for sex in (0, 1)}
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat in range(players):
        for sex, count in ((0, males), (1, females)):
            for _ in range(count):
                fine = [t for t in bags[sex] if t ^ 1 not in hands[seat]] or bags[sex]
                pick = rng.choice(fine)
                bags[sex].remove(pick)
                hands[seat].append(pick)
    return hands
