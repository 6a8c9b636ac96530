"""Component art every game shares: a game's art files (read once, known by the sha256 of the
bytes read), component sides drawn from their layouts, and a deck's sheets.

Drawing is pure: data in, picture out. Output images go to the build's picture store
(``png(name, spec, make)``), which may hand back one it made before from the same ``spec``:
a side's spec is its content (layout, size, fields and the digest of every art file it shows),
so an image is reused exactly when it would be drawn the same.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from tts_builder.render.layout import (
    art_path,
    decode_art,
    render_layout,
    resolve_layout,
    validate_layout,
)
from tts_builder.render.sheets import SheetPlan, compose_sheet, plan_sheets

Fields = Mapping[str, Any]


class PictureStore(Protocol):
    """Where pictures come from and output images go (the build's ImageSet)."""

    def picture(self, spec: Any, make: Callable[[], Image.Image]) -> Image.Image:
        """The picture ``spec`` describes, made by ``make`` unless the store knows it."""
        ...

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image | bytes]) -> str:
        """Add ``images/<name>.png`` (the picture ``spec`` describes, or its PNG bytes), made
        by ``make`` unless the store knows it; its URL."""
        ...


class ArtFiles:
    """A definition's art files (under its folder): each read once, its digest taken from the
    bytes read and its picture decoded from them when first drawn."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._read: dict[str, tuple[Path, bytes, str]] = {}
        self._images: dict[str, Image.Image] = {}

    def _file(self, src: str) -> tuple[Path, bytes, str]:
        if src not in self._read:
            path = art_path(self.root, src, "art")
            data = path.read_bytes()
            self._read[src] = (path, data, hashlib.sha256(data).hexdigest())
        return self._read[src]

    def __call__(self, src: str) -> Image.Image:
        """The picture ``src`` as RGBA (the layout engine's image loader)."""
        if src not in self._images:
            path, data, _digest = self._file(src)
            self._images[src] = decode_art(data, path, "art")
        return self._images[src]

    def digest(self, src: str) -> str:
        """The sha256 (hex) of the file's bytes: art enters specs by content, not by name."""
        return self._file(src)[2]


def _text(value: Any) -> str:
    """``value`` as sorted-key JSON (a tuple is a list)."""
    return json.dumps(value, sort_keys=True, default=str)


def _shown_art(layout: list[dict], size: tuple[int, int], fields: Fields, where: str) -> list[str]:
    """The art files the layout shows with ``fields`` (FieldError at ``where`` if invalid)."""
    validate_layout(layout, where, size)
    return [el["src"] for el in resolve_layout(layout, fields, where) if el["type"] == "image"]


def layout_spec(
    layout: list[dict], size: tuple[int, int], fields: Fields, art: ArtFiles, where: str
) -> dict[str, Any]:
    """Everything a layout is drawn from (its spec): the layout, size and fields and the
    digest of each art file it shows."""
    digests = [art.digest(src) for src in _shown_art(layout, size, fields, where)]
    return {"layout": layout, "size": list(size), "fields": dict(fields), "art": digests}


class Sides:
    """Component sides drawn from the definition's layouts (``components.<name>.<side>``);
    ``store`` takes the output images (:meth:`png`, :func:`deck_sheets`)."""

    def __init__(
        self, components: Mapping[str, Any], art: ArtFiles, store: PictureStore | None = None
    ) -> None:
        self.components = components
        self.art = art
        self.store = store
        #: (component, side, fields as JSON) -> the side's spec, worked out once per build
        self._specs: dict[tuple[str, str, str], dict[str, Any]] = {}

    def size(self, component: str) -> tuple[int, int]:
        """The pixel size of ``component``'s sides."""
        w, h = self.components[component]["size"]
        return w, h

    def spec(self, component: str, side: str, fields: Fields) -> dict[str, Any]:
        """What the side is drawn from: the sha256 of its layout, size and fields and the
        digest of each art file it shows (what :func:`layout_spec` names), short to embed in
        the specs of the sheets and previews it is shown in."""
        values = _text(fields)
        key = (component, side, values)
        if key not in self._specs:
            layout, size = self.components[component][side], self.size(component)
            text = f"[{_text(layout)}, {_text(list(size))}, {values}]"
            shown = _shown_art(layout, size, fields, f"components.{component}.{side}")
            digests = json.dumps([self.art.digest(src) for src in shown])
            digest = hashlib.sha256(f"{text}\n{digests}".encode()).hexdigest()
            self._specs[key] = {"side": digest}
        return self._specs[key]

    def draw(self, component: str, side: str, fields: Fields) -> Image.Image:
        """Draw the side (RGBA)."""
        return render_layout(
            self.components[component][side], self.size(component), fields, self.art,
            where=f"components.{component}.{side}",
        )  # fmt: skip

    def __call__(self, component: str, side: str, fields: Fields) -> Image.Image:
        """The side (RGBA): the store's picture of its spec (drawn once while the store
        holds it), else drawn now. Callers must not change it."""
        draw = partial(self.draw, component, side, fields)
        if self.store is None:
            return draw()
        return self.store.picture(self.spec(component, side, fields), draw)

    def png(self, name: str, component: str, side: str, fields: Fields | None = None) -> str:
        """Add the side as the output image ``images/<name>.png``; its URL."""
        if self.store is None:
            raise ValueError("Sides.png needs a picture store")
        fields = fields or {}
        draw = partial(self.draw, component, side, fields)
        return self.store.png(name, self.spec(component, side, fields), draw)


@dataclass(frozen=True)
class DeckSheet:
    """One sheet of a deck: its number (1-based, the CustomDeck key), grid and image URL."""

    number: int
    plan: SheetPlan
    url: str


def deck_sheets(
    sides: Sides, component: str, faces: list[Fields], name: str = "cards"
) -> list[DeckSheet]:
    """The sheets of a deck of ``component`` cards whose faces show ``faces`` (one fields
    mapping per card, in deck order), added as ``images/<name>-<n>.png``: a sheet is known by
    its faces' specs, so only a sheet showing a changed card is drawn again."""
    store = sides.store
    if store is None:
        raise ValueError("deck_sheets needs a picture store")
    size = sides.size(component)
    found = []
    for number, plan in enumerate(plan_sheets(len(faces), size), start=1):
        spec = {
            "sheet": [sides.spec(component, "face", faces[i]) for i in plan.indexes],
            "grid": [plan.num_width, plan.num_height],
        }

        def compose(plan: SheetPlan = plan) -> Image.Image:
            cards = [partial(sides, component, "face", faces[i]) for i in plan.indexes]
            return compose_sheet(cards, plan, size)

        found.append(DeckSheet(number, plan, store.png(f"{name}-{number}", spec, compose)))
    return found
