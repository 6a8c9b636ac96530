"""The flood race's art and table geometry: the board, the dice, the cost card, and the save's
positions all agree with one hex geometry."""

from __future__ import annotations

import dataclasses
import io
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import SESSION_CACHE, build
from PIL import Image, ImageChops

from rules_ref import arche_noah_flood as F
from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.games.arche_noah_flood import cost_card_layout, geometry, table_positions
from tts_builder.render import D6_CELLS, render_die_face
from tts_builder.render.hexmap import (
    BOARD_STYLE,
    ark_zone,
    board_style,
    hex_name,
    hex_pixel,
    hex_table,
    marker_table,
    pixel_to_table,
    render_board,
    render_flood_tile,
    row_mark,
    shared_edge,
)
from tts_builder.render.layout import resolve_layout
from tts_builder.save.objects import D6_ROTATIONS

GAME = "arche-noah-flood"
DATA = load_definition(GAME).data
GEO = geometry(DATA)
STYLE = board_style(DATA["components"]["board"]["style"], DATA["rules"]["terrain"].values())
MAP = DATA["map"]


@pytest.fixture(scope="module")
def base() -> GameBuild:
    return build(GAME)


@pytest.fixture(scope="module")
def junior() -> GameBuild:
    return build(GAME, variant="junior")


@pytest.fixture(scope="module")
def board(base: GameBuild) -> Image.Image:
    return Image.open(io.BytesIO(base.files["images/board.png"])).convert("RGB")


def rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def near(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 6) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def objects(build: GameBuild, tag: str) -> list[dict[str, Any]]:
    return [o for o in build.save["ObjectStates"] if tag in o.get("Tags", [])]


# ---- geometry -----------------------------------------------------------------------------


def test_hex_pixels_and_table_positions_are_one_geometry() -> None:
    size = GEO.image_size
    for r in range(GEO.rows):
        for c in range(GEO.cols):
            px, py = hex_pixel(GEO, r, c)
            assert 0 < px < size and 0 < py < size
            assert pixel_to_table(GEO, px, py) == pytest.approx(hex_table(GEO, r, c))
            for nr, nc in F.neighbours(r, c, GEO.rows, GEO.cols):  # neighbours touch
                (x, z), (nx, nz) = hex_table(GEO, r, c), hex_table(GEO, nr, nc)
                assert math.dist((x, z), (nx, nz)) == pytest.approx(GEO.hex_width)
    # Odd rows are shifted right by half a hex; row 0 is the far side of the table (+z).
    assert hex_table(GEO, 1, 0)[0] - hex_table(GEO, 0, 0)[0] == pytest.approx(GEO.hex_width / 2)
    assert hex_table(GEO, 0, 0)[1] > hex_table(GEO, GEO.rows - 1, 0)[1]
    (zx, zz), (zw, zd) = ark_zone(GEO)
    assert zz + zd / 2 < hex_table(GEO, GEO.rows - 1, 0)[1] - GEO.radius * 0.5
    assert abs(zx - GEO.centre[0]) < 1e-9 and zw > GEO.cols * GEO.hex_width * 0.9


def test_the_flood_marker_walks_the_flood_rows() -> None:
    x0, z0 = marker_table(GEO, 0, 0)
    x1, z1 = marker_table(GEO, 0, 1)
    assert x1 - x0 == pytest.approx(GEO.hex_width) and z1 == pytest.approx(z0)
    assert marker_table(GEO, 0, GEO.cols) == marker_table(GEO, 1, 0)  # wraps to the next row
    assert marker_table(GEO, 2, 3)[0] == pytest.approx(hex_table(GEO, 2, 3)[0] - GEO.hex_width / 2)


def test_hex_names_follow_the_flood_track_marks() -> None:
    assert [row_mark(r) for r in (0, 1, 9, 25, 26, 27)] == ["A", "B", "J", "Z", "AA", "AB"]
    assert hex_name(2, 4) == "C5"


# ---- the board picture --------------------------------------------------------------------


def test_board_shows_terrain_river_fords_and_stone_circles(board: Image.Image) -> None:
    assert board.size == (GEO.image_size, GEO.image_size)
    k, rad = GEO.px_per_unit, GEO.radius
    for r, line in enumerate(MAP["terrain"]):
        for c, letter in enumerate(line):
            px, py = hex_pixel(GEO, r, c)
            at = (round(px + 0.28 * rad * k), round(py - 0.3 * rad * k))  # clear of symbols
            expected = rgb(STYLE[DATA["rules"]["terrain"][letter]])
            assert near(board.getpixel(at), expected), (r, c, letter)
    fords = {frozenset(map(tuple, e)) for e in MAP["fords"]}
    for a, b in MAP["rivers"]:
        p, q = shared_edge(GEO, tuple(a), tuple(b))
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if frozenset((tuple(a), tuple(b))) in fords:
            at = (mid[0], mid[1] + 0.07 * GEO.hex_width)  # below the island's stepping stones
            color = STYLE["ford"]
        else:
            at, color = mid, STYLE["river"]
        assert near(board.getpixel((round(at[0] * k), round(at[1] * k))), rgb(color)), (a, b)
    stone = rgb(STYLE["stone"])
    for s in MAP["starts"]:
        px, py = hex_pixel(GEO, *s)
        angle = math.radians(22.5)
        at = (px + 0.56 * rad * k * math.sin(angle), py - 0.56 * rad * k * math.cos(angle))
        assert near(board.getpixel((round(at[0]), round(at[1]))), stone), s


def test_board_is_drawn_from_the_map() -> None:
    changed = dict(MAP, terrain=["S" + MAP["terrain"][0][1:], *MAP["terrain"][1:]])
    small = dataclasses.replace(GEO, px_per_unit=32.0)
    before = render_board(MAP, DATA["rules"]["terrain"], small, STYLE)
    after = render_board(changed, DATA["rules"]["terrain"], small, STYLE)
    px, py = hex_pixel(small, 0, 0)
    at = (
        round(px + 0.28 * small.radius * small.px_per_unit),
        round(py - 0.3 * small.radius * small.px_per_unit),
    )
    assert near(before.getpixel(at), rgb(STYLE["plain"]))
    assert near(after.getpixel(at), rgb(STYLE["swamp"]))


def test_flood_tile_is_a_water_hex_with_clear_corners() -> None:
    tile = render_flood_tile(None, 200)
    assert tile.mode == "RGBA" and tile.height == 200
    assert tile.getpixel((0, 0))[3] == 0 and tile.getpixel((tile.width - 1, 0))[3] == 0
    assert near(
        tile.getpixel((tile.width // 2, round(tile.height * 0.62)))[:3], rgb(BOARD_STYLE["flood"])
    )


# ---- dice ---------------------------------------------------------------------------------


def die_cells(texture: Image.Image) -> dict[int, Image.Image]:
    """Face number -> its cell of a d6 texture, turned upright."""
    c = texture.width // 3
    cells = {}
    for face, (col, row, upside_down) in D6_CELLS.items():
        cell = texture.crop((col * c, row * c, (col + 1) * c, (row + 1) * c))
        cells[face] = cell.rotate(180) if upside_down else cell
    return cells


@pytest.mark.parametrize(("variant", "kind"), [(None, "number_die"), ("junior", "symbol_die")])
def test_each_die_face_shows_the_label_its_rotation_value_carries(
    variant: str | None, kind: str, base: GameBuild, junior: GameBuild
) -> None:
    build = junior if variant else base
    style = DATA["components"][kind]["style"]
    dice = [o for o in build.save["ObjectStates"] if o["Name"] == "Custom_Dice"]
    assert len(dice) == 2
    faces_by_rotation = {tuple(rot): int(n) for n, rot in D6_ROTATIONS}
    for die in dice:
        url = die["CustomImage"]["ImageURL"]
        texture = Image.open(io.BytesIO(build.files["images/" + url.rsplit("/", 1)[1]]))
        cells = die_cells(texture.convert("RGB"))
        labels = []
        for entry in die["RotationValues"]:
            rot = entry["Rotation"]
            face = faces_by_rotation[(rot["x"], rot["y"], rot["z"])]
            drawn = cells[face]
            expected = render_die_face(entry["Value"], style)
            assert drawn.tobytes() == expected.tobytes(), (entry["Value"], face)
            labels.append(entry["Value"])
        spec = DATA["rules"]["junior"]["dice"] if variant else DATA["rules"]["dice"]
        assert sorted(labels) == sorted(str(f) for f in spec["faces"])


# ---- the movement-cost card ---------------------------------------------------------------


def test_cost_card_column_titles_take_their_ink_from_the_definition() -> None:
    _layout, fields = cost_card_layout(DATA)
    card = DATA["components"]["cost_card"]
    heads = {c["title"].lower(): c["head"] for c in fields["columns"]}
    ink = card["colors"]["ink"]
    assert heads == {key: card["heads"].get(key, ink) for key in heads}
    assert heads["forest"] == heads["river"] == "#ffffff" and heads["plain"] == ink
    plain = {**DATA, "components": {**DATA["components"], "cost_card": {**card, "heads": {}}}}
    assert {c["head"] for c in cost_card_layout(plain)[1]["columns"]} == {ink}


def test_cost_card_shows_the_cost_table(tmp_path: Path) -> None:
    layout, fields = cost_card_layout(DATA)
    names = [a["name"] for a in DATA["animals"]]
    camel = names.index("Camel")
    costs = [[cell["text"] for cell in animal["costs"]] for animal in fields["animals"]]
    assert costs[camel] == ["1", "2", "3", "—", "ford"]
    assert costs[names.index("Elephant")][4] == "+3"
    root = tmp_path / "assets"
    shutil.copytree(ASSETS_ROOT / GAME, root / GAME)
    path = root / GAME / "game.yaml"
    old = "Camel: {plain: 1, forest: 2, mountain: 3,"
    path.write_text(path.read_text().replace(old, "Camel: {plain: 1, forest: 2, mountain: 4,"))
    before = build_game(GAME, BuildOptions(), SESSION_CACHE).files["images/cost-card.png"]
    after = build_game(GAME, BuildOptions(), SESSION_CACHE, root).files["images/cost-card.png"]
    changed = cost_card_layout(load_definition(GAME, root).data)
    assert changed[1]["animals"][camel]["costs"][2]["text"] == "4"
    a = Image.open(io.BytesIO(before)).convert("RGB")
    b = Image.open(io.BytesIO(after)).convert("RGB")
    # the one element drawn differently is the camel's mountain cell; nothing else changed
    (cell,) = [
        new
        for old, new in zip(
            resolve_layout(layout, fields, "face"), resolve_layout(*changed, "face"), strict=True
        )
        if old != new
    ]
    assert cell["text"] == "4"
    box = cell["box"]
    diff = ImageChops.difference(a, b).getbbox()
    assert diff is not None
    assert box[0] <= diff[0] and diff[2] <= box[2] and box[1] <= diff[1] and diff[3] <= box[3]


# ---- the save lines up with the board -----------------------------------------------------


def test_snap_points_pieces_zone_and_marker_line_up(base: GameBuild) -> None:
    save = base.save
    hexes = [hex_table(GEO, r, c) for r in range(GEO.rows) for c in range(GEO.cols)]
    points = [v for p in save["SnapPoints"] for v in (p["Position"]["x"], p["Position"]["z"])]
    assert points == pytest.approx([v for h in hexes for v in h], abs=1e-3)
    assert all(p["Tags"] == ["Animal"] for p in save["SnapPoints"])
    (board_obj,) = objects(base, "Board")
    t = board_obj["Transform"]
    assert (t["posX"], t["posZ"]) == pytest.approx(GEO.centre)
    assert t["scaleX"] == t["scaleZ"] == pytest.approx(GEO.scale)
    pieces = objects(base, "Animal")
    pieces = [p for p in pieces if p["Name"] == "Custom_Token"]
    assert len(pieces) == 10 and all(p["CustomImage"]["CustomToken"]["StandUp"] for p in pieces)
    for p in pieces:
        index = json.loads(p["GMNotes"])["piece"]
        start = MAP["starts"][index]
        assert (p["Transform"]["posX"], p["Transform"]["posZ"]) == pytest.approx(
            hex_table(GEO, *start), abs=1e-3
        )
    (zone,) = [o for o in save["ObjectStates"] if o["Name"] == "ScriptingTrigger"]
    (zx, zz), (zw, zd) = ark_zone(GEO)
    zt = zone["Transform"]
    assert (zt["posX"], zt["posZ"], zt["scaleX"], zt["scaleZ"]) == pytest.approx(
        (zx, zz, zw, zd), abs=1e-3
    )
    positions = table_positions(DATA)
    for x, _y, z in positions["ark_slots"]:
        assert abs(x - zx) < zw / 2 and abs(z - zz) < zd / 2
    (marker,) = objects(base, "FloodMarker")
    mt = marker["Transform"]
    assert (mt["posX"], mt["posZ"]) == pytest.approx(marker_table(GEO, 0, 0), abs=1e-3)
    (bag,) = objects(base, "FloodBag")
    assert bag["Name"] == "Infinite_Bag"
    assert bag["ContainedObjects"][0]["Tags"] == ["FloodTile"]


def test_variants_carry_their_own_components(base: GameBuild, junior: GameBuild) -> None:
    assert base.folder == GAME and junior.folder == f"{GAME}-junior"
    assert junior.save["SaveName"] == DATA["variants"]["junior"]["name"]
    assert not objects(junior, "AnimalDeck") and not objects(junior, "CostCard")
    assert len(objects(base, "CostCard")) == len(DATA["table"]["seats"])
    (deck,) = objects(base, "AnimalDeck")
    notes = sorted(json.loads(c["GMNotes"])["animal"] for c in deck["ContainedObjects"])
    assert notes == sorted(a["name"] for a in DATA["animals"] for _ in range(2))
