"""A row made again from its last pixels (issue 12): a band inflates back to its picture, a
sheet row or preview row recomposed from the row last made in its place has the pixels of one
made whole, and only what changed in it is drawn."""

from __future__ import annotations

import zlib
from collections.abc import Callable

import pytest
from PIL import Image, ImageDraw

from tts_builder.build import BuildOptions, ImageSet
from tts_builder.render import components
from tts_builder.render.png import band_image, encode_band
from tts_builder.render.sheets import SheetPlan, compose_sheet_row, recompose_sheet_row

CARD = (40, 56)


def _face(shade: int) -> Image.Image:
    """A card with rounded, partly transparent corners (composited, not pasted)."""
    img = Image.new("RGBA", CARD, (0, 0, 0, 0))
    ImageDraw.Draw(img).rounded_rectangle(
        (0, 0, CARD[0] - 1, CARD[1] - 1), radius=9, fill=(shade, 255 - shade, 90, 200)
    )
    return img


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_a_band_inflates_back_to_its_picture(mode: str) -> None:
    img = Image.effect_noise((37, 11), 60).convert(mode)
    again = band_image(encode_band(img))
    assert (again.mode, again.size, again.tobytes()) == (mode, img.size, img.tobytes())
    head, _, deflated = encode_band(img).partition(b"\n")
    with pytest.raises((ValueError, zlib.error)):
        band_image(head + b"\n" + deflated[: len(deflated) // 2])


@pytest.mark.parametrize(
    ("before", "after", "changed"),
    [
        ([10, 20, 30, 40], [10, 99, 30, 40], [1]),
        ([10, 20, 30], [10, 20, 30, 77], [3]),  # a card more: the empty slot gets it
        ([10, 20, 30, 40], [10, 20], [2, 3]),  # cards fewer: their slots grey again
    ],
)
def test_a_recomposed_sheet_row_has_the_pixels_of_one_composed_whole(
    before: list[int], after: list[int], changed: list[int]
) -> None:
    columns = 4  # row 1 holds cards 4..7 of a 4 x 3 sheet

    def faces(shades: list[int]) -> list[Callable[[], Image.Image]]:
        return [lambda s=s: _face(s) for s in [70] * columns + shades]

    old_faces, new_faces = faces(before), faces(after)
    plan_old = SheetPlan(columns, 3, tuple(range(len(old_faces))))
    plan_new = SheetPlan(columns, 3, tuple(range(len(new_faces))))
    last = compose_sheet_row(old_faces, plan_old, CARD, 1)
    drawn: list[int] = []
    counted = [lambda i=i, f=f: drawn.append(i) or f() for i, f in enumerate(new_faces)]
    again = recompose_sheet_row(last, changed, counted, plan_new, CARD, 1)
    assert again.tobytes() == compose_sheet_row(new_faces, plan_new, CARD, 1).tobytes()
    assert drawn == [columns + c for c in changed if columns + c < len(new_faces)]


def test_a_changed_preview_item_redraws_its_cell_only_with_the_pixels_of_a_whole_preview() -> None:
    """Through a build's picture store: a second preview with one item changed draws that
    item's cell alone (from the band of its row last drawn) and is the PNG of a preview drawn
    whole, as is a third that shows fewer items."""
    cache: dict[str, bytes] = {}
    drawn: list[str] = []

    def items(shades: list[int]) -> list[components.PreviewItem]:
        def make(label: str, shade: int) -> Image.Image:
            drawn.append(label)
            return _face(shade)

        return [
            (f"card {i} ({s})", {"card": [i, s]}, CARD, lambda i=i, s=s: make(f"{i}:{s}", s))
            for i, s in enumerate(shades)
        ]

    def preview(shades: list[int]) -> bytes:
        store = ImageSet("reuse", BuildOptions(), cache)
        return components.preview_png(store, items(shades), columns=3)

    components.forget_cells()
    first = preview([10, 20, 30, 40, 50])
    assert first == components.preview_png(None, items([10, 20, 30, 40, 50]), columns=3)
    components.forget_cells()
    drawn.clear()
    second = preview([10, 20, 30, 99, 50])
    assert drawn == ["3:99"]
    assert second == components.preview_png(None, items([10, 20, 30, 99, 50]), columns=3)
    components.forget_cells()
    third = preview([10, 20, 30, 99])  # the same grid, a cell fewer on the last row
    assert third == components.preview_png(None, items([10, 20, 30, 99]), columns=3)


def test_a_preview_sizes_only_the_pictures_its_last_preview_did_not_show(monkeypatch) -> None:
    """The sizes of a preview's pictures are one record of its folder: a preview with one
    picture changed looks up (or draws) that picture's size alone."""
    from tts_builder.gamekit import pictures

    cache: dict[str, bytes] = {}
    sized: list[object] = []
    real = pictures._size
    monkeypatch.setattr(
        pictures, "_size", lambda i, spec, make: sized.append(spec) or real(i, spec, make)
    )

    def preview(shades: list[int]) -> bytes:
        store = ImageSet("reuse", BuildOptions(), cache)
        items = [(f"card {s}", ({"card": s}, lambda s=s: _face(s))) for s in shades]
        return pictures.preview(store, items, columns=3, cell_max=100)

    components.forget_cells()
    preview([10, 20, 30, 40])
    assert len(sized) == 4
    sized.clear()
    components.forget_cells()
    again = preview([10, 20, 99, 40])
    assert sized == [{"card": 99}]
    assert again == components.preview_png(
        None,
        [(f"card {s}", {"card": s}, CARD, lambda s=s: _face(s)) for s in [10, 20, 99, 40]],
        3,
        100,
    )
