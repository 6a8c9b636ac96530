"""Reference rules for ``arche-noah``, the card-bidding game (RULINGS §1).

Pure rule functions (JSON-shaped in and out) that the generated Lua mirrors, and an
OpenSpiel-style game with explicit chance. ``config`` is the ``rules:`` mapping of
``assets/arche-noah/game.yaml`` plus ``"animals"``: the animal names in YAML order. Every rule
number is read from ``config``; this module does no I/O.

Cards are ints: card id = animal_index * len(card_values) + value_index.

Game actions (ints; ``legal_actions`` is sorted):

- chance, phase ``remove``: index into ``config["animals"]`` of an animal not yet removed;
- chance, phases ``deal`` and ``offer``: id of the pile card that comes off the pile next;
- ``bid``: the amount, 0..own purple chips;
- ``pick``: a bit mask over the current offer (kept sorted by card id): bit i takes
  ``offer[i]``. Taking exactly 1 card is free; taking any other count (0 or 2 by default,
  ``green_chip_takes``) costs one green chip, except taking 0 when the offer is already empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .common import chooser_start, colours, entry_for, field, seat_players
from .errors import RuleError

CHANCE = -1
TERMINAL = -4

PHASES = ("remove", "deal", "offer", "bid", "pick", "end")

# --------------------------------------------------------------------------------------------
# Pure rule functions: fn(config, inp) -> dict


def _animal_points(values: list[int]) -> int:
    """Points of k cards of one animal: best pairing for the owner, odd lowest card negative."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return -ordered[0]
    if len(ordered) % 2 == 0:
        return sum(ordered)
    return sum(ordered[1:]) - ordered[0]


def _green_points_per_chip(points: list[int], playthrough: int) -> int:
    """Points per green chip in a 1-based play-through (last entry beyond the list)."""
    if playthrough < 1:
        raise RuleError("bad_playthrough", f"playthrough must be >= 1, got {playthrough}")
    return points[min(playthrough, len(points)) - 1]


def score_collection(config: dict, inp: dict) -> dict:
    """Score one collection plus chips left: total = cards + bonus + purple + green."""
    scoring = config["scoring"]
    cards_in = field(inp, "cards", "list")
    chips, green_chips = field(inp, "purple", "int"), field(inp, "green", "int")
    playthrough = int(field(inp, "playthrough", "int"))
    groups: dict[str, list[int]] = {}
    for card in cards_in:
        if not isinstance(card, dict) or card.get("animal") is None:
            raise RuleError("bad_card", "a card is {animal, value}")
        groups.setdefault(card["animal"], []).append(field(card, "value", "int"))
    cards = sum(_animal_points(values) for values in groups.values())
    fours = sum(1 for values in groups.values() if len(values) >= 4)
    bonus = fours * scoring["set_of_four_bonus"]
    purple = chips // scoring["purple_chips_per_point"]
    green = green_chips * _green_points_per_chip(scoring["green_points_per_chip"], playthrough)
    return {
        "total": cards + bonus + purple + green,
        "cards": cards,
        "bonus": bonus,
        "purple": purple,
        "green": green,
    }


def pick_order(config: dict, inp: dict) -> dict:
    """Pick order (bid descending, ties clockwise from the start seat) and chips paid per seat."""
    bids = list(field(inp, "bids", "list", True))
    players = len(bids)
    start = field(inp, "start", "int")
    if not 0 <= start < players:
        raise RuleError("bad_start_seat", f"start seat {start} outside 0..{players - 1}")
    order = sorted(range(players), key=lambda seat: (-bids[seat], (seat - start) % players))
    if players <= config["only_first_picker_pays_up_to_players"]:
        paid = [bids[seat] if seat == order[0] else 0 for seat in range(players)]
    else:
        paid = bids
    return {"order": order, "paid": paid}


def setup(config: dict, inp: dict) -> dict:
    """Chips per player, animals removed and cards in play for a player count."""
    players = field(inp, "players", "int")
    chips = entry_for(config["chips"], players, "chips")
    removed = entry_for(config["animals_removed"], players, "animals_removed")["count"]
    animals = len(config["animals"])
    if not 0 <= removed <= animals:
        raise RuleError("too_many_removed", f"cannot remove {removed} of {animals} animals")
    return {
        "purple": chips["purple"],
        "green": chips["green"],
        "animals_removed": removed,
        "cards_in_play": (animals - removed) * len(config["card_values"]),
    }


def offer_size(config: dict, inp: dict) -> dict:
    """Cards laid out face up this round: one batch per player, fewer when the pile runs low."""
    players, pile = field(inp, "players", "int"), field(inp, "pile", "int")
    return {"count": min(players * config["cards_per_player_in_offer"], pile)}


def winners(config: dict, inp: dict) -> dict:
    """Seats sharing the highest total, ascending (empty for no seats)."""
    totals = field(inp, "totals", "list", True)
    if not totals:
        return {"winners": []}
    best = max(totals)
    return {"winners": [seat for seat, total in enumerate(totals) if total == best]}


def pick_options(config: dict, inp: dict) -> dict:
    """Numbers of cards a picker may take from ``offer`` face-up cards holding ``green`` chips."""
    offer, green = field(inp, "offer", "int"), field(inp, "green", "int")
    if offer == 0:
        return {"take": [0]}
    take = {1}
    if green >= 1:
        take.update(count for count in config["green_chip_takes"] if count <= offer)
    return {"take": sorted(take)}


def seating(config: dict, inp: dict) -> dict:
    """Who plays, in which order, who starts (RULINGS §1: the start player is a chosen player).

    ``seats``: the save's seat colours in seat order (clockwise); ``seated``: the colours of the
    people at the table; ``chooser``: who pressed Setup (the chosen start player, if playing);
    ``min``/``max``: the player range. Players are the seated seat colours in seat order;
    ``slots`` their 0-based seat indexes; ``unlisted`` the seated colours that are no seat of
    this game (in ``seated`` order), told they are not playing; ``enough`` whether the count
    fits the range; ``start`` the chooser's player index, else 0.
    """
    seats, seated = colours(inp, "seats"), colours(inp, "seated")
    low, high = field(inp, "min", "int"), field(inp, "max", "int")
    players, slots, unlisted = seat_players(seats, seated)
    start = chooser_start(inp.get("chooser"), players)
    return {
        "players": players,
        "slots": slots,
        "unlisted": unlisted,
        "enough": low <= len(players) <= high,
        "start": start,
    }


def turn(config: dict, inp: dict) -> dict:
    """The seat to act: bidding goes clockwise from the start seat, picking by pick order.

    ``{"phase": "bid" or "pick", "players": n, "start": seat, "turn": 0-based, "order": [..]}``
    -> ``{"seat": seat}``; ``turn`` counts the bids or picks made so far this round.
    """
    players, step = field(inp, "players", "int"), field(inp, "turn", "int")
    if not 0 <= step < players:
        raise RuleError("bad_turn", f"turn {step} outside 0..{players - 1}")
    phase = inp.get("phase")
    if phase == "bid":
        start = field(inp, "start", "int")
        if not 0 <= start < players:
            raise RuleError("bad_start_seat", f"start seat {start} outside 0..{players - 1}")
        return {"seat": (start + step) % players}
    if phase == "pick":
        order = field(inp, "order", "list", ints=True)
        if step >= len(order):
            raise RuleError("no_pick_order", f"no pick order entry for turn {step}")
        return {"seat": order[step]}
    raise RuleError("bad_phase", f"no turns in phase {phase!r}")


def pass_start(config: dict, inp: dict) -> dict:
    """The start-player card passes one seat clockwise: ``{"players": n, "start": seat}`` ->
    ``{"start": next seat}``."""
    players, start = field(inp, "players", "int"), field(inp, "start", "int")
    if not 0 <= start < players:
        raise RuleError("bad_start_seat", f"start seat {start} outside 0..{players - 1}")
    return {"start": (start + 1) % players}


def bid_range(config: dict, inp: dict) -> dict:
    """Bids a player holding ``purple`` chips may make: ``{"low": 0, "high": purple}``."""
    purple = field(inp, "purple", "int")
    if purple < 0:
        raise RuleError("negative_chips", "purple chips cannot be negative")
    return {"low": 0, "high": purple}


FUNCTIONS: dict[str, Callable[[dict, dict], dict]] = {
    "score_collection": score_collection,
    "pick_order": pick_order,
    "setup": setup,
    "offer_size": offer_size,
    "winners": winners,
    "pick_options": pick_options,
    "seating": seating,
    "turn": turn,
    "bid_range": bid_range,
    "pass_start": pass_start,
}

# --------------------------------------------------------------------------------------------
# The whole game, OpenSpiel-style


class ArcheNoahGame:
    """Static facts of one game: config, player count, first start seat, card identities."""

    def __init__(self, config: dict, num_players: int, start_seat: int = 0) -> None:
        self.config = config
        self.num_players = num_players
        self.setup = setup(config, {"players": num_players})
        if not 0 <= start_seat < num_players:
            raise ValueError(f"start seat {start_seat} outside 0..{num_players - 1}")
        self.start_seat = start_seat
        self.num_values = len(config["card_values"])
        self.num_cards = len(config["animals"]) * self.num_values

    def new_initial_state(self) -> ArcheNoahState:
        """The state before the first chance node."""
        return ArcheNoahState(self)

    def card_animal(self, card: int) -> int:
        """Animal index of a card id."""
        return card // self.num_values

    def card(self, card: int) -> dict:
        """A card id as ``{"animal": name, "value": printed value}``."""
        return {
            "animal": self.config["animals"][card // self.num_values],
            "value": self.config["card_values"][card % self.num_values],
        }

    def card_name(self, card: int) -> str:
        """Readable card name, e.g. ``Lion 3``."""
        face = self.card(card)
        return f"{face['animal']} {face['value']}"


_LIST_FIELDS = ("removed", "pile", "offer", "set_aside", "purple", "green", "bids", "order",
                "paid", "history")


class ArcheNoahState:
    """A game position; ``phase`` is one of ``PHASES``."""

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, game: ArcheNoahGame) -> None:
        n = game.num_players
        self._game = game
        self._phase = "remove"
        self._playthrough = 1
        self._start = game.start_seat
        self._removed: list[int] = []
        self._pile: list[int] = list(range(game.num_cards))
        self._offer: list[int] = []
        self._set_aside: list[int] = []
        self._collections: list[list[int]] = [[] for _ in range(n)]
        self._purple = [game.setup["purple"]] * n
        self._green = [game.setup["green"]] * n
        self._bids: list[int | None] = [None] * n
        self._order: list[int] = []
        self._paid: list[int] = []
        self._turn = 0
        self._to_draw = 0
        self._scores: list[list[dict]] = []
        self._history: list[int] = []
        if game.setup["animals_removed"] == 0:
            self._begin_deal()

    # ---- core API ----------------------------------------------------------------------

    def current_player(self) -> int:
        """Seat to act, ``CHANCE`` or ``TERMINAL``."""
        if self._phase in ("remove", "deal", "offer"):
            return CHANCE
        if self._phase in ("bid", "pick"):
            return turn(self._game.config, {
                "phase": self._phase, "players": self._game.num_players, "start": self._start,
                "turn": self._turn, "order": self._order,
            })["seat"]
        return TERMINAL

    def is_chance_node(self) -> bool:
        """True when chance acts next."""
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        """True after the last play-through is scored."""
        return self._phase == "end"

    def legal_actions(self) -> list[int]:
        """Sorted legal actions (chance outcomes at chance nodes; empty when terminal)."""
        if self._phase == "remove":
            return [a for a in range(len(self._game.config["animals"])) if a not in self._removed]
        if self._phase in ("deal", "offer"):
            return list(self._pile)
        if self._phase == "bid":
            bids = bid_range(self._game.config, {"purple": self._purple[self.current_player()]})
            return list(range(bids["low"], bids["high"] + 1))
        if self._phase == "pick":
            return self._pick_masks()
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Uniform ``(outcome, probability)`` pairs at a chance node."""
        if not self.is_chance_node():
            raise ValueError("chance_outcomes() called at a non-chance node")
        outcomes = self.legal_actions()
        return [(a, 1.0 / len(outcomes)) for a in outcomes]

    def apply_action(self, action: int) -> None:
        """Apply a legal action or chance outcome; ValueError for anything else."""
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} in phase {self._phase}")
        self._history.append(action)
        {
            "remove": self._apply_remove,
            "deal": self._apply_deal,
            "offer": self._apply_offer,
            "bid": self._apply_bid,
            "pick": self._apply_pick,
        }[self._phase](action)

    def returns(self) -> list[int]:
        """Total points per seat over all play-throughs once terminal; zeros before."""
        n = self._game.num_players
        if not self.is_terminal():
            return [0] * n
        return [sum(scores[seat]["total"] for scores in self._scores) for seat in range(n)]

    def winners(self) -> list[int]:
        """Seats sharing the highest total once terminal; empty before."""
        if not self.is_terminal():
            return []
        return winners(self._game.config, {"totals": self.returns()})["winners"]

    def action_to_string(self, action: int) -> str:
        """Readable form of an action in the current position."""
        game = self._game
        if self._phase == "remove":
            return f"remove {game.config['animals'][action]}"
        if self._phase == "deal":
            return f"deal {game.card_name(action)} to seat {self._turn}"
        if self._phase == "offer":
            return f"offer {game.card_name(action)}"
        seat = self.current_player()
        if self._phase == "bid":
            return f"seat {seat} bids {action}"
        if self._phase == "pick":
            taken = self._taken(action)
            names = " + ".join(game.card_name(card) for card in taken) or "nothing"
            chip = " (green chip)" if self._spends_green(len(taken)) else ""
            return f"seat {seat} takes {names}{chip}"
        return f"action {action} (game over)"

    def clone(self) -> ArcheNoahState:
        """An independent copy."""
        return ArcheNoahState.from_dict(self._game, self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        """JSON-able snapshot of the whole position (fresh lists)."""
        data: dict[str, Any] = {name: list(getattr(self, "_" + name)) for name in _LIST_FIELDS}
        data.update(
            players=self._game.num_players,
            phase=self._phase,
            playthrough=self._playthrough,
            start=self._start,
            collections=[list(cards) for cards in self._collections],
            turn=self._turn,
            to_draw=self._to_draw,
            scores=[[dict(score) for score in scores] for scores in self._scores],
        )
        return data

    @classmethod
    def from_dict(cls, game: ArcheNoahGame, data: dict[str, Any]) -> ArcheNoahState:
        """Rebuild a position of ``game`` from ``to_dict()`` output."""
        if data["players"] != game.num_players or data["phase"] not in PHASES:
            raise ValueError("snapshot does not fit this game")
        state = cls.__new__(cls)
        state._game = game
        for name in _LIST_FIELDS:
            setattr(state, "_" + name, list(data[name]))
        state._phase = data["phase"]
        state._playthrough = data["playthrough"]
        state._start = data["start"]
        state._collections = [list(cards) for cards in data["collections"]]
        state._turn = data["turn"]
        state._to_draw = data["to_draw"]
        state._scores = [[dict(score) for score in scores] for scores in data["scores"]]
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArcheNoahState):
            return NotImplemented
        same_game = other._game is self._game or (
            other._game.config == self._game.config
            and other._game.num_players == self._game.num_players
        )
        return same_game and other.to_dict() == self.to_dict()

    def __repr__(self) -> str:
        return (f"ArcheNoahState(phase={self._phase!r}, playthrough={self._playthrough}, "
                f"pile={len(self._pile)}, offer={self._offer})")

    # ---- read-only views (copies) ------------------------------------------------------

    @property
    def game(self) -> ArcheNoahGame:
        return self._game

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def playthrough(self) -> int:
        return self._playthrough

    @property
    def start_seat(self) -> int:
        return self._start

    @property
    def purple(self) -> list[int]:
        return list(self._purple)

    @property
    def green(self) -> list[int]:
        return list(self._green)

    @property
    def collections(self) -> list[list[int]]:
        return [list(cards) for cards in self._collections]

    @property
    def pile(self) -> list[int]:
        return list(self._pile)

    @property
    def pile_size(self) -> int:
        return len(self._pile)

    @property
    def offer(self) -> list[int]:
        return list(self._offer)

    @property
    def set_aside(self) -> list[int]:
        return list(self._set_aside)

    @property
    def removed_animals(self) -> list[int]:
        return list(self._removed)

    @property
    def bids(self) -> list[int | None]:
        """Bids of the current round by seat (None: not yet bid); reset when a round ends."""
        return list(self._bids)

    @property
    def order(self) -> list[int]:
        """Pick order of the current round (empty outside the pick phase)."""
        return list(self._order)

    @property
    def playthrough_scores(self) -> list[list[dict]]:
        """``score_collection`` results per finished play-through, per seat."""
        return [[dict(score) for score in scores] for scores in self._scores]

    @property
    def history(self) -> list[int]:
        return list(self._history)

    # ---- transitions -------------------------------------------------------------------

    def _pick_masks(self) -> list[int]:
        count = len(self._offer)
        allowed = pick_options(
            self._game.config, {"offer": count, "green": self._green[self.current_player()]}
        )["take"]
        return [mask for mask in range(1 << count) if mask.bit_count() in allowed]

    def _taken(self, mask: int) -> list[int]:
        return [card for i, card in enumerate(self._offer) if mask >> i & 1]

    def _spends_green(self, taken: int) -> bool:
        return taken != 1 and bool(self._offer)

    def _apply_remove(self, animal: int) -> None:
        self._removed.append(animal)
        self._pile = [card for card in self._pile if self._game.card_animal(card) != animal]
        if len(self._removed) == self._game.setup["animals_removed"]:
            self._begin_deal()

    def _begin_deal(self) -> None:
        self._phase, self._turn = "deal", 0
        if not self._pile:
            self._start_round()

    def _apply_deal(self, card: int) -> None:
        self._pile.remove(card)
        self._collections[self._turn].append(card)
        self._turn += 1
        if self._turn == self._game.num_players or not self._pile:
            self._start_round()

    def _start_round(self) -> None:
        if not self._pile:
            self._end_playthrough()
            return
        players = self._game.num_players
        size = offer_size(self._game.config, {"players": players, "pile": len(self._pile)})
        self._phase, self._to_draw = "offer", size["count"]

    def _apply_offer(self, card: int) -> None:
        self._pile.remove(card)
        self._offer = sorted([*self._offer, card])
        self._to_draw -= 1
        if self._to_draw == 0:
            self._phase, self._turn = "bid", 0

    def _apply_bid(self, amount: int) -> None:
        self._bids[self.current_player()] = amount
        self._turn += 1
        if self._turn == self._game.num_players:
            result = pick_order(self._game.config, {"bids": self._bids, "start": self._start})
            self._order, self._paid = result["order"], result["paid"]
            self._phase, self._turn = "pick", 0

    def _apply_pick(self, mask: int) -> None:
        seat = self.current_player()
        taken = self._taken(mask)
        if self._spends_green(len(taken)):
            self._green[seat] -= 1
        self._collections[seat].extend(taken)
        self._offer = [card for card in self._offer if card not in taken]
        self._turn += 1
        if self._turn == self._game.num_players:
            self._end_round()

    def _end_round(self) -> None:
        for seat, paid in enumerate(self._paid):
            self._purple[seat] -= min(paid, self._purple[seat])
        self._set_aside.extend(self._offer)
        self._offer, self._order, self._paid = [], [], []
        self._bids = [None] * self._game.num_players
        self._start = pass_start(
            self._game.config, {"players": self._game.num_players, "start": self._start}
        )["start"]
        self._start_round()

    def _end_playthrough(self) -> None:
        game = self._game
        self._scores.append([
            score_collection(game.config, {
                "cards": [game.card(card) for card in self._collections[seat]],
                "purple": self._purple[seat],
                "green": self._green[seat],
                "playthrough": self._playthrough,
            })
            for seat in range(game.num_players)
        ])
        if self._playthrough >= game.config["playthroughs"]:
            self._phase = "end"
            return
        self._playthrough += 1
        self._purple = [game.setup["purple"]] * game.num_players
        in_play = self._set_aside + [card for cards in self._collections for card in cards]
        self._pile = sorted(in_play)
        self._collections = [[] for _ in range(game.num_players)]
        self._set_aside = []
        self._begin_deal()
