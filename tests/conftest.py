"""Shared fixtures: one render cache per test session, filled by one clean CLI build of every
bundled game and variant, so each test builds cheaply; the ship commands' --out folder."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path

import pytest

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import cli
from tts_builder.cli_ship import register
from tts_builder.writer import DirCache

#: Cache entries that belong to one --out folder or one build process, not to renders.
NOT_RENDERS = ("build-manifest:", "jinja-bytecode:")


class SessionCache(MutableMapping[str, bytes]):
    """The renders drawn this session, by cache key. The first use builds every bundled game
    and variant with the CLI into an empty folder (:func:`clean_build`), whose renders it then
    holds: later builds draw only what that build did not."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def _ready(self) -> dict[str, bytes]:
        clean_build()
        return self.entries

    def __getitem__(self, key: str) -> bytes:
        return self._ready()[key]

    def __setitem__(self, key: str, value: bytes) -> None:
        self._ready()[key] = value

    def __delitem__(self, key: str) -> None:
        del self._ready()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ready())

    def __len__(self) -> int:
        return len(self._ready())

    def __contains__(self, key: object) -> bool:
        return key in self._ready()


SESSION_CACHE = SessionCache()
_CLEAN: list[Path] = []


class _RecordingCache(DirCache):
    """A build's cache folder that also hands each render it stores to the session cache."""

    def __setitem__(self, key: str, value: bytes) -> None:
        super().__setitem__(key, value)
        if not key.startswith(NOT_RENDERS):
            SESSION_CACHE.entries[key] = value


def clean_build() -> Path:
    """The --out folder of ``tts-builder -q build`` run once per session in an empty folder
    (no names: every bundled game and variant), its cache empty before: every image drawn
    afresh. Its renders fill :data:`SESSION_CACHE`. Read it only."""
    if not _CLEAN:
        from tts_builder.cli import EXIT_OK, run

        folder = Path(tempfile.mkdtemp(prefix="tts-clean-build-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        _CLEAN.append(folder / "dist")
        here = Path.cwd()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("tts_builder.writer.DirCache", _RecordingCache)
            os.chdir(folder)  # an empty current folder: every bundled game
            try:
                code = run(["-q", "build", "--out", str(folder / "dist")])
            finally:
                os.chdir(here)
        assert code == EXIT_OK, "the session's clean build failed"
    return _CLEAN[0]


#: Fixtures whose tests share the session's renders without naming conftest.
SHARING_FIXTURES = {"arche_noah_build", "cli_out"}


def _shares_renders(item: pytest.Item, texts: dict[Path, str]) -> bool:
    """Whether ``item`` may use :data:`SESSION_CACHE`: its file imports from conftest or it
    asks for a fixture built from it."""
    path = Path(str(item.path))
    if path not in texts:
        texts[path] = path.read_text(encoding="utf-8") if path.is_file() else ""
    fixtures = set(getattr(item, "fixturenames", ()))
    return "from conftest import" in texts[path] or bool(fixtures & SHARING_FIXTURES)


@pytest.fixture(scope="session", autouse=True)
def _clean_build_first(request: pytest.FixtureRequest) -> None:
    """The clean build before the first test that may share its renders, so it never runs
    inside a test's patches (a test counting what is drawn, say)."""
    texts: dict[Path, str] = {}
    if any(_shares_renders(item, texts) for item in request.session.items):
        clean_build()


def build(game: str = "arche-noah", **options: object) -> GameBuild:
    """Build a game in memory, sharing rendered images across the whole test session."""
    return build_game(game, BuildOptions(**options), SESSION_CACHE)  # type: ignore[arg-type]


def seeded(out: Path) -> Path:
    """``out``, an --out folder whose render cache (``out/.cache``) holds the renders drawn so
    far this session, so a CLI build there redraws only what no other test drew. Clean CLI
    builds stay tested: :func:`clean_build` (compared in test_cli with builds in memory),
    test_package's wheel test (my-cards' thumbnail) and test_new_game's first build start
    from an empty cache."""
    DirCache(out / ".cache").update(SESSION_CACHE)
    return out


@pytest.fixture(scope="session")
def arche_noah_build() -> GameBuild:
    """The bundled Arche Noah, built once per session."""
    return build("arche-noah")


@pytest.fixture(scope="module")
def cli_out(tmp_path_factory: pytest.TempPathFactory, built: GameBuild) -> Path:
    """An --out folder for the ship commands whose render cache already holds the renders of
    the requesting module's ``built`` fixture (each ship test module defines its own)."""
    out = seeded(tmp_path_factory.mktemp("cli-dist"))
    register(cli)
    return out
