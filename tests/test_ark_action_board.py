"""The Ark & Noah action board (games/ark_and_noah/action_board.py): equal columns inside the
margins, each printing the same elements with its own fields, placed by the column's edges or
around its named spots; one picture per side of the board."""

from __future__ import annotations

from typing import Any

from tts_builder.games.ark_and_noah.action_board import COLUMNS as ACTION_BOARD
from tts_builder.games.ark_and_noah.action_board import columns_layout, columns_of, sided_pictures
from tts_builder.render.layout import render_layout, validate_layout

INK, SPACE = "#111111", "#ffeecc"


def spec() -> dict[str, Any]:
    return {
        "size": [500, 300],
        "margin": 10,
        "spots": {
            "worker": {"x": 0, "y": 120, "half": 30},
            "bonus": {"x": 0.25, "y": 60, "half": 10},
        },
        "board": [
            {"type": "rect", "box": [0, 0, 500, 300], "fill": "#333333"},
            {"type": "text", "text": "{title}", "box": [10, 5, 490, 35], "size": 20},
        ],
        "sides": {
            "front": [
                {"at": "column", "type": "rect", "box": [4, 40, -4, 290], "fill": "#ccbbaa"},
                {"at": "worker", "type": "ellipse", "box": [-30, -30, 30, 30], "fill": SPACE},
                {
                    "at": "left",
                    "type": "text",
                    "text": "{number}",
                    "box": [5, 45, 35, 75],
                    "size": 16,
                    "color": INK,
                },
                {
                    "at": "column",
                    "type": "text",
                    "text": "{name}: {cost}",
                    "box": [4, 200, -4, 240],
                    "size": 16,
                    "color": INK,
                },
            ],
            "back": [
                {
                    "at": "column",
                    "type": "text",
                    "text": "{name}",
                    "box": [4, 200, -4, 240],
                    "size": 16,
                }
            ],
        },
    }


COLUMNS = [{"name": "Wood", "cost": 1}, {"name": "Stone", "cost": 2}, {"name": "Gold", "cost": 3}]


def test_the_columns_share_the_board_between_its_margins() -> None:
    columns = columns_of(3, spec())
    assert [(c.x0, c.x1) for c in columns] == [(10, 170), (170, 330), (330, 490)]
    assert columns[0].spots == {"worker": (90.0, 120.0), "bonus": (130.0, 60.0)}
    assert [c.spots["worker"][0] for c in columns] == [90.0, 250.0, 410.0]
    edges = [(c.x0, c.x1) for c in columns_of(7, spec())]
    assert edges[0][0] == 10 and edges[-1][1] == 490
    assert all(a[1] == b[0] for a, b in zip(edges, edges[1:], strict=False))  # no gaps


def test_each_column_prints_the_sides_elements_with_its_fields() -> None:
    elements, size, fields = columns_layout("front", COLUMNS, {"title": "Market"}, spec())
    assert size == (500, 300) and fields == {"title": "Market"}
    assert elements[:2] == spec()["board"]
    first = elements[2:6]
    assert first[0]["box"] == [14, 40, 166, 290] and "at" not in first[0]  # column edges
    assert first[1]["box"] == [60, 90, 120, 150]  # round the worker spot (90, 120)
    assert first[2]["box"] == [15, 45, 45, 75] and first[2]["text"] == "1"  # left edge
    assert first[3]["text"] == "Wood: 1"
    texts = [e["text"] for e in elements[6:] if e["type"] == "text"]
    assert texts == ["2", "Stone: 2", "3", "Gold: 3"]
    picture = render_layout(elements, size, fields).convert("RGB")
    assert picture.getpixel((250, 120)) == (0xFF, 0xEE, 0xCC)  # the second column's spot
    back, _size, _fields = columns_layout("back", COLUMNS[:2], {"title": ""}, spec())
    assert [e["text"] for e in back[2:]] == ["Wood", "Stone"]


def test_a_board_printed_on_two_sides_is_its_face_and_its_back() -> None:
    """One picture per side (each with its own columns and board fields), the built side as the
    piece's picture and the other as its back; a board of one side is its own back."""
    sides = {"front": (COLUMNS, {"title": "Market"}), "back": (COLUMNS[:2], {"title": "B"})}
    pictures = sided_pictures(sides, "back", spec(), "market")
    assert set(pictures) == {"market", "market-back"}
    face, back = pictures["market"], pictures["market-back"]
    assert (face.file, back.file) == ("market-back", "market-front")
    assert face.spec == {"board": "back", "layout": columns_layout("back", *sides["back"], spec())}
    drawn = back.make().convert("RGB")
    assert drawn.getpixel((250, 120)) == (0xFF, 0xEE, 0xCC)  # the front's second worker spot
    assert face.make().convert("RGB").getpixel((250, 120)) != (0xFF, 0xEE, 0xCC)
    alone = sided_pictures({"front": sides["front"]}, "front", spec(), "market")
    assert alone["market"] is alone["market-back"] and alone["market"].file == "market-front"


def test_every_side_of_the_action_board_is_a_layout_the_renderer_draws() -> None:
    for side in ACTION_BOARD["sides"]:
        fields = [{"name": "Load", "amounts": "2 / 1", "text": "Load a pair."}] * 6
        elements, size, _fields = columns_layout(side, fields, {"title": "Actions"})
        validate_layout(elements, f"action board {side}", size)
