"""What every adapter does with its emulated table alike: messages told, and save/load."""

from __future__ import annotations

from typing import Any

from ..emulator import EmulatedTable


class ReadCachedTable(EmulatedTable):
    """An emulated table whose two reads the driver repeats most (the loose objects without
    their contents, and Global's ``onSave``) are remembered until the table can have changed:
    anything else that runs Lua (a drop, a click, a call, the clock) forgets them. The same
    results as :class:`EmulatedTable`, only fewer conversions."""

    def __init__(self, save: dict[str, Any], **options: Any) -> None:
        self._reads: dict[str, Any] = {}
        super().__init__(save, **options)

    def _run(self, name: str, *args: Any) -> Any:
        self._reads.clear()
        return super()._run(name, *args)

    def objects(self, contents: bool = True) -> list[dict[str, Any]]:
        if contents:
            return super().objects()
        if "objects" not in self._reads:
            self._reads["objects"] = super().objects(contents=False)
        return self._reads["objects"]

    def call_object(self, guid: str, fn_name: str, *json_args: Any) -> Any:
        if guid != "Global" or fn_name != "onSave" or json_args:
            return super().call_object(guid, fn_name, *json_args)
        if "onSave" not in self._reads:
            known = dict(self._reads)
            result = super().call_object(guid, fn_name)  # only reads the script's state
            self._reads.update(known, onSave=result)
        return self._reads["onSave"]


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
        """Save the table and load the save onto a fresh table (of the same kind) with the
        same players."""
        saved = self.table.save_state()
        self.table = type(self.table)(saved, seed=self.seed + 1, images=self.images)
        self.table.seat(self.colors)
        self.table.load()
