"""The movement-cost card: its layout is ``components.cost_card.face`` (repeats over the
columns and the animals); its fields are drawn from ``rules.costs`` (a cost table of every
animal and terrain, and the river)."""

from __future__ import annotations

from ...json_types import Data, Json
from ...render.hexmap import board_style
from .schema import terrains


def _cell(key: str, cost: Json, colors: Data) -> Data:
    """A cost as printed: — for may not (in the forbidden colour), ford or +n for the river,
    else the number."""
    if cost is None:
        return {"text": "—", "color": colors["forbidden"]}
    if key == "river":
        return {"text": "ford" if cost == "fords_only" else f"+{cost}", "color": colors["ink"]}
    return {"text": str(cost), "color": colors["ink"]}


def _footer(rules: Data) -> list[str]:
    """The two lines of notes under the table."""
    fliers = ", ".join(rules["flies_over_animals"])
    return [
        "The cost of the hex entered, plus the river when crossing it.  — = may not.",
        f"Ford +{rules['ford_cost']}  ·  stairs into the Ark: {rules['ark_entry_cost']}"
        + (f"  ·  {fliers} may fly over animals" if fliers else "")
        + f"  ·  no step back in the last {rules['no_retreat_rows']} rows",
    ]


def cost_card_fields(data: Data) -> Data:
    """The cost card's fields (see the layout's comment in game.yaml): the colours by name;
    ``columns`` (the terrains, then the river), each its title, fill and title ink (``heads``);
    ``animals``, each its name, art and ``costs`` (a cell per column); the ``notes``."""
    card, rules = data["components"]["cost_card"], data["rules"]
    colors, heads = card["colors"], card.get("heads", {})
    names = terrains(data)
    style = board_style(data["components"]["board"]["style"], names)
    keys = [*names, "river"]
    columns = [
        {
            "title": key.capitalize(),
            "fill": style["river"] if key == "river" else style.get(key, style["unknown"]),
            "head": heads.get(key, colors["ink"]),
        }
        for key in keys
    ]
    animals = [
        {
            "name": animal["name"],
            "art": animal["art"],
            "costs": [_cell(key, rules["costs"][animal["name"]].get(key), colors) for key in keys],
        }
        for animal in data["animals"]
    ]
    return {**colors, "columns": columns, "animals": animals, "notes": _footer(rules)}


def cost_card_layout(data: Data) -> tuple[list[Data], Data]:
    """The movement-cost card's layout and its fields."""
    return data["components"]["cost_card"]["face"], cost_card_fields(data)
