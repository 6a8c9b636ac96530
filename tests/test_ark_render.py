"""Ark & Noah pictures and geometry: the grid in pixels and on the table, the boards, the tiles,
and the build's outputs per player count."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import build
from PIL import Image

from rules_ref import ark_and_noah as ref
from tts_builder import geometry as geo
from tts_builder.build import lint_build
from tts_builder.games.ark_and_noah import boards
from tts_builder.games.ark_and_noah.action_board import COLUMNS as ACTION_BOARD
from tts_builder.games.ark_and_noah.action_board import columns_of
from tts_builder.games.ark_and_noah.ark import grid_plan
from tts_builder.games.ark_and_noah.grid import Grid, section_offsets
from tts_builder.games.ark_and_noah.rules import rules_config
from tts_builder.render import image_digest
from tts_builder.save import loads
from tts_builder.save.checker import check_save
from tts_builder.table import pieces_by_id
from tts_builder.table.printed import laid_board, laid_track, track_cells
from tts_builder.table.track import Track

PROJECT = Path(__file__).resolve().parents[1]
KINDS = ("bow", "middle", "stern")


@pytest.fixture(scope="module")
def built() -> object:
    return build("ark-and-noah")


def picture(built: object, name: str) -> Image.Image:
    return Image.open(io.BytesIO(built.files[name])).convert("RGB")


# --------------------------------------------------------------------------- geometry


@pytest.mark.parametrize(("rows", "cols"), [(3, 8), (3, 12), (3, 16), (1, 3)])
def test_grid_geometry(rows: int, cols: int) -> None:
    """The board draws the rules' own grid: R x C squares, 2R + 2C hull edges and pitch fields,
    each pitch field between two hull edges that meet at its grid point."""
    edges = ref.edge_names(rows, cols)
    hull = ref.hull_edges(rows, cols)
    fields = ref.pitch_fields(rows, cols)
    assert len(edges) == (rows + 1) * cols + rows * (cols + 1)
    assert len(hull) == len(fields) == 2 * rows + 2 * cols
    for name, a, b in fields:
        y, x = map(int, name.split(":")[1:])
        assert a in hull and b in hull and a != b
        for edge in (a, b):
            kind, r, c = edge[0], *map(int, edge.split(":")[1:])
            ends = [(r, c), (r, c + 1)] if kind == "h" else [(r, c), (r + 1, c)]
            assert (y, x) in ends


@pytest.mark.parametrize(("rows", "cols"), [(3, 8), (3, 12), (1, 3)])
def test_the_ark_grid_names_the_rules_spots_in_their_order(rows: int, cols: int) -> None:
    """The manifest's grid (``table.grid``) gives the rules' own squares, edges and pitch fields
    (``rules_ref``), in the rules' canonical order: the script and the snap points agree."""
    points = Grid(rows, cols, 120, 48, 150).points()
    assert list(points["edges"]) == ref.edge_names(rows, cols)
    assert list(points["hull"]) == [name for name, _a, _b in ref.pitch_fields(rows, cols)]
    assert len(points["cells"]) == rows * cols


@pytest.mark.parametrize("n", [2, 3, 4])
def test_table_positions_keep_the_grid_square_and_upright_for_red(built: object, n: int) -> None:
    data = built.definition.data
    plan = grid_plan(data, "ark", n)
    pts = plan.cells
    a, b, c = pts["0:0"], pts["0:1"], pts["1:0"]
    assert b[0] - a[0] == pytest.approx(1.5) and a[1] - c[1] == pytest.approx(1.5)
    # read from Red's seat (-z): the picture's first column is on the left (-x), its top row
    # far away (+z); the bow (the picture's left end) points to -x
    assert a[0] < 0 and a[1] > data["table"]["grids"]["ark"]["at"][1]
    assert plan.edges["v:0:1"][:2] == [pytest.approx((a[0] + b[0]) / 2), pytest.approx(a[1])]
    assert plan.edges["v:0:1"][2] % 180 == 90.0 and plan.edges["h:0:0"][2] % 180 == 0.0
    assert [kind for kind, _ in plan.sections] == plan.layout
    xs = [s.transform.pos[0] for _, s in plan.sections]
    assert xs == sorted(xs)  # bow at the left, stern at the right, for Red
    assert all(s.transform.rot_y == 180.0 and s.transform.scale[1] == 1.0 for _, s in plan.sections)


def test_board_spots_and_score_track_cells() -> None:
    data = build("ark-and-noah").definition.data
    spec = ACTION_BOARD
    for count in (7, 5):
        spots = [column.spots for column in columns_of(count)]
        assert len(spots) == count
        xs = [s["current"][0] for s in spots]
        assert xs == sorted(xs) and all(0 < x < spec["size"][0] for x in xs)
        assert all(s["completed"][1] < s["current"][1] for s in spots)
    spec = pieces_by_id(data["table"])["score-track"]["track"]
    track = Track.of(spec, data)
    cells = [track.cell_px(v) for v in range(track.cells)]
    assert len(set(cells)) == 100 and track.size == (1040, 1040)
    for a, b in zip(cells, cells[1:], strict=False):  # the track snakes: neighbours touch
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == track.cell


# --------------------------------------------------------------------------- pictures


def ark_grid(data: dict) -> Grid:
    """One section's grid of the Ark (the manifest's grid ``ark``)."""
    return Grid.of(data["table"]["grids"]["ark"], data)


def ark_colour(data: dict, at: str) -> str:
    """The colour the Ark's picture fills at a frame with (its first element there)."""
    elements = data["table"]["grids"]["ark"]["elements"]
    return next(e["fill"] for e in elements if e["at"] == at and "fill" in e)


def test_sections_join_into_the_whole_ark(built: object) -> None:
    data = built.definition.data
    section = ark_grid(data)
    spec = data["table"]["grids"]["ark"]
    sections = {kind: picture(built, f"images/ark-{kind}.png") for kind in KINDS}
    width = section.cols * section.cell
    assert {k: v.size for k, v in sections.items()} == {
        "bow": (section.ends + width, section.size[1]),
        "middle": (width, section.size[1]),
        "stern": (width + section.ends, section.size[1]),
    }
    g = Grid(section.rows, 4 * section.cols, section.cell, section.margin, section.ends)
    assembled = Image.new("RGB", g.size)  # the Ark of 4 sections, as laid
    for kind, x in section_offsets(section, spec, ["bow", "middle", "middle", "stern"]):
        assembled.paste(sections[kind], (x, 0))
    # the seam between the two middle sections continues the grid line and the pitch fields
    seam, h = section.ends + 2 * width, section.size[1]
    left = assembled.crop((seam - 3, 0, seam, h))
    right = assembled.crop((seam, 0, seam + 3, h))
    assert image_digest(left.transpose(Image.Transpose.FLIP_LEFT_RIGHT)) == image_digest(right)
    # squares are light, grid lines dark
    px = assembled.getpixel((int(g.cell_px(1, 5)[0] + 20), int(g.cell_px(1, 5)[1] + 20)))
    line = assembled.getpixel((int(g.edge_px("v:1:5")[0]), int(g.edge_px("v:1:5")[1])))
    assert sum(px[:3]) > 3 * 180 and sum(line[:3]) < 3 * 100


def test_tiles_show_sex_colour_and_paired_side(built: object) -> None:
    data = built.definition.data
    colours = data["tile_colors"]

    def rgb(hex_colour: str) -> tuple[int, ...]:
        return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))

    for name, sex in (("raven", "male"), ("raven", "female"), ("lion", "male")):
        unpaired = picture(built, f"images/animal-{name}-{sex}-unpaired.png")
        paired = picture(built, f"images/animal-{name}-{sex}-paired.png")
        assert unpaired.getpixel((12, 128)) == rgb(colours[sex])
        assert paired.getpixel((12, 128)) == rgb(colours["paired"])
    lion = picture(built, "images/animal-lion-male-unpaired.png")
    lioness = picture(built, "images/animal-lioness-female-unpaired.png")
    assert image_digest(lion) != image_digest(lioness)


def test_board_texts_follow_the_rule_numbers(built: object) -> None:
    from tts_builder.games.ark_and_noah.rules import action_texts

    data = built.definition.data
    standard = action_texts(rules_config(data))
    family = action_texts(rules_config(data, "family"))
    assert standard["loading"] == "loading points" and family["loading"] == "pairs to load"
    assert standard["building"] == "dividers and pitch to build"
    assert family["building"] == "dividers to build"
    assert standard["trading"].startswith("a bonus, then swap two dividers or draw 3")
    assert family["trading"].startswith("+1 VP, then draw 3 animals")


def test_action_board_sides(built: object) -> None:
    standard = picture(built, "images/action-board-standard.png")
    family = picture(built, "images/action-board-family.png")
    size = tuple(ACTION_BOARD["size"])
    assert standard.size == family.size == size
    assert image_digest(standard) != image_digest(family)


# --------------------------------------------------------------------------- the build


def save_of(built: object) -> dict:
    return loads(built.files["ark-and-noah.json"], "save")


def test_one_save_for_every_player_count_checker_clean(built: object) -> None:
    lint_build(built)
    names = set(built.files)
    assert {"ark-and-noah.json", "ark-and-noah.png", "preview.png"} <= names
    assert not any(name.endswith("p.json") for name in names)  # no save per player count
    save = save_of(built)
    assert check_save(save) == []
    assert save["PlayerCounts"] == [2, 4]
    assert built.save == save and built.saves() == {"ark-and-noah.json": save}
    assert {"scripts/Global.lua", "scripts/Global.xml"} <= names
    assert not any(name.startswith("scripts/") and name.count("/") > 1 for name in names)
    assert built.files["scripts/Global.lua"].decode() == built.global_script


def test_the_save_seats_every_colour_and_lays_boards_upright(built: object) -> None:
    save = save_of(built)
    objects = save["ObjectStates"]
    seats = geo.seats_of(objects)
    assert list(seats) == ["Red", "Yellow", "Green", "Blue"]
    red = seats["Red"]
    for o in objects:
        if o["Name"] != "Custom_Tile":
            continue
        t = geo.Transform.of(o)
        assert t.scale[1] == 1.0, o["Nickname"]
        assert o["CustomImage"]["CustomTile"]["Stretch"] is True
        if {"Ark", "ActionBoard", "ScoreTrack", "RoundTrack"} & set(o.get("Tags", [])):
            assert geo.faces(t.rot_y, red.hand.rot_y), o["Nickname"]
            assert t.pos[1] == geo.TABLE_TOP_Y and not t.face_down
    # the Ark as the save lays it out is the four-player Ark
    arks = [o for o in objects if "Ark" in o.get("Tags", [])]
    assert [o["Nickname"] for o in arks] == ["Ark: bow", "Ark: middle", "Ark: middle", "Ark: stern"]


def test_animal_tiles_are_double_sided_tiles_that_fit_a_square(built: object) -> None:
    save = save_of(built)
    bags = [o for o in save["ObjectStates"] if "AnimalBag" in o.get("Tags", [])]
    tiles = [c for b in bags for c in b["ContainedObjects"]]
    assert len(tiles) == 52
    square = built.definition.data["table"]["square"]
    for t in tiles:
        assert t["Name"] == "Custom_Tile" and t["CustomImage"]["ImageSecondaryURL"]
        rect = geo.footprint(t, 1.0)
        assert rect is not None and max(rect.size) < square  # fits, with room to spare
    notes = [json.loads(t["GMNotes"]) for t in tiles]
    assert all(n["kind"] == "animal" and n["sex"] in ("male", "female") for n in notes)


def _colour_near(img: Image.Image, px: tuple[float, float], want: str, tol: int = 40) -> bool:
    got = img.getpixel((int(px[0]), int(px[1])))
    hexed = tuple(int(want[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tol for a, b in zip(got[:3], hexed, strict=True))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_script_spots_sit_on_the_printed_ark(built: object, n: int) -> None:
    """Every square, edge and pitch field the script uses, mapped through the geometry model onto
    the section picture under it, lands on the printed square, grid line or pitch field."""
    data = built.definition.data
    plan = grid_plan(data, "ark", n)
    colours = {
        "square": ark_colour(data, "cell"),
        "line": ark_colour(data, "column_line"),
        "pitch": ark_colour(data, "hull_point"),
    }
    pictures = {k: picture(built, f"images/ark-{k}.png") for k in KINDS}

    def pixel_under(x: float, z: float) -> tuple[Image.Image, tuple[float, float]]:
        for kind, b in plan.sections:
            u, v = geo.uv_of_world(b.transform, b.aspect, (x, 0.0, z))
            if 0 <= u < 1 and 0 <= v < 1:
                return pictures[kind], (u * b.size[0], v * b.size[1])
        raise AssertionError(f"({x}, {z}) is on no section")

    for name, (x, z) in plan.cells.items():
        img, px = pixel_under(x + 0.4, z + 0.4)  # off the square's printed ring
        assert _colour_near(img, px, colours["square"]), name
    for name, (x, z, _angle) in plan.edges.items():
        img, px = pixel_under(x, z)
        assert _colour_near(img, px, colours["line"]), name
    for name, (x, z) in plan.hull.items():
        img, px = pixel_under(x, z)
        assert _colour_near(img, px, colours["pitch"]), name


@pytest.mark.parametrize("variant", [None, "family"])
def test_the_action_spaces_and_tracks_sit_on_their_printed_cells(variant: str | None) -> None:
    built = build("ark-and-noah", variant=variant)
    data = built.definition.data
    config = rules_config(data, variant)
    spec = ACTION_BOARD
    space_fill = next(e["fill"] for e in spec["sides"]["standard"] if e["at"] == "current")
    board = laid_board(data["table"], "action-board", tuple(spec["size"]))
    side = picture(built, f"images/action-board-{'family' if variant else 'standard'}.png")
    columns = [(c.x0, c.x1) for c in columns_of(len(config["actions"]))]
    for i, space in enumerate(boards.action_spaces(data, config)):
        u, v = geo.uv_of_world(board.transform, board.aspect, (*space["current"][:1], 0.0,
                                                                 space["current"][1]))  # fmt: skip
        x = u * spec["size"][0]
        assert columns[i][0] < x < columns[i][1], space["id"]  # the column printed with its name
        assert _colour_near(side, (x, v * spec["size"][1]), space_fill), space["id"]
    track, _cells = laid_track(data, "score-track")
    scores = picture(built, "images/score-track.png")
    colours = pieces_by_id(data["table"])["score-track"]["track"]
    cells = track_cells(data, "score-track")
    for vp in (0, 1, 9, 10, 55, 99):
        x, z = cells[vp]
        u, v = geo.uv_of_world(track.transform, track.aspect, (x + 0.3, 0.0, z + 0.3))
        fill = colours["marked"]["fill"] if vp % 10 == 0 else colours["fill"]
        px = (u * track.size[0], v * track.size[1])
        assert _colour_near(scores, px, fill, 12), vp
    # read from Red's seat: 0 at the bottom left, 9 to its right, 99 at the top
    assert cells[0][0] < cells[9][0] and cells[0][1] < cells[99][1]
    rounds = track_cells(data, "round-track")
    assert len(rounds) == config["end"]["min_rounds"] + 1
    assert all(a[0] < b[0] for a, b in zip(rounds, rounds[1:], strict=False))


def test_pictures_are_shared_by_the_family_game(built: object) -> None:
    family = build("ark-and-noah", variant="family")
    assert family.rendered <= 2  # only the family's shorter round track is new
    again = build("ark-and-noah")
    assert again.rendered == 0 and again.files == built.files


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_player_counts_script_positions_land_on_their_printed_cells(
    built: object, n: int
) -> None:
    """The save checker's geometry checks, on the table as Setup lays it out for ``n`` players
    (the sections moved to their places, the others gone) with that Ark's positions."""
    from tts_builder.games.ark_and_noah.boards import table_hooks
    from tts_builder.games.ark_and_noah.positions import positions_on
    from tts_builder.save.checker import check_geometry
    from tts_builder.save.geometry_checks import image_size_from_files
    from tts_builder.table import snap_points

    data = built.definition.data
    config = rules_config(data)
    plan = grid_plan(data, "ark", n)
    save = json.loads(json.dumps(save_of(built)))
    sections = [o for o in save["ObjectStates"] if "Ark" in o.get("Tags", [])]
    by_kind: dict[str, list[dict]] = {}
    for o in sections:
        by_kind.setdefault(o["Nickname"][5:], []).append(o)
    used = []
    for kind, b in plan.sections:
        o = by_kind[kind].pop(0)
        o["Transform"] = b.transform.as_save()
        used.append(o["GUID"])
    gone = {o["GUID"] for rest in by_kind.values() for o in rest}
    save["ObjectStates"] = [o for o in save["ObjectStates"] if o["GUID"] not in gone]
    save["SnapPoints"] = snap_points(data, table_hooks(data, data, config), n)
    positions = positions_on(save, data, config, n)
    assert len(positions) > 200
    assert check_geometry(save, image_size_from_files(built.files), positions) == []
    # a planted defect: the Ark's first section turned the wrong way round is found
    first = next(o for o in save["ObjectStates"] if o["GUID"] == used[0])
    first["Transform"]["rotY"] = 0.0
    found = check_geometry(save, image_size_from_files(built.files), positions)
    assert any("square 0:0" in f.message for f in found)


def test_setup_snap_points_take_the_lua_api_form() -> None:
    """``Global.setSnapPoints`` takes lower-case keys (the save writes Position/Rotation/Tags)."""
    from tts_builder.gamekit.table import lua_snap_points
    from tts_builder.save import objects as obj

    saved = [
        obj.snap_point((1.0, 1.16, 2.0), (0, 90, 0), ["Divider"]),
        obj.snap_point((3.0, 1.16, 4.0), None, ["Pitch"]),
    ]
    assert lua_snap_points(saved) == [
        {
            "position": {"x": 1.0, "y": 1.16, "z": 2.0},
            "rotation": {"x": 0.0, "y": 90.0, "z": 0.0},
            "rotation_snap": True,
            "tags": ["Divider"],
        },
        {"position": {"x": 3.0, "y": 1.16, "z": 4.0}, "tags": ["Pitch"]},
    ]


@pytest.mark.parametrize("variant", [None, "family"])
def test_each_boards_spec_is_the_layout_it_is_drawn_from(variant: str | None) -> None:
    """The image cache keys a picture by its spec and ``render/``'s code only: each board the
    game draws (its drawing code lives with the game), each grid board and each track has the
    layout it is drawn from in its spec, so the spec alone (with ``render_layout``) gives the
    very picture."""
    from tts_builder.definition import load_definition
    from tts_builder.games.ark_and_noah.boards import board_pictures
    from tts_builder.render.layout import render_layout
    from tts_builder.variants import with_variant

    definition = load_definition("ark-and-noah")
    base = definition.base_data
    data = with_variant(base, variant)
    from tts_builder.games.ark_and_noah.ark import with_grids
    from tts_builder.plugin import TableHooks
    from tts_builder.table.assemble import with_tracks

    own = TableHooks(pictures=board_pictures(base, data, rules_config(data, variant)))
    # and those of the manifest's grid and tracks
    pictures = with_tracks(data, "table", with_grids(data, "table", own)).pictures
    assert set(pictures) >= {"ark-bow", "ark-stern", "action-board", "score-track"}
    for name, drawn in pictures.items():
        spec = json.loads(json.dumps(drawn.spec))  # JSON, as the cache key is made of it
        elements, size, fields = spec["layout" if "layout" in spec else "track"]
        from_spec = render_layout(elements, tuple(size), fields)
        if "box" in spec:  # a grid's section: a window onto the whole grid drawn once
            from_spec = from_spec.crop(tuple(spec["box"]))
        assert image_digest(from_spec) == image_digest(drawn.make()), name
