"""A one-animal change to every bundled game, rebuilt by ``tts-builder build`` in the process
that built the game (as ``watch`` does): only the changed faces are drawn, each once for the
game and all its variants, only their preview cells are drawn again, ``table.png`` redraws the
pawns over its kept table layer (never the board or the cards under them), and every file
written is the byte of a build from nothing. Counted draws, not time (issue 12)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import seeded
from PIL import Image, PngImagePlugin

from tts_builder import picture
from tts_builder.build import BuildOptions, forget_pictures
from tts_builder.cli import build_checked, run
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.lua import lint, scripts, templates
from tts_builder.render import components, hexmap, png

NEW_COLOUR = "#123456"


def _change(game: str, root: Path) -> str:
    """Copy ``game`` under ``root`` with one animal changed: the Elephant's colour, or (Ark &
    Noah, whose animals have no colour) the middle pixel of the Raven's art; what now marks its
    faces (the colour, or the art file)."""
    shutil.copytree(ASSETS_ROOT / game, root / game)
    path = root / game / "game.yaml"
    text = path.read_text(encoding="utf-8")
    if 'color: "#8e9aaf"' in text:
        path.write_text(text.replace('color: "#8e9aaf"', f'color: "{NEW_COLOUR}"', 1))
        return NEW_COLOUR
    art = root / game / "art" / "raven.png"
    with Image.open(art) as img:
        img.load()
        img = img.convert("RGBA")
        centre = (img.width // 2, img.height // 2)  # shown on every face with the art
        img.putpixel(centre, tuple(255 - v for v in img.getpixel(centre)[:3]) + (255,))
        img.save(art)
    return "art/raven.png"


def _counted(counts: dict[str, int], name: str, real: Any) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] = counts.get(name, 0) + 1
        return real(*args, **kwargs)

    return counted


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


class _Draws:
    """What a build draws: component sides, preview cells, table.png's pastes and pawns, the
    hex board."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sides: list[tuple[str, str, str]] = []
        self.side_specs: list[Any] = []
        self.cells: list[Any] = []
        self.pastes: list[str] = []
        self.pawns: list[str] = []
        self.boards = 0
        draws = self
        real_draw, real_cell = components.Sides.draw, components._cell
        real_paste, real_pawn = picture._paste, picture._draw_pawn
        real_board = hexmap.render_board

        def draw(self: components.Sides, component: str, side: str, fields: Any) -> Image.Image:
            draws.sides.append((component, side, json.dumps(fields, sort_keys=True, default=str)))
            draws.side_specs.append(self.spec(component, side, fields))
            return real_draw(self, component, side, fields)

        def cell(store: Any, known: dict[str, Any], fit: Any) -> Image.Image:
            def fitted() -> Image.Image:
                draws.cells.append(known["preview_cell"])
                return fit()

            return real_cell(store, known, fitted)

        def paste(canvas: Image.Image, view: Any, image: Any, *args: Any) -> Any:
            draws.pastes.append(image.url)
            return real_paste(canvas, view, image, *args)

        def pawn(canvas: Image.Image, view: Any, drawn: Any, *args: Any) -> float:
            if drawn.image is not None and drawn.size is not None:
                draws.pawns.append(drawn.image.url)
            return real_pawn(canvas, view, drawn, *args)

        def board(*args: Any, **kwargs: Any) -> Image.Image:
            draws.boards += 1
            return real_board(*args, **kwargs)

        monkeypatch.setattr(components.Sides, "draw", draw)
        monkeypatch.setattr(components, "_cell", cell)
        monkeypatch.setattr(picture, "_paste", paste)
        monkeypatch.setattr(picture, "_draw_pawn", pawn)
        monkeypatch.setattr(hexmap, "render_board", board)


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_a_one_animal_change_draws_its_faces_and_what_shows_them_only(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", game, "--out", str(out)]) == 0  # the process keeps what it drew
    before = {p.name: _files(p) for p in out.iterdir() if p.name != ".cache"}
    root = tmp_path / "assets"
    mark = _change(game, root)
    draws = _Draws(monkeypatch)
    assert run(["-q", "--assets", str(root), "build", game, "--out", str(out)]) == 0
    monkeypatch.undo()
    # Only faces showing the changed animal, each once for the game and all its variants.
    assert draws.sides and len(set(draws.sides)) == len(draws.sides)
    assert all(mark in fields for _component, _side, fields in draws.sides), draws.sides
    # Only their preview cells, each once (a variant's preview takes the game's).
    assert draws.cells and len({json.dumps(c) for c in draws.cells}) == len(draws.cells)
    assert all(cell in draws.side_specs for cell in draws.cells)
    # table.png: drawn again only over its kept layer (the pawns, no board, card or tile).
    assert draws.pastes == draws.pawns and draws.boards == 0
    after = {p.name: _files(p) for p in out.iterdir() if p.name != ".cache"}
    changed = {(f, n) for f, files in after.items() for n in files if files[n] != before[f][n]}
    assert changed and {name for _f, name in changed} <= {
        "preview.png",
        "table.png",
        f"{game}.png",
        f"{game}.json",
        *(name for files in after.values() for name in files if name.startswith("images/")),
    }
    # Every file is the byte of a build from nothing: one cache, empty before, for the game and
    # its variants (every distinct picture drawn again once, as a clean CLI build shares its
    # cache), never the cache the rebuild above used.
    fresh: dict[str, bytes] = {}
    for variant in [None, *load_definition(game, root).variants]:
        options = BuildOptions(out_dir=out.resolve(), variant=variant)
        plain = build_checked(game, options, fresh, root)
        assert variant or plain.drawn > 0  # the game's first: nothing from a cache
        assert plain.files == after[plain.folder], (
            variant,
            set(plain.files) ^ set(after[plain.folder]),
        )


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_a_one_animal_change_in_a_new_process_validates_and_inflates_what_changed_only(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A one-animal change rebuilt as a new process rebuilds it (nothing kept in memory from the
    first build): only the layout sides whose layout, size or fields changed are validated
    (the sides the last build of each folder found valid are kept in its cache), and a cached
    output picture that is only laid by its size (the flood board, Ark & Noah's boards) is
    opened, never inflated. Counted, not timed (issue 12)."""
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", game, "--out", str(out)]) == 0
    root = tmp_path / "assets"
    mark = _change(game, root)
    forget_pictures()  # as a new process: no picture, preview cell or validated side in memory
    components.forget_cells()
    components._CHECKED.clear()
    validated: list[str] = []
    in_spec: list[bool] = []
    opened: dict[int, Image.Image] = {}
    inflated: set[int] = set()
    real_spec, real_resolve = components.Sides.spec, components.resolve_layout
    real_open, real_load = png.open_png, PngImagePlugin.PngImageFile.load

    def spec(self: components.Sides, component: str, side: str, fields: Any) -> Any:
        in_spec.append(True)
        try:
            return real_spec(self, component, side, fields)
        finally:
            in_spec.pop()

    def resolve(layout: Any, fields: Any, where: str) -> Any:
        if in_spec:  # a side of a component (a picture a game computes is validated each time)
            validated.append(json.dumps([where, fields], sort_keys=True, default=str))
        return real_resolve(layout, fields, where)

    def open_png(data: bytes) -> Image.Image:
        img = real_open(data)
        opened[id(img)] = img
        return img

    def load(self: PngImagePlugin.PngImageFile) -> Any:
        if opened.get(id(self)) is self:
            inflated.add(id(self))
        return real_load(self)

    monkeypatch.setattr(components.Sides, "spec", spec)
    monkeypatch.setattr(components, "resolve_layout", resolve)
    monkeypatch.setattr(png, "open_png", open_png)
    monkeypatch.setattr(PngImagePlugin.PngImageFile, "load", load)
    # A script whose context did not change is the cache's: no template rendered, no script
    # linted (nor the Lua that parse-checks loaded) in a new process.
    renders: list[str] = []
    real_render = templates.render
    monkeypatch.setattr(
        templates, "render", lambda name, *a: renders.append(name) or real_render(name, *a)
    )
    monkeypatch.setattr(scripts, "render", templates.render)
    lints: list[str] = []
    real_lint = lint.lint
    monkeypatch.setattr(
        lint, "lint", lambda source, chunk: lints.append(chunk) or real_lint(source, chunk)
    )
    lint.linter_digest.cache_clear()
    # A changed sheet row or preview row starts from its last pixels (inflated from the band
    # the cache holds): no row is composed or drawn whole, no unchanged face or cell decoded.
    made: dict[str, int] = {}
    for name in ("compose_sheet_row", "_preview_row", "decode_part", "band_image"):
        real_made = getattr(components, name)
        monkeypatch.setattr(components, name, _counted(made, name, real_made))
    assert run(["-q", "--assets", str(root), "build", game, "--out", str(out)]) == 0
    monkeypatch.undo()
    assert renders == [] and lints == []
    assert made.keys() == {"band_image"}, made
    # A new colour changes its sides' fields (validated once each); a new art file, none.
    assert all(mark in fields for fields in validated), [f for f in validated if mark not in f]
    assert len(set(validated)) == len(validated)
    assert bool(validated) == (mark == NEW_COLOUR)
    assert inflated == set(), [opened[i].size for i in inflated]
    assert bool(opened) == (game != "arche-noah")  # only Arche Noah lays no drawn picture


def test_a_change_through_the_entry_point_fingerprints_the_code_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``tts-builder build`` after a change: the no-op check finds something to build and the
    build it falls through to takes its file hashes, so the package's code is fingerprinted
    (every code file stat-ed, any unknown one hashed) once per command, not twice."""
    from tts_builder import fingerprint
    from tts_builder.cli_noop import answer_noop

    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", "arche-noah", "--out", str(out)]) == 0
    root = tmp_path / "assets"
    _change("arche-noah", root)
    args = ["-q", "--assets", str(root), "build", "arche-noah", "--out", str(out)]
    calls: list[object] = []
    real = fingerprint._code_fingerprint
    monkeypatch.setattr(fingerprint, "_code_fingerprint", lambda h: calls.append(h) or real(h))
    assert not answer_noop(args)  # what the console script asks first: there is a change
    assert run(args) == 0
    assert len(calls) == 1
    assert answer_noop(args) and len(calls) == 2  # the next command: nothing to build
    assert run(args) == 0 and len(calls) == 3  # nothing handed over: the CLI fingerprints anew


def _change_again(game: str, root: Path, mark: str) -> None:
    """Change the animal :func:`_change` changed once more: another colour, or the pixel beside
    the one it changed in the Raven's art."""
    path = root / game / "game.yaml"
    if mark == NEW_COLOUR:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace(f'color: "{NEW_COLOUR}"', 'color: "#654321"', 1))
        return
    art = root / game / "art" / "raven.png"
    with Image.open(art) as img:
        img.load()
        beside = (img.width // 2 + 1, img.height // 2)
        img.putpixel(beside, tuple(255 - v for v in img.getpixel(beside)[:3]) + (255,))
        img.save(art)


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_a_second_change_in_one_process_starts_each_changed_row_from_the_pixels_it_kept(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``watch`` after one edit, then another to the same animal: the rows (deck sheet rows,
    preview rows) the first rebuild made keep their pixels in the process, so the second
    starts each changed row from them (no band inflated from the cache), and every file is
    still the byte of a build from nothing."""
    out = seeded(tmp_path / "dist")
    assert run(["-q", "build", game, "--out", str(out)]) == 0
    root = tmp_path / "assets"
    mark = _change(game, root)
    args = ["-q", "--assets", str(root), "build", game, "--out", str(out)]
    assert run(args) == 0
    _change_again(game, root, mark)
    made: dict[str, int] = {}
    for name in ("compose_sheet_row", "_preview_row", "band_image"):
        monkeypatch.setattr(components, name, _counted(made, name, getattr(components, name)))
    recomposed: list[int] = []
    real_recompose = components.recompose_sheet_row
    monkeypatch.setattr(
        components,
        "recompose_sheet_row",
        lambda *a, **k: recomposed.append(1) or real_recompose(*a, **k),
    )
    assert run(args) == 0
    monkeypatch.undo()
    assert made == {}, made  # no row drawn whole, none inflated
    assert bool(recomposed) == (game != "ark-and-noah")  # Ark & Noah's tiles are on no sheet
    after = {p.name: _files(p) for p in out.iterdir() if p.name != ".cache"}
    fresh: dict[str, bytes] = {}
    for variant in [None, *load_definition(game, root).variants]:
        options = BuildOptions(out_dir=out.resolve(), variant=variant)
        plain = build_checked(game, options, fresh, root)
        assert plain.files == after[plain.folder], variant
