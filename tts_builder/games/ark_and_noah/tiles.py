"""Ark & Noah animal tiles: the tile list and the animal bags' rosters (Setup deals them)."""

from __future__ import annotations

from ...json_types import Data

#: Each sex in tile order (a species' male is tile ``2 * index``, its female the next) and the
#: sign its tiles print.
SEXES = (("male", "\u2642"), ("female", "\u2640"))
#: The player-count mark of a species by its ``min_players`` (none: in every game).
MARKS = {3: "3+", 4: "4"}


def tile_list(data: Data) -> list[Data]:
    """Every animal tile (male then female of each species, roster order) with its fields:
    what it shows (``name``: a female's ``female_name`` if she has one, its ``art``, the sex
    ``symbol``, the ``mark``), and the side colours the layouts print (``bg`` the unpaired
    side's, by sex; ``paired_bg``)."""
    out, colors = [], data["tile_colors"]
    for index, s in enumerate(data["species"]):
        for k, (sex, symbol) in enumerate(SEXES):
            shown = s.get("female_name", s["name"]) if sex == "female" else s["name"]
            out.append(
                {
                    "tile": 2 * index + k,
                    "species": s["name"],
                    "sex": sex,
                    "name": shown,
                    "symbol": symbol,
                    "size": s["size"],
                    "vp": s["vp"],
                    "art": data["art"][shown],
                    "mark": MARKS.get(s.get("min_players", 0), ""),
                    "min_players": s.get("min_players", 0),
                    "bg": colors[sex],
                    "paired_bg": colors["paired"],
                }
            )
    return out


def bag_roster(tiles: list[Data], sex: str) -> list[Data]:
    """The tiles of one sex as the table manifest's roster of that sex's bag, each with its
    ``key`` (its image names' stem)."""
    return [{**t, "key": f"{t['name'].lower()}-{sex}"} for t in tiles if t["sex"] == sex]
