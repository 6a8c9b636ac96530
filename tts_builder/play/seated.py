"""What every adapter does with its emulated table alike: messages told, and save/load."""

from __future__ import annotations

from ..emulator import EmulatedTable


class SeatedTable:
    """The table half of an adapter: ``table`` with ``colors`` seated, loaded from ``images``
    with a seed. Subclasses set those attributes in their ``__init__``."""

    table: EmulatedTable
    images: dict[str, bytes]
    seed: int
    colors: list[str]

    def broadcasts(self) -> int:
        """How many messages the table has shown so far."""
        return len(self.table.broadcasts)

    def told(self, since: int) -> list[tuple[str | None, str]]:
        """(recipient or None for everybody, text) of every message since ``since``."""
        return [(b["to"], b["message"]) for b in self.table.broadcasts[since:]]

    def reload(self) -> None:
        """Save the table and load the save onto a fresh table with the same players."""
        saved = self.table.save_state()
        self.table = EmulatedTable(saved, seed=self.seed + 1, images=self.images)
        self.table.seat(self.colors)
        self.table.load()
