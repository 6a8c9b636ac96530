"""Watch mode: poll a game's sources, rebuild on every change, re-verify, hand the build on.

The definition folder (``game.yaml`` and art) and the game's Lua templates are polled: a file
counts as changed when the sha256 of its bytes changes (every file read on every poll: a
game's sources are small). Rebuilds share one build cache (and its in-process memo), so only
images whose inputs changed re-render.
When the Global script changed, its rule functions are cross-checked against rules_ref again
with a small number of examples. Errors are reported and the watch goes on.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BuildError

IGNORED_SUFFIXES = (".swp", ".swx", ".tmp", "~")


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
    """The definition folder and the Lua template folders of a game (and of its engine)."""
    from ..definition import engine_of, find_game, read_definition
    from ..lua.templates import TEMPLATES_DIR

    engine = engine_of(read_definition(game_id, assets_root), game_id)
    return [
        find_game(game_id, assets_root).folder,
        TEMPLATES_DIR / engine,
        TEMPLATES_DIR / "common",
    ]


def snapshot(roots: Iterable[Path]) -> dict[str, Stamp]:
    """Stamps of every file under ``roots``, each file read and hashed."""
    stamps: dict[str, Stamp] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if is_ignored(path.name) or not path.is_file():
                continue
            try:
                stat = path.stat()
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:  # deleted or replaced between listing and reading
                continue
            stamps[str(path)] = Stamp(stat.st_mtime_ns, stat.st_size, digest)
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
    ) -> None:
        self.game_id = game_id
        self.options = options
        self.cache = cache
        self.assets_root = assets_root
        self.examples = examples
        self.on_build = on_build
        self.report = report
        self.roots = roots or watched_roots(game_id, assets_root)
        self.stamps = snapshot(self.roots)
        self.verified_script: str | None = None
        self.rounds: list[Round] = []

    def rebuild(self, changed: list[str]) -> Round:
        """Build, lint, check, verify (if the script changed) and hand the build on."""
        from ..build import build_game, check_build, lint_build

        result = Round(changed)
        self.rounds.append(result)
        started = time.perf_counter()
        try:
            build = build_game(self.game_id, self.options, self.cache, self.assets_root)
            lint_build(build, self.cache)
            problems = [f for _name, f in check_build(build)]
            if problems:
                raise BuildError(
                    f"{self.game_id}: the save fails {problems[0].path}: {problems[0].message}"
                )
        except BuildError as err:
            result.error = str(err)
            self.report(f"error: {err}")
            return result
        result.build = build
        self.report(
            f"rebuilt {self.game_id}: {build.rendered} images rendered "
            f"({time.perf_counter() - started:.2f}s)"
        )
        if self.examples > 0 and build.global_script != self.verified_script:
            result.mismatches = verify_scripts(build, self.examples)
            for line in result.mismatches:
                self.report(f"verify: {line}")
            if result.mismatches:
                self.report("not handed on: the Lua disagrees with rules_ref")
                return result
            self.verified_script = build.global_script
            self.report(f"verify: rule functions agree ({self.examples} examples each)")
        try:
            self.on_build(build)
        except BuildError as err:
            result.error = str(err)
            self.report(f"error: {err}")
        return result

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
        """Build once, then poll every ``interval`` s (``rounds`` polls, or until Ctrl-C)."""
        if initial:
            self.rebuild([])
        count = 0
        try:
            while rounds is None or count < rounds:
                count += 1
                wait(interval)
                found = self.poll()
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
