"""Hostile payloads through `tts-builder eval`: every outcome is clean.

Each case draws a rule function of a bundled game, an in-domain input from that function's own
strategy, and then (mostly) one hostile change somewhere in it: a number no double holds
exactly (2^53 + 1, 2^63, NaN, Infinity, 5,000 digits), a fraction, a huge board, a deep or long
list, a long string, a control character or a lone surrogate, a value of another type, an
unknown key. Clean is exit 0 (the engines agree) or 2 with one line (the payload is out of its
limits, naming the key path, or both engines refuse it), no traceback, within the time bound.
Exit 1 (the engines disagree) and 3 (the project's own bug) fail.

A plain ``pytest`` runs :data:`EXAMPLES` cases in this process (the builds made once);
``TTS_BUILDER_FUZZ_EVAL=N`` runs N more cases, each in a fresh ``tts-builder`` process with a
time and memory bound, as a hostile user would (minutes: one build per process).
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import seeded
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tts_builder import cli as cli_module
from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.payload import MAX_DEPTH, MAX_ITEMS, MAX_SIDE, MAX_STRING

GAMES = ("arche-noah", "arche-noah-flood", "ark-and-noah", "prototype")
EXAMPLES = 300  # cases in a plain pytest (about 10 s)
SECONDS = 10.0  # one in-process case at most (a rule call takes milliseconds)
PROCESS_SECONDS = 60.0  # one fresh process at most (it builds the game first)
PROCESS_MEMORY = 2 * 1024**3  # bytes of address space a fresh process may take
OPT_IN = int(os.environ.get("TTS_BUILDER_FUZZ_EVAL", "0") or 0)

#: Raw JSON text a hostile change puts somewhere (what Python's json cannot write itself).
RAW = (
    "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "9" * 5000, "9007199254740993",
    "-9007199254740993", "9223372036854775808", "18446744073709551616", "1e300", "-0.0",
    "[" * 100_000 + "]" * 100_000, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "[" * 3000 + "]" * 3000, '{"a":' * 200 + "1" + "}" * 200,
)  # fmt: skip
NUMBERS = (
    2**53, -(2**53), 2**31, 2**31 - 1, -(2**31), 10**6, 10**9, 10**12, 1000, 100, 65, 64, 33,
    -1, 0, 0.5, 1.5, -2.5, 2.0, 1e-300, 0.1,
)  # fmt: skip
STRINGS = (
    "", "x", "--", "]]", "<>&\"'", "é", "🦆", "\u0000", "\u0001", "\t", "\x7f", "\ud800",
    "\udfff", "x" * (MAX_STRING + 1), "h:0:0", "v:0:0", "p:0:0", "Red", "junior", "standard",
    "1", "-1", "nan", "inf",
)  # fmt: skip
_MARK = "\ue000raw:"  # a string standing for RAW[i] until the text is written


@cache
def game_inputs(game: str) -> tuple[str, dict[str, Any]]:
    """``(engine, {function: in-domain input strategy})`` of a bundled game."""
    from tts_builder.definition import load_definition
    from tts_builder.games import game_module
    from tts_builder.strategies import strategies_for

    definition = load_definition(game, None)
    engine = definition.rules_engine
    config = game_module(engine).rules_config(definition.data, None)
    return engine, strategies_for(engine, config, definition.players)


def _hostile_value() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.sampled_from(range(len(RAW))).map(lambda i: f"{_MARK}{i}"),
        st.sampled_from(NUMBERS),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from(STRINGS),
        st.text(max_size=20),
        st.sampled_from([None, True, False, [], {}]),
        st.lists(st.integers(-5, 5), min_size=MAX_ITEMS + 1, max_size=MAX_ITEMS + 1),
        st.lists(st.sampled_from(NUMBERS), max_size=300),
    )


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every key path of ``value`` (the value itself too)."""
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _places(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _places(item, (*path, i))
    return out


def _put(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _put(value[head], rest, new)}
    return [_put(item, rest, new) if i == head else item for i, item in enumerate(value)]


@st.composite
def cases(draw: st.DrawFn, games: tuple[str, ...] = GAMES) -> tuple[str, str, str]:
    """``(game, function, payload text)``: an in-domain input with up to three hostile changes
    (none in about a fifth of the cases)."""
    game = draw(st.sampled_from(games))
    _, found = game_inputs(game)
    function = draw(st.sampled_from(sorted(found)))
    inp = draw(found[function])
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2, 3]))):
        places = _places(inp)
        where = draw(st.sampled_from(places))
        if draw(st.integers(0, 4)) == 0 and isinstance(inp, dict):  # an unknown key, or one more
            inp = {**inp, draw(st.sampled_from(["extra", "players", "map", "rows", "x"])): None}
            where = (list(inp)[-1],)
        if where == ():
            continue
        old = _get(inp, where)
        new = draw(_extreme(old) if draw(st.booleans()) else _hostile_value())
        inp = _put(inp, where, new)
    return game, function, _text(inp)


def _extreme(value: Any) -> st.SearchStrategy[Any]:
    """A value of the same kind as ``value`` at or past the edges of what a payload may hold:
    numbers at the limits of a whole number, a side of a board, a seat; a list repeated up to
    (or past) its longest; another name."""
    if isinstance(value, bool) or value is None:
        return st.sampled_from([True, False])
    if isinstance(value, int):
        edges = [-(2**31), 2**31 - 1, 2**31, -(2**31) - 1, MAX_SIDE, MAX_SIDE + 1, -MAX_SIDE,
                 2 * MAX_SIDE, 12, 13, 0, -1]  # fmt: skip
        return st.sampled_from(edges) | st.integers(-(2**31), 2**31 - 1)
    if isinstance(value, list) and value:
        sizes = st.sampled_from([12, 13, 64, 65, 1000, MAX_ITEMS, MAX_ITEMS + 1])
        return sizes.map(lambda n: [value[i % len(value)] for i in range(n)])
    if isinstance(value, str):
        return st.sampled_from(STRINGS) | st.just(value * 50)
    return _hostile_value()


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def _text(inp: Any) -> str:
    text = json.dumps(inp, ensure_ascii=False)
    for i, raw in enumerate(RAW):
        text = text.replace(json.dumps(f"{_MARK}{i}", ensure_ascii=False), raw)
    return text


def clean(code: int, out: str, err: str, seconds: float, bound: float) -> str | None:
    """Why an outcome is not clean, or None."""
    if "Traceback" in out + err:
        return "a traceback"
    if seconds > bound:
        return f"{seconds:.1f} s, over {bound:.0f} s"
    if code == EXIT_OK:
        result = json.loads(out)
        return None if result.get("agree") is True else "exit 0 without agreement"
    if code == EXIT_BAD_INPUT:
        lines = err.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith("error: "):
            return f"exit 2 without one error line: {err!r}"
        return None
    return f"exit {code}: {(out + err).strip()[:2000]}"


@pytest.fixture(scope="module")
def fuzz_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz-eval")
    seeded(folder / "dist")
    return folder


@pytest.fixture(scope="module")
def built_once(fuzz_folder: Path) -> Iterator[None]:
    """``eval`` runs in ``fuzz_folder`` and builds each game once, before the timed cases (the
    door is what is tested: a build per case would make a case 100 times slower)."""
    once = _built(cli_module._engines)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(fuzz_folder)
        patch.setattr(cli_module, "_engines", once)
        for game in GAMES:
            once(game, None, None)
        yield


def _built(engines: Any) -> Any:
    built: dict[tuple, Any] = {}

    def once(*args: Any) -> Any:
        if args not in built:
            built[args] = engines(*args)
        return built[args]

    return once


def in_process(game: str, function: str, text: str) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(["-q", "eval", game, function, text])
    return code, out.getvalue(), err.getvalue(), time.perf_counter() - start


@pytest.mark.usefixtures("built_once")
@settings(max_examples=EXAMPLES, deadline=None, database=None, print_blob=True,
          derandomize=True,  # the suite's cases are fixed; TTS_BUILDER_FUZZ_EVAL explores
          suppress_health_check=list(HealthCheck))  # fmt: skip
@given(case=cases())
def test_eval_is_clean_on_hostile_payloads(case: tuple[str, str, str]) -> None:
    game, function, text = case
    faulthandler.dump_traceback_later(PROCESS_SECONDS, exit=True)  # a hang kills the worker
    try:
        code, out, err, seconds = in_process(game, function, text)
    finally:
        faulthandler.cancel_dump_traceback_later()
    why = clean(code, out, err, seconds, SECONDS)
    assert why is None, f"{game} {function} {text[:300]!r}: {why}"


def _bounded() -> None:  # in the child, before exec
    resource.setrlimit(resource.RLIMIT_AS, (PROCESS_MEMORY, PROCESS_MEMORY))


def in_a_process(game: str, function: str, text: str, folder: Path) -> tuple[int, str, str, float]:
    """One case in a fresh process: killed (exit -9, a failure) past its time bound."""
    # As bytes: a lone surrogate crosses as the bytes a hostile user would pass (not UTF-8).
    payload = text.encode("utf-8", "surrogatepass")
    command = [sys.executable, "-m", "tts_builder", "-q", "eval", game, function, payload]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False,
                              timeout=PROCESS_SECONDS, preexec_fn=_bounded)  # fmt: skip
    except subprocess.TimeoutExpired:
        return -9, "", "killed", time.perf_counter() - start
    return done.returncode, done.stdout, done.stderr, time.perf_counter() - start


@pytest.mark.skipif(not OPT_IN, reason="TTS_BUILDER_FUZZ_EVAL=N runs N cases in fresh processes")
def test_eval_is_clean_in_fresh_processes(fuzz_folder: Path) -> None:
    seed = int(os.environ.get("TTS_BUILDER_FUZZ_SEED", "0") or 0)
    failures: list[str] = []
    tried = 0

    @settings(max_examples=OPT_IN, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=["generate"])  # fmt: skip
    @given(case=cases())
    def one(case: tuple[str, str, str]) -> None:
        nonlocal tried
        tried += 1
        code, out, err, seconds = in_a_process(*case, fuzz_folder)
        why = clean(code, out, err, seconds, PROCESS_SECONDS)
        if why is not None:
            failures.append(f"{case[0]} {case[1]} {case[2][:300]!r}: {why}")

    from hypothesis import seed as with_seed

    with_seed(seed)(one)()
    print(f"eval fuzz: {tried} tried, {tried - len(failures)} clean (seed {seed})")
    assert not failures, "\n".join(failures)
