"""Pictures kept between the builds of one process (``watch``): known by content, reused only
while the cache folder holds them, never changing what a build writes."""

from __future__ import annotations

import shutil
from pathlib import Path

from PIL import Image

from tts_builder import render
from tts_builder.build import BuildOptions, build_game
from tts_builder.render import layout
from tts_builder.writer import DirCache


def test_pictures_of_one_content_share_what_is_derived_from_them() -> None:
    made = []

    def half(img: Image.Image) -> Image.Image:
        made.append(img)
        return img.resize((img.width // 2, img.height // 2))

    first = layout.freeze(Image.new("RGBA", (8, 6), (1, 2, 3, 255)), ("test", "one"))
    twin = layout.freeze(Image.new("RGBA", (8, 6), (1, 2, 3, 255)), ("test", "one"))
    other = layout.freeze(Image.new("RGBA", (8, 6), (9, 9, 9, 255)), ("test", "other"))
    small = layout.derived(first, "half", half)
    assert layout.derived(twin, "half", half) is small and made == [first]
    assert layout.derived(other, "half", half).getpixel((0, 0)) == (9, 9, 9, 255)
    loose = Image.new("RGBA", (8, 6))  # not frozen: made every time
    assert layout.derived(loose, "half", half) is not layout.derived(loose, "half", half)
    assert len(made) == 4


def test_a_rebuild_in_one_process_reuses_its_pictures_while_the_cache_holds_them(
    tmp_path: Path, monkeypatch
) -> None:
    decoded = []
    real = render.decode_part

    def counted(data: bytes) -> Image.Image:
        decoded.append(1)
        return real(data)

    monkeypatch.setattr(render, "decode_part", counted)
    folder = tmp_path / "dist" / ".cache"
    options = BuildOptions(out_dir=tmp_path / "dist")
    first = build_game("arche-noah", options, DirCache(folder))
    assert first.drawn > 0
    for entry in folder.rglob("*.entry"):  # sheets, rows, preview: composed again from faces
        if entry.stat().st_size > 100_000:
            entry.unlink()
    again = build_game("arche-noah", options, DirCache(folder))
    assert (again.drawn, decoded) == (0, [])  # every face from memory, none decoded
    assert again.files == first.files
    shutil.rmtree(folder)  # an emptied cache: everything drawn again, nothing from memory
    emptied = build_game("arche-noah", options, DirCache(folder))
    assert emptied.drawn == first.drawn and emptied.files == first.files


def test_a_picture_with_one_changed_band_deflates_that_band_only(monkeypatch) -> None:
    from tts_builder.build import ImageSet
    from tts_builder.render import png

    deflated = []
    real = png.encode_band

    def counted(img: Image.Image) -> bytes:
        deflated.append(img.size)
        return real(img)

    monkeypatch.setattr(png, "encode_band", counted)
    images = ImageSet("arche-noah", BuildOptions(), {})
    picture = Image.new("RGB", (300, 3 * png.BAND_ROWS + 7), (40, 90, 200))
    assert images.encode_png(picture) == png.encode_png(picture)
    deflated.clear()
    picture.putpixel((150, png.BAND_ROWS + 3), (1, 2, 3))  # the second band only
    assert images.encode_png(picture) == png.encode_png(picture)
    assert deflated[0] == (300, png.BAND_ROWS) and len(deflated) == 1 + 4  # then encode_png's


def test_forgetting_the_pictures_also_forgets_the_preview_cells() -> None:
    from tts_builder.build import forget_pictures
    from tts_builder.render import components

    components._CELLS.add("probe", Image.new("RGB", (2, 2)))
    forget_pictures()
    assert "probe" not in components._CELLS
