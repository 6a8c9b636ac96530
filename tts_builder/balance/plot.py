"""``balance.png``: the distributions of a report (and of the rule set it is compared with).

Drawn with matplotlib's object API on the Agg canvas (no display, no global pyplot state);
the PNG carries no software or date metadata, so the same report gives the same bytes.
matplotlib is the ``plot`` extra (``pip install 'tts-builder[plot]'``): without it, importing
this module is a one-line error (``simulate`` imports it before it plays).
"""

from __future__ import annotations

import io

from ..errors import BuildError
from .simulate import Report

try:
    from matplotlib.figure import Figure
except ImportError as missing:  # pragma: no cover - the test extra installs matplotlib
    raise BuildError(
        "simulate draws balance.png with matplotlib, which is not installed: "
        "pip install 'tts-builder[plot]'"
    ) from missing

THIS, AGAINST = "#2a6f97", "#e76f51"


def _sets(report: Report, against: Report | None) -> list[tuple[str, Report, str]]:
    out = [("this", report, THIS)]
    if against is not None:
        out.append(("against", against, AGAINST))
    return out


def _scores(ax, sets: list) -> None:
    width = 0.8 / len(sets)
    for k, (label, rep, colour) in enumerate(sets):
        data = [rep.seat_scores(s.seat) for s in rep.seats]
        where = [s.seat + (k - (len(sets) - 1) / 2) * width for s in rep.seats]
        boxes = ax.boxplot(
            data, positions=where, widths=width * 0.9, patch_artist=True, manage_ticks=False
        )
        for box in boxes["boxes"]:
            box.set(facecolor=colour, alpha=0.6)
        ax.plot([], [], color=colour, linewidth=6, alpha=0.6, label=label)
    ax.set_xticks(range(len(sets[0][1].seats)))
    ax.set_xticklabels([f"{s.seat}\n{s.bot}" for s in sets[0][1].seats])
    ax.set_title("final score by seat")
    ax.legend(fontsize=8)


def _outcomes(ax, sets: list, prefix: tuple[str, ...] | None, title: str) -> None:
    """Bars of the extras whose names start with ``prefix`` (all of them for None)."""
    names = sorted(
        {n for _, rep, _ in sets for n in rep.extras if prefix is None or n.startswith(prefix)}
    )
    width = 0.8 / len(sets)
    for k, (label, rep, colour) in enumerate(sets):
        where = [i + (k - (len(sets) - 1) / 2) * width for i in range(len(names))]
        ax.barh(where, [rep.extras.get(n, 0.0) for n in names], width, color=colour, label=label)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7)
    ax.invert_yaxis()
    ax.set_title(title)
    ax.legend(fontsize=8)


def _wins(ax, sets: list) -> None:
    width = 0.8 / len(sets)
    for k, (label, rep, colour) in enumerate(sets):
        where = [s.seat + (k - (len(sets) - 1) / 2) * width for s in rep.seats]
        rates = [s.win_rate for s in rep.seats]
        errors = [
            [s.win_rate - s.win_ci[0] for s in rep.seats],
            [s.win_ci[1] - s.win_rate for s in rep.seats],
        ]
        ax.bar(where, rates, width, yerr=errors, capsize=3, color=colour, label=label)
    ax.set_xticks(range(len(sets[0][1].seats)))
    ax.set_xticklabels([f"{s.seat}\n{s.bot}" for s in sets[0][1].seats])
    ax.set_ylabel("share of games won")
    ax.set_title("win rate by seat (95% CI)")
    ax.legend(fontsize=8)


def _histogram(ax, sets: list, samples, title: str, xlabel: str) -> None:
    values = [samples(rep) for _, rep, _ in sets]
    low = min(min(v, default=0) for v in values)
    high = max(max(v, default=0) for v in values)
    bins = [low - 0.5 + i for i in range(int(high - low) + 2)] if high - low < 60 else 30
    for (label, _, colour), data in zip(sets, values, strict=True):
        ax.hist(data, bins=bins, color=colour, alpha=0.55, label=label)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.legend(fontsize=8)


def render_png(report: Report, against: Report | None = None) -> bytes:
    """The figure as PNG bytes."""
    sets = _sets(report, against)
    fig = Figure(figsize=(15, 9), dpi=90, layout="constrained")
    grid = fig.add_gridspec(2, 3)
    variant = f" ({report.variant})" if report.variant else ""
    versus = " vs the rules compared against" if against is not None else ""
    fig.suptitle(
        f"{report.game}{variant}: {report.players} players, {report.games} games, "
        f"seed {report.seed}{versus}"
    )
    first, third = fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 2])
    if report.margin is not None:
        _scores(first, sets)
        _histogram(third, sets, lambda r: r.margins(), "margin of victory", "points")
    else:
        _outcomes(first, sets, ("flood wins", "all animals"), "how games end (share)")
        _outcomes(third, sets, ("last into the Ark",), "last into the Ark (share of games)")
    _wins(fig.add_subplot(grid[0, 1]), sets)
    _histogram(
        fig.add_subplot(grid[1, 0]),
        sets,
        lambda r: [g.rounds for g in r.records],
        "game length",
        report.round_name,
    )
    _outcomes(fig.add_subplot(grid[1, 1:]), sets, None, "per game (mean)")
    out = io.BytesIO()
    fig.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()
