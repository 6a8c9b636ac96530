"""The one place that writes build output: whole folders swapped in atomically.

A game's folder is written in full next to its destination, then renamed into place, so a
reader sees either the old build or the new one, never a mixture; a failed build leaves the
old folder untouched (what a killed build leaves beside it, :func:`tts_builder.cache.sweep`
removes). Single files (e.g. a save installed into TTS) use :func:`write_file`.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

#: Numbers the temporary files of this process (with its pid: unique among live writers).
_TEMP_SERIAL = itertools.count()


def _temp_file(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` for this process only (created exclusively, mode 0600, as
    ``tempfile.mkstemp`` makes them, without drawing a random name for each); (fd, its path)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = f"{path.parent}{os.sep}.{path.name}.{os.getpid()}-{next(_TEMP_SERIAL)}.tmp"
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:  # left by a dead process of the same pid: take the next
            continue


def write_file(path: Path, data: bytes, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, then rename).

    ``durable`` flushes the bytes to disk before the rename; a cache whose entries check
    themselves (:class:`tts_builder.cache.Store`) may skip that, a torn entry reading as a
    miss."""
    try:
        fd, tmp = _temp_file(path)
    except FileNotFoundError:  # the folder first (most writes find it there)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = _temp_file(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _same_file(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a plain file (not a link) holding exactly ``data``."""
    try:
        if path.is_symlink() or not path.is_file():
            return False
        return path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def write_tree(dest: Path, files: Mapping[str, bytes]) -> None:
    """Replace the folder ``dest`` with exactly ``files`` (relative path -> bytes), atomically.

    The new folder is staged whole; a file whose bytes ``dest`` already holds is hard-linked
    from there instead of written again (copied where links are refused), so a rebuild that
    changed one image writes that image only, and the swap stays all or nothing."""
    import tempfile  # here, not at the top: a no-op build reads the cache without it

    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.new-", dir=dest.parent))
    made = {staging}
    try:
        for rel, data in sorted(files.items()):
            target = staging / rel
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            old = dest / rel
            if _same_file(old, data):
                try:
                    os.link(old, target)
                    continue
                except OSError:
                    pass  # no hard links here: write the bytes
            target.write_bytes(data)
        if dest.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent))
            retired.rmdir()
            os.replace(dest, retired)
            os.replace(staging, dest)
            remove(retired)
        else:
            os.replace(staging, dest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def tree_matches(dest: Path, files: Mapping[str, bytes]) -> bool:
    """Whether ``dest`` already holds exactly ``files`` (lets a no-op build skip writing)."""
    if not dest.is_dir():
        return False
    present = {p.relative_to(dest).as_posix(): p for p in dest.rglob("*") if p.is_file()}
    if set(present) != set(files):
        return False
    if any(present[rel].stat().st_size != len(data) for rel, data in files.items()):
        return False  # a file of another size (most changed pictures): nothing read
    return all(present[rel].read_bytes() == data for rel, data in files.items())


def remove(path: Path) -> None:
    """Remove whatever is at ``path`` (a file, a link, a folder of any depth), if it can."""
    try:
        if path.is_symlink() or not path.is_dir():
            path.unlink(missing_ok=True)
            return
    except OSError:
        return
    try:
        shutil.rmtree(path)
    except (OSError, RecursionError):  # too deep for rmtree: taken apart from the bottom
        _remove_deep(path)


def _remove_deep(path: Path) -> None:
    with contextlib.suppress(OSError):
        stack = [path]
        while stack:
            top = stack[-1]
            children = list(os.scandir(top))
            folders = [Path(c.path) for c in children if c.is_dir(follow_symlinks=False)]
            for child in children:
                if not child.is_dir(follow_symlinks=False):
                    os.unlink(child.path)
            if folders:
                stack.extend(folders)
            else:
                os.rmdir(stack.pop())
