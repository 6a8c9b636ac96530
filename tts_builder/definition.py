"""Finding, loading and validating a game definition (``<game>/game.yaml``).

A game is looked for as :mod:`tts_builder.sources` says (the ``--assets`` folder, the current
folder, the bundled games). Its ``engine`` key names the bundled rules engine
(game module, Lua templates, reference rules) it runs on, so a renamed copy keeps working.
The only file reads here are the definition itself and the existence checks for its art; all
validation is data-driven (``tts_builder.schema``) plus each game's cross-field checks.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from .errors import BuildError, DefinitionError, FieldError, Problems, prefixed
from .games import game, game_ids
from .json_types import Data
from .plugin import Game, GameDefinition
from .render.fonts import missing_glyphs
from .schema import DESCRIPTION, TITLE, Doc, Int, JsonSchema, ListOf, Map, OneOf, Str, validate
from .sources import (  # noqa: F401 - the lookup's names, importable from here as before
    ASSETS_ROOT,
    DEFINITION_FILE,
    ORIGINS,
    GameSource,
    available_games,
    find_game,
    game_roots,
    select_games,
    shown_path,
)
from .variants import VARIANTS, check_overlays, with_variant
from .yamlsrc import MAX_DOCUMENT_BYTES, SourceDoc, parse_yaml, text_location, too_big

ENGINE_FIELD = "engine"
#: The JSON Schema ``new`` writes beside a game's ``game.yaml`` (docs/decisions.md).
SCHEMA_FILE = "game.schema.json"

COMPLEXITIES = ("Low Complexity", "Medium Complexity", "High Complexity")

#: Keys every game definition has; each game adds its own (``rules``, components, table...).
HEADER_FIELDS = {
    "id": Doc(
        Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a lower-case id like 'arche-noah'"),
        "The game's id: the name of its folder, lower case (my-game).",
    ),
    "name": Doc(TITLE, "The game's title in TTS and the Workshop (at most 128 characters)."),
    "description": Doc(DESCRIPTION, "What the Workshop and TTS's game browser show."),
    "players": Doc(
        Map({"min": Int(1, 10), "max": Int(1, 10)}), "How many players: {min, max}, 1 to 10."
    ),
    "playing_time": Doc(ListOf(Int(1), 2, 2), "[shortest, longest] in minutes."),
    "complexity": OneOf(COMPLEXITIES),
    "tags": Doc(ListOf(Str()), "Tags the Workshop shows."),
    "variants": VARIANTS,  # id -> a data overlay (tts_builder.variants), for every game
}
OPTIONAL_HEADER = frozenset({"playing_time", "complexity", "tags", "variants"})


def header_checks(data: Data, game_id: str) -> None:
    """Cross-field checks shared by every game, on the header fields that have their shape
    (a field without it is the shapes' problem): the id is the folder's, ``players`` and
    ``playing_time`` run from low to high, the font draws the game's and each variant's name."""

    def fits(key: str) -> bool:
        return Problems().run(HEADER_FIELDS[key].check, data.get(key), key)

    problems = Problems()
    if fits("id") and data["id"] != game_id:
        problems.add("id", f"expected {game_id!r} (the folder name), got {data['id']!r}")
    if fits("players") and data["players"]["min"] > data["players"]["max"]:
        low, high = data["players"]["min"], data["players"]["max"]
        problems.add("players.max", f"expected >= players.min ({low}), got {high}")
    if fits("playing_time") and data["playing_time"][0] > data["playing_time"][1]:
        shortest = data["playing_time"][0]
        problems.add("playing_time[1]", f"expected >= playing_time[0] ({shortest})")
    variants = data.get("variants")
    names = {"name": data.get("name")} | {
        f"variants.{key}.name": entry.get("name")
        for key, entry in (variants.items() if isinstance(variants, dict) else ())
        if isinstance(entry, dict)
    }
    for field, name in names.items():
        missing = missing_glyphs(name, bold=True) if isinstance(name, str) else ""
        if missing:  # the thumbnail draws the name (bold)
            problems.add(field, f"the bundled font (DejaVu Sans) cannot draw {missing!r} of "
                         "the name its thumbnail shows: it would print as empty boxes")  # fmt: skip
    problems.raise_any()


def read_definition(game_id: str, assets_root: Path | None = None) -> SourceDoc:
    """Read and parse ``<game folder>/game.yaml`` (syntax only)."""
    return read_definition_file(find_game(game_id, assets_root).folder / DEFINITION_FILE)


def read_definition_file(path: Path) -> SourceDoc:
    """Read and parse the definition file ``path`` (syntax only), within the limits."""
    shown = shown_path(path)
    raw = _read_bounded(path, shown)
    try:
        text = raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")  # as read_text
    except UnicodeDecodeError as err:
        where = text_location(shown, raw, err.start)
        bad = raw[err.start]
        message = f"not UTF-8 text (byte 0x{bad:02x}): save it as UTF-8"
        raise DefinitionError(where, "", message) from None
    doc = _parsed(text, shown)
    if not isinstance(doc.data, dict):
        raise doc.error("", "expected a mapping of definition keys at the top level")
    return doc


def _read_bounded(path: Path, shown: Path) -> bytes:
    """The bytes of the definition file: a regular file (a FIFO would block, a device never
    end) of at most :data:`MAX_DOCUMENT_BYTES`, refused without reading more than that."""
    try:
        if path.exists() and not path.is_file():
            raise BuildError(f"{shown}: not a regular file: a definition is a YAML text file")
        with path.open("rb") as file:
            raw = file.read(MAX_DOCUMENT_BYTES + 1)
    except FileNotFoundError:
        raise BuildError(f"{shown}: definition file not found") from None
    except OSError as err:
        raise BuildError(f"{shown}: cannot read the definition: {err}") from None
    if len(raw) > MAX_DOCUMENT_BYTES:
        raise too_big(shown)
    return raw


@lru_cache(maxsize=8)
def _parsed(text: str, shown: Path) -> SourceDoc:
    """:func:`parse_yaml`, once per definition text: a build reads its definition once for the
    variant list and once per variant (nothing changes a parsed definition's data)."""
    return parse_yaml(text, shown)


def engine_of(doc: SourceDoc, game_id: str) -> str:
    """The definition's ``engine`` (default: its folder name, for a bundled game's own folder)."""
    engines = game_ids()
    engine = doc.data.get(ENGINE_FIELD, game_id if game_id in engines else None)
    if engine is None:
        raise doc.error(ENGINE_FIELD, f"missing: name the rules engine, one of {engines}")
    if engine not in engines:
        raise doc.error(ENGINE_FIELD, f"unknown engine {engine!r} (engines: {', '.join(engines)})")
    return engine


def load_definition(game_id: str, assets_root: Path | None = None) -> GameDefinition:
    """Load, validate and cross-check a game definition; errors name file:line:column."""
    source = find_game(game_id, assets_root)
    return validated_definition(game_id, read_definition(game_id, assets_root), source)


def definition_spec(engine: str) -> Map:
    """The spec of a ``game.yaml`` on ``engine``: the header, ``engine`` (that one: the loader
    found it by :func:`engine_of`) and the engine's keys (among them its table manifest)."""
    rules = game(engine)
    own = Doc(OneOf((engine,)), "The rules engine the game runs on; another engine's game.yaml "
              "has other keys (`tts-builder schema` prints its schema).")  # fmt: skip
    fields = {**HEADER_FIELDS, ENGINE_FIELD: own, **rules.fields}
    return Map(fields, OPTIONAL_HEADER | {ENGINE_FIELD} | rules.optional)


def definition_json_schema(engine: str) -> JsonSchema:
    """The JSON Schema (draft 2020-12) of a ``game.yaml`` on ``engine``, from the same specs
    the loader checks with: what an editor completes and marks (the references and the
    cross-field checks are the loader's alone)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"game.yaml of a tts-builder game (engine {engine})",
        "description": "Made by `tts-builder schema`; tts-builder's own checks say more.",
        **definition_spec(engine).json_schema(),
    }


def json_schema_text(engine: str) -> str:
    """:func:`definition_json_schema` as the text ``tts-builder schema`` prints and ``new``
    writes beside a new game (:data:`SCHEMA_FILE`)."""
    return json.dumps(definition_json_schema(engine), indent=2, ensure_ascii=False) + "\n"


def validated_definition(game_id: str, doc: SourceDoc, source: GameSource) -> GameDefinition:
    """Validate and cross-check a parsed definition of ``game_id`` (art under ``source``):
    every problem of the shapes (the base and each variant's overlay) and of the header's
    checks at once; the game's cross-field checks once every shape fits (the base, then each
    variant's merged data, each variant's problems together)."""
    engine = engine_of(doc, game_id)
    rules = game(engine)
    spec = definition_spec(engine)
    problems = Problems()
    problems.run(validate, spec, doc.data)
    shapes = {(err.field, err.detail) for err in problems.found}
    problems.run(check_overlays, doc.data, spec.fields, shapes)
    problems.run(header_checks, doc.data, game_id)
    if not problems.found and problems.run(rules.check, doc.data, source.folder):
        for variant in doc.data.get("variants") or {}:
            problems.run(_check_variant, rules, doc.data, variant, source.folder)
    try:
        problems.raise_any()
    except FieldError as err:
        raise doc.reraise(err) from None
    return GameDefinition(game_id, doc, source.folder, engine, source.origin)


def _check_variant(rules: Game, data: Data, variant: str, folder: Path) -> None:
    """The game's cross-field checks on a variant's merged data, located in the variant: an
    overlay can break what the base game satisfies (a seat twice, chips for too few counts)."""
    try:
        merged = dict(with_variant(data, variant))  # a copy: with_variant may return data
        merged.pop("variants", None)  # the variant alone: the others are checked on their own
        rules.check(merged, folder)
    except FieldError as err:
        raise prefixed(err, f"variants.{variant}") from None
