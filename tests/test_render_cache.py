"""The render cache: faces cached by content and sheets composed from them, each distinct picture
drawn once per build, plain shapes drawn without supersampling, outputs unchanged by all of it."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from conftest import SESSION_CACHE, build
from PIL import Image

from tts_builder import build as build_module
from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT
from tts_builder.render import (
    components,
    compose_sheet,
    compose_sheet_row,
    composite,
    decode_part,
    decode_png,
    encode_band,
    encode_part,
    encode_png,
    hexmap,
    join_bands,
    layout,
    plan_sheets,
)
from tts_builder.render.png import BAND_ROWS


def _supersampled(canvas: Image.Image, el: dict) -> None:
    """A rect drawn the general way: 4x supersampled coverage masks."""
    fill, ring = layout._shape_masks(el)
    at = (el["box"][0], el["box"][1])
    if el["fill"]:
        layout._paint(canvas, fill, el["fill"], at)
    if ring is not None:
        layout._paint(canvas, ring, el["outline"], at)


def test_square_cornered_rects_drawn_at_1x_match_the_supersampled_masks() -> None:
    rng = random.Random(12)

    def colour() -> str:
        alpha = rng.choice(["", "ff", "00", f"{rng.randrange(256):02x}"])
        return f"#{rng.randrange(1 << 24):06x}{alpha}"

    for _ in range(300):
        w, h = rng.randint(1, 40), rng.randint(1, 40)
        noise = bytes(rng.randrange(256) for _ in range(w * h * 4))
        x0, y0 = rng.randrange(w), rng.randrange(h)
        box = [x0, y0, rng.randint(x0 + 1, w), rng.randint(y0 + 1, h)]
        fill, outline = rng.choice([None, colour()]), rng.choice([None, colour()])
        el = {"type": "rect", "box": box, "fill": fill, "outline": outline,
              "width": rng.randint(1, 25), "radius": 0}  # fmt: skip
        if not (el["fill"] or el["outline"]):
            continue
        general = Image.frombytes("RGBA", (w, h), noise)
        plain = general.copy()
        _supersampled(general, el)
        layout._draw_shape(plain, el, layout._no_images)
        assert plain.tobytes() == general.tobytes(), el


def test_a_full_canvas_background_allocates_no_supersampled_mask(monkeypatch) -> None:
    def no_masks(el: dict) -> None:
        raise AssertionError(f"supersampled {el}")

    monkeypatch.setattr(layout, "_shape_masks", no_masks)
    img = layout.render_layout(
        [{"type": "rect", "box": [0, 0, 300, 200], "fill": "#123456"}], (300, 200), {}
    )
    assert img.getpixel((0, 0)) == img.getpixel((299, 199)) == (0x12, 0x34, 0x56, 255)


@pytest.mark.parametrize("mode", ["RGBA", "RGB", "L"])
def test_cached_parts_keep_mode_size_and_pixels(mode: str) -> None:
    rng = random.Random(mode)
    img = Image.frombytes(mode, (7, 5), bytes(rng.randrange(256) for _ in range(7 * 5 * len(mode))))
    back = decode_part(encode_part(img))
    assert (back.mode, back.size, back.tobytes()) == (img.mode, img.size, img.tobytes())
    with pytest.raises(ValueError):
        decode_part(b"something else 1 1\nxx")


def test_a_sheet_takes_its_faces_one_at_a_time() -> None:
    made = []

    def face(i: int):
        def make() -> Image.Image:
            made.append(i)
            return Image.new("RGBA", (10, 14), (i * 40, 0, 0, 255))

        return make

    (plan,) = plan_sheets(3, (10, 14))
    lazy = compose_sheet([face(i) for i in range(3)], plan, (10, 14))
    eager = compose_sheet([face(i)() for i in range(3)], plan, (10, 14))
    assert made == [0, 1, 2, 0, 1, 2] and lazy.tobytes() == eager.tobytes()


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P"])
@pytest.mark.parametrize(
    "size", [(1, 1), (5, BAND_ROWS), (9, BAND_ROWS + 1), (3, 2 * BAND_ROWS + 7)]
)
def test_png_bytes_decode_to_the_same_pixels(mode: str, size: tuple[int, int]) -> None:
    rng = random.Random(f"{mode}{size}")
    raw = Image.frombytes("RGBA", size, rng.randbytes(size[0] * size[1] * 4))
    img = raw.convert(mode) if mode != "P" else raw.convert("RGB").convert("P")
    data = encode_png(img)
    assert data == encode_png(img.copy())
    back = decode_png(data)
    assert (back.mode, back.size, back.tobytes()) == (img.mode, img.size, img.tobytes())


def test_a_picture_joined_from_any_bands_is_the_picture() -> None:
    rng = random.Random(3)
    img = Image.frombytes("RGB", (31, 40), rng.randbytes(31 * 40 * 3))
    cuts = [0, 1, 17, 40]
    bands = [encode_band(img.crop((0, a, 31, b))) for a, b in zip(cuts, cuts[1:], strict=False)]
    back = decode_png(join_bands(bands))
    assert (back.mode, back.size, back.tobytes()) == (img.mode, img.size, img.tobytes())
    with pytest.raises(ValueError):
        join_bands([bands[0], encode_band(Image.new("RGB", (30, 2)))])  # another width
    with pytest.raises(ValueError):
        encode_band(Image.new("L", (3, 3)))


@pytest.mark.parametrize("count", [1, 5, 8])
def test_a_sheet_row_is_that_row_of_the_sheet(count: int) -> None:
    size = (6, 9)
    faces = [Image.new("RGBA", size, (i * 30, 200, 0, 128 + i)) for i in range(count)]
    back = Image.new("RGBA", size, (0, 0, 255, 255))
    (plan,) = plan_sheets(count, size)
    sheet = compose_sheet(faces, plan, size, back)
    for row in range(plan.num_height):
        band = compose_sheet_row(faces, plan, size, row, back)
        assert band.tobytes() == sheet.crop((0, row * 9, sheet.width, (row + 1) * 9)).tobytes()


class _Store:
    """A picture store keeping encoded bands (and cells) in a dict, counting the preview rows
    it had to make. A new one stands for a new process: the preview cells kept are forgotten."""

    def __init__(self) -> None:
        self.cache: dict[str, bytes] = {}
        self.made = 0
        components.forget_cells()

    def encoded(self, spec: object, make) -> bytes:
        key = repr(spec)
        if key not in self.cache:
            self.made += "preview_row" in key
            self.cache[key] = make()
        return self.cache[key]


def _preview_items(sizes: list[tuple[int, int]], made: list[int], tint: int = 0) -> list:
    def item(i: int, size: tuple[int, int]) -> tuple:
        def make() -> Image.Image:
            made.append(i)
            red = (i * 37 + (tint if i == 2 else 0)) % 256  # the tint changes item 2 only
            return Image.new("RGBA", size, (red, 90, 200 - i, 100 + i))

        return (f"item {i}", {"i": i, "tint": tint if i == 2 else 0}, size, make)

    return [item(i, size) for i, size in enumerate(sizes)]


@pytest.mark.parametrize(
    ("sizes", "columns", "cell_max"),
    [
        ([(40, 56)] * 7, 3, 600),
        ([(40, 56), (64, 64), (12, 90), (90, 12), (1, 1)], 2, 600),
        ([(120, 90), (30, 200), (200, 30)] * 3, 4, 50),  # cells shrunk below the items
        ([(33, 47)], 5, 600),
    ],
)
def test_a_preview_made_row_by_row_is_the_preview(sizes: list, columns: int, cell_max: int) -> None:
    made: list[int] = []
    items = _preview_items(sizes, made)
    whole = composite.render_preview([(label, make) for label, _s, _z, make in items],
                                     columns, cell_max)  # fmt: skip
    rows = decode_png(components.preview_png(_Store(), items, columns, cell_max))
    assert (rows.mode, rows.size, rows.tobytes()) == (whole.mode, whole.size, whole.tobytes())


def test_a_changed_preview_item_redraws_its_row_only() -> None:
    store, made = _Store(), []
    sizes = [(40, 56)] * 8
    first = components.preview_png(store, _preview_items(sizes, made), 3)
    assert store.made == 3 and sorted(made) == list(range(8))
    store.made, made[:] = 0, []
    changed = components.preview_png(store, _preview_items(sizes, made, tint=50), 3)
    assert store.made == 1 and made == [2]  # item 2's row, its other cells known
    assert changed != first
    plain = components.preview_png(_Store(), _preview_items(sizes, [], tint=50), 3)
    assert plain == changed
    wrong = [(label, spec, (9, 9), make) for label, spec, _size, make in _preview_items(sizes, [])]
    with pytest.raises(ValueError, match="expected"):
        components.preview_png(_Store(), wrong, 3)


def test_a_die_label_on_several_faces_is_drawn_once(monkeypatch) -> None:
    drawn = []
    draw = composite.render_die_face

    def counted(label: str, *args: object) -> Image.Image:
        drawn.append(label)
        return draw(label, *args)

    style = {"size": 96}
    expected = composite.render_die_texture(["1", "1", "2", "2", "3", "3"], style)
    monkeypatch.setattr(composite, "render_die_face", counted)
    again = composite.render_die_texture(["1", "1", "2", "2", "3", "3"], style)
    assert sorted(drawn) == ["1", "2", "3"] and again.tobytes() == expected.tobytes()


def _copy(game: str, tmp_path: Path, old: str, new: str) -> Path:
    shutil.copytree(ASSETS_ROOT / game, tmp_path / game)
    path = tmp_path / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


def test_a_changed_animal_redraws_its_cards_only(tmp_path: Path) -> None:
    bundled = build("arche-noah")
    cache = dict(SESSION_CACHE)
    root = _copy("arche-noah", tmp_path, 'color: "#8e9aaf"', 'color: "#8e9ab0"')  # Elephant
    changed = build_game("arche-noah", BuildOptions(), cache, root)
    values = len(bundled.definition.data["rules"]["card_values"])
    # the Elephant's cards, and the first fitted as the thumbnail shows it; nothing else
    assert changed.drawn == values + 1
    # its sheet, the thumbnail (which shows the first card, an Elephant) and the preview
    assert changed.rendered == 3
    differ = {name for name in bundled.files if bundled.files[name] != changed.files[name]}
    assert differ == {"images/cards-1.png", "arche-noah.png", "preview.png"}  # not the save
    again = build_game("arche-noah", BuildOptions(), cache, root)
    assert (again.rendered, again.drawn) == (0, 0) and again.files == changed.files


def test_a_changed_card_reencodes_its_sheet_row_only_and_matches_a_plain_build(
    tmp_path: Path, monkeypatch
) -> None:
    rows = []
    compose_row, recompose_row = components.compose_sheet_row, components.recompose_sheet_row

    def counted(faces: list, plan: object, size: tuple[int, int], row: int) -> Image.Image:
        rows.append(row)
        return compose_row(faces, plan, size, row)

    def recounted(last: Image.Image, changed: list, *args: object) -> Image.Image:
        rows.append(args[-1])  # from the row's last pixels: only its changed slots composed
        return recompose_row(last, changed, *args)

    build("arche-noah")  # the session cache holds the bundled game's card rows
    cache = dict(SESSION_CACHE)
    root = _copy("arche-noah", tmp_path, 'color: "#8e9aaf"', 'color: "#8e9ab0"')  # Elephant
    monkeypatch.setattr(components, "compose_sheet_row", counted)
    monkeypatch.setattr(components, "recompose_sheet_row", recounted)
    incremental = build_game("arche-noah", BuildOptions(), cache, root)
    data = incremental.definition.data
    values = len(data["rules"]["card_values"])
    first = [a["name"] for a in data["animals"]].index("Elephant") * values
    (plan,) = plan_sheets(len(data["animals"]) * values, tuple(data["components"]["card"]["size"]))
    assert rows == sorted({i // plan.num_width for i in range(first, first + values)})
    plain = build_game("arche-noah", BuildOptions(), {}, root)
    assert plain.files == incremental.files


def test_outputs_composed_from_cached_parts_are_unchanged(monkeypatch) -> None:
    bundled = build("arche-noah")
    parts = {k: v for k, v in SESSION_CACHE.items() if v.startswith(b"tts-builder part")}
    monkeypatch.setattr(build_module, "MEMO_BYTES", 0)  # nothing kept: every use decodes
    again = build_game("arche-noah", BuildOptions(), parts)
    assert again.drawn == 0 and again.rendered > 0 and again.files == bundled.files


def test_the_flood_board_is_drawn_once_for_the_game_and_its_variants(
    tmp_path: Path, monkeypatch
) -> None:
    drawn = []
    draw = hexmap.render_board

    def counted(*args: object, **kwargs: object) -> Image.Image:
        drawn.append(1)
        return draw(*args, **kwargs)

    monkeypatch.setattr(hexmap, "render_board", counted)
    game = "arche-noah-flood"
    root = _copy(game, tmp_path, "name: ", "name: Renamed ")  # the title is on the board
    cache = dict(SESSION_CACHE)
    builds = [
        build_game(game, BuildOptions(variant=v), cache, root)
        for v in [None, "junior", "distinct-species"]
    ]
    assert len(drawn) == 1
    assert len({b.files[f"{game}.png"] for b in builds}) == 3  # a thumbnail each, one board
