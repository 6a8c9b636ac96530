"""Ark & Noah definition keys: the rule numbers' shape, the variants, art, boards and table."""

from __future__ import annotations

from ...errors import FieldError
from ...gamekit.specs import by_player_count as _by_count
from ...gamekit.specs import component
from ...json_types import Json
from ...save.tables import SEAT_COLORS
from ...schema import Bool, Color, Custom, Int, ListOf, Map, Num, OneOf, Point, Str
from ...table import MANIFEST

ID = r"[a-z0-9]+(-[a-z0-9_]+)*"
_SECTION_KINDS = ("bow", "middle", "stern")
_PIECES = ("food", "pitch", "divider", "worker", "score", "bonus", "round")


def _ints(high: int, *keys: str) -> dict[str, Int]:
    """Keys each taking an integer from 0 to ``high``."""
    return {key: Int(0, high) for key in keys}


def _colors(*keys: str) -> Map:
    return Map({key: Color() for key in keys})


ACTION = Map(
    {
        "id": Str(pattern=ID, hint="a lower-case action id"),
        "name": Str(),
        "kind": OneOf(("gain", "tame", "trade", "build", "load")),
        "resource": OneOf(("pitch", "food", "dividers")),
        **_ints(99, "occupant", "others"),
        "shared": Bool(),
    },
    frozenset({"resource", "occupant", "others"}),
)

RULES = Map(
    {
        "supply": Map(
            {**_ints(999, "dividers_per_color", "food", "pitch"), **_ints(99, "bonus_tokens")}
        ),
        "bonus_max": Int(0, 99),
        "workers": _by_count({"count": Int(1, 9)}),
        "ark": Map(
            {
                "section": Map({"rows": Int(1, 12), "cols": Int(1, 12)}),
                "sections": _by_count({"layout": ListOf(OneOf(_SECTION_KINDS), 1, 8)}),
                "enclosure_max": Int(1, 99),
            }
        ),
        "turn_mode": OneOf(("worker", "seats")),
        "first_round_spaces": _by_count({"seats": ListOf(ListOf(Str(pattern=ID), 1), 1)}),
        "actions": ListOf(ACTION, 1, 12),
        "taming": Map({"draws": _by_count(_ints(9, "male", "female", "either"))}),
        "trading": Map(
            {
                "bonus": ListOf(OneOf(("vp", "food", "divider", "pitch")), 1),
                "bonus_amount": Int(0, 99),
                "swap": Bool(),
                "draws": Int(0, 9),
                "exchange": OneOf(("unpaired", "any")),
                "exchange_optional": Bool(),
            }
        ),
        "building": Map(_ints(99, "vp_per_element")),
        "loading": Map(
            {
                **_ints(99, "food_lp", "food_vp"),
                "food_needs_own_divider": Bool(),
                "cost": OneOf(("size", "pairs")),
                "food_required": Bool(),
                "pitch_required": Bool(),
                "capacity": Map(_ints(9, "small", "large")),
                "small_fits_any_size": Bool(),
                **_ints(99, "divider_vp", "pitch_vp"),
            }
        ),
        "small_animals": Bool(),
        "setup": Map(
            {
                **_ints(99, "dividers", "pitch", "food"),
                **_ints(9, "males", "females"),
                "starting_pair_allowed": Bool(),
            }
        ),
        "end": Map({"min_rounds": Int(1, 99), "full_hull": Bool(), "deluge": Bool()}),
        "final": Map(
            {
                "hull_majority_bonus": Int(0, 99),
                "leftover_penalty": Map(_ints(99, "dividers", "food", "pitch")),
                "animal_penalty_per_size": Int(0, 99),
            }
        ),
    }
)


def _any_mapping(value: Json, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, f"expected a mapping, got {type(value).__name__}")


_SPECIES = Map(
    {
        "name": Str(),
        "size": Int(0, 9),
        "vp": Int(0, 99),
        "min_players": Int(1, 10),
        "female_name": Str(),
    },
    frozenset({"min_players", "female_name"}),
)
_LINE = Map({"start": Point(2), "step": Point(2)})  # a row of places: the first, the next
_SEAT = Map({"color": OneOf(SEAT_COLORS), "area": Point(2), "facing": Num()})

FIELDS = {
    "colors": ListOf(Map({"name": OneOf(SEAT_COLORS), "hex": Color()}), 1, 10),
    "characters": ListOf(Str(), 1, 10),
    "rules": RULES,
    "species": ListOf(_SPECIES, 2, 60),
    "art": Custom(_any_mapping),
    "tile_colors": _colors("male", "female", "paired"),
    "components": Map(
        {
            "animal": component("unpaired", "paired", "back"),
            "character": component("face"),
            **{piece: component("face") for piece in _PIECES},
        }
    ),
    "boards": Map(
        {
            "ark": Map({"square": Int(40, 400), "margin": Int(10, 400), "prow": Int(0, 800)}),
            "ark_colors": _colors("wood", "plank", "deck", "square", "line", "label", "pitch"),
            "board_colors": _colors("frame", "board", "column", "ink", "space", "bonus", "accent"),
            "track_colors": Map(
                {**_colors("frame", "cell", "cell_alt", "ink", "deluge").fields, "rainbow": Str()}
            ),
        }
    ),
    "table": Map(
        {
            "type": MANIFEST.fields["type"],
            "sky": Str(),
            "square": Num(),
            "ark": Point(2),
            "round_track_cell": Num(),
            "bags": Map({"male": Point(2), "female": Point(2)}),
            "drawn": _LINE,
            "bonus_bags": _LINE,
            "supply": _LINE,
            "seats": ListOf(_SEAT, 1, 10),
            "area_size": Point(2),
            "pieces": MANIFEST.fields["pieces"],  # the boards and loose pieces (the manifest's)
            "seat_fields": MANIFEST.fields["seat_fields"],
        }
    ),
}
OPTIONAL: frozenset[str] = frozenset()
