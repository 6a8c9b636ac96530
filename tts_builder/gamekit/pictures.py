"""A build's two contact pictures, the one mechanism every game makes them with: the
thumbnail (a few pictures under the title, shipped beside the save) and the preview sheet
(every labelled picture).

A picture is its spec (what it is drawn from) and how to draw it: the build's picture store
makes a sheet again only when its spec changed.
"""

from __future__ import annotations

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
    images: it ships as ``<game>.png`` beside the save)."""
    from ..render import render_thumbnail

    spec = {"thumb": [spec for spec, _make in pictures], "title": title}

    def draw() -> Image.Image:
        return render_thumbnail(title, [make() for _spec, make in pictures])

    images.png("thumbnail", spec, draw)
    return images.files.pop("images/thumbnail.png")


def preview(
    images: _Store, items: Sequence[tuple[str, Picture]], columns: int, cell_max: int
) -> bytes:
    """The preview sheet's PNG bytes: every ``(label, picture)`` in a grid of ``columns``
    (cells at most ``cell_max`` px), taken out of the build's images (``preview.png``)."""
    from ..render import render_preview

    # the sheet is known by its grid too: the same faces in other columns are another picture
    spec = {
        "preview": [[label, spec] for label, (spec, _make) in items],
        "columns": columns,
        "cell_max": cell_max,
    }

    def draw() -> Image.Image:
        shown = [(label, make) for label, (_spec, make) in items]
        return render_preview(shown, columns=columns, cell_max=cell_max)

    images.png("preview", spec, draw)
    return images.files.pop("images/preview.png")
