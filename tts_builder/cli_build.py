"""``tts-builder build`` itself: what the CLI's ``build`` command does (:func:`build_command`).

A build of one ``--out`` folder holds its lock for the whole command (:func:`tts_builder.cache.
locked`: a second build waits, and then finds nothing to do). A game whose inputs (every file of
its folder and the files its definition names outside it, by the sha256 of their bytes) and
whose output folders are as its last build recorded them, with the same code and options, is
skipped: that record, the build manifest, is kept in the build cache only when the inputs
read after the build are those read before it and no input was written meanwhile (a file
changed, even one changed and changed back while it was built, is built again).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

MANIFEST = "build manifest"


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
    from .cache import locked
    from .sources import DEFAULT_OUT, select_games, shown_path

    out = (out_dir or DEFAULT_OUT).resolve()
    chosen_games = select_games(games, assets)

    def waiting() -> None:
        report(f"{shown_path(out)}/: another build is writing it; waiting for it to end")

    with locked(out, on_wait=waiting) as store:
        _build_games(report, store, out, assets, chosen_games, variant, base_url)


def _build_games(
    report: Callable[[str], None],
    store: Any,
    out: Path,
    assets: Path | None,
    chosen_games: list[str],
    variant: str | None,
    base_url: str | None,
) -> None:
    """:func:`build_command` with the folder's lock held (``store``: its cache)."""
    from .sources import shown_path

    request = {"out": str(out), "base_url": base_url, "variant": variant}
    loaded: dict[str, Any] = {}  # each game's definition, loaded once for all its variants

    def definition(game: str) -> Any:
        if game not in loaded:
            from .definition import load_definition

            loaded[game] = load_definition(game, assets)
        return loaded[game]

    # Nothing a game's build reads changed, and its folders are as built: it is skipped.
    records, skipped, variants = {}, {}, {}
    failed = Failures(chosen_games)
    for game in chosen_games:
        record = records[game] = Record(game, assets, request, store)
        if record.current is not None:
            skipped[game] = record.current
        if variant:
            variants[game] = [variant]
        else:
            variants[game] = record.variants if record.current is not None else None
    for game, names in variants.items():
        if names is None:
            with failed.kept(game):
                variants[game] = definition(game).variants
    _check_folders({g: variants[g] for g in failed.others()}, assets, definition)
    builds = []
    for game in failed.others():
        if game in skipped:
            for line in noop_report(out, skipped[game]):
                report(line)
            continue
        with failed.kept(game):
            records[game].read_outside(definition(game).base_data)
            made = []
            for chosen in [variant] if variant else [None, *definition(game).variants]:
                from .build import BuildOptions

                started = time.perf_counter()
                options = BuildOptions(out_dir=out, base_url=base_url, variant=chosen)
                result = build_checked(game, options, store, assets, definition(game))
                made.append(result)
                report(
                    f"built {result.folder} from {shown_path(result.definition.root)}: "
                    f"{len(result.files)} files, {result.rendered} images "
                    f"rendered ({time.perf_counter() - started:.2f}s)"
                )
            builds.append((game, made))
    if builds:
        _write(report, out, builds)
    for game, made in builds:  # what the next build may skip
        folders = {result.folder: result.files for result in made}
        if not records[game].keep(folders, definition(game).variants):
            report(f"{game}: its files changed while it was built; the next build builds it again")
    failed.raise_any()


class Failures:
    """The games of a build that failed: with one game chosen its error ends the build as
    any error does; with several, each is printed when it happens, the others are built
    and written, and :meth:`raise_any` ends the command with exit 2."""

    def __init__(self, games: list[str]) -> None:
        self.games = games
        self.failed: list[str] = []

    @contextmanager
    def kept(self, game: str) -> Iterator[None]:
        """Run the block for ``game``; a BuildError in it fails that game only."""
        from .errors import BuildError

        try:
            yield
        except BuildError as err:
            if len(self.games) == 1:
                raise
            click.echo(f"error: {err}", err=True)
            self.failed.append(game)

    def others(self) -> list[str]:
        """The games not failed yet, in order."""
        return [game for game in self.games if game not in self.failed]

    def raise_any(self) -> None:
        """BuildError naming the failed games, if any."""
        from .errors import BuildError

        if self.failed:
            raise BuildError(
                f"{len(self.failed)} of {len(self.games)} games failed to build "
                f"({', '.join(self.failed)}); the others are built"
            )


def _write(report: Callable[[str], None], out: Path, builds: list[tuple[str, list[Any]]]) -> None:
    """Write every build (all built and checked first: all or nothing)."""
    from .build import describe_outputs
    from .sources import shown_path
    from .writer import tree_matches, write_tree

    for _, made in builds:
        for result in made:
            dest = out / result.folder
            if tree_matches(dest, result.files):
                report(f"{shown_path(dest)}/: up to date")
            else:
                write_tree(dest, result.files)
                report(f"wrote {shown_path(dest)}/: {describe_outputs(result.files)}")


class Record:
    """What the last build of ``game`` under ``request`` recorded in ``store`` (its manifest:
    the inputs by sha256, the output folders' files by sha256, the game's variants), and
    whether it still holds: :attr:`current` (the output folders with their file counts) is
    None unless every input and output is as recorded."""

    def __init__(self, game: str, assets: Path | None, request: Mapping[str, object], store: Any):
        from .cache import files_under, key
        from .sources import find_game

        source = find_game(game, assets)
        self.folder = source.folder.resolve()
        self.store = store
        self.key = key(MANIFEST, game, source.origin, str(self.folder), dict(request))
        self.stamps = {str(self.folder / rel): stamp(self.folder / rel)
                       for rel in files_under(self.folder)}  # fmt: skip
        self.inputs = read_inputs(self.folder)
        self.variants: list[str] | None = None
        self.current: dict[str, int] | None = None
        try:
            recorded = json.loads(store.get(self.key) or b"null")
            self.current = self._holds(recorded, Path(str(request["out"])))
        except (ValueError, TypeError, KeyError, AttributeError, OSError):
            self.current = None
        if self.current is None:
            self.variants = None

    def _holds(self, recorded: Any, out: Path) -> dict[str, int] | None:
        if not isinstance(recorded, dict):
            return None
        inputs = recorded["inputs"]
        inside = {path: sha for path, sha in inputs.items() if path in self.inputs}
        if inside != self.inputs:  # a file of the game's folder added, removed or changed
            return None
        for path, sha in inputs.items():
            if path not in self.inputs:
                self.stamps[path] = stamp(Path(path))
                found = hash_file(Path(path))
                if found != sha:
                    return None
                self.inputs[path] = found
        for folder, files in recorded["folders"].items():
            if read_inputs(out / folder, relative=True) != files:
                return None
        variants = recorded["variants"]
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            return None
        self.variants = variants
        return {folder: len(files) for folder, files in recorded["folders"].items()}

    def read_outside(self, data: Any) -> None:
        """Add the files outside the game's folder its definition ``data`` names."""
        for path in outside_files(path_strings(data), self.folder):
            if str(path) not in self.inputs:
                self.stamps[str(path)] = stamp(path)
                self.inputs[str(path)] = hash_file(path)

    def keep(self, folders: Mapping[str, Mapping[str, bytes]], variants: list[str]) -> bool:
        """Record this build (its output ``folders``), if its inputs are still those read
        before it; whether they were."""
        from .cache import sha256

        after = read_inputs(self.folder)
        for path in self.inputs:
            if path not in after:
                after[path] = hash_file(Path(path))
        if after != self.inputs:
            return False
        if any(stamp(Path(path)) != self.stamps.get(path) for path in self.inputs):
            return False  # written while it was built (perhaps back to the same bytes)
        files = {folder: {rel: sha256(data) for rel, data in made.items()}
                 for folder, made in folders.items()}  # fmt: skip
        record = {"inputs": self.inputs, "folders": files, "variants": variants}
        self.store[self.key] = json.dumps(record, sort_keys=True).encode()
        return True


def hash_file(path: Path) -> str | None:
    """The sha256 of a file's bytes, or None if it cannot be read."""
    from .cache import sha256

    try:
        with open(path, "rb") as handle:
            return sha256(handle.read())
    except OSError:
        return None


def stamp(path: Path) -> tuple[int, int, int, int] | None:
    """When and how a file last changed (status change and modification times, size, inode),
    or None if it is gone: any write between two stamps changes it, even one putting back the
    bytes it replaced."""
    try:
        status = path.stat()
    except OSError:
        return None
    return (status.st_ctime_ns, status.st_mtime_ns, status.st_size, status.st_ino)


def read_inputs(folder: Path, relative: bool = False) -> dict[str, str | None]:
    """Every file under ``folder`` by path (absolute, or ``relative`` to it) -> sha256 of its
    bytes."""
    from .cache import files_under

    found = {}
    for rel in files_under(folder):
        path = folder / rel
        found[rel if relative else str(path)] = hash_file(path)
    return found


def path_strings(value: object) -> list[str]:
    """Every string in a definition's data that may name a file (holds ``/`` or ``\\``)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "/" in item or "\\" in item:
                found.add(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return sorted(found)


def outside_files(strings: list[str], folder: Path) -> list[Path]:
    """The files outside ``folder`` that ``strings`` name (``../art/x.png``), sorted."""
    found: set[Path] = set()
    for value in strings:
        try:
            path = (folder / value).resolve()
            if path.is_file() and folder not in path.parents:
                found.add(path)
        except (OSError, ValueError):
            pass
    return sorted(found)


def noop_report(out: Path, current: dict[str, int]) -> list[str]:
    """The lines ``build`` prints for a game with nothing to build (its folders' file counts)."""
    from .sources import shown_path

    lines = []
    for folder, count in current.items():
        note = "0 images rendered (inputs unchanged: nothing rebuilt)"
        lines.append(f"built {folder}: {count} files, {note}")
        lines.append(f"{shown_path(out / folder)}/: up to date")
    return lines


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
    """``table.png`` of a build (the table at load, as TTS lays it out), through the build
    cache: keyed by all it is drawn from, the save, the script positions, the title and the
    bytes of the build's images."""
    from .cache import get_or_make, key, sha256

    title_of = (result.definition.base_data, result.variant)
    images = {name: sha256(data) for name, data in result.files.items() if name.endswith(".png")}
    save = sha256(json.dumps(result.save, sort_keys=True).encode())
    name = key("table.png", save, repr(result.positions), title_of[1], result.folder, images,
               sha256(json.dumps(title_of[0], sort_keys=True, default=str).encode()))  # fmt: skip
    return get_or_make(cache, name, lambda: draw_table(result))


def draw_table(result: Any) -> bytes:
    """The PNG bytes of ``table.png`` of a build."""
    from .picture import images_from_files, picture_subtitle, picture_title, table_picture
    from .render import encode_png

    title = picture_title(result.definition.base_data, result.variant)
    subtitle = picture_subtitle(result.folder)
    picture = table_picture(result.save, images_from_files(result.files), result.positions,
                            title, subtitle=subtitle)  # fmt: skip
    return encode_png(picture)
