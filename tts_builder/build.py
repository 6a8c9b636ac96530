"""The build pipeline: definition -> art -> scripts -> save, all in memory.

Nothing here writes files: :func:`build_game` returns every output as bytes keyed by its path
inside ``dist/<game>/``; ``tts_builder.writer`` puts them on disk atomically. Rendered images go
through a content-keyed cache, so a rebuild with unchanged inputs renders nothing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, MutableMapping
from dataclasses import replace
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from PIL import Image

from .bundled import FONTS_DIR, package_folder
from .definition import load_definition
from .errors import BuildError, FieldError
from .games import game
from .plugin import DEFAULT_OUT, BuildOptions, Data, GameBuild, GameDefinition, output_folder
from .save.checker import Finding, check_geometry, check_save
from .save.geometry_checks import image_size_from_files

if TYPE_CHECKING:
    from .render.components import CheckedSides
    from .render.memo import PictureMemo

IMAGES_DIR = "images"
#: The contract's build types, importable from here as before.
__all__ = ["DEFAULT_OUT", "BuildOptions", "GameBuild", "ImageSet", "build_game", "output_folder"]


@cache
def code_digest() -> str:
    """A digest of the package's code (every module) and the renderer's fonts: cached
    pictures, and the results of drawing or checking a build, die when either changes.

    Every module, not the renderer's alone: a picture's spec (its cache key) names what it is
    drawn from, not every line of code that draws it, and a game's or the table's own code
    draws too (the flood board's geometry, Ark & Noah's boards, a manifest's pieces).

    Each file enters by its sha256, as :class:`~tts_builder.fingerprint.FileHashes` knows
    it: a file this process hashed already (the CLI's no-op check hashes the whole package)
    is not read again while its ``stat`` stands for its bytes."""
    from .fingerprint import FileHashes

    hashes = FileHashes()  # in memory: takes the digests this process worked out or read
    root = package_folder("tts_builder")
    digest = hashlib.sha256()
    for path in [*sorted(root.rglob("*.py")), *sorted(FONTS_DIR.glob("*.ttf"))]:
        name = path.relative_to(root) if root in path.parents else path.name
        digest.update(f"{name}\n".encode())
        digest.update(hashes.digest(path))
    return digest.hexdigest()


def package_digest() -> str:
    """:func:`code_digest` (by its older name: the digest of the whole package's code)."""
    return code_digest()


#: Pictures kept in memory for reuse (bytes of pixels); more are re-read from the cache.
MEMO_BYTES = 64 * 2**20
#: Encoded entries of a cache folder kept in memory (bytes) by a process building into it.
READ_BYTES = 32 * 2**20


#: The pictures this process keeps between builds into one cache folder (``watch``, a warm
#: process), by the folder: only the latest folder's, so memory stays within MEMO_BYTES and a
#: build into another folder starts from nothing.
_KEPT: dict[str, tuple[PictureMemo, PictureMemo]] = {}


def kept_pictures(cache: MutableMapping[str, bytes]) -> tuple[PictureMemo, bool]:
    """The pictures a build through ``cache`` may reuse, and whether they outlive the build: a
    cache folder that can say which entries it holds (``cache.holds(key)``, the writer's
    ``DirCache``) shares them with the process's later builds into it; any other cache gets
    pictures of its own."""
    kept = _kept(cache)
    return (kept[0], True) if kept else (_new_memo(MEMO_BYTES), False)


def kept_reads(cache: MutableMapping[str, bytes]) -> PictureMemo | None:
    """The entries of a cache folder this process read or wrote (see :func:`kept_pictures`),
    to take again while the folder holds them; None for a cache that is no folder."""
    kept = _kept(cache)
    return kept[1] if kept else None


def _new_memo(budget: int) -> PictureMemo:
    from .render.memo import PictureMemo

    return PictureMemo(budget)


def _kept(cache: MutableMapping[str, bytes]) -> tuple[PictureMemo, PictureMemo] | None:
    root = getattr(cache, "root", None)
    if not callable(getattr(cache, "holds", None)) or root is None:
        return None
    folder = str(root)
    if folder not in _KEPT:
        _KEPT.clear()
        _KEPT[folder] = (_new_memo(MEMO_BYTES), _new_memo(READ_BYTES))
    return _KEPT[folder]


def forget_pictures() -> None:
    """Drop every picture this process keeps between builds (:func:`kept_pictures`, the
    renderer's shared masks and derived pictures, every :class:`~.render.memo.PictureMemo`:
    the preview's cells, the table picture's layers and scaled images): the next build draws
    as a new process."""
    from .picture import forget_table_pictures
    from .render.layout import forget_shared
    from .render.memo import forget_all

    _KEPT.clear()
    forget_shared()
    forget_all()
    forget_table_pictures()


class ImageSet:
    """The images of one game build: named PNGs and the pictures they are made of, through a
    content-keyed cache.

    An output image (:meth:`png`) and a part (:meth:`picture`, e.g. a card face composed into a
    sheet, shown in the thumbnail and the preview) are both known by their spec. A part is
    drawn once: it is kept in memory while it fits :data:`MEMO_BYTES` (between the builds of
    one process into the same cache folder, while the folder holds it: see
    :func:`kept_pictures`), and in the cache (packed quickly by
    :func:`tts_builder.render.png.encode_part`) for later builds, so a changed card redraws
    that card only.
    """

    def __init__(
        self, game_id: str, options: BuildOptions, cache: MutableMapping[str, bytes]
    ) -> None:
        self.game_id = game_id
        self.folder = output_folder(game_id, options.variant)
        self.options = options
        self.cache = cache
        self.files: dict[str, bytes] = {}
        self.rendered = 0  # output images made (not found in the cache)
        self.drawn = 0  # parts drawn (not found in memory or the cache)
        self._memo, self._shared = kept_pictures(cache)
        self._reads = kept_reads(cache)
        self._local: str | None = None
        self._checked: CheckedSides | None = None

    @property
    def checked_sides(self) -> CheckedSides:
        """The layout sides the last build of this folder found valid, and those this one
        shows (:class:`~tts_builder.render.components.CheckedSides`, kept in the cache by
        :meth:`finish`)."""
        if self._checked is None:
            from .render.components import CheckedSides

            key = self._key({"checked sides": self.folder})  # with the package's code
            self._checked = CheckedSides(self.cache, key)
        return self._checked

    def finish(self) -> None:
        """Keep what a later build reads besides pictures (:attr:`checked_sides`)."""
        if self._checked is not None:
            self._checked.save()

    @staticmethod
    def _key(spec: object, part: bool = False) -> str:
        return ImageSet._keys(spec)[1 if part else 0]

    @staticmethod
    def _keys(spec: object) -> tuple[str, str]:
        """The cache keys of ``spec`` as an output image and as a part: the sha256 of
        ``[code digest, spec]`` and of ``[code digest, "part", spec]`` in sorted-key JSON, the
        spec serialised once for both."""
        text = json.dumps(spec, sort_keys=True, default=str)
        code = json.dumps(code_digest())
        return (
            hashlib.sha256(f"[{code}, {text}]".encode()).hexdigest(),
            hashlib.sha256(f'[{code}, "part", {text}]'.encode()).hexdigest(),
        )

    def _remember(self, key: str, img: Image.Image) -> None:
        from .render.layout import freeze

        freeze(img, key)  # callers must not change it: what is derived from it may be reused
        self._memo.add(key, img)

    def _known(self, spec: object, keys: tuple[str, str] | None = None) -> Image.Image | None:
        """The picture of ``spec`` (its :meth:`_keys` if known) if this build holds it (or an
        earlier one of this process, while the cache still has it) or the cache has it (as a
        part or an output image), else None."""
        from .render import decode_part
        from .render.png import open_png

        whole, part = keys or self._keys(spec)
        img = self._memo.get(part)
        if img is not None and (
            not self._shared or self.cache.holds(part) or self.cache.holds(whole)  # type: ignore[attr-defined]
        ):
            return img
        for key, decode in ((whole, open_png), (part, decode_part)):  # pixels when used
            data = self.cache.get(key)
            if data is not None:
                img = decode(data)
                self._remember(part, img)
                return img
        return None

    def picture(self, spec: object, make: Callable[[], Image.Image]) -> Image.Image:
        """The picture ``spec`` describes: known (see :meth:`_known`) or made by ``make`` and
        cached as a part. Callers must not change it."""
        from .render import encode_part

        keys = self._keys(spec)
        img = self._known(spec, keys)
        if img is None:
            img = make()
            self.drawn += 1
            self.cache[keys[1]] = encode_part(img)
            self._remember(keys[1], img)
        return img

    def _read(self, key: str) -> bytes | None:
        """The cache's entry ``key``: as this process read or wrote it while the cache folder
        still holds it, else read now."""
        if self._reads is not None:
            data = self._reads.get(key)
            if data is not None and self.cache.holds(key):  # type: ignore[attr-defined]
                return data
        data = self.cache.get(key)
        if data is not None and self._reads is not None:
            self._reads.add(key, data)
        return data

    def _write(self, key: str, data: bytes) -> None:
        self.cache[key] = data
        if self._reads is not None:
            self._reads.add(key, data)

    def encoded(self, spec: object, make: Callable[[], bytes]) -> bytes:
        """The bytes ``spec`` describes (e.g. an encoded band of a sheet): from the cache, else
        made by ``make`` and cached."""
        key = self._key({"encoded": spec})
        data = self._read(key)
        if data is None:
            data = make()
            self._write(key, data)
        return data

    def encoded_known(self, spec: object) -> bytes | None:
        """The bytes ``spec`` describes if the cache holds them (see :meth:`encoded`), else
        None."""
        return self._read(self._key({"encoded": spec}))

    def kept_record(self, spec: object) -> bytes | None:
        """What a build of this code kept under ``spec`` (:meth:`keep_record`), if the cache holds
        it."""
        return self._read(self._key({"kept": spec}))

    def keep_record(self, spec: object, data: bytes) -> None:
        """Keep ``data`` under ``spec`` for later builds (e.g. which rows a sheet showed last)."""
        key = self._key({"kept": spec})
        if self._read(key) != data:
            self._write(key, data)

    def png(self, name: str, spec: object, make: Callable[[], Image.Image | bytes]) -> str:
        """Add ``images/<name>.png``, the picture ``spec`` describes: from the cache, else made
        from a known part of the same spec or by ``make`` (a picture, or its PNG bytes); its URL."""
        keys = self._keys(spec)
        key = keys[0]
        data = self._read(key)
        if data is None:
            img: Image.Image | bytes | None = self._known(spec, keys)
            if img is None:
                img = make()
                if isinstance(img, Image.Image):
                    self._remember(keys[1], img)
            data = img if isinstance(img, bytes) else self.encode_png(img)
            self._write(key, data)
            self.rendered += 1
        path = f"{IMAGES_DIR}/{name}.png"
        self.files[path] = data
        return self.url(path)

    def encode_png(self, img: Image.Image) -> bytes:
        """:func:`encode_png_through` this build's cache."""
        return encode_png_through(self.cache, img, self.encoded)

    def url(self, rel_path: str) -> str:
        """The URL TTS loads ``rel_path`` from: hosted under --base-url, else a local file."""
        if self.options.base_url:
            return f"{self.options.base_url.rstrip('/')}/{self.folder}/{rel_path}"
        if self._local is None:  # the folder resolved once per build, not once per image
            self._local = (self.options.out_dir.resolve() / self.folder).as_uri()
        return f"{self._local}/{quote(rel_path)}"


def cached_bytes(
    cache: MutableMapping[str, bytes], spec: object, make: Callable[[], bytes]
) -> bytes:
    """The bytes ``spec`` describes (e.g. an encoded band): from ``cache`` (keyed by the spec
    and the renderer's code), else made by ``make`` and cached."""
    key = ImageSet._key({"encoded": spec})
    data = cache.get(key)
    if data is None:
        data = cache[key] = make()
    return data


def encode_png_through(
    cache: MutableMapping[str, bytes],
    img: Image.Image,
    encoded: Callable[[object, Callable[[], bytes]], bytes] | None = None,
    bands: Callable[[int, int], object] | None = None,
) -> bytes:
    """:func:`tts_builder.render.encode_png` of ``img`` (the same bytes), each band of a
    picture of several bands known in ``cache`` by a digest of its pixels, or by
    ``bands(y0, y1)`` (a spec of what its rows [y0, y1) show, for a caller that knows: no
    pixels hashed): a picture redrawn with a small change (a preview with one new cell, a table
    with one recoloured pawn) deflates only the bands that changed (``encoded``: how a band is
    looked up, by default :func:`cached_bytes` in ``cache``)."""
    from .render.png import BAND_ROWS, ENCODER, encode_band, encode_png, join_bands

    if img.mode not in ("RGB", "RGBA") or img.height <= BAND_ROWS:
        return encode_png(img)

    def crop(y: int) -> Image.Image:
        return img.crop((0, y, img.width, min(img.height, y + BAND_ROWS)))

    found = []
    for y in range(0, img.height, BAND_ROWS):
        spec: dict[str, object]
        if bands is not None:
            spec = {"shows": bands(y, min(img.height, y + BAND_ROWS)), "mode": img.mode}
            make: Callable[[], bytes] = lambda y=y: encode_band(crop(y))  # noqa: E731
        else:
            band = crop(y)
            pixels = hashlib.sha256(band.tobytes()).hexdigest()
            spec = {"band": [band.mode, band.width, band.height, pixels]}
            make = partial(encode_band, band)
        spec["encoder"] = ENCODER
        found.append(encoded(spec, make) if encoded else cached_bytes(cache, spec, make))
    return join_bands(found)


def build_game(
    game_id: str,
    options: BuildOptions | None = None,
    cache: MutableMapping[str, bytes] | None = None,
    assets_root: Path | None = None,
    definition: GameDefinition | None = None,
) -> GameBuild:
    """Build one game completely in memory (``definition``: the game's, loaded already by a
    caller building several of its variants; else loaded here)."""
    options = options or BuildOptions()
    if definition is None:
        definition = load_definition(game_id, assets_root)
    if options.variant and options.variant not in definition.variants:
        known = ", ".join(definition.variants) or "none"
        raise BuildError(f"{game_id}: unknown variant {options.variant!r} (variants: {known})")
    images = ImageSet(game_id, options, cache if cache is not None else {})
    try:
        variant = replace(definition, variant=options.variant)  # its data: overlaid
        build = game(definition.rules_engine).assemble(variant, images, options)
    except FieldError as err:  # e.g. a layout naming an unknown {field}
        raise definition.doc.reraise(err) from None
    images.finish()
    build.files.update(images.files)
    build.rendered = images.rendered
    build.drawn = images.drawn
    build.variant = options.variant
    return build


def describe_outputs(files: dict[str, bytes]) -> str:
    """What a build folder holds, for the user: every top-level file by name (the saves, their
    thumbnails, ``preview.png``, any other picture), then each sub-folder with its file count."""
    top = sorted(name for name in files if "/" not in name)
    saves = {name.removesuffix(".json") for name in top if name.endswith(".json")}
    roles = {"preview.png": "every component", "table.png": "the table at load"}
    shown = []
    for name in top:
        stem, _, suffix = name.rpartition(".")
        role = roles.get(name) or ("save" if suffix == "json" else None)
        if role is None and suffix == "png":
            role = "thumbnail" if stem in saves else "picture"
        shown.append(f"{name} ({role})" if role else name)
    folders: dict[str, int] = {}
    for name in files:
        if "/" in name:
            folder = name.split("/", 1)[0]
            folders[folder] = folders.get(folder, 0) + 1
    shown += [f"{f}/ ({n} file{'s' * (n != 1)})" for f, n in sorted(folders.items())]
    return ", ".join(shown)


def scripts_of(save: Data) -> dict[str, str]:
    """Every non-empty Lua script in a save: ``Global`` and ``<Nickname>.<GUID>``."""
    found = {"Global": save.get("LuaScript", "")}
    stack = list(save.get("ObjectStates", []))
    while stack:
        obj = stack.pop()
        if obj.get("LuaScript"):
            found[f"{obj.get('Nickname') or obj['Name']}.{obj['GUID']}"] = obj["LuaScript"]
        stack.extend(obj.get("ContainedObjects", []))
    return {name: text for name, text in found.items() if text}


def lint_build(build: GameBuild, cache: MutableMapping[str, bytes] | None = None) -> None:
    """Fail the build on any MoonSharp-compatibility hit, naming the template module and line
    (``cache``, e.g. the render cache, remembers scripts found clean, by content, and builds
    whose scripts were all clean by their saves' bytes: their saves are not parsed again)."""
    from .lua.lint import CLEAN, lint_cached, linter_digest

    key = None
    if cache is not None:
        digest = hashlib.sha256(f"{linter_digest()}\n".encode())
        for name, data in sorted(build.files.items()):
            if name.endswith(".json") and "/" not in name:
                digest.update(f"{name}:{hashlib.sha256(data).hexdigest()}\n".encode())
        digest.update(json.dumps(scripts_of(build.save), sort_keys=True).encode())
        key = f"lint-build:{digest.hexdigest()}"
        if cache.get(key) == CLEAN:
            return
    names_by_text: dict[str, str] = {}  # each distinct script once, named by where it ships
    for save_name, save in [("save", build.save), *build.saves().items()]:
        for name, text in scripts_of(save).items():
            names_by_text.setdefault(text, f"{save_name}: {name}")
    for text, name in names_by_text.items():
        hits = lint_cached(text, name, cache)
        if hits:
            from .lua.bundle import is_bundle, module_line_map
            from .lua.scripts import module_templates

            hit = hits[0]
            where = f"{name}:{hit.line}"
            if is_bundle(text) and hit.line in module_line_map(text):
                module, line = module_line_map(text)[hit.line]
                template = module_templates(build.engine).get(module, module)
                where = f"lua_templates/{template}: line {line} of the rendered module"
            more = f" (and {len(hits) - 1} more)" if len(hits) > 1 else ""
            raise BuildError(f"{build.game_id}: {where}: [{hit.rule}] {hit.message}{more}")
    if key is not None and cache is not None:
        cache[key] = CLEAN


def check_build(
    build: GameBuild, cache: MutableMapping[str, bytes] | None = None
) -> list[tuple[str, Finding]]:
    """Every failing finding of the build's saves: FORMAT ``[req]`` and geometry ``[geo]``
    (the latter with the build's image sizes and script positions); (save name, finding).

    ``cache`` (e.g. the render cache) remembers the findings by a digest of all the checks
    read: the package's code, each save's bytes, the images' sizes and the script positions."""
    sizes = image_size_from_files(build.files)
    key = None
    if cache is not None:
        digest = hashlib.sha256(package_digest().encode())
        for name, data in sorted(build.files.items()):
            if name.endswith(".json") and "/" not in name:
                digest.update(f"{name}:{hashlib.sha256(data).hexdigest()}\n".encode())
            elif name.startswith(f"{IMAGES_DIR}/"):
                digest.update(f"{name}:{sizes(name)}\n".encode())
        digest.update(repr(build.positions).encode())
        key = f"check_build:{digest.hexdigest()}"
        known = cache.get(key)
        if known is not None:
            return [(name, Finding(*fields)) for name, *fields in json.loads(known)]
    found = []
    for name, save in build.saves().items():
        findings = [f for f in check_save(save) if f.level == "req"]
        findings += check_geometry(save, sizes, build.positions)
        found += [(name, f) for f in findings]
    if key is not None and cache is not None:
        rows = [[name, f.level, f.path, f.message] for name, f in found]
        cache[key] = json.dumps(rows).encode()
    return found
