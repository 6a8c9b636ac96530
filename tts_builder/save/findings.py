"""What a check of a save reports: one :class:`Finding` per problem (the FORMAT §7 checks in
:mod:`.checker`, the table's geometry in :mod:`.geometry_checks`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Level = Literal["req", "conv", "geo"]


@dataclass(frozen=True)
class Finding:
    """One problem: its level, a JSON-path-like location and a one-line message."""

    level: Level
    path: str
    message: str

    def __post_init__(self) -> None:
        """Path and message printable on one line: a save's keys and strings may hold line
        breaks, terminal escapes or lone surrogates; they are shown escaped (``\\n``)."""
        for field in ("path", "message"):
            text = getattr(self, field)
            if not text.isprintable():
                object.__setattr__(self, field, printable(text))

    def __str__(self) -> str:
        return f"[{self.level}] {self.path}: {self.message}"


def printable(text: str) -> str:
    """``text`` with every character ``str.isprintable`` refuses (control characters, line and
    paragraph separators, lone surrogates) written as its Python escape."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii")
        for c in text
    )
