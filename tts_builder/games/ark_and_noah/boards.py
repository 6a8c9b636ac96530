"""Ark & Noah boards: the pictures the game draws from its rule numbers (the Ark's sections,
the action board's two sides; the tracks are the manifest's own) and where the Ark's sections
lie, handed to the table manifest (``table.pieces`` lays them as locked tiles, each upright for
the first seat); and the points the pieces snap to (``table.snap_points``), each player count's
Ark its own."""

from __future__ import annotations

from functools import partial

from rules_ref.ark_and_noah import make_config

from ...json_types import Data
from ...plugin import Picture, TableHooks
from ...render.layout import render_layout
from ...table.columns import columns_layout
from . import drawing as ark
from .rules import action_texts
from .table import BOARD_TOP, ArkPlan, action_columns, ark_plan
from .tiles import bag_roster, tile_list


def section_keys(layout: list[str]) -> list[str]:
    """Each section's key in a layout: its kind, numbered for the middles (``middle:1``...)."""
    middles = iter(range(1, len(layout) + 1))
    return [f"middle:{next(middles)}" if kind == "middle" else kind for kind in layout]


def table_hooks(base: Data, data: Data, config: Data) -> TableHooks:
    """What the table manifest lays the boards and shared pieces with, beside its own
    data: the boards' pictures, the tracks ``ark-<kind>`` of the sections of each kind in the
    Ark of the most players (a kind that Ark has none of is left off), the Ark's spots of each
    player count for the snap points (``by_players``: :func:`ark_points`) and the animal bags'
    tiles (rosters ``<sex>-animals``)."""
    plan = ark_plan(data, config, data["players"]["max"])
    tracks = {f"ark-{kind}": [] for kind in ark.SECTION_KINDS}
    for kind, b in plan.sections:
        tracks[f"ark-{kind}"].append((b.transform.pos[0], b.transform.pos[2]))
    omit = frozenset(name for name, points in tracks.items() if not points)
    low, high = data["players"]["min"], data["players"]["max"]
    tiles, sexes = tile_list(data), ("male", "female")
    return TableHooks(
        pictures=board_pictures(base, data, config),
        tracks=tracks,
        by_players={n: ark_points(ark_plan(data, config, n)) for n in range(low, high + 1)},
        rosters={
            **{f"{sex}-animals": bag_roster(tiles, sex, data["tile_colors"]) for sex in sexes},
        },
        omit=omit,
    )


def board_pictures(base: Data, data: Data, config: Data) -> dict[str, Picture]:
    """The boards drawn from the rule numbers of ``config`` (the game built, ``data`` its
    definition): each Ark section at its width on the table and the action board (the built
    game's side, and as ``action-board-back`` the other side of ``base``, the definition with
    its variants: its piece's ``columns`` printed with each side's action fields). Each
    picture's spec (its cache key) is the layout it is drawn from, so a change to the game's
    drawing code is a new picture."""
    b, section = data["boards"], config["ark"]["section"]
    geometry = ark.ArkGeometry(section["rows"], section["cols"], **b["ark"])
    whole: Data = {}

    def cut(kind: str) -> object:
        if not whole:
            whole.update(ark.render_ark_sections(geometry, section["cols"], b["ark_colors"]))
        return whole[kind]

    unit = float(data["table"]["square"]) / geometry.square
    out = {}
    ark_layout = ark.sections_layout(geometry, section["cols"], b["ark_colors"])
    for kind, box in ark.section_boxes(geometry, section["cols"]).items():
        spec = {"ark": kind, "layout": ark_layout, "box": box}
        width = ark.section_size(kind, geometry, section["cols"])[0] * unit
        out[f"ark-{kind}"] = Picture(spec, partial(cut, kind), width=width)
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


def ark_points(plan: ArkPlan) -> dict[str, list[tuple[float, ...]]]:
    """The spots of an Ark on the boards' tops, as the point sets its snap points lie at
    (``table.snap_points``): ``ark-edges`` (each with the rotY along its edge), ``ark-pitch``
    and ``ark-squares``."""
    return {
        "ark-edges": [(x, BOARD_TOP, z, angle) for x, z, angle in plan.edges.values()],
        "ark-pitch": [(x, BOARD_TOP, z) for x, z in plan.pitch.values()],
        "ark-squares": [(x, BOARD_TOP, z) for x, z in plan.squares.values()],
    }
