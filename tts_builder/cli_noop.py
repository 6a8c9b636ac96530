"""A no-op ``build`` answered before the CLI loads: the designer's rebuild after no change.

``tts-builder build [GAMES] [--out DIR] ...`` with nothing changed costs the interpreter's
start and this check only: it reads the arguments itself (a strict subset of what the CLI
takes: anything else, or anything it cannot decide cheaply, goes to the CLI), fingerprints
each game's inputs (:mod:`tts_builder.fingerprint`, through the stat-keyed file hashes), finds
the manifest a build recorded under that fingerprint and the output folders still holding
exactly those files, checks the folders clash no more than a build would, and prints what a
no-op build prints. It imports neither click nor the build machinery (PIL, YAML, Jinja2,
lupa): only hashlib and json. The same decision serves the CLI's own ``build``
(:func:`unchanged`), so both skip exactly the same builds.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

TYPE_CHECKING = False  # typing's own costs an import this module exists to avoid
if TYPE_CHECKING:
    from .fingerprint import FileHashes

#: The build command's options that take a value, by name (click's ``--name value`` or
#: ``--name=value``), and the group's.
BUILD_OPTIONS = ("--variant", "--out", "--base-url")
GROUP_OPTIONS = ("--assets",)


#: The file hashes of the last no-op check that found something to build (its cache folder's,
#: with the code fingerprint it worked out), for the build that follows it in this process
#: (:func:`handed_hashes`).
_HANDED: list[FileHashes] = []


def handed_hashes(path: Path) -> FileHashes | None:
    """The file hashes the no-op check just before worked out for the cache file ``path``
    (taken once: the build it fell through to stats no code file again), else None."""
    hashes = _HANDED.pop() if _HANDED else None
    return hashes if hashes is not None and hashes.path == path else None


def main() -> None:
    """Console-script entry point: a no-op build answered here, any other plain build (the
    arguments :func:`parse_build` reads) run without click (:func:`.cli_build.run_build`),
    anything else by the CLI."""
    argv = sys.argv[1:]
    if answer_noop(argv):
        return
    parsed = parse_build(argv)
    if parsed is not None:
        from .cli_build import run_build

        sys.exit(run_build(*parsed))
    from .cli import run

    sys.exit(run())


def answer_noop(argv: list[str]) -> bool:
    """Whether ``argv`` asks for a build that has nothing to do, its lines then printed on
    stderr (unless ``-q``); False (nothing printed) means the CLI must run it."""
    parsed = parse_build(argv)
    if parsed is None:
        return False
    quiet, options = parsed
    try:
        lines = noop_lines(**options)
    except Exception:  # noqa: BLE001 - anything unexpected: the CLI decides and reports it
        return False
    if lines is None:
        return False
    if not quiet:
        for line in lines:
            print(line, file=sys.stderr)
    return True


def parse_build(argv: list[str]) -> tuple[bool, dict[str, object]] | None:
    """(quiet, the build's options) if ``argv`` is ``[-q] [--assets DIR] build [GAMES]
    [--variant V] [--out DIR] [--base-url URL]`` in plain form (each option once, a value
    never empty nor starting with ``-``); else None."""
    values: dict[str, str] = {}
    games: list[str] = []
    quiet = False
    command = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        name, equals, value = arg.partition("=")
        takes = BUILD_OPTIONS if command else GROUP_OPTIONS
        if name in takes:
            if not equals:
                if not args:
                    return None
                value = args.pop(0)
            if name in values or not value or value.startswith("-"):
                return None
            values[name] = value
        elif arg in ("-q", "--quiet") and command is None and not quiet:
            quiet = True
        elif arg.startswith("-"):
            return None  # --help, --version, an unknown option, "--": the CLI's to answer
        elif command is None:
            if arg != "build":
                return None
            command = arg
        else:
            games.append(arg)
    if command is None:
        return None
    assets = Path(values["--assets"]) if "--assets" in values else None
    if assets is not None and assets.exists() and not assets.is_dir():
        return None  # the CLI's error
    out = Path(values["--out"]) if "--out" in values else None
    options = {
        "games": games,
        "assets": assets,
        "out_dir": out,
        "variant": values.get("--variant"),
        "base_url": values.get("--base-url"),
    }
    return quiet, options


def unchanged(
    game: str,
    request: dict[str, object],
    assets: Path | None,
    out: Path,
    cache: Mapping[str, bytes],
    hashes: FileHashes,
    parse: bool = True,
) -> tuple[str | None, dict[str, int] | None, list[str] | None]:
    """What a build of ``game`` under ``request`` finds recorded: (its manifest's key in the
    build ``cache``, the output folders with their file counts if nothing it reads changed and
    ``out`` holds them as built, else None, the game's variants as recorded). ``parse=False``:
    the key is None when deciding would need the definition parsed (see
    :func:`~tts_builder.fingerprint.build_fingerprint`)."""
    from .fingerprint import MANIFEST_PREFIX, build_fingerprint, recorded_variants, up_to_date

    fingerprint = build_fingerprint(game, request, assets, hashes, parse=parse)
    if fingerprint is None:
        return None, None, None
    key = MANIFEST_PREFIX + fingerprint
    recorded = cache.get(key)
    current = up_to_date(out, recorded, hashes)
    variants = recorded_variants(recorded) if current is not None else None
    return key, (current if variants is not None else None), variants


def noop_lines(
    games: list[str],
    assets: Path | None,
    out_dir: Path | None,
    variant: str | None,
    base_url: str | None,
) -> list[str] | None:
    """What ``build`` prints when none of ``games`` (none: the default set) has anything to
    build, or None when one has (or may have: a build decides)."""
    from .fingerprint import HASHES_FILE, FileHashes
    from .sources import DEFAULT_OUT, available_games, folder_clash, select_games
    from .writer import DirCache

    out = (out_dir or DEFAULT_OUT).resolve()
    cache = DirCache(out / ".cache")
    hashes = FileHashes(out / ".cache" / HASHES_FILE)
    _HANDED.clear()
    request = {"out": str(out), "base_url": base_url, "variant": variant}
    lines: list[str] = []
    variants: dict[str, list[str]] = {}
    try:
        for game in select_games(games, assets):
            _, current, recorded = unchanged(game, request, assets, out, cache, hashes, False)
            if current is None or recorded is None:
                _HANDED.append(hashes)  # for the build this falls through to
                return None
            variants[game] = [variant] if variant else recorded
            lines += noop_report(out, current)
    finally:
        hashes.save()  # what was hashed, for the build that follows or the next no-op
    if folder_clash(variants, available_games(assets)) is not None:
        return None  # the build reports it, at the variant
    return lines


def noop_report(out: Path, current: dict[str, int]) -> list[str]:
    """The lines ``build`` prints for a game with nothing to build (its folders' file counts)."""
    from .sources import shown_path

    lines = []
    for folder, count in current.items():
        note = "0 images rendered (inputs unchanged: nothing rebuilt)"
        lines.append(f"built {folder}: {count} files, {note}")
        lines.append(f"{shown_path(out / folder)}/: up to date")
    return lines
