"""Ark & Noah boards: the pictures the game draws from its rule numbers (the action board's two
sides, :mod:`.action_board`; the Ark is the manifest's grid ``ark`` and the tracks its own
pieces), handed to the table manifest (``table.pieces`` lays them as locked tiles, each upright
for the first seat) with the worker spaces, the animal bags' rosters and the seats' fields; and
the action spaces on the action board (the script's)."""

from __future__ import annotations

from rules_ref.ark_and_noah import make_config

from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...table.track import track_pieces
from .action_board import column_spots, sided_pictures, worker_spaces
from .areas import seat_area_tracks
from .ark import check_grid_names, with_grids
from .places import place_tracks
from .rules import action_texts
from .tiles import bag_roster, tile_list


def table_hooks(base: Data, data: Data, config: Data) -> TableHooks:
    """What the table manifest lays the boards and shared pieces with, beside its own data
    (its grid, the Ark: ``table.grids.ark``): the action board's pictures, the animal
    bags' tiles (rosters ``<sex>-animals``), each seat's fields (:func:`seat_pieces`), the
    seats' area places (:func:`~.areas.seat_area_tracks`) and the Ark (:func:`~.ark.with_grids`)."""
    tiles, sexes = tile_list(data), ("male", "female")
    tracks = {"worker-spaces": worker_spaces(data), **place_tracks(data)}
    taken = {*tracks, *(piece["id"] for piece in track_pieces(data["table"]))}
    own = TableHooks(
        pictures=board_pictures(base, data, config),
        tracks={**tracks, **seat_area_tracks(data, taken)},
        rosters={f"{sex}-animals": bag_roster(tiles, sex) for sex in sexes},
        seats=seat_pieces(data),
    )
    check_grid_names(data, "table", own)  # no name of the Ark's is one of those already
    return with_grids(data, "table", own)


def seat_pieces(data: Data) -> list[Data]:
    """Each seat's fields (the table's ``seat_fields: seat-pieces``): its character (``name``)
    and its colour's ``hex`` (``color``), in seat order, printed on its pieces."""
    return [
        {"name": name, "color": colour["hex"]}
        for name, colour in zip(data["characters"], data["colors"], strict=False)
    ]


def board_pictures(base: Data, data: Data, config: Data) -> dict[str, Picture]:
    """The boards drawn from the rule numbers of ``config`` (the game built, ``data`` its
    definition): the action board (the built game's side, and as ``action-board-back`` the
    other side of ``base``, the definition with its variants: its columns printed with each
    side's action fields, :func:`~.action_board.sided_pictures`)."""
    sides = {"standard": (make_config(base), f"{base['name']}: actions")}
    if "family" in base.get("variants", {}):
        sides["family"] = (make_config(base, "family"), "Family game: any action, in seat order")
    face = "family" if config["turn_mode"] != "worker" and "family" in sides else "standard"
    printed = {side: (action_fields(rules), {"title": t}) for side, (rules, t) in sides.items()}
    return sided_pictures(printed, face)


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


def action_spaces(data: Data, config: Data) -> list[Data]:
    """The action spaces in board order: [{id, name, completed, current, bonus}] ([x, z])."""
    spots = column_spots(data)
    return [
        {"id": a["id"], "name": a["name"], **s}
        for a, s in zip(config["actions"], spots, strict=True)
    ]
