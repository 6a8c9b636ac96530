"""The built Ark & Noah tables on the emulated TTS table, for 2, 3 and 4 players and the family
variant: setup, Phase I with bonuses and turn order, enclosures from dividers dropped on the Ark,
loading checked against rules_ref, the round end, the Deluge and final scoring.

Positions are set up the way a game in progress would have them: a fixture takes pieces out of
the supply bags and lays them on the Ark or in an area before the table loads; everything else
is done by dropping pieces and clicking the UI, as players do.
"""

from __future__ import annotations

import json
import math
import re
import shutil
from typing import Any

import pytest
from conftest import SESSION_CACHE, build

from rules_ref import ark_and_noah as ref
from tts_builder.build import BuildOptions, build_game
from tts_builder.definition import ASSETS_ROOT
from tts_builder.emulator import EmulatedTable
from tts_builder.games.ark_and_noah.areas import area_slot, area_slots, thickness_by_kind
from tts_builder.games.ark_and_noah.ark import grid_plan
from tts_builder.games.ark_and_noah.boards import action_spaces
from tts_builder.games.ark_and_noah.rules import rules_config
from tts_builder.save import loads
from tts_builder.table.layout import BOARD_TOP
from tts_builder.table.printed import track_cells, track_seats

STEP_RE = re.compile(r"^Now: (\w+): ([\w ]+?)(?: \(|;)")


@pytest.fixture(scope="module")
def standard() -> Any:
    return build("ark-and-noah")


@pytest.fixture(scope="module")
def family() -> Any:
    return build("ark-and-noah", variant="family")


@pytest.fixture(scope="module")
def short_game(tmp_path_factory: pytest.TempPathFactory) -> dict[str | None, Any]:
    """Builds whose game may end after one round (a designer's change to ``end.min_rounds``)."""
    root = tmp_path_factory.mktemp("assets")
    shutil.copytree(ASSETS_ROOT / "ark-and-noah", root / "ark-and-noah")
    path = root / "ark-and-noah" / "game.yaml"
    text = path.read_text()
    text = text.replace("min_rounds: 10", "min_rounds: 1").replace(
        "min_rounds: 8,", "min_rounds: 1,"
    )
    path.write_text(text)
    return {
        v: build_game("ark-and-noah", BuildOptions(variant=v), SESSION_CACHE, assets_root=root)
        for v in (None, "family")
    }


# --------------------------------------------------------------------------- the fixture


class Game:
    """One table of a build seated for ``n`` players (the first ``n`` colours, or ``colours``),
    set up by pressing Setup; ``edit`` then changes the table (as a game in progress would have
    it) through a save and reload."""

    def __init__(
        self,
        built: Any,
        n: int,
        edit: Any = None,
        colours: list[str] | None = None,
        seed: int | None = None,
        set_up: bool = True,
        strict: bool = True,
    ) -> None:
        self.built = built
        self.n = n
        self.data = built.definition.data
        everyone = [c["name"] for c in self.data["colors"]]
        self.seated = colours or everyone[:n]
        self.colours = [c for c in everyone if c in self.seated]  # the players, in seat order
        self.config = rules_config(self.data, built.variant)
        low, high = self.data["players"]["min"], self.data["players"]["max"]
        self.plan = grid_plan(self.data, "ark", min(max(n, low), high))  # the Ark in play
        self.spaces = action_spaces(self.data, self.config)
        self.save = loads(built.files["ark-and-noah.json"], "save")
        by_colour = {s["color"]: s for s in self.data["table"]["seats"]}
        self.seats = [by_colour[c] for c in self.colours]
        self.seed = n if seed is None else seed
        self.strict = strict
        self.table = self.open(self.save, self.seed)
        if set_up:
            self.setup()
        if edit is not None:
            self.save = self.table.save_state()
            edit(self)
            self.table = self.open(self.save, self.seed + 100)

    def open(self, save: dict[str, Any], seed: int) -> EmulatedTable:
        table = EmulatedTable(save, seed=seed, images=self.built.files, strict=self.strict)
        table.seat(self.seated)
        table.load()
        return table

    # -- editing the saved table before it loads again -----------------------------------------

    def _bag(self, nickname: str) -> dict[str, Any]:
        return next(o for o in self.save["ObjectStates"] if o["Nickname"] == nickname)

    def take(self, nickname: str, match: Any = None) -> dict[str, Any]:
        """Take a piece out of a bag (the first one matching ``match(gm_notes)``)."""
        bag = self._bag(nickname)
        for i, item in enumerate(bag["ContainedObjects"]):
            if match is None or match(json.loads(item["GMNotes"])):
                return bag["ContainedObjects"].pop(i)
        raise LookupError(f"nothing to take from {nickname}")

    def lay(self, item: dict[str, Any], xyz: list[float], rot_y: float = 0.0) -> str:
        t = item["Transform"]
        t["posX"], t["posY"], t["posZ"], t["rotY"] = (*map(float, xyz), rot_y)
        if item not in self.save["ObjectStates"]:
            self.save["ObjectStates"].append(item)
        return item["GUID"]

    def on_ark(self, xz: list[float], lift: float = 0.0) -> list[float]:
        return [xz[0], BOARD_TOP + lift, xz[1]]

    def divider_on(self, edge: str, colour: str) -> str:
        x, z, angle = self.plan.edges[edge]
        return self.lay(self.take(f"{colour} dividers"), self.on_ark([x, z]), angle)

    def food_on(self, square: str) -> str:
        return self.lay(self.take("Food supply"), self.on_ark(self.plan.cells[square]))

    def pitch_on(self, field: str) -> str:
        return self.lay(self.take("Pitch supply"), self.on_ark(self.plan.hull[field]))

    def tile(self, species: str, sex: str) -> dict[str, Any]:
        """An animal tile's object, loose or in its bag."""
        for item in self.save["ObjectStates"]:
            notes = json.loads(item["GMNotes"] or "{}")
            if notes.get("species") == species and notes.get("sex") == sex:
                return item
        bag = "Male animals" if sex == "male" else "Female animals"
        return self.take(bag, lambda n: n["species"] == species and n["sex"] == sex)

    def give_tile(self, species: str, sex: str, colour: str, slot: int = 5) -> str:
        seat = self.seats[self.colours.index(colour)]
        at = area_slot(seat, "animals", slot, area_slots(self.data["table"]))
        return self.lay(self.tile(species, sex), at, seat["facing"] + 180)

    def give(self, colour: str, nickname: str, count: int) -> list[str]:
        """Extra pieces from a supply bag into a seat's area (dividers, food or pitch), after
        the ones already there."""
        seat = self.seats[self.colours.index(colour)]
        kind = {"Food supply": "food", "Pitch supply": "pitch"}.get(nickname, "dividers")
        tag = {"food": "Food", "pitch": "Pitch", "dividers": "Divider"}[kind]
        have = sum(
            1
            for o in self.save["ObjectStates"]
            if tag in o.get("Tags", [])
            and self.area_of({"position": [o["Transform"]["posX"], 0, o["Transform"]["posZ"]]})
            == colour
        )
        return [
            self.lay(
                self.take(nickname),
                area_slot(seat, kind, have + k, area_slots(self.data["table"])),
                seat["facing"] + 180,
            )
            for k in range(count)
        ]

    # -- reading and driving the table ---------------------------------------------------------

    def objects(self, tag: str) -> list[dict[str, Any]]:
        return [o for o in self.table.objects() if tag in o["tags"]]

    def status(self) -> str:
        return self.table.ui_value("status") or ""

    def vp(self) -> dict[str, int]:
        slots = [s["color"] for s in self.data["table"]["seats"]]  # the panel has a row each
        return {c: int(self.table.ui_value(f"seat_{slots.index(c) + 1}_vp")) for c in self.colours}

    def messages(self, since: int = 0) -> list[str]:
        return [b["message"] for b in self.table.broadcasts[since:]]

    def area_of(self, o: dict[str, Any]) -> str | None:
        """The colour whose area holds an object, or None."""
        w, d = self.data["table"]["area_size"]
        for colour, seat in zip(self.colours, self.seats, strict=True):
            a = math.radians(seat["facing"])
            dx, dz = o["position"][0] - seat["area"][0], o["position"][2] - seat["area"][1]
            right = dx * math.cos(a) - dz * math.sin(a)
            forward = dx * math.sin(a) + dz * math.cos(a)
            if abs(right) <= w / 2 and abs(forward) <= d / 2:
                return colour
        return None

    def in_area(self, colour: str, tag: str) -> list[dict[str, Any]]:
        return [o for o in self.objects(tag) if self.area_of(o) == colour]

    def in_area_any(self, o: dict[str, Any]) -> bool:
        return self.area_of(o) is not None

    def setup(self) -> None:
        self.table.click_ui(self.colours[0], "setup")
        assert not self.table.errors, self.table.errors

    def drop_on(self, colour: str, guid: str, xz: list[float]) -> None:
        self.table.drop(colour, guid, [xz[0], BOARD_TOP + 0.5, xz[1]])

    def place_workers(self, wishes: dict[str, list[str]]) -> None:
        """Phase I: each player in turn drops a worker on their first free wished space."""
        spaces = {s["id"]: s for s in self.spaces}
        taken: set[str] = set()
        placed: set[str] = set()
        workers = len(self.objects("Worker"))
        while self.status().startswith("Phase I: ") and len(placed) < workers:
            who = self.status().split()[2]
            space = next(s for s in wishes[who] + list(spaces) if s not in taken)
            worker = next(
                o
                for o in self.objects("Worker")
                if json.loads(o["gm_notes"])["color"] == who and o["guid"] not in placed
            )
            self.drop_on(who, worker["guid"], spaces[space]["current"])
            taken.add(space)
            placed.add(worker["guid"])

    def script(self) -> dict[str, Any]:
        """The glue's state S, as onSave stores it."""
        return json.loads(self.table.call_global("onSave"))

    def done(self, colour: str) -> None:
        """``colour`` presses the Done button the panel shows (two take turns, step by step)."""
        self.table.click_ui(colour, "done" if self.table.ui_active("done") else "done_b")

    def take_drawn(self, colour: str, guid: str | None = None) -> None:
        """``colour`` drags a drawn animal (the first one, or ``guid``) into their area."""
        guid = guid or self.script()["drawn"][0]
        seat = self.seats[self.colours.index(colour)]
        taken = [o["position"] for o in self.table.objects()]
        for k in range(60):  # the first free place for an animal in the area
            x, y, z = area_slot(seat, "animals", k, area_slots(self.data["table"]))
            if all((p[0] - x) ** 2 + (p[2] - z) ** 2 > 0.5 for p in taken):
                self.table.drop(colour, guid, [x, y + 0.5, z])
                return
        raise AssertionError(f"no free place in {colour}'s area")

    def picker(self) -> str:
        """Who takes a drawn animal now in a taming step ("" for nobody), by rules_ref."""
        s = self.script()
        step = s["steps"][s["step"] - 1]
        return ref.taming_picks(self.config, {
            "space": step["space"], "occupant": step["color"],
            "turn_order": s.get("turn_order") or s["colors"], "draws_left": s["draws_left"],
            "taken": s["taken"], "left": len(s["drawn"]),
        })["picker"]  # fmt: skip

    def hand(self, colour: str) -> list[int]:
        """The tiles in ``colour``'s area."""
        return sorted(json.loads(o["gm_notes"])["tile"] for o in self.in_area(colour, "Animal"))

    def finish(self, colour: str) -> None:
        """Finish ``colour``'s step as a player would with the least: taming's draws and picks,
        Trading's VP bonus, then the draws (or a swap) and a required exchange; then Done."""
        s = self.script()
        kind = s["steps"][s["step"] - 1]["kind"] if s.get("steps") else None
        if kind == "tame":
            while self.table.ui_active("draw_male"):
                self.draw(colour)
            while picker := self.picker():
                self.take_drawn(picker)
        elif kind == "trade":
            if self.table.ui_active("trade_vp"):
                self.table.click_ui(colour, "trade_vp")
            while self.table.ui_active("draw_male"):
                self.draw(colour)
            before = len(self.table.broadcasts)
            self.done(colour)
            told = " ".join(self.messages(before))
            if "Exchange one of your animals" in told:
                self.exchange(colour)
            elif "Swap two dividers" in told:
                self.swap(colour)
            else:
                return
        self.done(colour)

    def draw(self, colour: str) -> None:
        """``colour`` draws a male, or a female when the male bag is empty."""
        before = len(self.table.broadcasts)
        self.table.click_ui(colour, "draw_male")
        if "bag is empty" in " ".join(self.messages(before)):
            self.table.click_ui(colour, "draw_female")

    def exchange(self, colour: str) -> None:
        """``colour`` gives an animal rules_ref allows for the first drawn one."""
        s = self.script()
        in_play = [json.loads(o["gm_notes"])["tile"] for o in self.objects("Animal")
                   if self.in_area_any(o) or o["guid"] in s["on_ark"]]  # fmt: skip
        gives = ref.exchange(
            self.config,
            {"hand": self.hand(colour), "in_play": in_play, "drawn": [], "give": -1, "take": -1},
        )["gives"]
        give = next(
            o
            for o in self.in_area(colour, "Animal")
            if json.loads(o["gm_notes"])["tile"] == gives[0]
        )
        target = self.table.object(s["drawn"][0])
        self.table.drop(colour, give["guid"], list(target["position"]))

    def swap(self, colour: str) -> None:
        """``colour`` drops a divider on the Ark onto one of another colour."""
        on = [o for o in self.objects("Divider") if o["guid"] in self.script()["on_ark"]]
        a = on[0]
        b = next(o for o in on if json.loads(o["gm_notes"])["color"]
                 != json.loads(a["gm_notes"])["color"])  # fmt: skip
        self.table.drop(colour, a["guid"], list(b["position"]))

    def step(self) -> tuple[str, str] | None:
        m = STEP_RE.match(self.status())
        return (m.group(1), m.group(2)) if m else None

    def until(self, colour: str, action: str) -> None:
        """Press Done for every step before ``colour``'s ``action`` step."""
        for _ in range(40):
            now = self.step()
            if now == (colour, action):
                return
            assert now is not None, self.status()
            self.finish(now[0])
        raise AssertionError(f"never reached {colour} {action}: {self.status()}")

    def done_all(self) -> None:
        """Press Done until no step is left (end of the round or of the Deluge)."""
        for _ in range(60):
            now = self.step()
            if now is None and not self.status().startswith("Deluge: "):
                return
            colour = now[0] if now else self.status().split()[1]
            self.finish(colour)
        raise AssertionError(self.status())

    def ark_input(self) -> dict[str, Any]:
        """The Ark as rules_ref reads it, from the pieces on the table."""
        pts = self.plan

        def nearest(spots: dict[str, list[float]], o: dict[str, Any]) -> str | None:
            x, z = o["position"][0], o["position"][2]
            for name, p in spots.items():
                if (p[0] - x) ** 2 + (p[1] - z) ** 2 < 0.2:
                    return name
            return None

        dividers = []
        for o in self.objects("Divider"):
            edge = nearest(pts.edges, o)
            if edge:
                dividers.append({"edge": edge, "color": json.loads(o["gm_notes"])["color"]})
        pitch = [f for o in self.objects("Pitch") if (f := nearest(pts.hull, o))]
        food = [
            list(map(int, s.split(":")))
            for o in self.objects("Food")
            if (s := nearest(pts.cells, o))
        ]
        return {
            "rows": pts.rows,
            "cols": pts.cols,
            "dividers": dividers,
            "pitch": pitch,
            "food": food,
        }


def enclosure_edges(rows: int, cols: int, squares: list[tuple[int, int]]) -> list[str]:
    """The boundary edges of a set of squares."""
    grid = ref._grid(rows, cols)
    idx = {r * cols + c for r, c in squares}
    edges = set()
    for sq in idx:
        for e in grid.square_edges[sq]:
            sides = grid.sides[grid.index[e]]
            if not all(s in idx for s in sides) or len(sides) == 1:
                edges.add(e)
    return sorted(edges, key=grid.index.__getitem__)


# --------------------------------------------------------------------------- setup


def test_one_save_seats_every_colour_before_setup(standard: Any) -> None:
    game = Game(standard, 4, set_up=False)
    table = game.table
    hands = [o for o in table.objects() if o["type"] == "Hand"]
    assert len(hands) == 4
    assert game.status() == "Sit at Red, Yellow, Green, Blue (2-4 players), then press Setup."
    assert [o["nickname"] for o in game.objects("Ark")] == [
        "Ark: bow", "Ark: middle", "Ark: middle", "Ark: stern",
    ]  # fmt: skip
    bags = [o for o in table.objects() if "AnimalBag" in o["tags"]]
    assert sum(len(b["contained"]) for b in bags) == 2 * len(game.config["species"])
    assert game.objects("Animal") == []  # nothing dealt before Setup
    assert not table.errors


@pytest.mark.parametrize(
    ("seated", "reason"),
    [(["Red"], "1 seated there"), (["Blue"], "1 seated there")],
)
def test_setup_needs_two_to_four_seated_players(
    standard: Any, seated: list[str], reason: str
) -> None:
    game = Game(standard, 4, colours=seated, set_up=False)
    game.table.click_ui(seated[0], "setup")
    assert game.table.ui_active("setup")
    assert any(reason in m for m in game.messages())
    assert game.objects("Animal") == []
    assert not game.table.errors


@pytest.mark.parametrize(
    "colours",
    [
        ["Red", "Yellow"],
        ["Red", "Green"],
        ["Yellow", "Blue"],
        ["Red", "Yellow", "Green"],
        ["Yellow", "Green", "Blue"],
        ["Red", "Yellow", "Green", "Blue"],
    ],
)
def test_setup_lays_out_the_table_for_the_seated_players(standard: Any, colours: list[str]) -> None:
    n = len(colours)
    game = Game(standard, n, colours=colours, set_up=False)
    config, table = game.config, game.table
    game.setup()
    assert not table.ui_active("setup")
    assert f"Ark & Noah: {n} players ({', '.join(colours)})." in game.messages()
    # the Ark of n sections, where the script's spots are
    rows, cols = ref.ark_shape(config, n)
    assert (game.plan.rows, game.plan.cols) == (rows, cols)
    layout = ref.for_players(config["ark"]["sections"], n)["layout"]
    sections = game.objects("Ark")
    assert sorted(o["nickname"] for o in sections) == sorted(f"Ark: {k}" for k in layout)
    plan = game.plan
    want = sorted((round(b.transform.pos[0], 3), k) for k, b in plan.sections)
    assert sorted((round(o["position"][0], 3), o["nickname"][5:]) for o in sections) == want
    # only this player count's species are in play; every one of them is there
    species = {s["name"] for s in config["species"] if s.get("min_players", 0) <= n}
    bags = {o["nickname"]: o for o in table.objects() if "AnimalBag" in o["tags"]}
    loose = [json.loads(o["gm_notes"]) for o in game.objects("Animal")]
    for name, sex in (("Male animals", "male"), ("Female animals", "female")):
        inside = [json.loads(c["gm_notes"]) for c in bags[name]["contained"]]
        assert {t["sex"] for t in inside} == {sex}
        assert {t["species"] for t in inside + loose if t["sex"] == sex} == species
        assert len(inside) + sum(1 for t in loose if t["sex"] == sex) == len(species)
    setup = config["setup"]
    for colour in colours:
        hand = [json.loads(o["gm_notes"]) for o in game.in_area(colour, "Animal")]
        assert (
            sorted(t["sex"] for t in hand)
            == ["female"] * setup["females"] + ["male"] * setup["males"]
        )
        assert len({t["species"] for t in hand}) == len(hand)  # no starting pair
        assert len(game.in_area(colour, "Divider")) == setup["dividers"]
        assert len(game.in_area(colour, "Food")) == setup["food"]
        assert len(game.in_area(colour, "Pitch")) == setup["pitch"]
        # each at its own place of the area, where the build's AREA_SLOTS say
        seat = game.seats[colours.index(colour)]
        for tag, kind in (("Animal", "animals"), ("Divider", "dividers"), ("Food", "food")):
            got = sorted(
                tuple(round(v, 3) for v in o["position"]) for o in game.in_area(colour, tag)
            )
            want = sorted(
                tuple(round(v, 3) for v in area_slot(seat, kind, k, area_slots(game.data["table"])))
                for k in range(len(got))
            )
            assert got == want, (colour, tag)
    assert game.vp() == dict.fromkeys(colours, 0)
    supply = {o["nickname"]: o["quantity"] for o in table.objects() if "Supply" in o["tags"]}
    assert set(supply) == {f"{c} dividers" for c in colours} | {"Food supply", "Pitch supply"}
    for colour in colours:
        assert (
            supply[f"{colour} dividers"]
            == config["supply"]["dividers_per_color"] - setup["dividers"]
        )
    assert supply["Food supply"] == config["supply"]["food"] - n * setup["food"]
    assert supply["Pitch supply"] == config["supply"]["pitch"] - n * setup["pitch"]
    everyone_seats = [s["color"] for s in game.data["table"]["seats"]]
    # nobody else's pieces stay; the workers start on the rules' completed-action spaces
    owners = {json.loads(o["gm_notes"])["color"] for o in game.objects("Worker")}
    owners |= {json.loads(o["gm_notes"])["color"] for o in game.objects("Score")}
    assert owners == set(colours) and len(game.objects("Character")) == n
    cells = track_cells(game.data, "score-track")
    for o in game.objects("Score"):  # each marker on 0, in its own seat's corner
        slot = everyone_seats.index(json.loads(o["gm_notes"])["color"])
        dx, dz = track_seats(game.data, "score-track")[slot]
        x, z = cells[0][0] + dx, cells[0][1] + dz
        assert math.dist((o["position"][0], o["position"][2]), (x, z)) < 1e-3
        assert o["position"][1] == pytest.approx(BOARD_TOP)
    seats = ref.for_players(config["first_round_spaces"], n)["seats"]
    spaces = {s["id"]: s for s in game.spaces}
    for colour, wanted in zip(colours, seats, strict=True):
        at = sorted(
            next(
                i
                for i, s in spaces.items()
                if abs(s["completed"][0] - o["position"][0]) < 0.01
                and abs(s["completed"][1] - o["position"][2]) < 0.01
            )
            for o in game.objects("Worker")
            if json.loads(o["gm_notes"])["color"] == colour
        )
        assert at == sorted(wanted)
    ids = [a["id"] for a in config["actions"]]
    first = min(zip(colours, seats, strict=True), key=lambda cw: min(map(ids.index, cw[1])))[0]
    assert game.status() == f"Phase I: {first} places a worker on an action space."
    # the panel lists only the players
    shown = [i for i in range(1, 5) if table.ui_active(f"seat_{i}")]
    everyone = [s["color"] for s in game.data["table"]["seats"]]
    assert shown == [everyone.index(c) + 1 for c in colours]
    assert not table.errors


def test_seated_colours_without_a_seat_are_told_they_are_not_playing(standard: Any) -> None:
    """The strict table seats only colours with a HandTrigger; whether TTS lets a player take
    another colour is not established, so the script tells them (on a lenient table)."""
    game = Game(standard, 3, colours=["Red", "White", "Green"], set_up=False, strict=False)
    game.setup()
    assert "Not playing (no seat in this game): White." in game.messages()
    assert game.table.ui_value("order") == "Turn order: Red, Green"
    assert not game.table.errors


@pytest.mark.parametrize("n", [2, 4])
def test_starting_animals_are_dealt_at_random_by_setup(standard: Any, n: int) -> None:
    hands = set()
    for seed in range(4):
        game = Game(standard, n, seed=seed)
        hand = tuple(
            tuple(sorted(o["nickname"] + o["gm_notes"] for o in game.in_area(c, "Animal")))
            for c in game.colours
        )
        hands.add(hand)
        _pairs_shown_right(game)
    assert len(hands) == 4  # every game starts with other hands
    assert not game.table.errors


def test_family_setup(family: Any) -> None:
    game = Game(family, 3)
    config = game.config
    assert config["variant"] == "family"
    (board,) = (o for o in game.save["ObjectStates"] if "ActionBoard" in o.get("Tags", []))
    assert board["CustomImage"]["ImageURL"].endswith("/action-board-family.png")
    assert board["Transform"]["rotZ"] == 0.0  # the family side is the face: nothing flipped
    sizes = {json.loads(o["gm_notes"])["size"] for o in game.objects("Animal")}
    assert 0 not in sizes  # no small animals in the family game
    first, second, _ = game.colours
    names = {o["nickname"] for o in game.table.objects() if "Supply" in o["tags"]}
    assert names == {f"{c} dividers" for c in game.colours}  # no food, no pitch
    assert game.status() == f"{first}: choose an action."
    for colour in game.colours:
        assert not game.in_area(colour, "Food") and not game.in_area(colour, "Pitch")
    game.table.click_ui(second, "act_wood")  # not the second seat's turn
    assert game.status() == f"{first}: choose an action."
    game.table.click_ui(first, "act_wood")
    assert [len(game.in_area(c, "Divider")) for c in game.colours] == [3 + 4, 3 + 2, 3 + 2]
    assert game.status() == f"{second}: choose an action."
    assert not game.table.errors


def _pairs_shown_right(game: Game) -> None:
    """Every tile out of the bags shows its paired side exactly when its partner is out too."""
    out = {
        (json.loads(o["gm_notes"])["species"], json.loads(o["gm_notes"])["sex"]): o
        for o in game.objects("Animal")
    }
    for (species, sex), o in out.items():
        partner = (species, "female" if sex == "male" else "male")
        assert o["face_down"] == (partner in out), (species, sex)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tiles_flip_to_their_paired_side_when_the_partner_appears(standard: Any, n: int) -> None:
    def edit(game: Game) -> None:
        game.give_tile("Dog", "male", game.colours[0])
        game.give_tile("Dog", "female", game.colours[1])

    game = Game(standard, n, edit)
    dogs = [o for o in game.objects("Animal") if json.loads(o["gm_notes"])["species"] == "Dog"]
    assert len(dogs) == 2 and all(o["face_down"] for o in dogs)
    _pairs_shown_right(game)
    # taming draws tiles from the bags: each is flipped as soon as its partner is out
    first = game.status().split()[2]
    game.place_workers({c: ["taming"] if c == first else ["pitch", "food"] for c in game.colours})
    game.until(first, "Taming")
    draws = ref.for_players(game.config["taming"]["draws"], n)
    shown = [o for o in game.objects("Animal") if not game.in_area_any(o)]
    assert len(shown) == draws["male"] + draws["female"]
    _pairs_shown_right(game)
    # the occupant (drawing first what they choose), then the others, each take one; Done
    if draws["either"]:
        game.table.click_ui(first, "draw_male")
    while picker := game.picker():
        game.take_drawn(picker)
    game.done(first)
    assert [o["guid"] for o in game.objects("Animal") if not game.in_area_any(o)] == []
    _pairs_shown_right(game)
    assert not game.table.errors


# --------------------------------------------------------------------------- Phase I


@pytest.mark.parametrize("n", [2, 4])
def test_phase_one_bonuses_and_turn_order(standard: Any, n: int) -> None:
    game = Game(standard, n)
    config = game.config
    wishes = {c: ["forest", "building", "loading", "pitch"] for c in game.colours}
    wishes[game.colours[-1]] = ["loading", "food"]
    before = len(game.table.broadcasts)
    game.place_workers(wishes)
    placements = []
    for m in game.messages(before):
        if (hit := re.match(r"^(\w+) takes (\w+)", m)) and hit.group(2) in {
            a["name"] for a in config["actions"]
        }:
            space = next(a["id"] for a in config["actions"] if a["name"] == hit.group(2))
            placements.append({"color": hit.group(1), "space": space})
    order = ref.phase_two_order(config, {"placements": placements})
    assert f"Round 1 turn order: {', '.join(order['turn_order'])}." in game.messages(before)
    assert game.table.ui_value("order") == "Turn order: " + ", ".join(order["turn_order"])
    expected = ref.bonus_update(config, {"bonuses": {}, "placements": placements})["bonuses"]
    tokens = sorted(json.loads(o["gm_notes"])["value"] for o in game.objects("Bonus"))
    assert tokens == sorted(v for v in expected.values() if v > 0)
    # the game survives a save and reload in the middle of Phase II
    game.table = game.open(game.table.save_state(), 9)
    assert game.table.ui_value("order") == "Turn order: " + ", ".join(order["turn_order"])
    # gains resolve by themselves; the first step waiting for a player is shown
    game.done_all()
    assert game.status().startswith("Phase I: ")  # round 2
    # round 2: placing a worker on a space with a bonus pays it
    vp_before = game.vp()
    who = game.status().split()[2]
    bonus_space = next(i for i, v in expected.items() if v > 0)
    worker = next(o for o in game.objects("Worker") if json.loads(o["gm_notes"])["color"] == who)
    spot = next(s for s in game.spaces if s["id"] == bonus_space)
    since = len(game.table.broadcasts)
    game.drop_on(who, worker["guid"], spot["current"])
    assert game.vp()[who] == vp_before[who] + expected[bonus_space]
    assert not any(
        json.loads(o["gm_notes"])["value"] and o["position"][0] == spot["bonus"][0]
        for o in game.objects("Bonus")
    )
    # the rest of round 2's Phase I: every old token is replaced (even those spawned before
    # the reload), one token per space showing its new bonus
    game.place_workers(wishes)
    second = [
        {"color": hit.group(1), "space": a["id"]}
        for m in game.messages(since)
        if (hit := re.match(r"^(\w+) takes (\w+)", m))
        for a in config["actions"]
        if a["name"] == hit.group(2)
    ]
    assert len(second) == len(placements)
    now = ref.bonus_update(config, {"bonuses": expected, "placements": second})["bonuses"]
    shown: dict[str, list[int]] = {}
    for o in game.objects("Bonus"):
        at = next(
            s["id"]
            for s in game.spaces
            if math.dist((o["position"][0], o["position"][2]), s["bonus"]) < 0.01
        )
        shown.setdefault(at, []).append(json.loads(o["gm_notes"])["value"])
    assert shown == {k: [v] for k, v in now.items() if v > 0}
    assert not game.table.errors


# --------------------------------------------------------------------------- enclosures


def _to_build_step(game: Game) -> tuple[str, str]:
    """Run round 1 up to the Building occupant's step; (builder, other player)."""
    first = game.status().split()[2]
    others = [c for c in game.colours if c != first]
    wishes = {first: ["building"], **{c: ["forest", "loading", "food", "pitch"] for c in others}}
    game.place_workers(wishes)
    game.until(first, "Building")
    return first, others[0]


@pytest.mark.parametrize(
    "seated",
    [["Red", "Yellow"], ["Green", "Blue"], ["Yellow", "Green", "Blue"], None],
)
def test_enclosures_are_detected_and_inner_dividers_returned(
    standard: Any, seated: list[str] | None
) -> None:
    rows_cols: dict[str, int] = {}

    def edit(game: Game) -> None:
        rows_cols.update(rows=game.plan.rows, cols=game.plan.cols)
        for colour in game.colours:
            game.give(colour, f"{colour} dividers", 6)

    n = len(seated) if seated else 4
    game = Game(standard, n, edit, colours=seated)
    builder, other = _to_build_step(game)
    rows, cols = rows_cols["rows"], rows_cols["cols"]
    # a 2 x 2 enclosure in the bow with a stray divider inside it, and a 1 x 1 beside it
    block = [(0, 0), (0, 1), (1, 0), (1, 1)]
    boundary = enclosure_edges(rows, cols, block)
    inner = "v:0:1"
    mine = [o["guid"] for o in game.in_area(builder, "Divider")]
    vp0 = game.vp()[builder]
    plan = [inner, *boundary[:7]]
    for guid, edge in zip(mine, plan, strict=False):
        game.drop_on(builder, guid, game.plan.edges[edge][:2])
    assert game.vp()[builder] == vp0 + 8 * game.config["building"]["vp_per_element"]
    # the builder's elements are used up: a ninth divider is refused and goes back
    spare = game.in_area(builder, "Divider")[0]
    before = len(game.table.broadcasts)
    game.drop_on(builder, spare["guid"], game.plan.edges[boundary[7]][:2])
    assert "You have no building elements left." in game.messages(before)
    assert game.table.object(spare["guid"])["position"] == spare["position"]
    game.done(builder)
    game.until(other, "Building")
    supply_before = next(
        o["quantity"] for o in game.table.objects() if o["nickname"] == f"{builder} dividers"
    )
    theirs = game.in_area(other, "Divider")
    before = len(game.table.broadcasts)
    game.drop_on(other, theirs[0]["guid"], game.plan.edges[boundary[7]][:2])
    ark = game.ark_input()
    expected = ref.enclosures(
        game.config, {"rows": rows, "cols": cols, "dividers": ark["dividers"]}
    )
    # rules_ref sees no stray divider left: the table returned it to its colour's supply
    assert expected["returned"] == []
    assert [e["squares"] for e in expected["enclosures"]] == [[list(s) for s in block]]
    assert inner not in {d["edge"] for d in ark["dividers"]}
    supply_after = next(
        o["quantity"] for o in game.table.objects() if o["nickname"] == f"{builder} dividers"
    )
    assert supply_after == supply_before + 1
    assert any("divider(s) inside a completed enclosure" in m for m in game.messages(before))
    assert "Completed enclosures: 1." in game.messages(before)
    # a divider inside the completed enclosure is refused
    before = len(game.table.broadcasts)
    game.drop_on(other, theirs[1]["guid"], game.plan.edges["h:1:0"][:2])
    assert "That edge is taken or inside a completed enclosure." in game.messages(before)
    assert not game.table.errors


# --------------------------------------------------------------------------- loading


def _lion_ark(
    game: Game, colours: list[str], squares: tuple[tuple[int, int], ...] = ((0, 0), (0, 1), (0, 2))
) -> list[str]:
    """A completed enclosure (1 x 3 along the top hull unless ``squares`` says otherwise), in
    mixed colours, fed and pitched."""
    edges = enclosure_edges(game.plan.rows, game.plan.cols, list(squares))
    for i, edge in enumerate(edges):
        game.divider_on(edge, colours[i % len(colours)])
    if game.config["loading"]["food_required"]:
        for r, c in squares:
            game.food_on(f"{r}:{c}")
    if game.config["loading"]["pitch_required"]:
        found = ref.enclosures(
            game.config,
            {
                "rows": game.plan.rows,
                "cols": game.plan.cols,
                "dividers": [{"edge": e, "color": game.colours[0]} for e in edges],
            },
        )
        for field in found["enclosures"][0]["pitch_fields"]:
            game.pitch_on(field)
    return edges


@pytest.mark.parametrize("n", [2, 3, 4])
def test_loading_scores_like_rules_ref(standard: Any, n: int) -> None:
    def edit(game: Game) -> None:
        colours = game.colours
        _lion_ark(game, [colours[0]] * 5 + colours[1:] * 3)
        game.give_tile("Lion", "male", colours[0])
        game.give_tile("Lion", "female", colours[1])
        game.give_tile("Dog", "male", colours[0], 6)
        game.give_tile("Dog", "female", colours[0], 7)

    game = Game(standard, n, edit)
    loader = game.status().split()[2]
    game.place_workers({**{c: ["pitch", "food"] for c in game.colours}, loader: ["loading"]})
    assert loader == game.colours[0]  # seat 0 starts on the leftmost completed-action space
    game.until(loader, "Loading")
    tiles = {
        (json.loads(o["gm_notes"])["species"], json.loads(o["gm_notes"])["sex"]): o["guid"]
        for o in game.objects("Animal")
    }
    lion = next(s for s in game.config["species"] if s["name"] == "Lion")
    pair = {
        "species": "Lion",
        "size": lion["size"],
        "vp": lion["vp"],
        "male": game.colours[0],
        "female": game.colours[1],
    }
    inp = {
        **game.ark_input(),
        "loaded": [],
        "loader": loader,
        "pair": pair,
        "square": [0, 1],
        "lp": 8,
        "deluge": False,
    }
    want = ref.load_pair(game.config, inp)
    assert want["ok"] and want["cost"] == lion["size"]
    vp0 = game.vp()
    markers0 = {json.loads(o["gm_notes"])["color"]: o["position"] for o in game.objects("Score")}
    game.drop_on(loader, tiles[("Lion", "male")], game.plan.cells["0:1"])
    game.drop_on(loader, tiles[("Lion", "female")], game.plan.cells["0:2"])
    got = {c: game.vp()[c] - vp0[c] for c in game.colours}
    assert got == {c: want["vp"].get(c, 0) for c in game.colours}
    markers = {json.loads(o["gm_notes"])["color"]: o["position"] for o in game.objects("Score")}
    for c in game.colours:  # the scoring markers move for every player who scored
        assert (markers[c] != markers0[c]) == (got[c] != 0)
    assert f"({8 - want['cost']} loading point(s) left)" in game.status()
    assert all(game.table.object(tiles[("Lion", s)])["locked"] for s in ("male", "female"))
    # the pair lies on the food of its squares, on the Ark's top, not inside the board
    food = thickness_by_kind(game.data["table"])["food"]  # the manifest's food tokens
    food_th = food if game.config["loading"]["food_required"] else 0.0
    for sex in ("male", "female"):
        y = game.table.object(tiles[("Lion", sex)])["position"][1]
        assert y == pytest.approx(BOARD_TOP + food_th)
    # a dog pair into the same enclosure: refused with rules_ref's reason, nothing scores
    dog = next(s for s in game.config["species"] if s["name"] == "Dog")
    inp2 = {
        **game.ark_input(),
        "loaded": [{"square": [0, 1], "size": lion["size"]}],
        "loader": loader,
        "square": [0, 0],
        "lp": 8 - want["cost"],
        "deluge": False,
        "pair": {
            "species": "Dog",
            "size": dog["size"],
            "vp": dog["vp"],
            "male": loader,
            "female": loader,
        },
    }
    refusal = ref.load_pair(game.config, inp2)
    assert not refusal["ok"]
    before, vp1 = len(game.table.broadcasts), game.vp()
    male = game.table.object(tiles[("Dog", "male")])
    game.drop_on(loader, tiles[("Dog", "male")], game.plan.cells["0:0"])
    game.drop_on(loader, tiles[("Dog", "female")], game.plan.cells["0:0"])
    assert f"Load refused: {refusal['reason']}." in game.messages(before)
    assert game.vp() == vp1
    assert game.table.object(tiles[("Dog", "male")])["position"] == male["position"]
    assert not game.table.errors


def test_a_pair_in_a_one_square_enclosure_stacks_on_its_square(standard: Any) -> None:
    """Dogs need a 1-square enclosure: both tiles lie on that square, the second on top of the
    first (and the food below), so nothing interpenetrates on the strict table."""

    def edit(game: Game) -> None:
        _lion_ark(game, [game.colours[0]], squares=((0, 0),))
        game.give_tile("Dog", "male", game.colours[0], 6)
        game.give_tile("Dog", "female", game.colours[0], 7)

    game = Game(standard, 2, edit)
    loader = game.colours[0]
    game.place_workers({c: ["loading"] if c == loader else ["pitch", "food"] for c in game.colours})
    game.until(loader, "Loading")
    dogs = {
        json.loads(o["gm_notes"])["sex"]: o["guid"]
        for o in game.objects("Animal")
        if json.loads(o["gm_notes"])["species"] == "Dog"
    }
    square = game.plan.cells["0:0"]
    game.drop_on(loader, dogs["male"], square)
    game.drop_on(loader, dogs["female"], square)
    assert any(m.startswith(f"{loader} loads the Dog pair") for m in game.messages())
    thickness = thickness_by_kind(game.data["table"])  # the manifest's food tokens and tiles
    food, animal = thickness["food"], thickness["animal"]
    heights = sorted(game.table.object(g)["position"][1] for g in dogs.values())
    assert heights == [pytest.approx(BOARD_TOP + food), pytest.approx(BOARD_TOP + food + animal)]
    assert not game.table.errors


def test_family_loading_scores_like_rules_ref(family: Any) -> None:
    def edit(game: Game) -> None:
        first, second = game.colours
        _lion_ark(game, [first, first, second])
        game.give_tile("Lion", "male", first)
        game.give_tile("Lion", "female", second)
        game.give_tile("Bear", "male", first, 6)
        game.give_tile("Bear", "female", second, 7)

    game = Game(family, 2, edit)
    first, second = game.colours
    game.table.click_ui(first, "act_loading")
    assert game.step() == (first, "Loading")
    tiles = {
        (json.loads(o["gm_notes"])["species"], json.loads(o["gm_notes"])["sex"]): o["guid"]
        for o in game.objects("Animal")
    }
    lion = next(s for s in game.config["species"] if s["name"] == "Lion")
    pair = {"species": "Lion", "size": 3, "vp": lion["vp"], "male": first, "female": second}
    want = ref.load_pair(
        game.config,
        {
            **game.ark_input(),
            "loaded": [],
            "loader": first,
            "pair": pair,
            "square": [0, 0],
            "lp": 2,
            "deluge": False,
        },
    )
    assert want["ok"] and want["cost"] == 1
    vp0 = game.vp()
    game.drop_on(first, tiles[("Lion", "female")], game.plan.cells["0:0"])
    game.drop_on(first, tiles[("Lion", "male")], game.plan.cells["0:1"])
    assert {c: game.vp()[c] - vp0[c] for c in game.colours} == {
        c: want["vp"].get(c, 0) for c in game.colours
    }
    # the enclosure is full: the bears are refused with rules_ref's reason
    bear = {"species": "Bear", "size": 3, "vp": 6, "male": first, "female": second}
    refusal = ref.load_pair(
        game.config,
        {
            **game.ark_input(),
            "loader": first,
            "pair": bear,
            "loaded": [{"square": [0, 0], "size": 3}],
            "square": [0, 2],
            "lp": 1,
            "deluge": False,
        },
    )
    before = len(game.table.broadcasts)
    game.drop_on(first, tiles[("Bear", "male")], game.plan.cells["0:2"])
    game.drop_on(first, tiles[("Bear", "female")], game.plan.cells["0:2"])
    assert f"Load refused: {refusal['reason']}." in game.messages(before)
    game.done(first)
    assert game.step() == (second, "Loading")
    assert not game.table.errors


# --------------------------------------------------------------------------- the end


def _closed_hull(game: Game) -> None:
    """Every hull edge holds a divider (colours in turn, the first colour twice as often), a
    fed and pitched 1 x 3 enclosure is ready in the bow, and the first two players hold a lion
    each."""
    grid = ref._grid(game.plan.rows, game.plan.cols)
    cycle = [game.colours[0], *game.colours]
    squares = [(0, 0), (0, 1), (0, 2)]
    inner = [e for e in enclosure_edges(grid.rows, grid.cols, squares) if e not in grid.hull]
    for i, edge in enumerate(sorted(grid.hull, key=grid.index.__getitem__)):
        game.divider_on(edge, cycle[i % len(cycle)])
    for edge in inner:
        game.divider_on(edge, game.colours[1])
    if game.config["loading"]["food_required"]:
        for r, c in squares:
            game.food_on(f"{r}:{c}")
    if game.config["loading"]["pitch_required"]:
        for field in ("p:0:0", "p:0:1", "p:0:2"):
            game.pitch_on(field)
    game.give_tile("Lion", "male", game.colours[0])
    game.give_tile("Lion", "female", game.colours[1])


def _done_until_over(game: Game) -> dict[str, int]:
    """Press Done through the remaining steps; the VP just before the final scoring."""
    before = game.vp()
    for _ in range(60):
        status = game.status()
        if status == "Game over.":
            return before
        before = game.vp()
        who = status.split()[1] if status.startswith("Deluge: ") else game.step()[0]
        game.finish(who)
    raise AssertionError(game.status())


@pytest.mark.parametrize(("variant", "n"), [(None, 2), (None, 3), (None, 4), ("family", 3)])
def test_deluge_and_final_scoring_match_rules_ref(
    short_game: dict[str | None, Any], variant: str | None, n: int
) -> None:
    game = Game(short_game[variant], n, _closed_hull)
    config = game.config
    if variant is None:
        game.place_workers({c: ["trading", "taming", "pitch"] for c in game.colours})
        for _ in range(40):
            if not game.status().startswith("Now: "):
                break
            game.finish(game.step()[0])
        # the Deluge: fewest VP first, ties in the round's turn order
        assert game.status().startswith("Deluge: ")
        vp = game.vp()
        turn = game.table.ui_value("order").removeprefix("Turn order: ").split(", ")
        deluge = sorted(game.colours, key=lambda c: (vp[c], turn.index(c)))
        assert any(m.endswith(": " + ", ".join(deluge) + ".") for m in game.messages())
        # food first, in that order; then pairs: the lions load for no VP and no LP
        while game.status().startswith("Deluge: ") and "places food" in game.status():
            game.done(game.status().split()[1])
        while game.status().split()[1] not in game.colours[:2]:
            game.done(game.status().split()[1])
        loader = game.status().split()[1]
        tiles = {
            json.loads(o["gm_notes"])["sex"]: o["guid"]
            for o in game.objects("Animal")
            if json.loads(o["gm_notes"])["species"] == "Lion"
        }
        before = game.vp()
        game.drop_on(loader, tiles["male"], game.plan.cells["0:0"])
        game.drop_on(loader, tiles["female"], game.plan.cells["0:1"])
        assert game.vp() == before
        assert game.table.object(tiles["male"])["locked"]
    else:
        for colour in game.colours[:-1]:
            game.table.click_ui(colour, "act_wood")
        game.table.click_ui(game.colours[-1], "act_trading")
    pre = _done_until_over(game)
    # rules_ref scores the table as it stands
    ark = game.ark_input()
    grid = ref._grid(game.plan.rows, game.plan.cols)
    players = []
    for colour in game.colours:
        hull = sum(1 for d in ark["dividers"] if d["edge"] in grid.hull and d["color"] == colour)
        hand = {
            "dividers": len(game.in_area(colour, "Divider")),
            "food": len(game.in_area(colour, "Food")),
            "pitch": len(game.in_area(colour, "Pitch")),
            "animals": [json.loads(o["gm_notes"])["size"] for o in game.in_area(colour, "Animal")],
        }
        players.append({"color": colour, "vp": pre[colour], "hull_dividers": hull, "hand": hand})
    want = ref.final_scoring(config, {"players": players})
    assert want["hull_bonus"][game.colours[0]] == config["final"]["hull_majority_bonus"]
    final = [m for m in game.messages() if m.startswith("Final scores: ")]
    parts = ", ".join(f"{c} {want['scores'][c]}" for c in game.colours)
    label = "Winners" if len(want["winners"]) > 1 else "Winner"
    assert final == [f"Final scores: {parts}. {label}: {' and '.join(want['winners'])}."]
    assert game.vp() == want["scores"]
    body = game.table.notebook[-1]["body"].split("\n")
    for colour in game.colours:
        assert (
            f"{colour}: {want['scores'][colour]} (hull bonus +{want['hull_bonus'][colour]}, "
            f"penalties {-want['penalties'][colour]:+d})" in body
        )
    assert not game.table.errors


@pytest.mark.parametrize(("variant", "n"), [(None, 2), (None, 3), (None, 4), ("family", 3)])
def test_the_table_after_setup_passes_the_geometry_checks(
    standard: Any, family: Any, variant: str | None, n: int
) -> None:
    """What Setup lays out (moved sections, dealt pieces and animals, workers on their spaces)
    rests on surfaces, faces its seats and interpenetrates nothing; the script's positions for
    that Ark land on their printed cells."""
    from tts_builder.games.ark_and_noah.boards import table_hooks
    from tts_builder.games.ark_and_noah.positions import positions_on
    from tts_builder.save.checker import check_geometry
    from tts_builder.save.geometry_checks import image_size_from_files
    from tts_builder.table import snap_points

    built = family if variant else standard
    game = Game(built, n)
    state = game.table.save_state()
    hooks = table_hooks(game.data, game.data, game.config)
    state["SnapPoints"] = snap_points(game.data, hooks, n)  # the Ark's of n players
    positions = positions_on(state, game.data, game.config, n)
    assert len(positions) > 100
    assert check_geometry(state, image_size_from_files(built.files), positions) == []


def test_rounds_of_gains_fill_the_areas_without_overlaps(standard: Any) -> None:
    """Eight rounds of Forest, Pitch and Food: every divider of both colours ends in its area
    (past the area's lines, on a layer on top), nothing interpenetrates on the strict table."""
    game = Game(standard, 2)
    for r in range(8):
        wishes = {c: ["forest", "pitch", "food", "taming"] for c in game.colours}
        wishes[game.colours[r % 2]] = ["taming", "forest", "pitch"]
        game.place_workers(wishes)
        game.done_all()
        assert game.status().startswith("Phase I: "), game.status()
    per_colour = game.config["supply"]["dividers_per_color"]
    for colour in game.colours:
        assert len(game.in_area(colour, "Divider")) == per_colour  # the supply ran out
        heights = {round(o["position"][1], 3) for o in game.in_area(colour, "Divider")}
        assert len(heights) == 2  # a second layer
    assert not game.table.errors
