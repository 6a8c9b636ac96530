"""Ark & Noah cross-field checks: the rules playable at every player count, art files, seats
(what the schema's vocabulary says, references, unique names and player-count coverage, is
``schema.yaml``'s)."""

from __future__ import annotations

from pathlib import Path

from rules_ref.ark_and_noah import setup_problems

from ...errors import FieldError, Problems, field_errors, prefixed
from ...gamekit.checks import check_art_files, check_clockwise, check_facing_hands
from ...json_types import Data
from ...table import check_manifest
from .areas import check_area_slots
from .boards import table_hooks
from .context import flat_guids
from .rules import action_texts, rules_config
from .schema import SCHEMA


def check(data: Data, root: Path) -> None:
    """Cross-field checks: the schema's references (unique names, a picture for every tile,
    every player count's rows), the rules' setup at each player count (rules_ref's
    ``setup_problems``: first-round spaces, supplies, draws) and the actions' words (all their
    problems at once), art files, seats and the table (every problem found, in one run; a
    variant's merged data is checked too, by the definition's loading)."""
    SCHEMA.check_references(data)
    config = rules_config(data)
    problems = Problems()
    for problem in setup_problems(config):
        problems.add_first(f"rules.{problem.where}", problem.message)
    base: set[tuple[str, str]] = set()  # a variant's inherited problem is said at the base
    for variant in (None, *data.get("variants", {})):  # the board prints every variant's side
        try:
            action_texts(rules_config(data, variant))  # the words print rule numbers it has
        except FieldError as err:
            own = [e for e in field_errors(err) if (e.field, e.detail) not in base]
            base |= {(e.field, e.detail) for e in own} if variant is None else set()
            problems.found += [prefixed(e, f"variants.{variant}") if variant else e for e in own]
    rules_fit = not problems.found  # the boards are drawn from them
    problems.run(
        check_art_files, root, [(f"art.{shown}", str(rel)) for shown, rel in data["art"].items()]
    )
    high = data["players"]["max"]
    seats, table = data["table"]["seats"][:high], data["table"]["type"]
    if [s["color"] for s in seats] != [c["name"] for c in data["colors"][:high]]:
        problems.add("table.seats", "seats must follow `colors`, one per colour in order")
    problems.run(check_clockwise, table, [s["color"] for s in seats])
    if problems.run(check_area_slots, data["table"]) and rules_fit:  # the hooks' places
        flat = {**data, "table": flat_guids(data["table"])}  # the animal bags' group too
        problems.run(check_manifest, flat, "table", table_hooks(data, data, config))
    problems.run(check_facing_hands, seats, table)
    problems.raise_any()
