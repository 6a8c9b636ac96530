"""Ark & Noah cross-field checks: player-count coverage, ids, supplies, art files, seats (what
the schema's vocabulary says, references and unique names, is ``schema.yaml``'s)."""

from __future__ import annotations

from pathlib import Path

from rules_ref.ark_and_noah import for_players

from ...errors import FieldError
from ...gamekit.checks import (
    check_art_files,
    check_clockwise,
    check_facing_hands,
    player_count_rows,
)
from ...json_types import Data
from ...table import check_manifest
from ...table.areas import check_area_slots
from .boards import table_hooks
from .rules import rules_config
from .schema import SCHEMA


def _check_rules(rules: Data, path: str, data: Data) -> None:
    """The rule numbers' cross-checks (also run on every variant's merged rules)."""
    low, high = data["players"]["min"], data["players"]["max"]
    worker = rules["turn_mode"] == "worker"
    for key, rows in (
        ("workers", rules["workers"]),
        ("ark.sections", rules["ark"]["sections"]),
        ("taming.draws", rules["taming"]["draws"]),
        ("first_round_spaces", rules["first_round_spaces"]),
    ):
        player_count_rows(rows, f"{path}.{key}", low, high)
    ids = [a["id"] for a in rules["actions"]]  # unique, each with its kind's keys: schema.yaml
    for index, entry in enumerate(rules["first_round_spaces"] if worker else []):
        for seat, spaces in enumerate(entry["seats"]):
            for j, space in (pair for pair in enumerate(spaces) if pair[1] not in ids):
                where = f"{path}.first_round_spaces[{index}].seats[{seat}][{j}]"
                raise FieldError(where, f"no action space {space!r} (spaces: {', '.join(ids)})")
    setup, supply = rules["setup"], rules["supply"]
    for n in range(low, high + 1):
        layout = for_players(rules["ark"]["sections"], n)["layout"]
        if len(layout) < 2 or layout[0] != "bow" or layout[-1] != "stern":
            raise FieldError(f"{path}.ark.sections", f"{n} players: the Ark runs bow ... stern")
        workers = for_players(rules["workers"], n)["count"]
        seats = for_players(rules["first_round_spaces"], n)["seats"]
        if worker and (len(seats) != n or any(len(s) != workers for s in seats)):
            raise FieldError(
                f"{path}.first_round_spaces",
                f"{n} players need {n} seats of {workers} space(s) each",
            )
        if worker and len(ids) < n * workers:
            raise FieldError(f"{path}.actions", f"too few spaces for {n * workers} workers")
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


def check(data: Data, root: Path) -> None:
    """Cross-field checks: the schema's references (unique names, a picture for every tile),
    player-count coverage, ids, supplies, art files, seats (a variant's merged data is checked
    too, by the definition's loading)."""
    SCHEMA.check_references(data)
    high = data["players"]["max"]
    _check_rules(data["rules"], "rules", data)
    check_art_files(root, ((f"art.{shown}", str(rel)) for shown, rel in data["art"].items()))
    seats, table = data["table"]["seats"][:high], data["table"]["type"]
    if [s["color"] for s in seats] != [c["name"] for c in data["colors"][:high]]:
        raise FieldError("table.seats", "seats must follow `colors`, one per colour in order")
    check_clockwise(table, [s["color"] for s in seats])
    check_area_slots(data["table"])
    check_manifest(data, hooks=table_hooks(data, data, rules_config(data)))  # the boards
    check_facing_hands(seats, table)
