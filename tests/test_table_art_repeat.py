"""check_art (tts_builder.table.art) walks the image elements inside a layout's ``repeat``
elements too: each copy's ``src`` with the copy's fields names an art file of the game folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from tts_builder.errors import FieldError
from tts_builder.table import check_art

#: The bytes of a 1x1 PNG: an art file the check reads as one.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c63f8cfc0f01f00050001ff89993d1d0000000049454e44ae426082"
)


def _game(root: Path, face: list[dict], files: list[str], **table: object) -> dict:
    """A definition of one layout component ``tile`` with ``face``; ``files`` exist."""
    for rel in files:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(PNG)
    return {"components": {"tile": {"size": [100, 100], "face": face}}, "table": table}


def _repeat(elements: list[dict], **keys: object) -> dict:
    return {"type": "repeat", "step": [10, 0], "elements": elements, **keys}


def _image(src: str) -> dict:
    return {"type": "image", "src": src, "box": [0, 0, 10, 10]}


def test_an_image_in_a_counted_repeat_is_checked_for_every_copy(tmp_path: Path) -> None:
    face = [_repeat([_image("art/bed-{i}.png")], count=3)]
    check_art(_game(tmp_path, face, ["art/bed-0.png", "art/bed-1.png", "art/bed-2.png"]), tmp_path)
    data = _game(tmp_path / "short", face, ["art/bed-0.png", "art/bed-1.png"])
    with pytest.raises(FieldError) as err:
        check_art(data, tmp_path / "short")
    assert err.value.field == "components.tile.face[0].elements[0].src"
    assert "art file not found" in str(err.value) and "bed-2.png" in str(err.value)


def test_a_repeat_over_a_roster_entrys_list_checks_each_item(tmp_path: Path) -> None:
    """A deck's roster entries are the fields a face is drawn with; a nested repeat gets the
    item's fields, and a repeat outside the walk's reach (an unknown list) is not drawn."""
    inner = _repeat([_image("{pic}")], over="pics")
    face = [{"type": "text", "text": "x", "box": [0, 0, 9, 9]}, _repeat([inner], over="rows")]
    rows = [
        {"pics": [{"pic": "art/a.png"}]},
        {"pics": [{"pic": "art/b.png"}, {"pic": "art/c.png"}]},
    ]
    deck = {"id": "beds", "kind": "deck", "component": "tile", "roster": "beds", "at": [0, 0]}
    data = _game(tmp_path, face, ["art/a.png", "art/b.png"], pieces=[deck])
    data["rosters"] = {"beds": [{"rows": rows[:1]}, {"rows": rows}]}
    with pytest.raises(FieldError) as err:
        check_art(data, tmp_path)
    assert err.value.field == "components.tile.face[1].elements[0].elements[0].src"
    assert "c.png" in str(err.value)
    (tmp_path / "art/c.png").write_bytes(PNG)
    check_art(data, tmp_path)


def test_an_image_repeated_outside_the_game_folder_is_refused(tmp_path: Path) -> None:
    data = _game(tmp_path, [_repeat([_image("../{item}")], over="names")], [])
    data["rosters"] = {"n": [{"names": ["x.png"]}]}
    data["table"] = {"pieces": [{"id": "n", "kind": "deck", "component": "tile", "roster": "n"}]}
    with pytest.raises(FieldError, match="inside the game folder") as err:
        check_art(data, tmp_path)
    assert err.value.field == "components.tile.face[0].elements[0].src"


def test_an_image_outside_a_repeat_fails_at_its_own_element(tmp_path: Path) -> None:
    data = _game(tmp_path, [_image("art/bed-0.png")], [])
    with pytest.raises(FieldError) as err:
        check_art(data, tmp_path)
    assert err.value.field == "components.tile.face[0].src"
