"""The vendored fonts: every machine renders text with these files and no others."""

from __future__ import annotations

import struct
from functools import lru_cache

from PIL import ImageFont

from tts_builder.bundled import FONTS_DIR
from tts_builder.errors import BuildError

FONT_DIR = FONTS_DIR
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=512)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at ``size`` px, with the basic layout engine.

    The basic engine is used even where libraqm is installed, so glyph placement does not
    depend on the machine.
    """
    if size < 1:
        raise ValueError(f"font size must be positive, got {size}")
    path = FONT_DIR / FONT_FILES[bool(bold)]
    try:
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
    except OSError as exc:
        raise BuildError(f"{path}: cannot load font ({exc})") from exc


@lru_cache(maxsize=2)
def _codepoints(bold: bool) -> frozenset[int]:
    """Every character the font file maps to a glyph; BuildError if its character map is not
    one read here."""
    path = FONT_DIR / FONT_FILES[bool(bold)]
    found = cmap_codepoints(path.read_bytes())
    if found is None:
        raise BuildError(f"{path}: cannot read its character map (a format 4 or 12 cmap)")
    return found


#: The cmap subtables fontTools' ``getBestCmap`` prefers, best first (platform, encoding).
_CMAP_PREFERENCES = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def cmap_codepoints(font_file: bytes) -> frozenset[int] | None:
    """The characters a TrueType/OpenType font maps to a glyph other than ``.notdef``, from
    its preferred cmap subtable (as fontTools' ``getBestCmap`` picks it) when that is format
    4 (16-bit segments, every font has one) or 12 (32-bit groups); None for any other format
    or a file not read as expected."""
    try:
        (tables,) = struct.unpack_from(">H", font_file, 4)
        cmap = next(
            offset
            for tag, _sum, offset, _length in (
                struct.unpack_from(">4sIII", font_file, 12 + 16 * i) for i in range(tables)
            )
            if tag == b"cmap"
        )
        _version, count = struct.unpack_from(">HH", font_file, cmap)
        subtables: dict[tuple[int, int], int] = {}
        for i in range(count):
            platform, encoding, offset = struct.unpack_from(">HHI", font_file, cmap + 4 + 8 * i)
            subtables.setdefault((platform, encoding), cmap + offset)
        best = next((subtables[key] for key in _CMAP_PREFERENCES if key in subtables), None)
        if best is None:
            return None
        form = struct.unpack_from(">H", font_file, best)[0]
        if form == 12:
            return _format12(font_file, best)
        if form == 4:
            return _format4(font_file, best)
        return None
    except (struct.error, StopIteration):
        return None


def _format12(font_file: bytes, at: int) -> frozenset[int]:
    """Format 12: groups of consecutive characters on consecutive glyphs."""
    (groups,) = struct.unpack_from(">I", font_file, at + 12)
    codes: set[int] = set()
    for i in range(groups):
        start, end, glyph = struct.unpack_from(">III", font_file, at + 16 + 12 * i)
        codes.update(range(start + (glyph == 0), end + 1))  # the group's first may be .notdef
    return frozenset(codes)


def _format4(font_file: bytes, at: int) -> frozenset[int]:
    """Format 4: segments of 16-bit characters, each a glyph by a delta or an index array."""
    (seg_x2,) = struct.unpack_from(">H", font_file, at + 6)
    segments = seg_x2 // 2
    ends = struct.unpack_from(f">{segments}H", font_file, at + 14)
    starts = struct.unpack_from(f">{segments}H", font_file, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segments}h", font_file, at + 16 + 2 * seg_x2)
    range_at = at + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{segments}H", font_file, range_at)
    codes: set[int] = set()
    for i, (start, end, delta, offset) in enumerate(
        zip(starts, ends, deltas, offsets, strict=True)
    ):
        for code in range(start, min(end, 0xFFFE) + 1):  # 0xFFFF ends the table
            if offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                where = range_at + 2 * i + offset + 2 * (code - start)
                (glyph,) = struct.unpack_from(">H", font_file, where)
                glyph = (glyph + delta) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return frozenset(codes)


def missing_glyphs(text: str, bold: bool = False) -> str:
    """The characters of ``text`` the font cannot draw (they would show as empty boxes), in
    order of first appearance; "" when it draws them all. Whitespace is layout, not ink."""
    if text.isascii():
        return ""  # DejaVu draws all of printable ASCII
    have = _codepoints(bool(bold))
    missing = dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in have)
    return "".join(missing)
