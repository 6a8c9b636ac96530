"""The one build cache: a content-addressed store of plain bytes under ``<out>/.cache``.

A key is the sha256 of the code's version (:func:`code_version`: the package, its templates
and fonts, the libraries whose output lands in the files) and of what a stage read, as JSON
(:func:`key`). An entry is a file named by the sha256 of its key holding a header, that
name again, the sha256 of the value and the value; it is read back only if all of that
checks, so a damaged, cut short, swapped, foreign or unreadable entry (a folder, a symlink
loop, the cache folder itself a file) is a miss: made again and replaced, never an error.
Values are bytes the caller decodes; nothing in the store is unpickled or run.

Writes are atomic (a temporary file renamed over the entry) and best effort: a cache that
cannot be written only means making the value again next time. :func:`locked` serialises
the builds into one ``--out`` folder and removes what a killed build left behind. A store's
:class:`Memo` is the small in-process LRU of decoded pictures ``watch``'s rebuilds share.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from functools import cache
from pathlib import Path
from typing import BinaryIO

from .writer import remove, write_file

#: What every entry starts with (a change to the entry format: a new header, old entries miss).
HEADER = b"tts-builder cache 1\n"
#: The libraries whose versions shape the output bytes.
LIBRARIES = ("pillow", "jinja2", "lupa", "pyyaml", "click")
#: How an entry is opened: never through a link, never waiting (a named pipe reads empty).
READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_BINARY", 0)
)


def installed(libraries: tuple[str, ...] | list[str]) -> list[str]:
    """The installed distributions of ``libraries`` as ``name-version`` (their ``.dist-info``
    folder names on sys.path)."""
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


def files_under(folder: Path, skip: Path | None = None) -> list[str]:
    """Every file under ``folder`` as a posix path relative to it, none in a ``__pycache__``
    folder nor under ``skip``; sorted. Symbolic links to folders are not followed."""
    found: list[str] = []
    skipped = os.fspath(skip) if skip is not None else None
    stack = [(os.fspath(folder), "")]
    while stack:
        path, prefix = stack.pop()
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__" and entry.path != skipped:
                        stack.append((entry.path, f"{prefix}{entry.name}/"))
                elif entry.is_file():
                    found.append(prefix + entry.name)
            except OSError:
                continue
    return sorted(found)


def digest_files(digest: hashlib._Hash, root: Path, names: list[str]) -> None:
    """Add each file's name and bytes to ``digest``."""
    for name in names:
        digest.update(f"{name}\n".encode())
        with open(os.path.join(root, name), "rb") as handle:
            digest.update(hashlib.sha256(handle.read()).digest())


def code_version(package: Path, templates: Path, fonts: Path, skip: Path | None = None) -> str:
    """The digest of the code a build runs: every file of ``package`` (but ``skip``, the
    bundled games), ``templates`` and ``fonts``, Python's and zlib's versions and those of
    :data:`LIBRARIES`."""
    digest = hashlib.sha256(f"{HEADER!r}\n{sys.version}\n{zlib.ZLIB_RUNTIME_VERSION}\n".encode())
    for name in installed(LIBRARIES):
        digest.update(f"{name}\n".encode())
    for root, folder_skip in ((package, skip), (templates, None), (fonts, None)):
        digest.update(f"[{root.name}]\n".encode())
        digest_files(digest, root, files_under(root, folder_skip))
    return digest.hexdigest()


@cache
def current_code() -> str:
    """:func:`code_version` of this process's package (once: the code a process runs does not
    change while it runs)."""
    from .bundled import ASSETS_DIR, FONTS_DIR, TEMPLATES_DIR, package_folder

    return code_version(package_folder("tts_builder"), TEMPLATES_DIR, FONTS_DIR, skip=ASSETS_DIR)


def key(*parts: object, code: str | None = None) -> str:
    """The cache key of what ``parts`` describe (plain JSON data: a kind, then what was read,
    e.g. the sha256 of an art file's bytes) made by the code ``code`` (default: this
    process's, :func:`current_code`)."""
    text = json.dumps([code or current_code(), *parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Store(MutableMapping[str, bytes]):
    """The cache folder ``root``: key -> bytes, each entry checked on read (see the module's
    note). Any key string is allowed (its sha256 names the file). ``memo`` keeps decoded
    objects of this process (a small LRU, for ``watch``'s rebuilds in one process)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.memo = Memo()

    def _name(self, key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    def _path(self, key: str) -> Path:
        return self.root / self._name(key)

    def __getitem__(self, key: str) -> bytes:
        name = self._name(key)
        path = self.root / name
        try:
            fd = os.open(path, READ_FLAGS)
        except FileNotFoundError:
            raise KeyError(key) from None
        except (OSError, ValueError):  # a folder, a link (a loop), the cache folder a file
            remove(path)
            raise KeyError(key) from None
        try:
            with os.fdopen(fd, "rb") as handle:
                stored = handle.read()
        except OSError:  # e.g. a folder opened on a system that allows it
            remove(path)
            raise KeyError(key) from None
        value = _checked(stored, name)
        if value is None:
            remove(path)
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: bytes) -> None:
        name = self._name(key)
        data = b"".join((HEADER, name.encode(), hashlib.sha256(value).digest(), value))
        with contextlib.suppress(OSError):
            self._write(self.root / name, data)

    def _write(self, path: Path, data: bytes) -> None:
        try:
            write_file(path, data, durable=False)
        except IsADirectoryError:
            remove(path)  # a folder where the entry goes
            write_file(path, data, durable=False)
        except OSError:  # the folder missing, or a file or a link loop in its place
            ready(self.root)
            write_file(path, data, durable=False)

    def get_or_make(self, key: str, make: Callable[[], bytes]) -> bytes:
        """The entry ``key``, or ``make()`` stored under it."""
        return get_or_make(self, key, make)

    def holds(self, key: str) -> bool:
        """Whether a readable entry for ``key`` is on disk."""
        return self.get(key) is not None

    def __delitem__(self, key: str) -> None:
        remove(self._path(key))

    def __iter__(self) -> Iterator[str]:  # keys are hashed: they cannot be listed
        return iter(())

    def __len__(self) -> int:
        try:
            return sum(1 for entry in os.scandir(self.root) if len(entry.name) == 64)
        except OSError:
            return 0


def get_or_make(cache: MutableMapping[str, bytes], key: str, make: Callable[[], bytes]) -> bytes:
    """The entry ``key`` of ``cache`` (a :class:`Store`, or any mapping), or ``make()`` stored
    under it."""
    value = cache.get(key)
    if value is None:
        value = make()
        cache[key] = value
    return value


def _checked(stored: bytes, name: str) -> bytes | None:
    """The value of an entry read as ``stored`` from the file ``name``, or None if it is not
    a whole entry of that key."""
    head = len(HEADER)
    if stored[:head] != HEADER or stored[head : head + 64] != name.encode():
        return None
    check, value = stored[head + 64 : head + 96], stored[head + 96 :]
    if len(check) < 32 or hashlib.sha256(value).digest() != check:
        return None
    return value


def ready(root: Path) -> None:
    """Make the cache folder ``root`` (anything else in its place removed)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        remove(root)  # a file, a dangling link or a loop in its place (a link to a folder serves)
        root.mkdir(parents=True, exist_ok=True)


class Memo:
    """A small LRU of decoded objects by key, within ``budget`` bytes (a picture weighs its
    pixels, bytes their length): what one process (``watch``) keeps between its rebuilds."""

    def __init__(self, budget: int = 64 * 2**20) -> None:
        self.budget = budget
        self.used = 0
        self.items: OrderedDict[str, tuple[object, int]] = OrderedDict()

    def get(self, key: str) -> object | None:
        found = self.items.get(key)
        if found is None:
            return None
        self.items.move_to_end(key)
        return found[0]

    def add(self, key: str, item: object) -> None:
        weight = _weight(item)
        if weight > self.budget:
            return
        old = self.items.pop(key, None)
        self.used += weight - (old[1] if old else 0)
        self.items[key] = (item, weight)
        while self.used > self.budget:
            _, (_, dropped) = self.items.popitem(last=False)
            self.used -= dropped


def _weight(item: object) -> int:
    if isinstance(item, bytes | bytearray):
        return len(item)
    size = getattr(item, "size", (0, 0))
    bands = len(getattr(item, "getbands", lambda: "RGBA")())
    return int(size[0]) * int(size[1]) * bands + 1


@contextlib.contextmanager
def locked(out: Path, on_wait: Callable[[], None] = lambda: None) -> Iterator[Store]:
    """The build folder ``out`` for this process alone while the block runs: its lock file
    held (:func:`lock_path`, ``fcntl``; where there is none, no lock) and what a killed build
    left behind removed (:func:`sweep`); its cache, a :class:`Store`. Nothing is written into
    ``out`` here. Another build of the folder waits for it (``on_wait`` called once first)."""
    try:
        import fcntl
    except ImportError:  # no POSIX locks (Windows): builds are not serialised
        sweep(out)
        yield Store(out / ".cache")
        return
    handle = _lock_file(lock_path(out))
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            on_wait()
            fcntl.flock(handle, fcntl.LOCK_EX)
        sweep(out)
        yield Store(out / ".cache")
    finally:
        handle.close()


def lock_path(out: Path) -> Path:
    """The lock file of the build folder ``out``: in the temporary folder, named by the
    folder's path (a refused build leaves ``out`` as it was, even absent)."""
    name = hashlib.sha256(os.fsencode(out.resolve())).hexdigest()[:32]
    return Path(tempfile.gettempdir()) / f"tts-builder-{name}.lock"


def _lock_file(path: Path) -> BinaryIO:
    """The lock file at ``path``, opened (anything else in its place removed first)."""
    try:
        return open(path, "a+b")  # noqa: SIM115 - held by the caller
    except OSError:
        remove(path)
        return open(path, "a+b")  # noqa: SIM115


def sweep(out: Path) -> None:
    """Remove what an interrupted build left in ``out`` (the writer's staged and retired
    folders, ``.<name>.new-*`` and ``.<name>.old-*``) and whatever in its cache folder is no
    entry file (temporary files, an older store's files, folders, links, anything put there)."""
    for folder, foreign in ((out, _staged), (out / ".cache", _not_entry)):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if foreign(entry):
                remove(Path(entry.path))


def _staged(entry: os.DirEntry) -> bool:
    name = entry.name
    return name.startswith(".") and (".new-" in name or ".old-" in name)


def _not_entry(entry: os.DirEntry) -> bool:
    name = entry.name
    try:
        plain = entry.is_file(follow_symlinks=False)
    except OSError:
        plain = False
    return not (plain and len(name) == 64 and all(c in HEX for c in name))


HEX = frozenset("0123456789abcdef")
