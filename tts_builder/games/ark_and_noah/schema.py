"""Ark & Noah definition keys: the rule numbers' shape, the variants, art, boards and table."""

from __future__ import annotations

from ...errors import FieldError
from ...gamekit.specs import TABLES, component
from ...gamekit.specs import by_player_count as _by_count
from ...json_types import Json
from ...save.tables import SEAT_COLORS
from ...schema import Bool, Color, Custom, Int, ListOf, Map, Num, OneOf, Point, Str

ID = r"[a-z0-9]+(-[a-z0-9_]+)*"
_SECTION_KINDS = ("bow", "middle", "stern")
_PIECES = ("food", "pitch", "divider", "worker", "score", "bonus", "round")


ACTION = Map(
    {
        "id": Str(pattern=ID, hint="a lower-case action id"),
        "name": Str(),
        "kind": OneOf(("gain", "tame", "trade", "build", "load")),
        "resource": OneOf(("pitch", "food", "dividers")),
        "occupant": Int(0, 99),
        "others": Int(0, 99),
        "shared": Bool(),
    },
    frozenset({"resource", "occupant", "others"}),
)

RULES = Map(
    {
        "supply": Map(
            {
                "dividers_per_color": Int(0, 999),
                "food": Int(0, 999),
                "pitch": Int(0, 999),
                "bonus_tokens": Int(0, 99),
            }
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
        "taming": Map({"draws": _by_count({s: Int(0, 9) for s in ("male", "female", "either")})}),
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
        "building": Map({"vp_per_element": Int(0, 99)}),
        "loading": Map(
            {
                "food_lp": Int(0, 99),
                "food_vp": Int(0, 99),
                "food_needs_own_divider": Bool(),
                "cost": OneOf(("size", "pairs")),
                "food_required": Bool(),
                "pitch_required": Bool(),
                "capacity": Map({"small": Int(0, 9), "large": Int(0, 9)}),
                "small_fits_any_size": Bool(),
                "divider_vp": Int(0, 99),
                "pitch_vp": Int(0, 99),
            }
        ),
        "small_animals": Bool(),
        "setup": Map(
            {
                "dividers": Int(0, 99),
                "pitch": Int(0, 99),
                "food": Int(0, 99),
                "males": Int(0, 9),
                "females": Int(0, 9),
                "starting_pair_allowed": Bool(),
            }
        ),
        "end": Map({"min_rounds": Int(1, 99), "full_hull": Bool(), "deluge": Bool()}),
        "final": Map(
            {
                "hull_majority_bonus": Int(0, 99),
                "leftover_penalty": Map({k: Int(0, 99) for k in ("dividers", "food", "pitch")}),
                "animal_penalty_per_size": Int(0, 99),
            }
        ),
    }
)


def _any_mapping(value: Json, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, f"expected a mapping, got {type(value).__name__}")


FIELDS = {
    "colors": ListOf(Map({"name": OneOf(SEAT_COLORS), "hex": Color()}), 1, 10),
    "characters": ListOf(Str(), 1, 10),
    "rules": RULES,
    "species": ListOf(
        Map(
            {
                "name": Str(),
                "size": Int(0, 9),
                "vp": Int(0, 99),
                "min_players": Int(1, 10),
                "female_name": Str(),
            },
            frozenset({"min_players", "female_name"}),
        ),
        2,
        60,
    ),
    "art": Custom(_any_mapping),
    "tile_colors": Map({"male": Color(), "female": Color(), "paired": Color()}),
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
            "ark_colors": Map(
                {k: Color() for k in ("wood", "plank", "deck", "square", "line", "label", "pitch")}
            ),
            "board_colors": Map(
                {
                    k: Color()
                    for k in ("frame", "board", "column", "ink", "space", "bonus", "accent")
                }
            ),
            "track_colors": Map(
                {
                    **{k: Color() for k in ("frame", "cell", "cell_alt", "ink", "deluge")},
                    "rainbow": Str(),
                }
            ),
        }
    ),
    "table": Map(
        {
            "type": OneOf(TABLES),
            "sky": Str(),
            "square": Num(),
            "ark": Point(2),
            "action_board": Point(2),
            "action_board_width": Num(),
            "score_track": Point(2),
            "score_track_width": Num(),
            "round_track": Point(2),
            "round_track_cell": Num(),
            "bags": Map({"male": Point(2), "female": Point(2)}),
            "drawn": Map({"start": Point(2), "step": Point(2)}),
            "bonus_bags": Map({"start": Point(2), "step": Point(2)}),
            "supply": Map({"start": Point(2), "step": Point(2)}),
            "seats": ListOf(
                Map({"color": OneOf(SEAT_COLORS), "area": Point(2), "facing": Num()}), 1, 10
            ),
            "area_size": Point(2),
        }
    ),
}
OPTIONAL: frozenset[str] = frozenset()
