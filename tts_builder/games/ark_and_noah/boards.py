"""Ark & Noah boards: the pictures the game draws from its rule numbers (the action board's two
sides; the Ark is the manifest's grid ``ark`` and the tracks its own pieces), handed to the table
manifest (``table.pieces`` lays them as locked tiles, each upright for the first seat); and the
points the pieces snap to (``table.snap_points``), each player count's Ark its own."""

from __future__ import annotations

from functools import partial

from rules_ref.ark_and_noah import make_config

from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...render.layout import render_layout
from ...table.columns import columns_layout
from .rules import action_texts
from .table import action_columns
from .tiles import bag_roster, tile_list


def table_hooks(base: Data, data: Data, config: Data) -> TableHooks:
    """What the table manifest lays the boards and shared pieces with, beside its own data
    (its grid, the Ark: ``table.grids.ark``): the action board's pictures and the animal
    bags' tiles (rosters ``<sex>-animals``)."""
    tiles, sexes = tile_list(data), ("male", "female")
    return TableHooks(
        pictures=board_pictures(base, data, config),
        rosters={
            **{f"{sex}-animals": bag_roster(tiles, sex) for sex in sexes},
        },
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
