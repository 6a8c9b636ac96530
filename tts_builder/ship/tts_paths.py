"""Where TTS keeps its files (FORMAT.md §1) and which ``TS_Save_<N>`` slot an install takes.

TTS lists only numbered saves, ``Saves/TS_Save_<N>.json`` with a ``TS_Save_<N>.png`` thumbnail
beside it. An install never overwrites a save it did not write: tts-builder keeps its own index
(``<data folder>/tts-builder/installed.json``) recording, per game, the slot it took and the
sha256 of the files it wrote there. A re-install replaces that slot only while both files are
still exactly what tts-builder wrote (or gone); a save the player re-saved from TTS is kept and
the new install takes a fresh slot.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

from ..errors import BuildError

SAVES_ENV = "TTS_SAVES_DIR"
OWN_DIR = "tts-builder"
INDEX_FILE = "installed.json"
INDEX_VERSION = 1
_SAVE_RE = re.compile(r"TS_Save_(\d+)\.(json|png)", re.IGNORECASE)
#: The highest save number an install takes or an index entry records: the most a signed
#: 32-bit integer holds (TTS, a C# program, numbers its saves from 1), and a save's name
#: (``TS_Save_2147483647.json``) far from any file system's name limit. Numbers above it in the
#: Saves folder are not TTS's; the next save follows the highest number up to it.
MAX_SAVE_NUMBER = 2**31 - 1


def current_system(platform: str = sys.platform) -> str:
    """``windows``, ``macos`` or ``linux`` (any other Unix is treated like Linux)."""
    if platform.startswith(("win", "cygwin", "msys")):
        return "windows"
    return "macos" if platform == "darwin" else "linux"


def default_data_dir(system: str, home: str, env: Mapping[str, str]) -> PurePath:
    """TTS's default data folder on ``system`` (KB technical info, FORMAT.md §1.1)."""
    if system == "windows":
        profile = PureWindowsPath(env.get("USERPROFILE") or home)
        return profile / "Documents" / "My Games" / "Tabletop Simulator"
    if system == "macos":
        return PurePosixPath(home) / "Library" / "Tabletop Simulator"
    return PurePosixPath(home) / ".local" / "share" / "Tabletop Simulator"


def saves_dir_choice(
    flag: str | None, env: Mapping[str, str], system: str, home: str
) -> tuple[PurePath, str]:
    """The Saves folder to use and where that choice came from (flag > env > OS default)."""
    if flag:
        return PurePath(flag), "--saves-dir"
    if env.get(SAVES_ENV):
        return PurePath(env[SAVES_ENV]), SAVES_ENV
    return default_data_dir(system, home, env) / "Saves", f"the {system} default"


def own_dir(saves_dir: Path) -> Path:
    """tts-builder's folder in the TTS data folder: installed assets and the install index."""
    return saves_dir.parent / OWN_DIR


def save_numbers(names: Iterable[str]) -> set[int]:
    """The N of every ``TS_Save_<N>.json`` or ``.png`` among file names."""
    return {int(m.group(1)) for name in names if (m := _SAVE_RE.fullmatch(name))}


def next_free_number(used: Iterable[int]) -> int:
    """One past the highest used save number up to :data:`MAX_SAVE_NUMBER` (so the new save
    lists as the newest), or the next after it that no entry holds; a BuildError if none is
    left."""
    taken = set(used)
    number = max((n for n in taken if n <= MAX_SAVE_NUMBER), default=0) + 1
    while number in taken:
        number += 1
    if number > MAX_SAVE_NUMBER:
        raise BuildError(
            f"no free save number: TS_Save_{MAX_SAVE_NUMBER}.json is taken (the highest "
            "number install uses); move that save to a subfolder of Saves"
        )
    return number


def slot_names(number: int) -> tuple[str, str]:
    """The save and thumbnail file names of slot ``number``."""
    return f"TS_Save_{number}.json", f"TS_Save_{number}.png"


@dataclass(frozen=True)
class Recorded:
    """What the index remembers of one install: its slot and the sha256 of what it wrote."""

    number: int
    save_sha256: str
    thumbnail_sha256: str


@dataclass(frozen=True)
class Slot:
    """The slot an install writes to; ``replaces`` if it overwrites its own earlier install."""

    number: int
    replaces: bool
    note: str = ""


def choose_slot(
    recorded: Recorded | None, used: set[int], present: tuple[str | None, str | None]
) -> Slot:
    """Pick the slot for an install.

    ``present`` holds the sha256 of the recorded slot's save and thumbnail as they are now
    (``None`` for a missing file). The recorded slot is reused only if each file is missing or
    still exactly what tts-builder wrote.
    """
    if recorded is None:
        return Slot(next_free_number(used), replaces=False)
    save_now, thumb_now = present
    ours = save_now in (None, recorded.save_sha256) and thumb_now in (
        None,
        recorded.thumbnail_sha256,
    )
    if ours:
        return Slot(recorded.number, replaces=save_now is not None)
    save_changed = save_now not in (None, recorded.save_sha256)
    name = slot_names(recorded.number)[0 if save_changed else 1]
    return Slot(
        next_free_number(used),
        replaces=False,
        note=f"kept {name}: it changed since tts-builder installed it (saved from TTS?)",
    )


#: The largest install index read (about 50,000 installs); a bigger one is treated as damaged.
INDEX_LIMIT = 8 * 2**20
_SHA256_RE = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Index:
    """The install index as read: its installs, and why (if so) the file could not be used
    whole; a damaged index, or entry, only costs a fresh slot, never a wrong overwrite."""

    installs: dict[str, Recorded]
    problem: str | None = None


def _recorded(entry: object) -> Recorded | None:
    """One index entry, or None if it is not what :func:`index_bytes` writes."""
    if not isinstance(entry, dict):
        return None
    number, save, thumbnail = (entry.get(k) for k in ("number", "save_sha256", "thumbnail_sha256"))
    if type(number) is not int or number < 1 or number > MAX_SAVE_NUMBER:
        return None
    if not all(isinstance(h, str) and _SHA256_RE.fullmatch(h) for h in (save, thumbnail)):
        return None
    return Recorded(number, save, thumbnail)


def decode_index(data: bytes | None) -> Index:
    """The install index from its bytes (pure): a missing or empty one is empty; what cannot be
    read (not UTF-8 JSON, nested too deep, not an index) is empty with the problem named; a
    damaged entry is dropped, the others kept."""
    if not data:
        return Index({})
    try:
        raw = json.loads(data.decode("utf-8"))
    except RecursionError:
        return Index({}, "its JSON is nested too deep to read")
    except ValueError:  # not UTF-8, not JSON, or an integer of thousands of digits
        return Index({}, "it is not readable JSON")
    installs = raw.get("installs") if isinstance(raw, dict) else None
    if not isinstance(installs, dict):
        return Index({}, "it is not an install index")
    kept = {key: rec for key, entry in installs.items() if (rec := _recorded(entry)) is not None}
    dropped = sorted(set(installs) - set(kept))
    if dropped:
        return Index(kept, f"its entr{'y' if len(dropped) == 1 else 'ies'} for "
                     f"{', '.join(repr(k[:60]) for k in dropped[:3])}"
                     f"{' ...' if len(dropped) > 3 else ''} are damaged")  # fmt: skip
    return Index(kept)


def parse_index(data: bytes | None) -> dict[str, Recorded]:
    """The installs an index's bytes record (see :func:`decode_index`)."""
    return decode_index(data).installs


def index_bytes(index: Mapping[str, Recorded]) -> bytes:
    """The install index as JSON bytes."""
    installs = {
        key: {
            "number": rec.number,
            "save_sha256": rec.save_sha256,
            "thumbnail_sha256": rec.thumbnail_sha256,
        }
        for key, rec in sorted(index.items())
    }
    text = json.dumps({"version": INDEX_VERSION, "installs": installs}, indent=2)
    return (text + "\n").encode("utf-8")


def install_key(game_id: str, variant: str | None) -> str:
    """The index key (and asset folder name) of a game, or of one variant of it."""
    return f"{game_id}.{variant}" if variant else game_id


def sha256(data: bytes) -> str:
    """Hex sha256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


# --- I/O -----------------------------------------------------------------------------------------


def find_saves_dir(flag: Path | None = None, env: Mapping[str, str] | None = None) -> Path:
    """The existing Saves folder (``--saves-dir``, then ``$TTS_SAVES_DIR``, then the OS default)."""
    import os

    env = os.environ if env is None else env
    chosen, source = saves_dir_choice(
        str(flag) if flag else None, env, current_system(), str(Path.home())
    )
    path = Path(chosen).expanduser()
    if not path.is_dir():
        hint = (
            "check the path"
            if source != f"the {current_system()} default"
            else "start TTS once so it creates it, or pass --saves-dir DIR / set "
            f"{SAVES_ENV} to your TTS Saves folder"
        )
        what = "is not a folder" if path.exists() else "does not exist"
        raise BuildError(f"TTS Saves folder {path} ({source}) {what}: {hint}")
    return path


def used_numbers(saves_dir: Path) -> set[int]:
    """Save numbers taken in ``saves_dir``: any entry with a save's name, a file or whatever
    else is in the way (a folder named ``TS_Save_5.json``, a broken link), so the next number is
    one no entry holds. Only the top level: subfolders are separate lists in TTS."""
    return save_numbers(p.name for p in saves_dir.iterdir())


def _open_regular(path: Path) -> tuple[int, os.stat_result]:
    """An open descriptor of ``path`` and its status, opened without blocking (a FIFO does not
    hang the open); FileNotFoundError if there is nothing, OSError as the system says."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        return fd, os.fstat(fd)
    except BaseException:
        os.close(fd)
        raise


def file_sha256(path: Path) -> str | None:
    """sha256 of a file's bytes (read a chunk at a time), ``None`` if nothing is there; for a
    folder, FIFO, link loop or file it may not read, a text no sha256 equals (so it is never
    taken for what tts-builder wrote)."""
    try:
        fd, info = _open_regular(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"unreadable: {err.strerror or err}"
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        return "not a file"
    with os.fdopen(fd, "rb") as handle:
        digest = hashlib.sha256()
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def read_index(saves_dir: Path) -> Index:
    """The install index next to ``saves_dir`` (empty if there is none; see
    :func:`decode_index`); a folder or anything but a file in its place is a BuildError, before
    an install writes anything."""
    path = own_dir(saves_dir) / INDEX_FILE
    try:
        fd, info = _open_regular(path)
    except FileNotFoundError:
        return Index({})
    except OSError as err:
        raise BuildError(
            f"{path}: cannot read tts-builder's install index: {err.strerror or err}"
        ) from None
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise BuildError(
            f"{path}: not a file; tts-builder keeps its install index there: move it "
            "away, then install again"
        )
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > INDEX_LIMIT:
            return Index({}, f"it is over {INDEX_LIMIT // 2**20} MB")
        data = handle.read(INDEX_LIMIT + 1)
    if len(data) > INDEX_LIMIT:  # it grew while read
        return Index({}, f"it is over {INDEX_LIMIT // 2**20} MB")
    return decode_index(data)
