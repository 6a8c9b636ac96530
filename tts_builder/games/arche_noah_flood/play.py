"""The driver's adapter for ``arche-noah-flood`` (and its variants): the flood race's table next
to rules_ref's game.

Setup's chance (start hexes, the deal) is read from the table and replayed into
``rules_ref.arche_noah_flood``; every die is the driver's choice, applied to the reference and
queued on the table before the click that rolls it (the flood's dice too, when the action ends
the round). Players act as people do: Roll, Use sun and End turn on the panel, and animals
dropped on hexes or into the Ark zone.
"""

from __future__ import annotations

import json
from typing import Any

from rules_ref import arche_noah_flood as F

from ...emulator import EmulatedTable
from ...play.driver import Attempt, Choices, Move
from ...play.seated import SeatedTable
from . import rules_config, table_positions


class FloodAdapter(SeatedTable):
    """One game of the flood race on an emulated table, next to the reference game."""

    rules_config = staticmethod(rules_config)

    def prepare(self) -> None:
        data, save = self.data, self.save
        self.variant = self.config["mode"]  # "standard" or "junior", from the rules overlay
        self.pos = table_positions(data)
        self.rows, self.cols = self.pos["rows"], self.pos["cols"]
        self.seats = [seat["color"] for seat in data["table"]["seats"]]
        self.pieces: dict[int, str] = {}
        for obj in save["ObjectStates"]:
            if "Animal" in obj.get("Tags", []) and obj["Name"] == "Custom_Token":
                self.pieces[json.loads(obj["GMNotes"])["piece"]] = obj["GUID"]
        self.marker = next(
            o["GUID"] for o in save["ObjectStates"] if "FloodMarker" in o.get("Tags", [])
        )
        self.choices: Choices
        self.table: EmulatedTable
        self.game: F.FloodGame
        self.state: F.FloodState

    # ---- the driver's interface ----------------------------------------------------------------

    def start(self, choices: Choices) -> str:
        self.choices = choices
        n = self.low + choices.pick(self.high - self.low + 1)
        self.colors = self.seats[:n]
        self.game = F.FloodGame(self.config, n, self.variant)
        self.state = self.game.new_initial_state()
        self.table = EmulatedTable(
            self.save, seed=self.seed, images=self.images, **self.table_options
        )
        self.table.seat(self.colors)
        self.table.load()
        presser = self.colors[choices.pick(n)]
        self.table.click_ui(presser, "setup")
        s = self._script()
        starts = [list(h) for h in self.game.board.starts]
        for place in s["pos"]:
            self.state.apply_action(starts.index(place))
        if not self.game.junior:
            for animal in s["cards"]:
                self.state.apply_action(self.game.species.index(animal))
        return f"{n} players ({', '.join(self.colors)}); {presser} presses Setup"

    def finished(self) -> bool:
        return self.state.is_terminal()

    def moves(self, choices: Choices) -> list[Move]:
        state = self.state
        color = self.colors[state.active]
        if state.phase == "roll":
            faces = [
                self.game.faces[choices.pick(len(self.game.faces))]
                for _ in range(self.game.dice_count)
            ]
            return [Move(f"{color} rolls {' + '.join(faces)}", lambda: self._roll(faces))]
        if choices.pick(4) < 3:  # mostly the cooperative policy, so games reach the Ark too
            action = F.cooperative_policy(state)
            text = "ends the turn" if action == F.END_TURN else self._move_text(action)
            return [Move(f"{color}: {text}", lambda: self._act(action))]
        out = [Move(f"{color} ends the turn", lambda: self._act(F.END_TURN))]
        for action in sorted(state.move_costs()):
            out.append(Move(f"{color}: {self._move_text(action)}", lambda a=action: self._act(a)))
        return out

    def attempts(self, choices: Choices) -> list[Attempt]:
        state = self.state
        out: list[Attempt] = []
        first = self.colors[0]
        on_board = [i for i, p in enumerate(state.positions) if isinstance(p, list)]
        in_ark = [i for i, p in enumerate(state.positions) if p == F.ARK]
        free = self._free_hexes()
        out.append(Attempt(first, "presses Setup again", lambda: self._call(first, "ui_setup")))
        if state.is_terminal():
            for handler in ("ui_roll", "ui_end_turn", "ui_use_sun"):
                out.append(
                    Attempt(
                        first,
                        f"presses {handler[3:]} after the game",
                        lambda h=handler: self._call(first, h),
                    )
                )
            if on_board and free:
                piece, to = on_board[0], free[0]
                out.append(
                    Attempt(
                        first,
                        f"moves piece {piece} after the game",
                        lambda: self._drop(first, piece, list(to)),
                    )
                )
            return out
        active = self.colors[state.active]
        others = [c for c in self.colors if c != active]
        spare = [c for c in self.seats if c not in self.colors]
        if state.phase == "roll":
            for color in others[:2]:
                out.append(
                    Attempt(
                        color, "rolls out of turn", lambda c=color: self.table.click_ui(c, "roll")
                    )
                )
            out.append(
                Attempt(
                    active,
                    "ends the turn before rolling",
                    lambda: self._call(active, "ui_end_turn"),
                )
            )
            if spare:
                out.append(
                    Attempt(
                        spare[0],
                        "sits down mid-game and rolls",
                        lambda: self._as_newcomer(spare[0], "roll"),
                    )
                )
        if state.phase == "move":
            out.append(Attempt(active, "rolls again", lambda: self._call(active, "ui_roll")))
            if state.sun == 0:
                out.append(
                    Attempt(
                        active,
                        "uses a sun they do not have",
                        lambda: self._call(active, "ui_use_sun"),
                    )
                )
            for color in others[:1]:
                out.append(
                    Attempt(
                        color,
                        "ends the turn for the active player",
                        lambda c=color: self.table.click_ui(c, "end_turn"),
                    )
                )
            legal = state.move_costs()
            if on_board:
                piece = on_board[choices.pick(len(on_board))]
                for to in free:
                    if not self._may_move(piece, to, legal):
                        out.append(
                            Attempt(
                                active,
                                f"moves piece {piece} to {to} (no legal way)",
                                lambda t=to: self._drop(active, piece, list(t)),
                            )
                        )
                        break
                occupied = [i for i in on_board if i != piece]
                if occupied:
                    other = state.positions[occupied[0]]
                    out.append(
                        Attempt(
                            active,
                            f"moves piece {piece} onto piece {occupied[0]}",
                            lambda: self._drop(active, piece, list(other)),
                        )
                    )
                out.append(
                    Attempt(
                        active,
                        f"drops piece {piece} off the board",
                        lambda: self.table.drop(active, self.pieces[piece], [60.0, 2.0, 60.0]),
                    )
                )
                if others and free:
                    out.append(
                        Attempt(
                            others[0],
                            f"moves piece {piece} out of turn",
                            lambda: self._drop(others[0], piece, list(free[0])),
                        )
                    )
                if not self._may_move(piece, F.ARK, legal):
                    out.append(
                        Attempt(
                            active,
                            f"drops piece {piece} into the Ark (no way in)",
                            lambda: self._drop(active, piece, F.ARK),
                        )
                    )
            if in_ark and free:
                out.append(
                    Attempt(
                        active,
                        f"takes piece {in_ark[0]} out of the Ark",
                        lambda: self._drop(active, in_ark[0], list(free[0])),
                    )
                )
        return out

    def table_view(self) -> dict[str, Any]:
        s = self._script()
        over = s["phase"] == "over"
        view: dict[str, Any] = {
            "phase": s["phase"],
            "round": s["round"],
            "out": list(s["out"]),
            "cards": list(s["cards"]),
            "arrived": list(s["arrived"]),
            "outcome": "won" if s["won"] else (s["outcome"] or None),
            "winners": list(s["winners"]) if s["won"] else [],
            "positions": list(s["pos"]),
            "on_table": self._objects_view(s),
        }
        if not over:
            view.update(active=s["active"] - 1, points=s["points"], sun=s["sun"])
        return view

    def milestones(self, view: dict[str, Any]) -> set[str]:
        """The phase, and how the game ended (won, drowned, cut off)."""
        found = super().milestones(view)
        if view["outcome"]:
            found.add(f"ending: {view['outcome'].split(':')[0]}")
        return found

    def reference_view(self) -> dict[str, Any]:
        state = self.state
        over = state.is_terminal()
        positions = [list(p) if isinstance(p, list) else p for p in state.positions]
        view: dict[str, Any] = {
            "phase": state.phase,
            "round": state.round,
            "out": list(state.out),
            "cards": [card or "" for card in state.cards],
            "arrived": list(state.arrived),
            "outcome": state.outcome,
            "winners": list(state.winners) if state.outcome == "won" else [],
            "positions": positions,
            "on_table": {
                "pieces": positions,
                "flooded": sorted(list(h) for h in state.flooded()),
                "marker": min(state.flood_count(), self.rows * self.cols),
                "hands": []
                if self.game.junior
                else [[card, not out] for card, out in zip(state.cards, state.out, strict=True)],
            },
        }
        if not over:
            view.update(active=state.active, points=state.points, sun=state.sun)
        return view

    # ---- reading the table ---------------------------------------------------------------------

    def _script(self) -> dict[str, Any]:
        return json.loads(self.table.call_global("onSave"))

    def _hex_at(self, x: float, z: float) -> list[int] | None:
        for i, (hx, hz) in enumerate(self.pos["hexes"]):
            if (hx - x) ** 2 + (hz - z) ** 2 < 1e-6:
                return list(divmod(i, self.cols))
        return None

    def _in_ark(self, x: float, z: float) -> bool:
        zx, _y, zz, zw, _h, zd = self.pos["ark_zone"]
        return abs(x - zx) <= zw / 2 and abs(z - zz) <= zd / 2

    def _objects_view(self, s: dict[str, Any]) -> dict[str, Any]:
        objects = {o["guid"]: o for o in self.table.objects()}
        pieces: list[Any] = []
        for i in range(len(self.pieces)):
            x, _y, z = objects[self.pieces[i]]["position"]
            pieces.append(F.ARK if self._in_ark(x, z) else self._hex_at(x, z))
        flooded = sorted(
            self._hex_at(o["position"][0], o["position"][2]) or [-1, -1]
            for o in objects.values()
            if "FloodTile" in o["tags"] and o["type"] == "Token"
        )
        mx, _my, mz = objects[self.marker]["position"]
        marker = next(
            (
                i
                for i, (x, z) in enumerate(self.pos["markers"])
                if abs(x - mx) < 1e-3 and abs(z - mz) < 1e-3
            ),
            None,
        )
        hands = []
        if not self.game.junior:
            for guid in s["card_guids"]:
                card = objects.get(guid)
                hands.append(
                    None
                    if card is None
                    else [json.loads(card["gm_notes"])["animal"], card["face_down"]]
                )
        return {"pieces": pieces, "flooded": flooded, "marker": marker, "hands": hands}

    def _free_hexes(self) -> list[tuple[int, int]]:
        taken = self.state.occupied() | self.state.flooded()
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in taken]

    def _move_text(self, action: int) -> str:
        pool, piece, dest = self.game.decode_action(action)
        animal = self.game.species_of(piece)
        where = "the Ark" if dest == F.ARK else f"{dest}"
        frm = self.state.positions[piece]
        sun = " with the sun" if pool == F.POOL_SUN else ""
        return f"{animal} (piece {piece}) {frm} -> {where}{sun}"

    # ---- acting --------------------------------------------------------------------------------

    def _flood_faces(self) -> list[str]:
        """Dice the flood rolls now in the reference (chosen, applied); the faces."""
        faces: list[str] = []
        while self.state.phase == "flood":
            face = self.game.flood_faces[self.choices.pick(len(self.game.flood_faces))]
            faces.append(face)
            self.state.apply_action(self.game.flood_faces.index(face))
        return faces

    def _roll(self, faces: list[str]) -> None:
        color = self.colors[self.state.active]
        for face in faces:
            self.state.apply_action(self.game.faces.index(face))
        self.table.queue_dice(*faces, *self._flood_faces())
        self.table.click_ui(color, "roll")

    def _act(self, action: int) -> None:
        color = self.colors[self.state.active]
        armed = self._script()["sun_armed"]
        self.state.apply_action(action)
        flood = self._flood_faces()
        if flood:
            self.table.queue_dice(*flood)
        if action == F.END_TURN:
            self.table.click_ui(color, "end_turn")
            return
        pool, piece, dest = self.game.decode_action(action)
        if (pool == F.POOL_SUN) != bool(armed):
            self.table.click_ui(color, "use_sun")
        self._drop(color, piece, dest if dest == F.ARK else list(dest))

    def _may_move(self, piece: int, to: Any, legal: dict[int, int]) -> bool:
        """Whether a legal action moves ``piece`` to ``to`` (a hex or the Ark) with either
        pool, the dice's points or the sun's steps."""
        return any(
            self.game.move_action(pool, piece, to) in legal for pool in (F.POOL_POINTS, F.POOL_SUN)
        )

    def _drop(self, color: str, piece: int, dest: Any) -> None:
        if dest == F.ARK:
            zx, zy, zz, *_ = self.pos["ark_zone"]
            point = [zx, zy, zz]
        else:
            x, z = self.pos["hexes"][dest[0] * self.cols + dest[1]]
            point = [x, 2.0, z]
        self.table.drop(color, self.pieces[piece], point)
