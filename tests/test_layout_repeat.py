"""The layout element ``repeat`` (tts_builder.render.layout): its elements drawn once per item of
a list field or ``count`` times, along a line or over a grid, with the item's fields."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import SESSION_CACHE
from PIL import ImageChops

from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.errors import FieldError
from tts_builder.render.layout import render_layout, repeat_copies, resolve_layout, validate_layout

CELL = {"type": "text", "text": "{label}", "box": [2, 2, 18, 18], "size": 12, "color": "{ink}"}
SQUARE = {"type": "rect", "box": [0, 0, 20, 20], "fill": "{fill}", "radius": 3}


def moved(element: dict, dx: int, dy: int, **keys: object) -> dict:
    """``element`` with its box moved by (dx, dy) and ``keys`` set."""
    x0, y0, x1, y1 = element["box"]
    return {**element, "box": [x0 + dx, y0 + dy, x1 + dx, y1 + dy], **keys}


def test_a_repeat_over_a_list_draws_what_its_copies_written_out_draw() -> None:
    items = [{"fill": "#aa0000", "label": "A"}, {"fill": "#00aa00", "label": "B"}]
    repeat = {"type": "repeat", "over": "cells", "step": [30, 5], "elements": [SQUARE, CELL]}
    fields = {"cells": items, "ink": "#ffffff"}
    written = [
        element
        for i, item in enumerate(items)
        for element in (
            moved(SQUARE, 30 * i, 5 * i, fill=item["fill"]),
            moved(CELL, 30 * i, 5 * i, text=item["label"]),
        )
    ]
    validate_layout([repeat], "face", (80, 40))
    drawn = render_layout([repeat], (80, 40), fields, where="face")
    expected = render_layout(written, (80, 40), {"ink": "#ffffff"}, where="face")
    assert ImageChops.difference(drawn, expected).getbbox() is None
    assert drawn.getpixel((10, 1))[:3] == (0xAA, 0, 0)
    assert drawn.getpixel((40, 6))[:3] == (0, 0xAA, 0)
    assert resolve_layout([repeat], fields, "face")[2]["box"] == [30, 5, 50, 25]


def test_a_grid_fills_rows_of_columns_and_gives_row_col_and_i() -> None:
    repeat = {
        "type": "repeat",
        "count": 5,
        "columns": 2,
        "step": [25, 40],
        "elements": [{"type": "text", "text": "{i}:{row},{col}", "box": [0, 0, 20, 30]}],
    }
    resolved = resolve_layout([repeat], {}, "face", (50, 120))
    assert [el["text"] for el in resolved] == ["0:0,0", "1:0,1", "2:1,0", "3:1,1", "4:2,0"]
    assert [el["box"][:2] for el in resolved] == [[0, 0], [25, 0], [0, 40], [25, 40], [0, 80]]


def test_every_and_start_pick_items_that_stay_where_they_stand_in_the_list() -> None:
    band = {"type": "rect", "box": [0, 0, 10, 4], "fill": "#000000"}
    for start, tops in ((0, [0, 10, 20]), (1, [5, 15])):
        repeat = {"type": "repeat", "over": "rows", "every": 2, "start": start, "step": [0, 5]}
        resolved = resolve_layout([{**repeat, "elements": [band]}], {"rows": list("abcde")}, "f")
        assert [el["box"][1] for el in resolved] == tops


def test_plain_items_come_as_item_and_nested_repeats_add_up_their_steps() -> None:
    inner = {
        "type": "repeat",
        "over": "costs",
        "step": [10, 0],
        "elements": [{"type": "text", "text": "{name} {i} {item}", "box": [0, 0, 8, 8]}],
    }
    outer = {"type": "repeat", "over": "animals", "step": [0, 20], "elements": [inner]}
    animals = [{"name": "Ox", "costs": [1, 2]}, {"name": "Yak", "costs": [3]}]
    resolved = resolve_layout([outer], {"animals": animals}, "face", (30, 40))
    assert [(el["text"], el["box"][:2]) for el in resolved] == [
        ("Ox 0 1", [0, 0]),
        ("Ox 1 2", [10, 0]),
        ("Yak 0 3", [0, 20]),
    ]
    copies = list(repeat_copies(outer, {"animals": animals, "name": "outer"}, "face[0]"))
    assert [(offset, copy["name"], copy["i"]) for offset, copy in copies] == [
        ((0, 0), "Ox", 0),
        ((0, 20), "Yak", 1),
    ]


BAD = [
    ({"count": 2, "over": "x"}, "f[0].over", "either over"),
    ({}, "f[0].over", "either over"),
    ({"count": 0}, "f[0].count", "an integer from 1"),
    ({"count": 2, "step": [1.5, 0]}, "f[0].step", "2 integers"),
    ({"over": "{cells}"}, "f[0].over", "the name of a field"),
    ({"count": 2, "every": 0}, "f[0].every", "an integer from 1"),
    ({"count": 2, "start": -1}, "f[0].start", "an integer from 0"),
    ({"count": 2, "elements": []}, "f[0].elements", "a list of elements"),
    ({"count": 2, "elements": [{"type": "rect"}]}, "f[0].elements[0].box", "missing"),
    ({"count": 2, "elements": [{"type": "circle"}]}, "f[0].elements[0].type", "one of"),
    ({"count": 2, "colour": 1}, "f[0].colour", "unknown key for a repeat"),
]


@pytest.mark.parametrize(("keys", "field", "message"), BAD)
def test_a_bad_repeat_is_named_down_to_its_key(keys: dict, field: str, message: str) -> None:
    repeat = {"type": "repeat", "step": [1, 0], "elements": [SQUARE], **keys}
    with pytest.raises(FieldError) as err:
        validate_layout([repeat], "f", (100, 100))
    assert (err.value.field, message in err.value.detail) == (field, True), err.value.detail


def test_copies_are_checked_when_drawn_against_the_fields_and_the_canvas() -> None:
    repeat = {"type": "repeat", "over": "cells", "step": [15, 0], "elements": [SQUARE]}
    validate_layout([repeat], "f", (40, 20))  # how many copies is known only from the fields
    cells = [{"fill": "#000000"}] * 3
    with pytest.raises(FieldError, match=r"^f\[0\]\.elements\[0\]\.box: .*not inside the 40x20 "):
        render_layout([repeat], (40, 20), {"cells": cells}, where="f")
    big = {"type": "repeat", "count": 1, "step": [0, 0], "elements": [moved(SQUARE, 30, 0)]}
    with pytest.raises(
        FieldError, match=r"not inside the 40x20 canvas \(a copy moved by \[0, 0\]\)"
    ):
        render_layout([big], (40, 20), {"fill": "#000000"}, where="f")
    with pytest.raises(FieldError, match=r"^f\[0\]\.over: unknown field cells \(known: fill\)"):
        render_layout([repeat], (40, 20), {"fill": "#000000"}, where="f")
    with pytest.raises(FieldError, match=r"^f\[0\]\.over: field cells is not a list"):
        render_layout([repeat], (40, 20), {"cells": "#000000"}, where="f")
    with pytest.raises(FieldError, match=r"^f\[0\]\.elements\[0\]\.fill: unknown field \{fill\}"):
        render_layout([repeat], (40, 20), {"cells": [{}]}, where="f")
    glyph = {**CELL, "text": "\U0001f98a"}
    fox = {"type": "repeat", "count": 1, "step": [0, 0], "elements": [glyph]}
    with pytest.raises(FieldError, match=r"^f\[0\]\.elements\[0\]\.text: the bundled font"):
        render_layout([fox], (40, 20), {"label": "", "ink": "#000000"}, where="f")


def test_a_yaml_only_game_draws_a_repeat_as_its_copies_written_out(tmp_path: Path) -> None:
    """The prototype (a game from YAML alone): its garden's three beds written as one repeat
    give the very picture of the three ellipses written out."""
    shutil.copytree(ASSETS_ROOT / "prototype", tmp_path / "prototype")
    path = tmp_path / "prototype" / "game.yaml"
    bed = '      - {{type: ellipse, box: [{x}, 225, {x2}, 450], fill: "#a3b18a"}}\n'
    beds = [bed.format(x=x, x2=x + 225) for x in (112, 412, 712)]
    text = path.read_text()
    assert "".join(beds) in text
    repeat = (
        "      - type: repeat\n        count: 3\n        step: [300, 0]\n        elements:\n"
        '          - {type: ellipse, box: [112, 225, 337, 450], fill: "#a3b18a"}\n'
    )
    path.write_text(text.replace("".join(beds), repeat))
    face = load_definition("prototype", tmp_path).data["components"]["garden"]["face"]
    assert [el["type"] for el in face].count("ellipse") == 0
    written = build_game("prototype", BuildOptions(), SESSION_CACHE).files
    repeated = build_game("prototype", BuildOptions(), SESSION_CACHE, tmp_path).files
    assert repeated["images/garden-face.png"] == written["images/garden-face.png"]
