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

from .cli_build import _table_png as _table_png
from .cli_build import build_checked as build_checked
from .cli_build import refuse_failing as refuse_failing
from .errors import ENVIRONMENT_ERRORS as ENVIRONMENT_ERRORS
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


#: Commands kept in modules of their own, imported only when one is run (or ``--help`` lists
#: them): a build never loads the shipping, simulation, schema or PDF code.
LAZY_COMMANDS = {
    "install": "cli_ship:install",
    "pdf": "cli_pdf:pdf",
    "publish": "cli_ship:publish",
    "push": "cli_ship:push",
    "schema": "cli_schema:schema",
    "simulate": "cli_balance:simulate",
    "watch": "cli_ship:watch",
}


class LazyGroup(click.Group):
    """A click group whose :data:`LAZY_COMMANDS` are imported when asked for (click's documented
    lazy-loading pattern); the rest are registered as usual."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *LAZY_COMMANDS})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands or cmd_name not in LAZY_COMMANDS:
            return super().get_command(ctx, cmd_name)
        from importlib import import_module

        module, _, name = LAZY_COMMANDS[cmd_name].partition(":")
        command: click.Command = getattr(import_module(f".{module}", __package__), name)
        self.add_command(command, cmd_name)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
    from .cli_build import build_command

    build_command(report, report.assets, games, variant, out_dir, base_url)


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
    from .scaffold import check_new_id, game_folder_files, new_game_files
    from .writer import write_tree

    check_new_id(name)
    root = report.assets or Path.cwd()
    dest = root / name
    if dest.exists():
        raise BuildError(f"{shown_path(dest)}: already exists; pick another name or remove it")
    source = find_game(from_game, report.assets)
    engine = load_definition(from_game, report.assets).rules_engine
    files = new_game_files(game_folder_files(source.folder), from_game, name, engine)
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


def _engines(
    game: str, assets: Path | None, variant: str | None = None, lua: str | None = None
) -> Any:
    """The build of ``game`` (or a variant) and its two rule engines (Lua in ``lua``)."""
    from .build import DEFAULT_OUT, BuildOptions, build_game
    from .cache import Store
    from .games import game_module
    from .verify import Engines

    cache = Store(DEFAULT_OUT / ".cache")
    result = build_game(game, BuildOptions(variant=variant), cache, assets)
    config = game_module(result.engine).rules_config(result.definition.data, variant)
    return result, Engines(result.engine, config, result.global_script, lua)


LUA_CHOICE = click.Choice(["lupa", "moonsharp", "both"])


def lua_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--lua`` (which engine runs the Lua) and ``--moonsharp`` (where its DLL is)."""
    command = click.option(
        "--moonsharp",
        "moonsharp_dll",
        envvar="TTS_BUILDER_MOONSHARP",
        type=click.Path(dir_okay=False),
        help="MoonSharp.Interpreter.dll of the NuGet package MoonSharp 2.0.0.0 (lib/net35); "
        "Mono must be installed. [env: TTS_BUILDER_MOONSHARP]",
    )(command)
    return click.option(
        "--lua",
        type=LUA_CHOICE,
        envvar="TTS_BUILDER_LUA",
        default="lupa",
        show_default=True,
        help="The Lua that runs the scripts: lupa (C Lua 5.2, fast), moonsharp (what TTS "
        "runs: the verdict) or both (every input in each; any difference fails). "
        "[env: TTS_BUILDER_LUA]",
    )(command)


def chosen_engines(lua: str, moonsharp_dll: str | None) -> list[str]:
    """The engines ``--lua`` names, MoonSharp found where ``--moonsharp`` says; a one-line
    note of which engine runs (and, without MoonSharp, that the verdict is lupa's)."""
    import os

    from .emulator.engines import engine_note
    from .emulator.moonsharp import DLL_VARIABLE, available

    if moonsharp_dll:
        os.environ[DLL_VARIABLE] = moonsharp_dll
    engines = ["lupa", "moonsharp"] if lua == "both" else [lua]
    if "moonsharp" in engines:
        why = available()
        if why is not None:
            raise BuildError(f"--lua {lua}: {why}")
    click.echo(engine_note(engines))
    return engines


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
@lua_options
@click.pass_obj
def verify(
    report: Reporter,
    games: tuple[str, ...],
    examples: int,
    seed: int,
    table_games: int,
    only_variant: str | None,
    lua: str,
    moonsharp_dll: str | None,
) -> None:
    """Cross-check every function of the shipped Rules tables: Lua vs rules_ref (and, with
    --table, whole random games on the emulated table against rules_ref).

    Fails (exit 1) on a disagreement, on an exception that is no declared rule_error, on a
    Rules function without a rules_ref twin or an input strategy (each named), and on a table
    game that parts from rules_ref (its shortest failing action sequence printed). With
    --lua both, every input runs in lupa and MoonSharp and any difference between them fails;
    table games are played in each."""
    from .emulator.engines import using
    from .play import has_driver, play_table
    from .strategies import strategies_for
    from .verify import check_functions

    failed = False
    engines_run = chosen_engines(lua, moonsharp_dll)
    chosen_games = _games(games, report.assets)
    for game in chosen_games if only_variant is not None else []:
        if only_variant not in _variants(game, report.assets):
            known = ", ".join(_variants(game, report.assets)) or "none"
            raise BuildError(
                f"--variant: {game} has no variant {only_variant!r} (variants: {known})"
            )
    for game in chosen_games:
        variants = [only_variant] if only_variant else [None, *_variants(game, report.assets)]
        built = {v: _engines(game, report.assets, v, engines_run[0]) for v in variants}
        # The same builds' scripts in the other engine (--lua both): lupa's come first.
        also = {v: [_engines(game, report.assets, v, e)[1] for e in engines_run[1:]]
                for v in variants}  # fmt: skip
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
                    runs = [(v, e) for v in group for e in [built[v][1], *also[v]]]
                    outcomes = check_functions([e for _, e in runs], name,
                                               generators[name], examples, seed)  # fmt: skip
                    took = time.perf_counter() - started
                    for (v, _), outcome in zip(runs, outcomes, strict=True):
                        kept = checks.get((v, name))  # a mismatch in either engine is kept
                        if kept is None or kept[0].mismatch is None:
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
            for engine in engines_run if table_games > 0 and has_driver(game) else []:
                started = time.perf_counter()
                with using(engine):
                    run = play_table(game, result, variant, table_games, seed)
                took = time.perf_counter() - started
                label = f"{result.folder} table ({engine})"
                if run.failure is None:
                    report(
                        f"{label}: {run.games} games agree with rules_ref ({took:.1f}s, "
                        f"{took / max(run.games, 1):.1f}s a game)"
                    )
                    if run.reached:
                        report(f"{label}: reached {', '.join(run.reached)}")
                else:
                    failed = True
                    click.echo(
                        f"{label}: game {run.games} fails; shortest "
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

    Payloads, their limits and examples: docs/eval.md. A payload out of its limits, or one the
    rule refuses, exits 2 (naming the key path, or with each engine's reason); a disagreement
    or any other error exits 1."""
    from .payload import parse, shaped
    from .strategies import payload_shape, variant_input
    from .verify import agree, is_refusal

    inp = parse(payload)
    if variant is not None and variant not in _variants(game, report.assets):
        known = ", ".join(_variants(game, report.assets)) or "none"
        raise BuildError(f"--variant: {game} has no variant {variant!r} (variants: {known})")
    result, engines = _engines(game, report.assets, variant)
    engines.check_name(function)
    shape = payload_shape(result.engine, function)
    if shape is not None:
        inp = shaped(inp, shape)
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
    from .save.savefile import read_save

    failed = False
    found = required = 0
    for path in saves:
        save = loads(data := read_save(path), str(path))
        findings = check_file_bytes(data, parsed=True) + check_save(save)
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
@lua_options
@click.pass_obj
def table(
    report: Reporter,
    game: str,
    variant: str | None,
    players: int | None,
    after_setup: bool,
    out_file: Path | None,
    lua: str,
    moonsharp_dll: str | None,
) -> None:
    """Draw GAME's table as TTS lays it out, seen from above, into a PNG. With --after-setup,
    Setup runs in the Lua --lua names (with both, in each, and the tables must agree)."""
    from .build import DEFAULT_OUT, BuildOptions, build_game
    from .cache import Store
    from .picture import after_setup as run_setup
    from .picture import (
        images_from_files,
        picture_subtitle,
        picture_title,
        seat_order,
        table_picture,
    )
    from .render import encode_png

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
    result = build_game(game, BuildOptions(out_dir=out, variant=variant), Store(out / ".cache"),
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
        from .emulator.engines import using

        pictures = {}
        engines = chosen_engines(lua, moonsharp_dll)
        for count in [players] if players is not None else range(low, high + 1):
            states = []
            for engine in engines:
                with using(engine):
                    states.append(run_setup(result.save, count, images=result.files))
            state = states[0]
            if any(other["ObjectStates"] != state["ObjectStates"] for other in states[1:]):
                click.echo(f"{result.folder}: {count} players: Setup lays a different table "
                           "in MoonSharp than in lupa")  # fmt: skip
                sys.exit(EXIT_MISMATCH)
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
    except OSError as err:
        if err.errno not in ENVIRONMENT_ERRORS:
            click.echo(f"internal error: {type(err).__name__}: {err}", err=True)
            return EXIT_INTERNAL
        where = f"{err.filename}: " if err.filename else ""
        click.echo(f"error: {where}{err.strerror or err}", err=True)
        return EXIT_BAD_INPUT
    except Exception as err:  # noqa: BLE001 - the last line of defence: one line, exit 3
        click.echo(f"internal error: {type(err).__name__}: {err}", err=True)
        return EXIT_INTERNAL
    return EXIT_OK


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
