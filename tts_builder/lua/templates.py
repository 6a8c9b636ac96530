"""The Jinja2 environment over the bundled ``lua_templates`` (strict, no autoescape).

Filters: ``lua`` (:func:`lua_literal`), ``lua_string`` and ``xml`` (:func:`xml_escape`). Every
value a template takes from the context reaches Lua or XML through one of them. Templates are
compiled in each process (nothing compiled is kept on disk); Jinja2 is imported when a
template is first rendered, not with this module.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bundled import TEMPLATES_DIR
from .literal import lua_literal, lua_string, xml_escape

if TYPE_CHECKING:
    import jinja2

__all__ = ["TEMPLATES_DIR", "environment", "render", "template_exists"]


def _strict(fn: Callable[[Any], str]) -> Callable[[Any], str]:
    """A filter that raises UndefinedError (not TypeError) for an undefined value."""

    def apply(value: Any) -> str:
        import jinja2

        if isinstance(value, jinja2.Undefined):
            str(value)  # StrictUndefined raises here
        return fn(value)

    return apply


@cache
def environment(root: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The Environment for templates under ``root`` (one per process and folder: Jinja2
    compiles each template once, and again when its file changes)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        keep_trailing_newline=True,
    )
    env.filters["lua"] = _strict(lua_literal)
    env.filters["lua_string"] = _strict(lua_string)
    env.filters["xml"] = _strict(xml_escape)
    return env


def template_exists(name: str, root: Path = TEMPLATES_DIR) -> bool:
    """Whether ``name`` (a path relative to ``root``) is a template file."""
    return (root / name).is_file()


def render(name: str, context: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """Render the template ``name`` (e.g. ``arche-noah/rules.lua.j2``) with ``context``."""
    return environment(root).get_template(name).render(**context)
