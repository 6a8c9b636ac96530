"""``tts-builder build`` itself, without click: what the ``build`` command does (the CLI's
command calls :func:`build_command`), and a plain build run straight from the console script
(:func:`run_build`: :mod:`tts_builder.cli_noop` reads its arguments, so a designer's rebuild
after an edit does not import click, nor the other commands)."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import BuildError

EXIT_OK, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 2, 3


def run_build(quiet: bool, options: dict[str, Any]) -> int:
    """Run the build :func:`~tts_builder.cli_noop.parse_build` read (``options``: games,
    assets, out_dir, variant, base_url) as the CLI's ``build`` command does, with its exit
    codes and one-line errors (on stderr, never a traceback)."""

    def report(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr)

    try:
        games, assets = tuple(options["games"]), options["assets"]
        out, variant, url = options["out_dir"], options["variant"], options["base_url"]
        build_command(report, assets, games, variant, out, url)
    except BuildError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (KeyboardInterrupt, EOFError):  # as click's Abort, which the CLI maps so
        print("\naborted", file=sys.stderr)
        return EXIT_BAD_INPUT
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_INTERNAL
    except Exception as err:  # noqa: BLE001 - the last line of defence: one line, exit 3
        print(f"internal error: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_INTERNAL
    return EXIT_OK


def build_command(
    report: Callable[[str], None],
    assets: Path | None,
    games: tuple[str, ...],
    variant: str | None,
    out_dir: Path | None,
    base_url: str | None,
) -> None:
    """Build ``games`` (none: the default set) into ``out_dir`` (default ``dist/``), each
    game's variants too unless ``variant`` names one; progress lines go to ``report``."""
    from .build import DEFAULT_OUT, BuildOptions, describe_outputs
    from .cli_noop import handed_hashes, noop_report, unchanged
    from .definition import load_definition, select_games, shown_path
    from .fingerprint import HASHES_FILE, FileHashes, manifest
    from .writer import DirCache, tree_matches, write_tree

    out = (out_dir or DEFAULT_OUT).resolve()
    cache = DirCache(out / ".cache")
    stored = out / ".cache" / HASHES_FILE
    hashes = handed_hashes(stored) or FileHashes(stored)  # the no-op check's, if it just ran
    builds = []
    request = {"out": str(out), "base_url": base_url, "variant": variant}
    chosen_games = select_games(games, assets)
    loaded: dict[str, Any] = {}  # each game's definition, loaded once for all its variants

    def definition(game: str) -> Any:
        if game not in loaded:
            loaded[game] = load_definition(game, assets)
        return loaded[game]

    # Nothing a game's build reads changed, and its folders are as built: it is skipped.
    keys, skipped, variants = {}, {}, {}
    for game in chosen_games:
        found = unchanged(game, request, assets, out, cache, hashes)
        keys[game], current, recorded = found
        if current is not None:
            skipped[game] = current
        if variant:
            variants[game] = [variant]
        else:
            variants[game] = recorded if current is not None else definition(game).variants
    _check_folders(variants, assets, definition)
    bytecode_set = False
    try:
        for game in chosen_games:
            if game in skipped:
                for line in noop_report(out, skipped[game]):
                    report(line)
                continue
            if not bytecode_set:  # a new process compiles (or renders) nothing the cache holds
                from .fingerprint import code_fingerprint
                from .lua.templates import cache_bytecode

                cache_bytecode(cache, code=code_fingerprint(hashes))
                bytecode_set = True
            made = []
            for chosen in [variant] if variant else [None, *definition(game).variants]:
                started = time.perf_counter()
                options = BuildOptions(out_dir=out, base_url=base_url, variant=chosen)
                result = build_checked(game, options, cache, assets, definition(game))
                made.append(result)
                report(
                    f"built {result.folder} from {shown_path(result.definition.root)}: "
                    f"{len(result.files)} files, {result.rendered} images "
                    f"rendered ({time.perf_counter() - started:.2f}s)"
                )
            builds.append((game, made))
        # Everything is built and checked before anything is written: all or nothing.
        for _, made in builds:
            for result in made:
                dest = out / result.folder
                if tree_matches(dest, result.files):
                    report(f"{shown_path(dest)}/: up to date")
                else:
                    write_tree(dest, result.files)
                    report(f"wrote {shown_path(dest)}/: {describe_outputs(result.files)}")
        for game, made in builds:  # what the next no-op build may skip
            folders = {result.folder: result.files for result in made}
            cache[keys[game]] = manifest(folders, definition(game).variants)
    finally:  # templates compiled, scripts rendered: kept in this build's cache while it builds
        hashes.save()
        if bytecode_set:
            from .lua.templates import cache_bytecode

            cache_bytecode(None)


def _check_folders(
    variants: dict[str, list[str]], assets: Path | None, definition: Callable[[str], Any]
) -> None:
    """No two builds share a ``dist/`` folder (game ``a-b`` and game ``a``'s variant ``b``
    would replace each other; ``variants``: game -> the variants it builds): a one-line error
    at the variant (``definition``: a game's definition, by id). Every game found counts, not
    only those built now."""
    from .sources import available_games, folder_clash, output_folder

    clash = folder_clash(variants, available_games(assets))
    if clash is not None:
        game, name, owner = clash
        raise definition(game).doc.error(
            f"variants.{name}",
            f"builds into {output_folder(game, name)}/, as the game {owner!r} does; rename the "
            "variant or that game",
        )


def build_checked(
    game: str, options: Any, cache: Any, assets: Path | None = None, definition: Any = None
) -> Any:
    """What ``build`` writes for one game or variant, in memory: the build, linted and checked
    (``cache`` the render and lint cache), with ``table.png`` added (``definition``: the
    game's, if loaded already)."""
    from .build import build_game, lint_build

    result = build_game(game, options, cache, assets, definition)
    lint_build(result, cache)
    refuse_failing(result, cache)
    # The table at load, as TTS lays it out, beside preview.png.
    result.files["table.png"] = _table_png(result, cache)
    return result


def refuse_failing(result: Any, cache: Any = None) -> None:
    """Raise for the build's first failing check (FORMAT [req], geometry [geo]): at the
    definition's field when the game says which laid the object, else as an internal error
    (``cache``: the build cache, remembering findings by what the checks read)."""
    from .build import check_build

    problems = check_build(result, cache)
    if problems:
        name, first = problems[0]
        more = f" (and {len(problems) - 1} more findings)" if len(problems) > 1 else ""
        field = _origin(result, name, first.path)
        if field is not None:  # an object the definition laid: the designer's to move
            raise result.definition.doc.error(field, f"{first.message}{more}")
        message = f"generated save fails {first.path}: {first.message}{more}"
        raise RuntimeError(f"{result.folder}/{name}: {message}")


def _origin(result: Any, save_name: str, path: str) -> str | None:
    """The definition field that laid the object at ``path`` (``ObjectStates[3]...``) of the
    save ``save_name``, if the game says (``GameBuild.origins``)."""
    import re

    found = re.match(r"ObjectStates\[(\d+)\]", path)
    objects = result.saves().get(save_name, {}).get("ObjectStates", [])
    if found is None or int(found.group(1)) >= len(objects):
        return None
    return result.origins.get(objects[int(found.group(1))].get("GUID"))


def _table_png(result: Any, cache: Any) -> bytes:
    """``table.png`` of a build, through the build cache: keyed by everything the picture is
    drawn from (the save, the script positions, the title, the package's code) and by the
    images it shows, so a rebuild that changed no image on the table at load draws nothing.

    Which images the picture looks up follows from the save alone, so the first drawing
    records their names under the save's key; the picture itself is keyed by those images'
    bytes too (a card face inside a face-down deck is not one of them)."""
    import hashlib

    from .build import encode_png_through, package_digest
    from .picture import (
        TablePictures,
        image_name,
        images_from_files,
        picture_subtitle,
        picture_title,
        table_picture,
    )

    title = picture_title(result.definition.base_data, result.variant)
    subtitle = picture_subtitle(result.folder)
    key = hashlib.sha256(package_digest().encode())  # the renderer, the fonts, the picture
    key.update(json.dumps(result.save, sort_keys=True).encode())
    key.update(repr([result.positions, title, subtitle]).encode())
    uses_key = f"table.png-uses:{key.hexdigest()}"
    uses = cache.get(uses_key)
    if uses is not None:
        digest = _table_digest(key, json.loads(uses), result.files)
        data = cache.get(digest)
        if data is not None:
            return data
    lookup = images_from_files(result.files)
    looked_up: list[str] = []

    def recorded(url: str) -> Any:
        looked_up.append(url)
        return lookup(url)

    pictures = TablePictures(result.files, cache)
    overlay: list[Any] = []
    picture = table_picture(result.save, recorded, result.positions, title, subtitle=subtitle,
                            shrunk=pictures.shrunk, layers=pictures, overlay=overlay)  # fmt: skip
    names = sorted({image_name(url) for url in looked_up})
    cache[uses_key] = json.dumps(names).encode()
    layer = overlay[0][0] if overlay else None
    if layer is not None:  # what the picture is drawn with: its code, the layer under it
        text = json.dumps(layer, sort_keys=True, default=str)
        layer = hashlib.sha256(f"{package_digest()}|{text}".encode()).hexdigest()

    def band(y0: int, y1: int) -> Any:  # a band is known by what is drawn in its rows
        shown = [spec for spec, top, bottom in overlay[1:] if top < y1 and bottom > y0]
        return {"table band": [layer, shown], "rows": [y0, y1], "size": list(picture.size)}

    banded = band if layer is not None else None
    data = encode_png_through(cache, picture, bands=banded)
    cache[_table_digest(key, names, result.files)] = data
    return data


def _table_digest(key: Any, names: list[str], files: dict[str, bytes]) -> str:
    """The cache key of ``table.png``: ``key`` (the save's) and the bytes of the images named."""
    import hashlib

    key = key.copy()
    for name in names:
        data = files.get(name)
        key.update(f"{name}:{hashlib.sha256(data).hexdigest() if data else '-'}".encode())
    return f"table.png:{key.hexdigest()}"
