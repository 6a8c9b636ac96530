"""Whole games of the built flood race on the emulated table, in lockstep with rules_ref.

Setup's chance (start hexes, the deal) is observed on the table and replayed into
``rules_ref.arche_noah_flood.FloodGame``; every die is scripted through the table's dice queue
and applied to the reference too; the players' moves come from the reference's policy and are
made on the table by dropping pieces on hexes (or into the Ark zone) and pressing the UI.
After every action the pieces, the flood tiles, the flood marker, the points and the players
still in must match the reference; each game ends as the reference's does.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from typing import Any

import pytest
from conftest import SESSION_CACHE, build

from rules_ref import arche_noah_flood as F
from tts_builder.build import BuildOptions, GameBuild, build_game
from tts_builder.definition import load_definition
from tts_builder.emulator import EmulatedTable
from tts_builder.games.arche_noah_flood import rules_config, table_positions
from tts_builder.render.hexmap import hex_name
from tts_builder.save.tables import RPG_HAND_PLACEMENTS

GAME = "arche-noah-flood"
DEFINITION = load_definition(GAME)
DATA = DEFINITION.data
POS = table_positions(DATA)
ROWS, COLS = POS["rows"], POS["cols"]
SEATS = [seat["color"] for seat in DATA["table"]["seats"]]
Dice = Callable[[str], str]  # phase ("roll" or "flood") -> a face


@pytest.fixture(scope="module")
def base() -> GameBuild:
    return build(GAME)


@pytest.fixture(scope="module")
def junior() -> GameBuild:
    return build(GAME, variant="junior")


@pytest.fixture(scope="module")
def distinct() -> GameBuild:
    return build(GAME, variant="distinct-species")


#: The default map with two swamps added in the last rows: (8, 0) becomes a dead end for every
#: animal but the hippo (no step back there, swamp ahead and beside).
TRAP_ROWS = {8: "PSPPSPFPPPPF", 9: "SPPFPPPFPPPP"}


@pytest.fixture(scope="module")
def trap(tmp_path_factory: pytest.TempPathFactory) -> GameBuild:
    root = tmp_path_factory.mktemp("assets")
    shutil.copytree(DEFINITION.root, root / GAME)
    path = root / GAME / "game.yaml"
    text = path.read_text(encoding="utf-8")
    for r, row in TRAP_ROWS.items():
        old = DATA["map"]["terrain"][r]
        text = text.replace(f"    - {old}\n", f"    - {row}\n", 1)
    path.write_text(text, encoding="utf-8")
    result = build_game(GAME, BuildOptions(), SESSION_CACHE, root)
    assert [result.definition.data["map"]["terrain"][r] for r in TRAP_ROWS] == list(
        TRAP_ROWS.values()
    )
    return result


def nearest_hex(x: float, z: float) -> tuple[int, int] | None:
    best = min(
        range(ROWS * COLS),
        key=lambda i: (POS["hexes"][i][0] - x) ** 2 + (POS["hexes"][i][1] - z) ** 2,
    )
    hx, hz = POS["hexes"][best]
    if (hx - x) ** 2 + (hz - z) ** 2 > 1e-6:
        return None
    return divmod(best, COLS)


def in_ark(x: float, z: float) -> bool:
    zx, _y, zz, zw, _h, zd = POS["ark_zone"]
    return abs(x - zx) <= zw / 2 and abs(z - zz) <= zd / 2


class Game:
    """One table, one reference state, and the glue between them."""

    def __init__(self, build: GameBuild, players: int, seed: int, variant: str | None = None):
        self.build = build
        self.colors = SEATS[:players]
        self.n = players
        self.variant = variant
        self.seed = seed
        config = rules_config(build.definition.data, variant)
        self.game = F.FloodGame(config, players, "junior" if variant == "junior" else "standard")
        self.state = self.game.new_initial_state()
        guids = {}
        for obj in build.save["ObjectStates"]:
            if "Animal" in obj.get("Tags", []) and obj["Name"] == "Custom_Token":
                guids[json.loads(obj["GMNotes"])["piece"]] = obj["GUID"]
        self.pieces = [guids[i] for i in range(len(guids))]
        self.table = self.new_table(build.save)

    def new_table(self, save: dict[str, Any]) -> EmulatedTable:
        table = EmulatedTable(save, seed=self.seed, images=self.build.files)  # strict
        table.seat(self.colors)
        table.load()
        return table

    # ---- observing the table ---------------------------------------------------------------

    def script_state(self) -> dict[str, Any]:
        return json.loads(self.table.save_state()["LuaScriptState"])

    def piece_places(self) -> list[Any]:
        """Each piece's hex ([r, c]) or "ark", read from where it stands on the table."""
        places: list[Any] = []
        for guid in self.pieces:
            x, _y, z = self.table.object(guid)["position"]
            if in_ark(x, z):
                places.append(F.ARK)
            else:
                hex_ = nearest_hex(x, z)
                assert hex_ is not None, f"piece {guid} stands off the hexes at {(x, z)}"
                places.append(list(hex_))
        return places

    def flood_tiles(self) -> list[tuple[int, int]]:
        tiles = []
        for obj in self.table.objects():
            if "FloodTile" in obj["tags"] and obj["type"] == "Token":
                hex_ = nearest_hex(obj["position"][0], obj["position"][2])
                assert hex_ is not None
                tiles.append(hex_)
        return tiles

    def hand_card(self, color: str) -> dict[str, Any]:
        x, _y, z = RPG_HAND_PLACEMENTS[color][0]
        (card,) = [
            o
            for o in self.table.objects()
            if "AnimalCard" in o["tags"]
            and abs(o["position"][0] - x) < 0.01
            and abs(o["position"][2] - z) < 0.01
        ]
        return card

    def check(self) -> None:
        """The table shows what the reference state says."""
        state = self.state
        assert self.piece_places() == state.positions
        tiles = self.flood_tiles()
        assert len(tiles) == len(set(tiles))
        assert set(tiles) == set(state.flooded())
        marker = self.table.object(role_guids(self.build)["marker"])
        count = min(state.flood_count(), ROWS * COLS)
        mx, mz = POS["markers"][count]
        assert marker["position"][::2] == pytest.approx((mx, mz))
        if state.phase == "move":
            points = self.table.ui_value("points")
            assert f", {state.points} left" in points, points
            assert ("| sun:" in points) == (state.sun > 0), points
        if not state.is_terminal() and not state.is_chance_node():
            assert self.table.ui_value("status").startswith(self.colors[state.active] + ":")
        for seat, color in enumerate(self.colors):
            text = self.table.ui_value(f"seat_{SEATS.index(color) + 1}_state")
            if seat in state.winners or (state.outcome == "won" and self.game.junior):
                assert text == "wins"
            else:
                assert text.startswith("out") == state.out[seat], (seat, text)
        assert self.table.dice_left == 0
        assert not self.table.errors
        assert not [b for b in self.table.broadcasts if "missing from the table" in b["message"]]

    # ---- chance ------------------------------------------------------------------------------

    def setup(self) -> None:
        """Press Setup and replay its chance (start hexes, cards) into the reference."""
        self.table.click_ui(self.colors[0], "setup")
        places = self.piece_places()
        starts = [list(s) for s in self.game.board.starts]
        for place in places:
            self.state.apply_action(starts.index(place))
        if not self.game.junior:
            for color in self.colors:
                animal = json.loads(self.hand_card(color)["gm_notes"])["animal"]
                self.state.apply_action(self.game.species.index(animal))
        assert self.state.phase == "roll"
        self.check()

    def roll(self, state: F.FloodState, dice: Dice) -> list[str]:
        """Apply one roll of the players' dice to ``state``; the faces used."""
        used = []
        for _ in range(self.game.dice_count):
            face = dice("roll")
            used.append(face)
            state.apply_action(self.game.faces.index(face))
        return used

    def flood(self, state: F.FloodState, dice: Dice) -> list[str]:
        """Apply the flood's rolls while ``state`` is in its flood phase; the faces used."""
        used = []
        while state.phase == "flood":
            face = dice("flood")
            used.append(face)
            state.apply_action(self.game.flood_faces.index(face))
        return used

    # ---- acting ------------------------------------------------------------------------------

    def act(self, action: int, dice: Dice) -> None:
        """Make ``action`` (a roll at a roll node) on the table and in the reference.

        The dice the table will roll (the player's, then the flood's when the round ends at
        once) are queued first, in the order the reference uses them.
        """
        state = self.state
        color = self.colors[state.active]
        rolling = state.phase == "roll"
        if rolling:
            queued = self.roll(state, dice)
        else:
            state.apply_action(action)
            queued = []
        self.table.queue_dice(*queued, *self.flood(state, dice))
        if rolling:
            self.table.click_ui(color, "roll")
        elif action == F.END_TURN:
            self.table.click_ui(color, "end_turn")
        else:
            pool, piece, dest = self.game.decode_action(action)
            if pool == F.POOL_SUN:
                self.table.click_ui(color, "use_sun")
            self.table.drop(color, self.pieces[piece], self.drop_point(dest))
        self.check()

    @staticmethod
    def drop_point(dest: Any) -> list[float]:
        if dest == F.ARK:
            zx, zy, zz, *_ = POS["ark_zone"]
            return [zx, zy, zz]
        x, z = POS["hexes"][dest[0] * COLS + dest[1]]
        return [x, 2.0, z]

    def play(
        self,
        policy: Callable[[F.FloodState], int],
        dice: Dice,
        max_actions: int = 2000,
        reload_at: int | None = None,
    ) -> None:
        for step in range(max_actions):
            if self.state.is_terminal():
                return
            action = 0 if self.state.phase == "roll" else policy(self.state)
            self.act(action, dice)
            if step == reload_at:
                self.table = self.new_table(self.table.save_state())
                self.check()
        raise AssertionError("the game did not end")


def role_guids(build: GameBuild) -> dict[str, str]:
    """The GUIDs the script was given, by role."""
    guids = {}
    for obj in build.save["ObjectStates"]:
        for tag, role in (("FloodMarker", "marker"), ("FloodBag", "bag")):
            if tag in obj.get("Tags", []):
                guids[role] = obj["GUID"]
    return guids


def dice_stream(
    seed: int, roll_faces: list[str] | None = None, flood_faces: list[str] | None = None
) -> Dice:
    """Scripted dice: players' dice from ``roll_faces``, the flood's from ``flood_faces``."""
    rng = random.Random(seed)
    number = [str(f) for f in DATA["rules"]["dice"]["faces"]]

    def next_face(phase: str) -> str:
        pool = (roll_faces if phase == "roll" else flood_faces) or number
        return rng.choice(pool)

    return next_face


def simulate(game: Game, policy: Callable[[F.FloodState], int], dice: Dice) -> F.FloodState:
    """Play the reference alone from the game's current state, with the same dice order."""
    state = game.state.clone()
    for _ in range(5000):
        if state.is_terminal():
            return state
        if state.phase == "roll":
            game.roll(state, dice)
        elif state.phase == "flood":
            game.flood(state, dice)
        else:
            state.apply_action(policy(state))
    raise AssertionError("simulation did not end")


def find_dice(
    game: Game,
    policy: Callable[[F.FloodState], int],
    want: Callable[[str], bool],
    make: Callable[[int], Dice],
    tries: int = 300,
) -> int:
    """The first dice seed whose game (from the current state) ends as ``want`` says."""
    for seed in range(tries):
        end = simulate(game, policy, make(seed))
        if want(end.outcome or ""):
            return seed
    raise AssertionError("no dice seed gives that ending")


def idle(state: F.FloodState) -> int:
    """Players who never move an animal."""
    return F.END_TURN


def careless(state: F.FloodState) -> int:
    """Walk an animal into a hex it cannot leave towards the Ark, if one is in reach."""
    game = state.game
    for action in sorted(state.move_costs()):
        _pool, piece, dest = game.decode_action(action)
        if dest != F.ARK and dest not in game.ark_map(game.species_of(piece), state.flood_count()):
            return action
    return F.cooperative_policy(state)


# ------------------------------------------------------------------------------ the tests


def test_setup_places_animals_deals_cards_and_lays_out_the_table(base: GameBuild) -> None:
    game = Game(base, 4, seed=3)
    table = game.table
    assert table.ui_active("setup") and not table.ui_active("roll")
    game.setup()
    places = game.piece_places()
    starts = [list(s) for s in DATA["map"]["starts"]]
    assert len({tuple(p) for p in places}) == len(places) and all(p in starts for p in places)
    for color in game.colors:  # one secret card in each seated player's hand, face down
        card = game.hand_card(color)
        assert card["face_down"]
    deck = [o for o in table.objects() if o["type"] == "Deck"]
    assert deck and deck[0]["quantity"] == 10 - 4
    assert table.ui_active("roll") and table.ui_value("status") == "White: press Roll."
    assert not table.ui_active("setup")
    assert any(
        b["message"].startswith("The animals stand on their stone circles")
        for b in table.broadcasts
    )


def test_setup_refuses_a_wrong_player_count(base: GameBuild) -> None:
    game = Game(base, 3, seed=1)
    game.table.seat(["White", "Red"])
    game.table.click_ui("White", "setup")
    assert any("needs 3-5" in b["message"] for b in game.table.broadcasts)
    assert game.table.ui_active("setup")


def test_distinct_species_deals_every_player_a_different_species(distinct: GameBuild) -> None:
    game = Game(distinct, 5, seed=11, variant="distinct-species")
    game.setup()
    animals = [json.loads(game.hand_card(c)["gm_notes"])["animal"] for c in game.colors]
    assert sorted(animals) == sorted(game.game.species)
    assert any("set aside" in b["message"] for b in game.table.broadcasts)


def test_roll_moves_costs_and_refusals(base: GameBuild) -> None:
    game = Game(base, 3, seed=5)
    game.setup()
    table, state = game.table, game.state
    before = len(table.broadcasts)
    table.click_ui("Red", "roll")  # not Red's turn
    assert table.broadcasts[before]["to"] == "Red"
    game.table.queue_dice("4", "3")
    game.state.apply_action(4)
    game.state.apply_action(3)
    table.click_ui("White", "roll")
    assert "White rolls 4 + 3: 7 movement points." in [b["message"] for b in table.broadcasts]
    assert table.ui_value("points") == "Points: 7 rolled, 0 spent, 7 left"
    # A move the reference allows: its cost is shown and the running total kept.
    moves = state.move_costs()
    action, cost = min(((a, c) for a, c in moves.items() if c < 7), key=lambda m: (-m[1], m[0]))
    _pool, piece, dest = game.game.decode_action(action)
    game.act(action, dice_stream(0))
    assert table.ui_value("points") == f"Points: 7 rolled, {cost} spent, {7 - cost} left"
    assert f"costs {cost} ({cost} of 7 spent" in table.broadcasts[-1]["message"]
    # Onto an occupied hex: refused with the reason, the piece goes back.
    mover = next(i for i, p in enumerate(state.positions) if p != list(dest))
    before = len(table.broadcasts)
    table.drop("White", game.pieces[mover], game.drop_point(dest))
    assert "is taken by the" in table.broadcasts[before]["message"]
    assert table.broadcasts[before]["to"] == "White"
    game.check()
    # Someone else's piece moved by the wrong player: refused.
    table.drop("Red", game.pieces[mover], game.drop_point([ROWS - 1, 0]))
    assert table.broadcasts[-1]["message"] == "It is White's turn."
    game.check()
    # Off the board: refused.
    table.drop("White", game.pieces[mover], [40.0, 2.0, 40.0])
    assert "Drop the animal on a hex" in table.broadcasts[-1]["message"]
    # A camel may not enter swamp.
    camel = game.game.species.index("Camel") * game.game.per_species
    swamp = next(
        (r, c)
        for r in range(ROWS)
        for c in range(COLS)
        if DATA["map"]["terrain"][r][c] == "S" and [r, c] not in state.positions
    )
    table.drop("White", game.pieces[camel], game.drop_point(list(swamp)))
    assert table.broadcasts[-1]["message"] == (
        f"The Camel may not enter swamp ({hex_name(*swamp)})."
    )
    game.check()
    # Too expensive: a hex the camel could reach, but not with the points left.
    occupied = [p for i, p in enumerate(state.positions) if i != camel]
    far = next(
        (h, cost)
        for r in range(ROWS)
        for c in range(COLS)
        if (h := [r, c]) not in state.positions
        and (
            cost := F.move_cost(
                game.game.config,
                {
                    "animal": "Camel",
                    "from": state.positions[camel],
                    "to": h,
                    "occupied": occupied,
                    "flooded": [],
                },
            )["cost"]
        )
        is not None
        and cost > state.points
    )
    table.drop("White", game.pieces[camel], game.drop_point(far[0]))
    assert table.broadcasts[-1]["message"] == (
        f"That move costs {far[1]} points; {state.points} of 7 are left."
    )
    game.check()
    game.act(F.END_TURN, dice_stream(0))
    assert table.ui_value("status") == "Red: press Roll."


def test_flood_rounds_lay_tiles_exactly_on_the_flooded_hexes(base: GameBuild) -> None:
    game = Game(base, 3, seed=8)
    game.setup()
    dice = dice_stream(2, roll_faces=["0"])  # nobody moves; the flood rolls at random
    rounds = 0
    while not game.state.is_terminal() and rounds < 2:
        start_round = game.state.round
        action = 0 if game.state.phase == "roll" else F.END_TURN
        game.act(action, dice)
        if game.state.round > start_round:
            rounds += 1
            assert set(game.flood_tiles()) == set(game.state.flooded())
    assert rounds == 2 or game.state.is_terminal()
    assert game.state.flood_count() > 0
    flood_msgs = [
        b["message"] for b in game.table.broadcasts if b["message"].startswith("Flood roll")
    ]
    assert len(flood_msgs) >= 3


def test_a_won_game_with_eliminations(base: GameBuild) -> None:
    game = Game(base, 4, seed=21)
    game.setup()
    make = lambda s: dice_stream(s, roll_faces=["3", "4", "5"])  # noqa: E731
    seed = find_dice(game, F.cooperative_policy, lambda o: o == "won", make)
    game.play(F.cooperative_policy, make(seed), reload_at=25)
    state, table = game.state, game.table
    assert state.outcome == "won"
    last = state.arrived[-1]
    names = [game.colors[s] for s in state.winners]
    final = table.broadcasts[-1]["message"]
    assert final.startswith(f"The {last} boarded last: ")
    assert all(name in final for name in names)
    outs = [b["message"] for b in table.broadcasts if b["message"].endswith(" and is out.")]
    assert outs  # eliminations happened, each revealing the card face up
    for seat, color in enumerate(game.colors):
        if state.out[seat] and seat not in state.winners:
            assert f"{color} holds the {state.cards[seat]} and is out." in outs
    revealed = [o for o in table.objects() if "AnimalCard" in o["tags"] and not o["face_down"]]
    assert len(revealed) == sum(state.out)
    assert table.ui_value("status") == final


def test_a_game_lost_to_drowning(base: GameBuild) -> None:
    game = Game(base, 3, seed=4)
    game.setup()
    make = lambda s: dice_stream(s, roll_faces=["0"], flood_faces=["4", "5"])  # noqa: E731
    seed = find_dice(game, idle, lambda o: o.startswith("drowned"), make, tries=20)
    game.play(idle, make(seed))
    outcome = game.state.outcome
    assert outcome.startswith("drowned: ")
    animal = outcome.split(": ")[1].split(" at ")[0]
    r, c = (int(v) for v in outcome.split("(")[1].rstrip(")").split(", "))
    final = game.table.broadcasts[-1]["message"]
    assert final == f"The {animal} on {hex_name(r, c)} drowned: the flood wins, everybody loses."
    assert game.script_state()["outcome"] == outcome


def test_a_game_lost_to_a_cut_off_animal(trap: GameBuild) -> None:
    game = Game(trap, 3, seed=9)
    game.setup()
    make = lambda s: dice_stream(s)  # noqa: E731
    seed = find_dice(game, careless, lambda o: o.startswith("cut off"), make, tries=20)
    game.play(careless, make(seed))
    outcome = game.state.outcome
    assert outcome.startswith("cut off: ")
    animal = outcome.split(": ")[1].split(" at ")[0]
    r, c = (int(v) for v in outcome.split("(")[1].rstrip(")").split(", "))
    assert game.table.broadcasts[-1]["message"] == (
        f"The {animal} on {hex_name(r, c)} is cut off from the Ark: "
        "the flood wins, everybody loses."
    )
    assert game.script_state()["outcome"] == outcome


def test_junior_game_with_symbol_dice(junior: GameBuild) -> None:
    game = Game(junior, 3, seed=6, variant="junior")
    game.setup()
    assert not any("AnimalCard" in o["tags"] for o in game.table.objects())
    faces = [str(f) for f in DATA["rules"]["junior"]["dice"]["faces"]]
    make = lambda s: dice_stream(s, roll_faces=faces)  # noqa: E731
    seed = find_dice(game, F.cooperative_policy, lambda o: o == "won", make)
    game.play(F.cooperative_policy, make(seed))
    assert game.state.outcome == "won"
    assert (
        game.table.broadcasts[-1]["message"] == "All animals are safe in the Ark: everybody wins!"
    )
    messages = [b["message"] for b in game.table.broadcasts]
    assert any("sun (one animal up to 2 hexes)" in m for m in messages)
    assert any("water (the flood moves 4 hexes)" in m for m in messages)
    assert any(": the sun moves the " in m for m in messages)
