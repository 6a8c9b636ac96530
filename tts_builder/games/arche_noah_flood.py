"""Arche Noah, the flood race (RULINGS §3, issue 3): its definition keys, map checks, rule
config and scripted TTS table.

The table is drawn from the definition: the board from ``map`` and the board style, the cards,
pieces and marker from their layouts, the movement-cost card from ``rules.costs``, the dice
from the dice faces, and every position from ``table`` and the board geometry
(:mod:`tts_builder.render.hexmap`), so snap points, pieces, flood tiles and the Ark zone line
up with the printed hexes. Variants: ``junior`` (symbol dice, no costs, no cards) and
``distinct-species`` (one card of each species is removed before the deal).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import FieldError
from ..save.tables import CUSTOM_IMAGE_TABLES, RPG_HAND_PLACEMENTS, SEAT_COLORS, TABLE_NAMES
from ..schema import Bool, Color, Custom, Int, ListOf, Map, Num, OneOf, Point, Str
from .arche_noah import SIZE, component

GAME_ID = "arche-noah-flood"

TABLES = tuple(t for t in TABLE_NAMES if t not in CUSTOM_IMAGE_TABLES and t != "Table_None")
SYMBOLS = ("sun", "water")
CARD_Y = 1.0
PIECE_LIFT = 0.5  # pieces and the marker stand this far above the board's top face
TILE_LIFT = 0.06
DIE_Y = 1.6
BAG_Y = 1.6
PIECE_SCALE = 0.55
MARKER_SCALE = 0.45
VARIANT_ID = r"[a-z0-9]+(-[a-z0-9]+)*"
MAX_BOARD_PX = 4096

# --- the definition's keys ----------------------------------------------------------------------

HEX = ListOf(Int(0, 99), 2, 2)
EDGE = ListOf(HEX, 2, 2)


def _mapping(key: Any, value: Any, what: str) -> Custom:
    """A mapping whose keys fit ``key`` (a Spec) and whose values fit ``value``."""

    def check(data: Any, path: str) -> None:
        if not isinstance(data, dict) or not data:
            raise FieldError(path, f"expected a non-empty mapping of {what}, got {data!r}")
        for k, v in data.items():
            key.check(k, f"{path}.{k}")
            value.check(v, f"{path}.{k}")

    return Custom(check)


def _cost(allow_zero: bool, extra: tuple[str, ...] = ()) -> Custom:
    """A step cost: a positive integer (or >= 0), null (may not), or one of ``extra``."""

    def check(value: Any, path: str) -> None:
        if value is None or value in extra:
            return
        least = 0 if allow_zero else 1
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            options = ", ".join(["null", *extra])
            raise FieldError(path, f"expected an integer >= {least} or {options}, got {value!r}")

    return Custom(check)


def _die_face(numbers_only: bool) -> Custom:
    def check(value: Any, path: str) -> None:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 99:
            return
        if not numbers_only and value in SYMBOLS:
            return
        allowed = "an integer from 0 to 99" + ("" if numbers_only else ", sun or water")
        raise FieldError(path, f"expected {allowed}, got {value!r}")

    return Custom(check)


def _dice(numbers_only: bool) -> Map:
    return Map({"count": Int(1, 4), "faces": ListOf(_die_face(numbers_only), 6, 6)})


def _costs(value: Any, path: str) -> None:
    """``rules.costs``: animal -> {terrain name: cost, river: cost}; terrains checked later."""
    if not isinstance(value, dict) or not value:
        raise FieldError(path, f"expected a mapping of animal -> costs, got {value!r}")
    for animal, costs in value.items():
        where = f"{path}.{animal}"
        if not isinstance(costs, dict):
            raise FieldError(where, f"expected a mapping of terrain -> cost, got {costs!r}")
        for key, cost in costs.items():
            _cost(key == "river", ("fords_only",) if key == "river" else ()).check(
                cost, f"{where}.{key}"
            )


RULES = Map(
    {
        "terrain": _mapping(Str(pattern=r"[A-Z]", hint="one capital letter"), Str(), "letters"),
        "costs": Custom(_costs),
        "ford_cost": Int(0, 99),
        "flies_over_animals": ListOf(Str()),
        "ark_entry_cost": Int(1, 99),
        "pieces_per_species": Int(1, 4),
        "dice": _dice(numbers_only=True),
        "flood": Map({"rolls_per_starting_player": Int(0, 9)}),
        "no_retreat_rows": Int(0, 99),
        "min_start_hexes": Int(1, 999),
        "stair_hexes": Map({"min": Int(1, 99), "max": Int(1, 99)}),
        "distinct_species": Bool(),
        "junior": Map(
            {
                "dice": _dice(numbers_only=False),
                "step_cost": Int(1, 9),
                "sun_hexes": Int(0, 9),
                "water_hexes": Int(0, 99),
                "flood_rolls_per_starting_player": Int(0, 9),
            }
        ),
    }
)

VARIANT = Map(
    {"name": Str(), "description": Str(), "junior": Bool(), "distinct_species": Bool()},
    frozenset({"description", "junior", "distinct_species"}),
)


def _variants(value: Any, path: str) -> None:
    """``variants``: a mapping of variant id -> {name, description, junior, distinct_species}."""
    _mapping(Str(pattern=VARIANT_ID, hint="a lower-case variant id"), VARIANT, "variants").check(
        value, path
    )
    for vid, spec in value.items():
        if spec.get("junior") and spec.get("distinct_species"):
            raise FieldError(
                f"{path}.{vid}.distinct_species", "the junior variant deals no cards"
            )


def _die_style(value: Any, path: str) -> None:
    from ..render import render_die_face

    render_die_face("0", value, path)  # raises FieldError at path.<key> for a bad style


def _board_style(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, f"expected a mapping, got {value!r}")
    for key, color in value.items():
        Color().check(color, f"{path}.{key}")


def _number_in(low: float, high: float) -> Any:
    def check(value: Any, path: str) -> None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not low <= value <= high:
            raise FieldError(path, f"expected a number from {low:g} to {high:g}, got {value!r}")

    return check


COST_COLORS = ("background", "frame", "ink", "header", "forbidden")

FIELDS = {
    "variants": Custom(_variants),
    "rules": RULES,
    "animals": ListOf(Map({"name": Str(), "color": Color(), "art": Str()}), 1, 20),
    "map": Map(
        {
            "terrain": ListOf(Str(), 2, 40),
            "rivers": ListOf(EDGE),
            "fords": ListOf(EDGE),
            "stairs": ListOf(HEX),
            "starts": ListOf(HEX),
        }
    ),
    "components": Map(
        {
            "card": component("face", "back"),
            "piece": component("face"),
            "flood_marker": component("face"),
            "cost_card": Map({"size": SIZE, "colors": Map({k: Color() for k in COST_COLORS})}),
            "number_die": Map({"style": Custom(_die_style)}),
            "symbol_die": Map({"style": Custom(_die_style)}),
            "board": Map({"style": Custom(_board_style)}),
        }
    ),
    "table": Map(
        {
            "type": OneOf(TABLES),
            "sky": Str(),
            "board": Map(
                {
                    "centre": Point(2),
                    "hex_width": Custom(_number_in(0.5, 10.0)),
                    "pixels_per_unit": Custom(_number_in(16.0, 160.0)),
                }
            ),
            "dice": Point(2),
            "deck": Point(2),
            "set_aside": Point(2),
            "flood_bag": Point(2),
            "seats": ListOf(
                Map(
                    {
                        "color": OneOf(SEAT_COLORS),
                        "cost_card": Point(2),
                        "reveal": Point(2),
                        "facing": Num(),
                    }
                ),
                1,
                10,
            ),
        }
    ),
}
OPTIONAL: frozenset[str] = frozenset({"variants"})


# --- cross-field checks --------------------------------------------------------------------------


def _fmt(h: Any) -> str:
    return f"({h[0]}, {h[1]})"


def _check_terrain(data: dict[str, Any]) -> tuple[int, int]:
    """Ragged rows and unknown letters, each named by its hex; (rows, cols)."""
    terrain = data["map"]["terrain"]
    letters = data["rules"]["terrain"]
    cols = len(terrain[0])
    for r, row in enumerate(terrain):
        if len(row) != cols:
            raise FieldError(
                f"map.terrain[{r}]",
                f"row {r} has {len(row)} hexes but row 0 has {cols} (ragged rows)",
            )
        for c, ch in enumerate(row):
            if ch not in letters:
                known = ", ".join(sorted(letters))
                raise FieldError(
                    f"map.terrain[{r}]",
                    f"hex {_fmt((r, c))}: unknown terrain letter {ch!r} ({known})",
                )
    return len(terrain), cols


def _check_edges(data: dict[str, Any], key: str, rows: int, cols: int) -> set[frozenset]:
    from rules_ref.arche_noah_flood import neighbours

    edges: set[frozenset] = set()
    for i, (a, b) in enumerate(data["map"][key]):
        label = f"{key[:-1]} edge {_fmt(a)}-{_fmt(b)}"
        if not all(0 <= h[0] < rows and 0 <= h[1] < cols for h in (a, b)):
            raise FieldError(f"map.{key}[{i}]", f"{label} lies outside the map")
        if tuple(b) not in neighbours(a[0], a[1], rows, cols):
            raise FieldError(f"map.{key}[{i}]", f"{label} joins hexes that are not neighbours")
        edges.add(frozenset((tuple(a), tuple(b))))
    return edges


def _check_map(data: dict[str, Any]) -> None:
    """The map's own rules (issue 3 part 1), each error at the field naming the hex/animal."""
    from rules_ref.arche_noah_flood import config_from_definition, validate_map

    game_map = data["map"]
    rules = data["rules"]
    rows, cols = _check_terrain(data)
    rivers = _check_edges(data, "rivers", rows, cols)
    _check_edges(data, "fords", rows, cols)
    for i, (a, b) in enumerate(game_map["fords"]):
        if frozenset((tuple(a), tuple(b))) not in rivers:
            raise FieldError(f"map.fords[{i}]", f"ford {_fmt(a)}-{_fmt(b)} is not on a river edge")
    stairs = game_map["stairs"]
    low, high = rules["stair_hexes"]["min"], rules["stair_hexes"]["max"]
    if not low <= len(stairs) <= high:
        raise FieldError("map.stairs", f"{len(stairs)} stair hexes; the Ark needs {low} to {high}")
    for i, s in enumerate(stairs):
        if s[0] != rows - 1 or s[1] >= cols:
            raise FieldError(
                f"map.stairs[{i}]",
                f"stair hex {_fmt(s)} is not a hex of the last row (row {rows - 1})",
            )
    starts = game_map["starts"]
    pieces = rules["pieces_per_species"] * len(data["animals"])
    need = max(rules["min_start_hexes"], pieces)
    if len(starts) < need:
        raise FieldError("map.starts", f"{len(starts)} start hexes; at least {need} are needed")
    seen: list[list[int]] = []
    for i, s in enumerate(starts):
        if not (s[0] < rows and s[1] < cols):
            raise FieldError(f"map.starts[{i}]", f"start hex {_fmt(s)} lies outside the map")
        if 2 * s[0] >= rows:
            raise FieldError(
                f"map.starts[{i}]", f"start hex {_fmt(s)} is not in the upper half of the map"
            )
        if s in seen:
            raise FieldError(f"map.starts[{i}]", f"start hex {_fmt(s)} is listed twice")
        seen.append(s)
    # Reachability (and anything else the reference rules find) from rules_ref itself.
    for problem in validate_map(config_from_definition(data)):
        where = "map"
        for i, s in enumerate(starts):
            if problem.startswith(f"start hex {_fmt(s)}"):
                where = f"map.starts[{i}]"
                break
        raise FieldError(where, problem)


def check(data: dict[str, Any], root: Path) -> None:
    """Cross-field checks: species, costs, dice, map (hex and animal named), seats, art."""
    rules = data["rules"]
    animals = data["animals"]
    names = [a["name"] for a in animals]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise FieldError(f"animals[{i}].name", f"animal {name!r} listed twice")
    terrains = list(rules["terrain"].values())
    for name in names:
        if name not in rules["costs"]:
            raise FieldError("rules.costs", f"no movement costs for {name}")
    for animal, costs in rules["costs"].items():
        if animal not in names:
            raise FieldError(f"rules.costs.{animal}", f"{animal!r} is not one of the animals")
        for key in [*terrains, "river"]:
            if key not in costs:
                raise FieldError(f"rules.costs.{animal}", f"missing the cost of {key}")
        for key in costs:
            if key not in terrains and key != "river":
                raise FieldError(
                    f"rules.costs.{animal}.{key}", f"{key!r} is no terrain of rules.terrain"
                )
    for i, name in enumerate(rules["flies_over_animals"]):
        if name not in names:
            raise FieldError(
                f"rules.flies_over_animals[{i}]", f"{name!r} is not one of the animals"
            )
    if rules["stair_hexes"]["min"] > rules["stair_hexes"]["max"]:
        raise FieldError("rules.stair_hexes.max", "expected >= stair_hexes.min")
    from ..render.hexmap import board_style

    board_style(data["components"]["board"]["style"], terrains, "components.board.style")
    _check_map(data)
    size = geometry(data).image_size
    if size > MAX_BOARD_PX:
        raise FieldError(
            "table.board.pixels_per_unit",
            f"the board picture would be {size} px a side; at most {MAX_BOARD_PX} load in TTS",
        )
    high = data["players"]["max"]
    seats = data["table"]["seats"]
    if len(seats) < high:
        raise FieldError("table.seats", f"expected at least {high} seats, got {len(seats)}")
    colours = [seat["color"] for seat in seats]
    for i, colour in enumerate(colours):
        if colours.index(colour) != i:
            raise FieldError(f"table.seats[{i}].color", f"seat colour {colour} used twice")
    cards = rules["pieces_per_species"] * len(animals)
    if high > cards:
        raise FieldError("players.max", f"{high} players but only {cards} animal cards")
    for vid, spec in (data.get("variants") or {}).items():
        if spec.get("distinct_species") and high > len(animals):
            raise FieldError(
                f"variants.{vid}.distinct_species",
                f"{high} players but only {len(animals)} species to deal",
            )
    for i, animal in enumerate(animals):
        art = root / animal["art"]
        if not art.is_file():
            raise FieldError(f"animals[{i}].art", f"art file not found: {art}")


# --- rules config --------------------------------------------------------------------------------


def variant_spec(data: dict[str, Any], variant: str | None) -> dict[str, Any]:
    """The variant's data ({} for the base game)."""
    if variant is None:
        return {}
    return dict((data.get("variants") or {})[variant])


def rules_config(data: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The config shared by rules_ref and the Lua: ``rules`` plus ``map`` and the species names.

    The distinct-species variant sets ``distinct_species``; the junior variant keeps the
    config (its rule functions take ``"variant": "junior"``).
    """
    from rules_ref.arche_noah_flood import config_from_definition

    config = config_from_definition(data)
    if variant_spec(data, variant).get("distinct_species"):
        config["distinct_species"] = True
    return config


# --- art ---------------------------------------------------------------------------------------


def geometry(data: dict[str, Any]) -> Any:
    """The board geometry of a definition (hex -> pixel -> table position)."""
    from ..render.hexmap import BoardGeometry

    terrain = data["map"]["terrain"]
    board = data["table"]["board"]
    return BoardGeometry(
        rows=len(terrain),
        cols=len(terrain[0]),
        hex_width=float(board["hex_width"]),
        px_per_unit=float(board["pixels_per_unit"]),
        centre=(float(board["centre"][0]), float(board["centre"][1])),
        y=CARD_Y,
    )


def _terrains(data: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(data["rules"]["terrain"].values()))


def _cost_text(key: str, cost: Any) -> str:
    if cost is None:
        return "—"
    if key == "river":
        return "ford" if cost == "fords_only" else f"+{cost}"
    return str(cost)


def cost_card_layout(data: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The movement-cost card as a layout and its fields, drawn from ``rules.costs``."""
    from ..render.hexmap import board_style

    rules = data["rules"]
    spec = data["components"]["cost_card"]
    colors = spec["colors"]
    w, h = spec["size"]
    terrains = _terrains(data)
    style = board_style(data["components"]["board"]["style"], terrains)
    columns = [*terrains, "river"]
    animals = data["animals"]
    pad = round(w * 0.03)
    title_h, header_h, footer_h = round(h * 0.12), round(h * 0.09), round(h * 0.15)
    name_w = round(w * 0.27)
    row_h = (h - 2 * pad - title_h - header_h - footer_h) // len(animals)
    cell_w = (w - 2 * pad - name_w) // len(columns)
    fields: dict[str, str] = {}
    layout: list[dict[str, Any]] = [
        {"type": "rect", "box": [0, 0, w, h], "fill": colors["background"], "radius": pad},
        {"type": "rect", "box": [pad // 2, pad // 2, w - pad // 2, h - pad // 2],
         "outline": colors["frame"], "width": max(2, pad // 4), "radius": pad},
        {"type": "text", "text": "Movement costs", "box": [pad, pad, w - pad, pad + title_h],
         "size": round(title_h * 0.7), "bold": True, "color": colors["frame"]},
    ]
    top = pad + title_h
    for j, key in enumerate(columns):
        x0 = pad + name_w + j * cell_w
        fill = style["river"] if key == "river" else style.get(key, style["unknown"])
        fields[f"col{j}"] = key.capitalize()
        layout += [
            {"type": "rect", "box": [x0 + 3, top, x0 + cell_w - 3, top + header_h - 4],
             "fill": fill, "radius": 8},
            {"type": "text", "text": f"{{col{j}}}", "box": [x0 + 6, top + 4, x0 + cell_w - 6,
             top + header_h - 8], "size": round(header_h * 0.45), "bold": True,
             "color": "#ffffff" if key in ("forest", "river") else colors["ink"]},
        ]
    top += header_h
    for i, animal in enumerate(animals):
        y0 = top + i * row_h
        fields[f"animal{i}"] = animal["name"]
        if i % 2 == 0:
            layout.append({"type": "rect", "box": [pad, y0, w - pad, y0 + row_h],
                           "fill": colors["header"], "radius": 6})
        layout += [
            {"type": "image", "src": animal["art"], "box": [pad + 4, y0 + 4, pad + row_h,
             y0 + row_h - 4]},
            {"type": "text", "text": f"{{animal{i}}}", "box": [pad + row_h + 6, y0 + 4,
             pad + name_w - 4, y0 + row_h - 4], "size": round(row_h * 0.42), "bold": True,
             "color": colors["ink"], "align": "left"},
        ]
        costs = rules["costs"][animal["name"]]
        for j, key in enumerate(columns):
            x0 = pad + name_w + j * cell_w
            cost = costs.get(key)
            fields[f"c{i}_{j}"] = _cost_text(key, cost)
            layout.append(
                {"type": "text", "text": f"{{c{i}_{j}}}", "box": [x0 + 6, y0 + 6,
                 x0 + cell_w - 6, y0 + row_h - 6], "size": round(row_h * 0.55), "bold": True,
                 "color": colors["forbidden"] if cost is None else colors["ink"]}
            )
    fliers = ", ".join(rules["flies_over_animals"])
    lines = [
        "The cost of the hex entered, plus the river when crossing it.  — = may not.",
        f"Ford +{rules['ford_cost']}  ·  stairs into the Ark: {rules['ark_entry_cost']}"
        + (f"  ·  {fliers} may fly over animals" if fliers else "")
        + f"  ·  no step back in the last {rules['no_retreat_rows']} rows",
    ]
    y0 = h - pad - footer_h
    for k, line in enumerate(lines):
        fields[f"note{k}"] = line
        layout.append(
            {"type": "text", "text": f"{{note{k}}}", "box": [pad, y0 + k * footer_h // 2 + 4,
             w - pad, y0 + (k + 1) * footer_h // 2], "size": round(footer_h * 0.27),
             "color": colors["ink"]}
        )
    return layout, fields


def die_labels(faces: list[Any]) -> list[str]:
    """The RotationValue labels of a die: its faces as text, in face order 1..6."""
    return [str(f) for f in faces]


def die_rotation_values(faces: list[Any]) -> list[tuple[str, tuple[float, float, float]]]:
    """(label, rotation) per face: face k+1 of the d6 template carries ``faces[k]``."""
    from ..save.objects import D6_ROTATIONS

    return [(label, rot) for label, (_n, rot) in zip(die_labels(faces), D6_ROTATIONS, strict=True)]


class _Art:
    """Renders the definition's components (each distinct one once per build)."""

    def __init__(self, definition: Any) -> None:
        from ..render import load_art

        self.definition = definition
        self.data = definition.data
        root = definition.root
        self.images = lambda src: load_art(root, src, "art")
        self.memo: dict[str, Any] = {}

    def layout(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        from ..render import render_layout

        key = json.dumps([component, side, fields], sort_keys=True)
        if key not in self.memo:
            spec = self.data["components"][component]
            self.memo[key] = render_layout(
                spec[side], tuple(spec["size"]), fields, self.images,
                where=f"components.{component}.{side}",
            )
        return self.memo[key]

    def cost_card(self) -> Any:
        from ..render import render_layout

        if "cost_card" not in self.memo:
            layout, fields = cost_card_layout(self.data)
            size = tuple(self.data["components"]["cost_card"]["size"])
            self.memo["cost_card"] = render_layout(
                layout, size, fields, self.images, where="components.cost_card"
            ).convert("RGB")
        return self.memo["cost_card"]

    def board(self) -> Any:
        from ..render.hexmap import render_board

        if "board" not in self.memo:
            self.memo["board"] = render_board(
                self.data["map"], self.data["rules"]["terrain"], geometry(self.data),
                self.data["components"]["board"]["style"], title=self.data["name"],
            )
        return self.memo["board"]


def animal_fields(animal: dict[str, Any]) -> dict[str, Any]:
    """The fields the card and piece layouts may use."""
    return {"name": animal["name"], "color": animal["color"], "art": animal["art"]}


# --- the table ---------------------------------------------------------------------------------


def _xyz(point: Any, y: float) -> list[float]:
    return [float(point[0]), y, float(point[1])]


def _round(values: Any) -> Any:
    """Floats rounded to 4 places (table positions handed to the script)."""
    if isinstance(values, float):
        return round(values, 4)
    if isinstance(values, list | tuple):
        return [_round(v) for v in values]
    return values


def table_positions(data: dict[str, Any]) -> dict[str, Any]:
    """Every table position the script needs, from the board geometry (pure)."""
    from ..render.hexmap import ark_slots, ark_zone, hex_name, hex_table, marker_table

    geo = geometry(data)
    rows, cols = geo.rows, geo.cols
    top = geo.top_y
    pieces = data["rules"]["pieces_per_species"] * len(data["animals"])
    (zx, zz), (zw, zd) = ark_zone(geo)
    return {
        "rows": rows,
        "cols": cols,
        "radius": _round(geo.radius),
        "hexes": [_round(list(hex_table(geo, r, c))) for r in range(rows) for c in range(cols)],
        "names": [hex_name(r, c) for r in range(rows) for c in range(cols)],
        "markers": [
            _round(list(marker_table(geo, n // cols, n % cols))) for n in range(rows * cols + 1)
        ],
        "ark_slots": [_round([x, top + PIECE_LIFT, z]) for x, z in ark_slots(geo, pieces)],
        "ark_zone": _round([zx, top + 1.0, zz, zw, 2.0, zd]),
        "piece_y": _round(top + PIECE_LIFT),
        "tile_y": _round(top + TILE_LIFT),
        "marker_y": _round(top + PIECE_LIFT + 0.1),
    }


def _add_dice(
    data: dict[str, Any], symbols: bool, images: Any, guids: Any, objects: list, offset: int = 0
) -> list[str]:
    """Add the symbol (junior) or number dice to ``objects``; their GUIDs."""
    from ..render import render_die_texture
    from ..save import objects as obj

    kind = "symbol_die" if symbols else "number_die"
    spec = data["rules"]["junior"]["dice"] if symbols else data["rules"]["dice"]
    style = data["components"][kind]["style"]
    labels = die_labels(spec["faces"])
    url = images.png(
        kind.replace("_", "-"), {"die": labels, "style": style},
        lambda: render_die_texture(labels, style, f"components.{kind}"),
    )
    x, z = data["table"]["dice"]
    found = []
    for i in range(spec["count"]):
        guid = guids.guid(f"{kind}:{i}")
        found.append(guid)
        objects.append(
            obj.custom_dice(
                guid, url, die_rotation_values(spec["faces"]),
                nickname=("Symbol die " if symbols else "Die ") + str(i + 1),
                tags=["Die"],
                transform=obj.transform((x + 2.0 * (i + offset), DIE_Y, z)),
            )
        )
    return found


def _seat_context(data: dict[str, Any]) -> list[dict[str, Any]]:
    seats = []
    for slot, seat in enumerate(data["table"]["seats"], start=1):
        rpg = data["table"]["type"] == "Table_RPG"
        hand = RPG_HAND_PLACEMENTS.get(seat["color"]) if rpg else None
        seats.append(
            {
                "slot": slot,
                "color": seat["color"],
                "facing": float(seat["facing"]),
                "reveal": _xyz(seat["reveal"], CARD_Y + 0.2),
                "hand": [float(v) for v in hand[0]] if hand else _xyz(seat["reveal"], CARD_Y + 2),
            }
        )
    return seats


def assemble(definition: Any, images: Any, options: Any) -> Any:
    """The whole flood-race build (or one variant's): art, Global script and UI, save, previews."""
    from ..build import GameBuild, file_digest
    from ..lua.scripts import global_script, global_ui
    from ..render import render_preview, render_thumbnail
    from ..render.hexmap import flood_tile_scale, hex_table, render_flood_tile
    from ..save import GuidAllocator, dumps, new_save
    from ..save import objects as obj

    data = definition.data
    game_id = definition.id
    variant = options.variant
    vspec = variant_spec(data, variant)
    junior = bool(vspec.get("junior"))
    config = rules_config(data, variant)
    rules = data["rules"]
    components = data["components"]
    table = data["table"]
    art = _Art(definition)
    guids = GuidAllocator(game_id)
    geo = geometry(data)
    pos = table_positions(data)
    animals = data["animals"]
    per = rules["pieces_per_species"]
    digests = {a["art"]: file_digest(definition.root / a["art"]) for a in animals}
    name = vspec.get("name", data["name"])
    description = vspec.get("description", data["description"])
    objects: list[dict[str, Any]] = []

    # The board, with a snap point on every hex centre.
    board_spec = {"board": [data["map"], rules["terrain"], components["board"], table["board"],
                            data["name"]]}
    board_url = images.png("board", board_spec, art.board)
    board = obj.custom_tile(
        guids.guid("board"), board_url, tile_type=0, thickness=geo.thickness, locked=True,
        nickname=data["name"], tags=["Board"],
        transform=obj.transform(
            (geo.centre[0], geo.y, geo.centre[1]), (0, 180, 0), (geo.scale, 1.0, geo.scale)
        ),
    )
    objects.append(board)
    snap_points = [
        obj.snap_point((x, geo.top_y, z), tags=["Animal"]) for x, z in pos["hexes"]
    ]

    # Pieces: two per species, standing on the first start hexes until Setup places them.
    piece_guids = []
    starts = data["map"]["starts"]
    for k, animal in enumerate(animals):
        fields = animal_fields(animal)
        url = images.png(
            f"piece-{k + 1}",
            {"layout": components["piece"], "fields": fields, "art": digests[animal["art"]]},
            lambda fields=fields: art.layout("piece", "face", fields),
        )
        for j in range(per):
            index = k * per + j
            x, z = hex_table(geo, *starts[index])
            guid = guids.guid(f"piece:{animal['name']}:{j}")
            piece_guids.append(guid)
            objects.append(
                obj.custom_token(
                    guid, url, thickness=0.15, stand_up=True, nickname=f"{animal['name']} {j + 1}",
                    gm_notes=json.dumps({"animal": animal["name"], "piece": index}),
                    tags=["Animal"],
                    transform=obj.transform(
                        (x, pos["piece_y"], z), (0, 180, 0),
                        (PIECE_SCALE, 1.0, PIECE_SCALE),
                    ),
                )
            )

    # The flood marker, and the bag of flood tiles.
    marker_url = images.png(
        "flood-marker", {"layout": components["flood_marker"]},
        lambda: art.layout("flood_marker", "face", {}),
    )
    mx, mz = pos["markers"][0]
    marker = obj.custom_token(
        guids.guid("flood-marker"), marker_url, thickness=0.15, stand_up=True,
        nickname="Flood marker", tags=["FloodMarker"],
        transform=obj.transform((mx, pos["marker_y"], mz), (0, 180, 0),
                                (MARKER_SCALE, 1.0, MARKER_SCALE)),
    )
    objects.append(marker)
    tile_url = images.png(
        "flood-tile", {"tile": components["board"]["style"]},
        lambda: render_flood_tile(components["board"]["style"]),
    )
    tile_scale = flood_tile_scale(geo)
    bag_at = _xyz(table["flood_bag"], BAG_Y)
    tile = obj.custom_token(
        guids.guid("flood-tile-template"), tile_url, thickness=0.08, nickname="Flood",
        tags=["FloodTile"],
        transform=obj.transform(bag_at, (0, 180, 0), (tile_scale, 1.0, tile_scale)),
    )
    bag = obj.infinite_bag(
        guids.guid("flood-bag"), tile, nickname="Flood tiles", tags=["FloodBag"],
        transform=obj.transform(bag_at),
    )
    objects.append(bag)

    # The Ark zone.
    zx, zy, zz, zw, zh, zd = pos["ark_zone"]
    zone = obj.scripting_trigger(
        guids.guid("ark-zone"), obj.transform((zx, zy, zz), (0, 0, 0), (zw, zh, zd)),
        nickname="The Ark", tags=["Animal"],
    )
    objects.append(zone)

    # Dice: the players' dice, and the number dice the flood rolls (the same in the standard
    # game; the junior game has number dice only if its flood rolls between rounds).
    dice_guids = _add_dice(data, junior, images, guids, objects)
    flood_dice = dice_guids
    if junior:
        flood_dice = (
            _add_dice(data, False, images, guids, objects, offset=len(dice_guids))
            if rules["junior"]["flood_rolls_per_starting_player"] > 0
            else []
        )

    # Cards: the animal cards and one movement-cost card per seat (not in the junior game).
    deck_guid, cost_guids = ("", []) if junior else _add_cards(data, art, images, guids, objects)

    # Hand zones (the dealt card is secret) for the seats.
    for seat in table["seats"]:
        hand = RPG_HAND_PLACEMENTS.get(seat["color"]) if table["type"] == "Table_RPG" else None
        if hand is not None:
            objects.append(
                obj.hand_trigger(guids.guid(f"hand:{seat['color']}"), seat["color"],
                                 obj.transform(*hand))
            )

    ctx = {
        "game": {"id": game_id, "name": name, "junior": junior},
        "config": config,
        "players": dict(data["players"]),
        "seats": _seat_context(data),
        "guids": {
            "board": board["GUID"],
            "pieces": piece_guids,
            "marker": marker["GUID"],
            "bag": bag["GUID"],
            "ark_zone": zone["GUID"],
            "dice": dice_guids,
            "flood_dice": flood_dice,
            "deck": deck_guid,
            "cost_cards": cost_guids,
        },
        "geometry": pos,
        "positions": {
            "deck": _xyz(table["deck"], CARD_Y),
            "set_aside": _xyz(table["set_aside"], CARD_Y),
        },
    }
    script = global_script(game_id, ctx)
    ui = global_ui(game_id, ctx)
    save = new_save(
        save_name=name,
        game_mode=name,
        objects=objects,
        lua_script=script,
        xml_ui=ui,
        tags=data.get("tags", []),
        player_counts=(data["players"]["min"], data["players"]["max"]),
        playing_time=data.get("playing_time"),
        complexity=data.get("complexity", ""),
        table=table["type"],
        sky=table["sky"],
        note=description,
        snap_points=snap_points,
    )

    # Thumbnail and the designer's preview sheet (drawn only when not cached).
    images.png(
        "thumbnail", {"thumb": [board_spec, [digests[a["art"]] for a in animals[:3]], name]},
        lambda: render_thumbnail(
            name,
            [art.board(), *[art.layout("piece", "face", animal_fields(a)) for a in animals[:3]]],
        ),
    )
    images.png(
        "preview",
        {"preview": [board_spec, components, rules, [digests[a["art"]] for a in animals]]},
        lambda: render_preview(_preview_items(art), columns=6),
    )
    files: dict[str, bytes] = {}
    files[f"{game_id}.png"] = images.files.pop("images/thumbnail.png")
    files["preview.png"] = images.files.pop("images/preview.png")
    files[f"{game_id}.json"] = dumps(save)
    files["scripts/Global.lua"] = script.encode("utf-8")
    files["scripts/Global.xml"] = ui.encode("utf-8")
    return GameBuild(game_id, definition, save, script, ui, files)


def _add_cards(
    data: dict[str, Any], art: _Art, images: Any, guids: Any, objects: list
) -> tuple[str, list[str]]:
    """Add the deck of animal cards and a cost card per seat; their GUIDs."""
    from ..build import file_digest
    from ..render import compose_sheet, plan_sheets
    from ..save import objects as obj

    components, table, animals = data["components"], data["table"], data["animals"]
    per = data["rules"]["pieces_per_species"]
    digests = {a["art"]: file_digest(art.definition.root / a["art"]) for a in animals}
    card_size = tuple(components["card"]["size"])
    back_url = images.png(
        "card-back", {"layout": components["card"]["back"], "size": card_size},
        lambda: art.layout("card", "back", {}),
    )
    plan = plan_sheets(len(animals), card_size)[0]
    face_specs = [
        {"layout": components["card"]["face"], "fields": animal_fields(a),
         "art": digests[a["art"]]}
        for a in animals
    ]
    faces_url = images.png(
        "cards-1", {"sheet": face_specs, "grid": [plan.num_width, plan.num_height]},
        lambda: compose_sheet(
            [art.layout("card", "face", animal_fields(a)) for a in animals], plan, card_size
        ),
    )
    entry = obj.custom_deck_entry(faces_url, back_url, plan.num_width, plan.num_height)
    deck_at = _xyz(table["deck"], CARD_Y)
    cards = [
        obj.card(
            guids.guid(f"card:{a['name']}:{j}"), obj.card_id(1, k), entry,
            nickname=a["name"], gm_notes=json.dumps({"animal": a["name"]}),
            tags=["AnimalCard"], transform=obj.transform(deck_at, (0, 180, 180)),
        )
        for k, a in enumerate(animals)
        for j in range(per)
    ]
    deck = obj.deck(
        guids.guid("deck"), cards, nickname="Animal cards", tags=["AnimalDeck"],
        transform=obj.transform(deck_at, (0, 180, 180)),
    )
    objects.append(deck)
    cost_url = images.png(
        "cost-card",
        {"cost": [data["rules"], [[a["name"], digests[a["art"]]] for a in animals],
                  components["cost_card"], components["board"]["style"]]},
        art.cost_card,
    )
    cost_entry = obj.custom_deck_entry(cost_url, back_url, 1, 1)
    cost_guids = []
    for seat in table["seats"]:
        guid = guids.guid(f"cost-card:{seat['color']}")
        cost_guids.append(guid)
        objects.append(
            obj.card(
                guid, obj.card_id(2, 0), cost_entry, nickname="Movement costs",
                tags=["CostCard"], sideways=True,
                transform=obj.transform(
                    _xyz(seat["cost_card"], CARD_Y), (0, float(seat["facing"]) + 180, 0)
                ),
            )
        )
    return deck["GUID"], cost_guids


def _preview_items(art: _Art) -> list[tuple[str, Any]]:
    """Every component picture, labelled, for the designer's preview sheet."""
    from ..render import render_die_texture
    from ..render.hexmap import render_flood_tile

    data = art.data
    animals = data["animals"]
    components = data["components"]
    rules = data["rules"]
    items = [("board", art.board())]
    items += [(a["name"], art.layout("card", "face", animal_fields(a))) for a in animals]
    items += [("card back", art.layout("card", "back", {}))]
    items += [(f"{a['name']} piece", art.layout("piece", "face", animal_fields(a)))
              for a in animals]
    items += [
        ("movement costs", art.cost_card()),
        ("flood marker", art.layout("flood_marker", "face", {})),
        ("flood tile", render_flood_tile(components["board"]["style"])),
        ("number die", render_die_texture(die_labels(rules["dice"]["faces"]),
                                          components["number_die"]["style"])),
        ("symbol die", render_die_texture(die_labels(rules["junior"]["dice"]["faces"]),
                                          components["symbol_die"]["style"])),
    ]
    return items
