"""A picture a game draws whose size is known before drawing (``Picture.pixels``) is at most
``MAX_PICTURE_PX`` a side, refused at load at the field that sizes it (tts_builder.table)."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from tts_builder.errors import FieldError
from tts_builder.plugin import Picture, TableHooks
from tts_builder.table import check_manifest
from tts_builder.table.schema import MAX_PICTURE_PX


def _never() -> Image.Image:
    raise AssertionError("the check draws nothing")


def definition() -> dict[str, Any]:
    plain = [{"type": "rect", "box": [0, 0, 32, 32], "fill": "#224466"}]
    return {
        "players": {"min": 2, "max": 2},
        "components": {"plain": {"size": [32, 32], "face": plain}},
        "table": {
            "type": "Table_RPG",
            "sky": "Sky_Field",
            "seats": ["White", "Red"],
            "pieces": [
                {"id": "map", "kind": "board", "picture": "map", "width": 20, "at": [0, 0]},
                {"id": "tile", "kind": "tile", "component": "plain", "back": "map", "width": 2,
                 "at": [5, 5]},
            ],
        },
    }  # fmt: skip


def hooks(pixels: int | None, sized_by: str = "") -> TableHooks:
    return TableHooks(pictures={"map": Picture({}, _never, pixels=pixels, sized_by=sized_by)})


@pytest.mark.parametrize("pixels", [None, 16, MAX_PICTURE_PX])
def test_a_picture_up_to_the_limit_loads(pixels: int | None) -> None:
    check_manifest(definition(), hooks=hooks(pixels))


def test_a_larger_one_is_refused_at_the_field_that_sizes_it() -> None:
    with pytest.raises(FieldError) as err:
        check_manifest(definition(), hooks=hooks(MAX_PICTURE_PX + 1, "map.pixels_per_unit"))
    assert err.value.field == "map.pixels_per_unit"
    assert str(err.value).endswith(
        f"the map picture would be {MAX_PICTURE_PX + 1} px a side; at most 4096 load in TTS"
    )


def test_else_at_the_piece_that_shows_it_its_face_or_its_back() -> None:
    with pytest.raises(FieldError) as err:
        check_manifest(definition(), hooks=hooks(5000))
    assert err.value.field == "table.pieces[0].picture"
    data = definition()
    data["table"]["pieces"][0] = {"id": "map", "kind": "board", "component": "plain",
                                  "width": 20, "at": [0, 0]}  # fmt: skip
    with pytest.raises(FieldError) as err:
        check_manifest(data, hooks=hooks(5000))
    assert err.value.field == "table.pieces[1].back"
