"""A build's two contact pictures, the one mechanism every game makes them with: the
thumbnail (a few pictures under the title, shipped beside the save) and the preview sheet
(every labelled picture).

A picture is its spec (what it is drawn from: its cache key) and how to draw it, so a picture
the build already drew is taken from the build's picture store, and an unchanged rebuild draws
neither sheet again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

from PIL import Image

from ..json_types import Json

#: A picture: its spec and a function drawing it.
Picture = tuple[Json, Callable[[], Image.Image]]


class _Store(Protocol):
    files: dict[str, bytes]

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image]) -> str: ...


class _Sides(Protocol):
    def spec(self, component: str, side: str, fields: Mapping[str, Any]) -> Json: ...

    def __call__(self, component: str, side: str, fields: Mapping[str, Any]) -> Image.Image: ...


def side(sides: _Sides, component: str, face: str, fields: Mapping[str, Any]) -> Picture:
    """One side of a layout component (``render.components.Sides``) as a picture."""
    return sides.spec(component, face, fields), partial(sides, component, face, fields)


def thumbnail(images: _Store, title: str, pictures: Sequence[Picture]) -> bytes:
    """The thumbnail's PNG bytes: ``pictures`` under ``title`` (taken out of the build's
    images: it ships as ``<game>.png`` beside the save).

    A store of pictures (the build's, with ``picture``) keeps each picture as the thumbnail
    shows it, fitted into its card box: a thumbnail redrawn for one changed picture decodes
    the others small, never at full size (a board)."""
    from ..render import render_thumbnail

    spec = {"thumb": [spec for spec, _make in pictures], "title": title}

    def draw() -> Image.Image:
        if not hasattr(images, "picture"):
            return render_thumbnail(title, [make() for _spec, make in pictures])
        from ..render.composite import thumbnail_card_box
        from ..render.layout import fit_image

        box = thumbnail_card_box()
        shown = [
            images.picture(
                {"thumbnail_card": spec, "box": list(box)}, partial(_fit, make, box, fit_image)
            )
            for spec, make in pictures
        ]
        return render_thumbnail(title, shown)

    images.png("thumbnail", spec, draw)
    return images.files.pop("images/thumbnail.png")


def _fit(
    make: Callable[[], Image.Image],
    box: tuple[int, int],
    fit: Callable[[Image.Image, tuple[int, int]], Image.Image],
) -> Image.Image:
    """A picture as a thumbnail shows it before it is fanned: made, then fitted into ``box``."""
    return fit(make(), box)


def preview(
    images: _Store, items: Sequence[tuple[str, Picture]], columns: int, cell_max: int
) -> bytes:
    """The preview sheet's PNG bytes: every ``(label, picture)`` in a grid of ``columns``
    (cells at most ``cell_max`` px), taken out of the build's images (``preview.png``).

    A store keeping encoded bands (the build's, with ``encoded``) gets it one band per preview
    row (:func:`~tts_builder.render.components.preview_png`, the same pixels): a changed
    picture's row is recomposed and re-encoded, and no other; the pictures' sizes and cells
    are kept there too."""
    from ..render import render_preview
    from ..render.components import preview_png

    # the sheet is known by its grid too: the same faces in other columns are another picture
    spec = {
        "preview": [[label, spec] for label, (spec, _make) in items],
        "columns": columns,
        "cell_max": cell_max,
    }

    def whole() -> Image.Image:  # a store keeping nothing: the same pixels, drawn at once
        shown = [(label, make) for label, (_spec, make) in items]
        return render_preview(shown, columns=columns, cell_max=cell_max)

    def banded() -> bytes:
        sizes = _Sizes(images)
        sized = [(label, spec, sizes(spec, make), make) for label, (spec, make) in items]
        sizes.save()
        return preview_png(images, sized, columns, cell_max)  # type: ignore[arg-type]

    images.png("preview", spec, banded if hasattr(images, "encoded") else whole)
    return images.files.pop("images/preview.png")


class _Sizes:
    """The sizes of a preview's pictures: those its folder's last preview showed, kept in the
    store as one record (a store with ``kept_record``: one read, not one per picture), the
    others as :func:`_size` finds them."""

    def __init__(self, images: Any) -> None:
        self.images = images
        self.spec = {"preview sizes": getattr(images, "folder", None)}
        self.kept: dict[str, list[int]] = {}
        read = getattr(images, "kept_record", None)
        try:
            kept = json.loads(read(self.spec) or b"{}") if read is not None else {}
        except ValueError:
            kept = {}
        self.last = kept if isinstance(kept, dict) else {}

    def __call__(self, spec: Json, make: Callable[[], Image.Image]) -> tuple[int, int]:
        text = json.dumps(spec, sort_keys=True, default=str)
        known = self.last.get(text)
        if isinstance(known, list) and len(known) == 2 and all(type(v) is int for v in known):
            size = (known[0], known[1])
        else:
            size = _size(self.images, spec, make)
        self.kept[text] = list(size)
        return size

    def save(self) -> None:
        keep = getattr(self.images, "keep_record", None)
        if keep is not None and self.kept != self.last:
            keep(self.spec, json.dumps(self.kept, sort_keys=True).encode())


def _size(images: Any, spec: Json, make: Callable[[], Image.Image]) -> tuple[int, int]:
    """The size of the picture ``spec`` describes, kept in the store beside its bands: a
    picture already sized is not decoded again to be planned into a preview."""
    text = images.encoded({"size": spec}, lambda: json.dumps(list(make().size)).encode())
    width, height = json.loads(text)
    return width, height
