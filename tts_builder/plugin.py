"""The plug-in contract: what a game gives the pipeline and what the pipeline gives it back.

A game (its rules engine) is one :class:`Game` value: the definition keys it adds to the common
header, its cross-field checks, its rule config, and ``assemble``, which turns a validated
:class:`GameDefinition` (already overlaid with the chosen variant's data, see
:mod:`tts_builder.variants`) into a :class:`GameBuild`. Games are registered explicitly in
``tts_builder.games`` (one line each). This module imports nothing from the pipeline
(``build``, ``definition``) or from any game, so games import it at the top and no import cycle
exists between the pipeline and the games.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeAlias

from .json_types import Data, Json
from .schema import Spec
from .sources import DEFAULT_OUT, output_folder  # noqa: F401 - importable from here as before
from .variants import with_variant
from .yamlsrc import SourceDoc

if TYPE_CHECKING:  # types only: geometry imports nothing of the pipeline either
    from PIL import Image

    from .geometry import ScriptPosition


@dataclass(frozen=True)
class GameDefinition:
    """A validated game definition, where each value came from, and the variant built.

    ``data`` is the definition as the build sees it: with ``variant`` set, that variant's
    overlay merged in (:mod:`tts_builder.variants`); ``base_data`` is the file as written.
    """

    id: str
    doc: SourceDoc
    root: Path
    engine: str = ""  # the bundled rules engine; "" means the id
    origin: str = "bundled"
    variant: str | None = None

    @cached_property
    def data(self) -> Data:
        return with_variant(self.doc.data, self.variant)

    @property
    def base_data(self) -> Data:
        """The definition without any variant's overlay."""
        return self.doc.data

    @property
    def rules_engine(self) -> str:
        """The engine id: the game module, ``lua_templates/<engine>/`` and ``rules_ref``."""
        return self.engine or self.id

    @property
    def name(self) -> str:
        return self.data["name"]

    @property
    def players(self) -> tuple[int, int]:
        return self.data["players"]["min"], self.data["players"]["max"]

    @property
    def variants(self) -> list[str]:
        """Variant ids: the keys of the mapping of variant id -> variant data."""
        return list(self.data.get("variants", []))


@dataclass(frozen=True)
class BuildOptions:
    """Where the build will live (for local URLs) and how assets are addressed."""

    out_dir: Path = DEFAULT_OUT
    base_url: str | None = None
    variant: str | None = None


class Images(Protocol):
    """The images of one build (``build.ImageSet``): named PNGs through a content-keyed cache."""

    files: dict[str, bytes]

    def png(self, name: str, spec: Json, make: Callable[[], Image.Image]) -> str:
        """Add ``images/<name>.png`` made by ``make`` (or taken from the cache); its URL."""
        ...

    def url(self, rel_path: str) -> str:
        """The URL TTS loads ``rel_path`` of the build folder from."""
        ...

    def picture(self, spec: Json, make: Callable[[], Image.Image]) -> Image.Image:
        """The picture ``spec`` describes, made by ``make`` only when not cached."""
        ...


@dataclass
class GameBuild:
    """Everything one game's build produces, as data."""

    game_id: str
    definition: GameDefinition
    save: Data
    global_script: str
    global_ui: str
    files: dict[str, bytes] = field(default_factory=dict)
    rendered: int = 0  # images actually rendered (0 on a fully cached rebuild)
    drawn: int = 0  # parts (card faces...) drawn for them, not found in the cache
    variant: str | None = None
    #: Table positions the scripts use, for checks and pictures.
    positions: list[ScriptPosition] = field(default_factory=list)
    #: GUID -> the definition field that put the object on the table (``table.pieces[2].at``),
    #: so a failing check of a designer's object is reported at that field.
    origins: dict[str, str] = field(default_factory=dict)

    @property
    def engine(self) -> str:
        """The rules engine the game runs on (its templates, strategies and rules_ref)."""
        return self.definition.rules_engine

    @property
    def folder(self) -> str:
        """The build's folder under dist/: ``<game>`` or ``<game>-<variant>``."""
        return output_folder(self.game_id, self.variant)

    def saves(self) -> dict[str, Data]:
        """Every save the build writes (a game may write one per player count), by file name.

        Each ``<stem>.json`` has its thumbnail ``<stem>.png`` beside it, as TTS keeps them.
        """
        return {
            name: json.loads(data)
            for name, data in sorted(self.files.items())
            if name.endswith(".json") and "/" not in name
        }

    @property
    def main_stem(self) -> str:
        """The file stem of :attr:`save` among the build's files (``<game>`` for most games)."""
        for name, save in self.saves().items():
            if save == self.save:
                return name.removesuffix(".json")
        return self.game_id


#: ``check(data, game folder)``: cross-field checks raising FieldError.
Check: TypeAlias = Callable[[Data, Path], None]
#: ``rules_config(data, variant)``: the JSON-shaped rule numbers shared by rules_ref and the Lua.
RulesConfig: TypeAlias = Callable[[Data, "str | None"], Data]
#: ``assemble(definition, images, options)``: the whole build of one game (or variant).
Assemble: TypeAlias = Callable[[GameDefinition, Images, BuildOptions], GameBuild]
#: ``positions_on(save after Setup, data, config, players)``: the script's positions then.
PositionsOn: TypeAlias = Callable[[Data, Data, Data, int], "list[ScriptPosition]"]


@dataclass(frozen=True)
class Game:
    """One rules engine, as the pipeline sees it.

    ``fields`` and ``optional`` are the definition keys beyond the common header (a key in both
    replaces the header's spec); ``check`` runs after the schema; ``rules_config`` gives the
    rule numbers for the base game or a variant; ``assemble`` builds. Optional:
    ``positions_on``, the script's positions once Setup has laid the table out for ``n``
    players (when they differ from the build's ``positions``); and the parts a build never
    imports, each named by a reference :meth:`part` imports when asked: ``strategies``, the
    module with the Hypothesis generators of its rule functions (``verify``), ``play``, the
    ``module:Class`` of its table driver's :class:`~tts_builder.play.driver.Adapter` (model-based
    tests of the built table), and ``balance``, the ``module:Class`` of its
    :class:`~tts_builder.balance.base.BalanceGame` (``simulate``). They live in the game's
    folder (``games/<engine>/strategies.py``, ``play.py``, ``balance.py``).
    """

    id: str
    fields: Mapping[str, Spec]
    optional: frozenset[str]
    check: Check
    rules_config: RulesConfig
    assemble: Assemble
    positions_on: PositionsOn | None = None
    strategies: str = ""
    play: str = ""
    balance: str = ""

    def part(self, name: str) -> object:
        """The game's ``strategies``, ``play`` or ``balance`` part, imported now: the module
        its reference names, or the object a ``module:name`` reference names; None when the
        game has no such part."""
        reference: str = getattr(self, name)
        if not reference:
            return None
        module_name, _, attribute = reference.partition(":")
        module = import_module(module_name)
        return getattr(module, attribute) if attribute else module


#: A table point a game computes: ``(x, z)`` on the table top, or ``(x, y, z)`` with the height
#: its piece's bottom lies at (a piece standing on the game's board), or ``(x, y, z, rot_y)``
#: with the rotY it lies at (a snap point along an edge).
Point: TypeAlias = (
    "tuple[float, float] | tuple[float, float, float] | tuple[float, float, float, float]"
)


@dataclass(frozen=True)
class Picture:
    """A picture the game draws itself (a board drawn from its map, a card printed from its
    rules), which a table manifest piece names with ``picture: <name>`` instead of a
    ``component``: it is written as ``images/<name>.png``.

    ``spec`` is everything it is drawn from (its cache key), ``make`` draws it. Optional:
    ``width``, its width on the table in TTS units when the game decides it (a board drawn to
    scale; a piece's own ``width`` wins), ``scale``, the Transform scale of a token of it (a
    tile that must cover one printed hex; a piece's own ``scale`` wins), and ``faces``, the
    labels of faces 1..6 when it is a d6 texture (a ``die`` piece's RotationValues).
    ``file`` names the image it is written as when that is not its manifest name (one manifest
    name for a picture that differs by variant: ``images/<file>.png``). ``pixels`` is its
    longest side in pixels when known before it is drawn (a board drawn to scale) and
    ``sized_by`` the definition field that sets it: the manifest's load refuses one larger
    than TTS loads (``table.schema.MAX_PICTURE_PX``), at that field.
    """

    spec: Json
    make: Callable[[], Image.Image]
    width: float | None = None
    scale: float | None = None
    faces: tuple[str, ...] = ()
    file: str = ""
    pixels: int | None = None
    sized_by: str = ""


@dataclass(frozen=True)
class TableHooks:
    """What a game's own code hands its table manifest (``tts_builder.table``) beyond the
    definition; every name is one the manifest may use, checked at load.

    - ``pictures``: pictures it draws (``picture: <name>`` on a piece);
    - ``anchors``: named points it computes (``at: {anchor: <name>}``, beside the manifest's
      own ``anchors``);
    - ``tracks``: named lists of points (``at: {track: <name>}``: the piece's objects lie one
      per point, in order; hex centres, start fields, a marker's track); a point may carry a
      4th value, a rotY (``(x, y, z, rot_y)``: a snap point there snaps to it);
    - ``by_players``: per player count, tracks that are that count's own (``n -> name ->
      points``, over ``tracks``): the table is laid with the most players' and
      :func:`tts_builder.table.snap_points` gives each count's snap points (an Ark that grows);
    - ``areas``: named rectangles ``(centre, (x size, z size))`` a zone covers
      (``at: {area: <name>}`` on a ``zone``);
    - ``rosters``: rosters it derives from its own keys (beside the definition's ``rosters``);
    - ``seats``: each seat's own fields, in the manifest's seat order, that a piece at every
      seat may print beside ``{seat}`` and ``{seat_color}`` (a character's ``{name}``);
    - ``omit``: ids of pieces its rules leave off the table for this build (a variant that
      deals no cards), decided from rule data, never from a variant's id.

    Anchors and tracks reach the scripts' context too (``anchors``, ``tracks``).
    """

    pictures: Mapping[str, Picture] = field(default_factory=dict)
    anchors: Mapping[str, Point] = field(default_factory=dict)
    tracks: Mapping[str, Sequence[Point]] = field(default_factory=dict)
    by_players: Mapping[int, Mapping[str, Sequence[Point]]] = field(default_factory=dict)
    areas: Mapping[str, tuple[Point, tuple[float, float]]] = field(default_factory=dict)
    rosters: Mapping[str, Sequence[Data]] = field(default_factory=dict)
    seats: Sequence[Data] = ()
    omit: frozenset[str] = frozenset()
