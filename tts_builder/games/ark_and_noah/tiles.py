"""Ark & Noah animal tiles: the tile list and a tile side's layout fields (Setup deals them)."""

from __future__ import annotations

from ...json_types import Data


def tile_list(data: Data) -> list[Data]:
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


def tile_fields(tile: Data, side: str, colors: dict[str, str]) -> Data:
    """The fields an animal-tile layout may use on ``side`` (unpaired or paired): ``bg`` the
    side's colour, ``paired_bg`` the paired side's."""
    bg = colors["paired"] if side == "paired" else colors[tile["sex"]]
    fields = {k: tile[k] for k in ("name", "symbol", "size", "vp", "art", "mark")}
    return fields | {"bg": bg, "paired_bg": colors["paired"]}


def bag_roster(tiles: list[Data], sex: str, colors: dict[str, str]) -> list[Data]:
    """The tiles of one sex as the table manifest's roster of that sex's bag: each tile's
    fields, its unpaired side's layout fields and ``key`` (its image names' stem)."""
    return [
        {**t, **tile_fields(t, "unpaired", colors), "key": f"{t['name'].lower()}-{sex}"}
        for t in tiles
        if t["sex"] == sex
    ]
