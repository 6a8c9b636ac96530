"""Two rule sets played with the same seeds: every number side by side, with its significance.

Win rates and shares of games are compared as proportions (two-proportion z-test), means as
means (Welch's test, normal approximation); pooled shares have no test (p is None). The games
of the two sets are treated as independent samples, which is conservative: the shared seeds
make them alike for as long as their games run alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import stats
from .simulate import Report


@dataclass(frozen=True)
class Difference:
    name: str
    this: float
    against: float
    p: float | None

    @property
    def diff(self) -> float:
        return self.this - self.against


def compare(this: Report, against: Report) -> list[Difference]:
    """``this`` minus ``against``, number by number (same game and player count)."""
    out: list[Difference] = []
    n, m = this.games, against.games
    for a, b in zip(this.seats, against.seats, strict=True):
        p = stats.proportions_p(a.wins, n, b.wins, m)
        out.append(Difference(f"seat {a.seat} win rate", a.win_rate, b.win_rate, p))
    for a, b in zip(this.seats, against.seats, strict=True):
        p = stats.welch_p(this.seat_scores(a.seat), against.seat_scores(b.seat))
        out.append(Difference(f"seat {a.seat} mean score", a.score.mean, b.score.mean, p))
    if this.margin is not None and against.margin is not None:
        p = stats.welch_p(this.margins(), against.margins())
        out.append(Difference("margin of victory", this.margin.mean, against.margin.mean, p))
    if this.no_winner or against.no_winner:
        p = stats.proportions_p(this.no_winner * n, n, against.no_winner * m, m)
        out.append(Difference("games nobody won", this.no_winner, against.no_winner, p))
    rounds_p = stats.welch_p([r.rounds for r in this.records], [r.rounds for r in against.records])
    out.append(
        Difference(
            f"game length ({this.round_name})", this.rounds.mean, against.rounds.mean, rounds_p
        )
    )
    decisions_p = stats.welch_p(
        [r.decisions for r in this.records], [r.decisions for r in against.records]
    )
    out.append(
        Difference("decisions per game", this.decisions.mean, against.decisions.mean, decisions_p)
    )
    for name in sorted(set(this.extras) | set(against.extras)):
        p = stats.welch_p(this.extra_samples(name), against.extra_samples(name))
        out.append(Difference(name, this.extras.get(name, 0.0), against.extras.get(name, 0.0), p))
    for name in sorted(set(this.ratios) | set(against.ratios)):
        out.append(
            Difference(name, this.ratios.get(name, 0.0), against.ratios.get(name, 0.0), None)
        )
    return out
