"""Shared fixtures: one render cache per test session, so each test builds cheaply."""

from __future__ import annotations

import pytest

from tts_builder.build import BuildOptions, GameBuild, build_game

SESSION_CACHE: dict[str, bytes] = {}


def build(game: str = "arche-noah", **options: object) -> GameBuild:
    """Build a game in memory, sharing rendered images across the whole test session."""
    return build_game(game, BuildOptions(**options), SESSION_CACHE)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def arche_noah_build() -> GameBuild:
    """The bundled Arche Noah, built once per session."""
    return build("arche-noah")
