"""table.png through the build cache: scaled-down images kept per image, region and size, so a
redraw resamples only what changed; the picture is the same bytes whatever the cache holds."""

from __future__ import annotations

import pytest
from conftest import build
from PIL import ImageChops

from tts_builder import picture
from tts_builder.cli import _table_png
from tts_builder.picture import images_from_files, picture_subtitle, picture_title, table_picture
from tts_builder.render import encode_png
from tts_builder.render.memo import PictureMemo, picture_bytes


@pytest.fixture(scope="module")
def flood():
    return build("arche-noah-flood")


class _Folder(dict):
    """A build cache as a cache folder is one (it says which entries it holds): what the
    process keeps for table.png is shared with it."""

    root = "a cache folder"

    def holds(self, key: str) -> bool:
        return key in self


def _uncached(result) -> bytes:
    title = picture_title(result.definition.base_data, result.variant)
    drawn = table_picture(result.save, images_from_files(result.files), result.positions, title,
                          subtitle=picture_subtitle(result.folder))  # fmt: skip
    return encode_png(drawn)


def _counting(monkeypatch) -> list[tuple[int, int]]:
    calls: list[tuple[int, int]] = []
    real = picture.shrink

    def counted(region, size):
        calls.append(size)
        return real(region, size)

    monkeypatch.setattr(picture, "shrink", counted)
    return calls


def _new_process(monkeypatch) -> None:
    """Nothing of table.png kept in this process (scaled images, layers, marker colours)."""
    monkeypatch.setattr(picture, "_SHRUNK", PictureMemo(picture.SHRUNK_BYTES))
    monkeypatch.setattr(picture, "_LAYERS", PictureMemo(picture.LAYER_BYTES))
    monkeypatch.setattr(picture, "_MEANS", {})


@pytest.fixture(autouse=True)
def new_process(monkeypatch):
    """Each test starts as a new process."""
    _new_process(monkeypatch)


def test_a_redraw_resamples_nothing_cached_and_draws_the_same_bytes(flood, monkeypatch):
    calls = _counting(monkeypatch)
    cache = _Folder()
    first = _table_png(flood, cache)
    assert calls, "the flood table shows images drawn smaller"
    assert first == _uncached(flood)
    for key in [k for k in cache if k.startswith(("table.png", "table-layer:"))]:
        del cache[key]  # the picture itself and its layer are gone: they are drawn again
    calls.clear()
    _new_process(monkeypatch)  # a new process: only the build cache holds them
    assert _table_png(flood, cache) == first
    assert calls == []  # every scaled image came from the cache


def test_a_new_process_colours_pawns_from_the_cache_and_a_damaged_colour_is_made_again(
    flood, monkeypatch
):
    """A pawn's marker colour (its image's mean, when no seat owns it) is kept in the build
    cache by the image's content: a new process redraws the pawns without decoding their
    images for it; a damaged entry is worked out again, and the bytes never change."""
    means: list[object] = []
    real = picture._mean_colour
    monkeypatch.setattr(picture, "_mean_colour", lambda image: means.append(1) or real(image))
    cache = _Folder()
    first = _table_png(flood, cache)
    made = len(means)
    kept = [k for k in cache if k.startswith("table-mean:")]
    assert made and len(kept) == made
    for key in [k for k in cache if k.startswith("table.png")]:
        del cache[key]
    _new_process(monkeypatch)
    assert _table_png(flood, cache) == first
    assert len(means) == made  # none worked out again
    for key in [k for k in cache if k.startswith("table.png")]:
        del cache[key]
    cache[kept[0]] = b"[1, 2]"  # damaged
    _new_process(monkeypatch)
    assert _table_png(flood, cache) == first
    assert len(means) == made + 1


def test_the_process_keeps_scaled_images_within_its_budget(flood, monkeypatch):
    cache = _Folder()
    first = _table_png(flood, cache)
    kept = list(picture._SHRUNK)
    assert kept and all(k.startswith("table-shrunk:") for k in kept)
    for key in [k for k in cache if k.startswith("table")]:
        del cache[key]  # neither the picture nor its scaled images in the build cache
    calls = _counting(monkeypatch)
    assert _table_png(flood, cache) == first
    assert calls == []  # all kept in the process
    sizes = sorted(picture_bytes(picture._SHRUNK.get(k)) for k in kept)
    budget = sizes[-1] + sizes[-2] - 1  # room for the largest, never for the two largest
    _new_process(monkeypatch)
    monkeypatch.setattr(picture, "_SHRUNK", PictureMemo(budget))
    assert _table_png(flood, _Folder()) == first
    held = [picture_bytes(picture._SHRUNK.get(k)) for k in picture._SHRUNK]
    assert 0 < len(held) < len(kept) and sum(held) == picture._SHRUNK.bytes <= budget
    _new_process(monkeypatch)
    monkeypatch.setattr(picture, "_SHRUNK", PictureMemo(sizes[0] - 1))
    assert _table_png(flood, _Folder()) == first
    assert len(picture._SHRUNK) == 0 and picture._SHRUNK.bytes == 0  # none fits: none kept


def test_damaged_scaled_images_are_made_again(flood, monkeypatch):
    cache = _Folder()
    first = _table_png(flood, cache)
    shrunk = [k for k in cache if k.startswith("table-shrunk:")]
    assert shrunk
    for i, key in enumerate(shrunk):
        cache[key] = b"not zlib" if i % 2 else cache[key][: len(cache[key]) // 2]
    for key in [k for k in cache if k.startswith(("table.png", "table-layer:"))]:
        del cache[key]
    _new_process(monkeypatch)  # a new process: only the build cache holds them
    calls = _counting(monkeypatch)
    assert _table_png(flood, cache) == first
    assert len(calls) >= len(shrunk)


def test_a_kept_layer_leaves_only_the_pawns_to_draw_and_a_damaged_one_is_drawn_again(
    flood, monkeypatch
):
    cache = _Folder()
    first = _table_png(flood, cache)
    layers = [k for k in cache if k.startswith("table-layer:")]
    assert len(layers) == 1 and len(picture._LAYERS) == 1  # the table under the pawns
    for key in [k for k in cache if k.startswith(("table.png", "table-shrunk:"))]:
        del cache[key]  # the picture and every scaled image gone
    _new_process(monkeypatch)  # the layer comes from the build cache
    calls = _counting(monkeypatch)
    assert _table_png(flood, cache) == first
    pawns = set(calls)
    assert pawns
    for key in [k for k in cache if k.startswith(("table.png", "table-shrunk:"))]:
        del cache[key]
    cache[layers[0]] = cache[layers[0]][:100]  # damaged: the layer is drawn again
    _new_process(monkeypatch)
    calls.clear()
    assert _table_png(flood, cache) == first
    assert pawns < set(calls)  # the board, cards and tiles resampled too


def test_a_cache_that_is_no_folder_keeps_its_own(flood, monkeypatch):
    first = _table_png(flood, {})
    assert len(picture._SHRUNK) == len(picture._LAYERS) == 0  # nothing shared with the process
    calls = _counting(monkeypatch)
    assert _table_png(flood, {}) == first == _uncached(flood)
    assert calls  # drawn again, from nothing


def test_labels_drawn_from_kept_masks_are_the_labels_rendered_afresh(flood, monkeypatch):
    kept = _uncached(flood)
    assert _uncached(flood) == kept  # every mask kept this time
    monkeypatch.setattr(picture, "kept_masks", picture.font)  # every label rendered again
    assert _uncached(flood) == kept


class _KeptLayer:
    """Layers keeping the one layer made, every image known by its URL."""

    def __init__(self) -> None:
        self.means: dict = {}
        self.kept = None

    def content(self, url: str) -> str:
        return url

    def layer(self, spec, make):
        self.kept = make()
        return self.kept


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_what_is_drawn_over_the_layer_stays_in_the_rows_it_names(game):
    result = build(game)
    layers, overlay = _KeptLayer(), []
    drawn = table_picture(result.save, images_from_files(result.files), result.positions,
                          "A title", subtitle="a subtitle", layers=layers,
                          overlay=overlay)  # fmt: skip
    assert overlay[0][0] is not None and layers.kept is not None
    differ = ImageChops.difference(drawn, layers.kept.convert("RGB"))
    named = sorted((max(0, top), min(drawn.height, bottom)) for _spec, top, bottom in overlay[1:])
    free, y = [], 0  # the rows nothing drawn over the layer names
    for top, bottom in named:
        if top > y:
            free.append((y, top))
        y = max(y, bottom)
    free += [(y, drawn.height)] if y < drawn.height else []
    assert free  # the test sees rows left as the layer drew them
    for top, bottom in free:
        assert differ.crop((0, top, drawn.width, bottom)).getbbox() is None, (top, bottom)


def test_a_scaled_image_and_a_layer_are_kept_the_same_way():
    """Both go through one read-through: the process's memo, else the build cache's entry
    decoded, else made and stored; an entry that does not decode is made again and replaced."""
    from PIL import Image

    cache: dict[str, bytes] = {}
    pictures = picture.TablePictures({}, cache)
    made: list[str] = []

    def make() -> Image.Image:
        made.append("drawn")
        return Image.new("RGBA", (3, 2), (10, 20, 30, 255))

    def decode(stored: bytes) -> Image.Image | None:
        return Image.frombytes("RGBA", (3, 2), stored) if len(stored) == 24 else None

    memo = PictureMemo(10_000)
    first = pictures._kept(memo, "table-layer:x", decode, make, lambda image: image.tobytes())
    assert made == ["drawn"] and cache["table-layer:x"] == first.tobytes()
    assert pictures._kept(memo, "table-layer:x", decode, make, bytes) is first  # the memo's
    again = pictures._kept(PictureMemo(10_000), "table-layer:x", decode, make, bytes)
    assert made == ["drawn"] and again.tobytes() == first.tobytes()  # decoded from the cache
    cache["table-layer:x"] = b"damaged"
    redrawn = pictures._kept(
        PictureMemo(10_000), "table-layer:x", decode, make, lambda image: image.tobytes()
    )
    assert made == ["drawn", "drawn"] and redrawn.tobytes() == first.tobytes()
    assert cache["table-layer:x"] == first.tobytes()  # the damaged entry replaced
    layer = pictures.layer({"a": "spec"}, make)  # layer() and shrunk() both keep this way
    assert made == ["drawn"] * 3 and pictures.layer({"a": "spec"}, make) is layer
