"""The prototype engine: a game from YAML alone (issue 11, part 5).

A prototype has components (layouts drawn by Pillow), rosters (lists of entries a deck makes
one card of each) and a table manifest (:mod:`tts_builder.table`): decks, cards, tokens, bags,
tiles, boards, dice, zones and a hand zone per seat, where each lies, and what the Setup button
deals to each seated player. It has no rules engine of its own: its only rules are who plays,
the dealing order (``rules_ref/prototype.py``) and the optional score counters' bounds.
"""

from __future__ import annotations

import math
from pathlib import Path

from ...errors import FieldError
from ...gamekit.output import build_files, game_save
from ...gamekit.specs import mapping_of
from ...geometry import ScriptPosition
from ...json_types import Data, Json
from ...lua.scripts import global_script, global_ui
from ...plugin import BuildOptions, Game, GameBuild, GameDefinition, Images
from ...save import GuidAllocator
from ...schema import Custom, ListOf, Str
from ...table import (
    COMPONENT,
    MANIFEST,
    Art,
    add_previews,
    check_art,
    check_manifest,
    check_seat_spots,
    hand_capacity,
    lay_table,
    seat_frames,
    setup_positions,
    step_count,
    target_of,
)
from ...variants import variant_entry, variant_title, with_variant

GAME_ID = "prototype"
PREVIEW_COLUMNS, PREVIEW_CELL = 8, 240  # the preview sheet: small cells keep the build fast


def _entry(value: Json, path: str) -> None:
    """A roster entry: a mapping of field names to text or numbers (the card's {fields})."""
    if not isinstance(value, dict) or not value:
        raise FieldError(path, "expected a mapping of field -> value, e.g. {name: Rose}")
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise FieldError(f"{path}.{key}", "expected text or a number")
        if isinstance(item, float) and not math.isfinite(item):
            raise FieldError(f"{path}.{key}", f"expected a finite number, got {item}")


FIELDS = {
    "rosters": mapping_of(Str(), ListOf(Custom(_entry), 1, 200), "roster id -> entries"),
    "components": mapping_of(Str(), COMPONENT, "component id -> component"),
    "table": MANIFEST,
}
OPTIONAL: frozenset[str] = frozenset({"rosters"})


def check(data: Data, root: Path) -> None:
    """The manifest's cross-field checks, its art files, and room in every hand for what Setup
    deals (the definition runs this on each variant's merged data too, located there)."""
    check_manifest(data)
    check_seat_spots(data["table"])
    check_art(data, root)
    manifest = data["table"]
    low, high = data["players"]["min"], data["players"]["max"]
    steps = manifest.get("setup", [])
    room = min(hand_capacity(f) for f in seat_frames(manifest))
    for n in range(low, high + 1):
        total = sum(step_count(s, n) for s in steps if s["to"] == "hand")
        if total > room:
            first = next(i for i, s in enumerate(steps) if s["to"] == "hand")
            raise FieldError(
                f"table.setup[{first}].count",
                f"{n} players get {total} cards in hand; a {manifest['type']} hand zone holds "
                f"{room} side by side",
            )


def rules_config(data: Data, variant: str | None = None) -> Data:
    """The rule numbers shared by rules_ref and the Lua: the player range, each setup step's
    counts and target, and the score bounds (of the variant's table, if one is named)."""
    data = with_variant(data, variant)
    steps: list[Json] = []
    for step in data["table"].get("setup", []):
        entry: Data = {"count": step["count"], "target": target_of(step)}
        if "players" in step:
            entry["players"] = list(step["players"])
        steps.append(entry)
    config: Data = {"players": dict(data["players"]), "steps": steps}
    if "score" in data["table"]:
        config["score"] = dict(data["table"]["score"])
    return config


def positions_on(save: Data, data: Data, config: Data, players: int) -> list[ScriptPosition]:
    """The script's positions once Setup laid the table out for ``players`` players seated at
    the first seats (as ``tts-builder table --after-setup`` seats them): theirs and the shared."""
    return setup_positions(data, data["table"]["seats"][:players])


def assemble(definition: GameDefinition, images: Images, options: BuildOptions) -> GameBuild:
    """The whole build: art, table objects, Global script and UI, save, thumbnail, preview."""
    data = definition.data
    game_id = definition.id
    art = Art(definition.root, data["components"], images)
    table = lay_table(data, art, GuidAllocator(game_id))
    ctx = {
        "game": {"id": game_id, "name": variant_title(definition.base_data, options.variant)[0]},
        "config": rules_config(data),
        "players": dict(data["players"]),
        "score": data["table"].get("score"),
        **table.context,
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    name, description = variant_title(definition.base_data, options.variant)
    save = game_save(data, name=name, objects=table.objects, script=script, ui=ui,
                     note=description)  # fmt: skip

    thumbnail, preview = add_previews(
        table,
        art,
        name,
        shown=5,
        columns=PREVIEW_COLUMNS,
        cell_max=PREVIEW_CELL,
        labels=data["table"].get("thumbnail", ()),
    )
    files = build_files(game_id, save, thumbnail, preview, script, ui)
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = table.positions
    build.origins = piece_origins(definition, table.guids)
    return build


def piece_origins(definition: GameDefinition, guids: dict[str, list[str]]) -> dict[str, str]:
    """GUID -> ``table.pieces[i].at`` of the piece that laid it (in the variant, when the
    variant's table lists the pieces)."""
    entry = variant_entry(definition.base_data, definition.variant)
    prefix = f"variants.{definition.variant}." if "pieces" in entry.get("table", {}) else ""
    pieces = definition.data["table"]["pieces"]
    return {
        guid: f"{prefix}table.pieces[{index}].at"
        for index, piece in enumerate(pieces)
        for guid in guids.get(piece["id"], [])
    }


#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(
    GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble, positions_on,
    strategies=f"{__name__}.strategies",
)  # fmt: skip
