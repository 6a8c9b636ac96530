"""Component art with Pillow: layouts (data) drawn to images, deck sheets, PNG bytes.

Everything here is pure (data in, image out) except the two loaders, :func:`font` (the
vendored DejaVu fonts) and :func:`load_art` (a game's art files).
"""

from tts_builder.render.composite import (
    D6_CELLS,
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
from tts_builder.render.png import encode_png, image_digest
from tts_builder.render.sheets import SheetPlan, compose_sheet, plan_sheets

__all__ = [
    "D6_CELLS",
    "ELEMENTS",
    "SheetPlan",
    "compose_sheet",
    "encode_png",
    "fill_template",
    "fit_image",
    "fit_text",
    "font",
    "image_digest",
    "load_art",
    "plan_sheets",
    "render_die_face",
    "render_die_texture",
    "render_layout",
    "render_preview",
    "render_thumbnail",
    "validate_layout",
]
