"""Ark & Noah boards: the pictures the game draws from its rule numbers (the action board's two
sides; the Ark is the manifest's grid ``ark`` and the tracks its own pieces), handed to the table
manifest (``table.pieces`` lays them as locked tiles, each upright for the first seat); and the
points the pieces snap to (``table.snap_points``), each player count's Ark its own."""

from __future__ import annotations

from functools import partial

from rules_ref.ark_and_noah import for_players, make_config

from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...render.layout import render_layout
from ...table.areas import area_tracks
from ...table.columns import columns_layout
from .rules import action_texts
from .table import (
    BOARD_TOP,
    action_columns,
    action_spaces,
    line_of,
)
from .tiles import bag_roster, tile_list

#: The spots of an action space a worker snaps to: its completed- and current-action spaces.
SPOTS = ("completed", "current")


def table_hooks(base: Data, data: Data, config: Data) -> TableHooks:
    """What the table manifest lays the boards and shared pieces with: the boards' pictures,
    the bonus bags' row (``bonus-bags``) and the bonus values (roster ``bonus-values``); the
    worker spaces (``worker-spaces``: none on the family side) for the snap points (the Ark's
    are its grid's, ``table.grids.ark``); and the animal bags' tiles (rosters
    ``<sex>-animals``; their places are the manifest's anchors), the supply bags' places
    (``supply:<colour>``, ``food-supply``, ``pitch-supply``) and pieces (rosters ``dividers``,
    ``food``, ``pitch``: one entry per piece); and per seat its character's and its workers'
    places (``character:<colour>``, ``workers:<colour>``) and its fields (roster
    ``seat-pieces``: the character's ``name``, the colour's ``color`` hex)."""
    values = range(1, config["bonus_max"] + 1)
    tracks = {"bonus-bags": [tuple(p) for p in line_of(data["table"]["bonus_bags"], len(values))]}
    low, high = data["players"]["min"], data["players"]["max"]
    workers = max(for_players(config["workers"], n)["count"] for n in range(low, high + 1))
    tracks |= area_tracks(data["table"], {"character": 1, "workers": workers})
    seat_pieces = [
        {"name": data["characters"][i], "color": data["colors"][i]["hex"]} for i in range(high)
    ]
    # The supply bags in a row: each colour's dividers, then food and pitch (if the game has them).
    supply, row = config["supply"], [tuple(p) for p in line_of(data["table"]["supply"], high + 2)]
    for i, seat in enumerate(data["table"]["seats"][:high]):
        tracks[f"supply:{seat['color']}"] = [row[i]]
    family = config["turn_mode"] != "worker"
    spaces = [] if family else [s[key] for s in action_spaces(data, config) for key in SPOTS]
    tracks["worker-spaces"] = [(x, BOARD_TOP, z) for x, z in spaces]
    anchors = {
        "food-supply": row[high],
        "pitch-supply": row[high + (supply["food"] > 0)],
    }
    tiles, sexes = tile_list(data), ("male", "female")
    counts = {
        "dividers": supply["dividers_per_color"],
        "food": supply["food"],
        "pitch": supply["pitch"],
    }
    return TableHooks(
        pictures=board_pictures(base, data, config),
        anchors=anchors,
        tracks=tracks,
        rosters={
            "bonus-values": [{"value": v} for v in values],
            "seat-pieces": seat_pieces,
            **{kind: [{}] * n for kind, n in counts.items()},  # a bag's pieces, one per entry
            **{f"{sex}-animals": bag_roster(tiles, sex, data["tile_colors"]) for sex in sexes},
        },
        omit=frozenset(f"{kind}-supply" for kind in ("food", "pitch") if counts[kind] == 0),
    )


def board_pictures(base: Data, data: Data, config: Data) -> dict[str, Picture]:
    """The boards drawn from the rule numbers of ``config`` (the game built, ``data`` its
    definition): the action board (the built game's side, and as ``action-board-back`` the
    other side of ``base``, the definition with its variants: its piece's ``columns`` printed
    with each side's action fields). Each picture's spec (its cache key) is the layout it is
    drawn from, so a change to the game's drawing code is a new picture."""
    out = {}
    sides = {"standard": (make_config(base), f"{base['name']}: actions")}
    if "family" in base.get("variants", {}):
        family = make_config(base, "family")
        sides["family"] = (family, "Family game: any action, in seat order")
    drawn = {}
    for side, (side_config, title) in sides.items():
        fields = {"title": title}
        layout = columns_layout(action_columns(data), side, action_fields(side_config), fields)
        draw = partial(render_layout, *layout, where="action board")
        drawn[side] = Picture({"board": side, "layout": layout}, draw, file=f"action-board-{side}")
    face = "family" if config["turn_mode"] != "worker" and "family" in drawn else "standard"
    out["action-board"] = drawn[face]
    out["action-board-back"] = next((p for side, p in drawn.items() if side != face), drawn[face])
    return out


def action_fields(config: Data) -> list[Data]:
    """Each action's column fields in board order: its ``name``, the ``amounts`` it gives (the
    occupant's / the others', or who may take it) and what it does in words (``text``)."""
    texts, out = action_texts(config), []
    for action in config["actions"]:
        if "occupant" in action:
            shared = f"{action['occupant']} / {action['others']}"
            amounts = shared if action["shared"] else str(action["occupant"])
        else:
            amounts = "everyone" if action["shared"] else "solo"
        out.append({"name": action["name"], "amounts": amounts, "text": texts[action["id"]]})
    return out
