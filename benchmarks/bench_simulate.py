"""Time ``tts-builder simulate``: games per CPU second of a game, and a change paired with today.

    python benchmarks/bench_simulate.py [GAME|all] [--games K] [--jobs J] [--bots B]
        [--repeat N] [--baseline DIR]

Each run is the real CLI in a child process writing to a fresh output folder; its CPU seconds
(user + system, from ``os.wait4``) minus those of ``simulate`` playing 1 game (the interpreter,
imports and the plot) are what K - 1 games cost, so a busy machine disturbs the figures less
than wall-clock time would. With ``--jobs J`` above 1, the wall-clock time of the same K games
in J processes is printed too.

``--baseline DIR`` runs every child of a "before" round with DIR's ``tts_builder`` and
``rules_ref`` first on ``PYTHONPATH`` (another checkout, e.g. ``git worktree add --detach DIR
HEAD~3``), then an "after" round with this checkout's; the rounds alternate ``--repeat`` times,
so both meet the same machine load, and the figure is after / before of games per CPU second
(the best of the rounds). Both print the same report for the same seed unless the change meant
to alter the games: the script says whether they agree.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("arche-noah", "arche-noah-flood", "ark-and-noah")


def child(args: list[str], tree: Path | None) -> tuple[float, float, bytes]:
    """CPU seconds, wall seconds and stdout of ``python -m tts_builder -q ARGS`` (with
    ``tree``'s package first on the path when given), run in an empty folder."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(str(p) for p in (tree or ROOT, ROOT))
    with tempfile.TemporaryDirectory(prefix="bench-sim-") as cwd:
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "tts_builder", "-q", *args],
            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: simulate {' '.join(args)}")
    return usage.ru_utime + usage.ru_stime, wall, out


def measure(game: str, opts: argparse.Namespace, tree: Path | None) -> tuple[float, bytes, float]:
    """(games per CPU second, the report printed, wall seconds with --jobs) of one round."""
    out = Path(tempfile.mkdtemp(prefix="bench-balance-"))
    try:
        base = ["simulate", game, "--bots", opts.bots, "--out", str(out)]
        start, _, _ = child([*base, "--games", "1", "--jobs", "1"], tree)
        cpu, wall, text = child([*base, "--games", str(opts.games), "--jobs", "1"], tree)
        if opts.jobs > 1:
            _, wall, _ = child([*base, "--games", str(opts.games), "--jobs", str(opts.jobs)], tree)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    per_second = (opts.games - 1) / max(cpu - start, 1e-9)
    return per_second, text, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default="arche-noah", help="a game, or all")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--baseline", type=Path, default=None, help="a checkout for 'before'")
    opts = parser.parse_args()
    games = GAMES if opts.game == "all" else (opts.game,)
    print("command: python benchmarks/bench_simulate.py " + " ".join(sys.argv[1:]))
    for game in games:
        rounds: dict[str, list[tuple[float, bytes, float]]] = {"before": [], "after": []}
        for _ in range(opts.repeat):
            if opts.baseline is not None:
                rounds["before"].append(measure(game, opts, opts.baseline.resolve()))
            rounds["after"].append(measure(game, opts, None))
        load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
        print(f"{game}: {opts.games} games, bots {opts.bots} (load average {load})")
        for name, found in rounds.items():
            if not found:
                continue
            best = max(rate for rate, _, _ in found)
            label = name if opts.baseline is not None else "this checkout"
            line = f"  {label:<13} {best:8.2f} games per CPU second"
            if opts.jobs > 1:
                line += f"; {opts.jobs} processes: {min(w for _, _, w in found):.1f} s wall"
            print(line)
        if opts.baseline is not None:
            before = max(rate for rate, _, _ in rounds["before"])
            after = max(rate for rate, _, _ in rounds["after"])
            same = rounds["before"][0][1] == rounds["after"][0][1]
            agree = "the same report" if same else "reports differ"
            print(f"  after / before: {after / before:.2f} x games per CPU second ({agree})")


if __name__ == "__main__":
    main()
