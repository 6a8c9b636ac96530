"""Time a clean build, a no-op rebuild and a verify run of a game.

    python benchmarks/bench_build.py [GAME] [--examples N]

Each step runs the real CLI in a subprocess against a fresh output folder; the figures are
wall-clock seconds on this machine, best of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def timed(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tts_builder", "-q", *args], check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", nargs="?", default="arche-noah")
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()

    clean, noop = [], []
    for _ in range(opts.repeat):
        out = Path(tempfile.mkdtemp(prefix="bench-dist-"))
        try:
            clean.append(timed(["build", opts.game, "--out", str(out)]))
            noop.append(timed(["build", opts.game, "--out", str(out)]))
        finally:
            shutil.rmtree(out, ignore_errors=True)
    verify = min(
        timed(["verify", opts.game, "--examples", str(opts.examples)]) for _ in range(opts.repeat)
    )
    print(f"clean build   {min(clean):7.2f} s")
    print(f"no-op build   {min(noop):7.2f} s   ({min(clean) / min(noop):.1f}x faster than clean)")
    print(f"verify ({opts.examples} examples per function) {verify:7.2f} s")


if __name__ == "__main__":
    main()
