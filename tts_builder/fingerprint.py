"""What a build is made from, as one digest: lets a no-op ``build`` skip building.

A build is a pure function of its inputs (the project's determinism rule): the game's folder
(definition and art, plus any file the definition names outside it), the package's code, Lua
templates and fonts, the versions of the libraries whose output lands in the files (Pillow and
zlib for PNG bytes, Jinja2, lupa, PyYAML, Python) and the build options. ``build`` records the
digest of each file it wrote under this fingerprint in the build cache; when the fingerprint
and the files on disk both still match, nothing needs building, linting or checking.

Files are known by their sha256, which :class:`FileHashes` remembers by each file's ``stat``
(as git's index does), so a fingerprint reads no file that did not change since it was last
hashed; the strings of a definition that may name files outside its folder are remembered by
the definition's digest, so no YAML is parsed either. Nothing here imports more than hashlib
and json: :mod:`tts_builder.cli_noop` answers a no-op build before the CLI loads.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path

#: Libraries whose versions shape the output bytes.
LIBRARIES = ("pillow", "jinja2", "lupa", "pyyaml", "click")
MANIFEST_PREFIX = "build-manifest:"
#: The fingerprint's own version: a change to what it covers or how gives new keys.
FORMAT = "fingerprint 2"
#: The file of a build cache folder that holds :class:`FileHashes`.
HASHES_FILE = "file-hashes.json"
#: How long after a file's last change its ``stat`` is trusted to stand for its bytes (ns):
#: a file changed again within one tick of the file system's clock can keep its stat (racy
#: git), so a stat taken that soon after a change is never trusted. Whole-second timestamps
#: (FAT, HFS+, some network shares) get two seconds.
FINE_MARGIN_NS = 50_000_000
COARSE_MARGIN_NS = 2_000_000_000


#: Every digest this process worked out or read, by absolute path: a later FileHashes of this
#: process (``watch``, a build into another folder) takes it while the file's stat still
#: allows, as from its own file.
_SEEN: dict[str, list[int | str]] = {}


class FileHashes:
    """The sha256 of files, remembered by their ``stat`` in one JSON file of a build cache
    folder (:data:`HASHES_FILE`; ``None``: remembered in memory only).

    A remembered digest is used only while the file's size, modification and change times,
    inode and device are as they were, and only if the file had not changed within
    :data:`FINE_MARGIN_NS` (or :data:`COARSE_MARGIN_NS`) before its stat was taken; anything
    else reads and hashes the file again. A damaged or missing file remembers nothing."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.changed = False
        self.files: dict[str, list[int | str]] = {}
        self.names: dict[str, list[str]] = {}
        self.code: str | None = None  # the code fingerprint, once per FileHashes
        if path is not None:
            try:
                stored = json.loads(path.read_bytes())
                if stored.get("format") == FORMAT:
                    self.files = {k: v for k, v in stored["files"].items() if _entry(v)}
                    self.names = {k: v for k, v in stored["names"].items() if _strings(v)}
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                pass  # nothing remembered: every file is hashed

    def digest(self, path: str | Path) -> bytes:
        """The sha256 of the file at ``path`` (OSError if it cannot be read)."""
        key = os.path.abspath(path)
        seen = time.time_ns()
        st = os.stat(key)
        stat = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]
        known = self.files.get(key)
        for entry in (known, _SEEN.get(key)):
            if entry is not None and entry[:5] == stat and _settled(stat, int(entry[5])):
                _SEEN[key] = entry  # read from the file: this process's later uses take it
                if entry is not known:
                    self.files[key] = entry
                    self.changed = True
                return bytes.fromhex(str(entry[6]))
        with open(key, "rb") as handle:
            digest = hashlib.sha256(handle.read()).digest()
        entry = [*stat, seen, digest.hex()]
        _SEEN[key] = entry
        if entry != known:
            self.files[key] = entry
            self.changed = True
        return digest

    def remember_names(self, definition: str, names: list[str]) -> None:
        """Remember the strings of the definition whose sha256 is ``definition`` that may
        name a file (:func:`path_strings`)."""
        if self.names.get(definition) != names:
            self.names[definition] = names
            self.changed = True

    def save(self) -> None:
        """Write what is remembered, if anything changed (atomically; a failure to write
        only means hashing again next time)."""
        if self.path is None or not self.changed:
            return
        from .writer import write_file

        present = {key: entry for key, entry in self.files.items() if os.path.exists(key)}
        data = {"format": FORMAT, "files": present, "names": self.names}
        try:
            write_file(self.path, json.dumps(data, sort_keys=True).encode(), durable=False)
        except OSError:
            return
        self.changed = False


def _entry(value: object) -> bool:
    """Whether ``value`` is a remembered file: [size, mtime, ctime, inode, device, seen, sha]."""
    return (
        isinstance(value, list)
        and len(value) == 7
        and all(type(v) is int for v in value[:6])
        and isinstance(value[6], str)
        and len(value[6]) == 64
    )


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _settled(stat: list[int], seen: int) -> bool:
    """Whether a file whose stat is ``stat``, taken at ``seen`` (ns), had stopped changing
    long enough before then that a later change must give it another stat."""
    mtime, ctime = stat[1], stat[2]
    margin = COARSE_MARGIN_NS if mtime % 1_000_000_000 == 0 else FINE_MARGIN_NS
    return max(mtime, ctime) + margin < seen


def installed(libraries: Iterable[str]) -> list[str]:
    """The installed distributions of ``libraries`` as ``name-version`` (their ``.dist-info``
    folder names on sys.path; cheaper than importlib.metadata)."""
    wanted = {name.lower().replace("-", "_") for name in libraries}
    found = set()
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info"):
                stem = folder.removesuffix(".dist-info")
                if stem.rpartition("-")[0].lower().replace("-", "_") in wanted:
                    found.add(stem.lower())
    return sorted(found)


def _hash_files(
    digest: hashlib._Hash, root: Path, names: Iterable[str], hashes: FileHashes
) -> None:
    for name in names:
        digest.update(f"{name}\n".encode())
        digest.update(hashes.digest(os.path.join(root, name)))


def files_under(folder: Path, skip: Path | None = None) -> list[str]:
    """Every file under ``folder`` (following links, as ``Path.rglob`` does) as a posix path
    relative to it, none in a ``__pycache__`` folder nor under ``skip``; sorted."""
    found: list[str] = []
    skipped = os.fspath(skip) if skip is not None else None

    def walk(path: str, prefix: str) -> None:
        with os.scandir(path) as entries:
            for entry in entries:
                if entry.is_dir():
                    if entry.name != "__pycache__" and entry.path != skipped:
                        walk(entry.path, f"{prefix}{entry.name}/")
                elif entry.is_file():
                    found.append(prefix + entry.name)

    if os.path.isdir(folder):
        walk(os.fspath(folder), "")
    return sorted(found)


def code_fingerprint(hashes: FileHashes) -> str:
    """The package's code and data that every build reads (not the bundled games' folders:
    a game's own folder enters its build's fingerprint), and the library versions; once per
    ``hashes`` (one build command)."""
    if hashes.code is None:
        hashes.code = _code_fingerprint(hashes)
    return hashes.code


def _code_fingerprint(hashes: FileHashes) -> str:
    from .bundled import ASSETS_DIR, FONTS_DIR, TEMPLATES_DIR, package_folder

    digest = hashlib.sha256(f"{FORMAT}\n{sys.version}\n".encode())
    digest.update(zlib.ZLIB_RUNTIME_VERSION.encode())
    for name in installed(LIBRARIES):
        digest.update(f"{name}\n".encode())
    package = package_folder("tts_builder")
    _hash_files(digest, package, files_under(package, skip=ASSETS_DIR), hashes)
    _hash_files(digest, TEMPLATES_DIR, files_under(TEMPLATES_DIR), hashes)
    _hash_files(digest, FONTS_DIR, files_under(FONTS_DIR), hashes)
    return digest.hexdigest()


def path_strings(value: object) -> list[str]:
    """Every string in a definition's data that may name a file (holds ``/`` or ``\\``),
    sorted, once each."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "/" in item or "\\" in item:
                found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return sorted(found)


def _outside(strings: list[str], folder: Path) -> list[Path]:
    """The files outside ``folder`` that ``strings`` name (``../art/x.png``), sorted."""
    found: set[Path] = set()
    inside = folder.resolve()
    for value in strings:
        try:
            path = (folder / value).resolve()
            if path.is_file() and inside not in path.parents:
                found.add(path)
        except (OSError, ValueError):
            pass
    return sorted(found)


def build_fingerprint(
    game: str,
    request: Mapping[str, object],
    assets_root: Path | None,
    hashes: FileHashes | None = None,
    parse: bool = True,
) -> str | None:
    """The digest of everything ``build`` reads for ``game`` under ``request`` (the options:
    output folder, base URL, variant asked for). Raises BuildError for an unknown game.

    ``parse=False``: None instead of parsing a definition whose strings naming files are not
    remembered yet (what the no-op shortcut does: such a definition changed, so it builds)."""
    from .sources import DEFINITION_FILE, find_game

    hashes = hashes if hashes is not None else FileHashes()
    source = find_game(game, assets_root)
    folder = source.folder.resolve()
    digest = hashlib.sha256(code_fingerprint(hashes).encode())
    digest.update(json.dumps([game, source.origin, str(folder), dict(request)],
                             sort_keys=True, default=str).encode())  # fmt: skip
    _hash_files(digest, folder, files_under(folder), hashes)
    definition = folder / DEFINITION_FILE
    if definition.is_file():
        key = hashes.digest(definition).hex()
        strings = hashes.names.get(key)
        if strings is None:
            if not parse:
                return None
            strings = _definition_strings(game, assets_root)
            hashes.remember_names(key, strings)
        for path in _outside(strings, folder):
            digest.update(f"outside {path}\n".encode())
            digest.update(hashes.digest(path))
    return digest.hexdigest()


def _definition_strings(game: str, assets_root: Path | None) -> list[str]:
    """:func:`path_strings` of the game's definition, parsed as the build parses it (once
    per text: the build's parse is this one); none for a broken definition (the build
    reports it, and a broken definition never gets a manifest)."""
    from .definition import read_definition
    from .errors import BuildError

    try:
        return path_strings(read_definition(game, assets_root).data)
    except BuildError:
        return []


def manifest(builds: Mapping[str, Mapping[str, bytes]], variants: list[str]) -> bytes:
    """What a fingerprint records: each output folder's files by sha256, and the variants of
    the game those folders are (its no-op build checks their folders as a build does)."""
    folders = {folder: {rel: hashlib.sha256(data).hexdigest() for rel, data in files.items()}
               for folder, files in builds.items()}  # fmt: skip
    return json.dumps({"folders": folders, "variants": variants}, sort_keys=True).encode()


def recorded_variants(recorded: bytes) -> list[str] | None:
    """The variants a manifest (:func:`manifest`) records, or None if it is damaged."""
    try:
        variants = json.loads(recorded)["variants"]
    except (ValueError, KeyError, TypeError):
        return None
    return variants if isinstance(variants, list) else None


def up_to_date(
    out: Path, recorded: bytes | None, hashes: FileHashes | None = None
) -> dict[str, int] | None:
    """The folders of a recorded manifest (with their file counts) if ``out`` holds exactly
    those files, byte for byte; else None (something was changed or removed: build)."""
    if recorded is None:
        return None
    hashes = hashes if hashes is not None else FileHashes()
    try:
        folders = json.loads(recorded)["folders"]
        for folder, files in folders.items():
            dest = out / folder
            if not dest.is_dir() or set(files_under(dest)) != set(files):
                return None
            for rel, sha in files.items():
                if hashes.digest(os.path.join(dest, rel)).hex() != sha:
                    return None
    except (ValueError, KeyError, TypeError, AttributeError, OSError):
        return None
    return {folder: len(files) for folder, files in folders.items()}
