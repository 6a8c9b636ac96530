"""The driver's adapter for ``arche-noah``: the bidding game's table next to rules_ref's game.

The table decides chance (animals out of play, shuffles): after each step the adapter reads it
from the table and replays it into ``rules_ref.arche_noah`` (an impossible outcome fails there).
Players act as people do: the start player presses Setup, bids are made with the panel's -/+
and Confirm buttons, picks with the cards' Take buttons and the green-chip buttons, then Score
and Next play-through. A picker with no card left is skipped by the table; the adapter makes
the reference's forced "take nothing" for them.
"""

from __future__ import annotations

import json
from typing import Any

from rules_ref.arche_noah import ArcheNoahGame, ArcheNoahState

from ...emulator import EmulatedTable
from ...play.driver import Attempt, Choices, Move
from ...play.seated import SeatedTable
from . import rules_config

PHASES = {
    "bidding": "bid",
    "picking": "pick",
    "scoring": "score",
    "scored": "scored",
    "over": "end",
}


def _near(position: Any, spot: list[float], tolerance: float) -> bool:
    return abs(position[0] - spot[0]) < tolerance and abs(position[2] - spot[1]) < tolerance


class ArcheNoahAdapter(SeatedTable):
    """One game of Arche Noah on an emulated table, next to the reference game."""

    rules_config = staticmethod(rules_config)

    def prepare(self) -> None:
        self.num_values = len(self.config["card_values"])
        self.table: EmulatedTable
        self.state: ArcheNoahState
        self.scored = 0

    # ---- the driver's interface ----------------------------------------------------------------

    def start(self, choices: Choices) -> str:
        n = self.low + choices.pick(self.high - self.low + 1)
        self.colors = [seat["color"] for seat in self.seats[:n]]
        start = choices.pick(n)
        self.table = EmulatedTable(
            self.save, seed=self.seed, images=self.images, **self.table_options
        )
        self.table.seat(self.colors)
        self.table.load()
        self.state = ArcheNoahGame(self.config, n, start_seat=start).new_initial_state()
        self.table.click_ui(self.colors[start], "setup")
        self._sync()
        return f"{n} players ({', '.join(self.colors)}); {self.colors[start]} presses Setup"

    def finished(self) -> bool:
        return self.state.is_terminal() and self.scored == len(self.state.playthrough_scores)

    def moves(self, choices: Choices) -> list[Move]:
        phase = self._script()["phase"]
        if phase == "scoring":
            color = self.colors[choices.pick(len(self.colors))]
            return [Move(f"{color} presses Score", lambda: self._score(color))]
        if phase == "scored":
            color = self.colors[choices.pick(len(self.colors))]
            return [Move(f"{color} presses Next play-through", lambda: self._next(color))]
        state = self.state
        if state.phase == "bid":
            return [
                Move(state.action_to_string(a), lambda a=a: self._bid(a))
                for a in state.legal_actions()
            ]
        if state.phase == "pick":
            masks = state.legal_actions()
            singles = [m for m in masks if m.bit_count() == 1]
            if singles and choices.pick(4) < 3:  # mostly the free pick: green chips last longer
                masks = singles
            return [Move(state.action_to_string(m), lambda m=m: self._pick(m)) for m in masks]
        return []

    def attempts(self, choices: Choices) -> list[Attempt]:
        s = self._script()
        phase = s["phase"]
        others = [c for c in self.colors if c != self._turn_color(s)]
        spare = [seat["color"] for seat in self.seats[len(self.colors) :]]
        out: list[Attempt] = [
            Attempt(c, "presses Setup again", lambda c=c: self._call(c, "ui_setup"))
            for c in self.colors[:1]
        ]
        if phase != "scoring":
            out.append(
                Attempt(
                    others[0] if others else self.colors[0],
                    "presses Score now",
                    lambda: self._call((others or self.colors)[0], "ui_score"),
                )
            )
        if phase != "scored":
            out.append(
                Attempt(
                    self.colors[-1],
                    "presses Next play-through now",
                    lambda: self._call(self.colors[-1], "ui_next_playthrough"),
                )
            )
        out += self._grab_attempts(s)
        if phase != "bidding":
            out.append(
                Attempt(
                    self.colors[0],
                    "confirms a bid now",
                    lambda: self._call(self.colors[0], "ui_bid_confirm"),
                )
            )
        for color in others:
            if phase == "bidding":
                out.append(
                    Attempt(
                        color,
                        "bids out of turn",
                        lambda c=color: self.table.click_ui(c, "bid_confirm"),
                    )
                )
                out.append(
                    Attempt(
                        color,
                        "raises the bid out of turn",
                        lambda c=color: self.table.click_ui(c, "bid_plus"),
                    )
                )
            if phase == "picking" and s["offer"]:
                guid = s["offer"][0]
                out.append(
                    Attempt(
                        color,
                        f"takes {self._name(s, guid)} out of turn",
                        lambda c=color, g=guid: self.table.click_button(g, "Take", c),
                    )
                )
        if phase == "bidding":
            bidder = self._turn_color(s)
            p = self.colors.index(bidder)
            if s["purple"][p] == 0:
                out.append(
                    Attempt(
                        bidder,
                        "raises a bid above their purple chips",
                        lambda: self.table.click_ui(bidder, "bid_plus"),
                    )
                )
        if phase == "picking" and s["offer"]:
            picker = self._turn_color(s)
            guid = s["offer"][0]
            out.append(
                Attempt(
                    picker,
                    f"drags {self._name(s, guid)} to their collection",
                    lambda: self._drag_to_collection(picker, guid),
                )
            )
        if spare and phase == "bidding":
            color = spare[0]
            out.append(
                Attempt(
                    color,
                    "sits down mid-game and bids",
                    lambda: self._as_newcomer(color, "bid_confirm"),
                )
            )
        return out

    def table_view(self) -> dict[str, Any]:
        s = self._script()
        phase = PHASES.get(s["phase"], s["phase"])
        view: dict[str, Any] = {
            "phase": phase,
            "playthrough": s["playthrough"],
            "scores": [[score["total"] for score in pt] for pt in s["scores"]],
            "green": list(s["green"]),
        }
        if phase in ("bid", "pick"):
            cards = {guid: self._card_id(card) for guid, card in s["cards"].items()}
            view.update(
                start=s["start"],
                turn=self.colors.index(self._turn_color(s)),
                purple=list(s["purple"]),
                bids=[None if b is False else b for b in s["bids"]],
                collections=[sorted(cards[g] for g in c) for c in s["collections"]],
                offer=sorted(cards[g] for g in s["offer"]),
                set_aside=sorted(cards[g] for g in s["set_aside"]),
                pile=len(s["pile"]),
                removed=sorted(self.config["animals"].index(a) for a in s["removed_animals"]),
                on_table=self._objects_view(phase),
                panel=[
                    self.table.ui_value("status").split(":")[0],
                    self.table.ui_value("bid_value") if phase == "bid" else None,
                ],
            )
        else:
            view["face_up"] = self._collections_face_up()
        return view

    def milestones(self, view: dict[str, Any]) -> set[str]:
        """The phase, and the play-through."""
        return super().milestones(view) | {f"play-through {view['playthrough']}"}

    def reference_view(self) -> dict[str, Any]:
        state = self.state
        scores = state.playthrough_scores
        if len(scores) > self.scored or state.is_terminal() or state.is_chance_node():
            phase = "score" if len(scores) > self.scored else "scored"
            if state.is_terminal() and self.scored == len(scores):
                phase = "end"
            done = [[score["total"] for score in pt] for pt in scores[: self.scored]]
            green = state.green
            return {
                "phase": phase,
                "playthrough": len(scores),
                "scores": done,
                "green": green,
                "face_up": phase != "score",
            }
        # The table takes the bids when the pick order is known, rules_ref when the round ends;
        # nothing in between depends on purple chips, so the view pays them at once.
        paid = state.to_dict()["paid"] or [0] * len(self.colors)
        purple = [chips - min(bid, chips) for chips, bid in zip(state.purple, paid, strict=True)]
        view = {
            "phase": state.phase,
            "playthrough": state.playthrough,
            "scores": [[score["total"] for score in pt] for pt in scores],
            "green": state.green,
            "start": state.start_seat,
            "turn": state.current_player(),
            "purple": purple,
            "bids": state.bids,
            "collections": [sorted(c) for c in state.collections],
            "offer": sorted(state.offer),
            "set_aside": sorted(state.set_aside),
            "pile": state.pile_size,
            "removed": sorted(state.removed_animals),
        }
        view["panel"] = [self.colors[state.current_player()], "0" if state.phase == "bid" else None]
        view["on_table"] = {
            "purple_chips": purple,
            "green_chips": state.green,
            "collections": view["collections"],
            "offer": view["offer"],
        }
        return view

    # ---- reading the table ---------------------------------------------------------------------

    def _script(self) -> dict[str, Any]:
        return json.loads(self.table.call_global("onSave"))

    def _card_id(self, card: dict[str, Any]) -> int:
        animal = self.config["animals"].index(card["animal"])
        return animal * self.num_values + self.config["card_values"].index(card["value"])

    def _name(self, s: dict[str, Any], guid: str) -> str:
        card = s["cards"][guid]
        return f"{card['animal']} {card['value']}"

    def _turn_color(self, s: dict[str, Any]) -> str | None:
        if s["phase"] == "bidding":
            return s["players"][s["bidder"] - 1]["color"]
        if s["phase"] == "picking" and s["pick_pos"] <= len(s["order"]):
            return s["players"][s["order"][s["pick_pos"] - 1]]["color"]
        return None

    @staticmethod
    def _cards_at(objects: list[dict[str, Any]], spot: list[float]) -> list[dict[str, Any]]:
        """Animal cards lying at a spot (loose, or in a deck formed there)."""
        found = []
        for obj in objects:
            if not _near(obj["position"], spot, 0.01):
                continue
            if obj["type"] == "Card" and "AnimalCard" in obj["tags"]:
                found.append({"gm_notes": obj["gm_notes"], "face_down": obj["face_down"]})
            elif obj["type"] == "Deck":
                found += [
                    {"gm_notes": c["gm_notes"], "face_down": obj["face_down"]}
                    for c in obj["contained"]
                ]
        return found

    def _objects_view(self, phase: str) -> dict[str, Any]:
        objects = self.table.objects()
        view: dict[str, Any] = {"purple_chips": [], "green_chips": [], "collections": []}
        for p in range(len(self.colors)):
            cx, cz = self.seats[p]["chips"]
            for tag, key in (("PurpleChip", "purple_chips"), ("GreenChip", "green_chips")):
                view[key].append(
                    sum(
                        1
                        for o in objects
                        if tag in o["tags"]
                        and o["type"] != "Infinite"
                        and abs(o["position"][0] - cx) < 2.5
                        and abs(o["position"][2] - cz) < 2.5
                    )
                )
            cards = self._cards_at(objects, self.seats[p]["collection"])
            ids = sorted(self._card_id(json.loads(c["gm_notes"])) for c in cards)
            if not all(c["face_down"] for c in cards):
                ids.append(-1)  # a collection card lies face up: nobody may look before scoring
            view["collections"].append(ids)
        view["offer"] = sorted(
            self._card_id(json.loads(o["gm_notes"]))
            for o in objects
            if o["type"] == "Card"
            and "AnimalCard" in o["tags"]
            and not o["face_down"]
            and not o["locked"]
        )
        return view

    def _collections_face_up(self) -> bool:
        objects = self.table.objects()
        cards = [
            c
            for p in range(len(self.colors))
            for c in self._cards_at(objects, self.seats[p]["collection"])
        ]
        return bool(cards) and not any(c["face_down"] for c in cards)

    # ---- acting --------------------------------------------------------------------------------

    def _sync(self) -> None:
        """Replay the table's chance into the reference; make the forced empty picks."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                s = self._script()
                if s["phase"] not in ("bidding", "picking"):
                    return
                self._replay_chance(s)
            elif state.phase == "pick" and not state.offer:
                state.apply_action(0)
            else:
                return

    def _replay_chance(self, s: dict[str, Any]) -> None:
        state = self.state
        cards = {guid: self._card_id(card) for guid, card in s["cards"].items()}
        while state.is_chance_node():
            if state.phase == "remove":
                for name in s["removed_animals"][len(state.removed_animals) :]:
                    state.apply_action(self.config["animals"].index(name))
            elif state.phase == "deal":
                for p in range(len(self.colors)):
                    state.apply_action(cards[s["collections"][p][0]])
            else:
                for card in sorted(cards[g] for g in s["offer"]):
                    state.apply_action(card)

    def _bid(self, amount: int) -> None:
        color = self.colors[self.state.current_player()]
        for _ in range(amount):
            self.table.click_ui(color, "bid_plus")
        self.table.click_ui(color, "bid_confirm")
        self.state.apply_action(amount)
        self._sync()

    def _pick(self, mask: int) -> None:
        state = self.state
        color = self.colors[state.current_player()]
        s = self._script()
        by_id = {self._card_id(s["cards"][g]): g for g in s["offer"]}
        taken = [card for i, card in enumerate(state.offer) if mask >> i & 1]
        if len(taken) != 1:
            self.table.click_ui(color, f"green_take_{len(taken)}")
        for card in taken:
            self.table.click_button(by_id[card], "Take", color)
        state.apply_action(mask)
        self._sync()

    def _score(self, color: str) -> None:
        self.table.click_ui(color, "score")
        self.scored += 1

    def _next(self, color: str) -> None:
        self.table.click_ui(color, "next_playthrough")
        self._sync()

    def _grab_attempts(self, s: dict[str, Any]) -> list[Attempt]:
        """The first player drags another player's chip to their own collection."""
        mover = self.colors[0]
        for p, chips in enumerate(s.get("chips") or []):
            guids = [g for colour in sorted(chips or {}) for g in chips[colour]]
            if p > 0 and guids:
                owner = self.colors[p]
                return [
                    Attempt(
                        mover,
                        f"drags {owner}'s chip to their own collection",
                        lambda g=guids[0]: self._drag_to_collection(mover, g),
                    )
                ]
        return []

    def _drag_to_collection(self, color: str, guid: str) -> None:
        slot = self.colors.index(color)
        x, z = self.seats[slot]["collection"]
        self.table.drop(color, guid, [x + 2.5, 1.0, z])
