"""The prototype engine: a game from YAML alone (issue 11, part 5).

A prototype has components (layouts drawn by Pillow), rosters (lists of entries a deck makes
one card of each) and a table manifest (:mod:`tts_builder.table`): decks, tokens, bags, tiles,
boards, dice, zones and a hand zone per seat, where each lies, and what the Setup button deals
to each seated player. It has no rules engine of its own: the only rules are who plays and the
dealing order (``rules_ref/prototype.py``) and the optional score counters' bounds.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from ..errors import FieldError
from ..plugin import Game, GameBuild
from ..schema import Custom, ListOf
from ..table import COMPONENT, MANIFEST, check_manifest, hand_capacity, seat_frames, step_count

GAME_ID = "prototype"


def _entry(value: Any, path: str) -> None:
    """A roster entry: a mapping of field names to text or numbers (the card's {fields})."""
    if not isinstance(value, dict) or not value:
        raise FieldError(path, "expected a mapping of field -> value, e.g. {name: Rose}")
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, str | int | float):
            raise FieldError(f"{path}.{key}", "expected text or a number")


def _rosters(value: Any, path: str) -> None:
    if not isinstance(value, dict):
        raise FieldError(path, "expected a mapping of roster id -> list of entries")
    for name, entries in value.items():
        ListOf(Custom(_entry), 1, 200).check(entries, f"{path}.{name}")


def _components(value: Any, path: str) -> None:
    if not isinstance(value, dict) or not value:
        raise FieldError(path, "expected a mapping of component id -> component")
    for name, spec in value.items():
        COMPONENT.check(spec, f"{path}.{name}")


FIELDS = {
    "rosters": Custom(_rosters),
    "components": Custom(_components),
    "table": MANIFEST,
}
OPTIONAL: frozenset[str] = frozenset({"rosters"})


def check(data: dict[str, Any], root: Path) -> None:
    """The manifest's cross-field checks, and room in every hand for what Setup deals."""
    check_manifest(data)
    manifest = data["table"]
    low, high = data["players"]["min"], data["players"]["max"]
    steps = manifest.get("setup", [])
    for n in range(low, high + 1):
        total = sum(step_count(s, n) for s in steps if s["to"] == "hand")
        room = min((hand_capacity(f) for f in seat_frames(manifest)), default=0)
        if total > room:
            first = next(i for i, s in enumerate(steps) if s["to"] == "hand")
            raise FieldError(
                f"table.setup[{first}].count",
                f"{n} players get {total} cards in "
                f"hand; a {manifest['type']} hand zone holds {room} side by side",
            )


def rules_config(data: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """The rule numbers shared by rules_ref and the Lua: the player range, each setup step's
    counts and target, and the score bounds."""
    from ..table import target_of

    steps = []
    for step in data["table"].get("setup", []):
        entry = {"count": step["count"], "target": target_of(step)}
        if "players" in step:
            entry["players"] = list(step["players"])
        steps.append(entry)
    config: dict[str, Any] = {"players": dict(data["players"]), "steps": steps}
    if "score" in data["table"]:
        config["score"] = dict(data["table"]["score"])
    return config


def positions_on(save: Any, data: dict[str, Any], config: Any, players: int) -> list[Any]:
    """The script's positions once Setup laid the table out for ``players`` players seated at
    the first seats (as ``tts-builder table --after-setup`` seats them): theirs and the shared."""
    from ..table import setup_positions

    return setup_positions(data, data["table"]["seats"][:players])


def assemble(definition: Any, images: Any, options: Any) -> Any:
    """The whole build: art, table objects, Global script and UI, save, thumbnail, preview."""
    from ..lua.scripts import global_script, global_ui
    from ..render import render_preview, render_thumbnail
    from ..save import GuidAllocator, dumps, new_save
    from ..table import Art, lay_table

    data = definition.data
    game_id = definition.id
    art = Art(definition.root, data["components"], images)
    table = lay_table(data, art, GuidAllocator(game_id))
    manifest = data["table"]
    ctx = {
        "game": {"id": game_id, "name": data["name"]},
        "config": rules_config(data),
        "players": dict(data["players"]),
        "score": manifest.get("score"),
        **table.context,
    }
    script = global_script(definition.rules_engine, ctx)
    ui = global_ui(definition.rules_engine, ctx)
    save = new_save(
        save_name=data["name"], game_mode=data["name"], objects=table.objects,
        lua_script=script, xml_ui=ui, tags=data.get("tags", []),
        player_counts=(data["players"]["min"], data["players"]["max"]),
        playing_time=data.get("playing_time"), complexity=data.get("complexity", ""),
        table=manifest["type"], sky=manifest["sky"], note=data["description"],
    )  # fmt: skip

    def picture(component: str, side: str, fields: dict[str, Any]) -> Any:
        if side == "die":
            return art.die_face(component, fields["face"])
        return art.side(component, side, fields)

    def spec(component: str, side: str, fields: dict[str, Any]) -> Any:
        if side == "die":
            return {"die": data["components"][component], **fields}
        return art.spec(component, side, fields)

    shown = [f for f in table.faces if f[2] != "back"][:5] or table.faces[:1]
    images.png(
        "thumbnail",
        {"thumb": [spec(*face[1:]) for face in shown], "title": data["name"]},
        lambda: render_thumbnail(data["name"], [picture(*face[1:]) for face in shown]),
    )
    images.png(
        "preview",
        {"preview": [spec(*face[1:]) for face in table.faces]},
        lambda: render_preview(
            [(face[0], partial(picture, *face[1:])) for face in table.faces],
            columns=8,
            cell_max=240,
        ),
    )
    files: dict[str, bytes] = {
        f"{game_id}.png": images.files.pop("images/thumbnail.png"),
        "preview.png": images.files.pop("images/preview.png"),
        f"{game_id}.json": dumps(save),
        "scripts/Global.lua": script.encode("utf-8"),
        "scripts/Global.xml": ui.encode("utf-8"),
    }
    build = GameBuild(game_id, definition, save, script, ui, files)
    build.positions = table.positions
    return build


#: The game as the registry (``tts_builder.games``) lists it.
GAME = Game(
    GAME_ID, FIELDS, OPTIONAL, check, rules_config, assemble, positions_on,
    strategies="tts_builder.strategies.prototype",
)  # fmt: skip
