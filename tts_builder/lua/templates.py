"""The Jinja2 environment over the bundled ``lua_templates`` (strict, no autoescape).

Filters: ``lua`` (:func:`lua_literal`), ``lua_string`` and ``xml`` (:func:`xml_escape`). Every
value a template takes from the context reaches Lua or XML through one of them. Jinja2 is
imported when a template is first rendered, not with this module (nor when the build cache is
set): a build that renders nothing (a no-op ``build``, ``check``, a change whose scripts are
found rendered already, see :func:`rendered`) never pays for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
from collections.abc import Callable, MutableMapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bundled import TEMPLATES_DIR
from .literal import lua_literal, lua_string, xml_escape

if TYPE_CHECKING:
    import jinja2

__all__ = [
    "TEMPLATES_DIR",
    "cache_bytecode",
    "environment",
    "render",
    "rendered",
    "template_exists",
]


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


#: The build cache compiled templates go to, by templates folder (see :func:`cache_bytecode`).
_BYTECODE: dict[Path, MutableMapping[str, bytes]] = {}
#: The build cache rendered scripts go to and the code fingerprint keying them (see
#: :func:`rendered`), set by :func:`cache_bytecode`; empty: nothing is kept.
_RENDERED: list[tuple[MutableMapping[str, bytes], str]] = []


def cache_bytecode(
    store: MutableMapping[str, bytes] | None, root: Path = TEMPLATES_DIR, code: str | None = None
) -> None:
    """Keep the compiled templates under ``root`` in ``store`` from now on (None: nowhere),
    and with ``code`` (the code fingerprint of :mod:`tts_builder.fingerprint`, which covers
    the package, the bundled templates and the libraries' versions) the scripts
    :func:`rendered` renders from the bundled templates too. Jinja2 is not imported here: an
    environment made later takes the store."""
    root = Path(root)
    if store is None:
        _BYTECODE.pop(root, None)
    else:
        _BYTECODE[root] = store
    if root == TEMPLATES_DIR:
        _RENDERED.clear()
        if store is not None and code is not None:
            _RENDERED.append((store, code))
    if environment.cache_info().currsize:  # made already (else it takes the store when made)
        environment(root).bytecode_cache = _bytecode_cache(root)


def _bytecode_cache(root: Path) -> Any:
    store = _BYTECODE.get(Path(root))
    return None if store is None else _bytecode_cache_class()(store)


#: What a rendered script's cache key starts with (a change to how it is keyed: new keys).
RENDERED_PREFIX = "rendered 1:"


def rendered(what: str, context: dict[str, Any], make: Callable[[], str]) -> str:
    """The text ``make`` renders from the bundled templates with ``context`` (``what``: which
    text, e.g. a game's Global script), from the build cache when a build with the same code
    and templates (the code fingerprint) rendered it from the same context before, else made
    and kept there. Without a cache (see :func:`cache_bytecode`), or for a context that is not
    plain JSON data (dicts with string keys, lists, strings, numbers, booleans, None), made.

    The key is the context's JSON in its own order (a template iterates a dict in insertion
    order, so the order is part of what it renders): equal keys are equal contexts, but for
    a tuple and a list of the same items, or a dict's key as a number and as a string, which
    no filter or template tells apart (and whose choice is the code's, part of the key)."""
    if not _RENDERED:
        return make()
    store, code = _RENDERED[0]
    try:
        text = json.dumps([code, what, context], allow_nan=False, default=_not_json)
    except (TypeError, ValueError):
        return make()
    key = RENDERED_PREFIX + hashlib.sha256(text.encode()).hexdigest()
    data = store.get(key)
    if data is not None:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass  # damaged: made again
    made = make()
    with contextlib.suppress(OSError):  # a cache that cannot be written: rendered next time
        store[key] = made.encode("utf-8")
    return made


def _not_json(value: Any) -> Any:
    raise TypeError(f"not JSON data: {type(value).__name__}")


@cache
def environment(root: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The shared Environment for templates under ``root`` (compiled templates kept in the
    store :func:`cache_bytecode` set for ``root``, if any)."""
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
    env.bytecode_cache = _bytecode_cache(root)
    return env


def template_exists(name: str, root: Path = TEMPLATES_DIR) -> bool:
    """Whether ``name`` (a path relative to ``root``) is a template file."""
    return (root / name).is_file()


def render(name: str, context: dict[str, Any], root: Path = TEMPLATES_DIR) -> str:
    """Render the template ``name`` (e.g. ``arche-noah/rules.lua.j2``) with ``context``."""
    return environment(root).get_template(name).render(**context)
