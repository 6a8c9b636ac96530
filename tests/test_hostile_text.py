"""Designer text at the definition's door (issue 24): every text field has a length limit
refused as one located line, and any text within it, whatever its characters (NUL, lone
surrogates, ``--``, ``]]``, ``<>&"'``, newlines, thousands of characters), either is one
located refusal or builds a save whose Lua loads, whose XML UI parses, whose JSON reads back
and which shows the text literally where it lands.

The property test takes ``TTS_BUILDER_FUZZ_CASES`` cases (default a few dozen, under a minute
with the build cache warm); ``TTS_BUILDER_FUZZ_CASES=500 pytest tests/test_hostile_text.py``
fuzzes longer with a new seed each run (Hypothesis prints the failing example)."""

from __future__ import annotations

import json
import os
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st
from lupa import lua52

from tts_builder.build import BuildOptions, build_game
from tts_builder.cli import EXIT_BAD_INPUT, run
from tts_builder.definition import (
    definition_spec,
    find_game,
    read_definition,
    select_games,
    validated_definition,
)
from tts_builder.errors import BuildError, DefinitionError
from tts_builder.schema import (
    DESCRIPTION_MAX,
    TEXT_MAX,
    TITLE_MAX,
    Custom,
    Doc,
    Either,
    ListOf,
    Map,
    MappingOf,
    Ref,
    Spec,
    Str,
)
from tts_builder.yamlsrc import MAX_DOCUMENT_BYTES, MAX_SCALAR, join, parse_yaml

GAMES = select_games([])
#: What no designer text holds (a located refusal): half of a character pair, a control
#: character but tab, newline and carriage return, U+FFFE and U+FFFF.
NOT_TEXT = re.compile("[\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")
#: Known refusals not located at the field, in files this test's author does not own, reported
#: to their owners (issue 24): a piece's name the font cannot draw in the preview's labels
#: (table/preview.py) is located at ``preview[i].text``, line 1.
KNOWN = re.compile(r"game\.yaml:1:1: preview\[\d+\]\.text: the bundled font .* cannot draw")
CASES = int(os.environ.get("TTS_BUILDER_FUZZ_CASES", "12"))
PROBE = "Zq Probe"


# --- the limits -------------------------------------------------------------------------------


def _meadow(tmp_path: Path, **changes: Any) -> Path:
    """A copy of the bundled prototype's definition under ``tmp_path/meadow``, changed."""
    data = read_definition("prototype").data | {"id": "meadow", **changes}
    (tmp_path / "meadow").mkdir()
    (tmp_path / "meadow" / "game.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"name": "N" * (TITLE_MAX + 1)}, r"name: 129 characters: at most 128 \(the Steam "),
        ({"description": "d " * 4001}, r"description: 8,002 characters: at most 8,000 \(the "),
        ({"tags": ["t" * (TEXT_MAX + 1)]}, r"tags\[0\]: 1,001 characters: at most 1,000 "),
        ({"name": "x" * 200_000}, r"name: 200,000 characters: a value may have at most 10,000"),
        (
            {"variants": {"big": {"name": "V" * (TITLE_MAX + 1)}}},
            r"variants\.big\.name: 129 characters: at most 128 \(the Steam ",
        ),
    ],
    ids=["name", "description", "tag", "name-200000", "variant-name"],
)
def test_a_text_past_its_limit_is_one_located_line_at_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict, says: str
) -> None:
    """A 200,000-character name took 51 s to build (its thumbnail measured it at every size)."""
    root = _meadow(tmp_path, **changes)
    start = time.monotonic()
    assert run(["-q", "--assets", str(root), "build", "meadow", "--out", str(tmp_path)]) == 2
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    assert re.match(r"error: \S*meadow/game\.yaml:\d+:\d+: " + says, err), err


def test_texts_at_their_limits_build(tmp_path: Path) -> None:
    root = _meadow(tmp_path, name="N" * TITLE_MAX, description="d " * (DESCRIPTION_MAX // 2))
    build = build_game("meadow", BuildOptions(), {}, root)
    assert build.save["SaveName"] == "N" * TITLE_MAX


def test_a_definition_past_its_size_limit_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _meadow(tmp_path)
    with (root / "meadow" / "game.yaml").open("a", encoding="utf-8") as file:
        file.write("# " + "x" * MAX_DOCUMENT_BYTES + "\n")
    assert run(["-q", "--assets", str(root), "build", "meadow"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert re.match(r"error: \S*meadow/game\.yaml:1:1: larger than 1,048,576 bytes", err), err
    with pytest.raises(DefinitionError, match=r"^g\.yaml:1:1: larger than"):
        parse_yaml("a: 1\n" + " " * MAX_DOCUMENT_BYTES, Path("g.yaml"))


def test_a_definition_that_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "meadow").mkdir()
    os.mkfifo(tmp_path / "meadow" / "game.yaml")  # reading it would block for ever
    assert run(["-q", "--assets", str(tmp_path), "list"]) in (0, EXIT_BAD_INPUT)
    capsys.readouterr()
    assert run(["-q", "--assets", str(tmp_path), "build", "meadow"]) == EXIT_BAD_INPUT
    assert "not a regular file" in capsys.readouterr().err


def test_a_definition_that_is_a_link_loop_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Showing the path of a link loop raised RuntimeError (exit 3)."""
    (tmp_path / "meadow").mkdir()
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    os.symlink(tmp_path / "a", tmp_path / "meadow" / "game.yaml")
    out = str(tmp_path / "out")
    assert run(["-q", "--assets", str(tmp_path), "build", "meadow", "--out", out]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "game.yaml: cannot read the definition" in err, err


@pytest.mark.parametrize(
    "text", ["a: " + "9" * (MAX_SCALAR + 1) + "\n", f'a: "{"x" * (MAX_SCALAR + 1)}"\n']
)
def test_a_value_past_the_scalar_limit_is_located(text: str) -> None:
    with pytest.raises(DefinitionError, match=r"^g\.yaml:1:4: a: 10,001 characters"):
        parse_yaml(text, Path("g.yaml"))


def test_an_error_repeats_at_most_the_start_of_a_long_text() -> None:
    with pytest.raises(BuildError) as err:
        Str(pattern="[a-z]+").check("X" * 900, "k")
    assert len(str(err.value)) < 150 and "(900 characters)" in str(err.value)


# --- the text fields of every bundled game ----------------------------------------------------


def _text_paths(spec: Spec, value: Any, path: str = "") -> Iterator[tuple[str, int]]:
    """(path, length limit) of each free text in ``value`` (a :class:`Str` with no pattern,
    a layout's text element), found through ``spec``."""
    if isinstance(spec, Doc | Either):
        if not isinstance(spec, Either) or isinstance(value, str) and value not in spec.words:
            yield from _text_paths(spec.spec, value, path)
    elif isinstance(spec, Str) and spec.pattern is None and isinstance(value, str):
        yield path, spec.max_len
    elif isinstance(spec, Map) and isinstance(value, dict):
        for key, item in value.items():
            sub = spec.fields.get(key, spec.other)
            yield from _text_paths(sub, item, join(path, key)) if sub else ()
    elif isinstance(spec, ListOf) and isinstance(value, list):
        for index, item in enumerate(value):
            yield from _text_paths(spec.item, item, join(path, index))
    elif isinstance(spec, MappingOf) and isinstance(value, dict):
        for key, item in value.items():
            yield from _text_paths(spec.special.get(key, spec.value), item, join(path, key))
    elif isinstance(spec, Custom) and spec.inner is not None:
        yield from _text_paths(spec.inner, value, path)
    elif isinstance(spec, Custom):
        yield from _layout_texts(value, path)


def _layout_texts(value: Any, path: str) -> Iterator[tuple[str, int]]:
    if isinstance(value, dict):
        if value.get("type") == "text" and isinstance(value.get("text"), str):
            yield join(path, "text"), 300  # drawn: measured at each size (see the report)
        for key, item in value.items():
            yield from _layout_texts(item, join(path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _layout_texts(item, join(path, index))


def _steps(path: str) -> list[str | int]:
    return [int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", path)]


def _with(data: Any, path: str, text: str) -> Any:
    """A deep copy of ``data`` with ``text`` at ``path``."""
    copy = json.loads(json.dumps(data))
    *parents, last = _steps(path)
    holder = copy
    for step in parents:
        holder = holder[step]
    holder[last] = text
    return copy


def _refs(spec: Any, seen: set[int] | None = None) -> Iterator[str]:
    """The sources of every :class:`Ref` under ``spec``: the names other fields refer to."""
    seen = set() if seen is None else seen
    if id(spec) in seen or not isinstance(spec, Spec):
        return
    seen.add(id(spec))
    if isinstance(spec, Ref):
        yield from (spec.source,) if isinstance(spec.source, str) else spec.source
    subs = [getattr(spec, name, None) for name in ("spec", "item", "key", "value", "inner")]
    subs += [*getattr(spec, "fields", {}).values(), *getattr(spec, "special", {}).values()]
    for sub in [*subs, getattr(spec, "other", None)]:
        yield from _refs(sub, seen)


#: Texts that are not free to write: file names, a sky's name, the faces a thumbnail shows.
NOT_FREE = re.compile(r"(^|\.)(art|file|sky|thumbnail)(\.|\[|$)")


@cache
def _fields(game_id: str) -> list[tuple[str, int, str | None]]:
    """(path, limit, variant) of each text field of ``game_id`` a designer writes freely (not
    a name another field refers to, nor a file name)."""
    data = read_definition(game_id).data
    spec = definition_spec(data["engine"])
    refs = [
        re.escape(source).replace(r"\[\]", r"\[\d+\]").replace(r"\*", r"[^.]+") + r"(\[\d+\])?$"
        for source in _refs(spec)
    ]
    found = [(p, n, None) for p, n in _text_paths(spec, data)]
    for variant, entry in (data.get("variants") or {}).items():
        found += [(f"variants.{variant}.{k}", 1000, variant) for k in ("name", "description")
                  if k in entry]  # fmt: skip
    return [
        f for f in found if not NOT_FREE.search(f[0]) and not any(re.match(r, f[0]) for r in refs)
    ]


def _definition(game_id: str, data: Any) -> Any:
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    doc = parse_yaml(text, Path(game_id, "game.yaml"))
    return validated_definition(game_id, doc, find_game(game_id))


_CACHES: dict[str, dict[str, bytes]] = {}


def _build(game_id: str, data: Any, variant: str | None) -> Any:
    definition = _definition(game_id, data)
    cache = _CACHES.setdefault(game_id, {})
    return build_game(game_id, BuildOptions(variant=variant), cache, definition=definition)


def _lands(game_id: str, field: tuple[str, int, str | None]) -> bool:
    """Whether the probe at ``field`` builds (a text the build itself refuses, such as the
    label of a face the thumbnail shows, is not free text)."""
    try:
        _build(game_id, _with(read_definition(game_id).data, field[0], PROBE), field[2])
    except BuildError:
        return False
    return True


#: Save fields holding code, not text (their text is checked parsed).
CODE = frozenset({"LuaScript", "LuaScriptState", "XmlUI"})


def _strings(value: Any) -> Iterator[str]:
    """Every text of a save (keys too) but its code."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item) if key not in CODE else ()
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _lua_scripts(save: Any) -> Iterator[str]:
    for key, value in save.items() if isinstance(save, dict) else ():
        if key == "LuaScript" and value:
            yield value
        yield from _lua_scripts(value) if isinstance(value, dict) else ()
        for item in value if isinstance(value, list) else ():
            yield from _lua_scripts(item)


_LUA = lua52.LuaRuntime(encoding=None)
_COMPILE = _LUA.eval("function(s) local f, err = load(s); return err end")
_STRING = _LUA.eval("function(s) return load('return ' .. s)() end")


def _lua_literals_at_probe(probe_script: str, script: str) -> Iterator[str]:
    """The texts of the Lua string literals of ``script`` where ``probe_script`` (the same
    build with the probe text) has one holding the probe, decoded by Lua itself."""
    at = probe_script.find(PROBE)
    if at < 0:
        return
    start = probe_script.rfind('"', 0, at)
    if script[:start] != probe_script[:start]:  # the text moved what comes before (a key)
        return
    end = start + 1
    while script[end] != '"':
        end += 2 if script[end] == "\\" else 1
    yield _STRING(script[start : end + 1].encode("utf-8")).decode("utf-8")


_TEXT = st.lists(
    st.one_of(
        st.characters(codec=None),  # anything, lone surrogates too
        st.sampled_from(["--", "]]", "[[", "<!--", "-->", "<", ">", "&", '"', "'", "\\", "\n"]),
        st.sampled_from(["\x00", "\r", "\t", "\x1b[31m", "\u2028", "\ufeff", "%s", "%%"]),
        st.sampled_from(["\ud800", "\udfff", "\U0001f40d", "e\u0301", " "]),
    ),
    min_size=1,
    max_size=40,
).map("".join)


@st.composite
def _cases(draw: st.DrawFn) -> tuple[str, tuple[str, int, str | None], str]:
    game_id = draw(st.sampled_from(GAMES))
    field = draw(st.sampled_from(_fields(game_id)))
    text = draw(_TEXT)
    if draw(st.integers(0, 9)) == 0:  # now and then as long as the field takes, or longer
        text = (text * (field[1] // len(text) + 2))[: draw(st.integers(1, field[1] + 2))]
    return game_id, field, text.replace("{", "(").replace("}", ")")


@settings(
    max_examples=CASES,
    deadline=None,
    database=None,
    # the suite's cases are the same on every run (CI stays a verdict on the code); set
    # TTS_BUILDER_FUZZ_CASES to explore new ones
    derandomize="TTS_BUILDER_FUZZ_CASES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(_cases())
def test_any_text_in_any_text_field_builds_and_shows_literally_or_is_located(
    case: tuple[str, tuple[str, int, str | None], str],
) -> None:
    game_id, field, text = case
    path, limit, variant = field
    data = read_definition(game_id).data
    try:
        build = _build(game_id, _with(data, path, text), variant)
    except BuildError as err:
        if not _lands(game_id, field):
            return  # the field is not free text: the probe does not build either
        if KNOWN.search(str(err)):
            reject()  # reported to the file's owner; the other cases go on
        assert re.search(rf"game\.yaml:\d+:\d+: {re.escape(path)}: ", str(err)), err
        return
    assert not NOT_TEXT.search(text)
    probe = _build(game_id, _with(data, path, PROBE), variant)

    save = json.loads(json.dumps(build.save, ensure_ascii=False))
    assert save == build.save  # the save's JSON reads back as it was
    ui = ET.fromstring(f"<root>{build.save['XmlUI']}</root>")
    scripts = list(_lua_scripts(build.save))
    for script in scripts:
        assert _COMPILE(script.encode("utf-8")) is None, script[:200]

    if any(PROBE in s for s in _strings(probe.save)):
        assert any(text in s for s in _strings(save)), (path, text)
    xml_probe = ET.fromstring(f"<root>{probe.save['XmlUI']}</root>")
    if any(PROBE in t for e in xml_probe.iter() for t in [*e.itertext(), *e.attrib.values()]):
        assert any(text in t for e in ui.iter() for t in [*e.itertext(), *e.attrib.values()])
    for before, after in zip(_lua_scripts(probe.save), scripts, strict=True):
        for literal in _lua_literals_at_probe(before, after):
            assert text in literal, (path, text, literal[:80])


def test_every_bundled_game_has_free_text_fields() -> None:
    for game_id in GAMES:
        paths = [p for p, _, _ in _fields(game_id)]
        assert "name" in paths and "description" in paths, (game_id, paths)


def test_a_text_the_font_cannot_draw_on_a_drawn_card_is_located_at_its_element() -> None:
    """The flood race's cost card is drawn by its code: a problem of its layout was located at
    ``components.cost_card[2]``, not the element's field (found by the property test)."""
    data = read_definition("arche-noah-flood").data
    path = "components.cost_card.face[2].text"
    with pytest.raises(BuildError, match=re.escape(f"{path}: the bundled font")):
        _build("arche-noah-flood", _with(data, path, "\u060b"), None)
