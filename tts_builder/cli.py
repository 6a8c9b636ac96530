"""The ``tts-builder`` command line: parse, call the pipeline, print, map outcomes to exit codes.

Exit codes: 0 ok, 1 a verification mismatch, 2 bad input (one line naming file, line and
field), 3 an internal error.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from .cli_balance import register as register_balance
from .cli_ship import register as register_ship
from .errors import BuildError

EXIT_OK, EXIT_MISMATCH, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


class Reporter:
    """Shared options: progress lines on stderr (silenced by ``-q``) and the assets folder."""

    def __init__(self, quiet: bool, assets: Path | None = None) -> None:
        self.quiet = quiet
        self.assets = assets

    def __call__(self, message: str) -> None:
        if not self.quiet:
            click.echo(message, err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-q", "--quiet", is_flag=True, help="Print no progress.")
@click.option(
    "--assets",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder holding <game>/game.yaml, looked in first (then the current folder, then "
    "the bundled games).",
)
@click.version_option(package_name="tts-builder")
@click.pass_context
def cli(ctx: click.Context, quiet: bool, assets: Path | None) -> None:
    """Build Tabletop Simulator mods from game definitions and verify their Lua."""
    ctx.obj = Reporter(quiet, assets)


def _games(games: tuple[str, ...], assets: Path | None = None) -> list[str]:
    """The named games (a one-line error for an unknown one), else the default set."""
    from .definition import select_games

    return select_games(games, assets)


def _variants(game: str, assets: Path | None) -> list[str]:
    from .definition import load_definition

    return load_definition(game, assets).variants


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--variant", help="Build only this variant (default: the game and every variant).")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Output folder (default: dist/ in the current folder).",
)
@click.option("--base-url", help="Serve assets from this URL instead of local files.")
@click.pass_obj
def build(
    report: Reporter,
    games: tuple[str, ...],
    variant: str | None,
    out_dir: Path | None,
    base_url: str | None,
) -> None:
    """Build GAMES into dist/<game>/ (default: the games in the current folder, if any, else
    every bundled game)."""
    from .build import DEFAULT_OUT, BuildOptions, describe_outputs
    from .cli_noop import handed_hashes, noop_report, unchanged
    from .definition import load_definition, shown_path
    from .fingerprint import HASHES_FILE, FileHashes, manifest
    from .writer import DirCache, tree_matches, write_tree

    out = (out_dir or DEFAULT_OUT).resolve()
    cache = DirCache(out / ".cache")
    stored = out / ".cache" / HASHES_FILE
    hashes = handed_hashes(stored) or FileHashes(stored)  # the no-op check's, if it just ran
    builds = []
    request = {"out": str(out), "base_url": base_url, "variant": variant}
    chosen_games = _games(games, report.assets)
    loaded: dict[str, Any] = {}  # each game's definition, loaded once for all its variants

    def definition(game: str) -> Any:
        if game not in loaded:
            loaded[game] = load_definition(game, report.assets)
        return loaded[game]

    # Nothing a game's build reads changed, and its folders are as built: it is skipped.
    keys, skipped, variants = {}, {}, {}
    for game in chosen_games:
        found = unchanged(game, request, report.assets, out, cache, hashes)
        keys[game], current, recorded = found
        if current is not None:
            skipped[game] = current
        if variant:
            variants[game] = [variant]
        else:
            variants[game] = recorded if current is not None else definition(game).variants
    _check_folders(variants, report.assets, definition)
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
                result = build_checked(game, options, cache, report.assets, definition(game))
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


@cli.command()
@click.argument("name")
@click.option(
    "--from",
    "from_game",
    default="arche-noah",
    show_default=True,
    help="The game to copy (bundled, or one of yours).",
)
@click.pass_obj
def new(report: Reporter, name: str, from_game: str) -> None:
    """Start your own game NAME: a renamed copy of a game in ./NAME/ (or --assets DIR/NAME/)."""
    import shutil
    import tempfile

    from .definition import find_game, load_definition, shown_path
    from .scaffold import check_new_id, new_game_files
    from .writer import write_tree

    check_new_id(name)
    root = report.assets or Path.cwd()
    dest = root / name
    if dest.exists():
        raise BuildError(f"{shown_path(dest)}: already exists; pick another name or remove it")
    source = find_game(from_game, report.assets)
    engine = load_definition(from_game, report.assets).rules_engine
    originals = {
        p.relative_to(source.folder).as_posix(): p.read_bytes()
        for p in sorted(source.folder.rglob("*"))
        if p.is_file()
    }
    files = new_game_files(originals, from_game, name, engine)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.new-", dir=root))
    try:  # check the copy loads before it appears under its name: nothing half-written
        write_tree(staging / name, files)
        load_definition(name, staging)
        (staging / name).replace(dest)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    click.echo(
        f"wrote {shown_path(dest)}/: {len(files)} files, a copy of {from_game} (engine {engine})"
    )
    report(
        f"next: edit {shown_path(dest / 'game.yaml')}, then `tts-builder build {name}` "
        f"and `tts-builder install {name}`"
    )


@cli.command(name="list")
@click.pass_obj
def list_games(report: Reporter) -> None:
    """List the games found (--assets, current folder, bundled): players, variants, origin."""
    from .definition import available_games, load_definition, shown_path

    broken = 0
    for source in available_games(report.assets):
        where = source.origin
        try:
            definition = load_definition(source.id, report.assets)
        except BuildError as err:  # list the others anyway; exit 2 at the end
            broken += 1
            click.echo(f"{source.id}\tcannot load: {err}\t{where} ({shown_path(source.folder)})")
            continue
        low, high = definition.players
        variants = ", ".join(definition.variants) or "-"
        if source.origin != "bundled":
            where += f" ({shown_path(source.folder)}, engine {definition.rules_engine})"
        click.echo(
            f"{source.id}\t{definition.name}\t{low}-{high} players\tvariants: {variants}\t{where}"
        )
    if broken:
        sys.exit(EXIT_BAD_INPUT)


def _engines(game: str, assets: Path | None, variant: str | None = None) -> Any:
    """The build of ``game`` (or a variant) and its two rule engines."""
    from .build import DEFAULT_OUT, BuildOptions, build_game
    from .games import game_module
    from .verify import Engines
    from .writer import DirCache

    cache = DirCache(DEFAULT_OUT / ".cache")
    result = build_game(game, BuildOptions(variant=variant), cache, assets)
    config = game_module(result.engine).rules_config(result.definition.data, variant)
    return result, Engines(result.engine, config, result.global_script)


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--examples", default=2000, show_default=True, help="Generated inputs per function.")
@click.option("--seed", default=0, show_default=True, help="Seed for the input generator.")
@click.option(
    "--table",
    "table_games",
    default=0,
    show_default=True,
    help="Also play this many random games on each emulated table (model-based).",
)
@click.option(
    "--variant",
    "only_variant",
    help="Check only this variant (default: the game and every variant).",
)
@click.pass_obj
def verify(
    report: Reporter,
    games: tuple[str, ...],
    examples: int,
    seed: int,
    table_games: int,
    only_variant: str | None,
) -> None:
    """Cross-check every function of the shipped Rules tables: Lua vs rules_ref (and, with
    --table, whole random games on the emulated table against rules_ref).

    Fails (exit 1) on a disagreement, on an exception that is no declared rule_error, on a
    Rules function without a rules_ref twin or an input strategy (each named), and on a table
    game that parts from rules_ref (its shortest failing action sequence printed)."""
    from .play import has_driver, play_table
    from .strategies import strategies_for
    from .verify import check_functions

    failed = False
    chosen_games = _games(games, report.assets)
    for game in chosen_games if only_variant is not None else []:
        if only_variant not in _variants(game, report.assets):
            known = ", ".join(_variants(game, report.assets)) or "none"
            raise BuildError(
                f"--variant: {game} has no variant {only_variant!r} (variants: {known})"
            )
    for game in chosen_games:
        variants = [only_variant] if only_variant else [None, *_variants(game, report.assets)]
        built = {v: _engines(game, report.assets, v) for v in variants}
        # Variants with the same rule config draw the same inputs: generate them once for all.
        groups: dict[str, list[Any]] = {}
        for variant, (result, engines) in built.items():
            key = json.dumps([engines.config, result.definition.players], sort_keys=True,
                             default=str)  # fmt: skip
            groups.setdefault(key, []).append(variant)
        checks: dict[tuple[Any, str], tuple[Any, float]] = {}
        for variant in variants:
            result, engines = built[variant]
            generators = strategies_for(
                result.engine, engines.config, result.definition.players, malformed=True
            )
            gaps = engines.contract_gaps(generators)
            for gap in gaps:
                click.echo(f"{result.folder}: {gap}")
            checked = 0
            for name in engines.names():
                if name not in generators:
                    continue
                if (variant, name) not in checks:
                    group = [
                        v
                        for v in next(g for g in groups.values() if variant in g)
                        if (v, name) not in checks and name in built[v][1].names()
                    ]
                    started = time.perf_counter()
                    outcomes = check_functions([built[v][1] for v in group], name,
                                               generators[name], examples, seed)  # fmt: skip
                    took = time.perf_counter() - started
                    for v, outcome in zip(group, outcomes, strict=True):
                        checks[(v, name)] = (outcome, took)
                outcome, took = checks[(variant, name)]
                label = f"{result.folder} {name}"
                if outcome.mismatch is None:
                    checked += 1
                    report(f"{label}: {outcome.tried} distinct inputs agree ({took:.1f}s)")
                else:
                    click.echo(f"{result.folder} {outcome.mismatch.describe()}")
            total = len(engines.lua_names())
            click.echo(f"{result.folder}: {checked} of {total} functions cross-checked")
            failed |= bool(gaps) or checked < total
            if table_games > 0 and has_driver(game):
                started = time.perf_counter()
                run = play_table(game, result, variant, table_games, seed)
                took = time.perf_counter() - started
                if run.failure is None:
                    report(
                        f"{result.folder} table: {run.games} games agree with rules_ref "
                        f"({took:.1f}s)"
                    )
                else:
                    failed = True
                    click.echo(
                        f"{result.folder} table: game {run.games} fails; shortest "
                        f"failing sequence, {run.failure.describe()}"
                    )
    if failed:
        sys.exit(EXIT_MISMATCH)


@cli.command(name="eval")
@click.argument("game")
@click.argument("function")
@click.argument("payload")
@click.option(
    "--engine", type=click.Choice(["lua", "python", "both"]), default="both", show_default=True
)
@click.option("--variant", help="Build this variant and apply its rules.")
@click.pass_obj
def evaluate(
    report: Reporter, game: str, function: str, payload: str, engine: str, variant: str | None
) -> None:
    """Run one rule FUNCTION of GAME on a JSON PAYLOAD and print the output as JSON.

    Payloads and examples: docs/eval.md. A payload the rule refuses exits 2 with each engine's
    reason; a disagreement or any other error exits 1."""
    from .strategies import variant_input
    from .verify import agree, is_refusal

    try:
        inp = json.loads(payload)
    except json.JSONDecodeError as err:
        raise BuildError(f"payload: invalid JSON at column {err.colno}: {err.msg}") from None
    if not isinstance(inp, dict):
        raise BuildError("payload: must be a JSON object (the rule's input table)")
    if variant is not None and variant not in _variants(game, report.assets):
        known = ", ".join(_variants(game, report.assets)) or "none"
        raise BuildError(f"--variant: {game} has no variant {variant!r} (variants: {known})")
    result, engines = _engines(game, report.assets, variant)
    engines.check_name(function)
    inp = {**variant_input(result.engine, result.definition.data, variant), **inp}
    outcomes = {}
    if engine in ("lua", "both"):
        outcomes["lua"] = engines.lua(function, inp, detail=True)
    if engine in ("python", "both"):
        outcomes["python"] = engines.python(function, inp, detail=True)
    if (
        all(is_refusal(out) for out in outcomes.values())
        and len({out["rule_error"] for out in outcomes.values()}) == 1
    ):
        reasons = "; ".join(f"{side}: {out['message']}" for side, out in outcomes.items())
        raise BuildError(
            f"{result.folder} {function} refused the payload: " + " ".join(reasons.split())
        )
    if engine == "both":
        lua, python = outcomes["lua"], outcomes["python"]
        out: Any = {"lua": lua, "python": python, "agree": agree(lua, python)}
        failed = not out["agree"]
    else:
        out = outcomes[engine]
        failed = "crash" in out if isinstance(out, dict) else False
    click.echo(json.dumps(out, ensure_ascii=False, sort_keys=True))
    if failed:
        sys.exit(EXIT_MISMATCH)


@cli.command(name="eval-doc")
@click.option("--write", is_flag=True, help="Write ./docs/eval.md instead of printing it.")
@click.pass_obj
def eval_doc_command(report: Reporter, write: bool) -> None:
    """Generate docs/eval.md: every rule function's payload and output, with examples."""
    from .eval_doc import DOC_PATH, eval_doc

    text = eval_doc(report.assets)
    if not write:
        click.echo(text, nl=False)
        return
    path = DOC_PATH  # relative: run from the project's folder
    if path.exists() and path.read_text(encoding="utf-8") == text:
        report(f"{path}: up to date")
        return
    path.write_text(text, encoding="utf-8")
    report(f"wrote {path}")


@cli.command()
@click.argument("saves", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--all", "show_all", is_flag=True, help="Also list [conv] findings.")
@click.option("--strict", is_flag=True, help="Fail on [geo] findings too (as build does).")
def check(saves: tuple[Path, ...], show_all: bool, strict: bool) -> None:
    """Check TTS save files against the format conventions (FORMAT.md §7) and the table's
    geometry (GEOMETRY.md). [req] findings fail; [geo] ones are listed (and fail with --strict:
    real mods legitimately break the conventions the builders keep)."""
    from .save import loads
    from .save.checker import check_file_bytes, check_geometry, check_save
    from .save.geometry_checks import image_size_from_disk

    failed = False
    found = required = 0
    for path in saves:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise BuildError(f"{path}: cannot read: {err.strerror}") from None
        save = loads(data, str(path))
        findings = check_file_bytes(data) + check_save(save)
        findings += check_geometry(save, image_size_from_disk)
        for finding in findings:
            if finding.level != "conv" or show_all:
                click.echo(f"{path}: [{finding.level}] {finding.path}: {finding.message}")
        failed |= any(f.level == "req" or (strict and f.level == "geo") for f in findings)
        found += len(findings)
        required += sum(f.level == "req" for f in findings)
    shown = "" if show_all or found == required else " (--all lists the others)"
    click.echo(
        f"checked {len(saves)} save{'s' * (len(saves) != 1)}: {found} finding"
        f"{'s' * (found != 1)}, {required} required{shown}"
    )
    if failed:
        sys.exit(EXIT_BAD_INPUT)


@cli.command()
@click.argument("game")
@click.option("--variant", help="Draw this variant's save.")
@click.option(
    "--players",
    type=int,
    default=None,
    help="Seated players for --after-setup (default: every player count).",
)
@click.option("--after-setup", is_flag=True, help="Run Setup on the emulated table first.")
@click.option(
    "--out",
    "out_file",
    type=click.Path(path_type=Path),
    default=None,
    help="PNG to write (default: dist/<game>/table.png, or table-setup-<N>p.png).",
)
@click.pass_obj
def table(
    report: Reporter,
    game: str,
    variant: str | None,
    players: int | None,
    after_setup: bool,
    out_file: Path | None,
) -> None:
    """Draw GAME's table as TTS lays it out, seen from above, into a PNG."""
    from .build import DEFAULT_OUT, BuildOptions, build_game
    from .picture import after_setup as run_setup
    from .picture import (
        images_from_files,
        picture_subtitle,
        picture_title,
        seat_order,
        table_picture,
    )
    from .render import encode_png
    from .writer import DirCache

    _games((game,), report.assets)
    if out_file is not None and after_setup and players is None:
        raise BuildError("--out names one file: give --players too")
    if players is not None:
        if not after_setup:
            raise BuildError("--players: seats players for --after-setup only; add --after-setup")
        from .definition import load_definition

        low, high = load_definition(game, report.assets).players
        if not low <= players <= high:
            raise BuildError(f"--players {players}: {game} takes {low}-{high} players")
    out = DEFAULT_OUT.resolve()
    result = build_game(game, BuildOptions(out_dir=out, variant=variant), DirCache(out / ".cache"),
                        report.assets)  # fmt: skip
    images = images_from_files(result.files)
    title = picture_title(result.definition.base_data, variant)
    if not after_setup:
        picture = table_picture(result.save, images, result.positions, title,
                                subtitle=picture_subtitle(result.folder))  # fmt: skip
        pictures = {"table.png": picture}
    else:
        from .games import game_module

        module = game_module(result.engine)
        config = module.rules_config(result.definition.data, variant)
        low, high = result.definition.players
        pictures = {}
        for count in [players] if players is not None else range(low, high + 1):
            state = run_setup(result.save, count, images=result.files)
            # A game whose Setup lays the table out per player count says where its script's
            # positions are then; otherwise they are the build's.
            laid_out = getattr(module, "positions_on", None)
            positions = (laid_out(state, result.definition.data, config, count) if laid_out
                         else result.positions)  # fmt: skip
            seated = seat_order(result.save)[:count]
            subtitle = picture_subtitle(result.folder, seated)
            pictures[f"table-setup-{count}p.png"] = table_picture(
                state, images, positions, title, subtitle=subtitle, seated=seated
            )
    for name, picture in pictures.items():
        dest = out_file or out / result.folder / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(encode_png(picture))
        report(f"wrote {dest}")


register_ship(cli)
register_balance(cli)


def run(argv: list[str] | None = None, entry: Callable[..., Any] = cli) -> int:
    """Run the CLI and return its exit code; expected errors print one line, never a traceback."""
    try:
        entry.main(args=argv, prog_name="tts-builder", standalone_mode=False)
    except BuildError as err:
        click.echo(f"error: {err}", err=True)
        return EXIT_BAD_INPUT
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as err:
        err.show()
        return EXIT_BAD_INPUT
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        return EXIT_BAD_INPUT
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_INTERNAL
    except Exception as err:  # noqa: BLE001 - the last line of defence: one line, exit 3
        click.echo(f"internal error: {type(err).__name__}: {err}", err=True)
        return EXIT_INTERNAL
    return EXIT_OK


def main() -> None:
    """Console-script entry point (of an install made before :func:`.cli_noop.main` became
    it): a no-op build answered before the build machinery loads, anything else run."""
    from .cli_noop import answer_noop

    if not answer_noop(sys.argv[1:]):
        sys.exit(run())
