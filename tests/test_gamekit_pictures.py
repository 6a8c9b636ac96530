"""gamekit.pictures: a build's thumbnail and preview sheet from pictures (spec + maker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from tts_builder.gamekit import pictures
from tts_builder.render import encode_png, render_preview, render_thumbnail


class Store:
    """A picture store recording each output image's spec, drawing it every time."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.specs: dict[str, Any] = {}

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image]) -> str:
        self.specs[name] = spec
        self.files[f"images/{name}.png"] = encode_png(make())
        return f"file:///images/{name}.png"


def _square(colour: str) -> pictures.Picture:
    return {"square": colour}, lambda: Image.new("RGBA", (64, 64), colour)


class Sides:
    """A stand-in for render.components.Sides: a side is a square of its fields' colour."""

    def spec(self, component: str, side: str, fields: dict[str, Any]) -> Any:
        return {"component": component, "side": side, **fields}

    def __call__(self, component: str, side: str, fields: dict[str, Any]) -> Image.Image:
        return Image.new("RGBA", (32, 48), fields["color"])


def test_thumbnail_is_the_pictures_under_the_title_and_leaves_the_images() -> None:
    store = Store()
    shown = [_square("#ff0000"), _square("#00ff00")]
    png = pictures.thumbnail(store, "Meadow", shown)
    expected = render_thumbnail("Meadow", [make() for _spec, make in shown])
    assert png == encode_png(expected)
    assert store.specs["thumbnail"] == {
        "thumb": [{"square": "#ff0000"}, {"square": "#00ff00"}],
        "title": "Meadow",
    }
    assert "images/thumbnail.png" not in store.files  # it ships beside the save, not in images/


def test_preview_labels_every_picture_and_is_known_by_labels_and_specs() -> None:
    store = Store()
    items = [("red", _square("#ff0000")), ("blue", _square("#0000ff"))]
    png = pictures.preview(store, items, columns=2, cell_max=100)
    expected = render_preview(
        [(label, make) for label, (_spec, make) in items], columns=2, cell_max=100
    )
    assert png == encode_png(expected)
    assert store.specs["preview"] == {
        "preview": [["red", {"square": "#ff0000"}], ["blue", {"square": "#0000ff"}]],
        "columns": 2,
        "cell_max": 100,
    }
    assert "images/preview.png" not in store.files


def test_the_same_faces_in_another_grid_are_another_preview() -> None:
    """A cache keyed by the preview's spec must not hand one grid's sheet for another."""
    items = [("red", _square("#ff0000")), ("blue", _square("#0000ff"))]
    store = Store()
    two = pictures.preview(store, items, columns=2, cell_max=100)
    first = store.specs["preview"]
    one = pictures.preview(store, items, columns=1, cell_max=100)
    assert store.specs["preview"] != first
    assert one != two
    expected = render_preview(
        [(label, make) for label, (_spec, make) in items], columns=1, cell_max=100
    )
    assert one == encode_png(expected)


def test_a_component_side_is_its_spec_and_its_drawing() -> None:
    spec, make = pictures.side(Sides(), "worker", "face", {"color": "#123456"})
    assert spec == {"component": "worker", "side": "face", "color": "#123456"}
    assert make().getpixel((0, 0)) == (0x12, 0x34, 0x56, 255)
