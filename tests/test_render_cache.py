"""Drawing and the build cache: plain shapes drawn without supersampling, sheets composed from
their faces, PNG bytes, and a change remaking the pictures that show it only."""

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
    compose_sheet,
    composite,
    decode_png,
    encode_png,
    hexmap,
    layout,
    plan_sheets,
)


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
@pytest.mark.parametrize("size", [(1, 1), (5, 256), (9, 257), (3, 519)])
def test_png_bytes_decode_to_the_same_pixels(mode: str, size: tuple[int, int]) -> None:
    rng = random.Random(f"{mode}{size}")
    raw = Image.frombytes("RGBA", size, rng.randbytes(size[0] * size[1] * 4))
    img = raw.convert(mode) if mode != "P" else raw.convert("RGB").convert("P")
    data = encode_png(img)
    assert data == encode_png(img.copy())
    back = decode_png(data)
    assert (back.mode, back.size, back.tobytes()) == (img.mode, img.size, img.tobytes())


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


def test_a_changed_animal_remakes_the_pictures_showing_it_only(tmp_path: Path) -> None:
    bundled = build("arche-noah")
    cache = dict(SESSION_CACHE)
    root = _copy("arche-noah", tmp_path, 'color: "#8e9aaf"', 'color: "#8e9ab0"')  # Elephant
    changed = build_game("arche-noah", BuildOptions(), cache, root)
    # its sheet, the thumbnail (which shows the first card, an Elephant) and the preview
    assert changed.rendered == 3
    differ = {name for name in bundled.files if bundled.files[name] != changed.files[name]}
    assert differ == {"images/cards-1.png", "arche-noah.png", "preview.png"}  # not the save
    again = build_game("arche-noah", BuildOptions(), cache, root)
    assert again.rendered == 0 and again.files == changed.files
    assert build_game("arche-noah", BuildOptions(), {}, root).files == changed.files


def test_outputs_composed_from_cached_parts_are_unchanged(monkeypatch) -> None:
    bundled = build("arche-noah")
    parts = {k: v for k, v in SESSION_CACHE.items() if v.startswith(build_module.PART_HEADER)}
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
