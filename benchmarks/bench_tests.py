"""CPU and wall seconds of the test suite: the whole suite run in parallel (plain ``pytest``, as
CI runs it) against the same suite in one process (``pytest -p no:xdist``), or a fixed set of
heavy test files in this checkout against a baseline checkout.

    python benchmarks/bench_tests.py --suite [--rounds N]
    python benchmarks/bench_tests.py --paired [--base DIR] [--rounds N] [--save DIR]
    python benchmarks/bench_tests.py [--base DIR] [--rounds N] [--workers N] [--files FILE ...]

Each run is a child ``python -m pytest -q -p no:cacheprovider ...`` in a checkout's folder
with that checkout first on PYTHONPATH (so an editable install of another worktree does not
leak in); its CPU seconds (user + system, this child and its children, the xdist workers
included) come from ``os.wait4``, which a busy machine disturbs far less than wall time. Runs
alternate (base, this, base, ...); each side's figure is its fastest round; the ratios are
this over base.

``--suite``: base is ``pytest -p no:xdist`` (every test in one process), this is plain
``pytest`` (pytest-xdist, one worker per CPU: tests/conftest.py), both in this checkout. A
plug-in (this file, ``-p bench_tests``) sums the durations (setup, call, teardown) of the tests
each worker ran: the busiest worker's sum is the critical path, which on an idle machine with
as many cores as workers is the parallel run's wall time less start-up and collection.

``--paired``: the whole suite as CI runs it (plain ``pytest``, in parallel) in ``--base`` and
in this checkout, alternating; for each side, when each worker started its first test and
ended its last and when the run ended (start-up and collection before, an idle worker's wait
or the clean-up at exit after), and the busiest worker's test seconds. ``--save DIR`` keeps
each run's phases (``<side>-<round>.json``: every test phase's worker, start and seconds).

Without ``--suite`` or ``--paired``: the heavy files, both sides in one process (``-p
no:xdist``), this checkout over ``--base`` (make one with ``git worktree add /tmp/base
<commit>``): what the tests' own CPU costs, not how they are spread. ``--workers N``: the files
in N xdist workers (``-n N``) instead, what they cost when xdist splits a module's tests
between processes (work a module's fixtures or caches do once per process, done once per
worker).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

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

#: Where the plug-in writes each worker's summed test durations (set for the child only).
BUSY_ENV = "BENCH_TESTS_BUSY"


class Run:
    """One pytest child: its CPU and wall seconds, last line, and seconds busy per worker."""

    def __init__(self, checkout: Path, args: list[str]) -> None:
        with tempfile.TemporaryDirectory() as scratch:
            busy_file = Path(scratch) / "busy.json"
            env = {
                **os.environ,
                "PYTHONPATH": os.pathsep.join([str(checkout), str(Path(__file__).parent)]),
                BUSY_ENV: str(busy_file),
            }
            command = [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "bench_tests",
                *args,
            ]
            with tempfile.TemporaryFile("w+") as log:
                start = time.perf_counter()
                child = subprocess.Popen(
                    command, cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT
                )
                _, status, usage = os.wait4(child.pid, 0)
                self.wall = time.perf_counter() - start
                child.returncode = os.waitstatus_to_exitcode(status)
                log.seek(0)
                lines = log.read().strip().splitlines()
            self.last = lines[-1] if lines else ""
            #: The failures' summary lines (a failed run is still timed, and reported).
            self.failures = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
            if child.returncode != 0 and not self.failures:
                raise RuntimeError(f"{checkout}: pytest {shlex.join(args)} failed: {self.last}")
            self.cpu = usage.ru_utime + usage.ru_stime
            sums = json.loads(busy_file.read_text()) if busy_file.exists() else {}
            self.busy: dict[str, float] = sums.get("workers", {})
            self.files: dict[str, float] = sums.get("files", {})
            self.raw = sums

    def timeline(self) -> str:
        """Per worker, seconds from the start to its first test and to its last test's end;
        then to the controller's end of the session."""
        phases, start = self.raw.get("phases", []), self.raw.get("started", 0.0)
        spans: dict[str, list[float]] = {}
        for worker, _node, _when, began, seconds in phases:
            first, last = spans.setdefault(worker, [began, began + seconds])
            spans[worker] = [min(first, began), max(last, began + seconds)]
        ends = self.raw.get("ends", {})
        parts = [f"{w} {a - start:.1f}-{b - start:.1f}" for w, (a, b) in sorted(spans.items())]
        if "controller finished" in ends:
            parts.append(f"session end {ends['controller finished'] - start:.1f}")
        return "tests ran (s from start): " + ", ".join(parts)

    def describe(self) -> str:
        busy = ", ".join(f"{w} {s:.1f}" for w, s in sorted(self.busy.items()))
        return f"{self.cpu:7.1f} CPU s {self.wall:7.1f} wall s  busy s: {busy}  ({self.last})"


# ------------------------------------------------------------------ the plug-in (-p bench_tests)

_BUSY: dict[str, dict[str, float]] = {"workers": {}, "files": {}}
#: Each test phase as [worker, node id, phase, start, seconds]: when each worker did what.
_PHASES: list[list[object]] = []
#: When the controller (or the only process) started, on the phases' clock.
_STARTED: list[float] = [time.time()]
#: When each worker finished its session and when the controller saw it go, on that clock.
_ENDS: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add a test phase's duration to the worker that ran it (``main`` without xdist) and to
    the test's file."""
    gateway = getattr(getattr(report, "node", None), "gateway", None)
    for sums, name in (
        (_BUSY["workers"], getattr(gateway, "id", None) or "main"),
        (_BUSY["files"], report.nodeid.split("::")[0]),
    ):
        sums[name] = sums.get(name, 0.0) + report.duration
    worker = getattr(gateway, "id", None) or "main"
    _PHASES.append([worker, report.nodeid, report.when, report.start, report.duration])


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The controller notes when a worker ended its session and when it went down."""
    name = getattr(getattr(node, "gateway", None), "id", "?")
    _ENDS[f"{name} finished"] = getattr(node, "workeroutput", {}).get("bench_finished", 0.0)
    _ENDS[f"{name} down"] = time.time()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker notes when its session ended; the controller (or the only process) writes the
    sums where the bench asked."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["bench_finished"] = time.time()
    path = os.environ.get(BUSY_ENV)
    if path and not hasattr(session.config, "workerinput"):
        _ENDS["controller finished"] = time.time()
        sums = {**_BUSY, "phases": _PHASES, "started": _STARTED[0], "ends": _ENDS}
        Path(path).write_text(json.dumps(sums))


# ------------------------------------------------------------------ the bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", action="store_true", help="whole suite, parallel / serial")
    parser.add_argument("--paired", action="store_true", help="whole suite, --base / this")
    parser.add_argument("--save", type=Path, help="keep each run's phases here (JSON)")
    parser.add_argument("--base", type=Path, default=Path("/tmp/base"))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--files", nargs="+", default=HEAVY_FILES)
    parser.add_argument("--workers", type=int, default=0, help="xdist workers for the files")
    opts = parser.parse_args()
    print("command:", shlex.join([Path(sys.executable).name, *sys.argv]))
    if opts.suite:
        sides = {"base": (HERE, ["-p", "no:xdist"]), "this": (HERE, [])}
        print("base: pytest -p no:xdist (one process); this: plain pytest (parallel)")
    elif opts.paired:
        sides = {"base": (opts.base.resolve(), []), "this": (HERE, [])}
        print(f"base: plain pytest in {sides['base'][0]}; this: plain pytest in {HERE}")
    else:
        spread = ["-n", str(opts.workers)] if opts.workers else ["-p", "no:xdist"]
        files = [*spread, *opts.files]
        sides = {"base": (opts.base.resolve(), files), "this": (HERE, files)}
    best: dict[str, Run] = {}
    for round_ in range(opts.rounds):
        for side, (checkout, args) in sides.items():
            run = Run(checkout, args)
            if side not in best or run.cpu < best[side].cpu:
                best[side] = run
            print(f"  round {round_ + 1} {side:4s} {checkout}: {run.describe()}")
            for line in run.failures:
                print(f"    {line}")
            if opts.paired:
                print(f"    {run.timeline()}")
            if opts.save:
                opts.save.mkdir(parents=True, exist_ok=True)
                (opts.save / f"{side}-{round_ + 1}.json").write_text(json.dumps(run.raw))
    base, this = best["base"], best["this"]
    print(
        f"fastest (least CPU): base {base.cpu:.1f} CPU s {base.wall:.1f} wall s, "
        f"this {this.cpu:.1f} CPU s {this.wall:.1f} wall s"
    )
    print(f"this / base: CPU {this.cpu / base.cpu:.2f}, wall {this.wall / base.wall:.2f}")
    if opts.suite and base.files:
        print("heaviest files (test seconds in one process):")
        for name, seconds in sorted(base.files.items(), key=lambda item: -item[1])[:15]:
            print(f"  {seconds:6.1f}  {name}")
    if opts.paired:
        for side, run in best.items():
            busiest = max(run.busy.values(), default=0.0)
            print(f"critical path {side} (busiest worker's test seconds): {busiest:.1f}")
    if opts.suite and this.busy:
        path = max(this.busy.values())
        print(
            f"critical path (busiest worker's test seconds): {path:.1f} s; "
            f"over base's test seconds {path / sum(base.busy.values()):.2f}"
        )


if __name__ == "__main__":
    main()
