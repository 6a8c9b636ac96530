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
    "--assets", type=click.Path(path_type=Path, file_okay=False), default=None,
    help="Folder holding <game>/game.yaml (default: the project's assets/).",
)
@click.version_option(package_name="tts-builder")
@click.pass_context
def cli(ctx: click.Context, quiet: bool, assets: Path | None) -> None:
    """Build Tabletop Simulator mods from game definitions and verify their Lua."""
    ctx.obj = Reporter(quiet, assets)


def _games(games: tuple[str, ...]) -> list[str]:
    from .games import game_ids, game_module

    for game in games:
        game_module(game)  # a one-line error for an unknown id
    return list(games) or game_ids()


def _variants(game: str, assets: Path | None) -> list[str]:
    from .definition import load_definition

    return load_definition(game, assets).variants


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--variant", help="Build only this variant (default: the game and every variant).")
@click.option(
    "--out", "out_dir", type=click.Path(path_type=Path), default=None,
    help="Output folder (default: dist/ in the project).",
)
@click.option("--base-url", help="Serve assets from this URL instead of local files.")
@click.pass_obj
def build(
    report: Reporter, games: tuple[str, ...], variant: str | None, out_dir: Path | None,
    base_url: str | None,
) -> None:
    """Build GAMES (default: every bundled game) into dist/<game>/."""
    from .build import BuildOptions, build_game, check_build, lint_build
    from .definition import REPO_ROOT
    from .picture import images_from_files, table_picture
    from .render import encode_png
    from .writer import DirCache, tree_matches, write_tree

    out = (out_dir or REPO_ROOT / "dist").resolve()
    cache = DirCache(out / ".cache")
    builds = []
    for game in _games(games):
        variants = [variant] if variant else [None, *_variants(game, report.assets)]
        for chosen in variants:
            started = time.perf_counter()
            options = BuildOptions(out_dir=out, base_url=base_url, variant=chosen)
            result = build_game(game, options, cache, report.assets)
            lint_build(result)
            problems = check_build(result)
            if problems:
                name, first = problems[0]
                message = f"generated save fails {first.path}: {first.message}"
                if len(problems) > 1:
                    message += f" (and {len(problems) - 1} more findings)"
                raise RuntimeError(f"{result.folder}/{name}: {message}")
            # The table at load, as TTS lays it out, beside preview.png.
            picture = table_picture(result.save, images_from_files(result.files),
                                    result.positions, result.folder)  # fmt: skip
            result.files["table.png"] = encode_png(picture)
            builds.append(result)
            report(
                f"built {result.folder}: {len(result.files)} files, {result.rendered} images "
                f"rendered ({time.perf_counter() - started:.2f}s)"
            )
    # Everything is built and checked before anything is written: all or nothing.
    for result in builds:
        dest = out / result.folder
        if tree_matches(dest, result.files):
            report(f"{dest}: up to date")
        else:
            write_tree(dest, result.files)
            report(f"wrote {dest}")


@cli.command(name="list")
@click.pass_obj
def list_games(report: Reporter) -> None:
    """List the bundled games, their player counts and variants."""
    from .definition import load_definition
    from .games import game_ids

    for game in game_ids():
        definition = load_definition(game, report.assets)
        low, high = definition.players
        variants = ", ".join(definition.variants) or "-"
        click.echo(f"{game}\t{definition.name}\t{low}-{high} players\tvariants: {variants}")


def _engines(game: str, assets: Path | None, variant: str | None = None) -> Any:
    """The build of ``game`` (or a variant) and its two rule engines."""
    from .build import BuildOptions, build_game
    from .definition import REPO_ROOT
    from .games import game_module
    from .verify import Engines
    from .writer import DirCache

    cache = DirCache(REPO_ROOT / "dist" / ".cache")
    result = build_game(game, BuildOptions(variant=variant), cache, assets)
    config = game_module(game).rules_config(result.definition.data, variant)
    return result, Engines(game, config, result.global_script)


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--examples", default=2000, show_default=True, help="Generated inputs per function.")
@click.option("--seed", default=0, show_default=True, help="Seed for the input generator.")
@click.option("--table", "table_games", default=0, show_default=True,
              help="Also play this many random games on each emulated table (model-based).")
@click.pass_obj
def verify(
    report: Reporter, games: tuple[str, ...], examples: int, seed: int, table_games: int
) -> None:
    """Cross-check every function of the shipped Rules tables: Lua vs rules_ref (and, with
    --table, whole random games on the emulated table against rules_ref).

    Fails (exit 1) on a disagreement, on an exception that is no declared rule_error, on a
    Rules function without a rules_ref twin or an input strategy (each named), and on a table
    game that parts from rules_ref (its shortest failing action sequence printed)."""
    from .play import has_driver, play_table
    from .strategies import strategies_for
    from .verify import check_function

    failed = False
    for game in _games(games):
        for variant in [None, *_variants(game, report.assets)]:
            result, engines = _engines(game, report.assets, variant)
            generators = strategies_for(game, engines.config, result.definition.players)
            gaps = engines.contract_gaps(generators)
            for gap in gaps:
                click.echo(f"{result.folder}: {gap}")
            checked = 0
            for name in engines.names():
                if name not in generators:
                    continue
                started = time.perf_counter()
                outcome = check_function(engines, name, generators[name], examples, seed)
                took = time.perf_counter() - started
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
                    report(f"{result.folder} table: {run.games} games agree with rules_ref "
                           f"({took:.1f}s)")
                else:
                    failed = True
                    click.echo(f"{result.folder} table: game {run.games} fails; shortest "
                               f"failing sequence, {run.failure.describe()}")
    if failed:
        sys.exit(EXIT_MISMATCH)


@cli.command(name="eval")
@click.argument("game")
@click.argument("function")
@click.argument("payload")
@click.option(
    "--engine", type=click.Choice(["lua", "python", "both"]), default="both", show_default=True
)
@click.option("--variant", help="Use this variant's rules.")
@click.pass_obj
def evaluate(
    report: Reporter, game: str, function: str, payload: str, engine: str, variant: str | None
) -> None:
    """Run one rule FUNCTION of GAME on a JSON PAYLOAD and print the output as JSON."""
    try:
        inp = json.loads(payload)
    except json.JSONDecodeError as err:
        raise BuildError(f"payload: invalid JSON at column {err.colno}: {err.msg}") from None
    _, engines = _engines(game, report.assets, variant)
    engines.check_name(function)
    if engine == "lua":
        out: Any = engines.lua(function, inp)
    elif engine == "python":
        out = engines.python(function, inp)
    else:
        lua, python = engines.lua(function, inp), engines.python(function, inp)
        out = {"lua": lua, "python": python, "agree": lua == python}
    click.echo(json.dumps(out, ensure_ascii=False, sort_keys=True))
    if engine == "both" and not out["agree"]:
        sys.exit(EXIT_MISMATCH)


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
    if failed:
        sys.exit(EXIT_BAD_INPUT)


@cli.command()
@click.argument("game")
@click.option("--variant", help="Draw this variant's save.")
@click.option("--players", type=int, default=None,
              help="Seated players for --after-setup (default: every player count).")
@click.option("--after-setup", is_flag=True, help="Run Setup on the emulated table first.")
@click.option("--out", "out_file", type=click.Path(path_type=Path), default=None,
              help="PNG to write (default: dist/<game>/table.png, or table-setup-<N>p.png).")
@click.pass_obj
def table(
    report: Reporter, game: str, variant: str | None, players: int | None, after_setup: bool,
    out_file: Path | None,
) -> None:
    """Draw GAME's table as TTS lays it out, seen from above, into a PNG."""
    from .build import BuildOptions, build_game
    from .definition import REPO_ROOT
    from .picture import after_setup as run_setup
    from .picture import images_from_files, table_picture
    from .render import encode_png
    from .writer import DirCache

    _games((game,))
    if out_file is not None and after_setup and players is None:
        raise BuildError("--out names one file: give --players too")
    out = REPO_ROOT / "dist"
    result = build_game(game, BuildOptions(out_dir=out, variant=variant), DirCache(out / ".cache"),
                        report.assets)  # fmt: skip
    images = images_from_files(result.files)
    if not after_setup:
        picture = table_picture(result.save, images, result.positions, result.folder)
        pictures = {"table.png": picture}
    else:
        low, high = result.definition.players
        pictures = {
            f"table-setup-{count}p.png": table_picture(
                run_setup(result.save, count), images, result.positions,
                f"{result.folder}: after Setup, {count} players",
            )
            for count in ([players] if players else range(low, high + 1))
        }  # fmt: skip
    for name, picture in pictures.items():
        dest = out_file or out / result.folder / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(encode_png(picture))
        report(f"wrote {dest}")


register_ship(cli)


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
    """Console-script entry point."""
    sys.exit(run())
