"""The flood race's definition keys (``FIELDS``, ``OPTIONAL``), its terrain names and the rule
config it shares with rules_ref."""

from __future__ import annotations

from rules_ref.arche_noah_flood import config_from_definition

from ...errors import FieldError
from ...gamekit.specs import SIZE, component, mapping_of
from ...json_types import Json
from ...render import check_die_style, validate_layout
from ...schema import Bool, Color, Custom, Int, ListOf, Map, OneOf, Point, Str
from ...table import MANIFEST
from ...variants import with_variant

SYMBOLS = ("sun", "water")
#: The rules a game is played by (``rules.mode``): rules_ref's and the Lua's ``variant`` input.
MODES = ("standard", "junior")
COST_COLORS = ("background", "frame", "ink", "header", "forbidden")

HEX = ListOf(Int(0, 99), 2, 2)
EDGE = ListOf(HEX, 2, 2)


def _is_int(value: Json) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _cost(allow_zero: bool, extra: tuple[str, ...] = ()) -> Custom:
    """A step cost: a positive integer (or >= 0), null (may not), or one of ``extra``."""

    def check(value: Json, path: str) -> None:
        if value is None or value in extra:
            return
        least = 0 if allow_zero else 1
        if not _is_int(value) or value < least:
            options = ", ".join(["null", *extra])
            raise FieldError(path, f"expected an integer >= {least} or {options}, got {value!r}")

    return Custom(check)


def _die_face(numbers_only: bool) -> Custom:
    """A die face: an integer 0..99, or (symbol dice) sun or water."""

    def check(value: Json, path: str) -> None:
        if _is_int(value) and 0 <= value <= 99:
            return
        if not numbers_only and value in SYMBOLS:
            return
        allowed = "an integer from 0 to 99" + ("" if numbers_only else ", sun or water")
        raise FieldError(path, f"expected {allowed}, got {value!r}")

    return Custom(check)


def _dice(numbers_only: bool) -> Map:
    return Map({"count": Int(1, 4), "faces": ListOf(_die_face(numbers_only), 6, 6)})


def _costs(value: Json, path: str) -> None:
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
        "terrain": mapping_of(Str(pattern=r"[A-Z]", hint="one capital letter"), Str(), "letters"),
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
        "mode": OneOf(MODES),
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


def _cost_card(value: Json, path: str) -> None:
    """The cost card: its size, its named colours and the layout drawn with its fields."""
    Map(
        {
            "size": SIZE,
            "colors": Map({k: Color() for k in COST_COLORS}),
            "face": ListOf(Custom(lambda v, p: None), 1),
        }
    ).check(value, path)
    validate_layout(value["face"], f"{path}.face", tuple(value["size"]))


def _number_in(low: float, high: float) -> Custom:
    """A number (int or float, not bool) from ``low`` to ``high``."""

    def check(value: Json, path: str) -> None:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if not ok or not low <= value <= high:
            raise FieldError(path, f"expected a number from {low:g} to {high:g}, got {value!r}")

    return Custom(check)


BOARD = Map(
    {
        "centre": Point(2),
        "hex_width": _number_in(0.5, 10.0),
        "pixels_per_unit": _number_in(16.0, 160.0),
    }
)

FIELDS = {
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
            "flood-marker": component("face"),
            "cost_card": Custom(_cost_card),
            # die styles: checked as drawing them would check them, without drawing
            "number_die": Map({"style": Custom(check_die_style)}),
            "symbol_die": Map({"style": Custom(check_die_style)}),
            "board": Map({"style": mapping_of(Str(), Color(), "style key -> colour")}),
        }
    ),
    # The table manifest (tts_builder.table), plus the board's place and scale.
    "table": Map({**MANIFEST.fields, "board": BOARD}, MANIFEST.optional),
}
OPTIONAL: frozenset[str] = frozenset()


def terrains(data: Json) -> list[str]:
    """The terrain names of ``rules.terrain``, each once, in letter order of first use."""
    return list(dict.fromkeys(data["rules"]["terrain"].values()))


def rules_config(data: Json, variant: str | None = None) -> Json:
    """The config shared by rules_ref and the Lua: ``rules`` (the variant's merged in) plus
    ``map`` and the species names. ``mode`` says which rules apply (the rule functions take
    it as their ``"variant"`` input)."""
    return config_from_definition(with_variant(data, variant))
