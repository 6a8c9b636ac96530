"""The build pipeline: definition -> art -> scripts -> save, all in memory.

Nothing here writes files: :func:`build_game` returns every output as bytes keyed by its path
inside ``dist/<game>/``; ``tts_builder.writer`` puts them on disk atomically. Pictures go
through the build cache (:mod:`tts_builder.cache`), keyed by what they are drawn from.
"""

from __future__ import annotations

import hashlib
import io
import json
import zlib
from collections.abc import Callable, MutableMapping
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from .cache import Memo, key
from .definition import load_definition
from .errors import BuildError, FieldError
from .games import game
from .plugin import DEFAULT_OUT, BuildOptions, Data, GameBuild, GameDefinition, output_folder
from .save.checker import Finding, check_geometry, check_save
from .save.geometry_checks import image_size_from_files

IMAGES_DIR = "images"
#: The contract's build types, importable from here as before.
__all__ = ["DEFAULT_OUT", "BuildOptions", "GameBuild", "ImageSet", "build_game", "output_folder"]


#: Decoded pictures a build keeps in memory for reuse (bytes of pixels): a sheet, the
#: thumbnail and the preview show the same card faces.
MEMO_BYTES = 64 * 2**20
#: What a picture stored as a part starts with (:func:`pack`).
PART_HEADER = b"tts-builder picture 1\n"


def pack(img: Image.Image) -> bytes:
    """A picture as plain bytes for the cache: mode, size, deflated pixels."""
    head = f"{img.mode} {img.width} {img.height}\n".encode()
    return PART_HEADER + head + zlib.compress(img.tobytes(), 1)


def unpack(data: bytes) -> Image.Image | None:
    """The picture :func:`pack` made, or None for bytes that are not one."""
    if not data.startswith(PART_HEADER):
        return None
    try:
        head, _, packed = data[len(PART_HEADER) :].partition(b"\n")
        mode, width, height = head.decode("ascii").split(" ")
        return Image.frombytes(mode, (int(width), int(height)), zlib.decompress(packed))
    except (ValueError, zlib.error, UnicodeDecodeError):
        return None


def open_png(data: bytes) -> Image.Image | None:
    """The picture of PNG bytes (decoded, nothing else kept), or None for bytes that are not
    a PNG Pillow reads."""
    try:
        img = Image.open(io.BytesIO(data), formats=["PNG"])
        img.load()
    except (OSError, ValueError, SyntaxError, Image.DecompressionBombError):
        return None
    img.info = {}
    return img


class ImageSet:
    """The images of one game build: named PNGs and the pictures they are made of, through
    the build cache (:class:`tts_builder.cache.Store`, or any mapping of key -> bytes).

    An output image (:meth:`png`) and a part (:meth:`picture`, e.g. a card face composed into
    a sheet, shown in the thumbnail and the preview) are both known by their spec, which names
    the content they are drawn from (an art file by the sha256 of its bytes); the key adds the
    code's version. A part is drawn once: kept in memory (the store's own memo, so ``watch``'s
    next rebuild in this process finds it, else this build's) and in the cache as plain pixels.
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
        memo = getattr(cache, "memo", None)
        self._memo: Memo = memo if isinstance(memo, Memo) else Memo(MEMO_BYTES)
        self._local: str | None = None

    @staticmethod
    def _key(spec: object, part: bool = False) -> str:
        return ImageSet._keys(spec)[1 if part else 0]

    @staticmethod
    def _keys(spec: object) -> tuple[str, str]:
        """The cache keys of ``spec`` as an output image (PNG bytes) and as a part (pixels)."""
        return key("png", spec), key("part", spec)

    def _known(self, keys: tuple[str, str]) -> Image.Image | None:
        """The picture of ``keys`` if this process holds it or the cache has it (as a part
        or an output image), else None."""
        whole, part = keys
        img = self._memo.get(part)
        if img is not None:
            return img  # type: ignore[return-value]
        for name, decode in ((part, unpack), (whole, open_png)):
            data = self.cache.get(name)
            img = decode(data) if data is not None else None
            if img is not None:
                self._memo.add(part, img)
                return img
        return None

    def picture(self, spec: object, make: Callable[[], Image.Image]) -> Image.Image:
        """The picture ``spec`` describes: known (see :meth:`_known`) or made by ``make`` and
        cached as a part. Callers must not change it."""
        keys = self._keys(spec)
        img = self._known(keys)
        if img is None:
            img = make()
            self.drawn += 1
            self.cache[keys[1]] = pack(img)
            self._memo.add(keys[1], img)
        return img

    def png(self, name: str, spec: object, make: Callable[[], Image.Image | bytes]) -> str:
        """Add ``images/<name>.png``, the picture ``spec`` describes: from the cache, else made
        from a known part of the same spec or by ``make`` (a picture, or its PNG bytes); its URL."""
        keys = self._keys(spec)
        data = self.cache.get(keys[0])
        if data is None:
            img: Image.Image | bytes | None = self._known(keys)
            if img is None:
                img = make()
                if isinstance(img, Image.Image):
                    self._memo.add(keys[1], img)
            data = img if isinstance(img, bytes) else self.encode_png(img)
            self.cache[keys[0]] = data
            self.rendered += 1
        path = f"{IMAGES_DIR}/{name}.png"
        self.files[path] = data
        return self.url(path)

    def encode_png(self, img: Image.Image) -> bytes:
        """The PNG bytes of ``img`` (:func:`tts_builder.render.encode_png`)."""
        from .render import encode_png

        return encode_png(img)

    def url(self, rel_path: str) -> str:
        """The URL TTS loads ``rel_path`` from: hosted under --base-url, else a local file."""
        if self.options.base_url:
            return f"{self.options.base_url.rstrip('/')}/{self.folder}/{rel_path}"
        if self._local is None:  # the folder resolved once per build, not once per image
            self._local = (self.options.out_dir.resolve() / self.folder).as_uri()
        return f"{self._local}/{quote(rel_path)}"


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
    (``cache``, e.g. the build cache, remembers scripts found clean, by their text)."""
    from .lua.lint import lint_cached

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


def check_build(
    build: GameBuild, cache: MutableMapping[str, bytes] | None = None
) -> list[tuple[str, Finding]]:
    """Every failing finding of the build's saves: FORMAT ``[req]`` and geometry ``[geo]``
    (the latter with the build's image sizes and script positions); (save name, finding).

    ``cache`` (e.g. the build cache) remembers the findings by a digest of all the checks
    read: each save's bytes, the images' sizes and the script positions (and the code)."""
    sizes = image_size_from_files(build.files)
    name_of = None
    if cache is not None:
        digest = hashlib.sha256()
        for name, data in sorted(build.files.items()):
            if name.endswith(".json") and "/" not in name:
                digest.update(f"{name}:{hashlib.sha256(data).hexdigest()}\n".encode())
            elif name.startswith(f"{IMAGES_DIR}/"):
                digest.update(f"{name}:{sizes(name)}\n".encode())
        digest.update(repr(build.positions).encode())
        name_of = key("findings", digest.hexdigest())
        known = cache.get(name_of)
        if known is not None:
            try:
                return [(name, Finding(*fields)) for name, *fields in json.loads(known)]
            except (ValueError, TypeError):
                pass  # not a list of findings: checked again
    found = []
    for name, save in build.saves().items():
        findings = [f for f in check_save(save) if f.level == "req"]
        findings += check_geometry(save, sizes, build.positions)
        found += [(name, f) for f in findings]
    if name_of is not None and cache is not None:
        rows = [[name, f.level, f.path, f.message] for name, f in found]
        cache[name_of] = json.dumps(rows).encode()
    return found
