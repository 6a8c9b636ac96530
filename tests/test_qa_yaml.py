"""QA: YAML a designer should not be able to hang the builder with."""

from __future__ import annotations

from pathlib import Path

import pytest

from tts_builder.errors import BuildError
from tts_builder.yamlsrc import parse_yaml


def alias_bomb(levels: int, width: int) -> str:
    """A few lines whose aliases expand to ``width ** levels`` values ("billion laughs")."""
    lines = [f"a0: &a0 [{', '.join(['x'] * width)}]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_not_expanded() -> None:
    with pytest.raises(BuildError, match=r"g\.yaml:\d+:\d+: .*alias"):
        parse_yaml(alias_bomb(4, 20), Path("g.yaml"))  # 160,000 values (quick to expand)


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf"])
def test_a_number_that_is_not_finite_is_refused(value: str) -> None:
    from tts_builder.errors import FieldError
    from tts_builder.games.prototype import _entry
    from tts_builder.schema import Num, Point

    number = parse_yaml(f"v: {value}\n", Path("g.yaml")).data["v"]
    for check in (Num().check, lambda v, p: Point(2).check([0, v], p), _entry):
        with pytest.raises(FieldError, match="finite"):
            check({"value": number} if check is _entry else number, "x")


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [*x]\n",  # a recursive alias
        "a: &x {b: *x}\n",
        "a: " + "[" * 5_000 + "]" * 5_000 + "\n",  # flow nesting past Python's recursion limit
        "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 200)) + "  " * 200 + "v: 1\n",
        "a: [" + "[" * 3_000 + "\n",  # unclosed: the pure-Python reader words the error
    ],
    ids=["recursive-list", "recursive-map", "deep-flow", "deep-block", "deep-unclosed"],
)
def test_nesting_without_end_is_one_located_error(text: str) -> None:
    """A recursive alias or thousands of levels is a located refusal, never RecursionError."""
    with pytest.raises(BuildError, match=r"^g\.yaml:\d+:\d+: "):
        parse_yaml(text, Path("g.yaml"))


@pytest.mark.parametrize("text", ['name: "Mea\\ud800dow"\n', '"k\\udfff": 1\n'])
def test_a_lone_surrogate_is_a_located_error(text: str) -> None:
    """An escape can write half of a UTF-16 pair, which no file, Lua or JSON output holds."""
    with pytest.raises(BuildError, match=r"^g\.yaml:1:\d+: .*half of a character pair"):
        parse_yaml(text, Path("g.yaml"))


@pytest.mark.parametrize(
    ("element", "says"),
    [
        ({"type": "text", "text": "x", "box": [0, 0, 10, 10], "size": 60_000}, "1 to 1,000"),
        ({"type": "text", "text": "{name:>999999999}", "box": [0, 0, 10, 10]}, "at most 200"),
        ({"type": "rect", "box": [0, 0, 10, 10], "width": 10**9}, "1 to 100,000"),
    ],
)
def test_a_layout_number_past_its_limit_is_refused_before_drawing(element: dict, says: str) -> None:
    """A text size FreeType cannot render, a format padding a billion characters, a line a
    billion pixels wide: refused at the element, never drawn."""
    from tts_builder.errors import FieldError
    from tts_builder.render.layout import validate_layout

    with pytest.raises(FieldError, match=says):
        validate_layout([element], "face")
