"""What the table picture tells a designer: the game's name on top, the table after Setup as the
strict emulated table has it (empty seats marked, what lies at them dimmed, what Setup removed
gone), each seat's pieces in its colour, and pawns big enough to see and tell apart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import SESSION_CACHE, build
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions
from tts_builder.cli import build_checked
from tts_builder.picture import (
    MIN_MARKER_PX,
    TABLE,
    after_setup,
    images_from_files,
    piece_owners,
    seat_order,
    table_picture,
    table_view,
)
from tts_builder.render import encode_png
from tts_builder.render.fonts import font
from tts_builder.save import objects as obj


def _near(pixel: tuple[int, ...], rgb: tuple[int, ...], tolerance: int = 30) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel[:3], rgb[:3], strict=True)) <= tolerance


def _ink_width(picture: Image.Image, rows: range) -> int:
    """How wide the white text in these rows is (the title's row: nothing else is white)."""
    columns = [x for x in range(picture.width) for y in rows
               if min(picture.getpixel((x, y))[:3]) > 235]  # fmt: skip
    return max(columns) - min(columns) + 1 if columns else 0


def _text_width(text: str) -> int:
    left, _top, right, _bottom = font(20, True).getbbox(text)
    return right - left


@pytest.mark.parametrize(
    ("game", "variant", "title"),
    [
        ("ark-and-noah", None, "Ark & Noah"),
        ("ark-and-noah", "family", "Ark & Noah — Family"),
        ("arche-noah-flood", "junior", "Arche Noah Junior - Flood Race"),
    ],
)
def test_the_title_is_the_games_name_not_its_id(game: str, variant: str | None, title: str):
    result = build_checked(game, BuildOptions(variant=variant), SESSION_CACHE)
    if variant is None:
        assert result.definition.name == title  # the definition's name
    with Image.open(_png(result.files["table.png"])) as picture:
        width = _ink_width(picture.convert("RGB"), range(0, 22))
    assert abs(width - _text_width(title)) <= 4, (width, _text_width(title))
    assert abs(width - _text_width(result.folder)) > 4  # not the build's folder (game id)


def _png(data: bytes) -> Any:
    from io import BytesIO

    return BytesIO(data)


@pytest.fixture(scope="module")
def ark() -> Any:
    return build("ark-and-noah")


@pytest.fixture(scope="module")
def flood() -> Any:
    return build("arche-noah-flood")


def _at(picture: Image.Image, view: Any, x: float, z: float) -> tuple[int, ...]:
    px, py = view.px(x, z)
    return picture.getpixel((round(px), round(py)))


def test_what_setup_removes_is_not_drawn(ark: Any):
    seated = seat_order(ark.save)[:2]
    state = after_setup(ark.save, 2, images=ark.files)
    characters = ("Ham", "Japheth")  # Green's and Blue's
    gone = [o for o in ark.save["ObjectStates"] if o.get("Nickname") in characters]
    assert gone and not {o["GUID"] for o in gone} & {o["GUID"] for o in state["ObjectStates"]}
    images = images_from_files(ark.files)
    picture = table_picture(state, images, [], seated=seated)
    view = table_view(state, [])
    for piece in gone:
        t = geo.Transform.of(piece)
        assert _near(_at(picture, view, t.pos[0], t.pos[2]), TABLE), piece["Nickname"]


def _brightness(picture: Image.Image, view: Any, rect: geo.Rect) -> float:
    (x0, z0), (x1, z1) = rect.corners()[0], rect.corners()[2]
    samples = [_at(picture, view, x0 + (x1 - x0) * (i + 0.5) / 8, z0 + (z1 - z0) * (j + 0.5) / 8)
               for i in range(8) for j in range(8)]  # fmt: skip
    return sum(sum(p[:3]) for p in samples) / len(samples)


def test_pieces_left_at_an_empty_seat_are_dimmed_and_the_seat_marked(flood: Any):
    seated = seat_order(flood.save)[:3]
    assert seated == ["White", "Red", "Yellow"]
    state = after_setup(flood.save, 3, images=flood.files)
    images = images_from_files(flood.files)
    at_load = table_picture(flood.save, images, [])
    after = table_picture(state, images, [], seated=seated)
    view = table_view(state, [])
    assert view == table_view(flood.save, [])

    def card(colour: str) -> geo.Rect:
        found = next(o for o in state["ObjectStates"]
                     if o.get("Nickname") == f"{colour} movement costs")  # fmt: skip
        image = images(found["CustomImage"]["ImageURL"])
        rect = geo.footprint(found, image.width / image.height)
        assert rect is not None
        return rect

    # Setup leaves the cost cards of the empty seats on the table: they are drawn, dimmed.
    for colour in ("Green", "Blue"):
        rect = card(colour)
        assert _brightness(after, view, rect) < 0.75 * _brightness(at_load, view, rect), colour
    for colour in seated:
        rect = card(colour)
        assert _brightness(after, view, rect) == pytest.approx(_brightness(at_load, view, rect))
    # an empty seat's zone is no longer tinted as a seated one is
    hands = {o["FogColor"]: geo.Transform.of(o) for o in state["ObjectStates"]
             if o["Name"] == "HandTrigger"}  # fmt: skip
    inside = (hands["Green"].pos[0] - hands["Green"].scale[0] / 2 + 0.5, hands["Green"].pos[2])
    assert _at(after, view, *inside) != _at(at_load, view, *inside)


def test_the_table_command_draws_the_empty_seats(flood: Any, tmp_path: Path):
    from click.testing import CliRunner

    from tts_builder.cli import cli

    out = tmp_path / "t.png"
    result = CliRunner().invoke(cli, ["-q", "table", "arche-noah-flood", "--after-setup",
                                      "--players", "3", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    state = after_setup(flood.save, 3, images=flood.files)
    images = images_from_files(flood.files)
    view = table_view(state, flood.positions)
    green = next(o for o in state["ObjectStates"] if o.get("Nickname") == "Green movement costs")
    load = table_picture(flood.save, images, flood.positions)
    t = geo.Transform.of(green)
    with Image.open(out) as drawn:
        assert drawn.size == view.size
        dimmed = _at(drawn.convert("RGB"), view, t.pos[0] + 1.0, t.pos[2])
    assert sum(dimmed[:3]) < 0.75 * sum(_at(load, view, t.pos[0] + 1.0, t.pos[2])[:3])


def _pawn_save(pieces: list[tuple[str, str, float, dict[str, Any]]]) -> dict[str, Any]:
    """An empty table with tiny square tiles (``name``, image, x, extra fields) at z 0."""
    objects = []
    for n, (name, url, x, extra) in enumerate(pieces):
        at = obj.transform((x, 0.96, 0), (0, 180, 0), (0.1, 1, 0.1))
        tile = obj.custom_tile(f"a{n:05d}", url, transform=at)
        objects.append({**tile, "Nickname": name, **extra})
    hands = obj.default_hand_triggers(lambda c: f"{len(c) + 10:06x}", colors=["White", "Red"])
    return {"Table": "Table_RPG", "ObjectStates": [*objects, *hands]}


SQUARES = {"red.png": (255, 0, 0), "blue.png": (0, 0, 255), "grey.png": (128, 128, 128)}


def _lookup(url: str) -> Image.Image | None:
    colour = SQUARES.get(url.rsplit("/", 1)[-1])
    return None if colour is None else Image.new("RGB", (40, 40), colour)


def _run(picture: Image.Image, view: Any, x: float) -> int:
    """How many pixels wide the drawing at world (x, 0) is, along its row."""
    cx, cy = (round(v) for v in view.px(x, 0.0))
    left = right = cx
    while not _near(picture.getpixel((left - 1, cy)), TABLE, 12):
        left -= 1
    while not _near(picture.getpixel((right + 1, cy)), TABLE, 12):
        right += 1
    return right - left + 1


def test_a_pawn_is_drawn_at_its_footprint_over_a_marker_of_at_least_min_px():
    # 0.2 × 0.2 units: 4.8 px at 24 px per unit
    save = _pawn_save([("Pitch", "file:///t/red.png", 0.0, {})])
    picture = table_picture(save, _lookup)
    view = table_view(save)
    assert _run(picture, view, 0.0) >= MIN_MARKER_PX
    assert _near(_at(picture, view, 0.0, 0.0), (255, 0, 0))  # its own image at its centre
    px, py = view.px(0.0, 0.0)
    assert _near(picture.getpixel((round(px) + 5, round(py))), (255, 0, 0))  # its colour round it
    assert not _near(picture.getpixel((round(px) + 4, round(py) + 4)), TABLE, 12)


def test_pawns_are_told_apart_by_their_colour_or_their_owners():
    save = _pawn_save([
        ("Pitch", "file:///t/red.png", -4.0, {}),
        ("Food", "file:///t/blue.png", 0.0, {}),
        ("Red worker", "file:///t/grey.png", 4.0, {"GMNotes": '{"color": "Red"}'}),
        ("White worker", "file:///t/grey.png", 8.0, {}),
    ])  # fmt: skip
    picture = table_picture(save, _lookup)
    view = table_view(save)

    def ring(x: float) -> tuple[int, ...]:
        px, py = view.px(x, 0.0)
        return picture.getpixel((round(px) + 5, round(py)))

    assert _near(ring(-4.0), (255, 0, 0)) and _near(ring(0.0), (0, 0, 255))
    assert _near(ring(4.0), (218, 26, 24))  # Red's seat colour
    assert _near(ring(8.0), (255, 255, 255))  # White's ("<colour> worker" for two seats)
    for x in (-4.0, 0.0, 4.0, 8.0):
        assert _run(picture, view, x) >= MIN_MARKER_PX


TABLE_MIDDLE = obj.transform((0, 0.96, 0), (0, 180, 0), (1, 1, 1))


def test_who_owns_what():
    chips = [{"Name": "Custom_Token", "Nickname": f"{c} chip", "Transform": TABLE_MIDDLE}
             for c in ("Green", "Purple")]  # fmt: skip
    workers = [{"Name": "Custom_Tile", "Nickname": f"{c} worker", "Transform": TABLE_MIDDLE}
               for c in ("Green", "Red")]  # fmt: skip
    noted = {"Name": "Custom_Tile", "Nickname": "Noah", "GMNotes": '{"color": "Red"}'}
    hands = obj.default_hand_triggers(lambda c: f"{len(c) + 10:06x}", colors=["Red", "Green"])
    red = next(h for h in hands if h["FogColor"] == "Red")["Transform"]
    at_hand = obj.transform((red["posX"], red["posY"], red["posZ"]), (0, 180, 0), (1, 1, 1))
    held = {"Name": "Card", "Nickname": "Rose", "Transform": at_hand}
    objects = [*chips, *workers, noted, held, *hands]
    owners = piece_owners(objects, ["Red", "Green"])
    assert [owners.get(id(o)) for o in objects[:6]] == [None, None, "Green", "Red", "Red", "Red"]


def test_the_picture_after_setup_is_deterministic(ark: Any):
    state = after_setup(ark.save, 3, images=ark.files)
    seated = seat_order(ark.save)[:3]

    def draw() -> bytes:
        images = images_from_files(ark.files)
        return encode_png(
            table_picture(
                state, images, ark.positions, "Ark & Noah", subtitle="3 players", seated=seated
            )
        )

    assert draw() == draw()
