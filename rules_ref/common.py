"""Input checks and seating the games' reference rules share (pure; no I/O).

Each function is the Python twin of a macro of ``lua_templates/common/rules_helpers.j2`` that
the games' Lua Rules render locally: the same results and the same RuleError codes and texts.
Inputs are read as Lua sees JSON: null is absent and ``{}`` is an empty list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import RuleError


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integral number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and value == int(value)


def as_list(value: Any, what: str) -> Any:
    """A list input (null and ``{}``: empty); anything else is refused."""
    if value is None or (isinstance(value, dict) and not value):
        return []
    if not isinstance(value, list | tuple) or (value and value[0] is None):
        raise RuleError("not_a_list", f"{what} must be a list")
    return value


def field(inp: Mapping[str, Any], name: str, kind: str, ints: bool = False) -> Any:
    """``inp[name]``, refused when missing or not of ``kind``: "int" (an integral number) or
    "list" (of integers when ``ints``)."""
    value = inp.get(name)
    if value is None:
        raise RuleError("missing_input", f"missing input {name!r}")
    if kind == "list":
        if isinstance(value, dict) and not value:
            return []
        if not isinstance(value, list | tuple) or (value and value[0] is None):
            raise RuleError("not_a_list", f"input {name!r} must be a list")
        for i, item in enumerate(value):
            if ints and not is_int(item):
                raise RuleError("not_an_integer", f"{name}[{i + 1}] must be an integer")
    elif not is_int(value):
        raise RuleError("not_an_integer", f"input {name!r} must be an integer")
    return value


def colours(inp: Mapping[str, Any], name: str) -> list[str]:
    """A list input of colour names; anything else is refused."""
    value = field(inp, name, "list")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RuleError("not_a_colour", f"{name}[{i + 1}] must be a colour name")
    return list(value)


def seat_players(
    seats: Sequence[str], seated: Sequence[str]
) -> tuple[list[str], list[int], list[str]]:
    """Who plays: the seated colours of ``seats`` in seat order, their 0-based seat indexes,
    and the seated colours that are no seat (in ``seated`` order, each once)."""
    slots = [slot for slot, color in enumerate(seats) if color in seated]
    unlisted: list[str] = []
    for color in seated:
        if color not in seats and color not in unlisted:
            unlisted.append(color)
    return [seats[slot] for slot in slots], slots, unlisted


def chooser_start(chooser: Any, players: Sequence[str]) -> int:
    """The 0-based player index of ``chooser`` (who pressed Setup) among ``players``, else 0;
    a chooser that is not a colour name is refused."""
    if chooser is not None and not isinstance(chooser, str):
        raise RuleError("not_a_colour", "input 'chooser' must be a colour name")
    return players.index(chooser) if chooser in players else 0


def entry_for(entries: Iterable[Mapping[str, Any]], players: int, what: str) -> Mapping[str, Any]:
    """The first entry of a by-player-count table (each entry lists its ``players``) that lists
    ``players``; ``what`` names the table when none does."""
    for entry in entries:
        if players in entry["players"]:
            return entry
    raise RuleError("no_entry", f"no {what} entry covers {players} players")
