"""Ark & Noah table geometry: where every board lies, the scripted spots on them (by the geometry
model, so a spot is on the cell the picture prints there) and heights; the places of the pieces
in the seats' areas are the definition's (``table.area_slots``, :mod:`tts_builder.table.areas`).

One save serves 2-4 players: :func:`ark_plan` gives the Ark of each player count (its sections'
Transforms and its squares, edges and pitch fields); Setup moves the sections to the seated
player count's plan. Every printed board reads upright for the first seat (Red, at -z): rotY =
that seat's HandTrigger rotY + 180 (GEOMETRY §1).
"""

from __future__ import annotations

from ... import geometry as geo
from ...json_types import Data
from ...table import pieces_by_id
from ...table.assemble import THICKNESS
from ...table.columns import needed_columns
from ...table.grid_table import GridPlan, grid_plan
from ...table.printed import column_spots

#: The boards' top (the manifest lays them at its default thickness): pieces on a board lie there.
BOARD_TOP = round(geo.TABLE_TOP_Y + THICKNESS, 4)
#: Bags are not Custom_Tiles (size and origin not established): dropped from a little above.
BAG_Y = 1.8


def animal_side(data: Data) -> float:
    """The side of an animal tile on the table (the manifest's animal bags' tiles)."""
    return float(pieces_by_id(data["table"])["male-animals"]["contents"]["width"])


#: The Ark of one player count (the manifest's grid ``ark``: :mod:`tts_builder.table.grid`).
ArkPlan = GridPlan


def ark_plan(data: Data, config: Data, n: int) -> ArkPlan:
    """Where the Ark's sections and spots lie for ``n`` players (``config``: its rules, read
    by the grid from the definition's ``rules.ark``)."""
    return grid_plan(data, "ark", n)


#: The spots of every action column the script uses (completed, current action, bonus).
ACTION_SPOTS = ("completed", "current", "bonus")


def action_columns(data: Data) -> Data:
    """The action board's columns (its manifest piece's ``columns``: size, spots, sides), with
    the spots the script uses and a side per way to play (``standard``, ``family``)."""
    sides = ("standard", "family") if "family" in data.get("variants", {}) else ("standard",)
    return needed_columns(data["table"], "action-board", ACTION_SPOTS, sides, "the action board")


def action_spaces(data: Data, config: Data) -> list[Data]:
    """The action spaces in board order: [{id, name, completed, current, bonus}] ([x, z])."""
    spots = column_spots(data, "action-board")
    return [
        {"id": a["id"], "name": a["name"], **s}
        for a, s in zip(config["actions"], spots, strict=True)
    ]


def table_points(data: Data, config: Data, n: int) -> Data:
    """The scripted spots of an ``n``-player table: the Ark's ``edges`` (name -> [x, z, rotY]),
    ``pitch`` and ``squares`` (name -> [x, z]), its ``rows`` and ``cols``, the action
    ``spaces`` ([{id, name, completed, current, bonus}] in board order) and the ``plan``."""
    plan = ark_plan(data, config, n)
    return {
        "edges": plan.edges,
        "pitch": plan.hull,
        "squares": plan.cells,
        "rows": plan.rows,
        "cols": plan.cols,
        "spaces": action_spaces(data, config),
        "plan": plan,
    }
