"""The movement-cost card: its layout is ``components.cost_card.face``; its fields are drawn
from ``rules.costs`` (a cost table of every animal and terrain, and the river)."""

from __future__ import annotations

import json

from ...errors import FieldError
from ...json_types import Data, Json
from ...render.hexmap import board_style
from .schema import terrains


def _cost_text(key: str, cost: Json) -> str:
    """A cost as printed: — for may not, ford or +n for the river, else the number."""
    if cost is None:
        return "—"
    if key == "river":
        return "ford" if cost == "fords_only" else f"+{cost}"
    return str(cost)


def _footer(rules: Data) -> list[str]:
    """The two lines of notes under the table."""
    fliers = ", ".join(rules["flies_over_animals"])
    return [
        "The cost of the hex entered, plus the river when crossing it.  — = may not.",
        f"Ford +{rules['ford_cost']}  ·  stairs into the Ark: {rules['ark_entry_cost']}"
        + (f"  ·  {fliers} may fly over animals" if fliers else "")
        + f"  ·  no step back in the last {rules['no_retreat_rows']} rows",
    ]


def cost_card_fields(data: Data) -> dict[str, str]:
    """The cost card's fields (see the layout's comment in game.yaml): the colours by name,
    per column (the terrains, then the river) its title and colours, per animal its name, art
    and costs, and the notes."""
    rules, colors = data["rules"], data["components"]["cost_card"]["colors"]
    names = terrains(data)
    style = board_style(data["components"]["board"]["style"], names)
    columns = [*names, "river"]
    fields = dict(colors)
    for j, key in enumerate(columns):
        fields[f"col{j}"] = key.capitalize()
        fields[f"fill{j}"] = style["river"] if key == "river" else style.get(key, style["unknown"])
        fields[f"head{j}"] = "#ffffff" if key in ("forest", "river") else colors["ink"]
    for i, animal in enumerate(data["animals"]):
        fields[f"animal{i}"], fields[f"art{i}"] = animal["name"], animal["art"]
        for j, key in enumerate(columns):
            cost = rules["costs"][animal["name"]].get(key)
            fields[f"c{i}_{j}"] = _cost_text(key, cost)
            fields[f"ink{i}_{j}"] = colors["forbidden"] if cost is None else colors["ink"]
    for k, line in enumerate(_footer(rules)):
        fields[f"note{k}"] = line
    return fields


def cost_card_layout(data: Data) -> tuple[list[Data], dict[str, str]]:
    """The movement-cost card's layout and its fields."""
    return data["components"]["cost_card"]["face"], cost_card_fields(data)


def check_cost_card(data: Data) -> None:
    """The layout shows every animal's costs (a new animal or terrain needs its cells)."""
    layout, fields = cost_card_layout(data)
    shown = json.dumps(layout)
    for key in fields:
        if key.startswith(("c", "animal")) and "{" + key + "}" not in shown:
            raise FieldError("components.cost_card.face", f"the layout shows no {{{key}}}")
