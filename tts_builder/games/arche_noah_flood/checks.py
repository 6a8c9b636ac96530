"""Cross-field checks: species, costs, the map (with rules_ref's validate_map), seats, art."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rules_ref.arche_noah_flood import config_from_definition, neighbours, validate_map

from ...errors import FieldError
from ...gamekit.checks import check_art_files, check_seats, unique_names
from ...json_types import Data
from ...render.hexmap import board_style
from ...variants import with_variant
from .config import terrains
from .table import geometry, piece_count

MAX_BOARD_PX = 4096


def _fmt(h: Sequence[int]) -> str:
    return f"({h[0]}, {h[1]})"


def _check_terrain(data: Data) -> tuple[int, int]:
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


def _check_edges(data: Data, key: str, rows: int, cols: int) -> set[frozenset]:
    """``map.rivers`` or ``map.fords``: edges between neighbouring hexes on the map."""
    edges: set[frozenset] = set()
    for i, (a, b) in enumerate(data["map"][key]):
        label = f"{key[:-1]} edge {_fmt(a)}-{_fmt(b)}"
        if not all(0 <= h[0] < rows and 0 <= h[1] < cols for h in (a, b)):
            raise FieldError(f"map.{key}[{i}]", f"{label} lies outside the map")
        if tuple(b) not in neighbours(a[0], a[1], rows, cols):
            raise FieldError(f"map.{key}[{i}]", f"{label} joins hexes that are not neighbours")
        edges.add(frozenset((tuple(a), tuple(b))))
    return edges


def _check_stairs(data: Data, rows: int, cols: int) -> None:
    """As many stair hexes as the rules allow, all on the last row."""
    stairs = data["map"]["stairs"]
    low, high = data["rules"]["stair_hexes"]["min"], data["rules"]["stair_hexes"]["max"]
    if not low <= len(stairs) <= high:
        raise FieldError("map.stairs", f"{len(stairs)} stair hexes; the Ark needs {low} to {high}")
    for i, s in enumerate(stairs):
        if s[0] != rows - 1 or s[1] >= cols:
            raise FieldError(
                f"map.stairs[{i}]",
                f"stair hex {_fmt(s)} is not a hex of the last row (row {rows - 1})",
            )


def _check_starts(data: Data, rows: int, cols: int) -> None:
    """Enough distinct start hexes, all on the map's upper half."""
    starts = data["map"]["starts"]
    need = max(data["rules"]["min_start_hexes"], piece_count(data))
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


def _check_map(data: Data) -> None:
    """The map's own rules (issue 3 part 1), each error at the field naming the hex/animal."""
    rows, cols = _check_terrain(data)
    rivers = _check_edges(data, "rivers", rows, cols)
    _check_edges(data, "fords", rows, cols)
    for i, (a, b) in enumerate(data["map"]["fords"]):
        if frozenset((tuple(a), tuple(b))) not in rivers:
            raise FieldError(f"map.fords[{i}]", f"ford {_fmt(a)}-{_fmt(b)} is not on a river edge")
    _check_stairs(data, rows, cols)
    _check_starts(data, rows, cols)
    # Reachability (and anything else the reference rules find) from rules_ref itself.
    starts = data["map"]["starts"]
    for problem in validate_map(config_from_definition(data)):
        where = "map"
        for i, s in enumerate(starts):
            if problem.startswith(f"start hex {_fmt(s)}"):
                where = f"map.starts[{i}]"
                break
        raise FieldError(where, problem)


def _check_species(data: Data) -> None:
    """Distinct animal names, a full cost row for each, fliers that are animals."""
    rules = data["rules"]
    names = [a["name"] for a in data["animals"]]
    unique_names(names, "animals[{}].name", "animal {!r} listed twice")
    known = terrains(data)
    for name in names:
        if name not in rules["costs"]:
            raise FieldError("rules.costs", f"no movement costs for {name}")
    for animal, costs in rules["costs"].items():
        if animal not in names:
            raise FieldError(f"rules.costs.{animal}", f"{animal!r} is not one of the animals")
        for key in [*known, "river"]:
            if key not in costs:
                raise FieldError(f"rules.costs.{animal}", f"missing the cost of {key}")
        for key in costs:
            if key not in known and key != "river":
                raise FieldError(
                    f"rules.costs.{animal}.{key}", f"{key!r} is no terrain of rules.terrain"
                )
    for i, name in enumerate(rules["flies_over_animals"]):
        if name not in names:
            raise FieldError(
                f"rules.flies_over_animals[{i}]", f"{name!r} is not one of the animals"
            )


def _check_board(data: Data) -> None:
    """The board style, the map, and a board picture TTS can load."""
    board_style(data["components"]["board"]["style"], terrains(data), "components.board.style")
    _check_map(data)
    size = geometry(data).image_size
    if size > MAX_BOARD_PX:
        raise FieldError(
            "table.board.pixels_per_unit",
            f"the board picture would be {size} px a side; at most {MAX_BOARD_PX} load in TTS",
        )


def _check_players(data: Data) -> None:
    """A seat of its own colour per player, and a card per player in every variant."""
    high = data["players"]["max"]
    check_seats(data["table"]["seats"], high)
    cards = piece_count(data)
    if high > cards:
        raise FieldError("players.max", f"{high} players but only {cards} animal cards")
    species = len(data["animals"])
    for where, rules in _rule_sets(data):
        if rules["distinct_species"] and rules["mode"] == "junior":
            raise FieldError(f"{where}.distinct_species", "the junior variant deals no cards")
        if rules["distinct_species"] and high > species:
            raise FieldError(
                f"{where}.distinct_species", f"{high} players but only {species} species to deal"
            )


def _rule_sets(data: Data) -> list[tuple[str, Data]]:
    """The rules of the base game and of every variant (merged), each with its path."""
    found = [("rules", data["rules"])]
    for variant in data.get("variants") or {}:
        found.append((f"variants.{variant}.rules", with_variant(data, variant)["rules"]))
    return found


def check(data: Data, root: Path) -> None:
    """Cross-field checks: species, costs, dice, map (hex and animal named), seats, art."""
    _check_species(data)
    if data["rules"]["stair_hexes"]["min"] > data["rules"]["stair_hexes"]["max"]:
        raise FieldError("rules.stair_hexes.max", "expected >= stair_hexes.min")
    _check_board(data)
    _check_players(data)
    check_art_files(root, ((f"animals[{i}].art", a["art"]) for i, a in enumerate(data["animals"])))
