"""lua_literal / lua_string / xml_escape: values read back unchanged in Lua 5.2 and XML."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lupa import lua52

from tts_builder.lua import lua_literal, lua_string, xml_escape
from tts_builder.lua.templates import environment, render

LUA = lua52.LuaRuntime()
NASTY = "a\"b'c\\d\n]]e[[f\r\t\x00g\x01\x1f\x7f<h>&i ü€ 🐘 ]==] --[[ \\n 1\x002"

# Strings with the awkward characters made likely.
awkward_text = st.lists(
    st.one_of(
        st.sampled_from(list("\"'\\\n\r\t\x00\x01\x7f[]<>&=-%") + ["]]", "\\0", "\x001"]),
        st.characters(codec="utf-8"),
    ),
    max_size=20,
).map("".join)
scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    awkward_text,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(awkward_text, inner, max_size=4),
    max_leaves=10,
)


def to_python(value: Any) -> Any:
    """A Lua value as Python; tables with keys 1..n become lists, {} becomes []."""
    if lua52.lua_type(value) != "table":
        return value
    keys = list(value.keys())
    if all(isinstance(k, int) for k in keys) and sorted(keys) == list(range(1, len(keys) + 1)):
        return [to_python(value[k]) for k in range(1, len(keys) + 1)]
    return {k: to_python(value[k]) for k in keys}


def lua_eval(expression: str) -> Any:
    return to_python(LUA.execute("return " + expression))


def normal(value: Any) -> Any:
    """What a value must read back as: {} -> [] (Lua can't tell), tuples -> lists."""
    if isinstance(value, dict):
        return {k: normal(v) for k, v in value.items()} if value else []
    if isinstance(value, list | tuple):
        return [normal(v) for v in value]
    return value


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_any_json_value_round_trips_through_lua(value: Any) -> None:
    back = lua_eval(lua_literal(value))
    assert back == normal(value)
    if isinstance(value, float):
        assert math.copysign(1, back) == math.copysign(1, value) or value == 0


@settings(max_examples=300, deadline=None)
@given(awkward_text)
def test_any_string_round_trips_through_lua_string(text: str) -> None:
    literal = lua_string(text)
    assert "\n" not in literal and "\r" not in literal and "\x00" not in literal
    assert lua_eval(literal) == text


def test_nasty_string_and_its_byte_length() -> None:
    assert lua_eval(lua_string(NASTY)) == NASTY
    # non-ASCII stays UTF-8 text (no \ddd of UTF-8 bytes, which MoonSharp would corrupt)
    assert "ü€ 🐘" in lua_string(NASTY)
    assert LUA.execute("return #" + lua_string("ü")) == 2


def test_control_escapes_are_three_digit_decimal() -> None:
    assert lua_string("\x001") == '"\\0001"'
    assert lua_eval(lua_string("\x001")) == "\x001"
    assert lua_string("\x7f") == '"\\127"'


def test_dict_keys_sorted_and_negative_numbers_safe() -> None:
    assert lua_literal({"b": 1, "a": [True, None is None]}) == '{["a"]={true, true}, ["b"]=1}'
    assert lua_literal(-3) == "(-3)"
    # `x-{{ v | lua }}` with a negative value must not become a comment
    assert LUA.execute("local x = 1 return x-" + lua_literal(-3)) == 4
    assert lua_literal(0.1) == "0.1" and lua_eval(lua_literal(1e300)) == 1e300


@pytest.mark.parametrize(
    "bad", [float("nan"), float("inf"), 2**60, [1, None], {1: "x"}, object(), "\ud800"]
)
def test_unportable_values_are_refused(bad: Any) -> None:
    with pytest.raises((ValueError, TypeError)):
        lua_literal(bad)


def xml_round_trip(text: str) -> tuple[str, str]:
    doc = f"<r a=\"{xml_escape(text)}\" b='{xml_escape(text)}'>{xml_escape(text)}</r>"
    root = ET.fromstring(doc)
    assert root.get("a") == root.get("b")
    return root.get("a") or "", root.text or ""


def xml_expected(text: str) -> str:
    allowed = {0x9, 0xA, 0xD}
    return "".join(
        c if (ord(c) >= 0x20 or ord(c) in allowed) and ord(c) not in (0xFFFE, 0xFFFF) else "\ufffd"
        for c in text
    )


@settings(max_examples=300, deadline=None)
@given(awkward_text)
def test_any_string_round_trips_through_xml(text: str) -> None:
    attribute, body = xml_round_trip(text)
    assert attribute == body == xml_expected(text)


def test_nasty_string_through_xml() -> None:
    attribute, body = xml_round_trip(NASTY)
    assert attribute == NASTY.replace("\x00", "\ufffd").replace("\x01", "\ufffd").replace(
        "\x1f", "\ufffd"
    )
    assert "\n" in body and "\r" in body  # kept as character references, not normalised


def test_template_filters_and_strict_undefined(tmp_path: Any) -> None:
    (tmp_path / "t.j2").write_text(
        'local s = {{ s | lua_string }}\nlocal v = {{ v | lua }}\n<T a="{{ s | xml }}"/>\n'
    )
    out = render("t.j2", {"s": NASTY, "v": {"k": [1, 2]}}, tmp_path)
    assert out.endswith("/>\n")
    lua_part = out.split("<T")[0]
    assert LUA.execute(lua_part + "return s") == NASTY
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        render("t.j2", {"s": "x"}, tmp_path)
    assert environment(tmp_path).autoescape is False


def _escaped_char_by_char(s: str) -> str:
    named = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
    inner = "".join(
        named.get(ch) or (f"\\{ord(ch):03d}" if ord(ch) < 0x20 or ord(ch) == 0x7F else ch)
        for ch in s
    )
    return f'"{inner}"'


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_a_string_without_specials_is_quoted_as_it_is_and_any_other_escaped(s: str) -> None:
    assert lua_string(s) == _escaped_char_by_char(s)
    assert lua_string("plain é 漢") == '"plain é 漢"'


@given(st.text())
def test_xml_escape_passes_plain_text_through_and_replaces_the_rest(s: str) -> None:
    from tts_builder.lua.literal import _XML, _xml_allowed

    want = "".join(_XML.get(ch) or (ch if _xml_allowed(ord(ch)) else "\ufffd") for ch in s)
    assert xml_escape(s) == want
