"""The build cache under damage: whatever is done to ``dist/.cache`` (or left in ``dist/`` by a
killed build), the next build exits 0 and writes what a clean build writes; a forged entry
runs nothing; art changed while a build runs never ends "up to date" with the old art; two
builds of one folder at once both end right."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tts_builder.cache import HEADER, Store, key, lock_path
from tts_builder.cli import EXIT_OK, run
from tts_builder.writer import remove

PROJECT = Path(__file__).resolve().parents[1]
GAME = "arche-noah"
#: Builds into different folders give the same saves only with hosted URLs.
URL = ["--base-url", "https://example.invalid/m"]


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file of a build folder but its cache (not walked: it may hold anything)."""
    found = {}
    for top in sorted(folder.iterdir()):
        if top.name == ".cache":
            continue
        for p in [top] if top.is_file() else sorted(top.rglob("*")):
            if p.is_file():
                found[p.relative_to(folder).as_posix()] = p.read_bytes()
    return found


def _build(assets: Path, out: Path) -> int:
    return run(["-q", "--assets", str(assets), "build", GAME, "--out", str(out), *URL])


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, bytes]]:
    """(assets holding a copy of the game, a clean build's --out folder, its files)."""
    root = tmp_path_factory.mktemp("damage")
    assets = root / "assets"
    shutil.copytree(PROJECT / "assets" / GAME, assets / GAME)
    out = root / "clean"
    assert _build(assets, out) == EXIT_OK
    return assets, out, _tree(out)


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if len(p.name) == 64)


def _each(change: Callable[[Path], None]) -> Callable[[Path, Path], None]:
    def damage(cache: Path, out: Path) -> None:
        for path in _entries(cache):
            change(path)

    return damage


def _rewrite(make: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def change(path: Path) -> None:
        data = path.read_bytes()
        path.unlink()  # a new file: the reference's entry (maybe hard-linked) stays as it was
        path.write_bytes(make(data))

    return change


def _flip(at: int) -> Callable[[bytes], bytes]:
    return lambda data: data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def _replace(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def change(path: Path) -> None:
        path.unlink()
        make(path)

    return change


def _deep(path: Path, depth: int = 1200) -> None:
    """A folder ``depth`` levels deep at ``path`` (deeper than shutil.rmtree's recursion)."""
    path.mkdir()
    fd = os.open(path, os.O_RDONLY)
    try:
        for _ in range(depth):  # relative to each folder: no path grows past PATH_MAX
            os.mkdir("d", dir_fd=fd)
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        with open(os.open("x", os.O_WRONLY | os.O_CREAT, dir_fd=fd), "wb") as handle:
            handle.write(b"deep")
    finally:
        os.close(fd)


def _swap(cache: Path, out: Path) -> None:
    """Every entry holds the next one's bytes (valid entries, under the wrong names)."""
    entries = _entries(cache)
    data = [p.read_bytes() for p in entries]
    for path, other in zip(entries, data[1:] + data[:1], strict=True):
        path.unlink()
        path.write_bytes(other)


def _same_inode(cache: Path, out: Path) -> None:
    """Every entry a hard link to the first."""
    entries = _entries(cache)
    for path in entries[1:]:
        path.unlink()
        os.link(entries[0], path)


def _link_to_first(cache: Path) -> None:
    """Every entry a symbolic link to the first."""
    first, *others = _entries(cache)
    for path in others:
        path.unlink()
        path.symlink_to(first)


def _png_inside(cache: Path, out: Path) -> None:
    """Every entry holds a PNG of the build instead of itself (an image dropped in by hand)."""
    png = next((out / GAME / "images").glob("*.png")).read_bytes()
    for path in _entries(cache):
        path.unlink()
        path.write_bytes(png)


def _forged_checksum(cache: Path, out: Path) -> None:
    """Right header and name, another value under the checksum of the first."""
    for path in _entries(cache):
        data = path.read_bytes()
        head = len(HEADER) + 64 + 32
        path.unlink()
        path.write_bytes(data[:head] + b"another value")


def _old_format(cache: Path, out: Path) -> None:
    """The entries as the previous store wrote them (sha256 of the value, then the value)."""
    import hashlib

    for path in _entries(cache):
        value = path.read_bytes()[len(HEADER) + 96 :]
        path.unlink()
        path.write_bytes(hashlib.sha256(value).digest() + value)


def _cache_is(make: Callable[[Path], None]) -> Callable[[Path, Path], None]:
    def damage(cache: Path, out: Path) -> None:
        shutil.rmtree(cache)
        make(cache)

    return damage


def _in_cache(name: str, make: Callable[[Path], None]) -> Callable[[Path, Path], None]:
    def damage(cache: Path, out: Path) -> None:
        target = cache / name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
        make(target)

    return damage


def _lock_is(out: Path, make: Callable[[Path], None]) -> None:
    """The build folder's lock file replaced by what ``make`` makes."""
    path = lock_path(out)
    remove(path)
    make(path)


def _in_dist(change: Callable[[Path], None]) -> Callable[[Path, Path], None]:
    return lambda cache, out: change(out)


def _leftovers(out: Path) -> None:
    """What a build killed while writing leaves: staged and retired folders, temporary files."""
    (out / f".{GAME}.old-k1x2").mkdir()
    (out / f".{GAME}.old-k1x2" / "preview.png").write_bytes(b"old")
    (out / f".{GAME}.new-9zz").mkdir()
    (out / ".cache" / ".abc.123-0.tmp").write_bytes(b"half")


def _killed_between_renames(out: Path) -> None:
    """The game's folder retired, the new one not yet renamed into place."""
    os.replace(out / GAME, out / f".{GAME}.old-zz9")


def _changed_output(out: Path) -> None:
    target = next((out / GAME / "images").glob("*.png"))
    target.write_bytes(target.read_bytes()[:-5])


def _output_is_a_file(out: Path) -> None:
    shutil.rmtree(out / GAME)
    (out / GAME).write_bytes(b"not a folder")


DAMAGE: dict[str, Callable[[Path, Path], None]] = {
    "entries cut in half": _each(_rewrite(lambda d: d[: len(d) // 2])),
    "entries cut after the header": _each(_rewrite(lambda d: d[: len(HEADER) + 10])),
    "entries empty": _each(_rewrite(lambda d: b"")),
    "a byte of each value flipped": _each(_rewrite(_flip(-1))),
    "a byte of each header flipped": _each(_rewrite(_flip(0))),
    "a byte of each entry's key flipped": _each(_rewrite(_flip(len(HEADER) + 3))),
    "a byte of each checksum flipped": _each(_rewrite(_flip(len(HEADER) + 70))),
    "entries with a byte appended": _each(_rewrite(lambda d: d + b"\0")),
    "entries random bytes": _each(_rewrite(lambda d: os.urandom(len(d)))),
    "entries swapped": _swap,
    "entries hard links to one": _same_inode,
    "entries replaced by a PNG": _png_inside,
    "entries with a forged checksum": _forged_checksum,
    "entries in the old format": _old_format,
    "entries are empty folders": _each(_replace(lambda p: p.mkdir())),
    "entries are folders with files": _each(
        _replace(lambda p: (p.mkdir(), (p / "x").write_bytes(b"x")))
    ),
    "an entry is a folder nested deep": lambda c, o: _replace(_deep)(_entries(c)[0]),
    "entries are symlink loops": _each(_replace(lambda p: p.symlink_to(p.name))),
    "entries are two-link loops": _each(
        _replace(lambda p: (p.symlink_to(p.name + "b"), p.with_name(p.name + "b").symlink_to(p)))
    ),
    "entries are dangling links": _each(_replace(lambda p: p.symlink_to("nowhere"))),
    "entries link to /dev/zero": _each(_replace(lambda p: p.symlink_to("/dev/zero"))),
    "entries link to another entry": lambda c, o: _link_to_first(c),
    "entries are named pipes": _each(_replace(lambda p: os.mkfifo(p))),
    "the cache folder is a file": _cache_is(lambda c: c.write_bytes(b"not a folder")),
    "the cache folder is an empty file": _cache_is(lambda c: c.write_bytes(b"")),
    "the cache folder is a symlink loop": _cache_is(lambda c: c.symlink_to(c.name)),
    "the cache folder is a dangling link": _cache_is(lambda c: c.symlink_to("gone")),
    "the cache folder is missing": _cache_is(lambda c: None),
    "the cache folder is empty": _cache_is(lambda c: c.mkdir()),
    "the lock file is a folder": lambda c, o: _lock_is(o, lambda p: p.mkdir()),
    "the lock file is a symlink loop": lambda c, o: _lock_is(o, lambda p: p.symlink_to(p.name)),
    "a hashes file nested deep": _in_cache("file-hashes.json", _deep),
    "a foreign folder tree in the cache": _in_cache("sub", lambda p: _deep(p, 50)),
    "foreign files in the cache": _in_cache("x" * 64, lambda p: p.write_bytes(b"foreign")),
    "a killed build's leftovers": _in_dist(_leftovers),
    "killed between the writer's two renames": _in_dist(_killed_between_renames),
    "an output file changed": _in_dist(_changed_output),
    "an output file removed": _in_dist(lambda o: next((o / GAME / "images").iterdir()).unlink()),
    "an extra output file": _in_dist(lambda o: (o / GAME / "extra.txt").write_bytes(b"x")),
    "the output folder is a file": _in_dist(_output_is_a_file),
    "the output folder is missing": _in_dist(lambda o: shutil.rmtree(o / GAME)),
    "everything at once": lambda c, o: (
        _swap(c, o),
        _each(_rewrite(lambda d: d[:-3]))(c, o),
        _in_dist(_leftovers)(c, o),
        _lock_is(o, lambda p: p.mkdir()),
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_a_damaged_cache_builds_what_a_clean_build_does(reference, tmp_path: Path, damage: str):
    assets, clean, expected = reference
    out = tmp_path / "dist"
    shutil.copytree(clean, out, symlinks=True)
    DAMAGE[damage](out / ".cache", out)
    assert _build(assets, out) == EXIT_OK
    assert _tree(out) == expected
    assert sorted(p.name for p in out.iterdir()) == [".cache", GAME]  # nothing left behind
    assert _build(assets, out) == EXIT_OK  # and the build after it too
    assert _tree(out) == expected
    assert all(len(p.name) == 64 for p in (out / ".cache").iterdir())
    remove(lock_path(out))


def test_a_forged_entry_runs_nothing(reference, tmp_path: Path, monkeypatch) -> None:
    """Every key a build reads holds a well-formed entry whose value would run a command if it
    were unpickled (as compiled templates once were) or executed: the build runs none."""
    import pickle

    assets, clean, _ = reference
    out = tmp_path / "dist"
    shutil.copytree(clean, out, symlinks=True)
    marker = tmp_path / "ran"
    read: list[str] = []
    original = Store.__getitem__

    def recording(self: Store, name: str) -> bytes:
        read.append(name)
        return original(self, name)

    with monkeypatch.context() as patch:
        patch.setattr(Store, "__getitem__", recording)
        shutil.rmtree(out / GAME)  # built again: every kind of entry read
        assert _build(assets, out) == EXIT_OK
    assert read

    class Payload:
        def __reduce__(self) -> tuple:
            return (os.system, (f"touch {marker}",))

    forged = pickle.dumps(Payload())
    store = Store(out / ".cache")
    for name in read:
        store[name] = forged
    for kind in ("jinja-bytecode", "rendered", "lint clean", "png", "part"):
        store[key(kind, "anything")] = forged
    shutil.rmtree(out / GAME)
    code = _build(assets, out)
    assert not marker.exists()
    assert code in (EXIT_OK, 2, 3)


def _swap_art(art: Path) -> None:
    """Another picture of the same size in place of ``art``."""
    from PIL import Image

    with Image.open(art) as img:
        changed = img.convert("RGBA").transpose(Image.Transpose.FLIP_LEFT_RIGHT)
    changed.save(art.with_suffix(".tmp.png"))
    os.replace(art.with_suffix(".tmp.png"), art)


@pytest.mark.parametrize("when", ["after the inputs are read", "after the game is built"])
def test_art_swapped_mid_build_never_ends_up_to_date_with_the_old_art(
    reference, tmp_path: Path, monkeypatch, capsys, when: str
) -> None:
    import tts_builder.cli_build as cli_build

    _, clean, _ = reference
    assets = tmp_path / "assets"
    shutil.copytree(reference[0], assets)
    out = tmp_path / "dist"
    shutil.copytree(clean, out, symlinks=True)
    art = assets / GAME / "art" / "lion.png"
    swapped: list[bool] = []

    def swap_once() -> None:
        if not swapped:
            swapped.append(True)
            _swap_art(art)

    if when == "after the inputs are read":
        original_init = cli_build.Record.__init__

        def init(self, *args, **kwargs) -> None:
            original_init(self, *args, **kwargs)
            swap_once()

        monkeypatch.setattr(cli_build.Record, "__init__", init)
    else:
        original_build = cli_build.build_checked

        def build_checked(*args, **kwargs):
            result = original_build(*args, **kwargs)
            swap_once()
            return result

        monkeypatch.setattr(cli_build, "build_checked", build_checked)
    (art.parent / "bear.png").write_bytes(art.read_bytes())  # the build has something to do
    assert _build(assets, out) == EXIT_OK
    assert swapped
    monkeypatch.undo()
    capsys.readouterr()
    assert run(["--assets", str(assets), "build", GAME, "--out", str(out), *URL]) == EXIT_OK
    again = capsys.readouterr().err
    fresh = tmp_path / "fresh"
    assert _build(assets, fresh) == EXIT_OK
    assert _tree(out) == _tree(fresh), again  # the art on disk now, not the art read before


def _cli(assets: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "tts_builder", "-q", "--assets", str(assets), "build", GAME,
            "--out", str(out), *URL]  # fmt: skip


def _env() -> dict[str, str]:
    import tts_builder

    package_root = str(Path(tts_builder.__file__).resolve().parents[1])
    return {**os.environ, "PYTHONPATH": package_root}


def test_two_builds_of_one_folder_at_once_both_end_right(reference, tmp_path: Path) -> None:
    assets, _, expected = reference
    out = tmp_path / "dist"
    runs = [subprocess.Popen(_cli(assets, out), cwd=tmp_path, env=_env(),
                             stderr=subprocess.PIPE) for _ in range(2)]  # fmt: skip
    for process in runs:
        _, err = process.communicate(timeout=600)
        assert process.returncode == EXIT_OK, err.decode()
    assert _tree(out) == expected
    assert sorted(p.name for p in out.iterdir()) == [".cache", GAME]


def test_a_killed_build_leaves_nothing_the_next_build_keeps(reference, tmp_path: Path) -> None:
    """Builds killed at several moments; each next build ends right, with nothing left over."""
    assets, _, expected = reference
    out = tmp_path / "dist"
    for delay in (0.5, 1.5, 3.0):
        shutil.rmtree(out / GAME, ignore_errors=True)
        process = subprocess.Popen(_cli(assets, out), cwd=tmp_path, env=_env())
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert _build(assets, out) == EXIT_OK
        assert _tree(out) == expected
        assert sorted(p.name for p in out.iterdir()) == [".cache", GAME]
        assert not [p for p in (out / ".cache").iterdir() if p.name.endswith(".tmp")]
