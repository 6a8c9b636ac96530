"""The Ark & Noah definition: it loads, its variant merges, bad edits fail on one located line."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from rules_ref import ark_and_noah as ref
from tts_builder.definition import ASSETS_ROOT, load_definition
from tts_builder.errors import DefinitionError
from tts_builder.games.ark_and_noah.rules import action_texts, rules_config
from tts_builder.games.ark_and_noah.tiles import tile_list
from tts_builder.save.tables import HAND_PLACEMENTS

GAME = "ark-and-noah"


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    shutil.copytree(ASSETS_ROOT / GAME, tmp_path / GAME)
    return tmp_path


def edit(assets: Path, old: str, new: str) -> None:
    path = assets / GAME / "game.yaml"
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def error_for(assets: Path) -> str:
    with pytest.raises(DefinitionError) as info:
        load_definition(GAME, assets)
    message = str(info.value)
    assert "\n" not in message and "game.yaml:" in message
    return message


def test_the_bundled_definition_loads_with_its_family_variant() -> None:
    definition = load_definition(GAME)
    assert definition.players == (2, 4)
    assert definition.variants == ["family"]
    standard = rules_config(definition.data)
    family = rules_config(definition.data, "family")
    assert standard == ref.make_config(definition.data)
    assert family["variant"] == "family" and family["turn_mode"] == "seats"
    assert [a["id"] for a in family["actions"]] == [
        "animals", "trading", "wood", "building", "loading",
    ]  # fmt: skip


def test_each_action_s_words_print_the_rule_numbers_they_name() -> None:
    data = load_definition(GAME).data
    standard = action_texts(rules_config(data))
    assert standard["trading"] == "a bonus, then swap two dividers or draw 3 animals"
    assert standard["pitch"] == "take pitch cubes"
    family = action_texts(rules_config(data, "family"))
    assert list(family) == ["animals", "trading", "wood", "building", "loading"]
    assert family["trading"] == "+1 VP, then draw 3 animals; may swap one"
    more = {**data, "rules": {**data["rules"], "trading": {**data["rules"]["trading"], "draws": 4}}}
    assert action_texts(rules_config(more, "family"))["trading"].endswith(
        "draw 4 animals; may swap one"
    )


def test_every_shown_animal_has_a_picture_and_the_lions_differ() -> None:
    data = load_definition(GAME).data
    tiles = tile_list(data)
    assert len(tiles) == 2 * len(data["species"]) == 52
    assert [t["tile"] for t in tiles] == list(range(52))
    lion, lioness = (t for t in tiles if t["species"] == "Lion")
    assert (lion["name"], lioness["name"]) == ("Lion", "Lioness")
    assert lion["art"] != lioness["art"]
    others = [t for t in tiles if t["species"] != "Lion"]
    assert all(t["art"] == u["art"] for t, u in zip(others[::2], others[1::2], strict=True))
    assert {t["mark"] for t in tiles} == {"", "3+", "4"}


def test_seats_run_clockwise_round_the_table_each_at_its_own_tts_seat() -> None:
    """Seat order is the clockwise turn order (RULINGS §2): the seats' areas go once round the
    table in the same sense as TTS's seats White, Red, Orange, Yellow, Green, Blue, Purple, Pink
    (FORMAT §5.2), and each area lies at the hand zone of its own colour, facing the same way."""
    data = load_definition(GAME).data
    table = data["table"]
    zones = HAND_PLACEMENTS[table["type"]]  # TTS's seats, in their (clockwise) order
    assert list(zones)[:3] == ["White", "Red", "Orange"]
    cx = sum(pos[0] for pos, _, _ in zones.values()) / len(zones)
    cz = sum(pos[2] for pos, _, _ in zones.values()) / len(zones)

    def steps(points: list[tuple[float, float]]) -> list[float]:
        """The turn (degrees, > 0 = TTS's sense) from each point to the next, round to the first."""
        angles = [math.degrees(math.atan2(z - cz, x - cx)) for x, z in points]
        return [(a - b) % 360 for a, b in zip(angles, angles[1:] + angles[:1], strict=True)]

    tts = steps([(pos[0], pos[2]) for pos, _, _ in zones.values()])
    assert all(0 < s < 180 for s in tts) and sum(tts) == pytest.approx(360)  # one lap
    high = data["players"]["max"]
    seats = table["seats"][:high]
    assert [s["color"] for s in seats] == [c["name"] for c in data["colors"][:high]]
    for n in range(max(3, data["players"]["min"]), high + 1):  # 2 seats are always in order
        around = steps([tuple(s["area"]) for s in seats[:n]])
        assert all(s > 0 for s in around) and sum(around) == pytest.approx(360), (n, around)
    for seat in seats:
        x, z = seat["area"]
        nearest = min(zones, key=lambda c: math.dist((x, z), (zones[c][0][0], zones[c][0][2])))
        assert nearest == seat["color"], seat
        facing = zones[seat["color"]][1][1]
        assert abs((seat["facing"] - facing + 180) % 360 - 180) <= 1, seat


def test_counter_clockwise_seats_are_refused(assets: Path) -> None:
    """Green, Yellow, Red, Blue (Red and Green swapped in `colors` and `table.seats`) runs
    counter-clockwise on Table_RPG."""
    path = assets / GAME / "game.yaml"
    lines = path.read_text().split("\n")
    for key in ("name", "color"):
        red, green = (
            next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"- {{{key}: {c},"))
            for c in ("Red", "Green")
        )
        lines[red], lines[green] = lines[green], lines[red]
    path.write_text("\n".join(lines))
    assert "table.seats: seats must run clockwise round Table_RPG" in error_for(assets)


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("  bonus_max: 4", "  bonus_max: four", "rules.bonus_max: expected an integer"),
        (
            "    food_lp: 1\n",
            "    food_lp: 1\n    food_cost: 2\n",
            "rules.loading.food_cost: unknown key",
        ),
        (
            "{players: [3], seats: [[pitch], [taming], [food]]}",
            "{players: [3], seats: [[pitch], [taming], [fishing]]}",
            "rules.first_round_spaces[1].seats[2][0]: no action space 'fishing'",
        ),
        (
            "      - {players: [3], layout: [bow, middle, stern]}\n",
            "",
            "rules.ark.sections: no entry for 3 players",
        ),
        (
            "      turn_mode: seats",
            "      turn_mode: sometimes",
            "variants.family.rules.turn_mode: expected one of worker, seats",
        ),
        ("  Lioness: art/lioness.png\n", "", "art: no picture for 'Lioness'"),
        (
            "  Lioness: art/lioness.png\n",
            "  Lioness: art/lioness.png\n  Noah: art/lion.png\n",
            "art.Noah: 'Noah' is not one of the names the tiles show",
        ),
        (
            "    - {id: forest, name: Forest, kind: gain, resource: dividers,",
            "    - {id: forest, name: Forest, kind: gain,",
            "rules.actions[4]: a gain action needs resource",
        ),
        (
            "characters: [Noah, Shem, Ham, Japheth]",
            "characters: [Noah, Shem, Ham]",
            "characters: expected at least 4 entries (players.max), got 3",
        ),
        (
            "  - {name: Dove, size: 0, vp: 0}",
            "  - {name: Raven, size: 0, vp: 0}",
            "species[1].name: species 'Raven' listed twice",
        ),
        (
            "  Hippo: art/hippo.png",
            "  Hippo: art/hippopotamus.png",
            "art.Hippo: art file not found",
        ),
        (
            "    - {color: Yellow, area: [-23.5, 1.0], facing: 90}",
            "    - {color: Yellow, area: [-23.5, 1.0], facing: 270}",
            "table.seats[1].facing: Yellow's hand zone on Table_RPG faces 90, not 270",
        ),
        (
            "    - {id: trading, name: Trading, kind: trade, shared: false,",
            "    - {id: taming, name: Trading, kind: trade, shared: false,",
            "rules.actions[3].id: action 'taming' listed twice",
        ),
        (
            "or draw {rules.trading.draws} animals",
            "or draw {rules.trading.draw} animals",
            "rules.actions[3].text: the definition has no key 'rules.trading.draw'",
        ),
        (
            "then draw {rules.trading.draws} animals; may swap one",
            "then draw {trading.draws} animals; may swap one",
            "variants.family.rules.actions[1].text: the definition has no key 'trading.draws'",
        ),
        (
            "    workers: {kind: worker, origin:",
            "    workers: {kind: meeple, origin:",
            "table.area_slots.workers.kind: no piece of kind 'meeple' with a thickness",
        ),
        (
            "    food: {kind: food, origin: [2.4, -0.6], step: [0.5, 0.0], per_line: 6,",
            "    food: {kind: food, origin: [2.4, -0.6], step: [0.5, 0.0], per_line: 0,",
            "table.area_slots.food.per_line: expected",
        ),
        (
            "    dividers: 3\n    pitch: 2\n    food: 2",
            "    dividers: 3\n    pitch: 20\n    food: 2",
            "rules.setup.pitch: 2 players need 40, the supply has 36",
        ),
    ],
)
def test_bad_edits_fail_on_one_located_line(assets: Path, old: str, new: str, where: str) -> None:
    edit(assets, old, new)
    assert where in error_for(assets)


def test_a_seat_of_another_colour_is_every_problem_it_makes_in_one_run(assets: Path) -> None:
    """Purple where Yellow sits: not the colours' order, not clockwise, and Purple's hand zone
    faces elsewhere, all said at once."""
    old = "    - {color: Yellow, area: [-23.5, 1.0], facing: 90}"
    edit(assets, old, old.replace("Yellow", "Purple"))
    with pytest.raises(DefinitionError) as info:
        load_definition(GAME, assets)
    lines = str(info.value).splitlines()
    assert lines[0].endswith("game.yaml: 3 problems")
    assert "table.seats: seats must follow `colors`" in lines[1]
    assert "table.seats: seats must run clockwise" in lines[2]
    assert "table.seats[1].facing: Purple's hand zone on Table_RPG faces 270, not 90" in lines[3]


def test_the_ark_is_the_grid_named_ark(assets: Path) -> None:
    """The game's code reads the grid ``ark``: another name is refused where it is written."""
    edit(assets, "  grids:\n    ark:\n", "  grids:\n    boat:\n")
    with pytest.raises(DefinitionError) as info:
        load_definition(GAME, assets)
    message = str(info.value)
    assert "table.grids.ark: missing required key" in message
    assert "table.grids.boat: unknown key (known keys: ark)" in message


def test_a_bad_layout_names_its_element(assets: Path) -> None:
    edit(assets, "box: [96, 12, 160, 60], size: 44", "box: [96, 12, 300, 60], size: 44")
    assert "components.animal.unpaired[8].box" in error_for(assets)
