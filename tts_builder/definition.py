"""Loading and validating a game definition (``assets/<game>/game.yaml``).

The only file reads here are the definition itself and the existence checks for its art; all
validation is data-driven (``tts_builder.schema``) plus each game's cross-field checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BuildError, FieldError
from .schema import Int, ListOf, Map, OneOf, Str, validate
from .yamlsrc import SourceDoc, parse_yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
ASSETS_ROOT = REPO_ROOT / "assets"
DEFINITION_FILE = "game.yaml"

COMPLEXITIES = ("Low Complexity", "Medium Complexity", "High Complexity")

#: Keys every game definition has; each game adds its own (``rules``, components, table...).
HEADER_FIELDS = {
    "id": Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a lower-case id like 'arche-noah'"),
    "name": Str(),
    "description": Str(),
    "players": Map({"min": Int(1, 10), "max": Int(1, 10)}),
    "playing_time": ListOf(Int(1), 2, 2),
    "complexity": OneOf(COMPLEXITIES),
    "tags": ListOf(Str()),
    "variants": ListOf(Str(pattern=r"[a-z0-9]+(-[a-z0-9]+)*", hint="a lower-case variant id")),
    # a game whose variants carry data replaces this with a mapping spec of its own
}
OPTIONAL_HEADER = frozenset({"playing_time", "complexity", "tags", "variants"})


@dataclass(frozen=True)
class GameDefinition:
    """A validated game definition and where each value came from."""

    id: str
    doc: SourceDoc
    root: Path

    @property
    def data(self) -> dict[str, Any]:
        return self.doc.data

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def players(self) -> tuple[int, int]:
        return self.data["players"]["min"], self.data["players"]["max"]

    @property
    def variants(self) -> list[str]:
        """Variant ids: the list, or the keys of a mapping of variant id -> variant data."""
        return list(self.data.get("variants", []))


def header_checks(doc: SourceDoc, game_id: str) -> None:
    """Cross-field checks shared by every game."""
    data = doc.data
    if data["id"] != game_id:
        raise doc.error("id", f"expected {game_id!r} (the folder name), got {data['id']!r}")
    low, high = data["players"]["min"], data["players"]["max"]
    if low > high:
        raise doc.error("players.max", f"expected >= players.min ({low}), got {high}")


def read_definition(game_id: str, assets_root: Path | None = None) -> SourceDoc:
    """Read and parse ``<assets_root>/<game_id>/game.yaml`` (syntax only)."""
    root = (assets_root or ASSETS_ROOT) / game_id
    path = root / DEFINITION_FILE
    shown = _shown_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BuildError(f"{shown}: definition file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BuildError(f"{shown}: cannot read the definition: {err}") from None
    doc = parse_yaml(text, shown)
    if not isinstance(doc.data, dict):
        raise doc.error("", "expected a mapping of definition keys at the top level")
    return doc


def load_definition(game_id: str, assets_root: Path | None = None) -> GameDefinition:
    """Load, validate and cross-check a game definition; errors name file:line:column."""
    from .games import game_module  # the registry imports game modules lazily

    game_module(game_id)  # an unknown id is named before any file is read
    doc = read_definition(game_id, assets_root)
    return validated_definition(game_id, doc, (assets_root or ASSETS_ROOT) / game_id)


def validated_definition(game_id: str, doc: SourceDoc, root: Path) -> GameDefinition:
    """Validate and cross-check a parsed definition of ``game_id`` whose art lies under ``root``."""
    from .games import game_module

    module = game_module(game_id)
    spec = Map({**HEADER_FIELDS, **module.FIELDS}, OPTIONAL_HEADER | module.OPTIONAL)
    try:
        validate(spec, doc.data)
        header_checks(doc, game_id)
        module.check(doc.data, root)
    except FieldError as err:
        raise doc.reraise(err) from None
    return GameDefinition(game_id, doc, root)


def _shown_path(path: Path) -> Path:
    """A path as the user should see it: relative to the working directory when possible."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path
