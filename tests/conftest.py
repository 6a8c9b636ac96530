"""Shared fixtures: one render cache per test session, so each test builds cheaply; the ship
commands' --out folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cli import cli
from tts_builder.cli_ship import register
from tts_builder.writer import DirCache

SESSION_CACHE: dict[str, bytes] = {}


def build(game: str = "arche-noah", **options: object) -> GameBuild:
    """Build a game in memory, sharing rendered images across the whole test session."""
    return build_game(game, BuildOptions(**options), SESSION_CACHE)  # type: ignore[arg-type]


def seeded(out: Path) -> Path:
    """``out``, an --out folder whose render cache (``out/.cache``) holds the renders drawn so
    far this session, so a CLI build there redraws only what no other test drew. Clean CLI
    builds stay tested: test_cli's byte-identical test, test_package's wheel test and
    test_new_game's first build start from an empty cache."""
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
