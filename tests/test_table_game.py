"""What a manifest game shares beyond laying its pieces (tts_builder.table): the seats and card
spots its script uses, positions on the cells its board prints, pictures drawn from rule data,
and the whole build (tts_builder.table.game)."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tts_builder import geometry as geo
from tts_builder.build import BuildOptions, ImageSet
from tts_builder.definition import load_definition
from tts_builder.errors import FieldError
from tts_builder.games import prototype
from tts_builder.render import ArtFiles
from tts_builder.save import GuidAllocator
from tts_builder.save.tables import HAND_PLACEMENTS
from tts_builder.schema import validate
from tts_builder.table import MANIFEST as MANIFEST_SPEC
from tts_builder.table import Art, Table, check_manifest, lay_table, script_context
from tts_builder.table.art import die_picture, layout_picture, rule_die
from tts_builder.table.game import Sheet, build_table_game
from tts_builder.table.layout import card_spots, seat_context
from tts_builder.table.preview import preview, thumbnail, thumbnail_faces

MANIFEST: dict[str, Any] = {
    "type": "Table_RPG",
    "anchors": {"deck": [10.0, 2.0], "set-aside": [14, 2]},
    "seats": [
        {"color": "White", "facing": 0, "reveal": [1.0, -9.0], "mat": [3, -9]},
        {"color": "Green", "facing": 180, "reveal": [-1.0, 9.0], "mat": [-3, 9]},
    ],
}


def test_the_seats_as_a_script_sees_them() -> None:
    white, green = seat_context(MANIFEST, {"reveal": 1.2})
    pos, rot, _scale = HAND_PLACEMENTS["Table_RPG"]["White"]
    assert white == {
        "slot": 1,
        "color": "White",
        "facing": 0.0,
        "upright": 180.0,
        "hand": [float(v) for v in pos],
        "reveal": [1.0, 1.2, -9.0],
    }
    assert (green["slot"], green["facing"], green["upright"]) == (2, 180.0, 0.0)
    assert green["reveal"] == [-1.0, 1.2, 9.0] and "mat" not in green
    # a seat that names no facing faces the way its hand zone does
    (plain,) = seat_context({"type": "Table_RPG", "seats": ["White"]}, {})
    assert plain["facing"] == float(rot[1]) and plain["upright"] == geo.reader_rot_y(rot[1])


def test_card_spots_at_anchors_and_seat_points() -> None:
    positions = {"deck": {"anchor": "deck", "y": 1.0}, "aside": {"anchor": "set-aside", "y": 1}}
    found = card_spots(MANIFEST, positions, {"reveal": 1.2, "mat": 1.0})
    assert [p.label for p in found] == [
        "deck",
        "set aside",
        "White reveal",
        "White mat",
        "Green reveal",
        "Green mat",
    ]
    deck, _aside, white_reveal, _white_mat, green_reveal, green_mat = found
    assert (deck.at, deck.rot_y, deck.size, deck.kind) == (
        (10.0, 1.0, 2.0),
        180.0,
        geo.PORTRAIT_CARD,
        "card",
    )
    assert white_reveal.at == (1.0, 1.2, -9.0) and white_reveal.rot_y == 180.0
    assert green_reveal.rot_y == 360.0 and green_mat.at == (-3.0, 1.0, 9.0)


def test_a_die_drawn_from_rule_data() -> None:
    style = {"size": 96, "background": "#1f4e79"}
    picture = die_picture(["1", "2", "3", "4", "sun", "water"], style, "components.die")
    assert picture.faces == ("1", "2", "3", "4", "sun", "water")
    assert picture.spec == {"die": list(picture.faces), "style": style}
    assert picture.make().size == (96, 96)


def test_a_die_whose_faces_are_a_rules_key() -> None:
    style = {"size": 96, "background": "#1f4e79"}
    data = {
        "rules": {"dice": {"faces": [0, 1, 2, 3, 4, "sun"]}},
        "components": {"d": {"style": style}},
    }
    picture = rule_die(data, "d", "rules.dice.faces")
    assert picture.faces == ("0", "1", "2", "3", "4", "sun")  # labels, written once in the rules
    assert picture.spec == die_picture(list(picture.faces), style, "components.d").spec
    with pytest.raises(FieldError, match=r"^components\.d: the definition has no key"):
        rule_die(data, "d", "rules.dice.sides")
    data["rules"]["dice"]["faces"] = [1, 2, 3]
    with pytest.raises(FieldError, match=r"^components\.d: 'rules\.dice\.faces' is not a list"):
        rule_die(data, "d", "rules.dice.faces")


def test_a_layout_drawn_with_the_game_s_fields(tmp_path: Path) -> None:
    layout = [{"type": "rect", "box": [0, 0, 40, 20], "fill": "{ink}"}]
    picture = layout_picture(layout, (40, 20), {"ink": "#ff0000"}, ArtFiles(tmp_path), "card")
    assert picture.spec["layout"]["fields"] == {"ink": "#ff0000"}
    drawn = picture.make()
    assert drawn.mode == "RGB" and drawn.getpixel((20, 10)) == (255, 0, 0)


@pytest.fixture(scope="module")
def prototype_definition() -> Any:
    return load_definition("prototype")


def prototype_context(data: dict[str, Any], table: Table) -> dict[str, Any]:
    """The prototype's scripts' context, as its own assemble makes it."""
    return {
        "game": {"id": "prototype", "name": data["name"]},
        "config": prototype.rules_config(data),
        "players": dict(data["players"]),
        "score": data["table"].get("score"),
        **table.context,
    }


def test_the_shared_build_makes_what_the_prototype_s_own_assemble_makes(
    prototype_definition: Any, tmp_path: Path
) -> None:
    definition = prototype_definition
    options = BuildOptions(out_dir=tmp_path)
    cache: dict[str, bytes] = {}  # the second build draws nothing the first drew
    own = prototype.assemble(definition, ImageSet("prototype", options, cache), options)
    data = definition.data
    title = (data["name"], data.get("description", ""))
    shared, table = build_table_game(
        definition,
        ImageSet("prototype", options, cache),
        lambda table: prototype_context(data, table),
        title=title,
        sheet=Sheet(),
    )
    assert shared.files == own.files
    assert shared.positions == own.positions == table.positions
    assert set(table.guids) == {p["id"] for p in data["table"]["pieces"]}


def test_the_sheet_s_pictures_game_mode_and_snap_points(
    prototype_definition: Any, tmp_path: Path
) -> None:
    """The thumbnail fans the first ``sheet.shown`` faces that are no card back (a manifest
    without ``thumbnail``), the preview lays every face by the sheet's columns and cell size;
    the game mode and the snap points the game computes go into the save after the
    manifest's."""
    definition = prototype_definition
    options = BuildOptions(out_dir=tmp_path)
    ours = {"Position": {"x": 1.0, "y": 1.0, "z": 2.0}}
    build, table = build_table_game(
        definition,
        ImageSet("prototype", options, {}),
        lambda table: prototype_context(definition.data, table),
        title=("Prototype (family)", "a note"),
        sheet=Sheet(shown=2, columns=3, cell_max=120),
        game_mode="Prototype",
        snap_points=[ours],
    )
    assert "thumbnail" not in definition.data["table"]
    art = Art(definition.root, definition.data["components"], ImageSet("prototype", options, {}))
    assert lay_table(definition.data, art, GuidAllocator("prototype")).faces == table.faces
    fanned = thumbnail_faces(table, 2)
    assert len(fanned) == 2 and all(face[2] != "back" for face in fanned)
    assert build.files["prototype.png"] == thumbnail(art, "Prototype (family)", fanned)
    assert build.files["preview.png"] == preview(table, art, 3, 120)
    default = Art(
        definition.root, definition.data["components"], ImageSet("prototype", options, {})
    )
    lay_table(definition.data, default, GuidAllocator("prototype"))
    assert build.files["preview.png"] != preview(table, default)  # the sheet's, not the default
    assert (build.save["SaveName"], build.save["GameMode"]) == ("Prototype (family)", "Prototype")
    assert build.save["SnapPoints"][-1] == ours
    assert build.save["SnapPoints"][:-1] == table.snap_points


def test_the_manifest_s_thumbnail_names_the_faces_it_fans(
    prototype_definition: Any, tmp_path: Path
) -> None:
    """``thumbnail: [label, ...]``: each label's first face that is no card back, in that
    order; a seat's face is named for the seat ("Red pawn"); a label no face has is refused."""
    definition = prototype_definition
    options = BuildOptions(out_dir=tmp_path)
    images = ImageSet("prototype", options, {})
    art = Art(definition.root, definition.data["components"], images)
    table = lay_table(definition.data, art, GuidAllocator("prototype"))
    labels = [face[0] for face in table.faces]
    assert "Red pawn" in labels and not any("{" in label for label in labels)
    picked = thumbnail_faces(table, labels=["Red pawn", "Rose", "Weather die: Sun"])
    assert [face[0] for face in picked] == ["Red pawn", "Rose", "Weather die: Sun"]
    assert [face[2] for face in picked] == ["face", "face", "die"]
    assert thumbnail_faces(table, 2) == [f for f in table.faces if f[2] != "back"][:2]
    with pytest.raises(FieldError) as err:
        thumbnail_faces(table, labels=["Rose", "Orchid"])
    assert (err.value.field, err.value.detail) == (
        "table.thumbnail[1]",
        "no face on the table is labelled 'Orchid'",
    )
    data = copy.deepcopy(definition.data)
    data["table"]["thumbnail"] = ["Rose", "Tulip"]
    validate(MANIFEST_SPEC, data["table"], "table")
    build, _table = build_table_game(
        replace(definition, doc=replace(definition.doc, data=data)),
        images,
        lambda table: prototype_context(data, table),
        title=(data["name"], ""),
    )
    fresh = ImageSet("prototype", options, {})
    fresh_art = Art(definition.root, data["components"], fresh)
    shown = [next(f for f in table.faces if f[0] == label) for label in ("Rose", "Tulip")]
    assert build.files["prototype.png"] == thumbnail(fresh_art, data["name"], shown)


def test_script_names_the_objects_and_spots_the_lua_addresses() -> None:
    manifest = {
        "anchors": {"deck": [17.5, 2]},
        "script": {
            "guids": {
                "board": {"first": "board"},
                "deck": {"first": "cards"},
                "pieces": "animals",
                "dice": ["symbol-dice", "dice"],
                "flood_dice": "dice",
            },
            "positions": {"deck": {"anchor": "deck", "y": 1.0}},
        },
    }
    laid = {"board": ["b1"], "animals": ["a1", "a2"], "dice": ["d1", "d2"]}
    assert script_context(manifest, laid) == {
        "guids": {
            "board": "b1",
            "deck": "",  # left off this build
            "pieces": ["a1", "a2"],
            "dice": ["d1", "d2"],  # no symbol dice: the number dice
            "flood_dice": ["d1", "d2"],
        },
        "positions": {"deck": [17.5, 1.0, 2.0]},
    }
    assert script_context({}, laid) == {"guids": {}, "positions": {}}
    seats = script_context({**MANIFEST, "script": {"seats": {"reveal": 1.2}}}, laid)["seats"]
    assert seats == seat_context(MANIFEST, {"reveal": 1.2})


def test_script_groups_a_piece_s_guids_by_seat_or_by_number() -> None:
    """A piece at every seat lays as many at each, seat by seat in the manifest's order."""
    manifest = {
        "seats": ["White", "Red", "Blue"],
        "script": {
            "guids": {
                "pawns": {"by_seat": "pawns"},
                "hero": {"first_by_seat": "heroes"},
                "bonus": {"numbered": "bonus-bags"},
                "none": {"by_seat": "ghosts"},  # left off this build
            }
        },
    }
    laid = {
        "pawns": ["a1", "a2", "b1", "b2", "c1", "c2"],
        "heroes": ["h1", "h2", "h3"],
        "bonus-bags": ["g1", "g2"],
    }
    assert script_context(manifest, laid)["guids"] == {
        "pawns": {"White": ["a1", "a2"], "Red": ["b1", "b2"], "Blue": ["c1", "c2"]},
        "hero": {"White": "h1", "Red": "h2", "Blue": "h3"},
        "bonus": {"1": "g1", "2": "g2"},
        "none": {"White": [], "Red": [], "Blue": []},
    }


def test_by_seat_names_only_a_piece_laid_at_every_seat(prototype_definition: Any) -> None:
    data = copy.deepcopy(prototype_definition.data)
    data["table"]["script"] = {"guids": {"dice": {"by_seat": "weather-die"}}}
    validate(MANIFEST_SPEC, data["table"], "table")
    with pytest.raises(FieldError) as err:
        check_manifest(data)
    assert err.value.field == "table.script.guids.dice"
    assert "'weather-die' is not laid at every seat" in err.value.detail
    data["table"]["pieces"][3]["at"] = {"seat": [0, 4]}
    check_manifest(data)  # one die in front of each seat


@pytest.mark.parametrize(
    ("script", "field", "message"),
    [
        (
            {"guids": {"deck": {"first": "cards"}}},
            "table.script.guids.deck",
            "unknown piece 'cards'",
        ),
        ({"guids": {"dice": ["garden", "dice"]}}, "table.script.guids.dice[1]", "unknown piece"),
        (
            {"positions": {"deck": {"anchor": "pile", "y": 1}}},
            "table.script.positions.deck.anchor",
            "unknown anchor 'pile' (the manifest's anchors: middle, supply)",
        ),
        ({"guids": {"x": {"last": "garden"}}}, "table.script.guids.x.last", "unknown key"),
        ({"guids": {"x": {"group": {"a": "garden"}}}}, "table.script.guids.x.group", "unknown key"),
        (
            {"guids": {"x": {"numbered": "gardens"}}},
            "table.script.guids.x",
            "unknown piece 'gardens'",
        ),
        (
            {"positions": {"deck": {"anchor": "middle"}}},
            "table.script.positions.deck.y",
            "missing required key",
        ),
        (
            {"seats": {"reveal": 1.2}},
            "table.script.seats.reveal",
            "not a point every seat names: 'reveal'",
        ),
    ],
)
def test_script_names_only_pieces_and_anchors_of_the_manifest(
    prototype_definition: Any, script: dict[str, Any], field: str, message: str
) -> None:
    data = copy.deepcopy(prototype_definition.data)
    data["table"]["script"] = script
    with pytest.raises(FieldError) as err:
        validate(MANIFEST_SPEC, data["table"], "table")
        check_manifest(data)
    assert err.value.field == field and message in err.value.detail
