"""The movement-cost card: a layout and its fields, drawn from ``rules.costs``."""

from __future__ import annotations

from ...json_types import Data, Json
from ...render.hexmap import board_style
from .config import terrains


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


def cost_card_layout(data: Data) -> tuple[list[Data], dict[str, str]]:
    """The movement-cost card as a layout and its fields, drawn from ``rules.costs``."""
    rules = data["rules"]
    spec = data["components"]["cost_card"]
    colors = spec["colors"]
    w, h = spec["size"]
    names = terrains(data)
    style = board_style(data["components"]["board"]["style"], names)
    columns = [*names, "river"]
    animals = data["animals"]
    pad = round(w * 0.03)
    title_h, header_h, footer_h = round(h * 0.12), round(h * 0.09), round(h * 0.15)
    name_w = round(w * 0.27)
    row_h = (h - 2 * pad - title_h - header_h - footer_h) // len(animals)
    cell_w = (w - 2 * pad - name_w) // len(columns)
    fields: dict[str, str] = {}
    layout: list[Data] = [
        {"type": "rect", "box": [0, 0, w, h], "fill": colors["background"], "radius": pad},
        {
            "type": "rect",
            "box": [pad // 2, pad // 2, w - pad // 2, h - pad // 2],
            "outline": colors["frame"],
            "width": max(2, pad // 4),
            "radius": pad,
        },
        {
            "type": "text",
            "text": "Movement costs",
            "box": [pad, pad, w - pad, pad + title_h],
            "size": round(title_h * 0.7),
            "bold": True,
            "color": colors["frame"],
        },
    ]
    top = pad + title_h
    for j, key in enumerate(columns):
        x0 = pad + name_w + j * cell_w
        fill = style["river"] if key == "river" else style.get(key, style["unknown"])
        fields[f"col{j}"] = key.capitalize()
        layout += [
            {
                "type": "rect",
                "box": [x0 + 3, top, x0 + cell_w - 3, top + header_h - 4],
                "fill": fill,
                "radius": 8,
            },
            {
                "type": "text",
                "text": f"{{col{j}}}",
                "box": [x0 + 6, top + 4, x0 + cell_w - 6, top + header_h - 8],
                "size": round(header_h * 0.45),
                "bold": True,
                "color": "#ffffff" if key in ("forest", "river") else colors["ink"],
            },
        ]
    top += header_h
    for i, animal in enumerate(animals):
        y0 = top + i * row_h
        fields[f"animal{i}"] = animal["name"]
        if i % 2 == 0:
            layout.append(
                {
                    "type": "rect",
                    "box": [pad, y0, w - pad, y0 + row_h],
                    "fill": colors["header"],
                    "radius": 6,
                }
            )
        layout += [
            {
                "type": "image",
                "src": animal["art"],
                "box": [pad + 4, y0 + 4, pad + row_h, y0 + row_h - 4],
            },
            {
                "type": "text",
                "text": f"{{animal{i}}}",
                "box": [pad + row_h + 6, y0 + 4, pad + name_w - 4, y0 + row_h - 4],
                "size": round(row_h * 0.42),
                "bold": True,
                "color": colors["ink"],
                "align": "left",
            },
        ]
        costs = rules["costs"][animal["name"]]
        for j, key in enumerate(columns):
            x0 = pad + name_w + j * cell_w
            cost = costs.get(key)
            fields[f"c{i}_{j}"] = _cost_text(key, cost)
            layout.append(
                {
                    "type": "text",
                    "text": f"{{c{i}_{j}}}",
                    "box": [x0 + 6, y0 + 6, x0 + cell_w - 6, y0 + row_h - 6],
                    "size": round(row_h * 0.55),
                    "bold": True,
                    "color": colors["forbidden"] if cost is None else colors["ink"],
                }
            )
    y0 = h - pad - footer_h
    for k, line in enumerate(_footer(rules)):
        fields[f"note{k}"] = line
        layout.append(
            {
                "type": "text",
                "text": f"{{note{k}}}",
                "box": [pad, y0 + k * footer_h // 2 + 4, w - pad, y0 + (k + 1) * footer_h // 2],
                "size": round(footer_h * 0.27),
                "color": colors["ink"],
            }
        )
    return layout, fields
