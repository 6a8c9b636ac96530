"""Every PNG `publish` uploads or packages, for every bundled game and variant: recompressed
losslessly (decoded, the same mode, size and pixels) to at most TARGET_RATIO of its built bytes.

One optimiser cache for the run: an image two variants share is recompressed once, by
whichever process claims it first (:func:`conftest.each_once_per_run`), however xdist splits
the module between its workers.
"""

from __future__ import annotations

import hashlib
from io import BytesIO

import pytest
from conftest import build, each_once_per_run, run_folder

from tts_builder.cache import Store
from tts_builder.definition import load_definition
from tts_builder.games import game_ids
from tts_builder.ship.publish import TARGET_RATIO, built_urls, plan_publish, png_optimizer

pytest.importorskip("oxipng")

#: Published PNGs no lossless PNG coding we tried brings to the target, with the bound they do
#: meet. The flood race's 256 x 256 thumbnails hold about 8,450 colours (no palette can hold
#: them) and a tilted, resampled board. Built with zlib level 1 they published at 0.890-0.892
#: of the built bytes; Pillow's level 3 (since the one cache, issue 23) already builds them
#: smaller, so the same published bytes are 0.907-0.912 of them.
BEYOND_TARGET = {
    ("arche-noah-flood", None, "arche-noah-flood.png"): 0.915,
    ("arche-noah-flood", "junior", "arche-noah-flood.png"): 0.915,
    ("arche-noah-flood", "distinct-species", "arche-noah-flood.png"): 0.915,
}

#: The run's folder (see :func:`conftest.run_folder`) of the recompressed PNGs and their claims.
SHARED = "publish-pngs"


def _games_and_variants() -> list[tuple[str, str | None]]:
    return [(game, variant) for game in game_ids()
            for variant in [None, *load_definition(game).variants]]  # fmt: skip


def _pixels(data: bytes) -> tuple[str, tuple[int, int], bytes]:
    from PIL import Image

    with Image.open(BytesIO(data)) as image:
        return image.mode, image.size, image.tobytes()


@pytest.mark.parametrize(("game", "variant"), _games_and_variants())
def test_every_published_png_is_lossless_and_at_most_the_target_ratio(
    game: str, variant: str | None, tmp_path
) -> None:
    from tts_builder.build import BuildOptions

    options = BuildOptions(variant=variant, out_dir=tmp_path)
    built = build(game, variant=variant, out_dir=tmp_path)
    optimize = png_optimizer(Store(run_folder(SHARED) / "cache"))
    assert optimize is not None
    thumbnail = f"{built.main_stem}.png"
    rels = [*built_urls(built, options).values(), thumbnail]
    pngs = [built.files[rel] for rel in rels if rel.endswith(".png")]
    by_digest = {hashlib.sha256(data).hexdigest(): data for data in pngs}
    each_once_per_run(SHARED, by_digest, lambda digest: optimize(by_digest[digest]))
    plan = plan_publish(built, options, "https://ada.github.io/mods", variant, optimize)
    key_of = {url: key for key, url in plan.urls.items()}
    published = {rel: plan.assets[key_of[url]] for rel, url in plan.workshop["assets"].items()}
    published[thumbnail] = plan.thumbnail
    assert len(published) == len(plan.assets) + 1 and all(r.endswith(".png") for r in published)
    for rel, data in published.items():
        original = built.files[rel]
        assert _pixels(data) == _pixels(original), rel
        bound = BEYOND_TARGET.get((game, variant, rel), TARGET_RATIO)
        assert len(data) <= bound * len(original), (rel, round(len(data) / len(original), 4))
    assert png_optimizer()(built.files[thumbnail]) == plan.thumbnail  # the same bytes again
