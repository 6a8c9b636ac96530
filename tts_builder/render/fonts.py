"""The vendored fonts: every machine renders text with these files and no others."""

from __future__ import annotations

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
    """Every character the font file maps to a glyph (its best cmap)."""
    from fontTools.ttLib import TTFont

    path = FONT_DIR / FONT_FILES[bool(bold)]
    with TTFont(str(path), lazy=True) as face:
        return frozenset(face.getBestCmap())


def missing_glyphs(text: str, bold: bool = False) -> str:
    """The characters of ``text`` the font cannot draw (they would show as empty boxes), in
    order of first appearance; "" when it draws them all. Whitespace is layout, not ink."""
    if text.isascii():
        return ""  # DejaVu draws all of printable ASCII
    have = _codepoints(bool(bold))
    missing = dict.fromkeys(c for c in text if not c.isspace() and ord(c) not in have)
    return "".join(missing)
