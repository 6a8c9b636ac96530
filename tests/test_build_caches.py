"""What makes a no-op rebuild cheap: lint results cached by script content, YAML composed by
libyaml (with the pure-Python loader's locations and messages), a definition parsed once."""

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


def test_the_key_follows_the_text_and_the_linter() -> None:
    assert lint_key(CLEAN_LUA) != lint_key(CLEAN_LUA + " ")
    assert lint_module.linter_digest() in lint_key(CLEAN_LUA)


def test_lint_build_skips_scripts_found_clean(arche_noah_build, monkeypatch) -> None:
    from tts_builder.build import lint_build

    cache: dict[str, bytes] = {}
    lint_build(arche_noah_build, cache)
    assert cache and set(cache.values()) == {CLEAN}
    monkeypatch.setattr(lint_module, "lint", _no_lint)
    lint_build(arche_noah_build, cache)  # every script found clean before: nothing linted


def test_lint_build_of_saves_found_clean_parses_no_save(arche_noah_build, monkeypatch) -> None:
    """A build whose saves (by their bytes) were all found clean: no save parsed, no script
    looked up; a save with other bytes is looked at again, script by script."""
    from dataclasses import replace

    from tts_builder.build import lint_build
    from tts_builder.plugin import GameBuild

    cache: dict[str, bytes] = {}
    lint_build(arche_noah_build, cache)
    parsed: list[int] = []
    real = GameBuild.saves
    monkeypatch.setattr(GameBuild, "saves", lambda self: parsed.append(1) or real(self))
    monkeypatch.setattr(lint_module, "lint_cached", _no_lint)
    lint_build(arche_noah_build, cache)
    assert parsed == []
    (name,) = [n for n in arche_noah_build.files if n.endswith(".json") and "/" not in n]
    files = {**arche_noah_build.files, name: arche_noah_build.files[name] + b" "}
    monkeypatch.undo()
    monkeypatch.setattr(lint_module, "lint", _no_lint)  # its scripts: clean, by content
    lint_build(replace(arche_noah_build, files=files), cache)
    monkeypatch.setattr(GameBuild, "saves", lambda self: parsed.append(1) or real(self))
    lint_build(replace(arche_noah_build, files=files), cache)
    assert parsed == []  # and that build's saves now known clean too


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


def test_the_fingerprint_follows_a_file_the_definition_names_outside_its_folder(
    tmp_path: Path,
) -> None:
    from tts_builder.definition import _parsed
    from tts_builder.fingerprint import build_fingerprint

    root = tmp_path / "assets"
    (root / "g").mkdir(parents=True)
    (root / "art.png").write_bytes(b"one")
    (root / "g" / "game.yaml").write_text("id: g\nart: {x: ../art.png}\n")
    first = build_fingerprint("g", {}, root)
    (root / "art.png").write_bytes(b"two")
    second = build_fingerprint("g", {}, root)
    assert first != second
    hits = _parsed.cache_info().hits
    build_fingerprint("g", {}, root)  # the definition parsed as the build parses it, once
    assert _parsed.cache_info().hits == hits + 1
    (root / "g" / "game.yaml").write_text("id: g\nart: [../art.png\n")  # broken: no manifest
    assert build_fingerprint("g", {}, root) != second


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


def test_a_definition_s_file_names_are_remembered_by_its_digest(tmp_path: Path) -> None:
    """The fingerprint finds files named outside the game's folder without parsing a
    definition it has parsed before (the no-op shortcut parses none: parse=False gives None
    for a definition whose names it does not know)."""
    from tts_builder.definition import _parsed
    from tts_builder.fingerprint import FileHashes, build_fingerprint

    root = tmp_path / "assets"
    (root / "g").mkdir(parents=True)
    (root / "art.png").write_bytes(b"one")
    (root / "g" / "game.yaml").write_text("id: g\nart: {x: ../art.png}\n")
    hashes = FileHashes()
    assert build_fingerprint("g", {}, root, hashes, parse=False) is None
    first = build_fingerprint("g", {}, root, hashes)
    misses = _parsed.cache_info().misses
    _parsed.cache_clear()
    assert build_fingerprint("g", {}, root, hashes, parse=False) == first  # nothing parsed
    assert _parsed.cache_info().misses == 0
    (root / "art.png").write_bytes(b"two")  # the named file still counts
    assert build_fingerprint("g", {}, root, hashes, parse=False) not in (None, first)
    (root / "g" / "game.yaml").write_text("id: g\nart: {x: ../other.png}\n")
    assert build_fingerprint("g", {}, root, hashes, parse=False) is None  # a new text
    assert misses >= 1
