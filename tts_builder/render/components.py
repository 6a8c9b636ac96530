"""Component art every game shares: art files known by content, component sides drawn from
their layouts (each distinct side once per build, through the build's picture store) and a
deck's sheets composed from its faces.

The picture store is the build's :class:`tts_builder.build.ImageSet`: ``picture(spec, make)``
gives the picture ``spec`` describes (from memory, the render cache, or drawn by ``make``),
``png(name, spec, make)`` adds an output image. A side's spec is its content (layout, size,
fields and the digest of every art file it shows), so a cached side is reused exactly when
it would be drawn the same.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from PIL import Image

from tts_builder.fingerprint import FileHashes
from tts_builder.render.composite import (
    PREVIEW_BG,
    PREVIEW_LABEL_H,
    PREVIEW_PAD,
    PreviewPlan,
    plan_preview,
    preview_cell_layout,
    preview_picture,
)
from tts_builder.render.layout import (
    art_path,
    fit_size_of,
    fitted,
    freeze,
    load_art,
    render_layout,
    resolve_layout,
    validate_layout,
)
from tts_builder.render.memo import PictureMemo
from tts_builder.render.png import (
    ENCODER,
    band_image,
    decode_part,
    encode_band,
    encode_part,
    join_bands,
)
from tts_builder.render.sheets import (
    SheetPlan,
    compose_sheet_row,
    plan_sheets,
    recompose_sheet_row,
)

Fields = Mapping[str, Any]


class PictureStore(Protocol):
    """Where pictures come from and output images go (the build's ImageSet)."""

    def picture(self, spec: Any, make: Callable[[], Image.Image]) -> Image.Image:
        """The picture ``spec`` describes, drawn by ``make`` only if no copy is known."""
        ...

    def png(self, name: str, spec: Any, make: Callable[[], Image.Image | bytes]) -> str:
        """Add ``images/<name>.png`` (the picture ``spec`` describes, or its PNG bytes); its
        URL."""
        ...

    def encoded(self, spec: Any, make: Callable[[], bytes]) -> bytes:
        """The bytes ``spec`` describes (e.g. an encoded band), made by ``make`` if unknown."""
        ...


class ArtFiles:
    """A definition's art files (under its folder), each read and digested once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._images: dict[str, Image.Image] = {}
        self._digests: dict[str, str] = {}
        self._hashes = FileHashes()  # in memory: takes what this process hashed already

    def __call__(self, src: str) -> Image.Image:
        """The picture ``src`` as RGBA (the layout engine's image loader)."""
        if src not in self._images:  # known by content: its fits outlive this build
            self._images[src] = freeze(load_art(self.root, src, "art"), ("art", self.digest(src)))
        return self._images[src]

    def digest(self, src: str) -> str:
        """The sha256 of the file's bytes: art enters cache keys by content, not by name (as
        :class:`~tts_builder.fingerprint.FileHashes` knows it: a file this process hashed
        already, e.g. for the CLI's no-op check, is not read again while its ``stat`` stands
        for its bytes)."""
        if src not in self._digests:
            path = art_path(self.root, src, "art")
            self._digests[src] = self._hashes.digest(path).hex()
        return self._digests[src]


def layout_spec(
    layout: list[dict], size: tuple[int, int], fields: Fields, art: ArtFiles, where: str
) -> dict[str, Any]:
    """Everything a layout is drawn from (its cache key): the layout, size and fields and the
    digest of each art file it shows."""
    text = json.dumps([layout, list(size), fields], sort_keys=True, default=str)
    digests = [art.digest(src) for src in _shown_art(text, layout, size, fields, where)]
    return {"layout": layout, "size": list(size), "fields": dict(fields), "art": digests}


#: A side's layout, size and fields (as JSON) -> (their sha256, the art files it shows), for
#: sides already validated in this process (at most CHECKED_SIDES of them).
_CHECKED: dict[str, tuple[str, list[str]]] = {}
CHECKED_SIDES = 4096


class CheckedSides:
    """The sides a build of one output folder found valid (by the sha256 of their layout, size
    and fields as JSON: the art files each shows), kept in the build cache under ``key``
    (which names the package's code: a change to the validation gives a new key), so a build
    in a new process validates only the sides the last build of that folder did not show.

    :meth:`get` answers from what the last build kept; :meth:`add` records a side this build
    shows; :meth:`save` keeps this build's sides (and no more) if they are not those kept."""

    def __init__(self, cache: MutableMapping[str, bytes], key: str) -> None:
        self.cache = cache
        self.key = key
        self.used: dict[str, list[str]] = {}
        self._kept: dict[str, list[str]] | None = None

    def _read(self) -> dict[str, list[str]]:
        if self._kept is None:
            self._kept = {}
            try:
                kept = json.loads(self.cache.get(self.key) or b"{}")
            except ValueError:
                kept = {}
            if isinstance(kept, dict):
                self._kept = {
                    k: v for k, v in kept.items()
                    if isinstance(v, list) and all(isinstance(src, str) for src in v)
                }  # fmt: skip
        return self._kept

    def get(self, digest: str) -> list[str] | None:
        """The art files of the side whose sha256 is ``digest``, if the last build found it
        valid; else None."""
        return self._read().get(digest)

    def add(self, digest: str, shown: list[str]) -> None:
        """Record that this build shows the valid side ``digest``, showing ``shown``."""
        self.used[digest] = shown

    def save(self) -> None:
        """Keep this build's sides for the next, unless they are what is kept already."""
        if self.used and self.used != self._read():
            self.cache[self.key] = json.dumps(self.used, sort_keys=True).encode()


def _shown_art(
    text: str,
    layout: list[dict],
    size: tuple[int, int],
    fields: Fields,
    where: str,
    checked: CheckedSides | None = None,
) -> list[str]:
    """The art files the layout shows (``text``: its layout, size and fields as JSON), the
    layout validated once per process, and not again in a build whose ``checked`` sides hold
    it (an invalid one raises at ``where`` every time)."""
    known = _CHECKED.get(text)
    if known is None:
        digest = hashlib.sha256(text.encode()).hexdigest()
        shown = checked.get(digest) if checked is not None else None
        if shown is None:
            validate_layout(layout, where, size)
            resolved = resolve_layout(layout, fields, where)
            shown = [el["src"] for el in resolved if el["type"] == "image"]
        if len(_CHECKED) >= CHECKED_SIDES:
            _CHECKED.clear()
        known = _CHECKED[text] = (digest, shown)
    if checked is not None:
        checked.add(*known)
    return known[1]


class Sides:
    """Component sides drawn from the definition's layouts (``components.<name>.<side>``),
    each distinct side once per build: later uses take it from the picture store."""

    def __init__(
        self, components: Mapping[str, Any], art: ArtFiles, store: PictureStore | None = None
    ) -> None:
        self.components = components
        self.art = art
        self.store = store
        #: (component, side, fields as JSON) -> the side's spec, each worked out once
        self._specs: dict[tuple[str, str, str], dict[str, Any]] = {}
        self._layouts: dict[tuple[str, str], str] = {}  # a side's layout as JSON, once

    def size(self, component: str) -> tuple[int, int]:
        """The pixel size of ``component``'s sides."""
        w, h = self.components[component]["size"]
        return w, h

    def spec(self, component: str, side: str, fields: Fields) -> dict[str, Any]:
        """What the side is drawn from, as its cache key: the sha256 of its layout, size and
        fields and the digest of each art file it shows (what :func:`layout_spec` names;
        worked out once per side), short to embed in the specs of the sheets, rows and
        previews it is shown in."""
        values = _text(fields)  # all a side already worked out costs: its fields as JSON
        key = (component, side, values)
        if key not in self._specs:
            layout, size = self.components[component][side], self.size(component)
            text = f"[{self._layout_text(component, side)}, {_text(list(size))}, {values}]"
            where = f"components.{component}.{side}"
            checked = getattr(self.store, "checked_sides", None)
            shown = _shown_art(text, layout, size, fields, where, checked)
            digests = json.dumps([self.art.digest(src) for src in shown])
            digest = hashlib.sha256(f"{text}\n{digests}".encode()).hexdigest()
            self._specs[key] = {"side": digest}
        return self._specs[key]

    def _layout_text(self, component: str, side: str) -> str:
        """The side's layout as its spec's JSON (:func:`_text`), serialised once: the JSON of
        its layout, size and fields is the three joined as ``json.dumps`` joins a list."""
        key = (component, side)
        if key not in self._layouts:
            self._layouts[key] = _text(self.components[component][side])
        return self._layouts[key]

    def draw(self, component: str, side: str, fields: Fields) -> Image.Image:
        """Draw the side now (RGBA)."""
        return render_layout(
            self.components[component][side], self.size(component), fields, self.art,
            where=f"components.{component}.{side}",
        )  # fmt: skip

    def __call__(self, component: str, side: str, fields: Fields) -> Image.Image:
        """The side (RGBA), drawn only if the store has no copy of it."""
        draw = partial(self.draw, component, side, fields)
        if self.store is None:
            return draw()
        return self.store.picture(self.spec(component, side, fields), draw)

    def png(self, name: str, component: str, side: str, fields: Fields | None = None) -> str:
        """Add the side as the output image ``images/<name>.png``; its URL."""
        if self.store is None:
            raise ValueError("Sides.png needs a picture store")
        fields = fields or {}
        return self.store.png(
            name, self.spec(component, side, fields), partial(self.draw, component, side, fields)
        )


#: The pixels of the rows (deck sheet rows, preview rows) this process made last, by row spec,
#: within ROW_BYTES: a rebuild in one process (``watch``) starts a changed row from them
#: instead of inflating its band from the cache (:meth:`LastRows.last` hands them over).
ROW_BYTES = 64 * 2**20
_ROWS = PictureMemo(ROW_BYTES)


class LastRows:
    """The rows a picture of rows (a deck sheet, a preview) showed when it was last made,
    kept in the picture store under ``spec`` (a store without ``kept_record`` and
    ``keep_record`` keeps nothing): a row made again because one of its items changed starts
    from the pixels of the row last made in its place (:meth:`last`), its band as the store
    holds it (``encoded_known``), and redraws only the items that differ.

    A row's spec is a dict whose ``items`` key lists what it shows, in order, and whose other
    keys say how (grid, sizes, encoder): only a last row of the same other keys is a start."""

    def __init__(self, store: PictureStore, spec: Any, items: str) -> None:
        self.store = store
        self.spec = spec
        self.items = items
        self.rows: list[Any] = []
        self._last: list[Any] | None = None

    def _kept(self) -> list[Any]:
        if self._last is None:
            kept = getattr(self.store, "kept_record", None)
            data = kept(self.spec) if kept is not None else None
            try:
                last = json.loads(data) if data else []
            except ValueError:
                last = []
            self._last = last if isinstance(last, list) else []
        return self._last

    def last(self, row: int, spec: dict[str, Any]) -> tuple[Image.Image, list[int]] | None:
        """The pixels of the row last made in row ``row``'s place (a new picture) and the
        positions of the items that differ from those ``spec`` shows; None if there is no
        such row of the same other keys, or the store no longer holds it."""
        known = getattr(self.store, "encoded_known", None)
        last = self._kept()[row] if row < len(self._kept()) else None
        if known is None or not isinstance(last, dict) or set(last) != set(spec):
            return None
        if any(_text(last[k]) != _text(spec[k]) for k in spec if k != self.items):
            return None
        old, new = last[self.items], spec[self.items]
        if not isinstance(old, list):
            return None
        img = _ROWS.pop(_text(last))  # handed over: the caller changes it
        if img is None:
            data = known(last)
            if data is None:
                return None
            try:
                img = band_image(data)
            except (ValueError, zlib.error):
                return None
        changed = [
            i
            for i in range(max(len(old), len(new)))
            if i >= len(old) or i >= len(new) or _text(old[i]) != _text(new[i])
        ]
        return img, changed

    def add(self, spec: dict[str, Any]) -> None:
        """Record that this picture shows the row ``spec`` next (rows in order)."""
        self.rows.append(spec)

    @staticmethod
    def made(spec: dict[str, Any], img: Image.Image) -> bytes:
        """The band of row ``spec``, whose pixels ``img`` are (the caller's no longer): its
        pixels kept in this process (:data:`_ROWS`), so the next build that makes this row again
        with a change starts from them without inflating its band."""
        _ROWS.add(_text(spec), img)
        return encode_band(img)

    def save(self) -> None:
        """Keep the rows recorded, for the next build that makes one of them again."""
        keep = getattr(self.store, "keep_record", None)
        if keep is not None:
            keep(self.spec, _text(self.rows).encode())


def _text(value: Any) -> str:
    """``value`` as its spec's JSON (as the store keys it: a tuple is a list)."""
    return json.dumps(value, sort_keys=True, default=str)


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
    mapping per card, in deck order), added as ``images/<name>-<n>.png``. A sheet is encoded
    row by row (:func:`~tts_builder.render.png.join_bands`), each card row known by its faces'
    specs: a changed card re-composes and re-encodes its row only (from the pixels of the row
    last composed in its place, if the store holds it: only its changed slots are composed
    again, see :class:`LastRows`), and each face is drawn only if no copy is known."""
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

        def compose(plan: SheetPlan = plan, number: int = number) -> bytes:
            cards = [partial(sides, component, "face", faces[i]) for i in plan.indexes]
            folder = getattr(store, "folder", None)  # each output folder's sheets their own
            rows = LastRows(store, {"sheet rows": f"{name}-{number}", "of": folder}, "sheet_row")

            def band(row: int, row_spec: dict[str, Any]) -> bytes:
                last = rows.last(row, row_spec)
                if last is None:
                    return rows.made(row_spec, compose_sheet_row(cards, plan, size, row))
                return rows.made(row_spec, recompose_sheet_row(*last, cards, plan, size, row))

            bands = []
            for row in range(plan.num_height):
                shown = plan.indexes[row * plan.num_width : (row + 1) * plan.num_width]
                row_spec = {
                    "sheet_row": [sides.spec(component, "face", faces[i]) for i in shown],
                    "columns": plan.num_width,
                    "card": list(size),
                    "encoder": ENCODER,
                }
                bands.append(store.encoded(row_spec, partial(band, row, row_spec)))
                rows.add(row_spec)
            rows.save()
            return join_bands(bands)

        found.append(DeckSheet(number, plan, store.png(f"{name}-{number}", spec, compose)))
    return found


#: An item of a preview sheet: its label, spec (what its picture is drawn from), the size of
#: its picture and a function making the picture.
PreviewItem = tuple[str, Any, tuple[int, int], Callable[[], Image.Image]]


def preview_png(
    store: PictureStore | None, items: list[PreviewItem], columns: int, cell_max: int = 600
) -> bytes:
    """PNG bytes of the preview of ``items``: the pixels of
    :func:`~tts_builder.render.composite.render_preview`, one band per preview row (see
    :func:`~tts_builder.render.png.join_bands`), each row known by its items' labels and specs:
    a changed item redraws and re-encodes its row only, and no row is drawn to fill a band of
    another. With a ``store`` (None: everything drawn now), each picture is taken as its cell
    shows it from the store."""
    plan = plan_preview([size for _label, _spec, size, _make in items], columns, cell_max)
    bands = []
    folder = getattr(store, "folder", None)
    rows = LastRows(store, {"preview rows": folder}, "preview_row") if store else None
    for row in range(plan.rows):
        draw = partial(_preview_row, plan, items, row, store)
        if store is None or rows is None:
            bands.append(draw())
            continue
        spec = {**_preview_row_spec(plan, items, row), "encoder": ENCODER}
        again = partial(_preview_row_again, plan, items, row, store, spec, rows)
        bands.append(store.encoded(spec, again))
        rows.add(spec)
    if rows is not None:
        rows.save()
    return join_bands(bands)


def _preview_row_again(
    plan: PreviewPlan,
    items: list[PreviewItem],
    row: int,
    store: PictureStore,
    spec: dict[str, Any],
    rows: LastRows,
) -> bytes:
    """The encoded band of preview row ``row`` (its spec ``spec``): from the pixels of the row
    last drawn in its place (``rows``), only the cells whose item changed cleared and drawn
    again (each cell's picture and label lie in its own box, on the plain background), else
    drawn whole."""
    last = rows.last(row, spec)
    if last is None:
        return _preview_row(plan, items, row, store, spec)
    img, changed = last
    y0, y1 = plan.row_band(row)
    if img.size != (plan.size[0], y1 - y0):
        return _preview_row(plan, items, row, store, spec)
    first = row * plan.columns
    (cw, ch), pad = plan.cell, PREVIEW_PAD
    for column in changed:
        x = pad + column * (cw + pad)
        y = pad + row * (ch + PREVIEW_LABEL_H + pad) - y0
        img.paste(PREVIEW_BG, (x, y, x + cw, y + ch + PREVIEW_LABEL_H))
    indexes = [first + column for column in changed if first + column < len(items)]
    return rows.made(spec, _preview_row_image(plan, items, row, store, img, indexes))


def _preview_row_spec(plan: PreviewPlan, items: list[PreviewItem], row: int) -> dict[str, Any]:
    """What preview row ``row`` is drawn from: its items' labels, specs and shown sizes."""
    indexes = range(row * plan.columns, min(len(items), (row + 1) * plan.columns))
    return {
        "preview_row": [[items[i][0], items[i][1], plan.shown[i]] for i in indexes],
        "grid": [plan.columns, *plan.cell, plan.size[0], plan.row_band(row)[0] == 0],
    }


def _preview_row(
    plan: PreviewPlan,
    items: list[PreviewItem],
    row: int,
    store: PictureStore | None = None,
    spec: dict[str, Any] | None = None,
) -> bytes:
    """The encoded band of preview row ``row``, drawn whole (its pictures through ``store``, if
    any); with its ``spec``, its pixels kept for the next build (:meth:`LastRows.made`)."""
    img = _preview_row_image(plan, items, row, store)
    return encode_band(img) if spec is None else LastRows.made(spec, img)


def _preview_row_image(
    plan: PreviewPlan,
    items: list[PreviewItem],
    row: int,
    store: PictureStore | None = None,
    canvas: Image.Image | None = None,
    only: list[int] | None = None,
) -> Image.Image:
    """Preview row ``row`` (RGB): its pixels of the whole preview. With a ``store``, each
    picture is taken as its cell shows it (fitted into its box, kept as encoded bytes) from the
    store, so a picture already shown in an earlier build is neither decoded at full size nor
    scaled again. With a ``canvas`` (the row's pixels, the cells of items ``only`` cleared),
    only those items are drawn on it."""
    y0, y1 = plan.row_band(row)
    width = plan.size[0]
    layout: list[dict] = [{"type": "rect", "box": [0, 0, width, y1 - y0], "fill": PREVIEW_BG}]
    if canvas is not None:
        layout = []  # the background is the canvas's, cleared under each cell drawn again
    fields: dict[str, Any] = {}
    pictures: dict[str, Image.Image] = {}
    shown = range(row * plan.columns, min(len(items), (row + 1) * plan.columns))
    for i in shown if only is None else only:
        label, spec, size, make = items[i]
        cell = preview_cell_layout(plan, i, y0)
        x0, top, x1, bottom = cell[0]["box"]
        box = (x1 - x0, bottom - top)
        shown = fit_size_of(plan.shown[i], box)
        if store is not None and fit_size_of(shown, box) == shown:  # drawn as it is
            fit = partial(_shown_in_cell, plan, label, size, make, box)
            known = {"preview_cell": spec, "box": list(box), "limit": [plan.limit, plan.cell_max]}
            pictures[str(i)] = _cell(store, known, fit)
        else:
            pictures[str(i)] = preview_picture(plan, _made(label, size, make))
        fields[f"label{i}"] = label
        layout += cell
    if canvas is None:
        canvas = Image.new("RGB", (width, y1 - y0), PREVIEW_BG)
    size = (width, y1 - y0)
    return render_layout(layout, size, fields, pictures.__getitem__, where="preview", canvas=canvas)


def _made(label: str, size: tuple[int, int], make: Callable[[], Image.Image]) -> Image.Image:
    """An item's picture, which must be ``size``."""
    img = make()
    if img.size != tuple(size):
        raise ValueError(f"preview item {label!r} is {img.size}, expected {tuple(size)}")
    return img


def _shown_in_cell(
    plan: PreviewPlan,
    label: str,
    size: tuple[int, int],
    make: Callable[[], Image.Image],
    box: tuple[int, int],
) -> Image.Image:
    """An item's picture as its preview cell shows it: what drawing it into ``box`` draws."""
    return fitted(preview_picture(plan, _made(label, size, make)), box)


#: Preview cells (:func:`_cell`) this process decoded, by spec, within CELL_BYTES: a rebuild in
#: one process composites them as planned already.
CELL_BYTES = 64 * 2**20
_CELLS = PictureMemo(CELL_BYTES)


def _cell(
    store: PictureStore, known: dict[str, Any], fit: Callable[[], Image.Image]
) -> Image.Image:
    """The picture of one preview cell: kept in this process, else from the store's encoded
    bytes, else drawn by ``fit`` (and kept in the store); frozen (callers must not change it)."""
    key = json.dumps(known, sort_keys=True, default=str)
    img = _CELLS.get(key)
    if img is None:
        drawn: list[Image.Image] = []  # drawn now: kept as drawn, not decoded back
        data = store.encoded(known, lambda: encode_part(drawn.append(fit()) or drawn[0]))
        # A picture drawn now may be shared (a fit of a kept face): frozen, its content kept.
        img = freeze(drawn[0]) if drawn else freeze(decode_part(data), ("preview cell", key))
        _CELLS.add(key, img)
    return img


def forget_cells() -> None:
    """Drop the preview cells this process keeps (:data:`_CELLS`), as in a new process."""
    _CELLS.clear()
