"""A report as text (for the terminal) and as ``balance.json`` (for tools): both pure.

Floats in the JSON are rounded to 4 decimals and keys sorted, so the same seed gives the same
bytes.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from .compare import Difference
from .simulate import Report

TOP_CHOICES = 12


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"


def _title(report: Report, source: str) -> str:
    variant = f" ({report.variant})" if report.variant else ""
    bots = ", ".join(report.bots)
    return (
        f"{report.game}{variant} from {source}: {report.players} players, {report.games} games, "
        f"seed {report.seed}, bots {bots}"
    )


def render_text(report: Report, source: str) -> str:
    """The report as a compact table."""
    lines = [_title(report, source)]
    lines.append("seat  bot        win rate (95% CI)      score mean    sd   p10  median  p90")
    for seat in report.seats:
        low, high = seat.win_ci
        rate = f"{_pct(seat.win_rate)} ({_pct(low)}-{_pct(high)})"
        s = seat.score
        lines.append(
            f"{seat.seat:>4}  {seat.bot:<9}  {rate:<21}  {s.mean:>10.2f} {s.sd:>5.1f} "
            f"{_num(s.p10):>5} {_num(s.median):>7} {_num(s.p90):>4}"
        )
    if report.no_winner:
        lines.append(f"games nobody won: {_pct(report.no_winner)}")
    if report.margin is not None:
        m = report.margin
        lines.append(
            f"margin of victory: mean {m.mean:.2f}, median {_num(m.median)}, p90 {_num(m.p90)}"
        )
    r, d = report.rounds, report.decisions
    lines.append(
        f"length: {r.mean:.2f} {report.round_name} ({_num(r.min)}-{_num(r.max)}), "
        f"{d.mean:.1f} decisions per game"
    )
    if report.extras:
        lines.append("per game:")
        width = max(len(name) for name in report.extras)
        lines += [f"  {name:<{width}}  {value:.3f}" for name, value in report.extras.items()]
    for name, value in report.ratios.items():
        shown = _pct(value) if name.startswith("share") else f"{value:.2f}"
        lines.append(f"{name}: {shown}")
    top = sorted(report.choices.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_CHOICES]
    if top:
        shown = ", ".join(f"{name} {value:.2f}" for name, value in top)
        lines.append(f"most chosen (times per game): {shown}")
    return "\n".join(lines) + "\n"


def render_differences(differences: list[Difference], this: str, against: str) -> str:
    """The comparison as a table: this, against, difference, p (* below 0.05)."""
    width = max((len(d.name) for d in differences), default=10)
    lines = [f"difference, same seeds: {this} minus {against}"]
    lines.append(f"  {'':<{width}}  {'this':>9}  {'against':>9}  {'diff':>9}  p")
    for d in differences:
        p = "-" if d.p is None else f"{d.p:.3g}{' *' if d.p < 0.05 else ''}"
        lines.append(
            f"  {d.name:<{width}}  {d.this:>9.3f}  {d.against:>9.3f}  {d.diff:>+9.3f}  {p}"
        )
    return "\n".join(lines) + "\n"


def _rounded(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return _rounded(asdict(value))
    if isinstance(value, float):
        return round(value, 4) + 0.0  # no -0.0
    if isinstance(value, dict):
        return {str(k): _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


def report_data(report: Report, source: str) -> dict[str, Any]:
    """The report as JSON-shaped data (without the per-game records)."""
    data = {f.name: getattr(report, f.name) for f in fields(report) if f.name != "records"}
    data["rules"] = source
    return _rounded(data)


def render_json(
    report: Report,
    source: str,
    against: Report | None = None,
    against_source: str | None = None,
    differences: list[Difference] | None = None,
) -> bytes:
    """``balance.json``: the report, and with a comparison the other report and the rows."""
    data = report_data(report, source)
    if against is not None:
        data["against"] = report_data(against, against_source or "")
        data["differences"] = _rounded(
            [
                {"name": d.name, "this": d.this, "against": d.against, "diff": d.diff, "p": d.p}
                for d in differences or []
            ]
        )
    return (json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()
