"""A game's Global script and XmlUI, rendered from ``lua_templates/<game_id>/``.

The Global script is a luabundle bundle of the game's ``rules`` module (pure; no TTS globals),
its ``glue`` module (event handlers, UI callbacks), any further ``<game_id>/<name>.lua.j2``
modules the glue splits off (registered as ``<name>``, loaded with ``require("<name>")``) and
any shared ``common/*.lua.j2`` modules (registered as ``common/<name>``). The bundle root sets
the global ``Rules`` from the rules module and then runs the glue, so ``Rules.<fn>`` can be
cross-checked against rules_ref.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .bundle import bundle
from .templates import TEMPLATES_DIR, render, template_exists

ROOT_SOURCE = """\
-- Global script root: the pure rules as the global Rules, then the TTS glue.
Rules = require("rules")
require("glue")
"""


def common_modules(root: Path = TEMPLATES_DIR) -> list[str]:
    """Template names of the shared modules, sorted."""
    return sorted(f"common/{p.name}" for p in (root / "common").glob("*.lua.j2"))


def module_templates(game_id: str, root: Path = TEMPLATES_DIR) -> dict[str, str]:
    """Bundle module name -> template name for one game."""
    names = {
        "common/" + Path(t).name.removesuffix(".lua.j2"): t for t in common_modules(root)
    }
    for module in ("rules", "glue"):
        template = f"{game_id}/{module}.lua.j2"
        if not template_exists(template, root):
            raise FileNotFoundError(f"missing Lua template {root / template}")
        names[module] = template
    for path in sorted((root / game_id).glob("*.lua.j2")):
        names.setdefault(path.name.removesuffix(".lua.j2"), f"{game_id}/{path.name}")
    return names


def global_script(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The bundled Global Lua script of ``game_id``."""
    modules = {
        module: render(template, ctx, root)
        for module, template in module_templates(game_id, root).items()
    }
    return bundle(modules, ROOT_SOURCE)


def rules_source(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The rendered pure rules module alone (a chunk returning the rules table)."""
    return render(f"{game_id}/rules.lua.j2", ctx, root)


def global_ui(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The Global XmlUI of ``game_id``."""
    return render(f"{game_id}/ui.xml.j2", ctx, root)
