"""Play K seeded games of one rule set with bots and sum them up in a :class:`Report`.

Pure apart from the worker processes: no files are read or written. Game ``i`` of seed ``S``
draws chance from ``Random("S:i:chance")`` and seat ``s``'s bot from ``Random("S:i:seat s")``,
so any game replays alone, and two rule sets played with the same seed meet the same dice and
deals for as long as their games run alike. Results are gathered in game order, so the report
does not depend on ``jobs``.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from . import stats
from .base import BalanceGame, balance_game
from .bots import MAX_ACTIONS, MAX_DECISIONS, make_bots, sample_chance

Progress = Callable[[int, int], None]
STALLED = f"games still going after {MAX_DECISIONS} decisions"


@dataclass(frozen=True)
class Setup:
    """Everything that decides a simulation's games (picklable, for the workers)."""

    game_id: str
    config: dict[str, Any]
    players: int
    variant: str | None
    bots: tuple[str, ...]
    seed: int = 0
    playouts: int = 8
    horizon: int | None = None

    def balance(self) -> BalanceGame:
        return balance_game(self.game_id, self.config, self.players, self.variant)


@dataclass(frozen=True)
class GameRecord:
    """One finished game."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    rounds: int
    decisions: int
    choices: dict[str, int]
    extras: dict[str, float]


def play_game(setup: Setup, balance: BalanceGame, index: int) -> GameRecord:
    """Play game ``index`` of ``setup`` to the end, or until it stalls (``MAX_DECISIONS``)."""
    bots = make_bots(setup.bots, setup.players, setup.playouts, setup.horizon)
    chance = random.Random(f"{setup.seed}:{index}:chance")
    seats = [random.Random(f"{setup.seed}:{index}:seat {s}") for s in range(setup.players)]
    state, tracker = balance.new_state(), balance.tracker()
    choices: Counter[str] = Counter()
    decisions = 0
    for _ in range(MAX_ACTIONS):
        if state.is_terminal() or decisions >= MAX_DECISIONS:
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance))
        else:
            seat = state.current_player()
            action = bots[seat].choose(balance, state, seats[seat])
            choices.update(balance.labels(state, action))
            tracker.before(state, action)
            state.apply_action(action)
            decisions += 1
        tracker.after(state)
    finished = state.is_terminal()
    return GameRecord(
        scores=tuple(balance.scores(state)),
        winners=tuple(balance.winners(state)) if finished else (),
        rounds=tracker.rounds(state),
        decisions=decisions,
        choices=dict(sorted(choices.items())),
        # a stalled game's own numbers would read as a finished one's: only the stall counts
        extras=dict(sorted(tracker.extras(state).items())) if finished else {STALLED: 1.0},
    )


def play_range(setup: Setup, start: int, stop: int) -> list[GameRecord]:
    """Games ``start`` .. ``stop - 1`` (one worker's share)."""
    balance = setup.balance()
    return [play_game(setup, balance, index) for index in range(start, stop)]


def _executor(jobs: int, cluster: str | None) -> Any:
    """Where the batches run: the Dask scheduler at ``cluster``, else ``jobs`` processes."""
    if cluster is not None:
        from .cluster import cluster_executor

        return cluster_executor(cluster)
    return ProcessPoolExecutor(max_workers=jobs, mp_context=_pool_context())


def _pool_context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def play_games(
    setup: Setup, games: int, jobs: int = 1, progress: Progress | None = None
) -> list[GameRecord]:
    """Play ``games`` games, in ``jobs`` processes when more than one; in game order."""
    return play_many([setup], games, jobs, progress)[0]


def play_many(
    setups: list[Setup],
    games: int,
    jobs: int = 1,
    progress: Progress | None = None,
    cluster: str | None = None,
) -> list[list[GameRecord]]:
    """Play ``games`` games of each setup (a sweep's combinations), all in one pool of ``jobs``
    processes when more than one, or on the Dask scheduler at ``cluster``: each setup's games
    in game order. The work is split into batches of games (a setup and a range of game
    numbers), and a game depends only on its setup and number, so the records are the same
    however and wherever the batches are run."""
    report = progress or (lambda done, total: None)
    total = games * len(setups)
    step = max(1, min(50, total // max(1, jobs * 8)))
    batches = [
        (k, start, min(start + step, games))
        for k in range(len(setups))
        for start in range(0, games, step)
    ]
    results: dict[tuple[int, int], list[GameRecord]] = {}
    done = 0
    if cluster is None and (jobs <= 1 or len(batches) == 1):
        for k, start, stop in batches:
            results[k, start] = play_range(setups[k], start, stop)
            done += stop - start
            report(done, total)
    else:
        with _executor(jobs, cluster) as pool:
            futures = {
                pool.submit(play_range, setups[k], start, stop): (k, start)
                for k, start, stop in batches
            }
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                done += len(results[futures[future]])
                report(done, total)
    return [
        [record for k2, start, _ in batches if k2 == k for record in results[k2, start]]
        for k in range(len(setups))
    ]


# --------------------------------------------------------------------------------------------
# Summing up


@dataclass(frozen=True)
class SeatResult:
    seat: int
    bot: str
    wins: float  # a shared win counts 1/len(winners)
    win_rate: float
    win_ci: tuple[float, float]
    score: stats.Summary


@dataclass(frozen=True)
class Report:
    """What K games of one rule set came to; ``records`` keeps every game (not in the JSON)."""

    game: str
    variant: str | None
    players: int
    games: int
    seed: int
    bots: tuple[str, ...]
    seats: list[SeatResult]
    margin: stats.Summary | None
    no_winner: float  # share of games nobody won (the flood's wins)
    round_name: str
    rounds: stats.Summary
    decisions: stats.Summary
    choices: dict[str, float]  # per game
    extras: dict[str, float]  # mean per game
    ratios: dict[str, float]  # pooled over all games
    records: list[GameRecord] = field(repr=False, compare=False)

    def extra_samples(self, name: str) -> list[float]:
        return [record.extras.get(name, 0.0) for record in self.records]

    def seat_scores(self, seat: int) -> list[float]:
        return [record.scores[seat] for record in self.records]

    def seat_wins(self, seat: int) -> list[float]:
        return [1 / len(r.winners) if seat in r.winners else 0.0 for r in self.records]

    def margins(self) -> list[float]:
        return margins(self.records)


def margins(records: list[GameRecord]) -> list[float]:
    """Each game's margin of victory: the best score minus the second best."""
    out = []
    for record in records:
        ordered = sorted(record.scores, reverse=True)
        out.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0.0)
    return out


def summarize(setup: Setup, balance: BalanceGame, records: list[GameRecord]) -> Report:
    """The report of finished games."""
    games = len(records)
    bots = tuple(
        bot.name for bot in make_bots(setup.bots, setup.players, setup.playouts, setup.horizon)
    )
    report = Report(
        game=setup.game_id,
        variant=setup.variant,
        players=setup.players,
        games=games,
        seed=setup.seed,
        bots=bots,
        seats=[],
        margin=stats.summarize(margins(records)) if balance.has_margin else None,
        no_winner=sum(1 for r in records if not r.winners) / games if games else 0.0,
        round_name=balance.round_name,
        rounds=stats.summarize([r.rounds for r in records]),
        decisions=stats.summarize([r.decisions for r in records]),
        choices={},
        extras={},
        ratios={},
        records=records,
    )
    for seat in range(setup.players):
        wins = stats.mean(report.seat_wins(seat)) * games
        report.seats.append(
            SeatResult(
                seat=seat,
                bot=bots[seat],
                wins=wins,
                win_rate=wins / games if games else 0.0,
                win_ci=stats.wilson(wins, games),
                score=stats.summarize(report.seat_scores(seat)),
            )
        )
    choices: Counter[str] = Counter()
    names: set[str] = set()
    for record in records:
        choices.update(record.choices)
        names.update(record.extras)
    report.choices.update({k: v / games for k, v in sorted(choices.items())})
    report.extras.update({k: stats.mean(report.extra_samples(k)) for k in sorted(names)})
    for name, (top, bottom) in balance.ratios.items():
        denominator = stats.mean(report.extra_samples(bottom))
        share = stats.mean(report.extra_samples(top)) / denominator if denominator else 0.0
        report.ratios[name] = share
    return report


def simulate(
    setup: Setup,
    games: int,
    jobs: int = 1,
    progress: Progress | None = None,
    cluster: str | None = None,
) -> Report:
    """Play ``games`` seeded games of ``setup`` and sum them up."""
    return simulate_many([setup], games, jobs, progress, cluster)[0]


def simulate_many(
    setups: list[Setup],
    games: int,
    jobs: int = 1,
    progress: Progress | None = None,
    cluster: str | None = None,
) -> list[Report]:
    """:func:`simulate` of every setup (a sweep), their games in one pool; in order."""
    balances = [setup.balance() for setup in setups]
    for setup in setups:  # a bad bot name fails before play
        make_bots(setup.bots, setup.players, setup.playouts, setup.horizon)
    records = play_many(setups, games, jobs, progress, cluster)
    return [
        summarize(setup, balance, found)
        for setup, balance, found in zip(setups, balances, records, strict=True)
    ]
