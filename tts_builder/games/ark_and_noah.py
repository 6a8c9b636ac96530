"""Ark & Noah (RULINGS §2, seed 002): definition keys, cross-checks, rule config and TTS tables.

One build holds a save per player count (``ark-and-noah-2p.json``, ``-3p``, ``-4p``, each with
its thumbnail beside it): the Ark, the bags and the player areas differ. ``GameBuild.save`` is
the largest (4-player) one. Pictures are rendered once and shared by every player count and
by the family variant (the action board is one double-sided tile).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from ..errors import FieldError
from ..save.tables import HAND_PLACEMENTS, SEAT_COLORS, TABLE_NAMES
from ..schema import Bool, Color, Custom, Int, ListOf, Map, Num, OneOf, Point, Str

GAME_ID = "ark-and-noah"

BOARD_Y = 1.0  # boards lie on the table
PIECE_Y = 1.25  # pieces dropped on boards and areas
BAG_Y = 1.8
ID = r"[a-z0-9]+(-[a-z0-9_]+)*"
SIZE = ListOf(Int(16, 4096), 2, 2)
PLAYERS = ListOf(Int(1, 10), 1)
_ANY = Custom(lambda value, path: None)  # elements are checked by validate_layout
_SECTION_KINDS = ("bow", "middle", "stern")
_PIECES = ("food", "pitch", "divider", "worker", "score", "bonus", "round")


def component(*sides: str) -> Custom:
    """A component: a pixel size and one layout per side, checked against that size."""
    shape = Map({"size": SIZE, **{side: ListOf(_ANY, 1) for side in sides}})

    def check_component(value: Any, path: str) -> None:
        from ..render import validate_layout

        shape.check(value, path)
        for side in sides:
            validate_layout(value[side], f"{path}.{side}", tuple(value["size"]))

    return Custom(check_component)


def _by_count(item: dict[str, Any]) -> ListOf:
    return ListOf(Map({"players": PLAYERS, **item}), 1)


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


def _mapping_of(value_spec: Any, key_hint: str = "a lower-case id") -> Custom:
    """A mapping whose keys are lower-case ids and whose values all fit ``value_spec``."""

    def check_mapping(value: Any, path: str) -> None:
        if not isinstance(value, dict) or not value:
            raise FieldError(path, f"expected a mapping of {key_hint} to entries")
        for key, item in value.items():
            Str(pattern=ID, hint=key_hint).check(key, f"{path}.{key}")
            value_spec.check(item, f"{path}.{key}")

    return Custom(check_mapping)


def _any_mapping(value: Any, path: str) -> None:
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
    # variants carry data here: id -> {name, description, rules (merged over `rules`)}
    "variants": _mapping_of(
        Map({"name": Str(), "description": Str(), "rules": Custom(_any_mapping)}),
        "a lower-case variant id",
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
            "type": OneOf(
                tuple(
                    t
                    for t in TABLE_NAMES
                    if t not in ("Table_None", "Table_Custom", "Table_Custom_Square")
                )
            ),
            "sky": Str(),
            "square": Num(),
            "ark": Point(2),
            "action_board": Point(2),
            "action_board_width": Num(),
            "score_track": Point(2),
            "score_track_width": Num(),
            "round_track": Point(2),
            "round_track_width": Num(),
            "bags": Map({"male": Point(2), "female": Point(2)}),
            "drawn": Map({"start": Point(2), "step": Point(2)}),
            "supply": Map({"start": Point(2), "step": Point(2)}),
            "seats": ListOf(
                Map({"color": OneOf(SEAT_COLORS), "area": Point(2), "facing": Num()}), 1, 10
            ),
            "area_size": Point(2),
        }
    ),
}
OPTIONAL: frozenset[str] = frozenset({"variants"})


# --------------------------------------------------------------------------- checks


def _covers(entries: list[dict], path: str, low: int, high: int) -> None:
    seen: set[int] = set()
    for index, entry in enumerate(entries):
        for j, count in enumerate(entry["players"]):
            if count in seen:
                raise FieldError(f"{path}[{index}].players[{j}]", f"{count} players listed twice")
            seen.add(count)
    for count in range(low, high + 1):
        if count not in seen:
            raise FieldError(path, f"no entry for {count} players")


def _check_rules(rules: dict[str, Any], path: str, data: dict[str, Any]) -> None:
    """The rule numbers' cross-checks (also run on every variant's merged rules)."""
    from rules_ref.ark_and_noah import for_players

    low, high = data["players"]["min"], data["players"]["max"]
    for key, sub in (
        ("workers", "workers"),
        ("ark.sections", "ark"),
        ("taming.draws", "taming"),
        ("first_round_spaces", "first_round_spaces"),
    ):
        entries = (
            rules[sub]["sections"]
            if key == "ark.sections"
            else (rules[sub]["draws"] if key == "taming.draws" else rules[sub])
        )
        _covers(entries, f"{path}.{key}", low, high)
    ids = [a["id"] for a in rules["actions"]]
    for index, action in enumerate(rules["actions"]):
        where = f"{path}.actions[{index}]"
        if ids.index(action["id"]) != index:
            raise FieldError(f"{where}.id", f"action {action['id']!r} listed twice")
        if action["kind"] in ("gain", "build", "load"):
            for key in ("occupant", "others"):
                if key not in action:
                    raise FieldError(where, f"a {action['kind']} action needs {key}")
        if action["kind"] == "gain" and "resource" not in action:
            raise FieldError(where, "a gain action needs a resource")
    worker_spaces = rules["first_round_spaces"] if rules["turn_mode"] == "worker" else []
    for index, entry in enumerate(worker_spaces):
        for seat, spaces in enumerate(entry["seats"]):
            for j, space in enumerate(spaces):
                if space not in ids:
                    raise FieldError(
                        f"{path}.first_round_spaces[{index}].seats[{seat}][{j}]",
                        f"no action space {space!r} (spaces: {', '.join(ids)})",
                    )
    for n in range(low, high + 1):
        layout = for_players(rules["ark"]["sections"], n)["layout"]
        if len(layout) < 2 or layout[0] != "bow" or layout[-1] != "stern":
            raise FieldError(f"{path}.ark.sections", f"{n} players: the Ark runs bow ... stern")
        workers = for_players(rules["workers"], n)["count"]
        seats = for_players(rules["first_round_spaces"], n)["seats"]
        if rules["turn_mode"] == "worker":
            if len(seats) != n or any(len(s) != workers for s in seats):
                raise FieldError(
                    f"{path}.first_round_spaces",
                    f"{n} players need {n} seats of {workers} space(s) each",
                )
            if len(ids) < n * workers:
                raise FieldError(f"{path}.actions", f"too few spaces for {n * workers} workers")
        setup, supply = rules["setup"], rules["supply"]
        for key, have in (
            ("dividers", supply["dividers_per_color"]),
            ("food", supply["food"]),
            ("pitch", supply["pitch"]),
        ):
            need = setup[key] * (1 if key == "dividers" else n)
            if need > have:
                raise FieldError(
                    f"{path}.setup.{key}", f"{n} players need {need}, the supply has {have}"
                )
        species = [
            s
            for s in data["species"]
            if s.get("min_players", 2) <= n and (rules["small_animals"] or s["size"] > 0)
        ]
        for sex in ("males", "females"):
            if setup[sex] * n > len(species):
                raise FieldError(f"{path}.setup.{sex}", f"more draws than tiles for {n} players")


def check(data: dict[str, Any], root: Path) -> None:
    """Cross-field checks: player-count coverage, ids, supplies, variants, art, seats."""
    from rules_ref.ark_and_noah import make_config

    high = data["players"]["max"]
    if len(data["colors"]) < high:
        raise FieldError("colors", f"expected at least {high} colours, got {len(data['colors'])}")
    if len(data["characters"]) < high:
        raise FieldError("characters", f"expected at least {high} characters")
    names = [s["name"] for s in data["species"]]
    for index, name in enumerate(names):
        if names.index(name) != index:
            raise FieldError(f"species[{index}].name", f"species {name!r} listed twice")
    _check_rules(data["rules"], "rules", data)
    for variant, spec in data.get("variants", {}).items():
        try:
            merged = make_config(data, variant)
        except (KeyError, ValueError, TypeError) as err:
            raise FieldError(f"variants.{variant}.rules", f"cannot merge: {err}") from None
        rules = {k: merged[k] for k in data["rules"]}
        RULES.check(rules, f"variants.{variant}.rules")
        _check_rules(rules, f"variants.{variant}.rules", data)
        del spec
    art = data["art"]
    for index, s in enumerate(data["species"]):
        for shown in {s["name"], s.get("female_name", s["name"])}:
            if shown not in art:
                raise FieldError("art", f"no picture for {shown!r} (species[{index}])")
    for shown, rel in art.items():
        if not isinstance(rel, str) or not (root / rel).is_file():
            raise FieldError(f"art.{shown}", f"art file not found: {root / str(rel)}")
    seats = data["table"]["seats"]
    if [s["color"] for s in seats[:high]] != [c["name"] for c in data["colors"][:high]]:
        raise FieldError("table.seats", "seats must follow `colors`, one per colour in order")
    _check_clockwise(data["table"]["type"], [s["color"] for s in seats[:high]])


def _check_clockwise(table: str, colours: list[str]) -> None:
    """Seat order is the clockwise turn order (RULINGS §2): on a table whose seats are known
    (FORMAT §5.2, listed clockwise), the colours must come in the table's order, from any seat.
    Colours the table does not seat are not checked here."""
    order = list(HAND_PLACEMENTS.get(table, {}))
    at = [order.index(c) for c in colours if c in order]
    backwards = sum(1 for a, b in zip(at, at[1:] + at[:1], strict=True) if b < a)
    if len(at) > 2 and backwards != 1:
        raise FieldError(
            "table.seats",
            f"seats must run clockwise round {table} (its seats in turn: {', '.join(order)})",
        )


def rules_config(data: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The rule numbers shared by rules_ref and the Lua (rules_ref's ``make_config``)."""
    from rules_ref.ark_and_noah import make_config

    return make_config(data, variant)


# --------------------------------------------------------------------------- tiles


def tile_list(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every animal tile (male then female of each species, roster order) with its fields."""
    out = []
    for index, s in enumerate(data["species"]):
        for sex, symbol in (("male", "\u2642"), ("female", "\u2640")):
            shown = s.get("female_name", s["name"]) if sex == "female" else s["name"]
            mark = {3: "3+", 4: "4"}.get(s.get("min_players", 0), "")
            out.append(
                {
                    "tile": 2 * index + (sex == "female"),
                    "species": s["name"],
                    "sex": sex,
                    "name": shown,
                    "symbol": symbol,
                    "size": s["size"],
                    "vp": s["vp"],
                    "art": data["art"][shown],
                    "mark": mark,
                    "min_players": s.get("min_players", 0),
                }
            )
    return out


def tile_fields(tile: dict[str, Any], side: str, colors: dict[str, str]) -> dict[str, Any]:
    """The fields an animal-tile layout may use on ``side`` (unpaired or paired)."""
    bg = colors["paired"] if side == "paired" else colors[tile["sex"]]
    return {k: tile[k] for k in ("name", "symbol", "size", "vp", "art", "mark")} | {"bg": bg}


def starting_deal(
    tiles: list[int], players: int, males: int, females: int, seed: str
) -> list[list[int]]:
    """A seeded starting deal: per seat ``males`` male and ``females`` female tiles, drawn in
    seat order, never giving a seat both tiles of a species (tile ids: 2 * species + sex)."""
    rng = random.Random(seed)
    bags = {sex: sorted(t for t in tiles if t % 2 == sex) for sex in (0, 1)}
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat in range(players):
        for sex, count in ((0, males), (1, females)):
            for _ in range(count):
                fine = [t for t in bags[sex] if t ^ 1 not in hands[seat]] or bags[sex]
                pick = rng.choice(fine)
                bags[sex].remove(pick)
                hands[seat].append(pick)
    return hands


# --------------------------------------------------------------------------- geometry


def seat_point(seat: dict[str, Any], right: float, forward: float) -> list[float]:
    """A table [x, z] ``right`` of and ``forward`` from a seat's area centre (toward the Ark)."""
    import math

    a = math.radians(seat["facing"])
    x = seat["area"][0] + right * math.cos(a) + forward * math.sin(a)
    z = seat["area"][1] - right * math.sin(a) + forward * math.cos(a)
    return [round(x, 4), round(z, 4)]


#: Where a seat's pieces lie in its area: (right, forward) of the first one and the step.
AREA_SPOTS = {
    "character": ((-4.4, 1.6), (0.0, 0.0)),
    "animals": ((-2.4, 1.5), (1.5, 0.0)),
    "dividers": ((-4.6, -1.6), (0.3, 0.0)),
    "food": ((0.6, -1.6), (0.45, 0.0)),
    "pitch": ((3.2, -1.6), (0.35, 0.0)),
}


def _xyz(xz: list[float], y: float) -> list[float]:
    return [float(xz[0]), float(y), float(xz[1])]


# --------------------------------------------------------------------------- the build


class _Sides:
    """Renders component sides from their layouts, each distinct side once per build."""

    def __init__(self, definition: Any) -> None:
        from ..render import load_art

        self.definition = definition
        self.memo: dict[str, Any] = {}
        root = definition.root
        loaded: dict[str, Any] = {}

        def images(src: str) -> Any:
            if src not in loaded:
                loaded[src] = load_art(root, src, "art")
            return loaded[src]

        self.images = images

    def __call__(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        from ..render import render_layout

        key = json.dumps([component, side, fields], sort_keys=True)
        if key not in self.memo:
            spec = self.definition.data["components"][component]
            self.memo[key] = render_layout(
                spec[side],
                tuple(spec["size"]),
                fields,
                self.images,
                where=f"components.{component}.{side}",
            )
        return self.memo[key]


class _Art:
    """Every picture of the game, rendered lazily through the build's image cache."""

    def __init__(self, definition: Any, images: Any) -> None:
        from ..build import file_digest

        self.definition = definition
        self.data = definition.data
        self.images = images
        self.render = _Sides(definition)
        self.digests = {
            rel: file_digest(definition.root / rel) for rel in self.data["art"].values()
        }
        self.urls: dict[str, str] = {}

    def piece(self, name: str, component: str, fields: dict[str, Any]) -> str:
        """URL of a one-sided piece picture."""
        if name not in self.urls:
            spec = {
                "layout": self.data["components"][component]["face"],
                "size": self.data["components"][component]["size"],
                "fields": fields,
            }
            self.urls[name] = self.images.png(
                name, spec, lambda: self.render(component, "face", fields)
            )
        return self.urls[name]

    def tile_sheets(self, tiles: list[dict[str, Any]]) -> tuple[str, str, Any]:
        """(face sheet URL, back sheet URL, plan): unpaired sides on the faces, paired sides on
        the backs (a sheet of the same grid), one slot per tile in tile order."""
        from ..render import compose_sheet, plan_sheets

        comp = self.data["components"]["animal"]
        size = tuple(comp["size"])
        (plan,) = plan_sheets(len(tiles), size)
        colors = self.data["tile_colors"]
        urls = []
        for side in ("unpaired", "paired"):
            fields = [tile_fields(t, side, colors) for t in tiles]
            spec = {
                "layout": comp[side],
                "size": comp["size"],
                "fields": fields,
                "art": [self.digests[t["art"]] for t in tiles],
                "grid": [plan.num_width, plan.num_height],
                "back": comp["back"],
            }

            def make(side: str = side, fields: list = fields) -> Any:
                faces = [self.render("animal", side, f) for f in fields]
                back = self.render("animal", "back", {})
                return compose_sheet(faces, plan, size, back)

            urls.append(self.images.png(f"animals-{side}", spec, make))
        return urls[0], urls[1], plan


def assemble(definition: Any, images: Any, options: Any) -> Any:
    """The whole Ark & Noah build: art, a save per player count, scripts, thumbnails."""
    from ..build import GameBuild

    data = definition.data
    config = rules_config(data, options.variant)
    art = _Art(definition, images)
    boards = _board_art(data, config, images)
    tiles = tile_list(data)
    face_url, back_url, plan = art.tile_sheets(tiles)
    low, high = data["players"]["min"], data["players"]["max"]
    files: dict[str, bytes] = {}
    saves: dict[int, tuple[dict[str, Any], str, str]] = {}
    for n in range(low, high + 1):
        save, script, ui = _player_count_save(
            definition, config, n, art, boards, tiles, (face_url, back_url, plan)
        )
        saves[n] = (save, script, ui)
        _add_outputs(files, definition.id, n, n == high, save, script, ui)
    thumb = _thumbnail(art, tiles, data["name"], images)
    for n in range(low, high + 1):
        files[f"{definition.id}-{n}p.png"] = thumb
    files["preview.png"] = _preview(art, boards, tiles, images)
    save, script, ui = saves[high]
    return GameBuild(definition.id, definition, save, script, ui, files)


def _add_outputs(
    files: dict[str, bytes], game_id: str, n: int, main: bool, save: Any, script: str, ui: str
) -> None:
    from ..save import dumps

    files[f"{game_id}-{n}p.json"] = dumps(save)
    folder = "scripts" if main else f"scripts/{n}p"
    files[f"{folder}/Global.lua"] = script.encode("utf-8")
    files[f"{folder}/Global.xml"] = ui.encode("utf-8")


def _board_art(data: dict[str, Any], config: dict[str, Any], images: Any) -> dict[str, Any]:
    """URLs and pixel sizes of the boards (Ark sections, action board sides, tracks)."""
    from rules_ref.ark_and_noah import make_config

    from ..render import ark

    b = data["boards"]
    section = config["ark"]["section"]
    geometry = ark.ArkGeometry(section["rows"], section["cols"], **b["ark"])
    out: dict[str, Any] = {"geometry": geometry, "sections": {}}
    whole: dict[str, Any] = {}

    def cut(kind: str) -> Any:
        if not whole:
            whole.update(ark.render_ark_sections(geometry, section["cols"], b["ark_colors"]))
        return whole[kind]

    for kind in ark.SECTION_KINDS:
        spec = {"ark": kind, "geometry": b["ark"], "section": section, "colors": b["ark_colors"]}
        out["sections"][kind] = (
            images.png(
                f"ark-{kind}",
                spec,
                lambda kind=kind: cut(kind),
            ),
            ark.section_size(kind, geometry, section["cols"]),
        )
    sides = {"standard": (make_config(data), f"{data['name']}: actions", True)}
    if "family" in data.get("variants", {}):
        sides["family"] = (
            make_config(data, "family"),
            "Family game: any action, in seat order",
            False,
        )
    for side, (side_config, title, workers) in sides.items():
        actions, texts = side_config["actions"], action_texts(side_config)
        spec = {
            "board": side,
            "actions": actions,
            "title": title,
            "texts": texts,
            "colors": b["board_colors"],
        }
        out[f"board-{side}"] = images.png(
            f"action-board-{side}",
            spec,
            lambda a=actions, t=title, w=workers, x=texts: ark.render_action_board(
                a, t, b["board_colors"], w, x
            ),
        )
    out["score"] = images.png(
        "score-track",
        {"score": b["track_colors"]},
        lambda: ark.render_score_track(b["track_colors"]),
    )
    rounds = config["end"]["min_rounds"]
    out["rounds"] = images.png(
        f"round-track-{rounds}",
        {"rounds": rounds, "colors": b["track_colors"]},
        lambda: ark.render_round_track(rounds, b["track_colors"]),
    )
    return out


def action_texts(config: dict[str, Any]) -> dict[str, str]:
    """What each action does, in a few words for its board column (from the rule numbers)."""
    resources = {"pitch": "pitch cubes", "food": "food", "dividers": "dividers"}
    out = {}
    for action in config["actions"]:
        kind = action["kind"]
        if kind == "gain":
            text = f"take {resources[action['resource']]}"
        elif kind == "tame":
            text = (
                "draw animals; keep one each"
                if action["shared"]
                else "draw animals; keep one, the rest go back"
            )
        elif kind == "trade":
            bonus = "+1 VP" if config["trading"]["bonus"] == ["vp"] else "a bonus"
            draws = config["trading"]["draws"]
            text = (
                f"{bonus}, then swap two dividers or draw {draws} animals"
                if config["trading"]["swap"]
                else f"{bonus}, then draw {draws} animals; may swap one"
            )
        elif kind == "build":
            pitch = config["supply"]["pitch"] > 0
            text = "dividers and pitch to build" if pitch else "dividers to build"
        else:
            text = "pairs to load" if config["loading"]["cost"] == "pairs" else "loading points"
        out[action["id"]] = text
    return out


def _thumbnail(art: _Art, tiles: list[dict[str, Any]], title: str, images: Any) -> bytes:
    from ..render import render_thumbnail

    picks = [t for t in tiles if t["name"] in ("Lion", "Lioness", "Elephant", "Giraffe", "Dove")]
    colors = art.data["tile_colors"]
    spec = {
        "thumb": [tile_fields(t, "unpaired", colors) for t in picks],
        "title": title,
        "art": [art.digests[t["art"]] for t in picks],
    }
    images.png(
        "thumbnail",
        spec,
        lambda: render_thumbnail(
            title,
            [art.render("animal", "unpaired", tile_fields(t, "unpaired", colors)) for t in picks],
        ),
    )
    return images.files.pop("images/thumbnail.png")


def _preview(art: _Art, boards: dict[str, Any], tiles: list[dict[str, Any]], images: Any) -> bytes:
    """The designer's contact sheet: every tile side and every piece."""
    from ..render import render_preview

    colors = art.data["tile_colors"]
    comps = art.data["components"]
    spec = {
        "preview": [[tile_fields(t, s, colors) for t in tiles] for s in ("unpaired", "paired")],
        "comps": comps,
        "art": sorted(art.digests.values()),
        "colors": art.data["colors"],
        "characters": art.data["characters"],
    }

    def make() -> Any:
        items = []
        for t in tiles:
            for side in ("unpaired", "paired"):
                label = t["name"] if side == "unpaired" else "(paired)"
                items.append((label, art.render("animal", side, tile_fields(t, side, colors))))
        for name, colour in zip(art.data["characters"], art.data["colors"], strict=False):
            items.append(
                (name, art.render("character", "face", {"name": name, "color": colour["hex"]}))
            )
            for piece in ("divider", "worker", "score"):
                items.append(
                    (
                        f"{colour['name']} {piece}",
                        art.render(piece, "face", {"color": colour["hex"]}),
                    )
                )
        for value in range(1, 5):
            items.append((f"bonus +{value}", art.render("bonus", "face", {"value": value})))
        for piece in ("food", "pitch", "round"):
            items.append((piece, art.render(piece, "face", {})))
        return render_preview(items, columns=14, cell_max=140)

    images.png("preview", spec, make)
    return images.files.pop("images/preview.png")


def table_points(data: dict[str, Any], config: dict[str, Any], n: int) -> dict[str, Any]:
    """Where the scripted spots of an ``n``-player table lie: the Ark's ``edges`` (name ->
    [x, z, rotY]), ``pitch`` and ``squares`` (name -> [x, z]), its ``rows`` and ``cols``, and
    the action ``spaces`` ([{id, name, completed, current, bonus}] in board order)."""
    from rules_ref.ark_and_noah import for_players

    from ..render import ark

    table = data["table"]
    geometry = ark.ArkGeometry(
        config["ark"]["section"]["rows"], config["ark"]["section"]["cols"], **data["boards"]["ark"]
    )
    layout = for_players(config["ark"]["sections"], n)["layout"]
    whole = ark.ArkGeometry(
        geometry.rows, geometry.cols * len(layout), geometry.square, geometry.margin, geometry.prow
    )
    u = float(table["square"]) / geometry.square
    center = (float(table["ark"][0]), float(table["ark"][1]))
    points = ark.ark_table_points(whole, center, u)
    bu = float(table["action_board_width"]) / ark.BOARD_SIZE[0]
    bcenter = (float(table["action_board"][0]), float(table["action_board"][1]))

    def at(p: tuple[float, float]) -> list[float]:
        # a flipped tile shows its second picture the right way round: same mapping
        return list(ark.px_to_table(p, ark.BOARD_SIZE, bcenter, bu))

    spaces = [
        {
            "id": a["id"],
            "name": a["name"],
            "completed": at(spot.completed),
            "current": at(spot.current),
            "bonus": at(spot.bonus),
        }
        for a, spot in zip(config["actions"], ark.board_spots(len(config["actions"])), strict=True)
    ]
    return {
        **points,
        "rows": whole.rows,
        "cols": whole.cols,
        "spaces": spaces,
        "geometry": whole,
        "units_per_px": u,
        "center": center,
    }


def _player_count_save(
    definition: Any,
    config: dict[str, Any],
    n: int,
    art: _Art,
    boards: dict[str, Any],
    tiles: list[dict[str, Any]],
    sheets: tuple[str, str, Any],
) -> tuple[dict[str, Any], str, str]:
    """The save, Global script and UI of an ``n``-player table."""
    from rules_ref.ark_and_noah import for_players

    from ..lua.scripts import global_script, global_ui
    from ..render import ark
    from ..save import GuidAllocator, new_save
    from ..save import objects as obj

    data = definition.data
    table = data["table"]
    guids = GuidAllocator(f"{definition.id}:{n}")
    geometry = boards["geometry"]
    section_cols = config["ark"]["section"]["cols"]
    layout = for_players(config["ark"]["sections"], n)["layout"]
    spots = table_points(data, config, n)
    whole, u, center = spots["geometry"], spots["units_per_px"], spots["center"]
    colours = [c["name"] for c in data["colors"][:n]]
    hexes = {c["name"]: c["hex"] for c in data["colors"]}
    seats = [
        {**table["seats"][i], "character": data["characters"][i], "hex": hexes[colours[i]]}
        for i in range(n)
    ]
    objects: list[dict[str, Any]] = []
    snaps: list[dict[str, Any]] = []

    # --- boards
    for index, (kind, x0) in enumerate(ark.section_offsets(layout, geometry, section_cols)):
        url, size = boards["sections"][kind]
        cx, cz = ark.px_to_table((x0 + size[0] / 2, size[1] / 2), whole.size, center, u)
        objects.append(
            obj.custom_tile(
                guids.guid(f"ark:{index}"),
                url,
                thickness=0.2,
                locked=True,
                nickname=f"Ark: {kind}",
                tags=["Ark"],
                transform=obj.transform((cx, BOARD_Y, cz), scale=(ark.tile_scale(size, u),) * 3),
            )
        )
    points = spots
    for x, z, angle in points["edges"].values():
        snaps.append(obj.snap_point((x, PIECE_Y - 0.2, z), (0, angle, 0), ["Divider"]))
    for x, z in points["pitch"].values():
        snaps.append(obj.snap_point((x, PIECE_Y - 0.2, z), (0, 0, 0), ["Pitch"]))
    for x, z in points["squares"].values():
        snaps.append(obj.snap_point((x, PIECE_Y - 0.2, z), (0, 0, 0), ["Animal", "Food"]))

    family = config["turn_mode"] != "worker"
    bu = float(table["action_board_width"]) / ark.BOARD_SIZE[0]
    bcenter = (float(table["action_board"][0]), float(table["action_board"][1]))
    secondary = boards.get("board-family", boards["board-standard"])
    objects.append(
        obj.custom_tile(
            guids.guid("action-board"),
            boards["board-standard"],
            secondary,
            thickness=0.2,
            locked=True,
            nickname="Action board",
            tags=["ActionBoard"],
            transform=obj.transform(
                (*bcenter[:1], BOARD_Y, bcenter[1]),
                (0, 0, 180 if family else 0),
                (ark.tile_scale(ark.BOARD_SIZE, bu),) * 3,
            ),
        )
    )
    spaces = spots["spaces"]
    if not family:
        for entry in spaces:
            for key in ("completed", "current"):
                snaps.append(obj.snap_point(_xyz(entry[key], PIECE_Y - 0.2), None, ["Worker"]))
    score_size = ark.score_track_size()
    su = float(table["score_track_width"]) / score_size[0]
    scenter = (float(table["score_track"][0]), float(table["score_track"][1]))
    objects.append(
        obj.custom_tile(
            guids.guid("score-track"),
            boards["score"],
            thickness=0.2,
            locked=True,
            nickname="Scoring track",
            tags=["ScoreTrack"],
            transform=obj.transform(
                (scenter[0], BOARD_Y, scenter[1]), scale=(ark.tile_scale(score_size, su),) * 3
            ),
        )
    )
    score_cells = [
        list(ark.px_to_table(ark.score_cell_px(v), score_size, scenter, su))
        for v in range(ark.SCORE_CELLS)
    ]
    rounds = config["end"]["min_rounds"]
    rsize = ark.round_track_size(rounds)
    ru = float(table["round_track_width"]) / rsize[0]
    rcenter = (float(table["round_track"][0]), float(table["round_track"][1]))
    objects.append(
        obj.custom_tile(
            guids.guid("round-track"),
            boards["rounds"],
            thickness=0.2,
            locked=True,
            nickname="Round track",
            tags=["RoundTrack"],
            transform=obj.transform(
                (rcenter[0], BOARD_Y, rcenter[1]), scale=(ark.tile_scale(rsize, ru),) * 3
            ),
        )
    )
    round_cells = [
        list(ark.px_to_table(ark.round_cell_px(k), rsize, rcenter, ru)) for k in range(rounds + 1)
    ]

    # --- animal tiles
    face_url, back_url, plan = sheets
    entry = obj.custom_deck_entry(
        face_url, back_url, plan.num_width, plan.num_height, unique_back=True
    )
    in_game = [
        t for t in tiles if t["min_players"] <= n and (config["small_animals"] or t["size"] > 0)
    ]
    setup = config["setup"]
    deal = starting_deal(
        [t["tile"] for t in in_game],
        n,
        setup["males"],
        setup["females"],
        f"{definition.id}:{n}:{config['variant']}",
    )
    dealt = {tile: seat for seat, hand in enumerate(deal) for tile in hand}
    tile_info: dict[str, dict[str, Any]] = {}
    bag_tiles: dict[str, list[dict[str, Any]]] = {"male": [], "female": []}
    for t in in_game:
        guid = guids.guid(f"tile:{t['tile']}")
        info = {k: t[k] for k in ("species", "sex", "name", "size", "vp", "tile")}
        tile_info[guid] = info
        seat = dealt.get(t["tile"])
        if seat is not None:
            slot = deal[seat].index(t["tile"])
            (r0, f0), (dr, df) = AREA_SPOTS["animals"]
            xz = seat_point(seats[seat], r0 + dr * slot, f0 + df * slot)
            transform = obj.transform(_xyz(xz, PIECE_Y), (0, seats[seat]["facing"] + 180, 0))
        else:
            transform = obj.transform((0, PIECE_Y, 0), (0, 180, 0))
        card = obj.card(
            guid,
            obj.card_id(1, t["tile"]),
            entry,
            nickname=t["name"],
            description=f"{t['sex']}, size {t['size']}, {t['vp']} VP",
            gm_notes=json.dumps({"kind": "animal", **info}),
            tags=["Animal"],
            transform=transform,
        )
        if seat is not None:
            objects.append(card)
        else:
            bag_tiles[t["sex"]].append(card)
    bag_guids = {}
    for sex in ("male", "female"):
        x, z = table["bags"][sex]
        bag = obj.bag(
            guids.guid(f"bag:{sex}"),
            bag_tiles[sex],
            2,
            nickname=f"{sex.capitalize()} animals",
            tags=["AnimalBag"],
            color=(0.12, 0.12, 0.12) if sex == "male" else (0.95, 0.95, 0.95),
            transform=obj.transform((x, BAG_Y, z)),
        )
        bag_guids[sex] = bag["GUID"]
        objects.append(bag)

    # --- pieces
    def piece(
        key: str,
        url: str,
        kind: str,
        nickname: str,
        scale: float,
        thickness: float,
        xz: list[float],
        tile_type: int = 2,
        rot_y: float = 0.0,
        extra: dict | None = None,
        tags: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        notes = json.dumps({"kind": kind, **(extra or {})})
        return obj.custom_tile(
            guids.guid(key),
            url,
            tile_type=tile_type,
            thickness=thickness,
            nickname=nickname,
            gm_notes=notes,
            tags=[kind.capitalize(), *tags],
            transform=obj.transform(_xyz(xz, PIECE_Y), (0, rot_y, 0), (scale, 1.0, scale)),
        )

    square = float(table["square"])
    divider_scale = square * 0.5 * 32 / 256  # 1.5 units long: height 2*scale = length/8
    food_scale, pitch_scale, token_scale = 0.22, 0.14, 0.3
    supply_xz = [
        [
            table["supply"]["start"][0] + k * table["supply"]["step"][0],
            table["supply"]["start"][1] + k * table["supply"]["step"][1],
        ]
        for k in range(12)
    ]
    supply_guids: dict[str, str] = {}
    food_url = art.piece("food", "food", {})
    pitch_url = art.piece("pitch", "pitch", {})
    stock = {
        "food": config["supply"]["food"] - n * setup["food"],
        "pitch": config["supply"]["pitch"] - n * setup["pitch"],
    }
    slot = 0
    for c in colours:
        url = art.piece(f"divider-{c.lower()}", "divider", {"color": hexes[c]})
        contained = [
            piece(
                f"divider:{c}:{k}",
                url,
                "divider",
                f"{c} divider",
                divider_scale,
                0.25,
                supply_xz[slot],
                0,
                extra={"color": c},
            )
            for k in range(setup["dividers"], config["supply"]["dividers_per_color"])
        ]
        x, z = supply_xz[slot]
        supply = obj.bag(
            guids.guid(f"supply:{c}"),
            contained,
            0,
            nickname=f"{c} dividers",
            tags=["Supply"],
            color=_rgb(hexes[c]),
            transform=obj.transform((x, BAG_Y, z)),
        )
        supply_guids[c] = supply["GUID"]
        objects.append(supply)
        slot += 1
    for kind, url, scale, thick in (
        ("food", food_url, food_scale, 0.15),
        ("pitch", pitch_url, pitch_scale, 0.28),
    ):
        if config["supply"][kind] <= 0:
            continue
        contained = [
            piece(
                f"{kind}:supply:{k}",
                url,
                kind,
                kind.capitalize(),
                scale,
                thick,
                supply_xz[slot],
                2 if kind == "food" else 0,
            )
            for k in range(stock[kind])
        ]
        x, z = supply_xz[slot]
        supply = obj.bag(
            guids.guid(f"supply:{kind}"),
            contained,
            0,
            nickname=f"{kind.capitalize()} supply",
            tags=["Supply"],
            transform=obj.transform((x, BAG_Y, z)),
        )
        supply_guids[kind] = supply["GUID"]
        objects.append(supply)
        slot += 1

    workers = for_players(config["workers"], n)["count"]
    start_spaces = for_players(config["first_round_spaces"], n)["seats"]
    ids = [a["id"] for a in config["actions"]]
    worker_guids: dict[str, list[str]] = {}
    score_guids: dict[str, str] = {}
    for seat_no, seat in enumerate(seats):
        c = seat["color"]
        char_url = art.piece(
            f"character-{seat['character'].lower()}",
            "character",
            {"name": seat["character"], "color": seat["hex"]},
        )
        objects.append(
            piece(
                f"character:{c}",
                char_url,
                "character",
                seat["character"],
                0.7,
                0.1,
                seat_point(seat, *AREA_SPOTS["character"][0]),
                rot_y=seat["facing"] + 180,
                extra={"color": c},
            )
        )
        div_url = art.piece(f"divider-{c.lower()}", "divider", {"color": seat["hex"]})
        for k in range(setup["dividers"]):
            objects.append(
                piece(
                    f"divider:{c}:{k}",
                    div_url,
                    "divider",
                    f"{c} divider",
                    divider_scale,
                    0.25,
                    _spot(seat, "dividers", k),
                    0,
                    rot_y=seat["facing"] + 90,
                    extra={"color": c},
                )
            )
        for kind, url, scale, thick in (
            ("food", food_url, food_scale, 0.15),
            ("pitch", pitch_url, pitch_scale, 0.28),
        ):
            for k in range(setup[kind]):
                objects.append(
                    piece(
                        f"{kind}:{c}:{k}",
                        url,
                        kind,
                        kind.capitalize(),
                        scale,
                        thick,
                        _spot(seat, kind, k),
                        2 if kind == "food" else 0,
                    )
                )
        worker_url = art.piece(f"worker-{c.lower()}", "worker", {"color": seat["hex"]})
        worker_guids[c] = []
        for k in range(workers):
            if family:
                xz = seat_point(seat, 4.4, 1.6 - 0.8 * k)
            else:
                space = ids.index(start_spaces[seat_no][k])
                xz = spaces[space]["completed"]
            w = piece(
                f"worker:{c}:{k}",
                worker_url,
                "worker",
                f"{c} worker",
                token_scale,
                0.3,
                xz,
                extra={"color": c},
            )
            worker_guids[c].append(w["GUID"])
            objects.append(w)
        score_url = art.piece(f"score-{c.lower()}", "score", {"color": seat["hex"]})
        marker = piece(
            f"score:{c}",
            score_url,
            "score",
            f"{c} score",
            0.16,
            0.2,
            _marker_spot(score_cells[0], seat_no),
            extra={"color": c},
        )
        score_guids[c] = marker["GUID"]
        objects.append(marker)
    round_marker = piece(
        "round",
        art.piece("round-marker", "round", {}),
        "round",
        "Round marker",
        0.25,
        0.3,
        round_cells[0],
    )
    objects.append(round_marker)
    bonus_templates = {
        str(v): piece(
            f"bonus-template:{v}",
            art.piece(f"bonus-{v}", "bonus", {"value": v}),
            "bonus",
            f"Bonus +{v}",
            0.28,
            0.1,
            [0.0, 0.0],
            extra={"value": v},
        )
        for v in range(1, config["bonus_max"] + 1)
    }

    drawn = [
        [
            round(table["drawn"]["start"][0] + k * table["drawn"]["step"][0], 4),
            round(table["drawn"]["start"][1] + k * table["drawn"]["step"][1], 4),
        ]
        for k in range(8)
    ]
    from rules_ref.ark_and_noah import _grid  # the rules' own hull and pitch neighbours

    grid = _grid(whole.rows, whole.cols)
    ctx = {
        "game": {"id": definition.id, "name": data["name"]},
        "config": config,
        "players": n,
        "variant": config["variant"] or "",
        "colors": colours,
        "seats": seats,
        "ark": {
            "rows": whole.rows,
            "cols": whole.cols,
            "edges": points["edges"],
            "pitch": points["pitch"],
            "squares": points["squares"],
            "hull": sorted(grid.hull, key=grid.index.__getitem__),
            "pitch_near": {p: [a, b] for p, a, b in grid.points},
            "snap": round(square * 0.3, 4),
        },
        "spaces": spaces,
        "score_cells": score_cells,
        "round_cells": round_cells,
        "drawn": drawn,
        "area": {
            "size": list(table["area_size"]),
            "spots": {k: [list(a), list(b)] for k, (a, b) in AREA_SPOTS.items()},
        },
        "y": {"piece": PIECE_Y, "bag": BAG_Y},
        "guids": {
            "bags": bag_guids,
            "supply": supply_guids,
            "workers": worker_guids,
            "score": score_guids,
            "round": round_marker["GUID"],
        },
        "tiles": tile_info,
        "templates": {"bonus": bonus_templates},
    }
    script = global_script(definition.id, ctx)
    ui = global_ui(definition.id, ctx)
    save = new_save(
        save_name=f"{data['name']} ({n} players{', family' if family else ''})",
        game_mode=data["name"],
        objects=objects,
        lua_script=script,
        xml_ui=ui,
        tags=data.get("tags", []),
        player_counts=(n, n),
        playing_time=data.get("playing_time"),
        complexity=data.get("complexity", ""),
        table=table["type"],
        sky=table["sky"],
        note=data["description"],
        snap_points=snaps,
    )
    return save, script, ui


def _spot(seat: dict[str, Any], what: str, k: int) -> list[float]:
    """The k-th place of a kind of piece in a seat's area (rows of 8)."""
    (r0, f0), (dr, df) = AREA_SPOTS[what]
    row, col = divmod(k, 8)
    return seat_point(seat, r0 + dr * col, f0 + df * col - 0.45 * row)


def _marker_spot(cell: list[float], seat_no: int) -> list[float]:
    """A scoring marker's place in a track cell (one corner per seat)."""
    dx, dz = ((-0.18, 0.18), (0.18, 0.18), (-0.18, -0.18), (0.18, -0.18))[seat_no % 4]
    return [round(cell[0] + dx, 4), round(cell[1] + dz, 4)]


def _rgb(hex_colour: str) -> tuple[float, float, float]:
    h = hex_colour.lstrip("#")
    return tuple(round(int(h[i : i + 2], 16) / 255, 4) for i in (0, 2, 4))  # type: ignore[return-value]
