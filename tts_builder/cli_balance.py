"""The ``simulate`` command: bots play the game many times; see tts_builder/balance.

``register(cli)`` adds it to the main click group. The rules are the game's own ``game.yaml``
(found as ``build`` finds it); ``--against`` plays a second rule set (a game.yaml file, or the
game's own game.yaml as of a git revision) with the same seeds and prints the differences. Text
goes to stdout, progress to stderr, ``balance.json`` and ``balance.png`` to
``dist/balance_reports/<game>/``, which no build replaces.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .errors import BuildError

if TYPE_CHECKING:
    from .cli import Reporter
    from .definition import GameDefinition

DEFAULT_PLAYERS = 4
#: Where reports go under ``--out``: no game id holds an underscore, so no build's folder is
#: this one, and rebuilding a game keeps its reports.
REPORTS = "balance_reports"


def _shown(path: Path) -> str:
    from .definition import shown_path

    return str(shown_path(path))


def _git_show(folder: Path, revision: str) -> tuple[str, str] | None:
    """(text, shown name) of ``folder``'s game.yaml at a git revision; None if there is none."""
    from .definition import DEFINITION_FILE

    def git(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True, text=True, encoding="utf-8", check=False,
        )  # fmt: skip

    prefix = git("rev-parse", "--show-prefix")
    done = git("show", f"{revision}:./{DEFINITION_FILE}")
    if prefix.returncode != 0 or done.returncode != 0:
        return None
    return done.stdout, f"{revision}:{prefix.stdout.strip()}{DEFINITION_FILE}"


def load_against(game: str, spec: str, assets: Path | None) -> tuple[GameDefinition, str]:
    """The definition ``--against`` names: any game.yaml (or its folder) on the game's engine,
    whatever its id (the game a copy was made from, another copy), else the game's own
    game.yaml at a git revision. Art is not simulated: its paths are checked against the
    game's own folder."""
    from .definition import (
        DEFINITION_FILE,
        GameSource,
        find_game,
        read_definition_file,
        validated_definition,
    )
    from .yamlsrc import parse_yaml

    source = find_game(game, assets)
    path = Path(spec)
    if path.is_dir():
        path = path / DEFINITION_FILE
    if path.exists():
        shown = _shown(path)
        doc = read_definition_file(path)  # within the limits of any definition
    else:
        found = _git_show(source.folder, spec)
        if found is None:
            where = _shown(source.folder / DEFINITION_FILE)
            raise BuildError(f"--against {spec}: no such file, and no git revision of {where}")
        text, shown = found
        doc = parse_yaml(text, Path(shown))
        if not isinstance(doc.data, dict):
            raise doc.error("", "expected a mapping of definition keys at the top level")
    own = doc.data.get("id")
    if path.is_file() and isinstance(own, str):  # another game's (the copy's original): its id
        source = GameSource(own, source.folder, source.origin)
    return validated_definition(source.id, doc, source), shown


def _players(definition: GameDefinition, players: int | None) -> int:
    low, high = definition.players
    if players is None:
        return max(low, min(DEFAULT_PLAYERS, high))
    if not low <= players <= high:
        raise BuildError(f"--players {players}: {definition.id} takes {low}-{high} players")
    return players


def _setup(
    definition: GameDefinition, source: str, variant: str | None, players: int, **rest: Any
) -> Any:
    from .balance.simulate import Setup
    from .games import game_module

    if variant is not None and variant not in definition.variants:
        known = ", ".join(definition.variants) or "none"
        raise BuildError(f"{source}: --variant {variant!r} unknown (variants: {known})")
    engine = definition.rules_engine
    config = game_module(engine).rules_config(definition.data, variant)
    setup = Setup(engine, config, players, variant, **rest)
    try:
        setup.balance()
    except (ValueError, KeyError, TypeError) as err:
        raise BuildError(f"{source}: the rules cannot be played: {err}") from None
    return setup


class SweepPlan:
    """A sweep of ``simulate``: every combination's setup, checked before any game is played
    (each swept value is validated as if written in game.yaml)."""

    def __init__(
        self,
        definition: GameDefinition,
        variant: str | None,
        counts: tuple[int, ...],
        specs: tuple[str, ...],
        target: str,
        options: dict[str, Any],
    ) -> None:
        from dataclasses import replace

        from .balance.bots import make_bots
        from .balance.sweep import TARGETS, combinations, parse_sweep, with_value
        from .definition import GameSource, validated_definition
        from .variants import with_variant

        if target not in TARGETS:
            raise BuildError(f"--target {target}: expected one of {', '.join(TARGETS)}")
        if variant is not None and variant not in definition.variants:
            known = ", ".join(definition.variants) or "none"
            raise BuildError(f"--variant {variant!r} unknown (variants: {known})")
        self.target = TARGETS[target]
        self.sweeps = [parse_sweep(spec) for spec in specs]
        paths = [sweep.path for sweep in self.sweeps]
        if len(set(paths)) != len(paths):
            raise BuildError("--sweep: a path is swept twice")
        counts = counts or (_players(definition, None),)
        for n in counts:
            _players(definition, n)
            make_bots(options["bots"], n)  # an unknown bot name fails before anything is played
        self.game = definition.id
        self.combos = combinations(self.sweeps, counts)
        source = GameSource(definition.id, definition.root, definition.origin)
        base = dict(with_variant(definition.base_data, variant))
        base.pop("variants", None)  # the variant chosen is merged in: the sweep sets over it
        self.setups = []
        for combo in self.combos:
            data = base
            for sweep, value in zip(self.sweeps, combo.values, strict=True):
                data = with_value(data, sweep.path, value)
            try:
                swept = validated_definition(
                    definition.id, replace(definition.doc, data=data), source
                )
            except BuildError as err:
                raise BuildError(f"--sweep {combo.label(self.sweeps)}: {err}") from None
            self.setups.append(
                _setup(swept, combo.label(self.sweeps), None, combo.players, **options)
            )
        if variant is not None:  # each setup's report names the variant swept
            self.setups = [replace(setup, variant=variant) for setup in self.setups]

    def run(
        self,
        report: Reporter,
        source: str,
        games: int,
        jobs: int,
        cluster: str | None,
        out_dir: Path | None,
    ) -> None:
        """Play every combination, print the table, write balance.json and balance.png."""
        from .balance import plot
        from .balance.simulate import simulate_many
        from .balance.sweep import render_json, render_text
        from .build import DEFAULT_OUT, output_folder
        from .writer import write_file

        reports = simulate_many(self.setups, games, jobs, _Progress(report, source), cluster)
        variant = self.setups[0].variant
        text = render_text(self.game, source, self.sweeps, self.combos, reports, self.target)
        data = render_json(source, self.sweeps, self.combos, reports, self.target)
        png = plot.render_sweep_png(self.game, self.sweeps, self.combos, reports, self.target)
        folder = (out_dir or DEFAULT_OUT).resolve() / REPORTS / output_folder(self.game, variant)
        write_file(folder / "balance.json", data)
        write_file(folder / "balance.png", png)
        click.echo(text, nl=False)
        report(f"wrote {folder / 'balance.json'} and balance.png")


class _Progress:
    """Progress on stderr at every tenth of the games."""

    def __init__(self, report: Reporter, source: str) -> None:
        self.report, self.source, self.shown = report, source, 0

    def __call__(self, done: int, total: int) -> None:
        tenths = 10 * done // total
        if tenths > self.shown:
            self.shown = tenths
            self.report(f"simulate {self.source}: {done}/{total} games")


@click.command()
@click.argument("game")
@click.option("--variant", help="Simulate this variant of the game.")
@click.option(
    "--players",
    default=None,
    help="Players (default: 4, or the nearest the game allows); several (3,4,5 or 3..5) "
    "sweep the player count.",
)
@click.option("--games", "count", type=click.IntRange(1), default=200, show_default=True)
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="Bots by seat, comma-separated (random, greedy, lookahead), repeated as needed.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--jobs", type=click.IntRange(1), default=1, show_default=True, help="Worker processes."
)
@click.option(
    "--playouts",
    type=click.IntRange(1),
    default=8,
    show_default=True,
    help="Playouts per candidate move of the lookahead bot.",
)
@click.option(
    "--horizon",
    type=click.IntRange(1),
    default=None,
    help="Cut lookahead playouts short after this many decisions (default: play to the end).",
)
@click.option(
    "--against",
    help="Compare with this game.yaml (or folder), or the game's own one at a git revision.",
)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="PATH=VALUES",
    help="Play every value of a game.yaml rule (rules.scoring.set_of_four_bonus=3..8, "
    "A..B/STEP or V1,V2,...); repeat to sweep several, every combination with the same "
    "seeds.",
)
@click.option(
    "--target",
    default="first-player",
    show_default=True,
    help="What fair means when ranking a sweep: first-player (its win rate closest to "
    "1/N), seats (every seat's) or margin (the closest games).",
)
@click.option(
    "--cluster",
    metavar="ADDRESS",
    help="Play the games on this Dask scheduler (tcp://host:8786; its workers need "
    "tts-builder installed) instead of --jobs local processes; the same results. Needs "
    "pip install 'tts-builder[cluster]'.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Output folder (default: dist/ in the current folder).",
)
@click.pass_obj
def simulate(
    report: Reporter, game: str, variant: str | None, players: str | None, count: int,
    bots: str, seed: int, jobs: int, playouts: int, horizon: int | None, against: str | None,
    sweeps: tuple[str, ...], target: str, cluster: str | None, out_dir: Path | None,
) -> None:  # fmt: skip
    """Play GAME many times with bots and report its balance (dist/<game>/balance.*)."""
    from .balance import plot
    from .balance import report as render
    from .balance.bots import make_bots
    from .balance.compare import compare
    from .balance.simulate import simulate as run
    from .balance.sweep import parse_players
    from .build import DEFAULT_OUT, output_folder
    from .definition import DEFINITION_FILE, find_game, load_definition
    from .writer import write_file

    names = tuple(name.strip() for name in bots.split(",") if name.strip())
    definition = load_definition(game, report.assets)
    source = _shown(find_game(game, report.assets).folder / DEFINITION_FILE)
    counts = parse_players(players) if players is not None else ()
    options = {"bots": names, "seed": seed, "playouts": playouts, "horizon": horizon}
    if sweeps or len(counts) > 1:
        if against is not None:
            raise BuildError("--against with --sweep: compare two rule sets, or sweep one")
        plan = SweepPlan(definition, variant, counts, sweeps, target, options)
        plan.run(report, source, count, jobs, cluster, out_dir)
        return
    seats = _players(definition, counts[0] if counts else None)
    make_bots(names, seats)  # an unknown bot name fails before anything is played
    setups = [(_setup(definition, source, variant, seats, **options), source)]
    if against is not None:
        other, shown = load_against(game, against, report.assets)
        if other.rules_engine != definition.rules_engine:
            raise BuildError(
                f"--against {against}: its rules are {other.rules_engine!r}, "
                f"{game}'s are {definition.rules_engine!r}: nothing to compare"
            )
        _players(other, seats)
        setups.append((_setup(other, shown, variant, seats, **options), shown))

    results = [
        run(setup, count, jobs, _Progress(report, shown), cluster) for setup, shown in setups
    ]
    this = results[0]
    text = render.render_text(this, source)
    if against is None:
        data = render.render_json(this, source)
        png = plot.render_png(this)
    else:
        that, shown = results[1], setups[1][1]
        differences = compare(this, that)
        text += "\n" + render.render_text(that, shown)
        text += "\n" + render.render_differences(differences, source, shown)
        data = render.render_json(this, source, that, shown, differences)
        png = plot.render_png(this, that)
    folder = (out_dir or DEFAULT_OUT).resolve() / REPORTS / output_folder(game, variant)
    write_file(folder / "balance.json", data)
    write_file(folder / "balance.png", png)
    click.echo(text, nl=False)
    report(f"wrote {folder / 'balance.json'} and balance.png")


def register(group: click.Group) -> None:
    """Add ``simulate`` to ``group``."""
    group.add_command(simulate)
