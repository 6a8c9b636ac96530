"""Compiled templates kept in the build cache: loaded by a new environment, recompiled when the
source changes, and a damaged entry is a miss, never an error."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from tts_builder.lua import templates
from tts_builder.writer import DirCache


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.lua.j2").write_text("local x = {{ value | lua }}\n", encoding="utf-8")
    yield folder
    templates.cache_bytecode(None, folder)


def _fresh(root: Path) -> None:
    """As a new process: no template compiled in memory."""
    templates.environment(root).cache.clear()


def test_a_new_process_loads_the_compiled_template(root: Path, tmp_path: Path, monkeypatch):
    store = DirCache(tmp_path / "cache")
    templates.cache_bytecode(store, root)
    assert templates.render("t.lua.j2", {"value": 3}, root) == "local x = 3\n"
    assert any(p.suffix == ".entry" for p in (tmp_path / "cache").iterdir())
    _fresh(root)
    env = templates.environment(root)

    def no_compile(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(env, "compile", no_compile)
    assert templates.render("t.lua.j2", {"value": "a"}, root) == 'local x = "a"\n'


def test_a_changed_source_is_compiled_again(root: Path):
    store: dict[str, bytes] = {}
    templates.cache_bytecode(store, root)
    templates.render("t.lua.j2", {"value": 1}, root)
    (root / "t.lua.j2").write_text("return {{ value | lua }}\n", encoding="utf-8")
    _fresh(root)
    assert templates.render("t.lua.j2", {"value": 1}, root) == "return 1\n"


@pytest.mark.parametrize(
    "damage", [b"", b"junk", b"j2" + b"\x00" * 40, jinja2.bccache.bc_magic + b"\xff\x00"]
)
def test_a_damaged_entry_is_compiled_again(root: Path, damage: bytes):
    store: dict[str, bytes] = {}
    templates.cache_bytecode(store, root)
    templates.render("t.lua.j2", {"value": 1}, root)
    (key,) = store
    store[key] = damage
    _fresh(root)
    assert templates.render("t.lua.j2", {"value": 2}, root) == "local x = 2\n"
    assert store[key] != damage  # made again


def test_build_keeps_compiled_templates_in_its_cache_while_it_builds(tmp_path: Path, monkeypatch):
    from tts_builder.cli import EXIT_OK, run

    stored: list[str] = []
    real = templates.StoreBytecodeCache.dump_bytecode

    def recorded(self, bucket):
        stored.append(bucket.key)
        real(self, bucket)

    monkeypatch.setattr(templates.StoreBytecodeCache, "dump_bytecode", recorded)
    monkeypatch.chdir(tmp_path)
    _fresh(templates.TEMPLATES_DIR)  # as a new process: every template compiled again
    assert run(["-q", "build", "prototype", "--out", str(tmp_path / "out")]) == EXIT_OK
    assert stored  # each compiled template went to dist/.cache
    assert templates.environment().bytecode_cache is None  # and only during that build


def test_a_script_rendered_from_the_same_context_and_code_is_the_caches():
    """:func:`templates.rendered`: made once per (code, what, context), kept in the store the
    build set; a new context, new code or no store renders again; a context that is not JSON
    data is rendered every time and never kept."""
    store: dict[str, bytes] = {}
    made: list[str] = []

    def make(text: str):
        return lambda: made.append(text) or text

    try:
        templates.cache_bytecode(store, code="code 1")
        ctx = {"b": [1, 2.5], "a": {"x": None, "y": True}}
        assert templates.rendered("script", ctx, make("one")) == "one"
        assert templates.rendered("script", dict(ctx), make("two")) == "one"  # the cache's
        assert made == ["one"] and len(store) == 1
        assert templates.rendered("script", {"a": ctx["a"], "b": ctx["b"]}, make("x")) == "x"
        assert templates.rendered("script", {**ctx, "b": [1, 2]}, make("y")) == "y"
        assert templates.rendered("ui", ctx, make("z")) == "z"
        assert templates.rendered("script", {"when": Path("p")}, make("p")) == "p"
        assert templates.rendered("script", {"when": Path("p")}, make("p")) == "p"
        assert templates.rendered("script", {"n": float("nan")}, make("nan")) == "nan"
        assert len(store) == 4 and made == ["one", "x", "y", "z", "p", "p", "nan"]
        templates.cache_bytecode(store, code="code 2")
        assert templates.rendered("script", ctx, make("new code")) == "new code"
        templates.cache_bytecode(store)  # no code fingerprint: nothing kept
        assert templates.rendered("script", ctx, make("no code")) == "no code"
        assert len(store) == 5
    finally:
        templates.cache_bytecode(None)


def test_setting_the_store_imports_no_jinja2(tmp_path: Path):
    """A build whose scripts are all the cache's never imports Jinja2: setting the store
    does not, and an environment made later takes it."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from tts_builder.lua import templates\n"
        "templates.cache_bytecode({}, code='c')\n"
        "assert 'jinja2' not in sys.modules\n"
        "assert templates.environment().bytecode_cache.store == {}\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path)
