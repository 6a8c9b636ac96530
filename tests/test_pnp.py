"""Print-and-play (issue 26, item 6): every piece the save lays out is counted and printed at
its size, the rasterised pages show each front where the layout puts it and each back where it
meets its front when the sheet is flipped on the chosen edge, crop marks lie in the margins,
a board larger than a page is tiled, and the same build gives the same bytes."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from PIL import Image, ImageStat

from tts_builder import pnp
from tts_builder.build import BuildOptions, build_game

pdfium = pytest.importorskip("pypdfium2")
DPI = 50


@pytest.fixture(scope="module")
def prototype():
    build = build_game("prototype", BuildOptions(), {})
    return build, *pnp.pieces(build.save, build.files)


def _pages(data: bytes) -> list[Image.Image]:
    document = pdfium.PdfDocument(data)
    return [
        document[i].render(scale=DPI / 72).to_pil().convert("RGB") for i in range(len(document))
    ]


def _centre(img: Image.Image) -> tuple[float, ...]:
    """The mean colour of the middle fifth of a picture."""
    w, h = img.size
    return tuple(ImageStat.Stat(img.crop((2 * w // 5, 2 * h // 5, 3 * w // 5, 3 * h // 5))).mean)


def _at(page: Image.Image, placed: pnp.Placed) -> tuple[float, ...]:
    """The mean colour of the middle fifth of a trim box on a rasterised page."""
    px = DPI / 25.4
    box = (placed.x * px, placed.y * px, (placed.x + placed.w) * px, (placed.y + placed.h) * px)
    crop = page.crop(tuple(round(v) for v in box))
    return _centre(crop)


def _close(a: tuple[float, ...], b: tuple[float, ...], tolerance: float = 12.0) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_every_piece_of_the_save_is_counted(prototype) -> None:
    build, items, skipped = prototype
    objects: Counter[str] = Counter()

    def walk(objs):
        for obj in objs:
            objects[obj["Name"]] += 1
            walk(obj.get("ContainedObjects") or [])

    walk(build.save["ObjectStates"])
    kinds: Counter[str] = Counter()
    for item in items:
        kinds[item.kind] += item.copies
    assert kinds["card"] == objects["Card"]
    assert kinds["tile"] == objects["Custom_Tile"] and kinds["token"] == objects["Custom_Token"]
    assert skipped == ["Weather die (Custom_Dice)"]
    card = next(item for item in items if item.kind == "card")
    assert (
        card.size == pytest.approx((63.48, 88.0)) and card.back is not None
    )  # poker height, TTS's shape
    assert all(item.guessed for item in items if item.kind == "token")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_fronts_and_backs_meet_when_flipped(prototype, duplex: str) -> None:
    build, items, skipped = prototype
    cards = [item for item in items if item.kind == "card"]
    data = pnp.render_pdf("Meadow", cards, skipped, "a4", 0.0, duplex)
    pages = _pages(data)
    layout = list(pnp.sheets(cards, pnp.PAPERS["a4"], 0.0, duplex))
    assert len(pages) == 1 + 2 * len(layout)  # the cover, then fronts and backs in turn
    assert len(layout[0][0]) == 9  # poker cards 9-up on A4
    width, height = pnp.PAPERS["a4"]
    for k, (fronts, backs) in enumerate(layout):
        front_page, back_page = pages[1 + 2 * k], pages[2 + 2 * k]
        assert backs is not None
        for front, back in zip(fronts, backs, strict=True):
            assert _close(_at(front_page, front), _centre(front.image))
            assert _close(_at(back_page, back), _centre(back.image))
            if duplex == "long":  # flipped about the vertical: mirrored left to right
                assert (back.x, back.y) == pytest.approx((width - front.x - front.w, front.y))
            else:
                assert (back.x, back.y) == pytest.approx((front.x, height - front.y - front.h))


def test_crop_marks_lie_in_the_margins_and_the_bleed_repeats_the_edge(prototype) -> None:
    build, items, skipped = prototype
    cards = [replace(next(item for item in items if item.kind == "card"), copies=1)]
    data = pnp.render_pdf("Meadow", cards, skipped, "a4", 3.0, "long")
    page = _pages(data)[1]
    ((fronts, _),) = list(pnp.sheets(cards, pnp.PAPERS["a4"], 3.0, "long"))
    (front,) = fronts
    px = DPI / 25.4
    mark_x = round(front.x * px)
    above = page.crop((mark_x - 1, 0, mark_x + 2, round((front.y - 3.5) * px)))
    assert min(above.convert("L").tobytes()) < 128  # a crop mark above the cut line
    assert page.getpixel((2, 2)) == (255, 255, 255)  # the page's margin is blank
    bled = pnp.with_bleed(front.image, 5)
    assert bled.size == (front.image.width + 10, front.image.height + 10)
    assert bled.getpixel((0, 7)) == front.image.getpixel((0, 2))
    assert bled.crop((5, 5, 5 + front.image.width, 5 + front.image.height)).tobytes() == (
        front.image.tobytes()
    )


def test_a_board_larger_than_a_page_is_tiled() -> None:
    board = pnp.Piece("Map", "tile", Image.new("RGB", (800, 600), "#336699"), None,
                      (400.0, 300.0), 1)  # fmt: skip
    pages = list(pnp.sheets([board], pnp.PAPERS["a4"], 0.0, "long"))
    usable = (210 - 2 * pnp.MARGIN_MM, 297 - 2 * pnp.MARGIN_MM)
    across = -(-(400 - pnp.OVERLAP_MM) // (usable[0] - pnp.OVERLAP_MM))
    down = -(-(300 - pnp.OVERLAP_MM) // (usable[1] - pnp.OVERLAP_MM))
    assert len(pages) == across * down == 6  # 3 pages across, 2 down
    step = usable[0] - pnp.OVERLAP_MM
    xs = sorted({placed.x for fronts, _ in pages for placed in fronts})
    assert xs == pytest.approx([pnp.MARGIN_MM - k * step for k in (2, 1, 0)])
    assert all(backs is None for _, backs in pages)


def test_the_same_build_gives_the_same_bytes(prototype) -> None:
    _, items, skipped = prototype
    one = pnp.render_pdf("Meadow", items, skipped, "letter", 1.0, "short")
    assert one == pnp.render_pdf("Meadow", items, skipped, "letter", 1.0, "short")
    assert one.startswith(b"%PDF-")


def test_the_pdf_command_writes_beside_the_builds(tmp_path, capsys) -> None:
    from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run

    args = ["pdf", "prototype", "--out", str(tmp_path), "--paper", "letter", "--bleed", "1"]
    assert run(args) == EXIT_OK
    path = tmp_path / "print_and_play" / "prototype" / "print.pdf"
    assert path.read_bytes().startswith(b"%PDF-")
    assert "pieces of" in capsys.readouterr().err
    assert run(["-q", "build", "prototype", "--out", str(tmp_path)]) == EXIT_OK
    assert path.is_file()  # a build leaves it alone
    assert run(["pdf", "prototype", "--out", str(tmp_path), "--bleed", "9"]) == EXIT_BAD_INPUT
    assert run(["pdf", "no-such-game", "--out", str(tmp_path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "--bleed" in err and "no-such-game" in err and "Traceback" not in err


def test_a_tiled_board_marks_only_where_it_goes_on() -> None:
    """The last column of pages has no mark for a next page on its right."""
    board = pnp.Piece("Map", "tile", Image.new("RGB", (800, 600), "#336699"), None,
                      (400.0, 250.0), 1)  # fmt: skip
    pages = _pages(pnp.render_pdf("Map", [board], [], "a4", 0.0, "long"))[1:]
    px = DPI / 25.4
    line_x = round((210 - pnp.MARGIN_MM - pnp.OVERLAP_MM) * px)
    dashed = [min(page.crop((line_x - 1, 2, line_x + 2, 8)).convert("L").tobytes()) < 200
              for page in pages]  # fmt: skip
    assert dashed == [True, True, False]  # three pages across, one down
