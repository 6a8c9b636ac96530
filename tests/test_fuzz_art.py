"""Art loading fuzzed (issue 24): small PNGs and JPEGs made here, mutated by Hypothesis
(bytes flipped, inserted, cut; chunks rewritten with their checksums right so the damage gets
past the walk; odd sizes in the header; text and colour-profile bombs; scans and segments
repeated; misleading names), then read as a game's art file is: the load's check
(``art_problem``: no pixel decoded) and the build's decode (``decode_art``). Each ends, within
its time bound, in a picture within the limits or one printable line (a BuildError naming the
file, or the load's problem); never another exception or a warning. Art paths are fuzzed too
(links in and out of the folder, loops, a folder, a FIFO, NUL, line breaks, lone surrogates,
long names), and a few cases run the whole CLI: exit 0, or 2 with one located line and no
build folder.

A few hundred cases run in the suite (well under 30 s); more with
``TTS_BUILDER_FUZZ_EXAMPLES=N`` (the byte cases; the others in proportion), new ones with
``TTS_BUILDER_FUZZ_SEED=S`` (otherwise the cases are the same in every run)::

    TTS_BUILDER_FUZZ_EXAMPLES=3000 TTS_BUILDER_FUZZ_SEED=7 pytest -q tests/test_fuzz_art.py
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import io
import os
import re
import shutil
import signal
import struct
import tempfile
import time
import warnings
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from PIL import Image, PngImagePlugin

from tts_builder.cli import EXIT_BAD_INPUT, EXIT_OK, run
from tts_builder.errors import BuildError
from tts_builder.render.art_file import (
    MAX_ART_PIXELS,
    MAX_ART_SIDE,
    art_header,
    art_problem,
    decode_art,
    find_art,
    load_art,
)

EXAMPLES = int(os.environ.get("TTS_BUILDER_FUZZ_EXAMPLES", "300"))
SEED = os.environ.get("TTS_BUILDER_FUZZ_SEED")
#: The longest one small art file may take to check and decode, in seconds (about 0.01).
TIME_BOUND = 5.0
#: The longest one build of the small game may take, in seconds (about 1).
BUILD_BOUND = 30.0

PROJECT = Path(__file__).resolve().parents[1]
GAME = "fuzz-art"
#: A folder of this module's own files (the game folder of the path cases, the CLI's game).
HERE = Path(tempfile.mkdtemp(prefix="tts-fuzz-art-"))
atexit.register(shutil.rmtree, HERE, True)


# ------------------------------------------------------------------------- the seed files


def _saved(image: Image.Image, fmt: str, **options: Any) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


def _gradient(mode: str, size: tuple[int, int]) -> Image.Image:
    grey = Image.linear_gradient("L").resize(size)
    return (
        grey.convert("RGB").convert(mode) if mode in ("RGB", "RGBA", "CMYK") else grey.convert(mode)
    )


def _seeds() -> dict[str, bytes]:
    """Small art files of the kinds designers save, PNG and JPEG."""
    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "hello")
    info.add_text("Software", "x" * 200, zip=True)
    info.add_itxt("XML:com.adobe.xmp", "<x/>" * 50, zip=True)
    rgb = _gradient("RGB", (24, 16))
    return {
        "rgba.png": _saved(_gradient("RGBA", (24, 16)), "PNG"),
        "palette.png": _saved(rgb.convert("P"), "PNG", transparency=0),
        "bits.png": _saved(_gradient("1", (17, 9)), "PNG"),
        "grey16.png": _saved(_gradient("I;16", (12, 12)), "PNG"),
        "interlaced.png": _saved(rgb, "PNG", interlace=1),  # Pillow writes no Adam7: plain
        "text.png": _saved(rgb, "PNG", pnginfo=info, icc_profile=b"\x00" * 300),
        "base.jpg": _saved(rgb, "JPEG", quality=80),
        "progressive.jpg": _saved(rgb, "JPEG", progressive=True),
        "grey.jpeg": _saved(_gradient("L", (20, 30)), "JPEG"),
        "cmyk.jpg": _saved(rgb.convert("CMYK"), "JPEG"),
        "exif.jpg": _saved(
            rgb, "JPEG", exif=b"Exif\x00\x00" + b"II*\x00" + b"\x00" * 40, icc_profile=b"\x01" * 200
        ),  # fmt: skip
    }


SEEDS = _seeds()
NAMES = ["art.png", "art.PNG", "art.jpg", "art.jpeg", "art.JPG", "art.gif", "art", "a.png.jpg"]


# ---------------------------------------------------------------------------- mutations


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """A PNG's chunks (type, body) as far as they are whole."""
    found, pos = [], 8
    while pos + 12 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        if pos + 12 + length > len(data):
            break
        found.append((kind, data[pos + 8 : pos + 8 + length]))
        pos += 12 + length
    return found


def _png(chunks: list[tuple[bytes, bytes]]) -> bytes:
    return b"\x89PNG\r\n\x1a\n" + b"".join(_chunk(kind, body) for kind, body in chunks)


def _segments(data: bytes) -> list[bytes]:
    """A JPEG's segments (each from its marker; a scan with its entropy-coded data)."""
    found, pos = [], 2
    while pos + 4 <= len(data) and data[pos] == 0xFF and data[pos + 1] != 0xD9:
        end = pos + 2 + int.from_bytes(data[pos + 2 : pos + 4], "big")
        if data[pos + 1] == 0xDA:
            marker = re.compile(rb"\xff[^\x00\xd0-\xd7]").search(data, end)
            end = marker.start() if marker else len(data)
        found.append(data[pos:end])
        pos = end
    return found


def _jpeg(segments: list[bytes]) -> bytes:
    return b"\xff\xd8" + b"".join(segments) + b"\xff\xd9"


BOMB = zlib.compress(b"\x00" * 3_000_000, 9)
ODD_SIDES = [0, 1, 2, 3, 255, 4095, 4096, 4097, 8191, 8192, 8193, 65535, 2**31 - 1, 2**32 - 1]
CHUNK_TYPES = [b"IHDR", b"PLTE", b"IDAT", b"IEND", b"tRNS", b"tEXt", b"zTXt", b"iTXt",
               b"iCCP", b"eXIf", b"acTL", b"fcTL", b"fdAT", b"gAMA", b"sRGB", b"pHYs",
               b"abCd", b"\x00\x00\x00\x00"]  # fmt: skip
INSERTED = [
    _chunk(b"zTXt", b"k\x00\x00" + BOMB),
    _chunk(b"iCCP", b"p\x00\x00" + BOMB),
    _chunk(b"iTXt", b"k\x00\x01\x00\x00\x00" + BOMB),
    _chunk(b"tEXt", b"k\x00" + b"a" * 600_000),
    _chunk(b"zTXt", b"k\x00\x00" + b"not zlib"),
    _chunk(b"IEND", b""),
    _chunk(b"IDAT", zlib.compress(b"\x00" * 100)),
    _chunk(b"acTL", struct.pack(">II", 2**31, 0)),
    _chunk(b"eXIf", b"MM\x00*" + b"\xff" * 40),
    b"\xff\xfe\x00\x10" + b"a" * 14,  # a JPEG comment
    b"\xff\xe1\xff\xff" + b"Exif\x00\x00" + b"\x00" * 65527,  # a full APP1
    b"\xff" * 40_000,  # fill bytes
    b"\xff\xdd\x00\x04\x00\x01",  # a restart interval of 1
]

#: Edits of the bytes (most break the structure the load walks)...
RAW_OPS = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 10**6), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(INSERTED)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=16)),
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 64)),
    st.tuples(st.just("cut"), st.integers(0, 10**6), st.just(0)),
)
#: ... and of chunks or segments, the file written again whole (what reaches Pillow).
CHUNK_OPS = st.one_of(
    st.tuples(st.just("body"), st.integers(0, 100), st.binary(max_size=64)),
    st.tuples(st.just("kind"), st.integers(0, 100), st.sampled_from(CHUNK_TYPES)),
    st.tuples(st.just("twice"), st.integers(0, 100), st.integers(1, 40)),
    st.tuples(st.just("drop"), st.integers(0, 100), st.just(0)),
    st.tuples(st.just("size"), st.sampled_from(ODD_SIDES), st.sampled_from(ODD_SIDES)),
    st.tuples(st.just("mend"), st.just(0), st.just(0)),
)
OPS = st.one_of(RAW_OPS, CHUNK_OPS, CHUNK_OPS)


def mutated(data: bytes, ops: list[tuple]) -> bytes:
    """``data`` changed by ``ops``: raw byte edits, or edits of one chunk (PNG) or segment
    (JPEG), the whole file written again with the checksums right."""
    for op, at, arg in ops:
        png = data.startswith(b"\x89PNG")
        parts: list[Any] = _chunks(data) if png else _segments(data)
        where = at % (len(data) + 1)
        if op == "set" and data:
            data = data[: where % len(data)] + bytes([arg]) + data[where % len(data) + 1 :]
        elif op == "insert":
            data = data[:where] + arg + data[where:]
        elif op == "delete":
            data = data[:where] + data[where + arg :]
        elif op == "cut":
            data = data[:where]
        elif op == "mend" and png:  # whole chunks, their checksums right: damage gets past
            data = _png(parts)
        elif op == "size" and png and parts and parts[0][0] == b"IHDR":
            parts[0] = (b"IHDR", struct.pack(">II", at, arg) + parts[0][1][8:])
            data = _png(parts)
        elif op == "size" and not png:
            for i, seg in enumerate(parts):
                if len(seg) >= 9 and 0xC0 <= seg[1] <= 0xC2:
                    parts[i] = seg[:5] + struct.pack(">HH", arg & 0xFFFF, at & 0xFFFF) + seg[9:]
            data = _jpeg(parts)
        elif parts and op in ("body", "kind", "twice", "drop"):
            i = at % len(parts)
            if png:
                kind, body = parts[i]
                if op == "body":
                    parts[i] = (kind, arg)
                elif op == "kind":
                    parts[i] = (arg, body)
                elif op == "twice":
                    parts[i:i] = [parts[i]] * arg
                else:
                    del parts[i]
                data = _png(parts)
            else:
                seg = parts[i]
                if op == "body":
                    parts[i] = seg[:2] + struct.pack(">H", len(arg) + 2) + arg
                elif op == "kind":
                    parts[i] = b"\xff" + arg[:1] + seg[2:]
                elif op == "twice":
                    parts[i:i] = [seg] * arg
                else:
                    del parts[i]
                data = _jpeg(parts)
    return data


# ------------------------------------------------------------------------------ checking


class _TooLong(BaseException):
    """A case past its time bound (BaseException: nothing under test catches it)."""


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


def _one_line(text: str, shown: str) -> None:
    assert text and "\n" not in text and text.isprintable(), f"{text[:300]!r}\n{shown}"
    assert "Traceback" not in text, shown


def art_clean(data: bytes, name: str, folder: Path) -> None:
    """The load's check and the build's decode of ``data`` as the art file ``name``: a picture
    within the limits or one printable line each, no warning, in time; they agree on what
    the header refuses."""
    (folder / name).write_bytes(data)
    shown = f"{name}: {len(data)} bytes {data[:48]!r}..."
    started = time.monotonic()
    try:
        with _alarm(3 * TIME_BOUND), warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            problem = art_problem(folder, name)
            try:
                picture = decode_art(data, folder / name, "art")
            except BuildError as err:
                picture, refused = None, str(err)
    except _TooLong:
        pytest.fail(f"still reading after {3 * TIME_BOUND} s: {shown}")
    took = time.monotonic() - started
    assert took < TIME_BOUND, f"{took:.1f} s: {shown}"
    assert not said, f"{[str(w.message) for w in said]}: {shown}"
    if problem is not None:
        _one_line(problem, shown)
        assert picture is None, f"the load refused what the build drew: {problem}\n{shown}"
    if picture is None:
        _one_line(refused, shown)
        assert refused.startswith(f"{folder / name}: art: "), shown
    else:
        assert picture.mode == "RGBA", shown
        assert max(picture.size) <= MAX_ART_SIDE, shown
        assert picture.width * picture.height <= MAX_ART_PIXELS, shown
        assert art_header(data, name).size == picture.size, shown


def _fuzz_settings(examples: int):
    def wrap(test):
        test = settings(
            max_examples=max(1, examples), deadline=None, database=None,
            derandomize=SEED is None, suppress_health_check=list(HealthCheck),
        )(test)  # fmt: skip
        return seed(int(SEED))(test) if SEED is not None else test

    return wrap


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_every_seed_file_is_art(name: str, tmp_path: Path) -> None:
    """The seeds are good art: the load passes them, the build draws them."""
    assert art_problem(tmp_path, name) is not None  # not there yet
    (tmp_path / name).write_bytes(SEEDS[name])
    assert art_problem(tmp_path, name) is None
    assert decode_art(SEEDS[name], tmp_path / name, "art").mode == "RGBA"


FOLDER = HERE / "bytes"


@_fuzz_settings(EXAMPLES)
@given(
    base=st.sampled_from(sorted(SEEDS)),
    ops=st.lists(OPS, min_size=1, max_size=4),
    mend=st.booleans(),
    rename=st.integers(0, 3),
    name=st.sampled_from(NAMES),
)
def test_art_bytes_end_in_a_picture_or_one_line(
    base: str, ops: list[tuple], mend: bool, rename: int, name: str
) -> None:
    """``mend``: a PNG's chunks written again at the end (damage inside reaches Pillow);
    ``rename`` (one in four): the file named ``name`` instead of as its seed."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    data = mutated(SEEDS[base], [*ops, ("mend", 0, 0)] if mend else ops)
    art_clean(data, name if rename == 0 else base, FOLDER)


def damaged_inside(data: bytes, edits: list[tuple[int, int, int]]) -> bytes:
    """``data`` with bytes of its chunk bodies (PNG, the checksums made right again) or of
    its scans' coded data (JPEG, never a 0xFF) changed: the structure the load walks stays
    whole, the damage is Pillow's to find."""
    png = data.startswith(b"\x89PNG")
    parts: list[Any] = _chunks(data) if png else _segments(data)
    for index, at, value in edits:
        i = index % len(parts)
        if png:
            kind, body = parts[i]
            if body:
                body = body[: at % len(body)] + bytes([value]) + body[at % len(body) + 1 :]
            parts[i] = (kind, body)
        elif len(parts[i]) > 4:
            seg = parts[i]
            start = 4 if seg[1] != 0xDA else 2 + int.from_bytes(seg[2:4], "big")
            if start < len(seg):
                at = start + at % (len(seg) - start)
                parts[i] = seg[:at] + bytes([value % 0xFF]) + seg[at + 1 :]
    return _png(parts) if png else _jpeg(parts)


@_fuzz_settings(EXAMPLES // 2)
@given(
    base=st.sampled_from(sorted(SEEDS)),
    edits=st.lists(
        st.tuples(st.integers(0, 40), st.integers(0, 10**4), st.integers(0, 255)),
        min_size=1,
        max_size=6,
    ),
)
def test_damaged_pixel_data_ends_in_a_picture_or_one_line(
    base: str, edits: list[tuple[int, int, int]]
) -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    art_clean(damaged_inside(SEEDS[base], edits), base, FOLDER)


# ---------------------------------------------------------------------------------- paths


def _path_folder() -> Path:
    """A game folder with art, links in and out of it, a loop, a folder, a FIFO."""
    root = HERE / "paths" / "game"
    if root.exists():
        return root
    (root / "art" / "sub").mkdir(parents=True)
    (root / "art" / "ok.png").write_bytes(SEEDS["rgba.png"])
    (root / "art" / "ok.jpg").write_bytes(SEEDS["base.jpg"])
    (HERE / "paths" / "secret.png").write_bytes(SEEDS["rgba.png"])
    links = {
        "inside.png": "art/ok.png", "outside.png": "../secret.png", "abs.png": "/etc/passwd",
        "loop.png": "loop.png", "ping.png": "pong.png", "pong.png": "ping.png",
        "dangling.png": "nowhere.png", "zero.png": "/dev/zero", "art/up": "..",
        "art/root": "/", "dir.png": "art/sub",
    }  # fmt: skip
    for name, target in links.items():
        (root / name).symlink_to(target)
    os.mkfifo(root / "fifo.png")
    (root / "folder.png").mkdir()
    return root


PATH_PARTS = [
    "art", "ok.png", "ok.jpg", "..", ".", "/", "inside.png", "outside.png", "abs.png",
    "loop.png", "ping.png", "dangling.png", "zero.png", "up", "root", "dir.png", "fifo.png",
    "folder.png", "sub", "secret.png", "game", "\x00", "\n", "\ud800", "é", " ", "~",
    "x" * 300, "a/" * 600, "%00", "\\", "C:", "*", "?",
]  # fmt: skip
FOLDERS = ["art", "..", ".", "", "art/up", "art/root", "up", "sub", "game", "../game", "art/sub/.."]
FILES = ["ok.png", "ok.jpg", "art/ok.png", "inside.png", "outside.png", "abs.png", "loop.png",
         "ping.png", "dangling.png", "zero.png", "dir.png", "fifo.png", "folder.png",
         "secret.png", "etc/passwd", "dev/zero"]  # fmt: skip
RELS = st.one_of(
    st.tuples(st.lists(st.sampled_from(FOLDERS), max_size=4), st.sampled_from(FILES)).map(
        lambda parts: "/".join([*parts[0], parts[1]])
    ),
    st.lists(st.sampled_from(PATH_PARTS), min_size=1, max_size=6).map("/".join),
    st.lists(st.sampled_from(PATH_PARTS), min_size=1, max_size=6).map("".join),
    st.text(max_size=40),
)


@_fuzz_settings(EXAMPLES * 2 // 3)
@given(rel=RELS)
def test_art_paths_stay_inside_the_game_folder(rel: str) -> None:
    """Any path: one printable line, or a regular file inside the folder once its links are
    followed, drawn by the build; the build's own reading agrees with the load's check."""
    root = _path_folder()
    shown = f"path {rel[:200]!r}"
    with _alarm(3 * TIME_BOUND):
        problem = art_problem(root, rel)
        try:
            picture = load_art(root, rel, "art")
        except BuildError as err:
            picture = None
            _one_line(str(err), shown)
    if problem is None:
        real = find_art(root, rel)
        assert real.is_relative_to(root.resolve()) and real.is_file(), shown
        assert picture is not None, shown
    else:
        _one_line(problem, shown)
        assert picture is None, shown


# ------------------------------------------------------------------------------- the CLI


def _definition(src: str) -> str:
    data = yaml.safe_load((PROJECT / "assets" / "prototype" / "game.yaml").read_text("utf-8"))
    data["id"] = GAME
    image = {"type": "image", "src": src, "box": [0, 0, 40, 40]}
    data["components"]["seed"]["face"] = [*copy.deepcopy(data["components"]["seed"]["face"]),
                                           image]  # fmt: skip
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def build_clean(data: bytes, name: str, root: Path) -> None:
    """The prototype with an image of ``data`` as ``name``, built by the CLI: exit 0, or 2 with
    one line (located in game.yaml when the load refused it) and no build folder."""
    shutil.rmtree(root, ignore_errors=True)
    (root / GAME).mkdir(parents=True)
    (root / GAME / "game.yaml").write_text(_definition(name), "utf-8")
    (root / GAME / name).write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    try:
        with (
            _alarm(2 * BUILD_BOUND),
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
        ):
            code = run(["-q", "--assets", str(root), "build", GAME, "--out", str(root / "dist")])
    except _TooLong:
        pytest.fail(f"build still running after {2 * BUILD_BOUND} s: {name} {data[:48]!r}")
    took = time.monotonic() - started
    said = err.getvalue().strip()
    shown = f"exit {code} after {took:.1f} s: {said[:500]}\n{name}: {data[:48]!r}"
    assert took < BUILD_BOUND, shown
    assert code in (EXIT_OK, EXIT_BAD_INPUT), shown
    if code == EXIT_OK:
        assert not said, shown
        return
    _one_line(said, shown)
    assert not (root / "dist" / GAME).exists(), shown
    if art_problem(root / GAME, name) is not None:
        located = re.escape(f"{GAME}/game.yaml:") + r"\d+:\d+: components\.seed\.face\[\d+\]\.src: "
        assert re.search(located, said), shown
    else:
        assert f"{name}: art: cannot read art file" in said, shown


@_fuzz_settings(max(3, EXAMPLES // 25))
@given(
    base=st.sampled_from(sorted(SEEDS)),
    ops=st.lists(OPS, max_size=3),
    edits=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 10**4), st.integers(0, 255))),
)
def test_a_game_with_fuzzed_art_builds_or_is_refused_on_one_line(
    base: str, ops: list[tuple], edits: list[tuple[int, int, int]]
) -> None:
    data = damaged_inside(SEEDS[base], edits) if edits else mutated(SEEDS[base], ops)
    build_clean(data, base, HERE / "cli")
