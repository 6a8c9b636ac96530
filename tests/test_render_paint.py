"""The layout engine's shortcuts give the very pixels of the general way: a coverage mask
painted box by box (filled where full, composited where partial) equals compositing the whole
mask."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from tts_builder.render import layout


def _noise(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    w, h = size
    img = Image.frombytes("RGBA", size, bytes(rng.randrange(256) for _ in range(w * h * 4)))
    # some fully transparent and some fully opaque pixels, as on a real canvas
    for _ in range(w * h // 4):
        x, y = rng.randrange(w), rng.randrange(h)
        r, g, b, _a = img.getpixel((x, y))
        img.putpixel((x, y), (r, g, b, rng.choice([0, 255])))
    return img


def _masks(rng: random.Random) -> list[Image.Image]:
    """Coverage masks of every kind the engine paints: rounded rects, ellipses, rings, text,
    binary and noisy ones."""
    found = []
    for _ in range(25):
        w, h = rng.randint(1, 70), rng.randint(1, 70)
        kind = rng.choice(["rect", "ellipse"])
        radius = rng.randint(0, max(0, min(w, h) // 2)) if kind == "rect" else 0
        width = rng.choice([0, 1, 3, 8])
        el = {"type": kind, "box": [0, 0, w, h], "radius": radius, "width": width or 2,
              "outline": "#000000" if width else None}  # fmt: skip
        fill, ring = layout._shape_masks(el)
        found += [fill] + ([ring] if ring is not None else [])
    for text in ["1", "Giraffe 3", "0|2", "Mixed words to wrap", "g"]:
        box = (rng.randint(8, 90), rng.randint(8, 60))
        found.append(layout.text_mask(text, box, rng.randint(6, 40), rng.random() < 0.5, "center"))
    for _ in range(10):
        w, h = rng.randint(1, 30), rng.randint(1, 30)
        values = [0, 255] if rng.random() < 0.5 else list(range(256))
        found.append(Image.frombytes("L", (w, h), bytes(rng.choice(values) for _ in range(w * h))))
    found.append(Image.new("L", (9, 7), 0))
    found.append(Image.new("L", (9, 7), 255))
    return found


def test_painting_a_mask_box_by_box_is_compositing_it_whole() -> None:
    rng = random.Random(2026)
    for mask in _masks(rng):
        for _ in range(3):
            w, h = mask.width + rng.randint(0, 12), mask.height + rng.randint(0, 12)
            at = (rng.randint(0, w - mask.width), rng.randint(0, h - mask.height))
            alpha = rng.choice(["", "", "ff", "80", "00"])
            colour = f"#{rng.randrange(1 << 24):06x}{alpha}"
            painted = _noise(rng, (w, h))
            general = painted.copy()
            layout._paint(painted, mask, colour, at)
            r, g, b, a = layout._rgba(colour)
            coverage = mask if a == 255 else mask.point(lambda v, a=a: v * a // 255)
            layout._composite(general, coverage, (r, g, b), at)
            assert painted.tobytes() == general.tobytes(), (mask.size, colour, at)


def test_a_rounded_rect_is_blended_in_its_corners_only() -> None:
    el = {"type": "rect", "box": [0, 0, 400, 560], "radius": 24, "width": 2, "outline": None}
    fill, _ring = layout._shape_masks(el)
    blended = [box for blend, box in layout._mask_plan(fill) if blend]
    assert len(blended) == 4
    assert all((x1 - x0) * (y1 - y0) <= 30 * 30 for x0, y0, x1, y1 in blended)


def test_a_layout_drawn_on_an_opaque_rgb_canvas_is_the_rgba_drawing_converted() -> None:
    rng = random.Random(11)
    art = _noise(rng, (30, 20))

    def colour() -> str:
        return f"#{rng.randrange(1 << 24):06x}" + rng.choice(["", "", "80", "ff", "00"])

    for _ in range(30):
        w, h = rng.randint(20, 90), rng.randint(20, 90)
        elements: list[dict] = [{"type": "rect", "box": [0, 0, w, h], "fill": colour()[:7]}]
        for _ in range(rng.randint(1, 6)):
            x0, y0 = rng.randrange(w - 4), rng.randrange(h - 4)
            box = [x0, y0, rng.randint(x0 + 4, w), rng.randint(y0 + 4, h)]
            kind = rng.choice(["rect", "ellipse", "text", "image"])
            if kind == "text":
                elements.append({"type": "text", "text": "Ag 3", "box": box, "color": colour()})
            elif kind == "image":
                elements.append({"type": "image", "src": "art", "box": box})
            else:
                shape = {"type": kind, "box": box, "fill": colour(), "outline": colour()}
                if kind == "rect":
                    shape["radius"] = rng.randint(0, 6)
                elements.append(shape)
        rgba = layout.render_layout(elements, (w, h), {}, {"art": art}.__getitem__)
        canvas = Image.new("RGB", (w, h), elements[0]["fill"])
        rgb = layout.render_layout(elements, (w, h), {}, {"art": art}.__getitem__, canvas=canvas)
        assert rgb.mode == "RGB" and rgb.tobytes() == rgba.convert("RGB").tobytes(), elements


@pytest.mark.parametrize("mode", ["RGB", "RGBA opaque", "RGBA", "L", "P"])
@pytest.mark.parametrize("size", [(1, 1), (37, 20), (90, 61), (300, 7)])
def test_resizing_gives_the_pixels_of_pillows_rgba_lanczos(mode: str, size: tuple[int, int]):
    from tts_builder.render.layout import resize_rgba

    rng = random.Random(f"{mode}{size}")
    img = Image.frombytes("RGBA", (83, 59), rng.randbytes(83 * 59 * 4))
    img.paste((200, 30, 90, 255), (10, 10, 60, 40))  # a flat patch: ringing at its edges
    if mode == "RGBA opaque":
        img.putalpha(255)
    elif mode != "RGBA":
        img = img.convert(mode)
    want = img.convert("RGBA").resize(size, Image.Resampling.LANCZOS)
    got = resize_rgba(img, size)
    assert (got.mode, got.size, got.tobytes()) == (want.mode, want.size, want.tobytes())
    want = img.resize(size, Image.Resampling.LANCZOS)
    got = layout.resample(img, size)
    assert (got.mode, got.size, got.tobytes()) == (want.mode, want.size, want.tobytes())


@pytest.mark.parametrize("bold", [False, True])
def test_the_fonts_characters_are_fonttools_best_cmaps(bold: bool) -> None:
    """The characters read from the preferred cmap (format 12 in the vendored fonts) and from
    their format 4 subtable (as most fonts a designer ships have) are fontTools'."""
    from fontTools.ttLib import TTFont

    from tts_builder.render import fonts

    path = fonts.FONT_DIR / fonts.FONT_FILES[bold]
    with TTFont(str(path), lazy=True) as face:
        want = frozenset(c for c, name in face.getBestCmap().items() if name != ".notdef")
        bmp = face["cmap"].getcmap(3, 1)
        assert bmp.format == 4
        want_bmp = frozenset(c for c, name in bmp.cmap.items() if name != ".notdef")
    data = path.read_bytes()
    assert fonts.cmap_codepoints(data) == want
    assert fonts._format4(data, _subtable(data, 3, 1)) == want_bmp
    assert fonts.missing_glyphs("Zwölf Tiere ✓ 漢", bold) == "漢"
    assert fonts.cmap_codepoints(b"not a font") is None


def _subtable(font_file: bytes, platform: int, encoding: int) -> int:
    """Where the font's cmap subtable (platform, encoding) starts."""
    import struct

    (tables,) = struct.unpack_from(">H", font_file, 4)
    for i in range(tables):
        tag, _sum, cmap, _length = struct.unpack_from(">4sIII", font_file, 12 + 16 * i)
        if tag == b"cmap":
            (count,) = struct.unpack_from(">H", font_file, cmap + 2)
            for j in range(count):
                found = struct.unpack_from(">HHI", font_file, cmap + 4 + 8 * j)
                if found[:2] == (platform, encoding):
                    return cmap + found[2]
    raise AssertionError(f"no cmap subtable {platform},{encoding}")
