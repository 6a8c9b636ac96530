"""Tests of tts_builder.render: layouts, text fitting, art loading, sheets, PNGs, composites."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tts_builder.errors import BuildError, FieldError
from tts_builder.render import (
    compose_sheet,
    encode_png,
    fit_text,
    font,
    image_digest,
    load_art,
    plan_sheets,
    render_die_face,
    render_die_texture,
    render_layout,
    render_preview,
    render_thumbnail,
    validate_layout,
)
from tts_builder.render.fonts import FONT_DIR

REPO = Path(__file__).resolve().parents[1]
GAME_DIR = REPO / "assets" / "arche-noah"


@pytest.fixture(scope="module")
def game() -> dict:
    return yaml.safe_load((GAME_DIR / "game.yaml").read_text())


def art_loader(src: str) -> Image.Image:
    return load_art(GAME_DIR, src, "animals.art")


def card_fields(animal: dict, value: int) -> dict:
    return {"name": animal["name"], "color": animal["color"], "art": animal["art"], "value": value}


def hex_rgb(color: str) -> tuple[int, int, int]:
    return tuple(int(color[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


# ------------------------------------------------------------------------- game layouts


def test_every_layout_of_the_game_validates(game: dict) -> None:
    for name, comp in game["components"].items():
        for side in ("face", "back"):
            if side in comp:
                validate_layout(comp[side], f"components.{name}.{side}", tuple(comp["size"]))


def test_animal_cards_render_with_colour_art_and_corner_values(game: dict) -> None:
    card = game["components"]["card"]
    lion = next(a for a in game["animals"] if a["name"] == "Lion")
    img = render_layout(card["face"], tuple(card["size"]), card_fields(lion, 3), art_loader)
    assert img.mode == "RGBA" and img.size == (400, 560)
    assert img.getpixel((0, 0))[3] == 0  # rounded corner stays transparent
    assert img.getpixel((20, 300))[:3] == hex_rgb(lion["color"])  # the animal's frame colour
    art_region = img.crop((54, 116, 346, 410)).convert("RGB")
    assert len(art_region.getcolors(100_000) or []) > 50  # a real picture, not a flat panel
    # both corner values hold dark ink, and the right one mirrors the left one
    left, right = img.crop((24, 20, 104, 92)), img.crop((296, 20, 376, 92))
    dark = (0x1D, 0x1D, 0x1D, 255)
    assert left.getcolors(10_000) and dict((c, n) for n, c in left.getcolors(10_000)).get(dark)
    assert left.convert("L").getbbox() and right.convert("L").getbbox()


def test_each_animal_has_distinct_art(game: dict) -> None:
    digests = {image_digest(art_loader(a["art"])) for a in game["animals"]}
    assert len(digests) == len(game["animals"]) == 10


def test_font_comes_from_the_vendored_files() -> None:
    assert Path(font(20, False).path).parent == FONT_DIR
    assert Path(font(20, True).path).name == "DejaVuSans-Bold.ttf"
    assert (FONT_DIR / "LICENSE-DejaVu.txt").read_text().count("Bitstream") >= 3


# ------------------------------------------------------------------------- bad layouts

BAD_LAYOUTS = [
    ([{"type": "circle", "box": [0, 0, 1, 1]}], "c[0].type", "expected one of ellipse"),
    ([{"type": "rect", "box": [0, 0, 9, 9], "colour": "#000000"}], "c[0].colour", "unknown key"),
    (
        [{"type": "rect", "box": "abc"}],
        "c[0].box",
        "expected 4 integers [x0, y0, x1, y1], got 'abc'",
    ),
    ([{"type": "rect", "box": [0, 0, 9.5, 9]}], "c[0].box", "expected 4 integers"),
    ([{"type": "rect", "box": [5, 0, 5, 9]}], "c[0].box", "x0 < x1"),
    ([{"type": "rect", "box": [0, 0, 101, 9]}], "c[0].box", "not inside the 100x50 canvas"),
    ([{"type": "rect", "box": [0, 0, 9, 9], "fill": "red"}], "c[0].fill", "'#rrggbb'"),
    ([{"type": "rect", "box": [0, 0, 9, 9], "width": 0}], "c[0].width", "an integer from 1"),
    ([{"type": "text", "text": "x", "box": [0, 0, 9, 9], "size": -3}], "c[0].size", "1 to 1,000"),
    ([{"type": "text", "text": "x", "box": [0, 0, 9, 9], "align": "middle"}], "c[0].align", "left"),
    ([{"type": "text", "text": "x", "box": [0, 0, 9, 9], "bold": "yes"}], "c[0].bold", "true or"),
    ([{"type": "text", "text": "{a.__class__}", "box": [0, 0, 9, 9]}], "c[0].text", "plain"),
    ([{"type": "text", "box": [0, 0, 9, 9]}], "c[0].text", "missing"),
    ([{"type": "image", "box": [0, 0, 9, 9]}], "c[0].src", "missing"),
    ([{"type": "rect", "box": [0, 0, 9, 9]}, "rect"], "c[1]", "expected a mapping"),
    ({"type": "rect"}, "c", "expected a list"),
]


@pytest.mark.parametrize(("elements", "field", "message"), BAD_LAYOUTS)
def test_bad_layout_raises_field_error_naming_the_element(elements, field, message) -> None:
    with pytest.raises(FieldError) as err:
        validate_layout(elements, "c", (100, 50))
    assert err.value.field == field
    assert message in err.value.detail
    assert "\n" not in str(err.value)


def test_render_validates_and_names_unknown_template_fields(game: dict) -> None:
    card = game["components"]["card"]
    with pytest.raises(FieldError) as err:
        render_layout(
            card["face"],
            (400, 560),
            {"name": "Lion", "color": "#112233", "art": "x"},
            art_loader,
            where="components.card.face",
        )
    first_value = next(i for i, el in enumerate(card["face"]) if "{value}" in el.get("text", ""))
    assert err.value.field == f"components.card.face[{first_value}].text"
    assert "unknown field {value}" in err.value.detail and "known: art, color, name" in str(
        err.value
    )
    bad = [{"type": "rect", "box": [0, 0, 10, 10], "fill": "{color}"}]
    with pytest.raises(FieldError, match=r"l\[0\]\.fill: expected a colour '#rrggbb', got 'teal'"):
        render_layout(bad, (10, 10), {"color": "teal"}, where="l")
    with pytest.raises(FieldError, match=r"not inside the 5x5 canvas"):
        render_layout(bad, (5, 5), {"color": "#000000"})


# ------------------------------------------------------------------------- art files


def test_missing_art_raises_build_error_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(BuildError) as err:
        load_art(tmp_path, "art/dodo.png", "animals[3].art")
    assert str(err.value) == f"{tmp_path / 'art/dodo.png'}: animals[3].art: art file not found"


def test_unreadable_art_raises_one_line_build_error(tmp_path: Path) -> None:
    (tmp_path / "bad.png").write_bytes(b"not a png\n" * 10)
    with pytest.raises(BuildError) as err:
        load_art(tmp_path, "bad.png", "animals[0].art")
    text = str(err.value)
    said = "named .png but holds no image format: save it as PNG"
    assert text == f"{tmp_path / 'bad.png'}: animals[0].art: {said}"
    assert "\n" not in text
    with pytest.raises(BuildError, match="must be inside"):
        load_art(tmp_path / "sub", "../bad.png", "animals[0].art")


def test_missing_art_surfaces_through_render(tmp_path: Path) -> None:
    layout = [{"type": "image", "src": "{art}", "box": [0, 0, 10, 10]}]
    with pytest.raises(BuildError, match="gone.png: animals\\[1\\].art: art file not found"):
        render_layout(
            layout,
            (10, 10),
            {"art": "gone.png"},
            lambda src: load_art(tmp_path, src, "animals[1].art"),
        )


def test_image_fits_inside_box_keeping_aspect() -> None:
    wide = Image.new("RGBA", (200, 100), (255, 0, 0, 255))
    img = render_layout(
        [{"type": "image", "src": "w", "box": [10, 10, 110, 210]}],
        (120, 220),
        {},
        lambda _src: wide,
    )
    assert img.getbbox() == (10, 85, 110, 135)  # 100x50, centred vertically in the 100x200 box


# ------------------------------------------------------------------------- text fitting

TEXT_BOX = (30, 40, 130, 90)


def _render_text(text: str, size: int, align: str = "center") -> Image.Image:
    element = {
        "type": "text",
        "text": text,
        "box": list(TEXT_BOX),
        "size": size,
        "bold": True,
        "color": "#ff0000",
        "align": align,
    }
    return render_layout([element], (160, 130), {})


def _outside_box_is_untouched(img: Image.Image, box: tuple[int, int, int, int]) -> bool:
    alpha = img.getchannel("A")
    alpha.paste(0, box)
    return alpha.getbbox() is None


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_text_autofit_keeps_ink_inside_its_box(align: str) -> None:
    img = _render_text("Hippopotamus Kangaroo Elephant", 80, align)
    assert _outside_box_is_untouched(img, TEXT_BOX)
    ink = img.getchannel("A").getbbox()
    assert ink is not None and ink[2] - ink[0] > 60  # shrunk, but still fills the box width
    if align == "left":
        assert ink[0] - TEXT_BOX[0] <= 1  # flush left, give or take an antialiased column
    if align == "right":
        assert TEXT_BOX[2] - ink[2] <= 1


def test_text_wraps_onto_lines_when_that_fits_a_bigger_font() -> None:
    f, lines = fit_text("Start player", (300, 200), 90, True)
    assert lines == ["Start", "player"]
    single, one = fit_text("Start player", (300, 60), 90, True)
    assert one == ["Start player"] and single.size < f.size


def test_fit_text_never_overflows_even_for_long_words() -> None:
    f, lines = fit_text("Supercalifragilistic", (50, 50), 40, False)
    assert lines == ["Supercalifragilistic"] and f.getlength(lines[0]) <= 50


@settings(max_examples=25, deadline=None)
@given(
    text=st.text(alphabet="abcXYZ 0123|&", min_size=1, max_size=30),
    size=st.integers(1, 120),
    align=st.sampled_from(["left", "center", "right"]),
)
def test_text_never_draws_outside_its_box(text: str, size: int, align: str) -> None:
    assert _outside_box_is_untouched(_render_text(text, size, align), TEXT_BOX)


# ------------------------------------------------------------------------- determinism


def test_rendering_and_png_bytes_are_deterministic(game: dict) -> None:
    card = game["components"]["card"]
    fields = card_fields(game["animals"][2], 4)
    a = render_layout(card["face"], (400, 560), fields, art_loader)
    b = render_layout(card["face"], (400, 560), fields, art_loader)
    assert encode_png(a) == encode_png(b)
    assert image_digest(a) == image_digest(b)
    b.info["dpi"] = (300, 300)
    b.info["icc_profile"] = b"junk"
    assert encode_png(a) == encode_png(b)
    data = encode_png(a)
    assert b"tIME" not in data and b"tEXt" not in data and b"iCCP" not in data
    assert image_digest(Image.open(io.BytesIO(data))) == image_digest(a)
    other = render_layout(card["face"], (400, 560), card_fields(game["animals"][2], 3), art_loader)
    assert image_digest(other) != image_digest(a)


# ------------------------------------------------------------------------- sheets


@settings(max_examples=300, deadline=None)
@given(
    count=st.integers(0, 400),
    w=st.integers(1, 4096),
    h=st.integers(1, 4096),
    max_px=st.sampled_from([4096, 2048, 1000]),
)
def test_plan_sheets_obeys_the_tts_limits(count: int, w: int, h: int, max_px: int) -> None:
    if w > max_px or h > max_px:
        with pytest.raises(BuildError, match="does not fit"):
            plan_sheets(count, (w, h), max_px)
        return
    plans = plan_sheets(count, (w, h), max_px)
    placed = []
    for p in plans:
        assert 1 <= p.num_width <= 10 and 1 <= p.num_height <= 7
        assert p.num_width * w <= max_px and p.num_height * h <= max_px
        assert len(p.indexes) <= (p.slots - 1 if p.slots > 1 else 1)  # hidden slot stays free
        assert p.indexes
        placed.extend(p.indexes)
    assert placed == list(range(count))  # every card exactly once, in order


def test_plan_sheets_picks_compact_grids() -> None:
    assert [(p.num_width, p.num_height) for p in plan_sheets(40, (400, 560))] == [(7, 6)]
    assert [len(p.indexes) for p in plan_sheets(69, (400, 560))] == [69]
    assert [(p.num_width, p.num_height, len(p.indexes)) for p in plan_sheets(70, (400, 560))] == [
        (10, 7, 69),
        (1, 1, 1),
    ]
    assert [(p.num_width, p.num_height) for p in plan_sheets(3, (256, 256))] == [(2, 2)]
    with pytest.raises(BuildError, match="5000x10 px card"):
        plan_sheets(1, (5000, 10))


def test_compose_sheet_places_faces_back_and_neutral_slots() -> None:
    colours = [(200, 0, 0), (0, 200, 0), (0, 0, 200), (200, 200, 0), (0, 200, 200)]
    faces = [Image.new("RGBA", (20, 30), c + (255,)) for c in colours]
    back = Image.new("RGB", (20, 30), (9, 9, 9))
    plans = plan_sheets(5, (20, 30), max_px=60)  # 3x2 grid holds 5 = at most 5 cards per sheet
    assert [(p.num_width, p.num_height, p.indexes) for p in plans] == [(3, 2, (0, 1, 2, 3, 4))]
    sheet = compose_sheet(faces, plans[0], (20, 30), back=back)
    assert sheet.mode == "RGB" and sheet.size == (60, 60)
    for slot, colour in enumerate(colours):
        assert sheet.getpixel(((slot % 3) * 20 + 10, (slot // 3) * 30 + 15)) == colour
    assert sheet.getpixel((50, 45)) == (9, 9, 9)  # hidden slot shows the back
    small = compose_sheet(faces[:2], plan_sheets(2, (20, 30))[0], (20, 30))
    assert small.size == (60, 30) and small.getpixel((50, 15)) == (128, 128, 128)
    with pytest.raises(ValueError, match="expected 20x30"):
        compose_sheet([Image.new("RGB", (5, 5))], plan_sheets(1, (20, 30))[0], (20, 30))


# ------------------------------------------------------------------------- composites

# dice/README.md: top row unused; middle row 2, 4, 5; bottom row 1, 3, 6 with 1 and 6 upside down
D6_EXPECTED = {
    2: (0, 1, False),
    4: (1, 1, False),
    5: (2, 1, False),
    1: (0, 2, True),
    3: (1, 2, False),
    6: (2, 2, True),
}


def test_die_texture_puts_each_label_in_its_cell() -> None:
    labels = ["A1", "B2", "C3", "D4", "E5", "F6"]
    style = {"size": 240, "fill": "#f1d18a"}
    tex = render_die_texture(labels, style)
    assert tex.size == (240, 240) and tex.mode == "RGB"
    c = 80
    for face, (col, row, upside_down) in D6_EXPECTED.items():
        expected = render_die_face(labels[face - 1], style)
        if upside_down:
            expected = expected.transpose(Image.Transpose.ROTATE_180)
        cell = tex.crop((col * c, row * c, col * c + c, row * c + c))
        assert image_digest(cell) == image_digest(expected), f"face {face}"
    faces = {image_digest(render_die_face(label, style)) for label in labels}
    assert len(faces) == 6  # the labels really look different
    assert tex.crop((0, 0, 240, 80)).getcolors() == [(240 * 80, (0xD9, 0xD9, 0xD9))]


def test_die_texture_rejects_bad_input() -> None:
    with pytest.raises(FieldError, match=r"die\.faces: a d6 needs 6 face labels, got 5"):
        render_die_texture(list("12345"), {})
    with pytest.raises(FieldError, match=r"die\.style\.fill: expected a colour"):
        render_die_texture(list("123456"), {"fill": "white"})
    with pytest.raises(FieldError, match=r"die\.style\.shape: unknown die style key"):
        render_die_texture(list("123456"), {"shape": "round"})


def test_thumbnail_shows_cards_and_title(game: dict) -> None:
    card = game["components"]["card"]
    faces = [
        render_layout(card["face"], (400, 560), card_fields(a, 1), art_loader)
        for a in game["animals"][:3]
    ]
    thumb = render_thumbnail("Arche Noah", faces)
    assert thumb.size == (256, 256) and thumb.mode == "RGB"
    band = thumb.crop((0, 190, 256, 256))
    assert (0xF1, 0xD1, 0x8A) in {c for _n, c in band.getcolors(100_000)}  # title ink
    top = thumb.crop((0, 0, 256, 180))
    assert hex_rgb(game["animals"][2]["color"]) in {c for _n, c in top.getcolors(100_000)}
    assert render_thumbnail("X", [], (128, 64)).size == (128, 64)


def test_preview_lays_items_out_with_labels() -> None:
    red = Image.new("RGBA", (100, 140), (220, 0, 0, 255))
    blue = Image.new("RGBA", (50, 50), (0, 0, 220, 255))
    sheet = render_preview([("red {x}", red), ("blue", blue), ("red again", red)], columns=2)
    pad, label = 16, 40
    assert sheet.size == (pad + 2 * (100 + pad), pad + 2 * (140 + label + pad))
    assert sheet.getpixel((pad + 50, pad + 70)) == (220, 0, 0)
    assert sheet.getpixel((pad + 116 + 50, pad + 70)) == (0, 0, 220)
    assert sheet.getpixel((pad + 116 + 5, pad + 5)) == (0xD8, 0xD8, 0xD8)  # small item centred
    assert sheet.getpixel((pad + 50, pad + 196 + 70)) == (220, 0, 0)
    label_strip = sheet.crop((pad, pad + 140, pad + 100, pad + 140 + label))
    assert len(label_strip.getcolors(10_000)) > 2  # the label is drawn
    with pytest.raises(ValueError):
        render_preview([], 3)
