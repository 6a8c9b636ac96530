"""Pictures made of other pictures: the save thumbnail, the designer's preview sheet and
custom d6 textures. Each is built as a layout (data) and drawn by the layout engine."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from tts_builder.errors import FieldError
from tts_builder.render.layout import (
    VALUE_CHECKS,
    fit_image,
    fit_size_of,
    render_layout,
)

THUMB_BG = "#2b4162"
THUMB_TEXT = "#f1d18a"
PREVIEW_BG = "#d8d8d8"
PREVIEW_TEXT = "#1d1d1d"

# d6 texture (dice/README.md): face -> (column, row, drawn upside down) on the 3×3 grid.
D6_CELLS: dict[int, tuple[int, int, bool]] = {
    2: (0, 1, False),
    4: (1, 1, False),
    5: (2, 1, False),
    1: (0, 2, True),
    3: (1, 2, False),
    6: (2, 2, True),
}
# style key -> (kind, default); text_size None means "about half the cell".
DIE_STYLE: dict[str, tuple[str, object]] = {
    "size": ("positive", 768),
    "background": ("color", "#d9d9d9"),
    "fill": ("color", "#ffffff"),
    "outline": ("color", "#4a4a4a"),
    "width": ("positive", 6),
    "radius": ("nonnegative", 28),
    "color": ("color", "#3a3a3a"),
    "bold": ("bool", True),
    "text_size": ("positive", None),
}


def _fan_card_box(size: tuple[int, int]) -> tuple[int, int]:
    """The box each picture of a fan of ``size`` is fitted into before it is turned."""
    return round(size[0] * 0.5), round(size[1] * 0.82)


def _thumbnail_bands(size: tuple[int, int]) -> tuple[int, list[int]]:
    """The height of a thumbnail's title band and the box of its fan."""
    w, h = size
    band = round(h * 0.28)
    return band, [0, round(h * 0.03), w, h - band]


def _fan(images: list[Image.Image], size: tuple[int, int], max_cards: int = 5) -> Image.Image:
    """Up to ``max_cards`` pictures fanned like a hand of cards, on a transparent canvas."""
    w, h = size
    layer = Image.new("RGBA", size, (0, 0, 0, 0))
    shown = images[:max_cards]
    n = len(shown)
    for i, img in enumerate(shown):
        offset = i - (n - 1) / 2
        angle = -14 * offset
        card = fit_image(img, _fan_card_box(size)).rotate(
            angle, resample=Image.Resampling.BICUBIC, expand=True
        )
        x = round(w / 2 + offset * w * 0.13 - card.width / 2)
        y = round(h / 2 + abs(offset) * h * 0.04 - card.height / 2)
        layer.alpha_composite(card, dest=(x, y))
    return layer


def render_thumbnail(
    title: str, images: list[Image.Image], size: tuple[int, int] = (256, 256)
) -> Image.Image:
    """The save thumbnail (RGB): up to five component pictures fanned above the game title."""
    w, h = size
    band, art_box = _thumbnail_bands(size)
    layout = [
        {"type": "rect", "box": [0, 0, w, h], "fill": THUMB_BG},
        {"type": "image", "src": "fan", "box": art_box},
        {"type": "rect", "box": [0, h - band, w, h], "fill": "#1d2b42"},
        {"type": "rect", "box": [0, h - band, w, h - band + 3], "fill": THUMB_TEXT},
        {
            "type": "text",
            "text": "{title}",
            "box": [round(w * 0.05), h - band + 8, round(w * 0.95), h - 6],
            "size": max(1, round(band * 0.6)),
            "bold": True,
            "color": THUMB_TEXT,
        },
    ]
    fan = _fan(images, (art_box[2] - art_box[0], art_box[3] - art_box[1]))
    background = Image.new("RGB", size, THUMB_BG)  # the first element, opaque: drawn as RGB
    return render_layout(layout, size, {"title": title}, lambda _src: fan, where="thumbnail",
                         canvas=background)  # fmt: skip


PREVIEW_PAD, PREVIEW_LABEL_H = 16, 40
#: The preview of a big deck shrinks its cells to stay within this many pixels (96 MB as RGBA).
PREVIEW_MAX_PIXELS = 24_000_000


def _preview_size(cols: int, rows: int, cw: int, ch: int) -> tuple[int, int]:
    pad = PREVIEW_PAD
    return pad + cols * (cw + pad), pad + rows * (ch + PREVIEW_LABEL_H + pad)


def preview_cell_limit(count: int, columns: int, cell_max: int) -> int:
    """The largest cell side (at most ``cell_max``) keeping a preview of ``count`` items within
    :data:`PREVIEW_MAX_PIXELS`."""
    cols = min(columns, count)
    rows = -(-count // cols)
    side = cell_max
    while side > 16:
        w, h = _preview_size(cols, rows, side, side)
        if w * h <= PREVIEW_MAX_PIXELS:
            break
        side = max(16, side * 9 // 10)
    return side


def fit_size(size: tuple[int, int], box_size: tuple[int, int]) -> tuple[int, int]:
    """The size :func:`~tts_builder.render.layout.fit_image` gives a picture of ``size``."""
    return fit_size_of(size, box_size)


@dataclass(frozen=True)
class PreviewPlan:
    """Where a preview's items go: cell size, grid, sheet size and each item's shown size."""

    limit: int
    cell_max: int
    cell: tuple[int, int]
    columns: int
    rows: int
    size: tuple[int, int]
    shown: tuple[tuple[int, int], ...]


def plan_preview(
    sizes: Sequence[tuple[int, int]], columns: int, cell_max: int = 600
) -> PreviewPlan:
    """The :class:`PreviewPlan` of items of ``sizes`` (see :func:`render_preview`)."""
    if not sizes:
        raise ValueError("nothing to preview")
    if columns < 1:
        raise ValueError(f"columns must be >= 1, got {columns}")
    limit = preview_cell_limit(len(sizes), columns, cell_max)
    big = limit < cell_max
    shown = tuple(
        fit_size(s, (limit, limit)) if big and (s[0] > limit or s[1] > limit) else s for s in sizes
    )
    cw = min(limit, max(w for w, _h in shown))
    ch = min(limit, max(h for _w, h in shown))
    cols = min(columns, len(sizes))
    rows = -(-len(sizes) // cols)
    size = _preview_size(cols, rows, cw, ch)
    return PreviewPlan(limit, cell_max, (cw, ch), cols, rows, size, shown)


def preview_cell_layout(plan: PreviewPlan, index: int) -> list[dict]:
    """The image and label elements of item ``index`` (its picture is src ``str(index)``, its
    label field ``label<index>``)."""
    pad, label_h = PREVIEW_PAD, PREVIEW_LABEL_H
    (cw, ch), cols = plan.cell, plan.columns
    x = pad + (index % cols) * (cw + pad)
    y = pad + (index // cols) * (ch + label_h + pad)
    w, h = plan.shown[index]
    scale = min(1.0, cw / w, ch / h)
    iw, ih = max(1, round(w * scale)), max(1, round(h * scale))
    ix, iy = x + (cw - iw) // 2, y + (ch - ih) // 2
    return [
        {"type": "image", "src": str(index), "box": [ix, iy, ix + iw, iy + ih]},
        {
            "type": "text",
            "text": f"{{label{index}}}",
            "box": [x, y + ch + 4, x + cw, y + ch + label_h],
            "size": 22,
            "color": PREVIEW_TEXT,
        },
    ]


def shrink(img: Image.Image, limit: int, cell_max: int) -> Image.Image:
    """An item's picture as a preview with cells of at most ``limit`` px shows it."""
    if limit < cell_max and (img.width > limit or img.height > limit):
        return fit_image(img, (limit, limit))
    return img


def preview_picture(plan: PreviewPlan, img: Image.Image) -> Image.Image:
    """An item's picture as the preview of ``plan`` shows it."""
    return shrink(img, plan.limit, plan.cell_max)


def render_preview(
    items: Sequence[tuple[str, Image.Image | Callable[[], Image.Image]]],
    columns: int,
    cell_max: int = 600,
) -> Image.Image:
    """A labelled contact sheet (RGB) of ``items`` in rows of ``columns``.

    Every cell is as big as the largest item (at most ``cell_max`` px a side, less for so
    many items that the sheet would pass :data:`PREVIEW_MAX_PIXELS`); pictures are never
    enlarged, only shrunk to fit, and each is labelled underneath. An item's picture may be
    a function making it: each is then made and shrunk in turn, so a deck of hundreds of
    cards never sits in memory at full size.
    """
    if not items:
        raise ValueError("nothing to preview")
    if columns < 1:
        raise ValueError(f"columns must be >= 1, got {columns}")
    limit = preview_cell_limit(len(items), columns, cell_max)
    made = [(label, shrink(picture() if callable(picture) else picture, limit, cell_max))
            for label, picture in items]  # fmt: skip
    plan = plan_preview([img.size for _label, img in made], columns, cell_max)
    layout: list[dict] = [{"type": "rect", "box": [0, 0, *plan.size], "fill": PREVIEW_BG}]
    fields: dict[str, object] = {}
    pictures: dict[str, Image.Image] = {}
    for i, (label, img) in enumerate(made):
        pictures[str(i)] = preview_picture(plan, img)
        fields[f"label{i}"] = label
        layout += preview_cell_layout(plan, i)
    return render_layout(layout, plan.size, fields, pictures.__getitem__, where="preview",
                         canvas=Image.new("RGB", plan.size, PREVIEW_BG))  # fmt: skip


def _die_style(style: Mapping[str, object], where: str) -> dict[str, Any]:
    """``style`` checked against :data:`DIE_STYLE`, with defaults filled in."""
    if not isinstance(style, Mapping):
        raise FieldError(where, f"expected a mapping, got {style!r}")
    for key, value in style.items():
        if key not in DIE_STYLE:
            allowed = ", ".join(sorted(DIE_STYLE))
            raise FieldError(f"{where}.{key}", f"unknown die style key (allowed: {allowed})")
        kind = DIE_STYLE[key][0]
        if kind == "color" and isinstance(value, str) and "{" in value:
            problem = f"expected a colour '#rrggbb', got {value!r}"
        else:
            problem = VALUE_CHECKS[kind](value, None)
        if problem:
            raise FieldError(f"{where}.{key}", problem)
    out = {key: style.get(key, default) for key, (_kind, default) in DIE_STYLE.items()}
    if out["size"] < 48:
        raise FieldError(f"{where}.size", f"expected at least 48 px, got {out['size']}")
    return out


def check_die_style(style: Any, where: str = "die.style") -> None:
    """Raise the :class:`FieldError` (at ``where.<key>``) that drawing a die of ``style`` would
    raise, without drawing anything (for a definition's schema)."""
    _die_style(style, where)


def render_die_face(
    label: str, style: Mapping[str, object], where: str = "die.style"
) -> Image.Image:
    """One upright d6 face (RGB, a third of the texture a side) showing ``label``."""
    st = _die_style(style, where)
    c = st["size"] // 3
    m = max(2, c // 24)
    inner = min(m + st["width"] + max(2, c // 16), c // 3)
    layout = [
        {"type": "rect", "box": [0, 0, c, c], "fill": st["background"]},
        {
            "type": "rect",
            "box": [m, m, c - m, c - m],
            "fill": st["fill"],
            "outline": st["outline"],
            "width": st["width"],
            "radius": min(st["radius"], c // 2 - m),
        },
        {
            "type": "text",
            "text": "{label}",
            "box": [inner, inner, c - inner, c - inner],
            "size": st["text_size"] or max(1, round(c * 0.55)),
            "bold": st["bold"],
            "color": st["color"],
        },
    ]
    opaque = len(str(st["background"])) == 7 or str(st["background"]).lower().endswith("ff")
    # an opaque first element covering the canvas: drawn as RGB from the start
    background = Image.new("RGB", (c, c), str(st["background"])[:7]) if opaque else None
    img = render_layout(layout, (c, c), {"label": label}, where=where, canvas=background)
    return img if opaque else img.convert("RGB")


def render_die_texture(
    faces: list[str], style: Mapping[str, object], where: str = "die"
) -> Image.Image:
    """A custom d6 texture (RGB) on TTS's 3×3 layout; ``faces[k]`` is the label of face k+1.

    The texture is ``style["size"]`` px a side, rounded down to a multiple of 3. The top row
    is unused; the middle row holds faces 2, 4, 5 and the bottom row 1, 3, 6, with 1 and 6
    upside down (see :data:`D6_CELLS`).
    """
    if not isinstance(faces, list) or len(faces) != 6:
        got = len(faces) if isinstance(faces, list) else repr(faces)
        raise FieldError(f"{where}.faces", f"a d6 needs 6 face labels, got {got}")
    st = _die_style(style, f"{where}.style")
    c = st["size"] // 3
    texture = Image.new("RGB", (3 * c, 3 * c), str(st["background"]))
    drawn: dict[str, Image.Image] = {}  # a label on several faces is drawn once
    for face, (col, row, upside_down) in D6_CELLS.items():
        label = str(faces[face - 1])
        if label not in drawn:
            drawn[label] = render_die_face(label, style, f"{where}.style")
        cell = drawn[label]
        if upside_down:
            cell = cell.transpose(Image.Transpose.ROTATE_180)
        texture.paste(cell, (col * c, row * c))
    return texture
