"""A game's Global script and XmlUI, rendered from ``lua_templates/<game_id>/``.

The Global script is a luabundle bundle of the game's ``rules`` module (pure; no TTS globals),
its ``glue`` module (event handlers, UI callbacks), any further ``<game_id>/<name>.lua.j2``
modules the glue splits off (registered as ``<name>``, loaded with ``require("<name>")``) and
the shared ``common/<name>.lua.j2`` modules it requires (registered as ``common/<name>``, loaded
with ``require("common/<name>")``; only those a module requires, directly or through another
common module, are rendered and bundled). The bundle root sets the global ``Rules`` from the
rules module and then runs the glue, so ``Rules.<fn>`` can be cross-checked against rules_ref.
Every module is rendered with the game's whole template context; each common module's header
says what of it that module reads.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .bundle import bundle
from .templates import TEMPLATES_DIR, render, template_exists

ROOT_SOURCE = """\
-- Global script root: the pure rules as the global Rules, then the TTS glue.
Rules = require("rules")
require("glue")
"""
_REQUIRE_COMMON_RE = re.compile(r'require\(\s*"(common/[-A-Za-z0-9_]+)"\s*\)')


def common_modules(root: Path = TEMPLATES_DIR) -> list[str]:
    """Template names of the shared modules, sorted."""
    return sorted(f"common/{p.name}" for p in (root / "common").glob("*.lua.j2"))


def module_templates(game_id: str, root: Path = TEMPLATES_DIR) -> dict[str, str]:
    """Bundle module name -> template name for one game."""
    names = {"common/" + Path(t).name.removesuffix(".lua.j2"): t for t in common_modules(root)}
    for module in ("rules", "glue"):
        template = f"{game_id}/{module}.lua.j2"
        if not template_exists(template, root):
            raise FileNotFoundError(f"missing Lua template {root / template}")
        names[module] = template
    for path in sorted((root / game_id).glob("*.lua.j2")):
        names.setdefault(path.name.removesuffix(".lua.j2"), f"{game_id}/{path.name}")
    return names


def global_script(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The bundled Global Lua script of ``game_id``, rendered from the templates under ``root``."""
    return _global_script(game_id, ctx, root)


def _global_script(game_id: str, ctx: dict[str, Any], root: Path) -> str:
    templates = module_templates(game_id, root)
    modules = {
        module: render(template, ctx, root)
        for module, template in templates.items()
        if not module.startswith("common/")
    }
    wanted = sorted(required_common(modules.values()))
    while wanted:
        module = wanted.pop()
        if module not in templates:
            raise FileNotFoundError(f"missing Lua template {root / module}.lua.j2")
        modules[module] = render(templates[module], ctx, root)
        wanted = sorted(set(wanted) | (required_common([modules[module]]) - set(modules)))
    return bundle(modules, ROOT_SOURCE)


def required_common(sources: Iterable[str]) -> set[str]:
    """The common modules (``common/<name>``) that Lua ``sources`` require by name."""
    return {name for source in sources for name in _REQUIRE_COMMON_RE.findall(source)}


def rules_source(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The rendered pure rules module alone (a chunk returning the rules table)."""
    return render(f"{game_id}/rules.lua.j2", ctx, root)


def global_ui(game_id: str, ctx: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """The Global XmlUI of ``game_id`` (see :func:`global_script`)."""
    return render(f"{game_id}/ui.xml.j2", ctx, root)
