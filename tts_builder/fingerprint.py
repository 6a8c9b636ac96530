"""What a build is made from, as one digest: lets a no-op ``build`` skip building.

A build is a pure function of its inputs (the project's determinism rule): the game's folder
(definition and art, plus any file the definition names outside it), the package's code, Lua
templates and fonts, the versions of the libraries whose output lands in the files (Pillow and
zlib for PNG bytes, Jinja2, lupa, PyYAML, Python) and the build options. ``build`` records the
digest of each file it wrote under this fingerprint in the build cache; when the fingerprint
and the files on disk both still match, nothing needs building, linting or checking.
Reading all this costs a few milliseconds and imports nothing heavy.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zlib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

#: Libraries whose versions shape the output bytes.
LIBRARIES = ("pillow", "jinja2", "lupa", "pyyaml", "click")
MANIFEST_PREFIX = "build-manifest:"


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


def _hash_files(digest: Any, root: Path, paths: Iterable[Path]) -> None:
    for path in paths:
        digest.update(f"{path.relative_to(root).as_posix()}\n".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def _files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


@cache
def code_fingerprint() -> str:
    """The package's code and data that every build reads (not the bundled games' folders:
    a game's own folder enters its build's fingerprint), and the library versions."""
    from .bundled import ASSETS_DIR, FONTS_DIR, TEMPLATES_DIR, package_folder

    digest = hashlib.sha256(sys.version.encode())
    digest.update(zlib.ZLIB_RUNTIME_VERSION.encode())
    for name in installed(LIBRARIES):
        digest.update(f"{name}\n".encode())
    package = package_folder("tts_builder")
    code = [p for p in _files_under(package) if ASSETS_DIR not in p.parents]
    _hash_files(digest, package, code)
    _hash_files(digest, TEMPLATES_DIR, _files_under(TEMPLATES_DIR))
    _hash_files(digest, FONTS_DIR, _files_under(FONTS_DIR))
    return digest.hexdigest()


def _named_files(value: Any, folder: Path) -> set[Path]:
    """Files outside ``folder`` that a string in the definition names (``../art/x.png``)."""
    found: set[Path] = set()
    if isinstance(value, str):
        if "/" in value or "\\" in value:
            try:
                path = (folder / value).resolve()
                if path.is_file() and folder.resolve() not in path.parents:
                    found.add(path)
            except (OSError, ValueError):
                pass
    elif isinstance(value, Mapping):
        for item in value.values():
            found |= _named_files(item, folder)
    elif isinstance(value, list):
        for item in value:
            found |= _named_files(item, folder)
    return found


def build_fingerprint(game: str, request: Mapping[str, Any], assets_root: Path | None) -> str:
    """The digest of everything ``build`` reads for ``game`` under ``request`` (the options:
    output folder, base URL, variant asked for). Raises BuildError for an unknown game."""
    from .definition import DEFINITION_FILE, find_game, read_definition
    from .errors import BuildError

    source = find_game(game, assets_root)
    folder = source.folder.resolve()
    digest = hashlib.sha256(code_fingerprint().encode())
    digest.update(json.dumps([game, source.origin, str(folder), dict(request)],
                             sort_keys=True, default=str).encode())  # fmt: skip
    _hash_files(digest, folder, _files_under(folder))
    definition = folder / DEFINITION_FILE
    if definition.is_file():
        try:  # parsed as the build parses it (once per text: the build's parse is this one)
            data = read_definition(game, assets_root).data
        except BuildError:
            data = None  # the build reports it; a broken definition never gets a manifest
        for path in sorted(_named_files(data, folder)):
            digest.update(f"outside {path}\n".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def manifest(builds: Mapping[str, Mapping[str, bytes]]) -> bytes:
    """What a fingerprint records: each output folder's files by sha256."""
    return json.dumps(
        {folder: {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(files.items())}
         for folder, files in sorted(builds.items())},  # fmt: skip
        sort_keys=True,
    ).encode()


def up_to_date(out: Path, recorded: bytes | None) -> dict[str, int] | None:
    """The folders of a recorded manifest (with their file counts) if ``out`` holds exactly
    those files, byte for byte; else None (something was changed or removed: build)."""
    if recorded is None:
        return None
    try:
        folders = json.loads(recorded)
    except ValueError:
        return None
    for folder, files in folders.items():
        dest = out / folder
        if not dest.is_dir():
            return None
        present = {p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()}
        if present != set(files):
            return None
        for rel, sha in files.items():
            if hashlib.sha256((dest / rel).read_bytes()).hexdigest() != sha:
                return None
    return {folder: len(files) for folder, files in folders.items()}
