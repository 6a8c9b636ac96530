"""What the flood race keeps between builds of one process (issue 12) gives what working it out
afresh gives, and callers cannot change it for the next build."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from PIL import Image

from tts_builder.definition import load_definition
from tts_builder.gamekit import pictures
from tts_builder.games.arche_noah_flood import table_positions
from tts_builder.games.arche_noah_flood.table import _positions, geometry, piece_count
from tts_builder.render import decode_png, encode_png, render_preview
from tts_builder.save import new_save

GAME = "arche-noah-flood"


def test_table_positions_are_a_fresh_copy_of_the_kept_ones() -> None:
    data = load_definition(GAME).data
    first = table_positions(data)
    first["hexes"][0][0] = 999.0
    first["names"].append("not a hex")
    again = table_positions(data)
    assert again == _positions.__wrapped__(geometry(data), piece_count(data))
    assert again["hexes"][0][0] != 999.0 and "not a hex" not in again["names"]


def test_table_positions_follow_the_piece_count() -> None:
    data = load_definition(GAME).data
    fewer = copy.deepcopy(data)
    fewer["animals"] = fewer["animals"][:-1]
    assert len(table_positions(fewer)["ark_slots"]) < len(table_positions(data)["ark_slots"])


def test_new_save_shares_nothing_with_its_arguments() -> None:
    objects = [{"Name": "Custom_Tile", "Tags": ["board"], "Transform": {"posX": 1.0}}]
    points = [{"Position": {"x": 0.0, "y": 1.0, "z": 2.0}, "Tags": ["hex"]}]
    save = new_save(save_name="s", game_mode="m", objects=objects, lua_script="", xml_ui="",
                    snap_points=points)  # fmt: skip
    assert save["ObjectStates"] == objects and save["SnapPoints"] == points
    save["ObjectStates"][0]["Transform"]["posX"] = 5.0
    save["SnapPoints"][0]["Tags"].append("x")
    save["Grid"]["Type"] = 3
    assert objects[0]["Transform"]["posX"] == 1.0 and points[0]["Tags"] == ["hex"]
    again = new_save(save_name="s", game_mode="m", objects=(), lua_script="", xml_ui="")
    assert again["Grid"]["Type"] == 0 and "SnapPoints" not in again


class _Plain:
    """A picture store keeping nothing."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def png(self, name: str, spec: Any, make: Callable[[], Any]) -> str:
        made = make()
        self.files[f"images/{name}.png"] = made if isinstance(made, bytes) else encode_png(made)
        return name


def _items(count: int, tint: int = 0, made: list[int] | None = None) -> list:
    def item(i: int) -> tuple[str, pictures.Picture]:
        colour = ((i * 37 + (tint if i == 9 else 0)) % 256, 90, 200 - i, 255)
        size = (60 + 7 * (i % 3), 300 - 11 * (i % 4))

        def make() -> Image.Image:
            if made is not None:
                made.append(i)
            return Image.new("RGBA", size, colour)

        return f"item {i}", ({"i": i, "c": colour}, make)

    return [item(i) for i in range(count)]


def test_the_preview_is_the_pictures_of_render_preview() -> None:
    plain = pictures.preview(_Plain(), _items(20), 4, 240)
    whole = render_preview([(label, make) for label, (_s, make) in _items(20)], 4, 240)
    assert _pixels(plain) == _pixels(encode_png(whole))


def _pixels(png: bytes) -> tuple[str, tuple[int, int], bytes]:
    img = decode_png(png)
    return img.mode, img.size, img.tobytes()
