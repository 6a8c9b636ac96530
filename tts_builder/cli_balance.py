"""The ``simulate`` command: bots play the game many times; see tts_builder/balance.

``register(cli)`` adds it to the main click group. The rules are the game's own ``game.yaml``
(found as ``build`` finds it); ``--against`` plays a second rule set (a game.yaml file, or the
game's own game.yaml as of a git revision) with the same seeds and prints the differences. Text
goes to stdout, progress to stderr, ``balance.json`` and ``balance.png`` to dist/<game>/.
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
    from .definition import DEFINITION_FILE, GameSource, find_game, validated_definition
    from .yamlsrc import parse_yaml

    source = find_game(game, assets)
    path = Path(spec)
    if path.is_dir():
        path = path / DEFINITION_FILE
    if path.is_file():
        shown = _shown(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise BuildError(f"{shown}: cannot read the definition: {err}") from None
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


class _Progress:
    """Progress on stderr at every tenth of the games."""

    def __init__(self, report: Reporter, source: str) -> None:
        self.report, self.source, self.shown = report, source, 0

    def __call__(self, done: int, total: int) -> None:
        tenths = 10 * done // total
        if tenths > self.shown:
            self.shown = tenths
            self.report(f"simulate {self.source}: {done}/{total} games")


def register(cli: click.Group) -> None:
    """Add ``simulate`` to ``cli``."""

    @cli.command()
    @click.argument("game")
    @click.option("--variant", help="Simulate this variant of the game.")
    @click.option(
        "--players",
        type=int,
        default=None,
        help="Players (default: 4, or the nearest the game allows).",
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
        "--out",
        "out_dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        help="Output folder (default: dist/ in the current folder).",
    )
    @click.pass_obj
    def simulate(
        report: Reporter, game: str, variant: str | None, players: int | None, count: int,
        bots: str, seed: int, jobs: int, playouts: int, horizon: int | None, against: str | None,
        out_dir: Path | None,
    ) -> None:  # fmt: skip
        """Play GAME many times with bots and report its balance (dist/<game>/balance.*)."""
        from .balance import plot
        from .balance import report as render
        from .balance.bots import make_bots
        from .balance.compare import compare
        from .balance.simulate import simulate as run
        from .build import DEFAULT_OUT, output_folder
        from .definition import DEFINITION_FILE, find_game, load_definition
        from .writer import write_file

        names = tuple(name.strip() for name in bots.split(",") if name.strip())
        definition = load_definition(game, report.assets)
        source = _shown(find_game(game, report.assets).folder / DEFINITION_FILE)
        seats = _players(definition, players)
        make_bots(names, seats)  # an unknown bot name fails before anything is played
        options = {"bots": names, "seed": seed, "playouts": playouts, "horizon": horizon}
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

        results = [run(setup, count, jobs, _Progress(report, shown)) for setup, shown in setups]
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
        folder = (out_dir or DEFAULT_OUT).resolve() / output_folder(game, variant)
        write_file(folder / "balance.json", data)
        write_file(folder / "balance.png", png)
        click.echo(text, nl=False)
        report(f"wrote {folder / 'balance.json'} and balance.png")
