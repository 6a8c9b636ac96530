"""Component art with Pillow: layouts (data) drawn to images, deck sheets, PNG bytes.

Everything here is pure (data in, image out) except the loaders: :func:`font` (the vendored
DejaVu fonts), :func:`load_art` and :class:`ArtFiles` (a game's art files).
"""

from tts_builder.render.components import (
    ArtFiles,
    DeckSheet,
    PictureStore,
    Sides,
    deck_sheets,
    layout_spec,
)
from tts_builder.render.composite import (
    D6_CELLS,
    check_die_style,
    render_die_face,
    render_die_texture,
    render_preview,
    render_thumbnail,
)
from tts_builder.render.fonts import font
from tts_builder.render.layout import (
    ELEMENTS,
    fill_template,
    fit_image,
    fit_text,
    load_art,
    render_layout,
    validate_layout,
)
from tts_builder.render.png import decode_png, encode_png, image_digest
from tts_builder.render.sheets import SheetPlan, compose_sheet, plan_sheets

__all__ = [
    "D6_CELLS",
    "ELEMENTS",
    "ArtFiles",
    "DeckSheet",
    "PictureStore",
    "SheetPlan",
    "Sides",
    "check_die_style",
    "compose_sheet",
    "deck_sheets",
    "decode_png",
    "encode_png",
    "fill_template",
    "fit_image",
    "fit_text",
    "font",
    "image_digest",
    "layout_spec",
    "load_art",
    "plan_sheets",
    "render_die_face",
    "render_die_texture",
    "render_layout",
    "render_preview",
    "render_thumbnail",
    "validate_layout",
]
