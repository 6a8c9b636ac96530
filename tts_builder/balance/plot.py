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
from .sweep import Combination, Sweep, Target

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


def render_sweep_png(
    game: str, sweeps: list[Sweep], combos: list[Combination], reports: list[Report],
    target: Target,
) -> bytes:  # fmt: skip
    """A sweep's figure: per player count, the target's distance over the swept values (a heat
    map over two values, the best over any further ones; a line over one; bars over none)
    beside the first seat's win rate with its interval."""
    counts = sorted({combo.players for combo in combos})
    fig = Figure(figsize=(6.5 * len(counts), 9.5), dpi=80, layout="constrained")
    first = reports[0]
    fig.suptitle(
        f"{game}: {target.name} ({target.description}); {first.games} games a combination, "
        f"seed {first.seed}, the same seeds throughout"
    )
    grid = fig.add_gridspec(2, len(counts))
    for column, n in enumerate(counts):
        rows = [(c, r) for c, r in zip(combos, reports, strict=True) if c.players == n]
        _sweep_distance(fig.add_subplot(grid[0, column]), sweeps, rows, target, n)
        _sweep_first_seat(fig.add_subplot(grid[1, column]), sweeps, rows, n)
    out = io.BytesIO()
    fig.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def _sweep_distance(ax, sweeps: list[Sweep], rows: list, target: Target, n: int) -> None:
    distance = {c.values: target.distance(r) for c, r in rows}
    if len(sweeps) >= 2:
        ys, xs = sweeps[0].values, sweeps[1].values
        cells = [[_best(distance, (y, x)) for x in xs] for y in ys]
        shown = [[float("nan") if v is None else v for v in row] for row in cells]
        image = ax.imshow(shown, cmap="viridis_r", aspect="auto", origin="lower")
        known = [v for row in cells for v in row if v is not None]
        middle = (min(known) + max(known)) / 2 if known else 0.0
        for i, row in enumerate(cells):
            for j, value in enumerate(row):
                if value is not None:  # dark ink on the light (low, fair) end of the map
                    ink = "black" if value <= middle else "white"
                    ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=8,
                            color=ink)  # fmt: skip
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_yticks(range(len(ys)), [str(y) for y in ys])
        ax.set_xlabel(sweeps[1].path)
        ax.set_ylabel(sweeps[0].path)
        ax.figure.colorbar(image, ax=ax, label=f"{target.name} distance (lower is fairer)")
        rest = ", ".join(s.name for s in sweeps[2:])
        best = f" (the best over {rest})" if rest else ""
        ax.set_title(f"{n} players: {target.name}{best}")
    elif sweeps:
        xs = sweeps[0].values
        ys = [distance[(x,)] for x in xs]
        ax.plot(range(len(xs)), [float("nan") if y is None else y for y in ys], marker="o",
                color=THIS)  # fmt: skip
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_xlabel(sweeps[0].path)
        ax.set_ylabel(f"{target.name} distance (lower is fairer)")
        ax.set_title(f"{n} players: {target.name}")
    else:
        value = distance[()]
        ax.bar([0], [0.0 if value is None else value], color=THIS)
        ax.set_xticks([0], [f"{n} players"])
        ax.set_ylabel(f"{target.name} distance (lower is fairer)")
        ax.set_title(f"{n} players: {target.name}")


def _best(distance: dict, prefix: tuple) -> float | None:
    """The smallest known distance among the combinations starting with ``prefix``."""
    found = [d for values, d in distance.items() if values[: len(prefix)] == prefix]
    known = [d for d in found if d is not None]
    return min(known) if known else None


def _sweep_first_seat(ax, sweeps: list[Sweep], rows: list, n: int) -> None:
    labels = [" ".join(str(v) for v in c.values) or f"{n} players" for c, _ in rows]
    rates = [r.seats[0].win_rate for _, r in rows]
    errors = [
        [r.seats[0].win_rate - r.seats[0].win_ci[0] for _, r in rows],
        [r.seats[0].win_ci[1] - r.seats[0].win_rate for _, r in rows],
    ]
    ax.bar(range(len(rows)), rates, yerr=errors, capsize=2, color=THIS)
    ax.axhline(1 / n, color=AGAINST, linestyle="--", label=f"1/{n}")
    ax.set_xticks(range(len(rows)), labels, rotation=90, fontsize=7)
    ax.set_xlabel(", ".join(s.name for s in sweeps) or "player count")
    ax.set_ylabel("first seat's share of games won (95% CI)")
    ax.set_title(f"{n} players: the first seat's win rate")
    ax.legend(fontsize=8)
