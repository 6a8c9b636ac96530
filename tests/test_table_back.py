"""A manifest tile or board printed on both sides: ``back`` names the picture (the game's, or
a layout component's face) of its other side, TTS's ImageSecondaryURL; and a game's picture
written under its own file name (``Picture.file``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.errors import FieldError
from tts_builder.plugin import Picture, TableHooks
from tts_builder.save import GuidAllocator
from tts_builder.table import Art, check_manifest, lay_table

HOOKS = TableHooks(
    pictures={
        "front": Picture({"front": 1}, lambda: Image.new("RGB", (128, 64), "#336699"), width=8.0),
        "reverse": Picture({"reverse": 1}, lambda: Image.new("RGB", (128, 64), "#993366")),
        "dots": Picture(
            {"dots": 1},
            lambda: Image.new("RGB", (96, 96), "#ffffff"),
            faces=("1", "2", "3", "4", "5", "6"),
        ),
    }
)


def definition(**board: Any) -> dict[str, Any]:
    plain = [{"type": "rect", "box": [0, 0, 60, 60], "fill": "#556b2f"}]
    return {
        "players": {"min": 2, "max": 2},
        "components": {"plain": {"size": [60, 60], "face": plain}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "pieces": [
                {"id": "board", "kind": "board", "picture": "front", "at": [0, 0], **board},
                {
                    "id": "tile",
                    "kind": "tile",
                    "component": "plain",
                    "back": "plain",
                    "width": 2.0,
                    "at": [5, 0],
                },
                {"id": "flat", "kind": "tile", "component": "plain", "width": 2.0, "at": [9, 0]},
            ],
        },
    }


def laid(tmp_path: Path, **board: Any) -> tuple[Any, ImageSet]:
    images = ImageSet("back", BuildOptions(out_dir=tmp_path), {})
    data = definition(**board)
    check_manifest(data, hooks=HOOKS)
    art = Art(tmp_path, data["components"], images, HOOKS.pictures)
    return lay_table(data, art, GuidAllocator("back"), hooks=HOOKS), images


def _image(table: Any, piece: str) -> dict[str, Any]:
    (guid,) = table.guids[piece]
    return next(o for o in table.objects if o["GUID"] == guid)["CustomImage"]


def test_a_board_shows_the_games_picture_on_its_back(tmp_path: Path) -> None:
    table, images = laid(tmp_path, back="reverse")
    image = _image(table, "board")
    assert image["ImageURL"].endswith("/images/front.png")
    assert image["ImageSecondaryURL"].endswith("/images/reverse.png")
    assert "images/reverse.png" in images.files
    assert ("Board back", "reverse", "picture", {}) in table.faces  # the preview shows it


def test_a_tile_shows_a_components_face_on_its_back_and_a_plain_tile_none(tmp_path: Path) -> None:
    table, _images = laid(tmp_path)
    assert _image(table, "tile")["ImageSecondaryURL"].endswith("/images/plain-face.png")
    assert _image(table, "flat")["ImageSecondaryURL"] == ""
    assert _image(table, "board")["ImageSecondaryURL"] == ""


@pytest.mark.parametrize(
    ("back", "message"),
    [
        ("nowhere", "unknown picture or layout component 'nowhere'"),
        ("dots", "unknown picture or layout component 'dots'"),
    ],
)
def test_an_unknown_back_or_a_die_texture_is_refused(back: str, message: str) -> None:
    with pytest.raises(FieldError, match=message) as caught:
        check_manifest(definition(back=back), hooks=HOOKS)
    assert caught.value.field == "table.pieces[0].back"


def test_only_tiles_and_boards_have_a_back() -> None:
    data = definition()
    data["table"]["pieces"].append(
        {"id": "pawn", "kind": "token", "component": "plain", "back": "plain", "at": [3, 3]}
    )
    with pytest.raises(FieldError, match="a token has no 'back'"):
        check_manifest(data, hooks=HOOKS)


def test_a_picture_may_be_written_under_its_own_file_name(tmp_path: Path) -> None:
    """One manifest name for a picture that differs by variant: ``Picture.file``."""
    hooks = TableHooks(
        pictures={
            **HOOKS.pictures,
            "front": Picture(
                {"front": 2},
                lambda: Image.new("RGB", (128, 64), "#000000"),
                width=8.0,
                file="front-night",
            ),
        }
    )
    images = ImageSet("back", BuildOptions(out_dir=tmp_path), {})
    data = definition()
    table = lay_table(
        data,
        Art(tmp_path, data["components"], images, hooks.pictures),
        GuidAllocator("back"),
        hooks=hooks,
    )
    assert _image(table, "board")["ImageURL"].endswith("/images/front-night.png")
    assert "images/front-night.png" in images.files and "images/front.png" not in images.files
