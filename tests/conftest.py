"""Shared fixtures: one render cache per test run, filled by one clean CLI build of every
bundled game and variant (made once, in one process, even when pytest-xdist runs the tests in
several), so each test builds cheaply; the ship commands' --out folder.

Plain ``pytest`` runs the tests in parallel, one worker process per CPU (pytest-xdist, in the
``test`` extra; :func:`pytest_cmdline_main`); ``-n 0`` or ``-p no:xdist`` runs them in this
process. The long tests run first (:func:`pytest_collection_modifyitems`), so the workers end
together."""

from __future__ import annotations

import os
import pickle
import time
from collections.abc import Callable, Iterable, Iterator, MutableMapping
from pathlib import Path

import pytest

from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.cache import Store
from tts_builder.cli import cli
from tts_builder.cli_ship import register

#: How a drawn picture's cache entry starts: an encoded PNG, or a part (build.pack).
PICTURES = (b"\x89PNG", b"tts-builder picture")


def drawn(data: bytes) -> bool:
    """Whether a cache entry is a picture (one key, always the same bytes) rather than a record
    of what earlier builds showed (its bytes follow the builds before it)."""
    return data.startswith(PICTURES)


class SessionCache(MutableMapping[str, bytes]):
    """The renders drawn this session, by cache key. The first use builds every bundled game
    and variant with the CLI into an empty folder (:func:`clean_build`), whose renders it then
    holds: later builds draw only what that build did not."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def _ready(self) -> dict[str, bytes]:
        clean_build()
        return self.entries

    def __getitem__(self, key: str) -> bytes:
        return self._ready()[key]

    def __setitem__(self, key: str, value: bytes) -> None:
        entries = self._ready()
        held = entries.get(key)
        # A picture's key names every input of it: one key, two pictures is a cache bug.
        assert held in (None, value) or not drawn(value), f"{key}: two pictures"
        entries[key] = value

    def __delitem__(self, key: str) -> None:
        del self._ready()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ready())

    def __len__(self) -> int:
        return len(self._ready())

    def __contains__(self, key: object) -> bool:
        return key in self._ready()


SESSION_CACHE = SessionCache()
_CLEAN: list[Path] = []
#: The clean build's renders only (what :func:`seeded` copies), the same in every process.
_CLEAN_RENDERS: dict[str, bytes] = {}
#: The folder every process of this run shares (set by :func:`_clean_build_first`).
_SHARED: list[Path] = []
#: How long a worker waits for another's clean build before failing (seconds).
CLEAN_BUILD_WAIT = 900


def pytest_report_header() -> str:
    """Which Lua engines the tests run: lupa always, MoonSharp when configured (else why not:
    every MoonSharp test is skipped with this reason)."""
    from tts_builder.emulator.engines import default_engine
    from tts_builder.emulator.moonsharp import available

    why = available()
    moonsharp = "MoonSharp 2.0.0.0 too" if why is None else f"no MoonSharp ({why})"
    return f"Lua: lupa (default engine: {default_engine()}); {moonsharp}"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Plain ``pytest`` distributes the tests over one worker per logical CPU (``-n logical``)
    when pytest-xdist is installed and no ``-n`` was given; ``worksteal`` hands each worker a
    contiguous run of tests (a module's fixtures are mostly built once) and lets an idle worker
    take half of a busy one's remaining tests. Runs before xdist's own hook, which turns
    ``logical`` into a number."""
    if (
        config.pluginmanager.hasplugin("xdist")
        and getattr(config.option, "numprocesses", None) is None
        and not hasattr(config, "workerinput")  # a worker: xdist set it up already
    ):
        config.option.numprocesses = "logical"
        if config.option.dist == "no":
            config.option.dist = "worksteal"


#: Test files whose few tests take many seconds each (oxipng over every published PNG, builds
#: drawn from nothing, Hypothesis draws of every generator, verify's runs), heaviest first.
FIRST_FILES = (
    "test_moonsharp.py",
    "test_ship_publish_pngs.py",
    "test_verify_per_game.py",
    "test_one_card_change.py",
    "test_lua_rules_ark_and_noah.py",
    "test_cli.py",
    "test_lua_rules_arche_noah_flood.py",
    "test_table_picture_cache.py",
    "test_balance.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked slow first, then the files of :data:`FIRST_FILES`, then the rest, each
    file's tests in their order. pytest-xdist runs a worker's tests in collection order and an
    idle worker takes the last ones of a busy worker's queue: long tests first, the short ones
    last, so the workers end together instead of one running a long test while the others
    wait (a test's place changes only where it runs, never what it checks)."""
    rank = {name: place for place, name in enumerate(FIRST_FILES, start=1)}

    def place(item: pytest.Item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        return rank.get(Path(str(item.path)).name, len(rank) + 1)

    items.sort(key=place)  # stable: each file's tests keep their order


class _RecordingCache(Store):
    """A build's cache folder that also hands each entry it stores to the session cache (not
    the build manifests: they name one --out folder)."""

    def __setitem__(self, key: str, value: bytes) -> None:
        super().__setitem__(key, value)
        if not value.startswith(b'{"folders"') and not value.startswith(b'{"inputs"'):
            SESSION_CACHE.entries[key] = value


def _shared_folder() -> Path:
    """The run's clean-build folder: under pytest's base temporary folder, the controller's
    when xdist runs workers (each worker's own is a sub-folder of it), so all processes of one
    run find the same folder and a new run starts from nothing."""
    if not _SHARED:  # used outside a test session: a folder of this process's own
        import tempfile

        _SHARED.append(Path(tempfile.mkdtemp(prefix="tts-clean-build-")))
    return _SHARED[0] / "clean-build"


def _make_clean_build(folder: Path) -> None:
    """Run ``tts-builder -q build`` (every bundled game) from an empty current folder into
    ``folder/dist``, recording its renders, then publish them as ``folder/renders.pickle``
    (written whole, then renamed: a waiting process never reads half of it); a failure is left
    as ``folder/failed``."""
    from tts_builder.cli import EXIT_OK, run

    here = Path.cwd()
    work = folder / "cwd"
    work.mkdir()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("tts_builder.cache.Store", _RecordingCache)
            os.chdir(work)  # an empty current folder: every bundled game
            try:
                code = run(["-q", "build", "--out", str(folder / "dist")])
            finally:
                os.chdir(here)
        assert code == EXIT_OK, "the session's clean build failed"
    except BaseException as err:
        (folder / "failed").write_text(f"{type(err).__name__}: {err}\n", encoding="utf-8")
        raise
    _CLEAN_RENDERS.update(SESSION_CACHE.entries)  # run first in this process: nothing else
    partial = folder / "renders.pickle.partial"
    partial.write_bytes(pickle.dumps(_CLEAN_RENDERS, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(partial, folder / "renders.pickle")


def _await_clean_build(folder: Path) -> None:
    """Wait for the process that claimed ``folder`` to finish its clean build; then hold its
    renders in :data:`SESSION_CACHE`."""
    renders, failed = folder / "renders.pickle", folder / "failed"
    deadline = time.monotonic() + CLEAN_BUILD_WAIT
    while not renders.exists():
        if failed.exists():
            raise AssertionError(f"the session's clean build failed: {failed.read_text()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"no clean build in {folder} after {CLEAN_BUILD_WAIT} s")
        time.sleep(0.05)
    _CLEAN_RENDERS.update(pickle.loads(renders.read_bytes()))
    SESSION_CACHE.entries.update(_CLEAN_RENDERS)


def _claim_clean_build() -> bool:
    """Whether this process makes the run's clean build: the first to create its folder
    (``mkdir`` is atomic) does; every other process of the run waits for it."""
    folder = _shared_folder()
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir()
    except FileExistsError:
        return False
    return True


def clean_build() -> Path:
    """The --out folder of ``tts-builder -q build`` run once per test run in an empty folder
    (no names: every bundled game and variant), its cache empty before: every image drawn
    afresh, by whichever process of the run claimed it first. Its renders fill
    :data:`SESSION_CACHE`. Read it only."""
    if not _CLEAN:
        folder = _shared_folder()
        if _claim_clean_build():
            _make_clean_build(folder)
        else:
            _await_clean_build(folder)
        _CLEAN.append(folder / "dist")
    return _CLEAN[0]


#: Fixtures whose tests share the session's renders without naming conftest.
SHARING_FIXTURES = {"arche_noah_build", "cli_out"}


def _shares_renders(item: pytest.Item, texts: dict[Path, str]) -> bool:
    """Whether ``item`` may use :data:`SESSION_CACHE`: its file imports from conftest or it
    asks for a fixture built from it."""
    path = Path(str(item.path))
    if path not in texts:
        texts[path] = path.read_text(encoding="utf-8") if path.is_file() else ""
    fixtures = set(getattr(item, "fixturenames", ()))
    return "from conftest import" in texts[path] or bool(fixtures & SHARING_FIXTURES)


#: The test being set up in this process, and the test files read so far.
_SETTING_UP: list[pytest.Item] = []
_TEXTS: dict[Path, str] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test's fixtures (and so outside its patches: a test counting what is drawn,
    say): the run's clean build, made or awaited, if the test may share its renders and this
    process holds them not yet (the first test of a process: :func:`_clean_build_first`)."""
    _SETTING_UP[:] = [item]
    if _SHARED and not _CLEAN and _shares_renders(item, _TEXTS):
        clean_build()


@pytest.fixture(scope="session", autouse=True)
def _clean_build_first(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Where this run's processes share the clean build; and the clean build itself if this
    process's first test may share its renders. So the process whose first tests need them
    makes it (another one's first tests, not needing them, run meanwhile), and a process waits
    for it only when one of its tests first needs it."""
    base = tmp_path_factory.getbasetemp()
    _SHARED[:] = [base.parent if hasattr(request.config, "workerinput") else base]
    if _SETTING_UP and _shares_renders(_SETTING_UP[0], _TEXTS):
        clean_build()


def run_folder(name: str) -> Path:
    """A folder every process of this run shares (beside the clean build's), made if new."""
    folder = _shared_folder().parent / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def each_once_per_run(name: str, keys: Iterable[str], make: Callable[[str], None]) -> None:
    """``make(key)`` for each of ``keys`` no process of this run has claimed (``mkdir`` of
    ``<run folder>/<name>/<key>`` is atomic), then a wait for the keys others claimed (their
    ``done`` file): xdist's workers share the work (say into a :class:`Store` under
    :func:`run_folder`) instead of each doing all of it. A key its maker failed fails here."""
    root = run_folder(name)
    waiting = []
    for key in dict.fromkeys(keys):
        claim = root / key
        try:
            claim.mkdir()
        except FileExistsError:
            waiting.append(claim)
            continue
        try:
            make(key)
        except BaseException as err:
            (claim / "failed").write_text(f"{type(err).__name__}: {err}\n", encoding="utf-8")
            raise
        (claim / "done").touch()
    deadline = time.monotonic() + CLEAN_BUILD_WAIT
    for claim in waiting:
        while not (claim / "done").exists():
            if (claim / "failed").exists():
                raise AssertionError(f"{claim}: {(claim / 'failed').read_text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"{claim}: not made after {CLEAN_BUILD_WAIT} s")
            time.sleep(0.05)


def build(game: str = "arche-noah", **options: object) -> GameBuild:
    """Build a game in memory, sharing rendered images across the whole test session."""
    return build_game(game, BuildOptions(**options), SESSION_CACHE)  # type: ignore[arg-type]


def seeded(out: Path) -> Path:
    """``out``, an --out folder whose render cache (``out/.cache``) holds the renders of the
    run's clean build (every bundled game and variant), so a CLI build there redraws only what
    the bundled games do not draw. Not every render this process drew: the seed stays the same
    size and the same in every worker, whichever tests ran before. Clean CLI builds stay
    tested: :func:`clean_build` (compared in test_cli with builds in memory), test_package's
    wheel test (my-cards' thumbnail) and test_new_game's first build start from an empty
    cache.

    Each entry is a hard link to the clean build's own (where the file system allows; else
    written): the same bytes in the same files, without writing 30 MB for each test. A
    :class:`Store` replaces an entry (a new file renamed over it) and never writes into
    one, so a build in ``out`` leaves the clean build's entries as they were; a test that
    damages an entry of a seeded cache in place must copy it first."""
    source = Store(clean_build() / ".cache")
    cache = Store(out / ".cache")
    cache.root.mkdir(parents=True, exist_ok=True)
    for key, data in _CLEAN_RENDERS.items():
        try:
            os.link(source._path(key), cache._path(key))
        except OSError:  # no hard links here, another file system, or an entry there already
            cache[key] = data
    return out


@pytest.fixture(scope="session")
def arche_noah_build() -> GameBuild:
    """The bundled Arche Noah, built once per session."""
    return build("arche-noah")


@pytest.fixture(scope="module")
def cli_out(tmp_path_factory: pytest.TempPathFactory, built: GameBuild) -> Path:
    """An --out folder for the ship commands whose render cache already holds the renders of
    the requesting module's ``built`` fixture (each ship test module defines its own)."""
    out = seeded(tmp_path_factory.mktemp("cli-dist"))
    register(cli)
    return out
