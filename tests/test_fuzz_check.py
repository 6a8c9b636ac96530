"""``tts-builder check`` on hostile saves (issue 24): a small save built here, mutated by
Hypothesis (wrong types at any JSON path, huge, NaN and negative numbers, deep nesting,
control characters, missing keys, odd ImageURLs, broken bytes), is checked in-process. Every
run ends with exit 0 or 2 within its time bound, never a traceback or exit 3; every line it
prints is one finding (``SAVE: [level] path: message``), the summary, or one refusal naming
the save.

A few hundred cases run in the suite; more with ``TTS_BUILDER_FUZZ_EXAMPLES=N``, and new ones
with ``TTS_BUILDER_FUZZ_SEED=S`` (otherwise the cases are the same in every run)::

    TTS_BUILDER_FUZZ_EXAMPLES=3000 TTS_BUILDER_FUZZ_SEED=7 pytest -q tests/test_fuzz_check.py
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import io
import json
import os
import re
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from PIL import Image

from tts_builder.cli import run
from tts_builder.save import new_save, tab_state
from tts_builder.save import objects as obj
from tts_builder.save.savefile import dumps

EXAMPLES = int(os.environ.get("TTS_BUILDER_FUZZ_EXAMPLES", "250"))
SEED = os.environ.get("TTS_BUILDER_FUZZ_SEED")
#: The longest a check of this small save may take, in seconds (it takes about 0.05).
TIME_BOUND = 10.0

#: A folder of this module's own files: the images the save names, a FIFO, a folder.
HERE = Path(tempfile.mkdtemp(prefix="tts-fuzz-check-"))
atexit.register(shutil.rmtree, HERE, True)


def _files() -> dict[str, str]:
    """file:/// URLs of what the ImageURLs may name, made once."""
    HERE.mkdir(parents=True, exist_ok=True)
    png, sheet, fifo = HERE / "tile.png", HERE / "sheet.png", HERE / "fifo.png"
    if not png.exists():
        Image.new("1", (200, 100)).save(png)
        Image.new("1", (4000, 3920)).save(sheet)
    if not fifo.exists():
        os.mkfifo(fifo)
    return {"tile": png.as_uri(), "sheet": sheet.as_uri(), "fifo": fifo.as_uri(),
            "folder": HERE.as_uri()}  # fmt: skip


def base_save() -> dict[str, Any]:
    """A small save with one object of most kinds the checks look at."""
    urls = _files()
    tile = obj.custom_tile("a00001", urls["tile"], tags=["Board"])
    tile["AttachedSnapPoints"] = [obj.snap_point((0.5, 0.2, 0.0), tags=["Board"])]
    entry = obj.custom_deck_entry(urls["sheet"], urls["sheet"], 10, 7)
    cards = [obj.card(f"b0000{i}", obj.card_id(1, i), entry) for i in range(3)]
    hands = obj.default_hand_triggers(lambda c: f"c0000{'WR'.index(c[0])}", colors=("White", "Red"))
    objects = [
        tile,
        obj.custom_token("a00002", urls["tile"], nickname="Red token"),
        obj.deck("a00003", cards[:2]),
        cards[2],
        obj.custom_dice("a00004", urls["tile"]),
        obj.bag("a00005", [obj.custom_tile("a00006", urls["tile"])]),
        obj.infinite_bag("a00007", obj.custom_token("a00008", urls["tile"])),
        obj.game_object("Counter", "a00009", fields={"Counter": {"value": 3}}),
        obj.game_object("3DText", "a0000a", fields={"Text": {"Text": "hi", "fontSize": 64}}),
        *hands,
    ]
    objects[1]["States"] = {"2": obj.custom_token("a0000b", urls["tile"])}
    for i, o in enumerate(objects):
        o["Transform"].update(posX=-6.0 + 3.0 * i, posY=0.96, rotY=180.0)
    return new_save(
        save_name="fuzz", game_mode="fuzz", objects=objects,
        lua_script='spawn("White") -- https://example.invalid/x.png', xml_ui="<Panel/>",
        snap_points=[obj.snap_point((0.0, 0.96, 0.0), tags=["Board"])],
        tab_states=[tab_state("Rules", "Read me")],
    )  # fmt: skip


def paths(value: Any, at: tuple = ()) -> Iterator[tuple]:
    """Every JSON path of ``value`` (the root too), parents before children."""
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*at, i))


def _at(save: Any, path: tuple) -> Any:
    for key in path:
        save = save[key]
    return save


BASE = base_save()
PATHS = list(paths(BASE))
KEYS = sorted({p[-1] for p in PATHS if p and isinstance(p[-1], str)})

ODD_STRINGS = [
    "", "\x00", "a\nb", "tab\there", "\x1b[31mred\x1b[0m", "\r\n", "\u2028", "\ud800", "é",
    "\U0001f600", "]] --[[", "<!-- -->", '"', "\\", "x" * 5_000,
    "file:///", "file:///dev/zero", "file:///dev/stdin", "file:///proc/self/fd/0",
    "file:///nonexistent/x.png", "file:///%00x.png", "file:///tmp/\x00.png", "file://host/x.png",
    "file:///" + "a" * 5_000 + ".png", "http://", "https://example.invalid/a.png",
    "{verifycache}https://x", "Card", "Deck", "Custom_Tile", "Custom_Dice", "HandTrigger",
    "Infinite_Bag", "DeckCustom", "White", "Red", "v13.3", "abcdef", "a00001",
]  # fmt: skip
ODD_NUMBERS = [
    0, -1, 1, 2**31, 2**63, -(2**63), 10**308, -(10**308), 10**4000, -(10**4000),
    0.0, -0.0, 0.5, -1.0, 1e-320, 1e308, -1e308, 1.7976931348623157e308,
    float("nan"), float("inf"), float("-inf"), 100, 101, 169, 9999,
]  # fmt: skip


def _strings() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(ODD_STRINGS),
        st.sampled_from([f"file://{u[7:]}" for u in _files().values()]),
        st.text(max_size=20),
    )


SCALARS = st.one_of(
    st.none(), st.booleans(), st.sampled_from(ODD_NUMBERS), st.integers(),
    st.floats(allow_nan=True, allow_infinity=True), _strings(),
)  # fmt: skip
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | _strings(), inner, max_size=4)
    ),
    max_leaves=12,
)


def _deep(depth: int, kind: str) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value] if kind == "list" else {"ContainedObjects": [value]}
    return value


DEEP = st.builds(_deep, st.integers(1, 3_000), st.sampled_from(["list", "dict"]))

#: Paths of the base save's numbers (positions, scales, rotations, counts): the geometry's input.
NUMBER_PATHS = [p for p in PATHS if type(_at(BASE, p)) in (int, float)]
MUTATION = st.one_of(
    st.tuples(
        st.just("set"),
        st.sampled_from(NUMBER_PATHS),
        st.sampled_from(ODD_NUMBERS) | st.floats() | st.sampled_from([1e-300, 1e-9, 1e-3]),
    ),
    st.tuples(st.just("set"), st.sampled_from(PATHS), st.one_of(VALUES, DEEP)),
    st.tuples(st.just("set"), st.sampled_from(PATHS), st.just(None)),
    st.tuples(st.just("del"), st.sampled_from(PATHS), st.just(None)),
    st.tuples(st.just("add"), st.sampled_from(PATHS), st.tuples(st.sampled_from(KEYS), VALUES)),
    st.tuples(st.just("copy"), st.sampled_from(PATHS), st.sampled_from(PATHS)),
)
BYTES = st.one_of(
    st.none(),
    st.tuples(st.just("cut"), st.integers(0, 10**6)),
    st.tuples(st.just("insert"), st.integers(0, 10**6),
              st.sampled_from([b"\x00", b"\xff", b"\r\n", b"\xef\xbb\xbf", b"\x1b", b"NaN"])),
    st.tuples(st.just("bom"), st.just(0)),
    st.tuples(st.just("crlf"), st.just(0)),
)  # fmt: skip


def mutated(mutations: list[tuple], raw: tuple | None, ascii: bool = False) -> bytes:
    """The base save changed by ``mutations`` (a path gone already is skipped), as bytes
    (with ``ascii``, every other character escaped: a lone surrogate reaches the checks)."""
    save = copy.deepcopy(BASE)
    for op, path, arg in mutations:
        try:
            parent = _at(save, path[:-1]) if path else None
            if op == "set" and not path:
                save = arg
            elif op == "set":
                parent[path[-1]] = arg
            elif op == "del" and path:
                del parent[path[-1]]
            elif op == "add" and isinstance(_at(save, path), dict):
                _at(save, path)[arg[0]] = arg[1]
            elif op == "copy" and path:
                parent[path[-1]] = copy.deepcopy(_at(save, arg))
        except (KeyError, IndexError, TypeError, RecursionError):  # the harness, not check
            continue
    try:
        text = json.dumps(save, indent=2, ensure_ascii=ascii)
        data = text.encode("utf-8", "surrogatepass")
    except (RecursionError, ValueError):
        data = dumps(BASE)
    if raw is None:
        return data
    op, at, *more = raw
    at = at % (len(data) + 1)
    if op == "cut":
        return data[:at]
    if op == "insert":
        return data[:at] + more[0] + data[at:]
    if op == "bom":
        return b"\xef\xbb\xbf" + data
    return data.replace(b"\n", b"\r\n")


class _TooLong(BaseException):
    """A check past its time bound (BaseException: the CLI's last line of defence lets it be)."""


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def ring(*_: object) -> None:
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_clean(data: bytes, where: Path) -> None:
    """``check`` on ``data`` written at ``where``: exit 0 or 2, in time, every line located."""
    where.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    try:
        with (
            _alarm(3 * TIME_BOUND),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            code = run(["check", "--all", str(where)])
    except _TooLong:
        pytest.fail(f"check still running after {3 * TIME_BOUND} s")
    took = time.monotonic() - started
    printed = f"stdout: {out.getvalue()[-2000:]}\nstderr: {err.getvalue()[-2000:]}"
    shown = f"exit {code} after {took:.1f} s\n{printed}"
    assert code in (0, 2), shown
    assert took < TIME_BOUND, shown
    assert "Traceback" not in out.getvalue() + err.getvalue(), shown
    lines = out.getvalue().splitlines()
    finding = re.compile(re.escape(f"{where}: [") + r"(req|conv|geo)\] \S")
    for line in lines[:-1]:
        assert finding.match(line), f"not one finding a line: {line[:300]!r}\n{shown}"
    if lines:
        assert lines[-1].startswith("checked 1 save: "), shown
    refusal = err.getvalue().splitlines()
    if refusal:
        assert not lines and code == 2, shown
        assert len(refusal) == 1 and refusal[0].startswith(f"error: {where}"), shown
    else:
        assert lines, shown
    for line in lines + refusal:
        assert line.isprintable(), f"unprintable: {line[:300]!r}"


def _fuzz_settings(examples: int):
    def wrap(test):
        test = settings(
            max_examples=examples, deadline=None, database=None, derandomize=SEED is None,
            suppress_health_check=list(HealthCheck),
        )(test)  # fmt: skip
        return seed(int(SEED))(test) if SEED is not None else test

    return wrap


def test_the_base_save_checks_clean(tmp_path: Path) -> None:
    check_clean(dumps(BASE), tmp_path / "save.json")


@_fuzz_settings(EXAMPLES)
@given(mutations=st.lists(MUTATION, min_size=1, max_size=4), raw=BYTES, ascii=st.booleans())
def test_check_survives_any_mutated_save(
    mutations: list[tuple], raw: tuple | None, ascii: bool
) -> None:
    check_clean(mutated(mutations, raw, ascii), HERE / "save.json")
