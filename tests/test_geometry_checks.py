"""The geometry checks: the built saves pass, and each check fails on the defect it names."""

from __future__ import annotations

import copy
import io
import json
import math
import struct
import zlib
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import build
from PIL import Image

from tts_builder import geometry as geo
from tts_builder.cli import cli, run
from tts_builder.render.hexmap import board_style
from tts_builder.save import objects as obj
from tts_builder.save.checker import check_geometry
from tts_builder.save.geometry_checks import image_size_from_disk, image_size_from_files

FLOOD = "arche-noah-flood"


@pytest.fixture(scope="module")
def flood():
    return build(FLOOD)


@pytest.fixture(scope="module")
def noah():
    return build("arche-noah")


def findings(b, save=None, positions=None):
    save = b.save if save is None else save
    sizes = image_size_from_files(b.files)
    return [str(f) for f in check_geometry(save, sizes, b.positions if positions is None
                                           else positions)]  # fmt: skip


def by_tag(save, tag):
    return next(o for o in save["ObjectStates"] if tag in o.get("Tags", []))


def by_name(save, name):
    return [o for o in save["ObjectStates"] if o["Name"] == name]


@pytest.mark.parametrize("variant", [None, "junior", "distinct-species"])
def test_built_flood_saves_have_no_geometry_finding(variant):
    b = build(FLOOD, variant=variant)
    assert b.positions, "the flood build lists the positions its script uses"
    assert findings(b) == []


def test_built_arche_noah_has_no_geometry_finding(noah):
    assert findings(noah) == []


# --- planted defects ----------------------------------------------------------------------------


def test_missing_hand_trigger_for_a_scripted_colour(noah):
    save = copy.deepcopy(noah.save)
    save["ObjectStates"] = [o for o in save["ObjectStates"] if o.get("FogColor") != "Yellow"]
    found = findings(noah, save)
    assert any("seat Yellow" in f and "HandTrigger" in f for f in found), found


def test_interpenetrating_cards(noah):
    save = copy.deepcopy(noah.save)
    by_tag(save, "StartPlayer")["Transform"]["posZ"] = 1.0  # onto the draw pile
    found = findings(noah, save)
    assert any("interpenetrates" in f and "Start player" in f for f in found), found


def test_a_card_above_a_tile_does_not_interpenetrate_but_one_inside_does(flood):
    save = copy.deepcopy(flood.save)
    cost = by_tag(save, "CostCard")
    deck = by_tag(save, "AnimalDeck")
    deck["Transform"].update(posX=cost["Transform"]["posX"], posZ=cost["Transform"]["posZ"])
    deck["Transform"]["posY"] = geo.top_y(cost)
    assert not any("interpenetrates" in f for f in findings(flood, save))
    deck["Transform"]["posY"] = cost["Transform"]["posY"]
    assert any("interpenetrates" in f for f in findings(flood, save))


def test_square_cards_overlap_at_their_least_size():
    entry = obj.custom_deck_entry("file:///sq.png", "file:///b.png", 2, 2)
    save = {"ObjectStates": [
        obj.card("aaaaaa", 100, entry, transform=obj.transform((0, 1, 0), (0, 180, 0))),
        obj.card("bbbbbb", 101, entry, transform=obj.transform((1.5, 1, 0), (0, 180, 0))),
    ], "Table": "Table_RPG"}  # fmt: skip
    found = [str(f) for f in check_geometry(save, lambda url: (512, 512))]
    assert any("aaaaaa" in f and "bbbbbb" in f and "interpenetrates" in f for f in found)
    assert any("square or landscape card" in f for f in found)


def test_below_the_table_and_off_the_table(noah):
    save = copy.deepcopy(noah.save)
    by_tag(save, "StartPlayer")["Transform"]["posY"] = 0.5
    by_tag(save, "AnimalDeck")["Transform"]["posX"] = 26.5
    found = findings(noah, save)
    assert any("below the table top" in f and "Start player" in f for f in found), found
    assert any("reaches off the table" in f and "Animal cards" in f for f in found), found


def test_board_scaled_on_y(flood):
    save = copy.deepcopy(flood.save)
    by_tag(save, "Board")["Transform"]["scaleY"] = 2.0
    assert any("scaleY 2" in f for f in findings(flood, save))


def test_shared_board_facing_no_seat(flood):
    save = copy.deepcopy(flood.save)
    by_tag(save, "Board")["Transform"]["rotY"] = 90.0
    assert any("reads upright for no seat" in f for f in findings(flood, save))


def test_own_piece_facing_another_seat(flood):
    save = copy.deepcopy(flood.save)
    white = next(o for o in save["ObjectStates"] if o["Nickname"] == "White movement costs")
    white["Transform"]["rotY"] = 0.0  # upright for the far side
    found = findings(flood, save)
    assert any("belongs to White" in f and "at 180" in f for f in found), found


def test_turned_board_maps_the_script_hexes_onto_other_cells(flood):
    save = copy.deepcopy(flood.save)
    by_tag(save, "Board")["Transform"]["rotY"] = 0.0  # faces Green: still a seat
    found = findings(flood, save)
    assert any("hex A1" in f and "printed cell" in f for f in found), found


def test_script_position_inside_the_board(flood):
    spot = next(p for p in flood.positions if p.kind == "hex")
    sunk = geo.ScriptPosition("sunk", (spot.at[0], 1.0, spot.at[2]), spot.board, spot.cell_uv,
                              spot.tolerance_uv)  # fmt: skip
    assert any("lies inside board" in f for f in findings(flood, positions=[sunk]))


def test_script_position_off_the_table(noah):
    spot = geo.ScriptPosition("far", (30.0, 1.0, 0.0), size=geo.PORTRAIT_CARD)
    assert any("'far'" in f and "off the table" in f for f in findings(noah, positions=[spot]))


def test_snap_points_off_the_surface(flood):
    save = copy.deepcopy(flood.save)
    save["SnapPoints"][0]["Position"]["y"] = 1.5
    assert any("SnapPoints[0]" in f and "no surface" in f for f in findings(flood, save))
    tile = obj.custom_tile(
        "cccccc",
        "file:///t.png",
        thickness=0.2,
        transform=obj.transform((0, 0.96, 0), (0, 180, 0), (2, 1, 2)),
    )
    tile["AttachedSnapPoints"] = [obj.snap_point((0.5, 0.2, 0.5)), obj.snap_point((0, 0.5, 3))]
    found = [str(f) for f in check_geometry({"ObjectStates": [tile]}, lambda url: (100, 100))]
    assert len([f for f in found if "AttachedSnapPoints[1]" in f]) == 2, found
    assert not any("AttachedSnapPoints[0]" in f for f in found)


def test_script_spawned_image_must_be_listed(noah):
    save = copy.deepcopy(noah.save)
    url = "file:///somewhere/images/token.png"
    save["LuaScript"] += f'\nlocal TOKEN = "{url}"\n'
    assert any(url in f and "asset tools" in f for f in findings(noah, save))
    save["CustomUIAssets"] = [{"Type": 0, "Name": "token", "URL": url}]
    assert not any(url in f for f in findings(noah, save))


# --- the printed board, sampled at the script's positions --------------------------------------


TERRAIN_NAMES = {"P": "plain", "F": "forest", "M": "mountain", "S": "swamp"}


def sampled_terrains(b, board_transform):
    """The terrain printed under each script hex position, by majority of nearby pixels, and
    the terrain the map says is there."""
    data = b.definition.data
    image = Image.open(io.BytesIO(b.files["images/board.png"])).convert("RGB")
    style = board_style(data["components"]["board"]["style"])
    letters = data["map"]["terrain"]
    colours = {name: tuple(int(style[name][i : i + 2], 16) for i in (1, 3, 5))
               for name in TERRAIN_NAMES.values()}  # fmt: skip
    hexes = [p for p in b.positions if p.kind == "hex"]
    assert len(hexes) == len(letters) * len(letters[0])
    pairs = []
    for n, spot in enumerate(hexes):
        r, c = divmod(n, len(letters[0]))
        u, v = geo.uv_of_world(board_transform, image.width / image.height, spot.at)
        x, y = round(u * image.width), round(v * image.height)
        votes: Counter[str] = Counter()
        for dx in range(-50, 51, 5):
            for dy in range(-50, 51, 5):
                inside = 0 <= x + dx < image.width and 0 <= y + dy < image.height
                pixel = image.getpixel((x + dx, y + dy)) if inside else (0, 0, 0)
                for name, rgb in colours.items():
                    if sum(abs(a - b) for a, b in zip(pixel, rgb, strict=True)) <= 12:
                        votes[name] += 1
        seen = votes.most_common(1)[0][0] if votes else None
        pairs.append((spot.label, seen, TERRAIN_NAMES[letters[r][c]]))
    return pairs


def test_script_hexes_land_on_their_printed_terrain(flood):
    board = geo.Transform.of(by_tag(flood.save, "Board"))
    wrong = [p for p in sampled_terrains(flood, board) if p[1] != p[2]]
    assert wrong == []


def test_sampling_a_turned_board_finds_other_terrain(flood):
    t = geo.Transform.of(by_tag(flood.save, "Board"))
    turned = geo.Transform(t.pos, (0.0, 0.0, 0.0), t.scale)
    wrong = [p for p in sampled_terrains(flood, turned) if p[1] != p[2]]
    assert len(wrong) > 20


def test_ark_berths_lie_in_the_ark_zone(flood):
    zone = geo.Transform.of(by_name(flood.save, "ScriptingTrigger")[0])
    for spot in (p for p in flood.positions if p.kind == "ark"):
        assert geo.zone_contains(zone, spot.at), spot.label


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda o: o.pop("Transform"), "Transform missing"),
        (lambda o: o["Transform"].update(posX=math.nan), "posX is nan"),
        (lambda o: o["Transform"].update(scaleX=0.0), "zero scale"),
    ],
)
def test_broken_transforms_are_findings_naming_the_guid(noah, change, fragment):
    save = copy.deepcopy(noah.save)
    card = by_tag(save, "StartPlayer")
    change(card)
    found = findings(noah, save)
    assert any(card["GUID"] in f and fragment in f for f in found), found


def test_missing_local_image_is_a_finding(tmp_path):
    tile = obj.custom_tile("dddddd", (tmp_path / "gone.png").as_uri())
    found = [str(f) for f in check_geometry({"ObjectStates": [tile]}, image_size_from_disk)]
    assert any("dddddd" in f and "image not found" in f for f in found), found


def _png_header(path: Path, width: int, height: int) -> str:
    """A PNG whose header says ``width`` x ``height`` (no pixels follow: opening reads the
    header only); its file URL."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b""))
    return path.as_uri()


def test_an_image_past_the_pixel_limit_or_a_url_with_nul_is_of_unknown_size(tmp_path):
    """check reads a save's local images for their size: a 400-Mpx header (Pillow's bomb) or a
    NUL in the path is a size unknown, not a crash."""
    assert image_size_from_disk(_png_header(tmp_path / "small.png", 30, 20)) == (30, 20)
    assert image_size_from_disk(_png_header(tmp_path / "bomb.png", 20_000, 20_000)) is None
    assert image_size_from_disk("file:///tmp/a%00b.png") is None


def test_check_command_on_broken_geometry(noah, tmp_path: Path):
    save = copy.deepcopy(noah.save)
    by_tag(save, "StartPlayer")["Transform"]["posY"] = math.nan
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(save), "utf-8")
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    guid = by_tag(save, "StartPlayer")["GUID"]
    assert f"[geo] ObjectStates[1]: object {guid}: Transform.posY is nan" in result.output
    assert "[req] ObjectStates[1].Transform: non-finite value(s): posY" in result.output


def test_check_lists_geometry_findings_and_fails_on_them_only_when_strict(noah, tmp_path):
    save = copy.deepcopy(noah.save)
    by_tag(save, "StartPlayer")["Transform"]["posZ"] = 1.0
    path = tmp_path / "overlap.json"
    path.write_text(json.dumps(save), "utf-8")
    lenient = CliRunner().invoke(cli, ["check", str(path)])
    assert (
        lenient.exit_code == 0
        and "[geo]" in lenient.output
        and "interpenetrates" in (lenient.output)
    )
    assert CliRunner().invoke(cli, ["check", "--strict", str(path)]).exit_code == 2
    path.write_text("{not json", "utf-8")
    assert run(["check", str(path)]) == 2


def test_arche_noah_positions_fit_the_table_and_the_collection_zones(noah):
    labels = [p.label for p in noah.positions]
    assert "offer 1" in labels and "White collection" in labels
    zones = {o["Nickname"]: geo.Transform.of(o) for o in by_name(noah.save, "ScriptingTrigger")}
    for spot in noah.positions:
        if spot.label.endswith("collection"):
            assert geo.zone_contains(zones[spot.label], spot.at), spot.label


def test_overlapping_script_positions(noah):
    first = noah.positions[2]
    clash = geo.ScriptPosition("clash", (first.at[0] + 1.0, first.at[1], first.at[2]),
                               size=geo.PORTRAIT_CARD, rot_y=180.0)  # fmt: skip
    found = findings(noah, positions=[*noah.positions, clash])
    assert any("'clash' overlap" in f or "and 'clash' overlap" in f for f in found), found


GARBAGE = [None, "x", [], True, {"x": math.nan}]
KEYS = ("Transform", "CustomImage", "CustomDeck", "AttachedSnapPoints", "Name",
        "ContainedObjects", "FogColor", "CardID", "Tags", "Nickname", "GUID")  # fmt: skip


@pytest.mark.parametrize("game", ["arche-noah", FLOOD])
def test_garbage_anywhere_never_raises(game):
    b = build(game)
    sizes = image_size_from_files(b.files)
    objects = b.save["ObjectStates"]
    one_of_each = {o["Name"]: i for i, o in enumerate(objects)}.values()
    for i in one_of_each:
        for key in KEYS:
            for junk in GARBAGE:
                changed = list(objects)
                changed[i] = {**objects[i], key: junk}
                save = {**b.save, "ObjectStates": changed}
                check_geometry(save, sizes, b.positions if key == "Transform" else ())
    for key in ("SnapPoints", "ObjectStates", "LuaScript", "Table"):
        for junk in GARBAGE:
            check_geometry({**b.save, key: junk}, sizes, b.positions)
    broken = [*b.save.get("SnapPoints", []), {"Position": {"x": "a", "y": None, "z": 1}}]
    check_geometry({**b.save, "SnapPoints": broken}, sizes, b.positions)


def test_the_bounding_box_filter_keeps_every_pair_that_interpenetrates() -> None:
    import random
    from itertools import combinations

    from tts_builder import geometry as geo
    from tts_builder.save.geometry_checks import _pairs_that_may_overlap

    rng = random.Random(5)
    rects = []
    for _ in range(120):
        centre = (rng.uniform(-6, 6), rng.uniform(-6, 6))
        size = (rng.uniform(0.1, 4), rng.uniform(0.1, 4))
        rects.append(geo.Rect(centre, size, rng.choice([0.0, 90.0, 180.0, rng.uniform(0, 360)])))
    rects += [geo.Rect((0.0, 0.0), (2.0, 2.0)), geo.Rect((2.0 - 5e-4, 0.0), (2.0, 2.0))]  # touching
    kept = {(id(a), id(b)) for a, b in _pairs_that_may_overlap(rects, lambda r: r, 1e-3)}
    exact = [(a, b) for a, b in combinations(rects, 2) if geo.rects_overlap(a, b, 1e-3)]
    assert exact and all((id(a), id(b)) in kept for a, b in exact)
    assert len(kept) < len(rects) * (len(rects) - 1) // 2 // 4  # most pairs skipped


# --- scale: the indexes find what testing every pair finds ----------------------------------------


def test_the_sweep_finds_exactly_the_pairs_whose_boxes_overlap_on_every_axis() -> None:
    import random
    from itertools import combinations

    from tts_builder.save.spatial import overlapping_pairs

    rng = random.Random(11)
    for axes in (2, 3):
        boxes = []
        for _ in range(150):
            box = []
            for _axis in range(axes):
                low = rng.choice([0.0, 1.0, rng.uniform(-5, 5)])  # ties on purpose
                box.append((low, low + rng.choice([0.0, 1e-3, rng.uniform(0, 3)])))
            boxes.append(box)
        boxes.append([(math.nan, 1.0)] * axes)  # holds nothing
        for near in (-1e-3, 0.0, 1e-3):
            brute = [
                (i, j)
                for (i, a), (j, b) in combinations(enumerate(boxes), 2)
                if j < len(boxes) - 1  # not the NaN box
                and all(
                    min(ah, bh) - max(al, bl) > near
                    for (al, ah), (bl, bh) in zip(a, b, strict=True)
                )
            ]
            assert overlapping_pairs(boxes, near) == brute
    crowded = [[(0.0, 1.0), (0.0, 1.0)]] * 100  # 4,950 pairs
    assert overlapping_pairs(crowded, 0.0, budget=4_950) is not None
    assert overlapping_pairs(crowded, 0.0, budget=4_949) is None


def test_the_grid_finds_every_box_holding_a_point() -> None:
    import random

    from tts_builder.save.spatial import BoxGrid

    rng = random.Random(12)
    boxes = []
    for _ in range(300):
        x, z = rng.uniform(-20, 20), rng.uniform(-20, 20)
        w, d = rng.choice([0.0, 0.5, rng.uniform(0, 3), 60.0]), rng.uniform(0, 3)
        boxes.append(((x, x + w), (z, z + d)))
    boxes += [None, ((math.nan, 1.0), (0.0, 1.0)), ((-math.inf, math.inf), (0.0, 1.0))]
    boxes += [((1e306, 1.7e308), (0.0, 1.0)), ((-1e300, 1e-3), (0.0, 1.0))]  # far out
    grid = BoxGrid(boxes)
    points = [(rng.uniform(-25, 25), rng.uniform(-25, 25)) for _ in range(500)]
    points += [(1e306, 0.5), (1.7e308, 0.0), (-1.7e308, 0.5), (-1e300, 1.0)]
    points += [(b[0][0], b[1][1]) for b in boxes[:50] if b is not None]  # on a corner
    for x, z in points:
        inside = [
            k for k, b in enumerate(boxes)
            if b is None or not all(map(math.isfinite, (*b[0], *b[1])))
            or (b[0][0] <= x <= b[0][1] and b[1][0] <= z <= b[1][1])
        ]  # fmt: skip
        assert grid.holding(x, z) == inside
    few = BoxGrid([((0.0, 1.0), (0.0, 1.0))] * 10, budget=25)
    assert few.holding(0.5, 0.5) is not None and few.holding(0.5, 0.5) is not None
    assert few.holding(0.5, 0.5) is None  # 30 boxes tried: past the budget


def _stack(count: int, step: float, sunk: int | None = None) -> dict:
    """A save of ``count`` tiles stacked at one spot, ``step`` apart in height (a tile is 0.2
    thick), the ``sunk``-th half into the one below; four seats."""
    tiles = []
    for i in range(count):
        tile = obj.custom_tile(f"{i:06x}", "https://example.invalid/t.png")
        y = 0.96 + step * i - (0.1 if i == sunk else 0.0)
        tile["Transform"].update(posY=y, rotY=180.0)
        tiles.append(tile)
    hands = obj.default_hand_triggers(lambda c: f"f0{'WRGB'.index(c[0])}000",
                                      colors=("White", "Red", "Green", "Blue"))  # fmt: skip
    return {"Table": "Table_RPG", "ObjectStates": tiles + hands}


def test_a_tall_stack_is_checked_pair_by_neighbouring_pair() -> None:
    save = _stack(3_000, 0.2, sunk=1_234)
    found = [str(f) for f in check_geometry(save, lambda url: (200, 100))]
    assert found == [
        "[geo] ObjectStates[1233]: object 0004d1 interpenetrates 0004d2 at load "
        "(footprints overlap by 2.00)"
    ]


def test_objects_crowded_on_every_axis_are_one_finding_not_a_hang(monkeypatch) -> None:
    from tts_builder.save import geometry_checks

    save = _stack(1_500, 0.0)  # 1,124,250 pairs at one spot and level
    found = [str(f) for f in check_geometry(save, lambda url: (200, 100))]
    assert found == [
        "[geo] ObjectStates: objects crowd one another on every axis (more than 1,000,000 "
        "pairs to compare): interpenetration not checked"
    ]
    monkeypatch.setattr(geometry_checks, "MAX_INTERPENETRATIONS", 3)
    found = [str(f) for f in check_geometry(_stack(10, 0.0), lambda url: (200, 100))]
    assert len(found) == 4 and found[-1] == (
        "[geo] ObjectStates: more than 3 pairs of objects interpenetrate; the others are not listed"
    )


def test_snap_points_over_too_many_tiles_are_one_finding(monkeypatch) -> None:
    from tts_builder.save import geometry_checks

    save = _stack(20, 0.2)
    save["SnapPoints"] = [obj.snap_point((0.0, 0.96 + 0.2 * k, 0.0)) for k in range(21)]
    assert check_geometry(save, lambda url: (200, 100)) == []
    monkeypatch.setattr(geometry_checks, "MAX_PAIR_TESTS", 100)
    found = [str(f) for f in check_geometry(save, lambda url: (200, 100))]
    assert found[-1].startswith("[geo] SnapPoints: too many tiles under too many snap points")


def test_the_seat_angles_answer_as_every_seat_asked_in_turn() -> None:
    import random

    from tts_builder.save.geometry_checks import _SeatAngles

    rng = random.Random(13)
    for _ in range(200):
        seats = {
            f"c{i}": geo.Seat(f"c{i}", geo.Transform(rot=(0.0, rot, 0.0)))
            for i, rot in enumerate(
                rng.choice([0.0, 90.0, 179.8, 270.0, 359.5, rng.uniform(-720, 720)])
                for _ in range(rng.randint(1, 12))
            )
        }
        angles = _SeatAngles(seats)
        edges = [(s.reader_rot_y + d) % 360 for s in seats.values() for d in (1.0, -1.0, 1.000001)]
        for rot in [*edges, *(rng.uniform(0, 360) for _ in range(20))]:
            assert angles.any_reads(rot) == (geo.seat_facing(seats, rot) is not None)
