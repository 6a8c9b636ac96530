"""Watch mode: poll a game's sources, rebuild on every change, re-verify, hand the build on.

The definition folder (``game.yaml`` and art) and the game's Lua templates are polled: a file
counts as changed when the sha256 of its bytes changes (every file read on every poll: a
game's sources are small). Rebuilds share one build cache (and its in-process memo), so only
images whose inputs changed re-render.
When the Global script changed, its rule functions are cross-checked against rules_ref again
with a small number of examples. Whatever fails in a round (the definition, the disk, the
project's own code) is one line, as the command line would print it, and the watch goes on.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ENVIRONMENT_ERRORS, BuildError

IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", "~")
#: Read and hashed this many bytes at a time (a huge file costs time, not memory).
HASH_CHUNK = 1 << 20
#: A file bigger than this is not read on every poll (its size and modification time tell):
#: bigger than any art file or definition a build reads, and about 0.3 s of hashing a poll.
HASH_LIMIT = 128 * 2**20


def failure_line(err: Exception, debug: bool = False) -> str:
    """What the command line would print for ``err``: ``error: ...`` for bad input or a bad
    environment, ``internal error: ...`` for the project's own bug (its traceback too with
    ``debug``)."""
    if isinstance(err, BuildError):
        return f"error: {err}"
    if isinstance(err, OSError) and err.errno in ENVIRONMENT_ERRORS:
        where = f"{err.filename}: " if err.filename else ""
        return f"error: {where}{err.strerror or err}"
    line = f"internal error: {type(err).__name__}: {err}"
    if debug:
        trace = "".join(traceback.format_exception(err)).rstrip()
        return f"{line}\n{trace}"
    return line


@dataclass(frozen=True)
class Stamp:
    """What is known of one watched file."""

    mtime_ns: int
    size: int
    digest: str


def is_ignored(name: str) -> bool:
    """Editor backups, swap files and hidden files never trigger a rebuild."""
    return name.startswith((".", "#")) or name.endswith(IGNORED_SUFFIXES)


def changes(old: Mapping[str, Stamp], new: Mapping[str, Stamp]) -> list[str]:
    """Paths added, removed or with different content between two snapshots."""
    paths = set(old) | set(new)
    return sorted(
        p for p in paths if p not in old or p not in new or old[p].digest != new[p].digest
    )


def watched_roots(game_id: str, assets_root: Path | None = None) -> list[Path]:
    """The definition folder and the Lua template folders of a game (and of its engine); all
    the templates while the definition does not name an engine (it fails to parse)."""
    from ..definition import engine_of, find_game, read_definition
    from ..lua.templates import TEMPLATES_DIR

    folder = find_game(game_id, assets_root).folder
    try:
        engine = engine_of(read_definition(game_id, assets_root), game_id)
    except BuildError:  # the first build reports it; the fix is seen wherever it is made
        return [folder, TEMPLATES_DIR]
    return [folder, TEMPLATES_DIR / engine, TEMPLATES_DIR / "common"]


def watched_files(root: Path) -> list[Path]:
    """The regular files under ``root`` a change of which counts, sorted: no ignored name, no
    file in a hidden folder, links not followed into folders (walked without recursion, so no
    depth of folders is too deep)."""
    found: list[Path] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:  # gone, unreadable or not a folder any more: nothing to watch there
            continue
        for entry in entries:
            if is_ignored(entry.name):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                elif entry.is_file():
                    found.append(Path(entry.path))
            except OSError:
                continue
    return sorted(found)


def file_digest(path: Path) -> str:
    """sha256 of a regular file's bytes, read a chunk at a time (opened without blocking, so a
    FIFO put in its place is an OSError, not a hang)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # before fdopen, which refuses a folder's
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    with os.fdopen(fd, "rb") as handle:
        digest = hashlib.sha256()
        while chunk := handle.read(HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def snapshot(roots: Iterable[Path]) -> dict[str, Stamp]:
    """Stamps of every watched file under ``roots``, each file read and hashed (up to
    :data:`HASH_LIMIT` bytes)."""
    stamps: dict[str, Stamp] = {}
    for root in roots:
        for path in watched_files(root):
            try:
                info = path.stat()
                if info.st_size > HASH_LIMIT:
                    digest = f"unread:{info.st_size}:{info.st_mtime_ns}"
                else:
                    digest = file_digest(path)
            except OSError:  # deleted or replaced between listing and reading
                continue
            stamps[str(path)] = Stamp(info.st_mtime_ns, info.st_size, digest)
    return stamps


def verify_scripts(build: Any, examples: int, seed: int = 0) -> list[str]:
    """Cross-check the build's Lua rule functions against rules_ref; mismatch descriptions."""
    from ..games import game_module
    from ..strategies import strategies_for
    from ..verify import Engines, check_function

    config = game_module(build.engine).rules_config(build.definition.data, build.variant)
    engines = Engines(build.engine, config, build.global_script)
    generators = strategies_for(build.engine, config, build.definition.players)
    found = []
    for name in engines.names():
        outcome = check_function(engines, name, generators[name], examples, seed)
        if outcome.mismatch is not None:
            found.append(outcome.mismatch.describe())
    return found


@dataclass
class Round:
    """The outcome of one rebuild."""

    changed: list[str]
    build: Any | None = None
    error: str | None = None
    mismatches: list[str] | None = None  # None: not verified this round

    @property
    def ok(self) -> bool:
        return self.build is not None and not self.error and not self.mismatches


class Watcher:
    """Rebuilds one game whenever its sources change."""

    def __init__(
        self,
        game_id: str,
        options: Any,
        cache: MutableMapping[str, bytes],
        *,
        assets_root: Path | None = None,
        examples: int = 100,
        on_build: Callable[[Any], None] = lambda build: None,
        report: Callable[[str], None] = print,
        roots: list[Path] | None = None,
        debug: bool = False,
        show_error: Callable[[str], None] | None = None,
    ) -> None:
        """``report`` takes progress lines, ``show_error`` (default: ``report``) what failed."""
        self.game_id = game_id
        self.options = options
        self.cache = cache
        self.assets_root = assets_root
        self.examples = examples
        self.on_build = on_build
        self.report = report
        self.debug = debug
        self.show_error = show_error or report
        self.roots = roots or watched_roots(game_id, assets_root)
        self.stamps = snapshot(self.roots)
        self.verified_script: str | None = None
        self.rounds: list[Round] = []

    def rebuild(self, changed: list[str]) -> Round:
        """Build, lint, check, verify (if the script changed) and hand the build on; whatever
        fails is reported on one line (:func:`failure_line`) and kept in the round."""
        result = Round(changed)
        self.rounds.append(result)
        try:
            self._rebuild(result)
        except Exception as err:  # noqa: BLE001 - any failure ends the round, not the watch
            result.error = str(err) or type(err).__name__
            self.show_error(failure_line(err, self.debug))
        return result

    def _rebuild(self, result: Round) -> None:
        from ..build import build_game, check_build, lint_build

        self._refuse_special_definition()
        started = time.perf_counter()
        build = build_game(self.game_id, self.options, self.cache, self.assets_root)
        lint_build(build, self.cache)
        problems = [f for _name, f in check_build(build)]
        if problems:
            raise BuildError(
                f"{self.game_id}: the save fails {problems[0].path}: {problems[0].message}"
            )
        result.build = build
        self.report(
            f"rebuilt {self.game_id}: {build.rendered} images rendered "
            f"({time.perf_counter() - started:.2f}s)"
        )
        if self.examples > 0 and build.global_script != self.verified_script:
            result.mismatches = verify_scripts(build, self.examples)
            for line in result.mismatches:
                self.show_error(f"verify: {line}")
            if result.mismatches:
                self.show_error("not handed on: the Lua disagrees with rules_ref")
                return
            self.verified_script = build.global_script
            self.report(f"verify: rule functions agree ({self.examples} examples each)")
        self.on_build(build)

    def _refuse_special_definition(self) -> None:
        """A FIFO or device where game.yaml should be, or a link loop, is refused unread:
        reading a FIFO blocks until something writes to it (the definition reader opens it as
        a file), and the game's folder lookup fails on a loop with a RuntimeError."""
        from ..definition import DEFINITION_FILE, find_game

        path = find_game(self.game_id, self.assets_root).folder / DEFINITION_FILE
        try:
            mode = path.stat().st_mode
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise BuildError(f"{path}: a symbolic link loop: save game.yaml there") from None
            return  # missing...: the build says so
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise BuildError(f"{path}: not a file (a FIFO, socket or device): save game.yaml there")

    def poll(self, settle: float = 0.05, sleep: Callable[[float], None] = time.sleep) -> list[str]:
        """Changed paths since the last poll, once the files have stopped changing."""
        new = snapshot(self.roots)
        found = changes(self.stamps, new)
        for _ in range(20):  # bounded: a file still being written settles within a second
            if not found:
                break
            sleep(settle)
            again = snapshot(self.roots)
            if not changes(new, again):
                break
            found = changes(self.stamps, again)
            new = again
        self.stamps = new
        return found

    def run(
        self,
        interval: float = 0.5,
        rounds: int | None = None,
        wait: Callable[[float], None] = time.sleep,
        initial: bool = True,
    ) -> None:
        """Build once, then poll every ``interval`` s (``rounds`` polls, or until Ctrl-C).

        A poll that fails (the folder unreadable...) is reported once until it works again."""
        if initial:
            self.rebuild([])
        count = 0
        failed: str | None = None
        try:
            while rounds is None or count < rounds:
                count += 1
                wait(interval)
                try:
                    found = self.poll()
                except Exception as err:  # noqa: BLE001 - reported; the next poll tries again
                    line = failure_line(err, self.debug)
                    if line != failed:
                        self.show_error(line)
                    failed = line
                    continue
                failed = None
                if found:
                    self.report(
                        f"changed: {', '.join(_short(p) for p in found[:3])}"
                        f"{' ...' if len(found) > 3 else ''}"
                    )
                    self.rebuild(found)
        except KeyboardInterrupt:
            self.report("stopped watching")


def _short(path: str) -> str:
    return Path(path).name
