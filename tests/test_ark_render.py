"""Ark & Noah pictures and geometry: the grid in pixels and on the table, the boards, the tiles,
and the build's outputs per player count."""

from __future__ import annotations

import io
import json

import pytest
from conftest import build
from PIL import Image

from rules_ref import ark_and_noah as ref
from tts_builder.build import lint_build
from tts_builder.render import ark, image_digest
from tts_builder.save import loads
from tts_builder.save.checker import check_save

STYLE = {
    "wood": "#8a5a2b",
    "plank": "#6b4320",
    "deck": "#c9a46c",
    "square": "#e8d3a6",
    "line": "#4a2e12",
    "label": "#b8966a",
    "pitch": "#2b2b2b",
}


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


def test_pixels_of_squares_edges_and_pitch_fields() -> None:
    g = ark.ArkGeometry(3, 8, square=100, margin=40, prow=120)
    assert g.size == (2 * 120 + 800, 2 * 40 + 300)
    assert g.square_px(0, 0) == (170.0, 90.0)
    x, y, angle = g.edge_px("h:1:2")  # between squares (0, 2) and (1, 2)
    assert (x, y, angle) == (g.square_px(0, 2)[0], 140.0, 0.0)
    assert g.edge_px("v:2:8") == (920.0, 290.0, 90.0)  # the right hull
    assert g.pitch_px("p:0:0") == (100.0, 20.0)  # outside the corner, in the margin
    assert g.pitch_px("p:3:4") == (520.0, 360.0)
    points = ark.ark_points(g)
    assert len(points["edges"]) == len(ref.edge_names(3, 8))
    assert len(points["squares"]) == 24


def test_table_positions_keep_the_grid_square() -> None:
    g = ark.ArkGeometry(3, 8)
    u = 1.5 / g.square
    pts = ark.ark_table_points(g, (2.0, -1.0), u)
    a, b = pts["squares"]["0:0"], pts["squares"]["0:1"]
    c = pts["squares"]["1:0"]
    assert b[0] - a[0] == pytest.approx(1.5) and a[1] - c[1] == pytest.approx(1.5)
    assert pts["edges"]["v:0:1"][:2] == [pytest.approx((a[0] + b[0]) / 2), pytest.approx(a[1])]
    assert pts["edges"]["v:0:1"][2] == 90.0 and pts["edges"]["h:0:0"][2] == 0.0
    centre = ark.px_to_table((g.size[0] / 2, g.size[1] / 2), g.size, (2.0, -1.0), u)
    assert centre == (2.0, -1.0)
    assert ark.tile_scale(g.size, u) == pytest.approx(g.size[1] * u / 2)


def test_board_spots_and_score_track_cells() -> None:
    for count in (7, 5):
        spots = ark.board_spots(count)
        assert len(spots) == count
        xs = [s.current[0] for s in spots]
        assert xs == sorted(xs) and all(0 < x < ark.BOARD_SIZE[0] for x in xs)
        assert all(s.completed[1] < s.current[1] for s in spots)
    cells = [ark.score_cell_px(v) for v in range(100)]
    assert len(set(cells)) == 100
    for a, b in zip(cells, cells[1:], strict=False):  # the track snakes: neighbours touch
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == ark.SCORE_CELL
    assert ark.score_cell_px(100) == ark.score_cell_px(0)
    assert ark.score_cell_px(-3) == ark.score_cell_px(0)


# --------------------------------------------------------------------------- pictures


def test_sections_join_into_the_whole_ark() -> None:
    g = ark.ArkGeometry(3, 16, square=60, margin=24, prow=70)
    sections = ark.render_ark_sections(g, 4, STYLE)
    assert {k: v.size for k, v in sections.items()} == {
        "bow": (70 + 240, 228),
        "middle": (240, 228),
        "stern": (240 + 70, 228),
    }
    assembled = ark.render_ark(["bow", "middle", "middle", "stern"], g, 4, STYLE)
    assert assembled.size == g.size
    # the seam between the two middle sections continues the grid line and the pitch fields
    seam = 70 + 2 * 240
    left = assembled.crop((seam - 3, 0, seam, 228))
    right = assembled.crop((seam, 0, seam + 3, 228))
    assert image_digest(left.transpose(Image.Transpose.FLIP_LEFT_RIGHT)) == image_digest(right)
    # squares are light, grid lines dark
    px = assembled.getpixel((int(g.square_px(1, 5)[0] + 20), int(g.square_px(1, 5)[1] + 20)))
    line = assembled.getpixel((int(g.edge_px("v:1:5")[0]), int(g.edge_px("v:1:5")[1])))
    assert sum(px[:3]) > 3 * 180 and sum(line[:3]) < 3 * 100


def test_tiles_show_sex_colour_and_paired_side(built: object) -> None:
    data = built.definition.data
    colours = data["tile_colors"]
    unpaired = picture(built, "images/animals-unpaired.png")
    paired = picture(built, "images/animals-paired.png")
    assert unpaired.size == paired.size
    size = data["components"]["animal"]["size"][0]
    cols = unpaired.width // size

    def at(img: Image.Image, tile: int) -> tuple[int, ...]:
        row, col = divmod(tile, cols)
        return img.getpixel((col * size + 12, row * size + 128))

    def rgb(hex_colour: str) -> tuple[int, ...]:
        return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))

    for tile in (0, 1, 34, 35):  # raven male/female, lion, lioness
        sex = "male" if tile % 2 == 0 else "female"
        assert at(unpaired, tile) == rgb(colours[sex])
        assert at(paired, tile) == rgb(colours["paired"])
    slot = [
        unpaired.crop(
            ((t % cols) * size, (t // cols) * size, (t % cols + 1) * size, (t // cols + 1) * size)
        )
        for t in (34, 35)
    ]
    assert image_digest(slot[0]) != image_digest(slot[1])


def test_board_texts_follow_the_rule_numbers(built: object) -> None:
    from tts_builder.games.ark_and_noah import action_texts, rules_config

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
    assert standard.size == family.size == ark.BOARD_SIZE
    assert image_digest(standard) != image_digest(family)


# --------------------------------------------------------------------------- the build


def test_a_save_per_player_count_each_checker_clean(built: object) -> None:
    lint_build(built)
    names = set(built.files)
    for n in (2, 3, 4):
        assert {f"ark-and-noah-{n}p.json", f"ark-and-noah-{n}p.png"} <= names
        save = loads(built.files[f"ark-and-noah-{n}p.json"], f"{n}p")
        assert check_save(save) == []
        assert save["PlayerCounts"] == [n, n]
    assert built.save == loads(built.files["ark-and-noah-4p.json"], "4p")
    assert {
        "scripts/Global.lua",
        "scripts/2p/Global.lua",
        "scripts/3p/Global.lua",
        "preview.png",
    } <= names
    assert built.files["scripts/Global.lua"].decode() == built.global_script


def test_pictures_are_shared_by_player_counts_and_the_family_game(built: object) -> None:
    urls = {}
    for n in (2, 3, 4):
        save = loads(built.files[f"ark-and-noah-{n}p.json"], f"{n}p")
        urls[n] = {
            o["CustomImage"]["ImageURL"].rsplit("/", 1)[1]
            for o in save["ObjectStates"]
            if "CustomImage" in o
        }
        arks = [o for o in save["ObjectStates"] if "Ark" in o.get("Tags", [])]
        assert len(arks) == n  # one section per player
    assert urls[2] <= urls[4] and urls[3] <= urls[4]
    family = build("ark-and-noah", variant="family")
    assert family.rendered <= 2  # only the family's shorter round track is new
    again = build("ark-and-noah")
    assert again.rendered == 0 and again.files == built.files


def test_tiles_in_the_bags_carry_what_the_script_reads(built: object) -> None:
    save = loads(built.files["ark-and-noah-2p.json"], "2p")
    bags = [o for o in save["ObjectStates"] if "AnimalBag" in o.get("Tags", [])]
    tiles = [c for b in bags for c in b["ContainedObjects"]]
    tiles += [o for o in save["ObjectStates"] if "Animal" in o.get("Tags", [])]
    notes = [json.loads(t["GMNotes"]) for t in tiles]
    assert len(notes) == 2 * 18
    assert all(n["kind"] == "animal" and n["sex"] in ("male", "female") for n in notes)
    assert all(t["CustomDeck"]["1"]["UniqueBack"] for t in tiles)
