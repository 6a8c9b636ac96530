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
    from .build import BuildOptions, build_game, lint_build
    from .definition import REPO_ROOT
    from .save.checker import check_save
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
            for name, save in result.saves().items():
                problems = [f for f in check_save(save) if f.level == "req"]
                if problems:
                    first = problems[0]
                    message = f"generated save fails {first.path}: {first.message}"
                    raise RuntimeError(f"{result.folder}/{name}: {message}")
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
@click.pass_obj
def verify(report: Reporter, games: tuple[str, ...], examples: int, seed: int) -> None:
    """Cross-check every scripted rule function: shipped Lua vs rules_ref."""
    from .strategies import strategies_for
    from .verify import check_function

    mismatches = 0
    for game in _games(games):
        for variant in [None, *_variants(game, report.assets)]:
            result, engines = _engines(game, report.assets, variant)
            generators = strategies_for(game, engines.config, result.definition.players)
            for name in engines.names():
                started = time.perf_counter()
                outcome = check_function(engines, name, generators[name], examples, seed)
                took = time.perf_counter() - started
                label = f"{result.folder} {name}"
                if outcome.mismatch is None:
                    report(f"{label}: {outcome.tried} distinct inputs agree ({took:.1f}s)")
                else:
                    mismatches += 1
                    click.echo(f"{result.folder} {outcome.mismatch.describe()}")
    if mismatches:
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
def check(saves: tuple[Path, ...], show_all: bool) -> None:
    """Check TTS save files against the format conventions (FORMAT.md §7)."""
    from .save import loads
    from .save.checker import check_file_bytes, check_save

    failed = False
    for path in saves:
        try:
            data = path.read_bytes()
        except OSError as err:
            raise BuildError(f"{path}: cannot read: {err.strerror}") from None
        findings = check_file_bytes(data) + check_save(loads(data, str(path)))
        for finding in findings:
            if finding.level == "req" or show_all:
                click.echo(f"{path}: [{finding.level}] {finding.path}: {finding.message}")
        failed |= any(f.level == "req" for f in findings)
    if failed:
        sys.exit(EXIT_BAD_INPUT)


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
    """Console-script entry point."""
    sys.exit(run())
