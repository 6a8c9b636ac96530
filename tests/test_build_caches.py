"""What makes a rebuild cheap: lint results cached by script content (in the build cache),
YAML composed by libyaml (with the pure-Python loader's locations and messages), a
definition parsed once."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tts_builder import yamlsrc
from tts_builder.definition import ASSETS_ROOT
from tts_builder.errors import DefinitionError
from tts_builder.lua import lint as lint_module
from tts_builder.lua.lint import CLEAN, lint_cached, lint_key

CLEAN_LUA = "local x = 1\nreturn x\n"
DIRTY_LUA = "local t = {}\nreturn t // 2\n"


def _no_lint(source: str, chunk: str) -> list:
    raise AssertionError("linted again")


def test_a_clean_script_is_linted_once(monkeypatch) -> None:
    cache: dict[str, bytes] = {}
    assert lint_cached(CLEAN_LUA, "a", cache) == []
    assert cache == {lint_key(CLEAN_LUA): CLEAN}
    monkeypatch.setattr(lint_module, "lint", _no_lint)
    assert lint_cached(CLEAN_LUA, "another name", cache) == []


def test_a_script_with_findings_is_never_cached() -> None:
    cache: dict[str, bytes] = {}
    first = lint_cached(DIRTY_LUA, "a", cache)
    assert [hit.rule for hit in first] == ["lua53-syntax", "syntax"]
    assert cache == {}
    assert lint_cached(DIRTY_LUA, "a", cache) == first


def test_the_key_follows_the_text_and_the_code(monkeypatch) -> None:
    import tts_builder.cache as cache

    assert lint_key(CLEAN_LUA) != lint_key(CLEAN_LUA + " ")
    first = lint_key(CLEAN_LUA)
    monkeypatch.setattr(cache, "current_code", lambda: "another linter")
    assert lint_key(CLEAN_LUA) != first


def test_lint_build_skips_scripts_found_clean(arche_noah_build, monkeypatch) -> None:
    from tts_builder.build import lint_build

    cache: dict[str, bytes] = {}
    lint_build(arche_noah_build, cache)
    assert cache and set(cache.values()) == {CLEAN}
    monkeypatch.setattr(lint_module, "lint", _no_lint)
    lint_build(arche_noah_build, cache)  # every script found clean before: nothing linted


@pytest.fixture
def pure_loader(monkeypatch):
    def parse(text: str):
        monkeypatch.setattr(yamlsrc, "LOADER", yaml.SafeLoader)
        try:
            return _outcome(text)
        finally:
            monkeypatch.undo()

    return parse


def _outcome(text: str):
    try:
        doc = yamlsrc.parse_yaml(text, Path("g.yaml"))
    except DefinitionError as err:
        return str(err)
    return doc.data, doc.locations


def test_libyaml_is_used_when_present() -> None:
    assert yamlsrc.LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@pytest.mark.parametrize("game", ["arche-noah", "arche-noah-flood", "ark-and-noah"])
def test_libyaml_gives_the_pure_loaders_data_and_locations(game: str, pure_loader) -> None:
    text = (ASSETS_ROOT / game / "game.yaml").read_text(encoding="utf-8")
    assert _outcome(text) == pure_loader(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: {b: 1",
        "x: é\ny: [1, {z: é, w: ",
        "a: 1\na: 2",
        "a: !!int x",
        "? [a]\n: 1",
        "<<: {a: 1}",
        "a: \x07",
        "a: 1\n---\nb: 2",
        "\ttab: 1",
        "a: 'unterminated",
        "",
        "a: &x 1\nb: *x\nc: 2001-12-14\nd: 1e3\ne: 0x10\nf: yes\ng: ~",
    ],
)
def test_libyaml_gives_the_pure_loaders_results_and_messages(text: str, pure_loader) -> None:
    got = _outcome(text)
    assert got == pure_loader(text)
    if isinstance(got, str):
        assert got.startswith("g.yaml:") and "\n" not in got  # file:line:column, one line


def test_a_definition_is_parsed_once_per_text(tmp_path: Path) -> None:
    from tts_builder.definition import _parsed, read_definition

    root = tmp_path / "assets"
    (root / "g").mkdir(parents=True)
    (root / "g" / "game.yaml").write_text("id: g\n")
    first = read_definition("g", root)
    assert read_definition("g", root) is first
    (root / "g" / "game.yaml").write_text("id: g\nname: changed\n")
    assert read_definition("g", root).data == {"id": "g", "name": "changed"}
    assert _parsed.cache_info().maxsize is not None  # bounded


def test_a_file_is_written_whole_beside_no_leftover(tmp_path: Path) -> None:
    import stat

    from tts_builder.writer import write_file

    target = tmp_path / "new" / "entry.bin"  # the folder is made on the first write
    write_file(target, b"one")
    write_file(target, b"two", durable=False)
    assert target.read_bytes() == b"two" and [p.name for p in target.parent.iterdir()] == [
        "entry.bin"
    ]
    assert stat.S_IMODE(target.stat().st_mode) == 0o600  # as tempfile.mkstemp made them
