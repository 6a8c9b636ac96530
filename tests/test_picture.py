"""The table picture: objects drawn where and how the geometry model lays them, seats labelled."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import build
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.errors import BuildError
from tts_builder.picture import (
    after_setup,
    images_from_files,
    seat_order,
    table_picture,
    table_view,
)
from tts_builder.render import encode_png
from tts_builder.render.hexmap import board_style
from tts_builder.save import objects as obj

TERRAIN = {"P": "plain", "F": "forest", "M": "mountain", "S": "swamp"}


@pytest.fixture(scope="module")
def flood():
    return build("arche-noah-flood")


def _near(pixel, rgb, tolerance=40):
    return sum(abs(a - b) for a, b in zip(pixel[:3], rgb, strict=True)) <= tolerance


def test_flood_picture_shows_the_printed_terrain_at_the_script_hexes(flood):
    picture = table_picture(flood.save, images_from_files(flood.files), [])
    view = table_view(flood.save, [])
    data = flood.definition.data
    style = board_style(data["components"]["board"]["style"])
    rgb = {k: tuple(int(style[v][i : i + 2], 16) for i in (1, 3, 5)) for k, v in TERRAIN.items()}
    letters = data["map"]["terrain"]
    hexes = [p for p in flood.positions if p.kind == "hex"]
    wrong = []
    for n, spot in enumerate(hexes):
        want = letters[n // len(letters[0])][n % len(letters[0])]
        x, y = view.px(spot.at[0], spot.at[2])
        window = [picture.getpixel((round(x) + dx, round(y) + dy))
                  for dx in range(-8, 9, 2) for dy in range(-8, 9, 2)]  # fmt: skip
        best = max(rgb, key=lambda k: sum(_near(p, rgb[k], 24) for p in window))
        if best != want:
            wrong.append((spot.label, want, best))
    assert len(wrong) <= len(hexes) // 20, wrong  # forests' dark trees may win a few hexes


def _tile_save(rot_y: float) -> tuple[dict, dict[str, Image.Image]]:
    """A 2:1 tile whose picture is red on its top half (green top-left corner), blue below."""
    image = Image.new("RGB", (200, 100), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 200, 50))
    image.paste((0, 255, 0), (0, 0, 40, 50))
    tile = obj.custom_tile(
        "abcabc",
        "file:///t/half.png",
        transform=obj.transform((0, 0.96, 0), (0, rot_y, 0), (3, 1, 3)),
    )
    hands = obj.default_hand_triggers(lambda c: f"{len(c) + 10:06x}", colors=["White"])
    return {"Table": "Table_RPG", "ObjectStates": [tile, *hands]}, {"half.png": image}


@pytest.mark.parametrize(("rot_y", "top_colour"), [(180.0, (255, 0, 0)), (0.0, (0, 0, 255))])
def test_image_top_is_local_minus_z(rot_y, top_colour):
    save, images = _tile_save(rot_y)
    picture = table_picture(save, lambda url: images.get(url.rsplit("/", 1)[-1]))
    view = table_view(save)
    # The tile covers x ±6, z ±3 (Stretch 2·2 × 2 at scale 3); +z is up in the picture.
    assert _near(picture.getpixel(tuple(round(v) for v in view.px(0.0, 2.0))), top_colour)
    other = (0, 0, 255) if top_colour == (255, 0, 0) else (255, 0, 0)
    assert _near(picture.getpixel(tuple(round(v) for v in view.px(0.0, -2.0))), other)
    assert not _near(picture.getpixel(tuple(round(v) for v in view.px(7.0, 0.0))), other)
    # The image's left edge is local +x: upright for White (rotY 180) it lies at world -x.
    corner = (-5.0, 2.0) if rot_y == 180.0 else (5.0, -2.0)
    assert _near(picture.getpixel(tuple(round(v) for v in view.px(*corner))), (0, 255, 0))


def test_seats_are_tinted_and_positions_marked(flood):
    picture = table_picture(flood.save, images_from_files(flood.files), flood.positions)
    view = table_view(flood.save, flood.positions)
    red = next(o for o in flood.save["ObjectStates"] if o.get("FogColor") == "Red")
    t = geo.Transform.of(red)
    corner = view.px(t.pos[0] - t.scale[0] / 2 + 0.5, t.pos[2] + t.scale[2] / 2 - 0.5)
    pixel = picture.getpixel(tuple(round(v) for v in corner))
    assert pixel[0] > pixel[1] + 30 and pixel[0] > pixel[2] + 30  # red-tinted


def test_missing_image_names_the_object():
    save, _images = _tile_save(180.0)
    with pytest.raises(BuildError, match="abcabc.*image not found"):
        table_picture(save, lambda url: None)


def test_unreadable_transform_names_the_object():
    save, images = _tile_save(180.0)
    save["ObjectStates"][0]["Transform"]["posX"] = float("nan")
    with pytest.raises(BuildError, match="abcabc"):
        table_picture(save, lambda url: images.get(url.rsplit("/", 1)[-1]))


def test_picture_is_deterministic(flood):
    a = encode_png(table_picture(flood.save, images_from_files(flood.files), flood.positions))
    b = encode_png(table_picture(flood.save, images_from_files(flood.files), flood.positions))
    assert a == b


def test_after_setup_deals_and_places(flood):
    assert seat_order(flood.save)[:3] == ["White", "Red", "Yellow"]
    state = after_setup(flood.save, 3)
    hands = {o.get("FogColor"): geo.Transform.of(o) for o in state["ObjectStates"]
             if o["Name"] == "HandTrigger"}  # fmt: skip
    cards = [o for o in state["ObjectStates"] if o["Name"] == "Card"]
    held = {c for c, zone in hands.items()
            for card in cards if geo.zone_contains(zone, geo.Transform.of(card).pos)}  # fmt: skip
    assert held == {"White", "Red", "Yellow"}
    with pytest.raises(BuildError, match="seats 5 players, not 6"):
        after_setup(flood.save, 6)


def test_table_command_writes_the_picture(tmp_path: Path):
    from click.testing import CliRunner

    from tts_builder.cli import cli

    out = tmp_path / "t.png"
    result = CliRunner().invoke(cli, ["-q", "table", "arche-noah", "--after-setup",
                                      "--players", "2", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    with Image.open(out) as image:
        assert image.width > 1000


def test_build_writes_the_table_picture_beside_the_preview(tmp_path: Path):
    from click.testing import CliRunner
    from conftest import seeded

    from tts_builder.cli import cli

    seeded(tmp_path)  # the clean build's renders
    result = CliRunner().invoke(cli, ["-q", "build", "arche-noah", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    folder = tmp_path / "arche-noah"
    assert (folder / "preview.png").exists()
    with Image.open(folder / "table.png") as image:
        assert image.width > 1000


def test_malformed_objects_are_one_line_errors_or_drawn(tmp_path: Path):
    noah = build("arche-noah")
    images = images_from_files(noah.files)
    objects = noah.save["ObjectStates"]
    for i in {o["Name"]: i for i, o in enumerate(objects)}.values():
        for key in ("Transform", "CustomDeck", "ContainedObjects", "FogColor", "Nickname"):
            for junk in (None, True, {"x": float("nan")}):
                changed = list(objects)
                changed[i] = {**objects[i], key: junk}
                try:
                    table_picture({**noah.save, "ObjectStates": changed}, images, px_per_unit=4)
                except BuildError as err:
                    assert objects[i]["GUID"] in str(err) and "\n" not in str(err)
