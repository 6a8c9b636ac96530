"""CPU seconds of a fixed set of heavy test files, this checkout against a baseline checkout.

    python benchmarks/bench_tests.py [--base DIR] [--rounds N] [--files FILE ...]

Each run is a child ``python -m pytest -q -p no:cacheprovider FILES`` in a checkout's folder
with that checkout first on PYTHONPATH (so an editable install of another worktree does not
leak in); its CPU seconds (user + system, this child and its children) come from
``os.wait4``, which a busy machine disturbs far less than wall time. Runs alternate (base,
this, base, ...); each side's figure is its fastest round; the ratio is this over base.
Make a baseline with ``git worktree add /tmp/base <commit>``.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: The heaviest test files (clean builds, big decks, emulated tables, game plays,
#: verify), by --durations. Not test_package.py: its wheel test in a checkout from before
#: it dropped PYTHONPATH imports that checkout, not the wheel, and fails.
HEAVY_FILES = [
    "tests/test_cli.py",
    "tests/test_decks.py",
    "tests/test_new_game.py",
    "tests/test_build_incremental.py",
    "tests/test_play_driver.py",
    "tests/test_play_ark_and_noah.py",
    "tests/test_e2e_ark_and_noah.py",
    "tests/test_e2e_arche_noah.py",
    "tests/test_e2e_arche_noah_flood.py",
    "tests/test_ark_and_noah_table_defects.py",
    "tests/test_arche_noah_table_defects.py",
    "tests/test_flood_table_defects.py",
    "tests/test_emulator.py",
    "tests/test_verify.py",
]


def cpu_seconds(checkout: Path, files: list[str]) -> tuple[float, str]:
    """CPU seconds of one pytest run of ``files`` in ``checkout``, and its last line."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files]
    with tempfile.TemporaryFile("w+") as log:
        child = subprocess.Popen(command, cwd=checkout, env=env, stdout=log,
                                 stderr=subprocess.STDOUT)  # fmt: skip
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        log.seek(0)
        lines = log.read().strip().splitlines()
    last = lines[-1] if lines else ""
    if child.returncode != 0:
        raise RuntimeError(f"{checkout}: pytest failed: {last}")
    return usage.ru_utime + usage.ru_stime, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, default=Path("/tmp/base"))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--files", nargs="+", default=HEAVY_FILES)
    opts = parser.parse_args()
    print("command:", shlex.join([Path(sys.executable).name, *sys.argv]))
    best = {"base": float("inf"), "this": float("inf")}
    for round_ in range(opts.rounds):
        for side, checkout in (("base", opts.base.resolve()), ("this", HERE)):
            seconds, last = cpu_seconds(checkout, opts.files)
            best[side] = min(best[side], seconds)
            print(f"  round {round_ + 1} {side:4s} {checkout}: {seconds:7.1f} CPU s  ({last})")
    print(f"fastest: base {best['base']:.1f} CPU s, this {best['this']:.1f} CPU s; "
          f"this / base {best['this'] / best['base']:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
