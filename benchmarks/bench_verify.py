"""Lua vs Python call rate of every rule function, on the inputs verify generates.

    python benchmarks/bench_verify.py [GAME ...] [--examples N] [--repeat R] [--per-game]

For each function, ``--examples`` inputs are generated once (Hypothesis, malformed ones
included, as ``verify`` draws them); then both engines run every input ``--repeat`` times,
passes alternating between the engines, as ``verify`` calls them (``Engines.lua`` /
``Engines.python``: conversion and normalising included). Figures are CPU seconds in this
process, each engine's fastest pass (so a busy machine disturbs the ratio less); the ratio is
Lua calls per second over Python calls per second (``verify``'s goal: at least 0.5 on the
heavy functions), and the share of the generation in a verify run.

With ``--per-game``, for each game with variants: the CPU seconds of checking every function of
the game and each variant one after the other, as ``verify`` does, with inputs drawn once per
game (each generator's inputs kept and run through the next variant's builds) and, paired in the
same round, drawn again for every variant (the kept inputs dropped before each variant); builds
and engines are made before timing. Each figure is the fastest of ``--repeat`` rounds; the ratio
is once-per-game over once-per-variant, with how many times inputs were drawn in each.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import Any

HEAVY_US = 20  # a function is heavy when rules_ref takes at least this long per call


def generated(strategy: Any, examples: int, seed: int = 0) -> list[Any]:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as with_seed

    found: list[Any] = []

    @with_seed(seed)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def collect(inp: Any) -> None:
        found.append(inp)

    collect()
    return found


def one_pass(call: Any, inputs: list[Any]) -> float:
    """CPU seconds of one call per input."""
    started = time.process_time()
    for inp in inputs:
        call(inp)
    return time.process_time() - started


def paired_rates(lua: Any, python: Any, inputs: list[Any], repeat: int) -> tuple[float, float]:
    """Calls per second of each engine: ``repeat`` passes of each, alternating (Lua, Python,
    Lua, ...), each engine's fastest pass (the one least disturbed by other work)."""
    lua_best = python_best = float("inf")
    for _ in range(repeat):
        lua_best = min(lua_best, one_pass(lua, inputs))
        python_best = min(python_best, one_pass(python, inputs))
    return len(inputs) / max(lua_best, 1e-9), len(inputs) / max(python_best, 1e-9)


def check_all(game: str, built: dict[Any, Any], examples: int, per_game: bool) -> int:
    """Check every function of every build in ``built`` (a variant after the other, as verify
    does); how many times inputs were drawn."""
    from tts_builder import verify
    from tts_builder.strategies import strategies_for

    verify.forget_drawn_inputs()
    draws = 0
    for result, engines in built.values():
        if not per_game:
            verify.forget_drawn_inputs()
        generators = strategies_for(result.engine, engines.config, result.definition.players,
                                    malformed=True)  # fmt: skip
        for name in engines.names():
            kept = len(verify._DRAWN)
            [outcome] = verify.check_functions([engines], name, generators[name], examples, 0)
            assert outcome.mismatch is None, outcome.mismatch.describe()
            draws += len(verify._DRAWN) > kept or not per_game
    return draws


def per_game(game: str, examples: int, repeat: int) -> None:
    """Print verify's CPU with inputs drawn once per game over drawn once per variant."""
    from tts_builder.cli import _engines
    from tts_builder.definition import load_definition

    variants = [None, *load_definition(game).variants]
    if len(variants) == 1:
        print(f"{game}: no variants")
        return
    built = {v: _engines(game, None, v) for v in variants}
    best = {True: float("inf"), False: float("inf")}
    draws = {}
    for _ in range(repeat):
        for shared in (True, False):
            started = time.process_time()
            draws[shared] = check_all(game, built, examples, shared)
            best[shared] = min(best[shared], time.process_time() - started)
    print(
        f"{game}: {len(variants)} builds, {examples} inputs per function, best of {repeat}: "
        f"inputs once per game {best[True]:.2f} s ({draws[True]} draws), once per variant "
        f"{best[False]:.2f} s ({draws[False]} draws); ratio {best[True] / best[False]:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", default=["arche-noah", "arche-noah-flood",
                                                     "ark-and-noah"])  # fmt: skip
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--per-game", action="store_true",
                        help="verify's CPU: inputs once per game vs once per variant")  # fmt: skip
    opts = parser.parse_args()
    if opts.per_game:
        print("command:", shlex.join([sys.executable.rsplit("/", 1)[-1], *sys.argv]))
        for game in opts.games:
            per_game(game, opts.examples, opts.repeat)
        return
    from tts_builder.cli import _engines
    from tts_builder.strategies import strategies_for

    print("command:", shlex.join([sys.executable.rsplit("/", 1)[-1], *sys.argv]))
    for game in opts.games:
        result, engines = _engines(game, None)
        strategies = strategies_for(result.engine, engines.config, result.definition.players,
                                    malformed=True)  # fmt: skip
        print(f"{game}: {opts.examples} inputs per function, {opts.repeat} passes")
        total_gen = total_lua = total_py = 0.0
        heavy: list[tuple[str, float, float]] = []  # name, Lua s, Python s per input
        for name in engines.names():
            started = time.process_time()
            inputs = generated(strategies[name], opts.examples)
            gen = time.process_time() - started
            lua, python = paired_rates(lambda inp, n=name, e=engines: e.lua(n, inp),
                                       lambda inp, n=name, e=engines: e.python(n, inp),
                                       inputs, opts.repeat)  # fmt: skip
            total_gen += gen
            total_lua += len(inputs) / lua
            total_py += len(inputs) / python
            if 1e6 / python >= HEAVY_US:
                heavy.append((name, 1 / lua, 1 / python))
            print(
                f"  {name:30s} Lua {lua:8.0f}/s  Python {python:8.0f}/s  "
                f"Lua/Python {lua / python:5.2f}  (Python {1e6 / python:6.1f} us per call)"
            )
        if heavy:
            worst = min(heavy, key=lambda h: h[2] / h[1])
            print(
                f"  heavy functions (Python >= {HEAVY_US} us per call): "
                f"{', '.join(h[0] for h in heavy)}; Lua/Python together "
                f"{sum(h[2] for h in heavy) / sum(h[1] for h in heavy):5.2f}, "
                f"lowest {worst[2] / worst[1]:5.2f} ({worst[0]})"
            )
        share = total_gen / (total_gen + total_lua + total_py)
        print(
            f"  all functions: Lua/Python {total_py / total_lua:5.2f}; generating the inputs "
            f"is {share:.0%} of generate + one Lua + one Python pass"
        )


if __name__ == "__main__":
    main()
