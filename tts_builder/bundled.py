"""The data shipped inside the package: the bundled games (with the fonts) and the Lua templates.

Both are package data: ``tts_builder.assets`` is the project's ``assets/`` folder and
``tts_builder.lua_templates`` its ``lua_templates/`` (mapped in pyproject.toml). They are found
through :mod:`importlib.resources`, so an installed wheel and an editable checkout read them
the same way, from any working directory.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_folder(package: str) -> Path:
    """The folder on disk holding ``package``'s data."""
    root = files(package)
    if not isinstance(root, Path):  # e.g. a zipped install: every reader here needs real files
        raise RuntimeError(f"{package}: its data must be a folder on disk, got {root!r}")
    return root


ASSETS_DIR = package_folder("tts_builder.assets")
TEMPLATES_DIR = package_folder("tts_builder.lua_templates")
FONTS_DIR = ASSETS_DIR / "fonts"
