"""Model-based play of a built table: random complete games checked step by step against rules_ref.

A game is driven by a list of choices (ints). Every decision (how many players, which legal
action, whether to try an illegal one first and which, which die face) takes the next choice,
clipped to the options; past the end of the list a choice is drawn from a generator seeded by the
game seed and the choice's position, so a list and a seed replay one game exactly and a shorter
or smaller list is a simpler game. The per-game :class:`Adapter` knows the table and the
reference; this module runs games, checks them and shrinks a failure to a short action sequence
(delta debugging over the choices: drop chunks, zero them, lower single values).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..emulator.table import Checkpoint

#: One in this many illegal-action choices injects one (a choice of 0 never does).
INJECT_OUT_OF = 10
INJECT_FROM = 7
#: One in this many steps saves the table and loads the save on a fresh table first.
RELOAD_OUT_OF = 25
#: One in this many steps is followed by loading, on a fresh table, a save taken during it.
MID_STEP_RELOAD_OUT_OF = 6
#: The driver's tables save every this many frames on average (TTS: about 600), so that most
#: steps that span frames have a save taken in the middle of them.
SAVE_EVERY = 8


class Choices:
    """The decisions of one game: given ints first, then seeded draws; records what was used."""

    def __init__(self, seed: int, given: list[int] | None = None) -> None:
        self.seed = seed
        self.given = list(given or [])
        self.used: list[int] = []

    def pick(self, count: int) -> int:
        """A choice in ``0..count-1`` (0 when there is only one option)."""
        if count <= 0:
            raise ValueError("no options to choose from")
        i = len(self.used)
        if i < len(self.given):
            value = self.given[i]
        else:
            value = random.Random(f"{self.seed}:{i}").randrange(1 << 30)
        self.used.append(value)
        return value % count

    def inject(self) -> bool:
        """Whether to try an illegal action before the next step."""
        return self.pick(INJECT_OUT_OF) >= INJECT_FROM

    def reload(self) -> bool:
        """Whether to save the game and load it again before the next step."""
        return self.pick(RELOAD_OUT_OF) == RELOAD_OUT_OF - 1

    def mid_step_reload(self) -> bool:
        """Whether to load a save taken during the step just made (0 never does)."""
        return self.pick(MID_STEP_RELOAD_OUT_OF) == MID_STEP_RELOAD_OUT_OF - 1


@dataclass
class Move:
    """A legal step: what a player does on the table, and the reference action(s) it is."""

    text: str
    perform: Callable[[], None]


@dataclass
class Attempt:
    """An illegal action by ``color``: it must change nothing and tell ``color`` why."""

    color: str
    text: str
    perform: Callable[[], None]


class Adapter(Protocol):
    """One game's table and reference, as the driver sees them."""

    def start(self, choices: Choices) -> str:
        """Build the table, seat the players, set up; a line describing the game."""

    def finished(self) -> bool:
        """True once the reference game is over and the table shows it."""

    def moves(self, choices: Choices) -> list[Move]:
        """The legal steps now (each applies to the reference when performed)."""

    def attempts(self, choices: Choices) -> list[Attempt]:
        """Illegal actions a player could try now."""

    def table_view(self) -> dict[str, Any]:
        """The game state read from the table's objects and script state."""

    def reference_view(self) -> dict[str, Any]:
        """The same fields from the reference state."""

    def told(self, since: int) -> list[tuple[str | None, str]]:
        """Messages since broadcast number ``since``: (recipient colour or None, text)."""

    def broadcasts(self) -> int:
        """How many messages were broadcast so far."""

    def reload(self) -> None:
        """Save the table and load the save on a fresh table (the players stay seated)."""

    def frame(self) -> int:
        """The table's virtual frame now."""

    def saves_since(self, frame: int) -> list[Checkpoint]:
        """The saves the table took at the end of frames after ``frame``, oldest first."""

    def load_save(self, save: dict[str, Any], chance: Checkpoint | None = None) -> None:
        """Load ``save`` on a fresh table (the players stay seated; the chance still to come
        at ``chance`` drawn alike) and let it settle."""


@dataclass
class Failure:
    """Where a game went wrong: the actions up to and including the failing one."""

    seed: int
    actions: list[str]
    problem: str
    choices: list[int] = field(default_factory=list)

    def describe(self) -> str:
        steps = "\n".join(f"  {i + 1}. {text}" for i, text in enumerate(self.actions))
        return f"seed {self.seed}, {len(self.actions)} actions:\n{steps}\n  -> {self.problem}"


def _differences(table: dict[str, Any], reference: dict[str, Any]) -> str:
    keys = sorted(set(table) | set(reference))
    diffs = [
        f"{key}: table {table.get(key)!r}, rules_ref {reference.get(key)!r}"
        for key in keys
        if table.get(key) != reference.get(key)
    ]
    return "; ".join(diffs)


def play_game(
    make: Callable[[int], Adapter],
    seed: int,
    given: list[int] | None = None,
    max_steps: int = 5000,
    reached: set[str] | None = None,
) -> Failure | None:
    """Play one game; the first failure (mismatch, unexplained or effective illegal action,
    script error, a game that does not end), or None. What the game reached (the adapter's
    milestones of each table view, the Rules functions its tables called) is added to
    ``reached``."""
    adapter = make(seed)
    try:
        return _play(adapter, Choices(seed, given), max_steps, reached)
    finally:
        if reached is not None:
            reached |= getattr(adapter, "reached", set())


def _play(
    adapter: Adapter, choices: Choices, max_steps: int, reached: set[str] | None
) -> Failure | None:
    """:func:`play_game` with the adapter made."""
    actions: list[str] = []
    milestones = getattr(adapter, "milestones", None)

    def fail(problem: str) -> Failure:
        return Failure(choices.seed, actions, problem, list(choices.used))

    def differences(view: dict[str, Any]) -> str:
        if reached is not None and milestones is not None:
            reached.update(milestones(view))
        return _differences(view, adapter.reference_view())

    try:
        actions.append(adapter.start(choices))
        view = adapter.table_view()  # the table's state now (unchanged by an illegal action)
        diff = differences(view)
        if diff:
            return fail("after setup the table differs: " + diff)
        for _ in range(max_steps):
            over = adapter.finished()
            if choices.inject() or over:
                attempts = adapter.attempts(choices)
                if attempts:
                    attempt = attempts[choices.pick(len(attempts))]
                    actions.append(f"(illegal) {attempt.color}: {attempt.text}")
                    problem = _try_illegal(adapter, attempt, view)
                    if problem:
                        return fail(problem)
            if over:
                return None
            if choices.reload():
                actions.append("(the game is saved and loaded again)")
                adapter.reload()
                view = adapter.table_view()
                diff = differences(view)
                if diff:
                    return fail("after loading the save the table differs: " + diff)
            moves = adapter.moves(choices)
            if not moves:
                return fail("the reference has no legal action but the game is not over")
            move = moves[choices.pick(len(moves))]
            actions.append(move.text)
            before = adapter.frame()
            move.perform()
            view = adapter.table_view()
            diff = differences(view)
            if diff:
                return fail("the table differs from rules_ref: " + diff)
            saves = adapter.saves_since(before)
            if choices.mid_step_reload() and saves:
                # TTS saves at any frame (a rewind store, a player's save): a save taken
                # while the step ran, loaded and settled, is the game after the step.
                save = saves[choices.pick(len(saves))]
                actions.append(
                    f"(a {save.kind} save taken {save.frame - before} frames into that step "
                    "is loaded)"
                )
                adapter.load_save(save.save, save)
                view = adapter.table_view()
                diff = differences(view)
                if diff:
                    return fail("after loading a save taken during the step: " + diff)
    except Exception as exc:  # a script error or a refused click is a failure of the table
        return fail(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    return fail(f"the game did not end within {max_steps} steps")


def _try_illegal(adapter: Adapter, attempt: Attempt, before: dict[str, Any]) -> str | None:
    """What is wrong with ``attempt`` on a table whose state is ``before``, or None."""
    since = adapter.broadcasts()
    attempt.perform()
    after = adapter.table_view()
    diff = _differences(after, before)
    if diff:
        return "an illegal action changed the table: " + diff
    messages = adapter.told(since)
    if not any(to == attempt.color for to, _ in messages):
        return f"{attempt.color} was not told why (messages: {messages!r})"
    public = [text for to, text in messages if to is None]
    if public:
        return f"an illegal action was announced to everybody: {public!r}"
    return None


def shrink(make: Callable[[int], Adapter], failure: Failure, budget: int = 200) -> Failure:
    """A failure with as few actions as a bounded delta-debugging pass over its choices finds."""
    best = failure
    runs = 0

    def better(candidate: list[int]) -> bool:
        nonlocal best, runs
        if runs >= budget:
            return False
        runs += 1
        result = play_game(make, failure.seed, candidate)
        if result is None:
            return False
        key = (len(result.actions), sum(result.choices))
        if key < (len(best.actions), sum(best.choices)):
            best = result
            return True
        return False

    chunk = max(1, len(best.choices) // 2)
    while chunk >= 1 and runs < budget:
        i = 0
        while i < len(best.choices) and runs < budget:
            current = best.choices
            if not better(current[:i] + current[i + chunk :]):
                zeroed = current[:i] + [0] * len(current[i : i + chunk]) + current[i + chunk :]
                if zeroed == current or not better(zeroed):
                    i += chunk
        chunk //= 2
    for i in range(len(best.choices)):
        if runs >= budget:
            break
        value = best.choices[i]
        if value:
            better(best.choices[:i] + [value // 2] + best.choices[i + 1 :])
    return best


@dataclass
class TableRun:
    """Games played on one table: how many, and the shortest failure found (if any)."""

    games: int
    failure: Failure | None
    #: What the games reached (the phases and milestones of :meth:`Adapter.milestones`, the
    #: ``Rules.<name>`` functions the tables called), sorted
    reached: list[str] = field(default_factory=list)


def play_many(make: Callable[[int], Adapter], seeds: range, budget: int = 200) -> TableRun:
    """Play a game per seed; stop at the first failure and shrink it."""
    reached: set[str] = set()
    for played, seed in enumerate(seeds, start=1):
        failure = play_game(make, seed, reached=reached)
        if failure is not None:
            return TableRun(played, shrink(make, failure, budget), sorted(reached))
    return TableRun(len(seeds), None, sorted(reached))
