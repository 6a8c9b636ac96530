"""The driver's adapter for ``ark-and-noah`` (and ``family``): the worker-placement table next to
rules_ref's game (longer than 500 lines: one player's gesture per kind of decision the rules
know, each action, tame, trade, build and load, beside the table reads they share).

Chance (the starting deal, every tile drawn from a bag) is decided by the table and replayed
into ``rules_ref.ark_and_noah``. A chosen reference action is applied to the reference with its
forced follow-ups recorded; each recorded decision is then made on the table the way a player
makes it (workers and pieces dropped, drawn tiles dragged into an area, an own tile dropped
onto a drawn one, a divider onto another, panel buttons), and Done is pressed whenever the
reference has moved past the table's current step. Building prefers hull edges (mostly), so
random games close the hull and end.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from rules_ref import ark_and_noah as R

from ...emulator import EmulatedTable
from ...play.driver import Attempt, Choices, Move
from ...play.seated import ReadCachedTable, SeatedTable
from ...table import pieces_by_id
from ...table.layout import BOARD_TOP
from ...table.printed import track_cells, track_seats
from .areas import area_slot, area_slots
from .ark import GridPlan, grid_plan
from .boards import action_spaces
from .rules import rules_config

TASK_KINDS = {"build": "build", "load": "load", "deluge_food": "deluge_food",
              "deluge_pairs": "deluge_pairs", "keep": "tame"}  # fmt: skip
TRADE_TASKS = ("trade_bonus", "trade_option", "swap_first", "swap_second", "exchange")


class ArkAdapter(SeatedTable):
    """One game of Ark & Noah on an emulated table, next to the reference game."""

    rules_config = staticmethod(rules_config)

    def prepare(self) -> None:
        data, save = self.data, self.save
        self.round_cells = track_cells(data, "round-track")
        self.score_cells = track_cells(data, "score-track")
        self.tile_guid: dict[int, str] = {}
        for obj in save["ObjectStates"]:
            for item in [obj, *obj.get("ContainedObjects", [])]:
                notes = json.loads(item.get("GMNotes") or "{}")
                if notes.get("kind") == "animal":
                    self.tile_guid[notes["tile"]] = item["GUID"]
        self._notes: dict[str, dict[str, Any]] = {}  # GM notes text -> parsed
        self._areas_of: tuple[tuple[str, ...], list[Any]] = ((), [])
        self._annotated: list[dict[str, Any]] | None = None  # the last objects annotated
        self.table: EmulatedTable
        self.state: R.State
        self.plan: GridPlan  # the Ark of the seated count
        self.spaces: list[dict[str, Any]] = []
        self.choices: Choices

    # ---- the driver's interface ----------------------------------------------------------------

    def start(self, choices: Choices) -> str:
        self.choices = choices
        n = self.low + choices.pick(self.high - self.low + 1)
        self.colors = [c for c in self.config["colors"][:n]]
        self.plan = grid_plan(self.data, "ark", n)
        self.spaces = action_spaces(self.data, self.config)
        seats = [seat["color"] for seat in self.seats]
        corners = track_seats(self.data, "score-track")  # each seat's place on a cell
        self._marker_corner = {c: corners[seats.index(c)] for c in self.colors}
        self.table = ReadCachedTable(
            self.save, seed=self.seed, images=self.images, **self.table_options
        )
        self.table.seat(self.colors)
        self.table.load()
        presser = self.colors[choices.pick(n)]
        self.table.click_ui(presser, "setup")
        self.state = R.Game(self.config, n).new_initial_state()
        hands = [self._hand(c) for c in self.colors]
        for seat in range(n):
            for sex in (0, 1):
                for tile in sorted(t for t in hands[seat] if t % 2 == sex):
                    self.state.apply_action(self.state.layout.tile + tile)
        self._catch_up()
        return f"{n} players ({', '.join(self.colors)}); {presser} presses Setup"

    def finished(self) -> bool:
        return self.state.is_terminal()

    def moves(self, choices: Choices) -> list[Move]:
        state = self.state
        task = state.queue[0]
        legal = state.legal_actions()
        lay = state.layout
        if task[0] == "build":  # half the time close the hull (games end), or an enclosure
            edges = [a for a in legal if lay.edge <= a < lay.pitch]
            way = choices.pick(4)
            if way < 2:
                legal = [a for a in edges if state.grid.edges[a - lay.edge] in state.grid.hull]
            elif way == 2:
                legal = self._enclosing(edges)
            legal = legal or state.legal_actions()
        loads = [a for a in legal if lay.load <= a < lay.exchange]
        if loads and choices.pick(4) < 3:  # mostly load a pair when one may be loaded
            legal = loads
        if task[0] == "trade_option" and R.TRADE_SWAP in legal:
            return self._swap_moves()
        who = self._color(state.current_player())
        return [
            Move(f"{who}: {state.action_to_string(a)}", lambda a=a: self._act([a])) for a in legal
        ]

    def _enclosing(self, edges: list[int]) -> list[int]:
        """The build actions among ``edges`` that complete an enclosure."""
        state, edge = self.state, self.state.layout.edge
        shape = {"rows": state.grid.rows, "cols": state.grid.cols}

        def completed(dividers: list[str]) -> int:
            placed = [{"edge": e, "color": "Red"} for e in dividers]
            return len(R.enclosures(self.config, {**shape, "dividers": placed})["enclosures"])

        now = completed(list(state.dividers))
        return [a for a in edges if completed([*state.dividers, state.grid.edges[a - edge]]) > now]

    def attempts(self, choices: Choices) -> list[Attempt]:
        s = self._script()
        out: list[Attempt] = []
        first = self.colors[0]
        out.append(Attempt(first, "presses Setup again", lambda: self._call(first, "ui_setup")))
        spare = [seat["color"] for seat in self.seats if seat["color"] not in self.colors]
        if spare:  # a colour with a seat that is not playing sits down and clicks
            newcomer = spare[0]
            out.append(
                Attempt(
                    newcomer,
                    "sits down mid-game and presses Done",
                    lambda: self._press_as_newcomer(newcomer, "ui_done", self._done_id()),
                )
            )
        if self.state.is_terminal():
            for color in self.colors[:2]:
                out.append(
                    Attempt(
                        color,
                        "presses Done after the game",
                        lambda c=color: self._call(c, "ui_done", "done"),
                    )
                )
            out.append(
                Attempt(
                    first, "draws after the game", lambda: self._call(first, "ui_draw", "draw_male")
                )
            )
            out += self._clicks_for(first, "after the game")
            return out
        turn = self._turn(s)
        others = [c for c in self.colors if c != turn]
        task = self.state.queue[0]
        out += self._grab_attempts()
        if others and s["phase"] in ("resolve", "deluge"):
            other = others[0]
            out.append(
                Attempt(
                    other,
                    "presses Done for someone else's step",
                    lambda o=other: self._call(o, "ui_done", self._done_id()),
                )
            )
        if others and task[0] in ("family_turn", "trade_bonus"):
            out += self._clicks_for(others[-1], "out of turn")
        if task[0] == "place":
            out += self._place_attempts(s, turn, others)
        if task[0] == "keep" and s["drawn"]:
            picker = self._color(task[1])
            guid = s["drawn"][0]
            for other in [c for c in self.colors if c != picker][:1]:
                out.append(
                    Attempt(
                        other,
                        "takes a drawn animal out of turn",
                        lambda o=other, g=guid: self._into_area(o, g),
                    )
                )
                out.append(
                    Attempt(
                        picker,
                        f"drags a drawn animal into {other}'s area",
                        lambda o=other, g=guid: self._into_area(o, g, picker),
                    )
                )
        if task[0] == "trade_bonus":
            trader = self._color(task[1])
            out.append(
                Attempt(
                    trader,
                    "draws before taking the trading bonus",
                    lambda: self._call(trader, "ui_draw", "draw_male"),
                )
            )
        if task[0] in TRADE_TASKS[1:] and s["trade"]["bonus"]:
            trader = self._color(task[1])
            out += self._clicks_for(trader, "again")
        if task[0] == "build":
            out += self._build_attempts(others)
        return out

    def _grab_attempts(self) -> list[Attempt]:
        """A move no rule allows at any time: the first player drags another player's animal
        into their own area."""
        out: list[Attempt] = []
        mover = self.colors[0]
        for other in self.colors[1:2]:
            theirs = self._in_area(other, "animal")
            if theirs:
                out.append(
                    Attempt(
                        mover,
                        f"drags {other}'s animal into their own area",
                        lambda g=theirs[0]["guid"]: self._into_area(mover, g),
                    )
                )
        return out

    def _clicks_for(self, color: str, when: str) -> list[Attempt]:
        """``color`` presses the trading bonus or (the family game) an action button now, on
        a stale panel: refused at this moment (``when``)."""
        if self.config["turn_mode"] != "worker":
            act = self.config["actions"][0]["id"]
            return [
                Attempt(
                    color,
                    f"chooses {act} {when}",
                    lambda: self._call(color, "ui_choose", "act_" + act),
                )
            ]
        bonus = self.config["trading"]["bonus"][0]
        return [
            Attempt(
                color,
                f"takes the trading bonus {bonus} {when}",
                lambda: self._call(color, "ui_trade_bonus", "trade_" + bonus),
            )
        ]

    def _place_attempts(self, s: dict[str, Any], turn: str, others: list[str]) -> list[Attempt]:
        """Phase I: a worker out of turn, a worker onto a taken space, food onto the Ark."""
        out: list[Attempt] = []
        taken = {p["space"] for p in s["placements"]}
        free = [sp for sp in self.spaces if sp["id"] not in taken]
        if others and free:
            other = others[0]
            worker = self._free_worker(other)
            if worker:
                out.append(
                    Attempt(
                        other,
                        f"places a worker on {free[0]['id']} out of turn",
                        lambda o=other, w=worker, sp=free[0]: self._drop(o, w, sp["current"]),
                    )
                )
        worker = self._free_worker(turn)
        busy = [sp for sp in self.spaces if sp["id"] in taken]
        if worker and busy:
            out.append(
                Attempt(
                    turn,
                    f"places a worker on {busy[0]['id']}, which is taken",
                    lambda w=worker, sp=busy[0]: self._drop(turn, w, sp["current"]),
                )
            )
        food = self._piece_in_area(turn, "Food")
        empty = [q for q in range(self.plan.rows * self.plan.cols)
                 if q not in self.state.food]  # fmt: skip
        if food and empty:
            out.append(
                Attempt(
                    turn,
                    "puts food on the Ark in Phase I",
                    lambda g=food, q=empty[0]: self._drop(turn, g, self._square_spot(q)),
                )
            )
        return out

    def _build_attempts(self, others: list[str]) -> list[Attempt]:
        """Building: a divider in someone else's step, the builder's onto a built edge."""
        out: list[Attempt] = []
        free = [e for e in self.plan.edges if e not in self.state.dividers]
        if others and free:
            other = others[0]
            guid = self._piece_in_area(other, "Divider")
            if guid:
                x, z, _ = self.plan.edges[free[0]]
                out.append(
                    Attempt(
                        other,
                        f"builds on {free[0]} in someone else's step",
                        lambda o=other, g=guid, p=[x, z]: self._drop(o, g, p),
                    )
                )
        builder = self._color(self.state.queue[0][1])
        guid = self._piece_in_area(builder, "Divider")
        built = sorted(self.state.dividers, key=self.state.grid.index.__getitem__)
        if guid and built:
            x, z, _ = self.plan.edges[built[0]]
            out.append(
                Attempt(
                    builder,
                    f"builds on {built[0]}, where a divider stands",
                    lambda g=guid, p=[x, z]: self._drop(builder, g, p),
                )
            )
        return out

    def table_view(self) -> dict[str, Any]:
        s = self._script()
        objects = self._objects()
        dividers, pitch, food = {}, [], []
        for o in objects:
            notes = o["notes"]
            x, z = o["position"][0], o["position"][2]
            if notes.get("kind") == "divider" and (e := self._near(self.plan.edges, x, z)):
                dividers[e] = notes["color"]
            elif notes.get("kind") == "pitch" and (f := self._near(self.plan.hull, x, z)):
                pitch.append(f)
            elif notes.get("kind") == "food" and (q := self._near(self.plan.cells, x, z)):
                r, c = map(int, q.split(":"))
                food.append(r * self.plan.cols + c)
        species = [sp["name"] for sp in self.config["species"]]
        loaded = sorted(
            [species.index(p["species"]), self._square_index(p["square"])]
            for p in s.get("loaded") or []
        )
        view: dict[str, Any] = {
            "vp": [s["vp"][c] for c in self.colors],
            "round": s["round"],
            "hands": [self._hand(c, objects) for c in self.colors],
            "pieces": [self._pieces(c, objects) for c in self.colors],
            "drawn": sorted(self._tile_of(g) for g in s.get("drawn") or []),
            "dividers": dividers,
            "pitch": sorted(pitch),
            "food": sorted(food),
            "loaded": loaded,
            "over": s["phase"] == "over",
            "turn_order": list(s.get("turn_order") or s["colors"]),  # as the glue reads it
            "bonuses": {sp["id"]: s["bonuses"].get(sp["id"], 0) for sp in self.spaces},
            **self._markers_and_supply(objects),
        }
        if s["phase"] == "over":
            view["final"] = [s["final"]["scores"][c] for c in self.colors]
            view["winners"] = list(s["final"]["winners"])
        return view

    def milestones(self, view: dict[str, Any]) -> set[str]:
        """The script's phase (the Deluge among them), a completed enclosure, a loaded pair,
        final scoring."""
        found = {f"phase {self._script()['phase']}"}
        dividers = [{"edge": e, "color": c} for e, c in view["dividers"].items()]
        shape = {"rows": self.plan.rows, "cols": self.plan.cols, "dividers": dividers}
        if R.enclosures(self.config, shape)["enclosures"]:
            found.add("a completed enclosure")
        if view["loaded"]:
            found.add("a loaded pair")
        if view["over"]:
            found.add("final scoring")
        return found

    def reference_view(self) -> dict[str, Any]:
        state = self.state
        view: dict[str, Any] = {
            "vp": list(state.vp),
            "round": state.round,
            "hands": [sorted(h) for h in state.hands],
            "pieces": [[p["dividers"], p["food"], p["pitch"]] for p in state.players],
            "drawn": sorted(state.drawn),
            "dividers": dict(state.dividers),
            "pitch": sorted(state.pitch),
            "food": sorted(state.food),
            "loaded": sorted([s, sq] for s, sq in state.loaded),
            "over": state.is_terminal(),
            "turn_order": [self._color(p) for p in state.turn_order],
            "bonuses": {a["id"]: state.bonuses[i] for i, a in enumerate(self.config["actions"])},
            "bonus_tokens": {
                a["id"]: state.bonuses[i]
                for i, a in enumerate(self.config["actions"])
                if state.bonuses[i]
            },
            "round_marker": min(state.round, len(self.round_cells) - 1),
            "score_markers": [max(v, 0) % len(self.score_cells) for v in state.vp],
            "supply": {
                "dividers": [state.supply["dividers"][c] for c in self.colors],
                "food": state.supply["food"],
                "pitch": state.supply["pitch"],
            },
        }
        if state.is_terminal():
            view["final"] = [state.final["scores"][c] for c in self.colors]
            view["winners"] = list(state.final["winners"])
        return view

    # ---- reading the table ---------------------------------------------------------------------

    def _markers_and_supply(self, objects: list[dict[str, Any]]) -> dict[str, Any]:
        """What the table's pieces show besides the Ark and the areas: the value of the bonus
        token on each action space's spot, the round track's and the scoring track's cell
        under their markers (None: on no cell), and how many pieces each supply bag holds."""
        tokens: dict[str, int] = {}
        round_marker: int | None = None
        scores: dict[str, int | None] = {c: None for c in self.colors}
        bags = {o["nickname"]: o["quantity"] for o in objects}
        for o in objects:
            kind, x, z = o["notes"].get("kind"), o["position"][0], o["position"][2]
            if kind == "bonus":
                for sp in self.spaces:
                    if (sp["bonus"][0] - x) ** 2 + (sp["bonus"][1] - z) ** 2 < 0.01:
                        tokens[sp["id"]] = o["notes"]["value"]
            elif kind == "round":
                round_marker = self._cell(self.round_cells, x, z)
            elif kind == "score" and o["notes"]["color"] in scores:
                corner = self._marker_corner[o["notes"]["color"]]
                scores[o["notes"]["color"]] = self._cell(
                    self.score_cells, x - corner[0], z - corner[1]
                )
        return {
            "bonus_tokens": tokens,
            "round_marker": round_marker,
            "score_markers": [scores[c] for c in self.colors],
            "supply": {
                "dividers": [bags.get(f"{c} dividers") for c in self.colors],
                "food": bags.get("Food supply", 0),  # none in the save: none to take
                "pitch": bags.get("Pitch supply", 0),
            },
        }

    @staticmethod
    def _cell(cells: list[list[float]], x: float, z: float) -> int | None:
        """The index of the cell at (x, z), or None."""
        for k, (cx, cz) in enumerate(cells):
            if (cx - x) ** 2 + (cz - z) ** 2 < 1e-4:
                return k
        return None

    def _script(self) -> dict[str, Any]:
        return json.loads(self.table.call_global("onSave"))

    def _objects(self) -> list[dict[str, Any]]:
        """The table's loose objects, each with its GM notes parsed (``notes``) and the seat
        whose area it lies in (``owner``, or None)."""
        objects = self.table.objects(contents=False)
        if objects is self._annotated:  # the table's remembered read, annotated already
            return objects
        self._annotated = objects
        for o in objects:
            text = o["gm_notes"] or "{}"
            notes = self._notes.get(text)
            if notes is None:
                notes = self._notes[text] = json.loads(text)
            o["notes"] = notes
            o["owner"] = self._owner(o)
        return objects

    def _color(self, seat: int) -> str:
        return self.colors[seat] if 0 <= seat < len(self.colors) else "?"

    def _seat(self, color: str) -> dict[str, Any]:
        return next(s for s in self.seats if s["color"] == color)

    @staticmethod
    def _near(spots: dict[str, Any], x: float, z: float) -> str | None:
        for name, p in spots.items():
            if (p[0] - x) ** 2 + (p[1] - z) ** 2 < 0.04:
                return name
        return None

    def _square_index(self, square: str) -> int:
        r, c = map(int, square.split(":"))
        return r * self.plan.cols + c

    def _tile_of(self, guid: str) -> int:
        return next(t for t, g in self.tile_guid.items() if g == guid)

    def _owner(self, o: dict[str, Any]) -> str | None:
        """The seated colour in whose area ``o`` lies (as the glue's ``board.owner_of``)."""
        w, d = self.data["table"]["area_size"]
        x, z = o["position"][0], o["position"][2]
        for color, ax, az, cos, sin in self._areas():
            dx, dz = x - ax, z - az
            if abs(dx * cos - dz * sin) <= w / 2 and abs(dx * sin + dz * cos) <= d / 2:
                return color
        return None

    def _areas(self) -> list[tuple[str, float, float, float, float]]:
        """Each seated colour's area: colour, centre x and z, cos and sin of its facing
        (worked out once per seating)."""
        key = tuple(self.colors)
        if self._areas_of[0] != key:
            areas = []
            for color in self.colors:
                seat = self._seat(color)
                a = math.radians(seat["facing"])
                areas.append((color, seat["area"][0], seat["area"][1], math.cos(a), math.sin(a)))
            self._areas_of = (key, areas)
        return self._areas_of[1]

    def _in_area(
        self, color: str, kind: str, objects: list[dict[str, Any]] | None = None
    ) -> list[dict[str, Any]]:
        return [
            o
            for o in (self._objects() if objects is None else objects)
            if o["notes"].get("kind") == kind and not o["locked"] and o["owner"] == color
        ]

    def _hand(self, color: str, objects: list[dict[str, Any]] | None = None) -> list[int]:
        return sorted(o["notes"]["tile"] for o in self._in_area(color, "animal", objects))

    def _pieces(self, color: str, objects: list[dict[str, Any]]) -> list[int]:
        return [len(self._in_area(color, k, objects)) for k in ("divider", "food", "pitch")]

    def _piece_in_area(self, color: str, tag: str) -> str | None:
        found = self._in_area(color, tag.lower())
        return found[0]["guid"] if found else None

    def _free_worker(self, color: str) -> str | None:
        placed = self._script().get("worker_space") or {}
        for o in self._objects():
            notes = o["notes"]
            if (
                notes.get("kind") == "worker"
                and notes.get("color") == color
                and o["guid"] not in placed
            ):
                return o["guid"]
        return None

    def _turn(self, s: dict[str, Any]) -> str:
        if s["phase"] == "place":
            return s["place_order"][s["place_pos"] - 1]
        if s["phase"] == "choose":
            return s["colors"][s["seat_turn"] - 1]
        if s["phase"] in ("resolve", "deluge") and s.get("steps"):
            return s["steps"][s["step"] - 1]["color"]
        return ""

    def _done_id(self) -> str:
        return "done" if self.table.ui_active("done") else "done_b"

    # ---- acting --------------------------------------------------------------------------------

    def _swap_moves(self) -> list[Move]:
        state = self.state
        who = self._color(state.current_player())
        lay = state.layout
        out = []
        if R.TRADE_DRAW in state.legal_actions():
            out.append(Move(f"{who}: trade draw", lambda: self._act([R.TRADE_DRAW])))
        edges = sorted(state.dividers, key=state.grid.index.__getitem__)
        for first in edges[:6]:
            for second in edges:
                if state.dividers[second] != state.dividers[first]:
                    actions = [
                        R.TRADE_SWAP,
                        lay.edge + state.grid.index[first],
                        lay.edge + state.grid.index[second],
                    ]
                    out.append(
                        Move(f"{who}: swap {first} and {second}", lambda a=actions: self._act(a))
                    )
                    break
        return out

    def _act(self, actions: list[int]) -> None:
        """Apply ``actions`` (each while it is still a decision) and their forced follow-ups to
        the reference; make every one of them on the table; replay the table's chance."""
        state = self.state

        def apply() -> None:
            for action in actions:
                if action in state.legal_actions():
                    state.apply_action(action)

        for task, action in self._recorded(apply):
            self._perform(task, action)
        self._catch_up()

    def _recorded(self, apply: Callable[[], None]) -> list[tuple[list[Any], int]]:
        """Run ``apply`` on the reference state; every (task, action) it applied, forced
        follow-ups included, in order."""
        log: list[tuple[list[Any], int]] = []
        state = self.state
        plain = R.State._apply

        def recorded(action: int) -> None:
            log.append((list(state.queue[0]), action))
            plain(state, action)

        state._apply = recorded  # type: ignore[method-assign]
        try:
            apply()
        finally:
            del state._apply
        return log

    def _catch_up(self) -> None:
        """Replay the table's draws into the reference (and make its forced follow-ups) until
        the reference waits on a decision; then bring the table to that decision's step."""
        for _ in range(200):
            if self.state.is_terminal():
                self._align(None)
                return
            task = self.state.queue[0]
            self._align(task)
            if task[0] not in ("draw", "setup_draw"):
                return
            drawn = [self._tile_of(g) for g in self._script().get("drawn") or []]
            new = list(drawn)
            for t in self.state.drawn:
                if t in new:
                    new.remove(t)
            if not new:
                raise AssertionError(f"the reference draws ({task}) but the table drew nothing")
            self._act_chance(self.state.layout.tile + new[0])
        raise AssertionError("the reference never reached a decision")

    def _act_chance(self, outcome: int) -> None:
        log = self._recorded(lambda: self.state.apply_action(outcome))
        for task, action in log[1:]:  # the draw itself already happened on the table
            self._perform(task, action)

    def _matches(self, task: list[Any] | None, s: dict[str, Any]) -> bool:
        """Is the table at the step of the reference's ``task`` (None: the game's end)?"""
        phase = s["phase"]
        if task is None:
            return phase == "over"
        name = task[0]
        if name == "place":
            return phase == "place"
        if name == "family_turn":
            return phase == "choose"
        if phase not in ("resolve", "deluge") or not s.get("steps"):
            return False
        step = s["steps"][s["step"] - 1]
        if name in ("draw", "choose_bag"):
            return step["kind"] in ("tame", "trade")
        if name == "keep":
            return step["kind"] == "tame"
        seat_color = self._color(task[1])
        if name in TRADE_TASKS:
            return step["kind"] == "trade" and step["color"] == seat_color
        return step["kind"] == TASK_KINDS.get(name) and step["color"] == seat_color

    def _align(self, task: list[Any] | None) -> None:
        """Press Done until the table is at the step of ``task``."""
        s = self._script()
        for _ in range(60):
            if self._matches(task, s):
                return
            if s["phase"] not in ("resolve", "deluge"):
                raise AssertionError(f"the table is in {s['phase']}, rules_ref at {task}")
            who = self._turn(s)
            self.table.click_ui(who, self._done_id())
            after = self._script()
            if after["step"] == s["step"] and after["phase"] == s["phase"]:
                told = [m for to, m in self.told(len(self.table.broadcasts) - 1) if to == who]
                raise AssertionError(f"{who}'s Done was refused: {told}")
            s = after
        raise AssertionError(f"the table never reached {task}")

    def _perform(self, task: list[Any], action: int) -> None:
        """Make one reference decision on the table, as its player does."""
        self._align(task)
        state, lay = self.state, self.state.layout
        name = task[0]
        if name in ("draw", "setup_draw"):
            return  # the table drew it
        if action == R.PASS:
            return  # Done, pressed when the table must move on
        color = self._color(task[1])
        if name == "place":
            space = self.config["actions"][action - lay.space]["id"]
            spot = next(sp for sp in self.spaces if sp["id"] == space)["current"]
            self._drop(color, self._free_worker(color), spot)
        elif name == "family_turn":
            self.table.click_ui(color, "act_" + self.config["actions"][action - lay.space]["id"])
        elif name == "choose_bag":
            self.table.click_ui(color, "draw_male" if action == R.BAG_MALE else "draw_female")
        elif name == "keep":
            self._into_area(color, self.tile_guid[action - lay.tile])
        elif name == "trade_bonus":
            bonuses = self.config["trading"]["bonus"]
            if len(bonuses) > 1:  # a single bonus the table gives at the step's start
                self.table.click_ui(color, "trade_" + bonuses[action - lay.bonus])
        elif name == "trade_option":
            return  # the swap or the draws that follow are the gestures
        elif name == "swap_first":
            self._swap_from = state.grid.edges[action - lay.edge]
        elif name == "swap_second":
            second = state.grid.edges[action - lay.edge]
            x, z, _ = self.plan.edges[second]
            self._drop(color, self._divider_on(self._swap_from), [x, z])
        elif name == "exchange":
            take, give = divmod(action - lay.exchange, 2 * len(self.config["species"]))
            target = self.table.object(self.tile_guid[take])
            self.table.drop(color, self.tile_guid[give], list(target["position"]))
        elif name == "build":
            if action < lay.pitch:
                x, z, _ = self.plan.edges[state.grid.edges[action - lay.edge]]
                self._drop(color, self._piece_in_area(color, "Divider"), [x, z])
            else:
                field = state.grid.points[action - lay.pitch][0]
                self._drop(color, self._piece_in_area(color, "Pitch"), self.plan.hull[field])
        elif name in ("load", "deluge_food", "deluge_pairs"):
            if action < lay.load:
                self._drop(
                    color,
                    self._piece_in_area(color, "Food"),
                    self._square_spot(action - lay.square),
                )
            else:
                size = state.grid.rows * state.grid.cols
                species, square = divmod(action - lay.load, size)
                spot = self._square_spot(square)
                for tile in (2 * species, 2 * species + 1):
                    self._drop(color, self.tile_guid[tile], spot)
        else:
            raise AssertionError(f"no gesture for {name}")

    def _square_spot(self, square: int) -> list[float]:
        r, c = divmod(square, self.plan.cols)
        return self.plan.cells[f"{r}:{c}"]

    def _divider_on(self, edge: str) -> str:
        x, z, _ = self.plan.edges[edge]
        return next(
            o["guid"]
            for o in self._objects()
            if o["notes"].get("kind") == "divider"
            and (o["position"][0] - x) ** 2 + (o["position"][2] - z) ** 2 < 0.04
        )

    def _drop(self, color: str, guid: str | None, xz: list[float]) -> None:
        if guid is None:
            raise AssertionError(f"{color} has no piece to drop")
        self.table.drop(color, guid, [xz[0], BOARD_TOP + 0.5, xz[1]])

    def _into_area(self, color: str, guid: str, by: str | None = None) -> None:
        """Drag a tile into ``color``'s area as a player does: onto an empty place of the area's
        animal places if there is one, else on top of the lowest pile of tiles there; it comes
        to rest on the table or on that pile's top (the emulated table has no gravity, so the
        drop is made at that height). ``by``: the player who drags it (``color`` if None)."""
        seat = self._seat(color)
        places = area_slots(self.data["table"])
        slots = places["animals"]
        side = pieces_by_id(self.data["table"])["male-animals"]["contents"]["width"]
        reach = float(side) - 0.05  # footprints overlap
        others = [o for o in self._objects() if o["guid"] != guid]
        best: tuple[float, float, float] | None = None
        for k in range(slots.per_line * slots.lines):
            x, y, z = area_slot(seat, "animals", k, places)
            under = [
                o
                for o in others
                if max(abs(o["position"][0] - x), abs(o["position"][2] - z)) < reach
            ]
            if any(o["notes"].get("kind") != "animal" for o in under):
                continue  # something else lies there: not a place for a tile
            top = max([y, *(o["position"][1] + slots.lift for o in under)])
            if best is None or top < best[1] - 1e-6:
                best = (x, top, z)
        if best is None:
            raise AssertionError(f"no place for a tile in {color}'s area")
        self.table.drop(by or color, guid, list(best))

    def _press_as_newcomer(self, color: str, handler: str, element: str) -> None:
        """``color`` (a seat nobody plays) sits down, presses ``element``, and leaves again."""
        self.table.seat([*self.colors, color])
        try:
            self._call(color, handler, element)
        finally:
            self.table.seat(self.colors)
