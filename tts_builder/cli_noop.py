"""The console script's old entry point: the CLI (:func:`tts_builder.cli.main`).

Kept only while ``pyproject.toml``'s ``[project.scripts]`` and ``__main__.py`` still name it.
"""

from .cli import main

__all__ = ["main"]
