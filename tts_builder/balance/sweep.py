"""Rule sweeps: every combination of swept rule values and player counts, played with the same
seeds (common random numbers: game ``i`` of every combination meets the same dice and deals for
as long as the games run alike), summed up per combination and ranked by what "fair" means.

Pure: ``simulate --sweep`` (:mod:`tts_builder.cli_balance`) parses the options with
:func:`parse_sweep` and :func:`parse_players`, sets each combination's values in the
definition's data with :func:`with_value`, plays, and hands the reports to
:func:`render_text` and :func:`render_json`.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml

from ..errors import BuildError
from .report import report_data
from .simulate import Report

#: At most this many values in one ``--sweep`` and combinations in one run: a sweep past it is
#: a typo (``1..1000``) more often than a plan, and each combination plays every game.
MAX_VALUES = 100
MAX_COMBINATIONS = 2000


@dataclass(frozen=True)
class Sweep:
    """One swept definition value: its field ``path`` (``rules.scoring.set_of_four_bonus``)
    and the ``values`` it takes, in order."""

    path: str
    values: tuple[Any, ...]

    @property
    def name(self) -> str:
        """The path's last key, as tables and plots show it."""
        return re.split(r"[.\[]", self.path)[-1].rstrip("]")


def _scalar(text: str, spec: str) -> Any:
    """A value as YAML reads it (``3``, ``0.5``, ``true``, ``red``); only scalars."""
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        value = None
    if value is None or isinstance(value, list | dict):
        raise BuildError(f"--sweep {spec}: {text!r} is not a number, word or true/false")
    return value


def _int_range(text: str, spec: str, what: str) -> tuple[int, ...]:
    """``A..B`` (whole numbers, both included) or ``A..B/STEP``."""
    found = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?", text)
    if found is None:
        raise BuildError(f"{what} {spec}: expected A..B or A..B/STEP with whole numbers")
    low, high, step = int(found[1]), int(found[2]), int(found[3] or 1)
    if high < low or step < 1:
        raise BuildError(f"{what} {spec}: expected A <= B and a step of at least 1")
    if (high - low) // step + 1 > MAX_VALUES:
        raise BuildError(f"{what} {spec}: more than {MAX_VALUES} values")
    return tuple(range(low, high + 1, step))


def parse_sweep(spec: str) -> Sweep:
    """``PATH=A..B`` (``/STEP``) or ``PATH=V1,V2,...``; BuildError naming the option."""
    path, sep, values = spec.partition("=")
    path = path.strip()
    if not sep or not path or not values.strip():
        raise BuildError(f"--sweep {spec}: expected PATH=A..B or PATH=V1,V2 (rules.x=3..8)")
    if ".." in values and "," not in values:
        found: tuple[Any, ...] = _int_range(values, spec, "--sweep")
    else:
        found = tuple(_scalar(value.strip(), spec) for value in values.split(","))
    if len(found) > MAX_VALUES:
        raise BuildError(f"--sweep {spec}: more than {MAX_VALUES} values")
    if len(set(map(repr, found))) != len(found):
        raise BuildError(f"--sweep {spec}: a value is given twice")
    return Sweep(path, found)


def parse_players(text: str) -> tuple[int, ...]:
    """``4``, ``3,4,5`` or ``3..5``: the player counts, each once, in order."""
    if ".." in text:
        return _int_range(text, text, "--players")
    try:
        counts = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise BuildError(f"--players {text}: expected N, N,M,... or A..B") from None
    if len(set(counts)) != len(counts):
        raise BuildError(f"--players {text}: a count is given twice")
    return counts


def field_keys(path: str) -> list[str | int]:
    """The keys of a field path: ``rules.a[2].b`` -> ``["rules", "a", 2, "b"]``."""
    keys: list[str | int] = []
    for part in path.split("."):
        name, *indexes = part.split("[")
        if name:
            keys.append(name)
        for index in indexes:
            if not index.endswith("]") or not index[:-1].isdigit():
                raise BuildError(f"--sweep {path}: {part!r} is not a key or key[index]")
            keys.append(int(index[:-1]))
        if not name and not indexes:
            raise BuildError(f"--sweep {path}: an empty key")
    return keys


def with_value(data: Any, path: str, value: Any) -> Any:
    """``data`` with the value at ``path`` replaced by ``value``: the containers along the path
    copied, the rest shared. The path must name a scalar the definition already holds, so a
    typo in it is an error, not a rule nobody reads."""
    keys = field_keys(path)

    def put(node: Any, at: int) -> Any:
        key = keys[at]
        if isinstance(key, int):
            if not isinstance(node, list) or not 0 <= key < len(node):
                raise BuildError(f"--sweep {path}: the definition has no {path}")
            copied: Any = list(node)
        else:
            if not isinstance(node, dict) or key not in node:
                raise BuildError(f"--sweep {path}: the definition has no {path}")
            copied = dict(node)
        if at == len(keys) - 1:
            if isinstance(copied[key], list | dict):
                raise BuildError(f"--sweep {path}: holds a list or mapping, not one value")
            copied[key] = value
        else:
            copied[key] = put(copied[key], at + 1)
        return copied

    return put(data, 0)


@dataclass(frozen=True)
class Combination:
    """One combination of a sweep: a value of each swept path, and a player count."""

    values: tuple[Any, ...]
    players: int

    def label(self, sweeps: list[Sweep]) -> str:
        shown = [f"{s.name}={v}" for s, v in zip(sweeps, self.values, strict=True)]
        return " ".join([*shown, f"players={self.players}"])


def combinations(sweeps: list[Sweep], players: tuple[int, ...]) -> list[Combination]:
    """Every combination, the first sweep slowest and the player count fastest."""
    values = [sweep.values for sweep in sweeps]
    found = [Combination(combo, n) for combo in itertools.product(*values) for n in players]
    if len(found) > MAX_COMBINATIONS:
        raise BuildError(
            f"--sweep: {len(found)} combinations, more than {MAX_COMBINATIONS}: sweep fewer "
            "values or run several sweeps"
        )
    return found


# --------------------------------------------------------------------------------------------
# What "fair" means


@dataclass(frozen=True)
class Target:
    """A fairness target: ``distance`` from the ideal (smaller is fairer), or None where a
    report cannot say (a game without points has no margin)."""

    name: str
    description: str
    distance: Callable[[Report], float | None]


def _first_player(report: Report) -> float:
    return abs(report.seats[0].win_rate - 1 / report.players)


def _seats(report: Report) -> float:
    return max(abs(seat.win_rate - 1 / report.players) for seat in report.seats)


def _margin(report: Report) -> float | None:
    return report.margin.mean if report.margin is not None else None


TARGETS = {
    target.name: target
    for target in (
        Target("first-player", "the first seat's win rate closest to 1/N", _first_player),
        Target("seats", "every seat's win rate closest to 1/N (the worst seat)", _seats),
        Target("margin", "the smallest mean margin of victory (closest games)", _margin),
    )
}


def spread(report: Report) -> float:
    """The mean gap between the best and the worst final score of a game."""
    gaps = [max(r.scores) - min(r.scores) for r in report.records]
    return sum(gaps) / len(gaps) if gaps else 0.0


def ranks(reports: list[Report], target: Target) -> list[int | None]:
    """Each report's rank by ``target`` (1 the fairest; equal distances share a rank; None
    where the target cannot say)."""
    distances = [target.distance(report) for report in reports]
    known = sorted({round(d, 9) for d in distances if d is not None})
    return [None if d is None else known.index(round(d, 9)) + 1 for d in distances]


# --------------------------------------------------------------------------------------------
# The report


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def render_text(
    game: str,
    source: str,
    sweeps: list[Sweep],
    combos: list[Combination],
    reports: list[Report],
    target: Target,
) -> str:
    """One row per combination, then the fairest ones by ``target``."""
    first = max(reports, key=lambda report: report.players)  # its bots: every seat's
    head = (
        f"{game} from {source}: sweep of {', '.join(s.path for s in sweeps) or 'players'}, "
        f"{len(combos)} combinations, {first.games} games each, seed {first.seed} "
        f"(the same seeds in every combination), bots {', '.join(first.bots)}"
    )
    labels = [combo.label(sweeps) for combo in combos]
    width = max(len(label) for label in labels)
    lines = [
        head,
        f"target: {target.name} ({target.description})",
        f"{'combination':<{width}}  seat 0 wins (95% CI)   worst seat  margin  spread  "
        f"length  distance  rank",
    ]
    ranked = ranks(reports, target)
    for label, report, rank in zip(labels, reports, ranked, strict=True):
        seat = report.seats[0]
        low, high = seat.win_ci
        wins = f"{_pct(seat.win_rate)} ({_pct(low)}-{_pct(high)})"
        margin = f"{report.margin.mean:6.2f}" if report.margin is not None else "     -"
        distance = target.distance(report)
        shown = f"{distance:8.3f}" if distance is not None else "       -"
        lines.append(
            f"{label:<{width}}  {wins:<21}  {_pct(_seats(report)):>10}  {margin}  "
            f"{spread(report):6.2f}  {report.rounds.mean:6.2f}  {shown}  "
            f"{rank if rank is not None else '-':>4}"
        )
    order = sorted((r, i) for i, r in enumerate(ranked) if r is not None)
    if order:
        best = ", ".join(labels[i] for r, i in order if r == order[0][0])
        lines.append(f"fairest by {target.name}: {best}")
    lines.append(
        f"seat 0 wins: the first seat's win rate; worst seat: the largest gap of a seat's win "
        f"rate from 1/N; margin: best minus second best score; spread: best minus worst; "
        f"length in {first.round_name}"
    )
    return "\n".join(lines) + "\n"


def render_json(
    source: str,
    sweeps: list[Sweep],
    combos: list[Combination],
    reports: list[Report],
    target: Target,
) -> bytes:
    """``balance.json`` of a sweep: every combination's values, report, distance and rank."""
    rows = []
    for combo, report, rank in zip(combos, reports, ranks(reports, target), strict=True):
        distance = target.distance(report)
        rows.append(
            {
                "values": {s.path: v for s, v in zip(sweeps, combo.values, strict=True)},
                "players": combo.players,
                "report": report_data(report, source),
                "worst_seat": round(_seats(report), 4),
                "spread": round(spread(report), 4),
                "distance": None if distance is None else round(distance, 4) + 0.0,
                "rank": rank,
            }
        )
    data = {
        "rules": source,
        "sweep": [{"path": s.path, "values": list(s.values)} for s in sweeps],
        "target": {"name": target.name, "description": target.description},
        "combinations": rows,
    }
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
