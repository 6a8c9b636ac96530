"""Print-and-play: a game's build as a PDF a designer prints to play at a real table.

Pure: a :class:`~tts_builder.plugin.GameBuild` in, PDF bytes out (``tts-builder pdf`` writes
them). What is printed is what the build's save lays out, as TTS shows it: every card (in
decks and bags too) with its face cut from its sheet and its back, every tile and token with
both sides, each counted as often as the save holds it (an infinite bag's object once, marked).
Sizes follow the table: a portrait card prints 88 mm tall (poker size, 63.5 x 88 mm) and
everything else in proportion to it (:data:`MM_PER_UNIT`); a size TTS does not establish
(tokens) is printed as a guess and marked so on the cover.

Pages: a cover (the components and their counts, how to print), then for each size of piece
its fronts, as many as fit (poker cards 9 to an A4 page), each drawn with ``bleed`` mm of its
edge pixels repeated round it, crop marks in the margins at every trim line, and after each
page of fronts the page of their backs, placed so that they meet their fronts when the sheet
is printed double-sided and flipped on its ``duplex`` edge. A piece larger than a page (a
board) is tiled over pages that overlap by :data:`OVERLAP_MM`, each marked where the next one
starts. Made with reportlab (BSD) in its invariant mode: the same build, the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .bundled import FONTS_DIR
from .geometry import PORTRAIT_CARD, image_aspect, name_of, stretch, tile_size
from .picture import images_from_files
from .render.png import image_digest

#: Paper sizes, millimetres (width, height), portrait.
PAPERS: Mapping[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Blank margin round every page, mm: most printers cannot print closer to the edge.
MARGIN_MM = 8.0
#: A portrait card prints 88 mm tall (poker size); everything else keeps its size on the table
#: relative to the card (TTS units of about an inch: GEOMETRY.md).
MM_PER_UNIT = 88.0 / PORTRAIT_CARD[1]
#: How far a tiled board's pages overlap, mm (glue or tape along the mark).
OVERLAP_MM = 10.0
#: Crop marks: their length and their distance from the printed area, mm.
MARK_MM, MARK_GAP_MM = 5.0, 1.0
#: Points per millimetre (PDF user space).
PT = 72.0 / 25.4
#: The most bleed, mm.
MAX_BLEED_MM = 5.0
DUPLEX = ("long", "short")


@dataclass(frozen=True)
class Piece:
    """One kind of printed piece: its pictures, its size in mm (width, height), how many the
    save holds, whether that count is an infinite bag's, and whether its size is a guess."""

    name: str
    kind: str
    face: Image.Image
    back: Image.Image | None
    size: tuple[float, float]
    copies: int
    infinite: bool = False
    guessed: bool = False


def pieces(save: Mapping[str, Any], files: Mapping[str, bytes]) -> tuple[list[Piece], list[str]]:
    """Every piece the save lays out, identical ones counted together (in the order first
    met), and the names of objects not printed (dice, models)."""
    lookup = images_from_files(files)
    found: dict[tuple[Any, ...], Piece] = {}
    skipped: list[str] = []
    for obj, infinite in _objects(save.get("ObjectStates") or [], False):
        made = _piece(obj, infinite, lookup)
        if made is None:
            if name_of(obj) in SKIPPED:
                skipped.append(f"{obj.get('Nickname') or name_of(obj)} ({name_of(obj)})")
            continue
        back = image_digest(made.back) if made.back is not None else ""
        key = (made.kind, image_digest(made.face), back, made.size, made.infinite)
        if key in found:
            old = found[key]
            found[key] = Piece(**{**old.__dict__, "copies": old.copies + made.copies})
        else:
            found[key] = made
    return list(found.values()), sorted(set(skipped))


#: Objects that are printed nowhere: they are noted on the cover.
SKIPPED = frozenset({"Custom_Dice", "Custom_Model", "Die_6", "Die_Piecepack"})


def _objects(objects: list[Any], infinite: bool) -> Iterator[tuple[Mapping[str, Any], bool]]:
    """Every object, depth first, with whether it is an infinite bag's (printed once)."""
    for obj in objects:
        if not isinstance(obj, Mapping):
            continue
        yield obj, infinite
        inner = infinite or name_of(obj) == "Infinite_Bag"
        yield from _objects(obj.get("ContainedObjects") or [], inner)


def _piece(obj: Mapping[str, Any], infinite: bool, lookup: Any) -> Piece | None:
    name = name_of(obj)
    scale = obj.get("Transform") or {}
    sx, sz = float(scale.get("scaleX", 1.0)), float(scale.get("scaleZ", 1.0))
    label = str(obj.get("Nickname") or name)
    if name in ("Card", "CardCustom"):
        cut = _card(obj, lookup)
        if cut is None:
            return None
        face, back = cut
        width, height = PORTRAIT_CARD
        size = (width * sx * MM_PER_UNIT, height * sz * MM_PER_UNIT)
        return Piece(label, "card", face, back, _rounded(size), 1, infinite)
    if name in ("Custom_Tile", "Custom_Token"):
        image = obj.get("CustomImage") or {}
        face = lookup(str(image.get("ImageURL") or ""))
        if face is None:
            return None
        second = image.get("ImageSecondaryURL")
        back = lookup(str(second)) if second else None
        aspect = image_aspect(face.size) or 1.0
        if name == "Custom_Tile":
            width, height = tile_size(aspect, stretch(obj))
            guessed = False
        else:  # a token's size is not established: as a tile of its picture [guess]
            width, height = tile_size(aspect)
            guessed = True
        size = (width * sx * MM_PER_UNIT, height * sz * MM_PER_UNIT)
        kind = "tile" if name == "Custom_Tile" else "token"
        return Piece(label, kind, face.convert("RGB"), back and back.convert("RGB"),
                     _rounded(size), 1, infinite, guessed)  # fmt: skip
    return None


def _rounded(size: tuple[float, float]) -> tuple[float, float]:
    return round(size[0], 2), round(size[1], 2)


def _card(obj: Mapping[str, Any], lookup: Any) -> tuple[Image.Image, Image.Image | None] | None:
    """A card's face, cut from its deck sheet, and its back."""
    decks = obj.get("CustomDeck") or {}
    card_id = obj.get("CardID")
    if not isinstance(card_id, int):
        return None
    deck = decks.get(str(card_id // 100))
    if not isinstance(deck, Mapping):
        return None
    sheet = lookup(str(deck.get("FaceURL") or ""))
    if sheet is None:
        return None
    columns, rows = int(deck.get("NumWidth") or 10), int(deck.get("NumHeight") or 7)
    index = card_id % 100
    face = _cell(sheet, columns, rows, index)
    back_sheet = lookup(str(deck.get("BackURL") or ""))
    if back_sheet is None:
        return face, None
    back = _cell(back_sheet, columns, rows, index) if deck.get("UniqueBack") else back_sheet
    return face, back.convert("RGB")


def _cell(sheet: Image.Image, columns: int, rows: int, index: int) -> Image.Image:
    width, height = sheet.width / columns, sheet.height / rows
    col, row = index % columns, index // columns
    box = (round(col * width), round(row * height), round((col + 1) * width),
           round((row + 1) * height))  # fmt: skip
    return sheet.crop(box).convert("RGB")


def with_bleed(img: Image.Image, pixels: int) -> Image.Image:
    """``img`` with ``pixels`` of its edge pixels repeated on every side (the bleed)."""
    if pixels <= 0:
        return img
    w, h = img.size
    out = Image.new(img.mode, (w + 2 * pixels, h + 2 * pixels))
    out.paste(img, (pixels, pixels))
    edges = [
        ((0, 0, w, 1), (pixels, 0, pixels + w, pixels)),
        ((0, h - 1, w, h), (pixels, pixels + h, pixels + w, h + 2 * pixels)),
        ((0, 0, 1, h), (0, pixels, pixels, pixels + h)),
        ((w - 1, 0, w, h), (pixels + w, pixels, w + 2 * pixels, pixels + h)),
        ((0, 0, 1, 1), (0, 0, pixels, pixels)),
        ((w - 1, 0, w, 1), (pixels + w, 0, w + 2 * pixels, pixels)),
        ((0, h - 1, 1, h), (0, pixels + h, pixels, h + 2 * pixels)),
        ((w - 1, h - 1, w, h), (pixels + w, pixels + h, w + 2 * pixels, h + 2 * pixels)),
    ]
    for source, target in edges:
        size = (target[2] - target[0], target[3] - target[1])
        out.paste(img.crop(source).resize(size, Image.Resampling.NEAREST), target[:2])
    return out


# --------------------------------------------------------------------------------------------
# Pages


@dataclass(frozen=True)
class Placed:
    """A piece's picture at a trim box on a page (mm from the page's top left)."""

    image: Image.Image | None
    x: float
    y: float
    w: float
    h: float


def _grid(paper: tuple[float, float], size: tuple[float, float], bleed: float) -> tuple[int, int]:
    """How many pieces of ``size`` (with their bleed) fit across and down a page."""
    usable_w, usable_h = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM
    return int(usable_w // (size[0] + 2 * bleed)), int(usable_h // (size[1] + 2 * bleed))


def sheets(
    items: list[Piece], paper: tuple[float, float], bleed: float, duplex: str
) -> Iterator[tuple[list[Placed], list[Placed] | None]]:
    """Pages of fronts, each with the page of its backs (None: no piece on it has a back)
    placed to meet the fronts when flipped on the ``duplex`` edge."""
    groups: dict[tuple[float, float], list[Piece]] = {}
    for item in items:
        groups.setdefault(item.size, []).append(item)
    for size, group in groups.items():
        across, down = _grid(paper, size, bleed)
        if across == 0 or down == 0:
            for item in group:
                yield from _tiled(item, paper)
            continue
        copies = [item for item in group for _ in range(1 if item.infinite else item.copies)]
        per_page = across * down
        cell_w, cell_h = size[0] + 2 * bleed, size[1] + 2 * bleed
        left = (paper[0] - across * cell_w) / 2 + bleed
        top = (paper[1] - down * cell_h) / 2 + bleed
        for start in range(0, len(copies), per_page):
            fronts, backs = [], []
            for k, item in enumerate(copies[start : start + per_page]):
                col, row = k % across, k // across
                x, y = left + col * cell_w, top + row * cell_h
                fronts.append(Placed(item.face, x, y, *size))
                if duplex == "long":
                    x = paper[0] - x - size[0]
                else:
                    y = paper[1] - y - size[1]
                backs.append(Placed(item.back, x, y, *size))
            has_back = any(placed.image is not None for placed in backs)
            yield fronts, backs if has_back else None


def _tiled(item: Piece, paper: tuple[float, float]) -> Iterator[tuple[list[Placed], None]]:
    """A piece larger than a page over as many pages as it needs, overlapping: each page a
    window onto the whole piece (its picture placed off the page where it continues)."""
    usable_w, usable_h = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM
    w, h = item.size
    step_w, step_h = usable_w - OVERLAP_MM, usable_h - OVERLAP_MM
    columns = max(1, -(-int((w - OVERLAP_MM) * 100) // int(step_w * 100)))
    rows = max(1, -(-int((h - OVERLAP_MM) * 100) // int(step_h * 100)))
    for side in (item.face, item.back):
        if side is None:
            continue
        for _ in range(1 if item.infinite else item.copies):
            for row in range(rows):
                for col in range(columns):
                    x = MARGIN_MM - col * step_w
                    y = MARGIN_MM - row * step_h
                    yield [Placed(side, x, y, w, h)], None


def render_pdf(
    title: str,
    items: list[Piece],
    skipped: list[str],
    paper: str = "a4",
    bleed: float = 0.0,
    duplex: str = "long",
) -> bytes:
    """The print-and-play PDF of ``items`` (see the module's docstring)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    size = PAPERS[paper]
    if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont("DejaVu", str(FONTS_DIR / "DejaVuSans.ttf")))
    out = io.BytesIO()
    pdf = Canvas(out, pagesize=(size[0] * PT, size[1] * PT), invariant=1, pageCompression=1)
    pdf.setTitle(f"{title}: print and play")
    pdf.setCreator("tts-builder")
    _cover(pdf, title, items, skipped, size, paper, bleed, duplex)
    readers: dict[int, Any] = {}

    def draw(placed: list[Placed], marks: bool) -> None:
        for p in placed:
            if p.image is None:
                continue
            if marks and bleed:
                pixels = round(bleed * p.image.width / p.w)
                img = with_bleed(p.image, pixels)
                x, y, w, h = p.x - bleed, p.y - bleed, p.w + 2 * bleed, p.h + 2 * bleed
            else:
                img, (x, y, w, h) = p.image, (p.x, p.y, p.w, p.h)
            reader = readers.setdefault(id(img), (ImageReader(img), img))[0]
            pdf.drawImage(reader, x * PT, (size[1] - y - h) * PT, w * PT, h * PT)
        if marks:
            _crop_marks(pdf, placed, size, bleed)
        else:
            _overlap_marks(pdf, size, placed[0])
        pdf.showPage()

    for fronts, backs in sheets(items, size, bleed, duplex):
        tiled = len(fronts) == 1 and (fronts[0].x < MARGIN_MM or fronts[0].y < MARGIN_MM
                                      or fronts[0].w > size[0] - 2 * MARGIN_MM)  # fmt: skip
        draw(fronts, marks=not tiled)
        if backs is not None:
            draw(backs, marks=True)
    pdf.save()
    return out.getvalue()


def _crop_marks(pdf: Any, placed: list[Placed], size: tuple[float, float], bleed: float) -> None:
    """Lines in the margins along every trim edge (cut there, through the whole sheet)."""
    pdf.setLineWidth(0.25)
    xs = sorted({round(v, 3) for p in placed for v in (p.x, p.x + p.w)})
    ys = sorted({round(v, 3) for p in placed for v in (p.y, p.y + p.h)})
    top = min(p.y for p in placed) - bleed - MARK_GAP_MM
    bottom = max(p.y + p.h for p in placed) + bleed + MARK_GAP_MM
    left = min(p.x for p in placed) - bleed - MARK_GAP_MM
    right = max(p.x + p.w for p in placed) + bleed + MARK_GAP_MM
    for x in xs:
        for y0, y1 in ((top, top - MARK_MM), (bottom, bottom + MARK_MM)):
            pdf.line(x * PT, (size[1] - y0) * PT, x * PT, (size[1] - y1) * PT)
    for y in ys:
        for x0, x1 in ((left, left - MARK_MM), (right, right + MARK_MM)):
            pdf.line(x0 * PT, (size[1] - y) * PT, x1 * PT, (size[1] - y) * PT)


def _overlap_marks(pdf: Any, size: tuple[float, float], window: Placed) -> None:
    """On a tiled page: dashed lines where the next page's picture starts (glue along them),
    where the piece goes on past this page."""
    pdf.setLineWidth(0.4)
    pdf.setDash(3, 3)
    right = size[0] - MARGIN_MM - OVERLAP_MM
    bottom = size[1] - MARGIN_MM - OVERLAP_MM
    if window.x + window.w > size[0] - MARGIN_MM + 0.01:
        pdf.line(right * PT, 0, right * PT, size[1] * PT)
    if window.y + window.h > size[1] - MARGIN_MM + 0.01:
        pdf.line(0, (size[1] - bottom) * PT, size[0] * PT, (size[1] - bottom) * PT)
    pdf.setDash()


def _cover(
    pdf: Any,
    title: str,
    items: list[Piece],
    skipped: list[str],
    size: tuple[float, float],
    paper: str,
    bleed: float,
    duplex: str,
) -> None:
    lines = [
        f"Print at 100 % (no 'fit to page') on {paper.upper()}, double-sided, flipped on the "
        f"{duplex} edge: each page of backs follows its page of fronts.",
        f"Cut along the crop marks{f' (bleed {bleed:g} mm)' if bleed else ''}; glue boards "
        f"printed over several pages along the dashed lines ({OVERLAP_MM:g} mm overlap).",
        "",
        "Components (as the Tabletop Simulator save lays them out):",
    ]
    for item in items:
        count = "1 (an infinite supply in TTS: print as many as you need)" if item.infinite \
            else str(item.copies)  # fmt: skip
        guess = " [size guessed]" if item.guessed else ""
        sides = "two-sided" if item.back is not None else "one side"
        lines.append(
            f"  {item.name}: {count} x {item.kind}, {item.size[0]:g} x {item.size[1]:g} mm, "
            f"{sides}{guess}"
        )
    if skipped:
        lines += ["", "Not printed: " + ", ".join(skipped)]
    pdf.setFont("DejaVu", 18)
    pdf.drawString(MARGIN_MM * PT, (size[1] - MARGIN_MM - 8) * PT, f"{title}: print and play")
    pdf.setFont("DejaVu", 8)
    y = MARGIN_MM + 18
    for line in lines:
        for part in _wrap(line, 110):
            pdf.drawString(MARGIN_MM * PT, (size[1] - y) * PT, part)
            y += 4.2
            if y > size[1] - MARGIN_MM:
                pdf.showPage()
                pdf.setFont("DejaVu", 8)
                y = MARGIN_MM
    pdf.showPage()


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most about ``width`` characters, its indent kept and the
    continuation lines indented further."""
    indent = text[: len(text) - len(text.lstrip(" "))]
    lines, line = [], indent
    for word in text.split():
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = indent + "    " + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    return [*lines, line]
