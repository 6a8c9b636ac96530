"""Time ``tts-builder simulate``: K games of a game, in one process and in several.

    python benchmarks/bench_simulate.py [GAME] [--games K] [--jobs J] [--bots B]

Each run is the real CLI in a subprocess writing to a fresh output folder; the figures are
wall-clock seconds on this machine (shared machines: read the load average printed with them).
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


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "tts_builder", "-q", *args], check=True, stdout=subprocess.DEVNULL
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default="arche-noah")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bots", default="greedy")
    opts = parser.parse_args()

    out = Path(tempfile.mkdtemp(prefix="bench-balance-"))
    try:
        base = ["simulate", opts.game, "--games", str(opts.games), "--bots", opts.bots]
        base += ["--out", str(out)]
        one = timed([*base, "--jobs", "1"])
        many = timed([*base, "--jobs", str(opts.jobs)])
    finally:
        shutil.rmtree(out, ignore_errors=True)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"{opts.game}: {opts.games} games, bots {opts.bots} (load average {load})")
    print(f"  1 process:   {one:6.2f} s  ({1000 * one / opts.games:.1f} ms per game)")
    print(f"  {opts.jobs} processes: {many:6.2f} s  (speed-up {one / many:.2f}x)")


if __name__ == "__main__":
    main()
