"""The layout engine: a component side is a list of drawing elements (data), drawn in order.

Element types and their keys are described by :data:`ELEMENTS`; a new key needs an entry
there, a checker in :data:`VALUE_CHECKS` and its use in one drawing function. Validation
(:func:`validate_layout`) is apart from drawing (:func:`render_layout`), which is pure: art
comes through the caller's ``images`` loader (art files: :mod:`tts_builder.render.art_file`).

Conventions: a box is ``[x0, y0, x1, y1]`` in pixels with the end exclusive, so
``[0, 0, w, h]`` is the whole canvas. Strings of ``text``, ``src`` and colours may hold
``{field}`` templates filled from the component's fields. A ``repeat`` draws its own
``elements`` once per item of a list field (or ``count`` times), each copy moved by a ``step``
along a line or over a grid and filled with the item's fields (:func:`repeat_copies`).
Shapes are drawn 4× supersampled and text through a coverage mask, so edges are antialiased
and nothing is drawn outside an element's box.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from tts_builder.errors import BuildError, FieldError
from tts_builder.render.art_file import (  # noqa: F401 - importable from here as before
    art_path,
    decode_art,
    load_art,
)
from tts_builder.render.fonts import font, missing_glyphs

Box = tuple[int, int, int, int]
ImageLoader = Callable[[str], Image.Image]

# type -> key -> (kind, default); a default of REQUIRED marks a key that must be given.
REQUIRED = object()
ELEMENTS: dict[str, dict[str, tuple[str, Any]]] = {
    "rect": {
        "box": ("box", REQUIRED),
        "fill": ("color", None),
        "outline": ("color", None),
        "width": ("positive", 2),
        "radius": ("nonnegative", 0),
    },
    "ellipse": {
        "box": ("box", REQUIRED),
        "fill": ("color", None),
        "outline": ("color", None),
        "width": ("positive", 2),
    },
    "image": {
        "src": ("template", REQUIRED),
        "box": ("box", REQUIRED),
    },
    "text": {
        "text": ("text", REQUIRED),
        "box": ("box", REQUIRED),
        "size": ("font_size", 32),
        "bold": ("bool", False),
        "color": ("color", "#000000"),
        "align": ("align", "center"),
    },
    "repeat": {
        "elements": ("elements", REQUIRED),
        "step": ("step", REQUIRED),
        "over": ("field", None),
        "count": ("positive", None),
        "columns": ("positive", None),
        "every": ("positive", 1),
        "start": ("nonnegative", 0),
    },
}
ALIGNS = ("left", "center", "right")
SUPERSAMPLE = 4
LINE_PITCH = 1.12  # line distance in em for wrapped text
_COLOR = re.compile(r"#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?")
_FORMATTER = string.Formatter()
#: The largest text size (px; drawn at SUPERSAMPLE times that): far past any card's text,
#: well inside what FreeType renders.
MAX_FONT_SIZE = 1000
#: The largest whole number a layout takes (a line width, a repeat's count or step of items):
#: beyond any picture, and no loop runs a billion times.
MAX_LAYOUT_INT = 100_000
#: The widest a ``{field:...}`` format may pad or cut (``{name:>20}``).
MAX_FORMAT_WIDTH = 200


def _show(value: object) -> str:
    """A short repr of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def template_fields(text: str) -> list[str]:
    """Field names used by a ``{field}`` template; raises ValueError for a bad template."""
    names = []
    for _literal, name, spec, _conv in _FORMATTER.parse(text):
        if name is None:
            continue
        if not name.isidentifier():
            raise ValueError(f"bad template field {{{name}}}: use a plain {{name}}")
        if spec and ("{" in spec or "}" in spec):
            raise ValueError(f"nested template in {{{name}:{spec}}} is not allowed")
        if spec and max(map(int, re.findall(r"\d+", spec)), default=0) > MAX_FORMAT_WIDTH:
            raise ValueError(
                f"{{{name}:{spec[:20]}}}: a format width is at most {MAX_FORMAT_WIDTH} characters"
            )
        names.append(name)
    return names


def fill_template(text: str, fields: Mapping[str, object], field: str) -> str:
    """``text`` with its ``{field}`` templates filled; FieldError at ``field`` if one fails."""
    try:
        names = template_fields(text)
    except ValueError as exc:
        raise FieldError(field, str(exc)) from exc
    unknown = [n for n in names if n not in fields]
    if unknown:
        known = ", ".join(sorted(fields)) or "none"
        raise FieldError(field, f"unknown field {{{unknown[0]}}} (known: {known})")
    try:
        return text.format_map({n: fields[n] for n in names})
    except (ValueError, TypeError) as exc:
        raise FieldError(field, f"cannot fill template {_show(text)}: {exc}") from exc


# ----------------------------------------------------------------------------- validation


def _check_box(value: object, size: tuple[int, int] | None) -> str | None:
    if not (isinstance(value, list | tuple) and len(value) == 4 and all(map(_is_int, value))):
        return f"expected 4 integers [x0, y0, x1, y1], got {_show(value)}"
    x0, y0, x1, y1 = value
    if not (x0 < x1 and y0 < y1):
        return f"expected x0 < x1 and y0 < y1, got {list(value)}"
    if size is not None and not (x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1]):
        return f"box {list(value)} is not inside the {size[0]}x{size[1]} canvas"
    return None


def _check_template(value: object) -> str | None:
    if not isinstance(value, str):
        return f"expected a string, got {_show(value)}"
    try:
        template_fields(value)
    except ValueError as exc:
        return str(exc)
    return None


def _check_text(value: object) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return None
    return _check_template(value)


def _check_color(value: object) -> str | None:
    if isinstance(value, str) and "{" in value:
        return _check_template(value)
    if isinstance(value, str) and _COLOR.fullmatch(value):
        return None
    return f"expected a colour '#rrggbb' or a {{field}} template, got {_show(value)}"


def _check_int(value: object, low: int, high: int = MAX_LAYOUT_INT) -> str | None:
    if _is_int(value) and low <= value <= high:
        return None
    what = "an integer from 1" if low > 0 else "an integer from 0"
    return f"expected {what} to {high:,}, got {_show(value)}"


def _check_step(value: object) -> str | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_int, value)):
        return None
    return f"expected 2 integers [dx, dy], got {_show(value)}"


def _check_field(value: object) -> str | None:
    if isinstance(value, str) and value.isidentifier():
        return None
    return f"expected the name of a field (a plain name, no braces), got {_show(value)}"


VALUE_CHECKS: dict[str, Callable[[object, tuple[int, int] | None], str | None]] = {
    "box": _check_box,
    "step": lambda v, _s: _check_step(v),
    "field": lambda v, _s: _check_field(v),
    "elements": lambda v, _s: (
        None if isinstance(v, list) and v else f"expected a list of elements, got {_show(v)}"
    ),
    "color": lambda v, _s: _check_color(v),
    "template": lambda v, _s: _check_template(v),
    "text": lambda v, _s: _check_text(v),
    "positive": lambda v, _s: _check_int(v, 1),
    "font_size": lambda v, _s: _check_int(v, 1, MAX_FONT_SIZE),
    "nonnegative": lambda v, _s: _check_int(v, 0),
    "bool": lambda v, _s: (
        None if isinstance(v, bool) else f"expected true or false, got {_show(v)}"
    ),
    "align": lambda v, _s: (
        None if v in ALIGNS else f"expected left, center or right, got {_show(v)}"
    ),
}


def validate_layout(elements: list, where: str, size: tuple[int, int] | None = None) -> None:
    """Raise FieldError at ``where[i].key`` for the first bad element; boxes are checked
    against the canvas when ``size`` is given."""
    if not isinstance(elements, list):
        raise FieldError(where, f"expected a list of drawing elements, got {_show(elements)}")
    for i, element in enumerate(elements):
        path = f"{where}[{i}]"
        if not isinstance(element, dict):
            raise FieldError(path, f"expected a mapping with a 'type', got {_show(element)}")
        kind = element.get("type")
        if not isinstance(kind, str) or kind not in ELEMENTS:
            choices = ", ".join(sorted(ELEMENTS))
            got = "nothing" if kind is None else _show(kind)
            raise FieldError(f"{path}.type", f"expected one of {choices}, got {got}")
        spec = ELEMENTS[kind]
        for key, value in element.items():
            if key == "type":
                continue
            if key not in spec:
                allowed = ", ".join(sorted(spec))
                raise FieldError(f"{path}.{key}", f"unknown key for a {kind} (allowed: {allowed})")
            problem = VALUE_CHECKS[spec[key][0]](value, size)
            if problem:
                raise FieldError(f"{path}.{key}", problem)
        for key, (_kind, default) in spec.items():
            if default is REQUIRED and key not in element:
                raise FieldError(f"{path}.{key}", f"missing: a {kind} needs {key}")
        if kind == "repeat":
            if ("over" in element) == ("count" in element):
                raise FieldError(
                    f"{path}.over", "a repeat needs either over (a list field) or count, not both"
                )
            validate_layout(element["elements"], f"{path}.elements")  # copies: when drawn


# ------------------------------------------------------------------------------- drawing


def _resolve(element: dict, fields: Mapping[str, object], path: str) -> dict:
    """The element with defaults applied and templates filled."""
    spec = ELEMENTS[element["type"]]
    out: dict[str, Any] = {"type": element["type"]}
    for key, (kind, default) in spec.items():
        value = element.get(key, default)
        if isinstance(value, str) and kind in ("color", "template", "text"):
            value = fill_template(value, fields, f"{path}.{key}")
            if kind == "color" and not _COLOR.fullmatch(value):
                raise FieldError(
                    f"{path}.{key}", f"expected a colour '#rrggbb', got {_show(value)}"
                )
        elif kind == "text":
            value = str(value)
        out[key] = value
    return out


def repeat_copies(
    element: dict, fields: Mapping[str, object], where: str
) -> Iterator[tuple[tuple[int, int], dict[str, object]]]:
    """The copies a (valid) repeat draws, in order: each copy's offset and fields.

    The items are those of the list field ``over`` (or ``count`` of them), from ``start``,
    every ``every``-th. Copy ``i`` (its item's index) is moved ``i`` steps along ``step``;
    with ``columns`` the items fill rows of that many, copy ``i`` at ``col = i % columns``,
    ``row = i // columns``, moved ``col`` x ``step[0]`` and ``row`` x ``step[1]``. Its fields
    are ``fields``, then the item's (a mapping's keys, and the item itself as ``item``), then
    ``i`` (and ``row``, ``col`` in a grid)."""
    if "over" in element:
        name = element["over"]
        if name not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise FieldError(f"{where}.over", f"unknown field {name} (known: {known})")
        items = fields[name]
        if not isinstance(items, list | tuple):
            raise FieldError(f"{where}.over", f"field {name} is not a list: {_show(items)}")
    else:
        items = [None] * element["count"]
    (dx, dy), columns = element["step"], element.get("columns")
    for i in range(element.get("start", 0), len(items), element.get("every", 1)):
        copy = dict(fields)
        if "over" in element:
            copy.update(items[i] if isinstance(items[i], Mapping) else {})
            copy["item"] = items[i]
        copy["i"] = i
        if columns is None:
            yield (i * dx, i * dy), copy
            continue
        copy["row"], copy["col"] = divmod(i, columns)
        yield (copy["col"] * dx, copy["row"] * dy), copy


def _resolved(
    elements: list[dict],
    fields: Mapping[str, object],
    where: str,
    size: tuple[int, int] | None,
    shift: tuple[int, int] | None = None,
) -> Iterator[tuple[str, dict]]:
    """Each element drawn, resolved, with its path: a repeat's copies in its place, their boxes
    moved by their offsets (plus ``shift``, the offset of the copy they are in) and checked
    against the canvas ``size`` (an element outside any repeat was checked by validation)."""
    for i, element in enumerate(elements):
        path = f"{where}[{i}]"
        if element["type"] == "repeat":
            for (dx, dy), copy in repeat_copies(element, fields, path):
                at = (dx, dy) if shift is None else (shift[0] + dx, shift[1] + dy)
                yield from _resolved(element["elements"], copy, f"{path}.elements", size, at)
            continue
        if shift is not None:
            (x0, y0, x1, y1), (dx, dy) = element["box"], shift
            element = {**element, "box": [x0 + dx, y0 + dy, x1 + dx, y1 + dy]}
            problem = _check_box(element["box"], size)
            if problem:
                raise FieldError(f"{path}.box", f"{problem} (a copy moved by [{dx}, {dy}])")
        yield path, _resolve(element, fields, path)


def resolve_layout(
    elements: list[dict],
    fields: Mapping[str, object],
    where: str,
    size: tuple[int, int] | None = None,
) -> list[dict]:
    """The (valid) elements with defaults applied and every template filled, in drawing order:
    each repeat replaced by its copies (their boxes checked against the canvas ``size``)."""
    return [element for _path, element in _resolved(elements, fields, where, size)]


def _rgba(color: str) -> tuple[int, int, int, int]:
    """'#rrggbb' or '#rrggbbaa' as an RGBA tuple."""
    h = color[1:]
    alpha = int(h[6:8], 16) if len(h) == 8 else 255
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), alpha


def alpha_over(canvas: Image.Image, layer: Image.Image, at: tuple[int, int]) -> None:
    """``canvas.alpha_composite(layer, dest=at)`` (``layer`` RGBA), on an RGBA canvas or an RGB
    one (opaque: the pixels of an opaque RGBA canvas composited, then converted to RGB)."""
    if canvas.mode == "RGBA":
        canvas.alpha_composite(layer, dest=at)
        return
    box = (at[0], at[1], at[0] + layer.width, at[1] + layer.height)
    region = canvas.crop(box).convert("RGBA")
    region.alpha_composite(layer)
    canvas.paste(region.convert(canvas.mode), box)


def _ink(canvas: Image.Image, rgb: tuple[int, int, int]) -> tuple[int, ...]:
    """An opaque colour as ``canvas`` takes it (RGBA or RGB)."""
    return (*rgb, 255) if canvas.mode == "RGBA" else rgb


def _composite(
    canvas: Image.Image, mask: Image.Image, rgb: tuple[int, int, int], at: tuple[int, int]
) -> None:
    """Alpha-composite ``rgb`` with the alpha ``mask`` (mode L) onto ``canvas`` at ``at``."""
    layer = Image.new("RGBA", mask.size, (*rgb, 0))
    layer.putalpha(mask)
    alpha_over(canvas, layer, at)


#: A mask whose partly covered pixels need more boxes than this is composited in one box.
_MAX_BLENDS = 4


def _mask_plan(mask: Image.Image) -> list[tuple[bool, Box]]:
    """How :func:`_paint` covers a coverage mask with an opaque colour: (blend, box) in mask
    pixels, ``blend`` False for a box the mask covers fully (filled with the colour), True for
    one to composite through the mask; the mask is 0 everywhere else. The boxes come from
    cutting the mask's bounding box at the edges of its partly covered pixels, quadrant by
    quadrant (a rounded rect: four corners to blend, the rest filled)."""
    plan: list[tuple[bool, Box]] = []
    bbox = mask.getbbox()
    if bbox is not None:
        part = mask.point([255 if 0 < v < 255 else 0 for v in range(256)])
        xs, ys = {bbox[0], bbox[2]}, {bbox[1], bbox[3]}
        bx0, by0, bx1, by1 = bbox
        mx, my = (bx0 + bx1) // 2, (by0 + by1) // 2
        partial = 0  # pixels of the boxes of partial coverage
        for qx0, qy0, qx1, qy1 in ((bx0, by0, mx, my), (mx, by0, bx1, my),
                                   (bx0, my, mx, by1), (mx, my, bx1, by1)):  # fmt: skip
            found = part.crop((qx0, qy0, qx1, qy1)).getbbox() if qx1 > qx0 and qy1 > qy0 else None
            if found:
                xs.update((qx0 + found[0], qx0 + found[2]))
                ys.update((qy0 + found[1], qy0 + found[3]))
                partial += (found[2] - found[0]) * (found[3] - found[1])
        if 2 * partial >= (bx1 - bx0) * (by1 - by0):  # mostly partial (text, a small ellipse)
            plan = [(True, bbox)]
        else:
            xcuts, ycuts = sorted(xs), sorted(ys)
            for y0, y1 in zip(ycuts, ycuts[1:], strict=False):
                for x0, x1 in zip(xcuts, xcuts[1:], strict=False):
                    low, high = mask.crop((x0, y0, x1, y1)).getextrema()
                    if high:
                        plan.append((low < 255, (x0, y0, x1, y1)))
            if sum(blend for blend, _box in plan) > _MAX_BLENDS:
                plan = [(True, bbox)]
    return plan


def _paint(canvas: Image.Image, mask: Image.Image, color: str, at: tuple[int, int]) -> None:
    """Composite ``color`` through the coverage ``mask`` (mode L) onto ``canvas`` at ``at``.

    An opaque colour is filled in where the mask is full (an opaque colour over anything is
    that colour) and composited only where it is partial (an uncovered pixel stays as it is),
    box by box (:func:`_mask_plan`): the very pixels of compositing the whole mask."""
    r, g, b, a = _rgba(color)
    if a < 255:
        _composite(canvas, mask.point(lambda v: v * a // 255), (r, g, b), at)
        return
    x, y = at
    for blend, (x0, y0, x1, y1) in _mask_plan(mask):
        if blend:
            _composite(canvas, mask.crop((x0, y0, x1, y1)), (r, g, b), (x + x0, y + y0))
        else:
            canvas.paste(_ink(canvas, (r, g, b)), (x + x0, y + y0, x + x1, y + y1))


def _shape_masks(el: dict) -> tuple[Image.Image, Image.Image | None]:
    """Antialiased (fill, outline) coverage masks of a rect or ellipse, the size of its box (no
    outline: None); shared (callers must not change them) unless bigger than a card."""
    x0, y0, x1, y1 = el["box"]
    radius = el.get("radius", 0) if el["type"] == "rect" else 0
    args = (el["type"], x1 - x0, y1 - y0, radius, el["width"] if el["outline"] else 0)
    return (_shared_masks if (x1 - x0) * (y1 - y0) <= SHARED_MASK_PIXELS else _masks)(*args)


#: Shape and text masks of at most this many pixels (a card) are made once per process by what
#: they show (a deck's cards share theirs); bigger ones (a board) are made each time.
SHARED_MASK_PIXELS = 600_000


def _masks(
    kind: str, w: int, h: int, radius: int, width: int
) -> tuple[Image.Image, Image.Image | None]:
    """The masks of a ``kind`` shape of ``w`` x ``h`` px (``width`` 0: no outline), drawn
    :data:`SUPERSAMPLE` times bigger and reduced."""
    s = SUPERSAMPLE
    big = (w * s - 1, h * s - 1)
    fill = Image.new("L", (w * s, h * s), 0)
    ring = Image.new("L", (w * s, h * s), 0) if width else None
    for mask, kw in ((fill, {"fill": 255}), (ring, {"outline": 255, "width": width * s})):
        if mask is None:
            continue
        draw = ImageDraw.Draw(mask)
        if kind == "ellipse":
            draw.ellipse([(0, 0), big], **kw)
        else:
            draw.rounded_rectangle([(0, 0), big], radius=radius * s, **kw)
    return fill.reduce(s), (ring.reduce(s) if ring else None)


_shared_masks = lru_cache(maxsize=128)(_masks)


def _is_plain(el: dict) -> bool:
    """A square-cornered rect: its edges lie on pixel edges, so its coverage is all or nothing
    and drawing it at 1x gives the very pixels of the supersampled masks."""
    return el["type"] == "rect" and el["radius"] == 0


def _draw_plain_rect(canvas: Image.Image, el: dict) -> None:
    x0, y0, x1, y1 = el["box"]
    w, h = x1 - x0, y1 - y0
    if el["fill"]:
        r, g, b, a = _rgba(el["fill"])
        if a == 255:  # an opaque colour over anything is that colour
            canvas.paste(_ink(canvas, (r, g, b)), (x0, y0, x1, y1))
        else:
            alpha_over(canvas, Image.new("RGBA", (w, h), (r, g, b, a)), (x0, y0))
    if el["outline"]:
        ring = Image.new("L", (w, h), 0)
        ImageDraw.Draw(ring).rectangle([(0, 0), (w - 1, h - 1)], outline=255, width=el["width"])
        _paint(canvas, ring, el["outline"], (x0, y0))


def _draw_shape(canvas: Image.Image, el: dict, _images: ImageLoader) -> None:
    if not el["fill"] and not el["outline"]:
        return
    if _is_plain(el):
        _draw_plain_rect(canvas, el)
        return
    fill, ring = _shape_masks(el)
    at = (el["box"][0], el["box"][1])
    if el["fill"]:
        _paint(canvas, fill, el["fill"], at)
    if ring is not None:
        _paint(canvas, ring, el["outline"], at)


def fit_image(img: Image.Image, box_size: tuple[int, int]) -> Image.Image:
    """``img`` (RGBA) scaled to fit inside ``box_size`` keeping its aspect ratio."""
    size = fit_size_of(img.size, box_size)
    if size == img.size:
        return img.convert("RGBA")
    return resize_rgba(img, size)


def resize_rgba(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``img.convert("RGBA").resize(size, LANCZOS)``, the same pixels, quicker for an opaque
    picture (see :func:`resample`; an RGB one is resampled before it is given its alpha)."""
    if img.mode == "RGB":
        return img.resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    return resample(img if img.mode == "RGBA" else img.convert("RGBA"), size)


def resample(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``img.resize(size, LANCZOS)``, the same pixels and mode, quicker for an opaque RGBA
    picture: Pillow resamples RGBA premultiplied by alpha (two conversions of every pixel),
    which changes nothing where alpha is 255 everywhere (and stays 255 when resampled), so
    such a picture is resampled as RGB and given its alpha afterwards."""
    if img.mode == "RGBA" and img.getchannel("A").getextrema() == (255, 255):
        return img.convert("RGB").resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    return img.resize(size, Image.Resampling.LANCZOS)


def fit_size_of(size: tuple[int, int], box_size: tuple[int, int]) -> tuple[int, int]:
    """The size :func:`fit_image` gives a picture of ``size`` in a box of ``box_size``."""
    (w, h), (bw, bh) = size, box_size
    k = min(bw / w, bh / h)
    return max(1, min(bw, round(w * k))), max(1, min(bh, round(h * k)))


def _draw_image(canvas: Image.Image, el: dict, images: ImageLoader) -> None:
    x0, y0, x1, y1 = el["box"]
    art = fit_image(images(el["src"]), (x1 - x0, y1 - y0))
    at = (x0 + (x1 - x0 - art.width) // 2, y0 + (y1 - y0 - art.height) // 2)
    alpha_over(canvas, art, at)


def _wrap(words: list[str], f: ImageFont.FreeTypeFont, width: int) -> list[str] | None:
    """Greedy wrap of ``words`` into lines no wider than ``width``; None if a word is wider."""
    lines: list[str] = []
    for word in words:
        if f.getlength(word) > width:
            return None
        if lines and f.getlength(lines[-1] + " " + word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _block(lines: list[str], f: ImageFont.FreeTypeFont) -> tuple[int, int, int, list[Box]]:
    """(pitch, ink top, ink bottom, per-line ink boxes) of lines set on baselines 0, pitch..."""
    pitch = round(f.size * LINE_PITCH)
    inks = [f.getbbox(line, anchor="ls") if line else (0, 0, 0, 0) for line in lines]
    top = min(i * pitch + ink[1] for i, ink in enumerate(inks))
    bottom = max(i * pitch + ink[3] for i, ink in enumerate(inks))
    return pitch, top, bottom, inks


def fit_text(
    text: str, box_size: tuple[int, int], size: int, bold: bool
) -> tuple[ImageFont.FreeTypeFont, list[str]]:
    """The largest font (at most ``size``) and line breaks that fit ``text`` in the box.

    At each size one line per paragraph is tried first, then wrapping on spaces; if nothing
    fits even at 1 px, the 1 px attempt is returned (and clipped when drawn).
    """
    w, h = box_size
    paragraphs = text.split("\n")
    for s in range(size, 0, -1):
        f = font(s, bold)
        wrapped: list[str] | None = []
        for p in paragraphs:
            part = _wrap(p.split(), f, w) if p.strip() else [""]
            if part is None:
                wrapped = None
                break
            wrapped += part
        for lines in (paragraphs, wrapped):
            if lines is None:
                continue
            _pitch, top, bottom, inks = _block(lines, f)
            if bottom - top <= h and max(ink[2] - ink[0] for ink in inks) <= w:
                return f, lines
    return font(1, bold), paragraphs


def text_mask(
    text: str, box_size: tuple[int, int], size: int, bold: bool, align: str
) -> Image.Image:
    """Coverage mask (mode L, the size of the box) of ``text`` fitted and placed in the box.

    Lines are aligned by their ink; the block is centred vertically on its cap height (so
    labels with and without descenders share a baseline), then kept inside the box.
    """
    w, h = box_size
    mask = Image.new("L", box_size, 0)
    if not text.strip():
        return mask
    f, lines = fit_text(text, box_size, size, bold)
    pitch, top, bottom, inks = _block(lines, f)
    cap = -f.getbbox("H", anchor="ls")[1]
    first = round((h - (cap + (len(lines) - 1) * pitch)) / 2) + cap
    first = min(max(first, -top), h - bottom) if bottom - top <= h else -top
    draw = ImageDraw.Draw(mask)
    for i, (line, ink) in enumerate(zip(lines, inks, strict=True)):
        ink_w = ink[2] - ink[0]
        if align == "left":
            x = -ink[0]
        elif align == "right":
            x = w - ink_w - ink[0]
        else:
            x = round((w - ink_w) / 2) - ink[0]
        draw.text((x, first + i * pitch), line, font=f, fill=255, anchor="ls")
    return mask


_shared_text_masks = lru_cache(maxsize=512)(text_mask)


def _draw_text(canvas: Image.Image, el: dict, _images: ImageLoader) -> None:
    x0, y0, x1, y1 = el["box"]
    args = (el["text"], (x1 - x0, y1 - y0), el["size"], el["bold"], el["align"])
    small = (x1 - x0) * (y1 - y0) <= SHARED_MASK_PIXELS
    mask = (_shared_text_masks if small else text_mask)(*args)
    _paint(canvas, mask, el["color"], (x0, y0))


_DRAW: dict[str, Callable[[Image.Image, dict, ImageLoader], None]] = {
    "rect": _draw_shape,
    "ellipse": _draw_shape,
    "image": _draw_image,
    "text": _draw_text,
}


def _no_images(src: str) -> Image.Image:
    raise BuildError(f"{src}: no image loader given")


def render_layout(
    elements: list[dict],
    size: tuple[int, int],
    fields: Mapping[str, object],
    images: ImageLoader = _no_images,
    *,
    where: str = "layout",
    canvas: Image.Image | None = None,
) -> Image.Image:
    """Draw ``elements`` in order on a transparent RGBA canvas of ``size`` (or on ``canvas``,
    of that size: an RGB one, opaque, gives the pixels of drawing on that picture as RGBA and
    converting the result to RGB, for less work).

    ``fields`` fill ``{field}`` templates, all of them before anything is drawn;
    ``images(src)`` loads the picture of an image element. Errors are FieldErrors at
    ``where[i].key``.
    """
    if not (len(size) == 2 and all(_is_int(v) and v > 0 for v in size)):
        raise FieldError(where, f"canvas size must be two positive integers, got {_show(size)}")
    size = (size[0], size[1])
    validate_layout(elements, where, size)
    resolved = list(_resolved(elements, fields, where, size))
    for path, el in resolved:
        missing = missing_glyphs(el["text"], el["bold"]) if el["type"] == "text" else ""
        if missing:
            raise FieldError(
                f"{path}.text",
                f"the bundled font (DejaVu Sans) cannot draw {missing!r}: it would print as "
                "empty boxes",
            )
    if canvas is None:
        canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    elif canvas.size != size or canvas.mode not in ("RGB", "RGBA"):
        raise ValueError(f"a canvas of {size} RGB or RGBA, not {canvas.size} {canvas.mode}")
    for _path, el in resolved:
        _DRAW[el["type"]](canvas, el, images)
    return canvas
