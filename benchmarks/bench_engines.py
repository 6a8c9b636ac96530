"""MoonSharp against lupa: the same Lua, the same work, in the two engines.

    python benchmarks/bench_engines.py [GAME ...] [--examples N] [--games G] [--repeat R]

Needs MoonSharp (``TTS_BUILDER_MOONSHARP``, see the README). For each game (default: the three
scripted ones):
- **Rules**: every ``Rules`` function on ``--examples`` inputs drawn once (as ``verify`` draws
  them), called through ``Engines.lua`` in each engine; CPU seconds of the fastest of
  ``--repeat`` passes, alternating engines.
- **table**: ``--games`` whole seeded games on the emulated table (``verify --table``'s driver,
  saves at random frames included), the table and the scripts in each engine; CPU seconds per
  game, the fastest of ``--repeat`` rounds.
Figures are CPU seconds of this process (Mono's threads included) and the ratio MoonSharp / lupa.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

from bench_verify import generated


def cpu(fn: Any) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def rules_seconds(game: str, examples: int, repeat: int) -> dict[str, float]:
    from tts_builder.cli import _engines
    from tts_builder.strategies import strategies_for

    result, lupa = _engines(game, None, None, "lupa")
    moon = _engines(game, None, None, "moonsharp")[1]
    strategies = strategies_for(result.engine, lupa.config, result.definition.players, True)
    inputs = {name: generated(strategies[name], examples) for name in lupa.names()}

    def run(engines: Any) -> None:
        for name, found in inputs.items():
            for inp in found:
                engines.lua(name, inp)

    best = {"lupa": float("inf"), "moonsharp": float("inf")}
    for _ in range(repeat):
        for label, engines in (("lupa", lupa), ("moonsharp", moon)):
            best[label] = min(best[label], cpu(lambda e=engines: run(e)))
    return best


def table_seconds(game: str, games: int, repeat: int) -> dict[str, float]:
    from tts_builder.cli import _engines
    from tts_builder.emulator.engines import using
    from tts_builder.play import play_table

    result = _engines(game, None, None, "lupa")[0]
    best = {"lupa": float("inf"), "moonsharp": float("inf")}
    for _ in range(repeat):
        for label in best:
            with using(label):
                took = cpu(lambda: play_table(game, result, None, games, 0))
            best[label] = min(best[label], took / games)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["arche-noah", "arche-noah-flood",
                                                     "ark-and-noah"])  # fmt: skip
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--games", type=int, default=2, dest="table_games")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    from tts_builder.emulator.moonsharp import available

    why = available()
    if why is not None:
        print(f"MoonSharp is not available: {why}", file=sys.stderr)
        return 2
    print("$ python benchmarks/bench_engines.py " + shlex.join(sys.argv[1:]))
    print(f"{'game':<18} {'what':<28} {'lupa s':>8} {'MoonSharp s':>12} {'ratio':>7}")
    for game in args.games:
        rows = [
            (
                f"Rules, {args.examples} inputs each",
                rules_seconds(game, args.examples, args.repeat),
            ),
            ("a whole table game", table_seconds(game, args.table_games, args.repeat)),
        ]
        for what, best in rows:
            ratio = best["moonsharp"] / best["lupa"]
            print(f"{game:<18} {what:<28} {best['lupa']:>8.2f} {best['moonsharp']:>12.2f} "
                  f"{ratio:>6.1f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
