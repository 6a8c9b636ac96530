"""The project as a package: every package is listed, and a wheel installed into a fresh virtual
environment builds every bundled game from an unrelated folder."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest
from conftest import seeded

from tts_builder.games import game_ids

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
#: What the wheel is built from: the project without its tests, docs or builds.
SOURCES = ("pyproject.toml", "README.md", "tts_builder", "rules_ref", "assets", "lua_templates")


def test_pyproject_lists_every_package() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    mapped = setuptools["package-dir"]
    found = {
        ".".join(init.parent.relative_to(REPO).parts)
        for top in ("tts_builder", "rules_ref")
        for init in (REPO / top).rglob("__init__.py")
    }
    found |= {name for name, folder in mapped.items() if (REPO / folder / "__init__.py").is_file()}
    assert sorted(setuptools["packages"]) == sorted(found)
    assert mapped == {"tts_builder.assets": "assets", "tts_builder.lua_templates": "lua_templates"}


def _can_build_without_isolation() -> bool:
    """Whether this environment's setuptools can build a wheel offline (else pip fetches one)."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


#: This process's environment without PYTHONPATH, which would import the project from a
#: checkout rather than from the wheel (benchmarks/bench_tests.py sets it).
FRESH_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def _run(*args: str | Path, cwd: Path) -> str:
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False,
        env={**FRESH_ENV, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONNOUSERSITE": "1"},
    )  # fmt: skip
    assert proc.returncode == 0, f"{args}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _dependency_dirs() -> list[str]:
    """The folders this environment imports the project's dependencies (and pip) from."""
    names = ("click", "hypothesis", "jinja2", "lupa", "PIL", "pip", "yaml")
    origins = [importlib.util.find_spec(name).origin for name in names]
    return sorted({str(Path(origin).resolve().parents[1]) for origin in origins if origin})


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_builds_every_bundled_game(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(path, source / name)
    wheels = tmp_path / "wheels"
    offline = ["--no-build-isolation"] if _can_build_without_isolation() else []
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", *offline, "-w", wheels, source,
         cwd=tmp_path)  # fmt: skip
    (wheel,) = wheels.glob("tts_builder-*.whl")

    # A fresh environment: the project only from the wheel; the dependencies (and pip) are
    # borrowed from this environment through a .pth file, which runs no editable finder.
    env = tmp_path / "venv"
    venv.create(env, with_pip=False)
    bin_dir = env / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / ("python.exe" if os.name == "nt" else "python")
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = _run(python, "-c", purelib, cwd=tmp_path)
    Path(site.strip(), "borrowed-dependencies.pth").write_text("\n".join(_dependency_dirs()) + "\n")
    # --no-compile: Python compiles what it imports when it imports it.
    _run(python, "-m", "pip", "install", "--no-deps", "--no-index", "--no-compile", wheel,
         cwd=tmp_path)  # fmt: skip

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # Renders other tests drew, known by content (the art, the renderer's code and fonts read
    # from the wheel): a file missing from the wheel still fails the build; my-cards' thumbnail
    # (its own name) is drawn by the wheel's renderer.
    seeded(elsewhere / "dist")
    bundled = "import tts_builder.bundled as b; print(b.ASSETS_DIR)"
    where = _run(python, "-c", bundled, cwd=elsewhere)
    assert Path(where.strip()).is_relative_to(env)
    _run(bin_dir / "tts-builder", "-q", "build", cwd=elsewhere)
    built = sorted(p.name for p in (elsewhere / "dist").iterdir() if not p.name.startswith("."))
    assert set(game_ids()) <= set(built)
    for game in game_ids():
        assert (elsewhere / "dist" / game / "preview.png").is_file()
    listed = _run(bin_dir / "tts-builder", "list", cwd=elsewhere)
    assert all(f"{game}\t" in listed and "bundled" in listed for game in game_ids())

    _run(bin_dir / "tts-builder", "new", "my-cards", cwd=elsewhere)  # copies the bundled data
    _run(bin_dir / "tts-builder", "-q", "build", "my-cards", cwd=elsewhere)
    assert (elsewhere / "dist" / "my-cards" / "my-cards.json").is_file()
