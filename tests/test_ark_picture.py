"""The Ark & Noah table picture (``tts-builder table``), at load and after Setup for 2-4 players:
sampled at the script's positions it shows the printed cells they mean (the Ark's squares, pitch
fields and grid lines, the action spaces, the scoring track's 0)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import build

from tts_builder.games.ark_and_noah.action_board import COLUMNS as ACTION_BOARD
from tts_builder.games.ark_and_noah.ark import grid_plan
from tts_builder.games.ark_and_noah.boards import action_spaces
from tts_builder.games.ark_and_noah.rules import rules_config
from tts_builder.picture import after_setup, images_from_files, table_picture, table_view
from tts_builder.table.printed import track_cells


@pytest.fixture(scope="module")
def standard() -> Any:
    return build("ark-and-noah")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def _near(pixel: tuple[int, ...], rgb: tuple[int, int, int], tolerance: int = 45) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel[:3], rgb, strict=True)) <= tolerance


@pytest.mark.parametrize("n", [None, 2, 3, 4])
def test_the_picture_shows_the_printed_cells_at_the_script_positions(
    standard: Any, n: int | None
) -> None:
    data = standard.definition.data
    config = rules_config(data)
    save = standard.save if n is None else after_setup(standard.save, n, images=standard.files)
    plan = grid_plan(data, "ark", n or data["players"]["max"])
    spaces = action_spaces(data, config)
    # no snap dots over the printed cells, nor the score markers' (≥16 px) pawn markers
    pieces = [o for o in save["ObjectStates"] if "Score" not in o.get("Tags", [])]
    save = {**save, "SnapPoints": [], "ObjectStates": pieces}
    picture = table_picture(save, images_from_files(standard.files), [])
    view = table_view(save, [])

    def at(x: float, z: float) -> tuple[int, ...]:
        px, py = view.px(x, z)
        return picture.getpixel((round(px), round(py)))

    ark = data["boards"]["ark_colors"]
    wrong = [name for name, (x, z) in plan.cells.items()
             if not _near(at(x + 0.45, z + 0.45), _rgb(ark["square"]))]  # fmt: skip
    wrong += [name for name, (x, z) in plan.hull.items()
              if not _near(at(x, z), _rgb(ark["pitch"]))]  # fmt: skip
    assert wrong == []
    sides = ACTION_BOARD["sides"]
    space = _rgb(next(e["fill"] for e in sides["standard"] if e["at"] == "current"))
    for entry in spaces:
        assert _near(at(*entry["current"]), space), entry["id"]
    # the scoring track's 0 (a tinted cell, read from Red's seat at the bottom left)
    x, z = track_cells(data, "score-track")[0]
    track = next(p["track"] for p in data["table"]["pieces"] if p["id"] == "score-track")
    # (beside the rainbow round the 0)
    assert _near(at(x + 0.3, z), _rgb(track["marked"]["fill"]))
    x, z = track_cells(data, "score-track")[99]
    assert _near(at(x + 0.3, z), _rgb(track["fill"]))
