"""table.png through the build cache: scaled-down images kept per image, region and size, so a
redraw resamples only what changed; the picture is the same bytes whatever the cache holds."""

from __future__ import annotations

import pytest
from conftest import build

from tts_builder import cli, picture
from tts_builder.cli import _table_png
from tts_builder.picture import images_from_files, picture_subtitle, picture_title, table_picture
from tts_builder.render import encode_png


@pytest.fixture(scope="module")
def flood():
    return build("arche-noah-flood")


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


@pytest.fixture(autouse=True)
def new_process(monkeypatch):
    """No scaled image kept in this process: each test starts as a new one."""
    monkeypatch.setattr(cli, "_SHRUNK", {})


def test_a_redraw_resamples_nothing_cached_and_draws_the_same_bytes(flood, monkeypatch):
    calls = _counting(monkeypatch)
    cache: dict[str, bytes] = {}
    first = _table_png(flood, cache)
    assert calls, "the flood table shows images drawn smaller"
    assert first == _uncached(flood)
    for key in [k for k in cache if k.startswith("table.png")]:
        del cache[key]  # the picture itself is gone: it is drawn again
    calls.clear()
    monkeypatch.setattr(cli, "_SHRUNK", {})  # a new process: only the build cache holds them
    assert _table_png(flood, cache) == first
    assert calls == []  # every scaled image came from the cache


def test_the_process_keeps_scaled_images_within_its_budget(flood, monkeypatch):
    cache: dict[str, bytes] = {}
    first = _table_png(flood, cache)
    kept = dict(cli._SHRUNK)
    assert kept and all(k.startswith("table-shrunk:") for k in kept)
    for key in [k for k in cache if k.startswith("table")]:
        del cache[key]  # neither the picture nor its scaled images in the build cache
    calls = _counting(monkeypatch)
    assert _table_png(flood, cache) == first
    assert calls == []  # all kept in the process
    monkeypatch.setattr(cli, "SHRUNK_BYTES", 1)
    monkeypatch.setattr(cli, "_SHRUNK", {})
    _table_png(flood, {})
    assert len(cli._SHRUNK) == 1  # the budget: the latest only


def test_damaged_scaled_images_are_made_again(flood, monkeypatch):
    cache: dict[str, bytes] = {}
    first = _table_png(flood, cache)
    shrunk = [k for k in cache if k.startswith("table-shrunk:")]
    assert shrunk
    for i, key in enumerate(shrunk):
        cache[key] = b"not zlib" if i % 2 else cache[key][: len(cache[key]) // 2]
    for key in [k for k in cache if k.startswith("table.png")]:
        del cache[key]
    monkeypatch.setattr(cli, "_SHRUNK", {})  # a new process: only the build cache holds them
    calls = _counting(monkeypatch)
    assert _table_png(flood, cache) == first
    assert len(calls) >= len(shrunk)
