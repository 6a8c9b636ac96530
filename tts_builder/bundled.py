"""The data shipped inside the package: the bundled games (with the fonts) and the Lua templates.

Both are package data: ``tts_builder.assets`` is the project's ``assets/`` folder and
``tts_builder.lua_templates`` its ``lua_templates/`` (mapped in pyproject.toml). They are found
through the import system (the package's spec, as :mod:`importlib.resources` finds them, without
importing that module: a no-op build starts before anything heavy loads), so an installed wheel
and an editable checkout read them the same way, from any working directory.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path


def package_folder(package: str) -> Path:
    """The folder on disk holding ``package``'s data."""
    spec = find_spec(package)
    places = list(spec.submodule_search_locations or []) if spec else []
    if not places or not Path(places[0]).is_dir():  # e.g. a zipped install: readers need files
        raise RuntimeError(f"{package}: its data must be a folder on disk, got {places!r}")
    return Path(places[0])


ASSETS_DIR = package_folder("tts_builder.assets")
TEMPLATES_DIR = package_folder("tts_builder.lua_templates")
FONTS_DIR = ASSETS_DIR / "fonts"
