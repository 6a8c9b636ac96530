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
    """Every character the font file maps to a glyph (its best cmap, as fontTools'
    ``getBestCmap`` picks it; read here when that is a format 12 table, as in the vendored
    fonts: importing fontTools and reading the whole table costs about 0.08 s a process)."""
    path = FONT_DIR / FONT_FILES[bool(bold)]
    found = _format12_codepoints(path.read_bytes())
    if found is not None:
        return found
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as face:
        return frozenset(face.getBestCmap())


#: The cmap subtables fontTools' ``getBestCmap`` prefers, best first (platform, encoding).
_CMAP_PREFERENCES = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))


def _format12_codepoints(font_file: bytes) -> frozenset[int] | None:
    """The characters of the font's preferred cmap subtable if that is format 12 (groups of
    consecutive characters), else None (or for a file that is not read as expected)."""
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
        if best is None or struct.unpack_from(">H", font_file, best)[0] != 12:
            return None
        (groups,) = struct.unpack_from(">I", font_file, best + 12)
        codes: set[int] = set()
        for i in range(groups):
            start, end, _glyph = struct.unpack_from(">III", font_file, best + 16 + 12 * i)
            codes.update(range(start, end + 1))
        return frozenset(codes)
    except (struct.error, StopIteration):
        return None


def missing_glyphs(text: str, bold: bool = False) -> str:
    """The characters of ``text`` the font cannot draw (they would show as empty boxes), in
    order of first appearance; "" when it draws them all. Whitespace is layout, not ink."""
    if text.isascii():
        return ""  # DejaVu draws all of printable ASCII
    have = _codepoints(bool(bold))
    missing = dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in have)
    return "".join(missing)
