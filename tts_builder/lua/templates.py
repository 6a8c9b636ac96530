"""The Jinja2 environment over the bundled ``lua_templates`` (strict, no autoescape).

Filters: ``lua`` (:func:`lua_literal`), ``lua_string`` and ``xml`` (:func:`xml_escape`). Every
value a template takes from the context reaches Lua or XML through one of them. Jinja2 is
imported when a template is first rendered (or the bytecode cache set), not with this module:
a build that renders nothing (a no-op ``build``, ``check``) never pays for it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, MutableMapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bundled import TEMPLATES_DIR
from .literal import lua_literal, lua_string, xml_escape

if TYPE_CHECKING:
    import jinja2

__all__ = ["TEMPLATES_DIR", "cache_bytecode", "environment", "render", "template_exists"]


def _strict(fn: Callable[[Any], str]) -> Callable[[Any], str]:
    """A filter that raises UndefinedError (not TypeError) for an undefined value."""

    def apply(value: Any) -> str:
        import jinja2

        if isinstance(value, jinja2.Undefined):
            str(value)  # StrictUndefined raises here
        return fn(value)

    return apply


@cache
def _bytecode_cache_class() -> type:
    """:class:`StoreBytecodeCache`, made on first use (it subclasses Jinja2's cache)."""
    import jinja2

    class StoreBytecodeCache(jinja2.BytecodeCache):
        """Compiled templates kept in a build cache (``dist/.cache``), so a new process does
        not compile them again. Jinja2 recompiles a template whose source changed (the
        checksum); an entry that does not load (damaged, another Python) is a miss, never an
        error. The store (a :class:`~tts_builder.writer.DirCache`) already reads a damaged
        entry as missing."""

        def __init__(self, store: MutableMapping[str, bytes]) -> None:
            self.store = store

        def _key(self, bucket: jinja2.bccache.Bucket) -> str:
            return f"jinja-bytecode:{jinja2.__version__}:{sys.version}:{bucket.key}"

        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            data = self.store.get(self._key(bucket))
            if data is None:
                return
            try:
                bucket.bytecode_from_string(data)
            except Exception:  # noqa: BLE001 - any damage: compile afresh
                bucket.reset()

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            with contextlib.suppress(OSError):  # a cache that cannot be written: compile next
                self.store[self._key(bucket)] = bucket.bytecode_to_string()

    StoreBytecodeCache.__module__ = __name__
    return StoreBytecodeCache


def __getattr__(name: str) -> Any:
    """``StoreBytecodeCache`` (see :func:`_bytecode_cache_class`), imported lazily."""
    if name == "StoreBytecodeCache":
        return _bytecode_cache_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def cache_bytecode(store: MutableMapping[str, bytes] | None, root: Path = TEMPLATES_DIR) -> None:
    """Keep the compiled templates under ``root`` in ``store`` from now on (None: nowhere)."""
    environment(root).bytecode_cache = None if store is None else _bytecode_cache_class()(store)


@cache
def environment(root: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The shared Environment for templates under ``root``."""
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
